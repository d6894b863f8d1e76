"""The room's connections and what goes out to them: each connection gets every event as its
own seat may see it, and the changes to its state (docs/protocol.md)."""

from __future__ import annotations

import asyncio
from collections import deque

import orjson

from .. import protocol
from ..encoding import json_text as encode
from .state import RoomState

#: Characters (of JSON, mostly ASCII) a connection may have waiting to go out before it is
#: dropped as too slow: a reader that takes frames slower than they come (a bad link, or a
#: client that asks for its whole state again and again and reads it at a trickle) had held the
#: server's memory without end. A dropped page comes back for its whole state, as after any drop.
MAX_BACKLOG = 1 << 20


class Connection:
    """One WebSocket as the room sees it: a seat (or None), and its outgoing text frames,
    sent in order (a message for several connections is encoded once).

    A frame is written to the socket within ``send_text`` itself whenever it can be: a writer
    task per connection cost a task switch per message, four per action, and held every
    message back one turn of the event loop. Only a send that has to wait (the socket's
    buffer is full) goes on in a task, which then sends whatever was queued behind it. One
    whose backlog passes :data:`MAX_BACKLOG` is dropped."""

    def __init__(self, send_text, probe=None, drop=None):
        self.seat: int | None = None
        self._send_text = send_text
        #: ``probe(timeout)``: ping the peer, which is dropped unless it answers in time;
        #: ``drop()``: close the connection at once, its frames unsent (the WebSocket
        #: protocol's, app/web/keepalive.py; None where it has none)
        self.probe, self._drop = probe, drop
        self._backlog: deque[str] = deque()
        self._queued = 0  # (the backlog's characters)
        self._sending: asyncio.Task | None = None
        self.closed = False
        #: the STATE this connection has: its welcome's, then each delivery's
        self.sent: dict | None = None

    def send(self, message: dict) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        if self._sending is not None:
            self._backlog.append(text)
            self._queued += len(text)
            if self._queued > MAX_BACKLOG:
                self._too_slow()
            return
        sending = self._send_text(text)
        try:
            awaited = sending.send(None)  # run it here, as far as it goes without waiting
        except StopIteration:
            return
        except Exception:  # the connection is gone: its reader will see it and detach
            self.closed = True
            return
        self._sending = asyncio.get_running_loop().create_task(self._go_on(sending, awaited))

    async def _go_on(self, sending, awaited) -> None:
        """Finish ``sending`` (a coroutine run by hand until it awaited ``awaited``), as its
        task would have, then send the backlog."""
        try:
            while True:
                if awaited is None:  # a bare yield (asyncio.sleep(0))
                    await asyncio.sleep(0)
                else:
                    awaited._asyncio_future_blocking = False
                    await asyncio.wait([awaited])  # its outcome is the coroutine's to see
                try:
                    awaited = sending.send(None)
                except StopIteration:
                    break
            while self._backlog:
                text = self._backlog.popleft()
                self._queued -= len(text)
                await self._send_text(text)
        except Exception:
            self.closed = True
        finally:
            sending.close()
            self._sending = None

    def _too_slow(self) -> None:
        self.closed = True
        self._backlog.clear()
        self._queued = 0
        if self._drop is not None:  # (its reader sees the connection gone, and detaches it)
            self._drop()

    async def drained(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for what was accepted to be sent, then give it up."""
        sending = self._sending
        if sending is not None:
            done, _ = await asyncio.wait([sending], timeout=timeout)
            if not done:
                sending.cancel()


class Outbox:
    """The connections watching one room, and the frames built for them.

    A connection gets the whole STATE in its ``welcome``; after that, each delivery sends the
    events and the changes that make the STATE it has (``Connection.sent``) the new one, with
    the new one's hash (docs/protocol.md#state-changes). Connections of one seat that have the
    same STATE share the frames, worked out and encoded once.

    ``describe()`` gives ROOM as it is now. ROOM and the chat are the same for every seat:
    each is built and encoded once and kept from one delivery to the next until something in
    it may have changed (:meth:`changed`); rooms whose ROOM changes by itself (a turn timer's
    clock, presence on other processes that expires) have ``volatile()`` true and build it
    for each delivery. Built for each seat, they had been a tenth of an action's instructions
    (docs/performance.md#frames-per-seat)."""

    def __init__(self, state: RoomState, describe, volatile):
        self.state = state
        self.describe, self.volatile = describe, volatile
        self.conns: set[Connection] = set()
        self._room: tuple[dict, orjson.Fragment] | None = None  # ROOM, its canonical text
        self._chat: tuple[list, orjson.Fragment] | None = None

    def local_seats(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None}

    def connected_here(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def changed(self, room: bool = True, chat: bool = False) -> None:
        """ROOM (a seat, the match, its status, a presence) or the chat may have changed."""
        if room:
            self._room = None
        if chat:
            self._chat = None

    def welcome(self, conn: Connection, missed: list | None) -> None:
        """Send ``conn`` the whole STATE of its seat (with the events it ``missed``)."""
        state, digest = self.state_for(conn.seat, None, self._common())
        conn.sent = state
        conn.send(protocol.welcome(self.state.seq, state, missed, digest))

    def state_for(self, seat: int | None, view: dict | None, common: tuple) -> tuple[dict, int]:
        """STATE for ``seat`` and its hash; its ``view`` when worked out already, and the
        ``common`` parts (:meth:`_common`)."""
        state = self.state
        if view is None and state.match is not None:
            view = state.match.view(seat)
        (room, room_text), (chat, chat_text) = common
        name = state.seats[seat].name if seat is not None else None
        text = protocol.canonical(protocol.state(room_text, seat, name, state.seq, view,
                                                 chat_text))
        return (protocol.state(room, seat, name, state.seq, view, chat),
                protocol.state_hash(text))

    def deliver(self, events: list[tuple[int, str, dict]], ack: tuple | None = None) -> None:
        """Send numbered events to every connection, each built for its own seat, the last
        with the changes to the connection's STATE.

        ``ack``: ``(connection, id)`` of the action these events store; that connection's last
        event carries ``"ack": id`` (the acknowledgement rides with the event rather than in a
        frame of its own: a frame less per action)."""
        for _, kind, data in events:
            if kind != "action" or data.get("deal_over"):  # the deal's end starts a clock
                self._room = None
            if kind == "chat":
                self._chat = None
        if not self.conns:
            return
        common = self._common()
        match = self.state.match
        seats = list({conn.seat for conn in self.conns})
        views = dict(zip(seats, match.views(seats))) if match is not None else {}
        fresh: dict = {}  # (seat, id of the STATE it had) -> (new STATE, changes, hash)
        frames: dict = {}  # the same key -> its encoded messages
        for conn in list(self.conns):
            seat, acked = conn.seat, ack is not None and conn is ack[0]
            key = (seat, id(conn.sent))
            after = fresh.get(key)
            if after is None:
                state, digest = self.state_for(seat, views.get(seat), common)
                after = fresh[key] = (state, protocol.state_changes(conn.sent or {}, state),
                                      digest)
            texts = None if acked else frames.get(key)
            if texts is None:
                texts = self._event_texts(events, seat, after, ack[1] if acked else protocol.NO_ACK)
                if not acked:
                    frames[key] = texts
            conn.sent = after[0]
            for text in texts:
                conn.send_text(text)

    def presence(self, seat: int, connected: bool) -> None:
        """Tell every connection a seat's person came or went. Each client sets it in its
        STATE, so the STATE it has (``sent``) changes too."""
        self._room = None
        text = encode(protocol.presence(seat, connected))
        after: dict = {}  # id of a STATE sent -> (it, the same with the presence)
        for conn in list(self.conns):
            if conn.sent is not None:
                pair = after.get(id(conn.sent))
                if pair is None:
                    pair = after[id(conn.sent)] = (
                        conn.sent, protocol.with_presence(conn.sent, seat, connected))
                conn.sent = pair[1]
            conn.send_text(text)

    def _common(self) -> tuple:
        """ROOM and the chat, each with its canonical text: the same for every seat."""
        room = self._room
        if room is None:
            value = self.describe()
            room = (value, orjson.Fragment(protocol.canonical(value)))
            if not self.volatile():
                self._room = room
        if self._chat is None:
            chat = list(self.state.chat)
            self._chat = (chat, orjson.Fragment(protocol.canonical(chat)))
        return room, self._chat

    def _event_texts(self, events, seat: int | None, after: tuple, ack) -> list[str]:
        """The encoded event messages for ``seat``: the last one with the changes to its STATE
        and the new STATE's hash (and the ack)."""
        texts = []
        last = len(events) - 1
        for i, (seq, kind, data) in enumerate(events):
            event = self.state.event_view(kind, data, seat)
            if i == last:
                _, changes, digest = after
                texts.append(encode(protocol.event(seq, event, changes, digest, ack)))
            else:
                texts.append(encode(protocol.event(seq, event)))
        return texts
