"""The room's connections and what goes out to them: each connection gets every event as its
own seat may see it, and the fresh state after it (docs/protocol.md)."""

from __future__ import annotations

import asyncio
from collections import deque

import orjson

from .. import protocol
from ..encoding import json_text as encode
from .state import RoomState


class Connection:
    """One WebSocket as the room sees it: a seat (or None), and its outgoing text frames,
    sent in order (a message for several connections is encoded once).

    A frame is written to the socket within ``send_text`` itself whenever it can be: a writer
    task per connection cost a task switch per message, four per action, and held every
    message back one turn of the event loop. Only a send that has to wait (the socket's
    buffer is full) goes on in a task, which then sends whatever was queued behind it."""

    def __init__(self, send_text):
        self.seat: int | None = None
        self._send_text = send_text
        self._backlog: deque[str] = deque()
        self._sending: asyncio.Task | None = None
        self.closed = False

    def send(self, message: dict) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        if self._sending is not None:
            self._backlog.append(text)
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
                await self._send_text(self._backlog.popleft())
        except Exception:
            self.closed = True
        finally:
            sending.close()
            self._sending = None

    async def drained(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for what was accepted to be sent, then give it up."""
        sending = self._sending
        if sending is not None:
            done, _ = await asyncio.wait([sending], timeout=timeout)
            if not done:
                sending.cancel()


class Outbox:
    """The connections watching one room, and the frames built for them.

    ``describe()`` gives ROOM as it is now. ROOM and the chat are the same for every seat:
    each is encoded once and kept from one delivery to the next until something in it may
    have changed (:meth:`changed`); rooms whose ROOM changes by itself (a turn timer's clock,
    presence on other processes that expires) have ``volatile()`` true and build it each
    time. Built for each action, they had been a tenth of an action's instructions
    (docs/performance.md#frames-per-seat)."""

    def __init__(self, state: RoomState, describe, volatile):
        self.state = state
        self.describe, self.volatile = describe, volatile
        self.conns: set[Connection] = set()
        self._room_text: orjson.Fragment | None = None
        self._chat_text: orjson.Fragment | None = None

    def local_seats(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None}

    def connected_here(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def changed(self, room: bool = True, chat: bool = False) -> None:
        """ROOM (a seat, the match, its status, a presence) or the chat may have changed."""
        if room:
            self._room_text = None
        if chat:
            self._chat_text = None

    def state_for(self, seat: int | None, view: dict | None = None,
                  common: dict | None = None) -> dict:
        """STATE for ``seat``; its ``view`` and the ``common`` parts when worked out already."""
        state = self.state
        if view is None and state.match is not None:
            view = state.match.view(seat)
        if common is None:
            common = {"room": self.describe(), "chat": list(state.chat)}
        name = state.seats[seat].name if seat is not None else None
        return protocol.state(common["room"], seat, name, state.seq, view, common["chat"])

    def deliver(self, events: list[tuple[int, str, dict]], ack: tuple | None = None) -> None:
        """Send numbered events to every connection, each built for its own seat.

        ``ack``: ``(connection, id)`` of the action these events store; that connection's last
        event carries ``"ack": id`` (the acknowledgement rides with the event rather than in a
        frame of its own: a frame less per action)."""
        for _, kind, data in events:
            if kind != "action" or data.get("deal_over"):  # the deal's end starts a clock
                self._room_text = None
            if kind == "chat":
                self._chat_text = None
        if not self.conns:
            return
        common = {"room": self._room_fragment(), "chat": self._chat_fragment()}
        match = self.state.match
        seats = list({conn.seat for conn in self.conns})
        views = dict(zip(seats, match.views(seats))) if match is not None else {}
        frames: dict = {}  # seat -> its encoded messages: built and encoded once per seat
        for conn in list(self.conns):
            seat = conn.seat
            if ack is not None and conn is ack[0]:
                texts = self._event_texts(events, seat, common, views.get(seat), ack[1])
            else:
                texts = frames.get(seat)
                if texts is None:
                    texts = frames[seat] = self._event_texts(events, seat, common,
                                                             views.get(seat))
            for text in texts:
                conn.send_text(text)

    def presence(self, seat: int, connected: bool) -> None:
        self._room_text = None
        text = encode(protocol.presence(seat, connected))
        for conn in list(self.conns):
            conn.send_text(text)

    def _room_fragment(self) -> orjson.Fragment:
        text = self._room_text
        if text is None:
            text = orjson.Fragment(encode(self.describe()))
            if not self.volatile():
                self._room_text = text
        return text

    def _chat_fragment(self) -> orjson.Fragment:
        if self._chat_text is None:
            self._chat_text = orjson.Fragment(encode(self.state.chat))
        return self._chat_text

    def _event_texts(self, events, seat: int | None, common: dict, view: dict | None,
                     ack=protocol.NO_ACK) -> list[str]:
        """The encoded event messages for ``seat``: the last one with its state (and the ack)."""
        texts = []
        last = len(events) - 1
        for i, (seq, kind, data) in enumerate(events):
            event = self.state.event_view(kind, data, seat)
            if i == last:
                texts.append(encode(protocol.event(seq, event, self.state_for(seat, view, common),
                                                   ack)))
            else:
                texts.append(encode(protocol.event(seq, event)))
        return texts
