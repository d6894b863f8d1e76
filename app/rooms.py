"""Rooms in memory: a replica of what the database holds, the connections watching it, and the
one path every action takes (people, bots and the turn timer alike):

    validate with the engine -> store (one transaction) -> tell every connection its own view.

A room is always rebuildable from the database (:meth:`Room.reload`): after a restart, on a
second process, after a lost race or a failed write.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import secrets
import time
from collections import deque
from dataclasses import dataclass

import orjson
from sqlalchemy import bindparam, func

from engine import GAMES, EngineError, IllegalAction, MalformedAction, Match, NotYourTurn
from engine.bots import BOT_KINDS, bot_for

from . import logs
from .broadcast import Broadcaster, LocalBroadcaster
from .db import json_text as encode
from .history import iso
from .models import (DealRow, MatchPlayer, MatchRow, Room as RoomRow, RoomEvent,
                     Seat, now)
from .settings import Settings
from .store import Conflict, Snapshot, StorageError, Store, Tail, token_hash

log = logging.getLogger("cardroom.rooms")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CHAT_KEEP = 50
MISSED_LIMIT = 1000
#: Seconds a presence notice of another process stays valid without a heartbeat.
PRESENCE_TTL = 15.0
_DEALS, _MATCHES = DealRow.__table__, MatchRow.__table__
# The statements of the actions' hot path (and of new deals), made once: Store.write groups a
# group commit's statements by identity, one executemany each. Events' rows are stamped with
# the database's clock as they are stored: a time taken and formatted in Python for each row
# had cost more than the rest of its parameters.
_STORE_EVENT = RoomEvent.__table__.insert().values(created=func.now())
_STORE_DEAL = _DEALS.insert().values(over=False)
_END_DEAL = _DEALS.update().where(
    _DEALS.c.match_id == bindparam("the_match"), _DEALS.c.index == bindparam("the_deal")
).values(over=True, scores=bindparam("new_scores", type_=_DEALS.c.scores.type),
         summary=bindparam("new_summary", type_=_DEALS.c.summary.type),
         ended=bindparam("at", type_=_DEALS.c.ended.type))
_SCORE_MATCH = _MATCHES.update().where(_MATCHES.c.id == bindparam("the_match")).values(
    totals=bindparam("new_totals", type_=_MATCHES.c.totals.type),
    winners=bindparam("new_winners", type_=_MATCHES.c.winners.type))
_FINISH_MATCH = _SCORE_MATCH.values(status="finished",
                                    ended=bindparam("at", type_=_MATCHES.c.ended.type))


class RoomError(Exception):
    """A refusal for the one who asked: ``code`` (protocol error code) and a readable message."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def engine_error_code(error: EngineError) -> str:
    if isinstance(error, MalformedAction):
        return "malformed"
    if isinstance(error, NotYourTurn):
        return "not_your_turn"
    return "illegal"


def bot_name(kind: str) -> str:
    return f"{kind} bot"


@dataclass
class SeatState:
    kind: str  # open | human | bot
    bot: str | None = None
    standin: bool = False
    name: str | None = None
    player_id: int | None = None
    token_hash: str | None = None

    @property
    def played_by_bot(self) -> bool:
        return self.kind == "bot" or (self.kind == "human" and self.standin)


class Connection:
    """One WebSocket as the room sees it: a seat (or None), and its outgoing text frames,
    sent in order (a message for several connections is encoded once).

    A frame is written to the socket within ``send_text`` itself whenever it can be: a writer
    task per connection cost a task switch per message, four per action, and held every
    message back one turn of the event loop. Only a send that has to wait (the socket's
    buffer is full) goes on in a task, which then sends whatever was queued behind it."""

    def __init__(self, send_text):
        self.seat: int | None = None
        self.name: str | None = None
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


@dataclass
class SharedEvent:
    """A stored event as another process shares it (the fields of a RoomEvent row it needs)."""

    seq: int
    kind: str
    data: dict
    client_id: str | None = None


class Room:
    def __init__(self, manager: "RoomManager", snap: Snapshot):
        self.manager = manager
        self.store: Store = manager.store
        self.settings: Settings = manager.settings
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        self.changed = asyncio.Event()
        self.rng = random.Random(secrets.randbits(64))
        self.driver: asyncio.Task | None = None
        self._driver_idle = False  # it waits for a change with nothing planned
        self.last_progress = time.monotonic()
        self._notices: list | None = None  # a catch-up waits: what notices brought so far
        self._notices_complete = True  # ... and every one of them brought its events
        #: seats connected to other processes: seat -> {process origin: valid until}
        self.remote: dict[int, dict[str, float]] = {}
        self.last_used = time.monotonic()
        self.evicted = False
        self._broken = False
        self._install(snap)

    # -- building from the database --------------------------------------------------------------

    def _install(self, snap: Snapshot) -> None:
        room = snap.room
        self.id, self.code, self.game = room.id, room.code, room.game
        self.options = dict(room.options)
        self.turn_timer = room.turn_timer
        self.created = iso(room.created)  # as ROOM shows it (formatted once, not per event)
        self.seats = [SeatState(kind=s.kind, bot=s.bot, standin=s.standin, name=s.name,
                                player_id=s.player_id, token_hash=s.token_hash)
                      for s in snap.seats]
        self.seq = snap.seq
        self.chat = [self._chat_payload(e) for e in snap.chat]
        #: ROOM and the chat, encoded for the next delivery (see _deliver)
        self._room_text: orjson.Fragment | None = None
        self._chat_text: orjson.Fragment | None = None
        self.match: Match | None = None
        self.match_id: int | None = None
        self.match_number = 0
        self.match_event_seq = snap.match_event_seq
        self.action_count = 0
        #: Per seat, the client ids of the match's actions -> the event that stored each, so
        #: that a retry is never applied twice. Plain strings and numbers: nothing per action
        #: for the garbage collector to walk.
        self.client_ids: list[dict[str, int]] = [{} for _ in self.seats]
        if snap.match is None:
            return
        self.match_id, self.match_number = snap.match.id, snap.match.number
        match = Match(GAMES[self.game], snap.match.options)
        by_deal: dict[int, list[RoomEvent]] = {}
        for row in snap.actions:
            by_deal.setdefault(row.data["deal"], []).append(row)
        for deal in snap.deals:
            match.start_deal(list(deal.deck), deal.dealer, deal.kitty)
            for row in by_deal.get(deal.index, []):
                seat = row.data["seat"]
                match.apply(seat, row.data["action"])
                if row.client_id:
                    self.client_ids[seat][row.client_id] = row.seq
        self.action_count = len(snap.actions)
        self.match = match

    async def reload(self) -> None:
        """Forget the replica and rebuild it from the database (the caller holds the lock),
        then tell the connections every event they have not seen yet."""
        old = self.seq
        snap = await asyncio.to_thread(self.store.load_room, self.code)
        if snap is not None:
            self._install(snap)
        self.poke()
        await self._deliver_since(old)

    # -- public description ----------------------------------------------------------------------

    def connected_here(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def connected_elsewhere(self, seat: int) -> bool:
        origins = self.remote.get(seat)
        if not origins:
            return False
        now_ = time.monotonic()
        return any(until > now_ for until in origins.values())

    def connected(self, seat: int) -> bool:
        """A person is connected to ``seat`` on this process or (as far as the other
        processes' presence notices tell) on another one."""
        return self.connected_here(seat) or self.connected_elsewhere(seat)

    def local_seats(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None}

    def remote_presence(self, origin: str, seats, replace: bool) -> None:
        """Another process says which seats of this room are connected to it (``replace``:
        the full list, from its heartbeat) or that one seat came or went."""
        before = {i: self.connected(i) for i in range(len(self.seats))}
        until = time.monotonic() + PRESENCE_TTL
        if replace:
            for origins in self.remote.values():
                origins.pop(origin, None)
            for seat in seats:
                self.remote.setdefault(seat, {})[origin] = until
        else:
            for seat, present in seats:
                if present:
                    self.remote.setdefault(seat, {})[origin] = until
                else:
                    self.remote.get(seat, {}).pop(origin, None)
        for i, was in before.items():
            if self.connected(i) != was:
                self._presence(i, not was)

    async def connected_anywhere(self, seat: int) -> bool:
        """The authoritative check before a seat is handed to a bot: this process, then the
        shared presence registry of the broadcaster (Redis), then the notices we got."""
        if self.connected_here(seat):
            return True
        try:
            elsewhere = await self.manager.broadcaster.present_elsewhere(self.code, seat)
        except Exception as error:  # Redis down: fall back on the notices received
            logs.event("error", self.code, logging.WARNING, what="presence", error=str(error))
            elsewhere = None
        return bool(elsewhere) or self.connected_elsewhere(seat)

    def status(self) -> str:
        if self.match is None:
            return "waiting"
        return "finished" if self.match.finished else "playing"

    def info(self) -> dict:
        teams = GAMES[self.game].teams
        here = self.local_seats()
        return {
            "code": self.code,
            "game": self.game,
            "options": dict(self.options),
            "seats": [
                {"seat": i, "name": s.name if s.kind != "bot" else bot_name(s.bot),
                 "kind": s.kind, "bot": s.bot if s.played_by_bot else None,
                 "standin": s.standin,
                 "connected": s.kind == "bot" or i in here or self.connected_elsewhere(i),
                 "team": (i % 2) if teams else None}
                for i, s in enumerate(self.seats)
            ],
            "status": self.status(),
            "match": ({"id": self.match_id, "number": self.match_number}
                      if self.match_id is not None else None),
            "turn_timer": self.turn_timer,
            **self.turn_clock(),
            "created": self.created,
        }

    def turn_clock(self) -> dict:
        """Seconds left to the person whose turn timer runs (``turn_left``, ``turn_seat``)."""
        plan = self._plan() if self.turn_timer else None
        if plan is None or plan[1] != "timer":
            return {"turn_left": None, "turn_seat": None}
        left = self.last_progress + plan[0] - time.monotonic()
        return {"turn_left": round(max(0.0, left), 1), "turn_seat": plan[2]}

    def state_for(self, seat: int | None, view: dict | None = None,
                  common: dict | None = None) -> dict:
        """The whole state ``seat`` may see. ``view`` (its match view) and ``common`` (the
        ``room`` and ``chat`` parts, the same for every seat) when already worked out."""
        if view is None and self.match is not None:
            view = self.match.view(seat)
        if common is None:
            common = {"room": self.info(), "chat": list(self.chat)}
        return {
            "room": common["room"],
            "you": {"seat": seat, "name": self.seats[seat].name if seat is not None else None},
            "seq": self.seq,
            "match": view,
            "chat": common["chat"],
        }

    def event_for(self, kind: str, data: dict, viewer: int | None) -> dict:
        """An event as ``viewer`` may see it: actions go through the engine's ``redact``."""
        event = {"kind": kind, **data}
        if kind == "action":
            deal = None
            if self.match is not None and data.get("match") == self.match_id \
                    and data["deal"] < len(self.match.deals):
                deal = self.match.deals[data["deal"]]
            if deal is None:  # not of the current match: show nothing that might be hidden
                event["action"] = {"type": data["action"]["type"]}
            else:
                event["action"] = deal.redact(data["action"], data["seat"], viewer)
        if kind == "seat":
            event.pop("token_hash", None)
        return event

    @staticmethod
    def _chat_payload(row: RoomEvent) -> dict:
        return {"seq": row.seq, **row.data}

    # -- telling everyone ------------------------------------------------------------------------

    def _deliver(self, events: list[tuple[int, str, dict]], ack: tuple | None = None) -> None:
        """Send numbered events to every connection, each built for its own seat.

        ``ack``: ``(connection, id)`` of the action these events store; that connection's last
        event carries ``"ack": id`` (the acknowledgement rides with the event rather than in a
        frame of its own: a frame less per action)."""
        if not events:
            return
        self.last_used = time.monotonic()
        for _, kind, data in events:
            if kind != "action" or data.get("match_over"):
                self._room_text = None
            if kind == "chat":
                self._chat_text = None
        if not self.conns:
            return
        common = {"room": self._room_fragment(), "chat": self._chat_fragment()}
        seats = list({conn.seat for conn in self.conns})
        views = dict(zip(seats, self.match.views(seats))) if self.match is not None else {}
        frames: dict = {}  # seat -> its encoded messages: built and encoded once per seat
        for conn in list(self.conns):
            seat = conn.seat
            if ack is not None and conn is ack[0]:
                texts = self._event_texts(events, seat, common, views.get(seat),
                                          {"ack": ack[1]})
            else:
                texts = frames.get(seat)
                if texts is None:
                    texts = frames[seat] = self._event_texts(events, seat, common, views.get(seat))
            for text in texts:
                conn.send_text(text)

    def _room_fragment(self) -> orjson.Fragment:
        """ROOM, encoded once for every seat, and kept from one delivery to the next until
        something in it may have changed: a seat, the match or its status (events other than
        actions, and the action that ends the match) or a seat's presence. Rooms with a turn
        timer (its clock runs) or with seats connected to other processes (their presence
        expires) build it for each delivery."""
        text = self._room_text
        if text is None:
            text = orjson.Fragment(encode(self.info()))
            if not self.turn_timer and not self.remote:
                self._room_text = text
        return text

    def _chat_fragment(self) -> orjson.Fragment:
        """The chat, encoded once for every seat, until the next chat event."""
        if self._chat_text is None:
            self._chat_text = orjson.Fragment(encode(self.chat))
        return self._chat_text

    def _event_texts(self, events, seat: int | None, common: dict, view: dict | None,
                     extra: dict | None = None) -> list[str]:
        """The encoded event messages for ``seat``: the last one with its state (and
        ``extra``'s fields)."""
        texts = []
        last = len(events) - 1
        for i, (seq, kind, data) in enumerate(events):
            message = {"type": "event", "seq": seq, "event": self.event_for(kind, data, seat)}
            if i == last:
                message["state"] = self.state_for(seat, view, common)
                if extra:
                    message.update(extra)
            texts.append(encode(message))
        return texts

    def _presence(self, seat: int, connected: bool) -> None:
        self._room_text = None
        text = encode({"type": "presence", "seat": seat, "connected": connected})
        for conn in list(self.conns):
            conn.send_text(text)

    async def _commit(self, events: list[tuple[str, dict]], extra, statements: list = (),
                      then=None, client_id: str | None = None) -> list[tuple[int, str, dict]]:
        """Store ``events`` (with whatever ``extra(session)`` does and ``statements`` do) in
        one transaction, and number them. ``then(numbered)`` runs right after the commit, before
        this returns (Store.write's on_commit). On failure, rebuild from the database and
        raise RoomError. An action event is stored with its match and ``client_id``."""
        numbered = [(self.seq + 1 + i, kind, data) for i, (kind, data) in enumerate(events)]
        statements = [*statements, *(
            (_STORE_EVENT, {"room_id": self.id, "seq": seq, "kind": kind, "data": data,
                            "match_id": data["match"] if kind == "action" else None,
                            "client_id": client_id if kind == "action" else None})
            for seq, kind, data in numbered)]

        def committed(_result) -> None:
            self.seq = numbered[-1][0]
            if then is not None:
                then(numbered)

        try:
            await self.store.write(extra, statements, on_commit=committed)
        except Conflict:
            logs.event("error", self.code, logging.WARNING, what="conflict",
                       seq=numbered[0][0])
            await self.reload()
            raise RoomError("conflict", "someone acted first; the table was refreshed, try again")
        except StorageError as error:
            logs.event("error", self.code, logging.ERROR, what="storage", error=str(error))
            try:
                await self.reload()
            except Exception:  # still down: the replica is stale, rebuilt before next use
                self._broken = True
            raise RoomError("storage", "the database refused the change; nothing was applied, "
                                       "try again") from None
        return numbered

    def _finish(self, numbered, client_id: str | None = None,
                by: Connection | None = None) -> None:
        """After a commit: keep the chat, tell everyone (``by``, the connection whose action
        this was, with its ``client_id`` as the ack), the other processes and the driver."""
        for seq, kind, data in numbered:
            if kind == "chat":
                self.chat.append({"seq": seq, **data})
        del self.chat[:-CHAT_KEEP]
        self._deliver(numbered, (by, client_id) if by is not None else None)
        # Actions and chat lines travel whole: the other processes apply them as they are.
        # The rest (deals, seats, matches) needs rows they read from the database.
        shared = None
        if all(kind in ("action", "chat") for _, kind, _ in numbered):
            shared = [[seq, kind, data, client_id] for seq, kind, data in numbered]
        self.manager.broadcaster.published(self.code, self.seq, shared)
        self.poke()

    async def _deliver_since(self, old_seq: int) -> None:
        """After a reload: tell the connections what they missed (from the database)."""
        if self.seq <= old_seq or not self.conns:
            return
        rows = await asyncio.to_thread(self.store.events, self.id, old_seq, self.seq)
        self._deliver([(r.seq, r.kind, r.data) for r in rows])

    async def catch_up(self, shared: list | None = None) -> None:
        """Another process stored events: apply them through the engine and deliver them.
        They come with the notice (``shared``: ``[seq, kind, data, client id]`` each) or are
        loaded from the database, with the rows they need; the room is rebuilt from the
        database only when they do not follow on from the replica. Notices that arrive while
        one catch-up waits are folded into it."""
        folded = self._notices is not None
        if not folded:
            self._notices = []
        if shared is None:
            self._notices_complete = False
        else:
            self._notices += shared
        if folded:
            return
        async with self.lock:
            notices = self._notices if self._notices_complete else None
            self._notices, self._notices_complete = None, True
            await self._catch_up_locked(notices)

    async def _ensure_fresh(self) -> None:
        """Before acting on a replica a failed write left stale: rebuild it (or refuse)."""
        if self._broken:
            try:
                await self._catch_up_locked()
            except Exception:
                raise RoomError("storage", "the database is unreachable; nothing was applied, "
                                           "try again") from None

    async def _catch_up_locked(self, shared: list | None = None) -> None:
        old = self.seq
        if self._broken:
            await self.reload()
            self._broken = False
            return
        tail = self._shared_tail(shared) if shared else None
        if tail is None:
            tail = await asyncio.to_thread(self.store.tail, self.id, old)
        if not tail.events:
            return
        if self._apply_tail(tail):
            self._deliver([(e.seq, e.kind, e.data) for e in tail.events])
            self.poke()
            logs.event("caught_up", self.code, logging.DEBUG, events=len(tail.events),
                       seq=self.seq)
        else:
            logs.event("rebuilt", self.code, after=old)
            self.seq = old  # what was applied of the tail is delivered after the rebuild
            await self.reload()

    def _shared_tail(self, shared: list) -> Tail | None:
        """The events of notices as a tail, if they follow on from the replica without a
        gap (else None: the database has what is missing)."""
        events = sorted((SharedEvent(*entry) for entry in shared if entry[0] > self.seq),
                        key=lambda event: event.seq)
        if [event.seq for event in events] != list(range(self.seq + 1,
                                                         self.seq + 1 + len(events))):
            return None
        return Tail(events=events)

    def _apply_tail(self, tail: Tail) -> bool:
        """Apply stored events in order; False if they do not fit the replica (the caller
        then rebuilds it, so a half-applied tail never stays)."""
        for row in tail.events:
            if row.seq != self.seq + 1:
                return False
            kind, data = row.kind, row.data
            match = self.match
            if kind == "action":
                if match is None or data.get("match") != self.match_id \
                        or data.get("n") != self.action_count \
                        or data.get("deal") != len(match.deals) - 1:
                    return False
                try:
                    match.apply(data["seat"], data["action"])
                except EngineError:
                    return False
                if row.client_id is not None:
                    self.client_ids[data["seat"]][row.client_id] = row.seq
                self.action_count += 1
            elif kind == "deal":
                deal = tail.deals.get((data.get("match"), data.get("deal")))
                if match is None or deal is None or data["match"] != self.match_id \
                        or data["deal"] != len(match.deals):
                    return False
                try:
                    match.start_deal(list(deal.deck), deal.dealer, deal.kitty)
                except EngineError:
                    return False
            elif kind == "match":
                self.match = Match(GAMES[self.game], self.options)
                self.match_id, self.match_number = data["match"], data["number"]
                self.match_event_seq = row.seq
                self.action_count = 0
                self.client_ids = [{} for _ in self.seats]
            elif kind == "seat":
                if tail.seats is None or len(tail.seats) != len(self.seats):
                    return False
                self.seats = [SeatState(kind=s.kind, bot=s.bot, standin=s.standin, name=s.name,
                                        player_id=s.player_id, token_hash=s.token_hash)
                              for s in tail.seats]
            elif kind == "chat":
                self.chat.append({"seq": row.seq, **data})
                del self.chat[:-CHAT_KEEP]
            self.seq = row.seq
        self.last_progress = time.monotonic()
        return True

    # -- the one path for actions ----------------------------------------------------------------

    async def _retrying(self, body):
        """Run ``body`` (under the lock); if its write lost a race to another process, the
        replica was caught up: check and run it once more on the fresh state."""
        try:
            return await body()
        except RoomError as error:
            if error.code != "conflict":
                raise
            return await body()

    async def act(self, seat: int, action, client_id: str | None = None,
                  by: Connection | None = None) -> dict:
        """Apply, store, broadcast. Returns ``{"seq", "action"}`` (and ``"duplicate": True``
        for an id already applied, which changes and tells nothing); raises RoomError.
        ``by``: the connection that sent it, whose event of it carries the ack."""
        async with self.lock:
            return await self._retrying(lambda: self._act(seat, action, client_id, by))

    async def _act(self, seat: int, action, client_id: str | None,
                   by: Connection | None) -> dict:
        await self._ensure_fresh()
        if client_id is not None and client_id in self.client_ids[seat]:
            action = await asyncio.to_thread(self.store.client_action, self.id, self.match_id,
                                             seat, client_id)
            return {"seq": self.client_ids[seat][client_id], "action": action,
                    "duplicate": True}
        match = self.match
        if match is None:
            raise RoomError("not_your_turn", "the match has not started: seats are free")
        deal_index = len(match.deals) - 1
        deal = match.current
        try:
            normal = match.apply(seat, action)
        except EngineError as error:
            raise RoomError(engine_error_code(error), error.message) from None
        data = {"match": self.match_id, "deal": deal_index, "seat": seat, "action": normal,
                "deal_over": deal.over, "match_over": match.finished,
                "n": self.action_count}
        match_id, n = self.match_id, self.action_count
        totals, winners, finished = list(match.totals), list(match.winners), match.finished
        scores = deal.scores() if deal.over else None
        summary = deal.summary() if deal.over else None

        statements = []
        if scores is not None:
            at = now()
            statements = [
                (_END_DEAL, {"the_match": match_id, "the_deal": deal_index, "new_scores": scores,
                             "new_summary": summary, "at": at}),
                (_FINISH_MATCH if finished else _SCORE_MATCH,
                 {"the_match": match_id, "new_totals": totals, "new_winners": winners,
                  "at": at})]

        result = {"seq": None, "action": normal}

        def stored(numbered) -> None:
            self.action_count += 1
            result["seq"] = numbered[-1][0]
            if client_id is not None:
                self.client_ids[seat][client_id] = result["seq"]
            self.last_progress = time.monotonic()
            self._finish(numbered, client_id, by)

        await self._commit([("action", data)], None, statements=statements, then=stored,
                           client_id=client_id)
        logs.event("action_stored", self.code, logging.DEBUG, match=match_id, deal=deal_index,
                   n=n, seat=seat, type=normal.get("type"), seq=result["seq"])
        if scores is not None:
            logs.event("deal_ended", self.code, match=match_id, deal=deal_index,
                       scores=scores, totals=totals)
        if finished:
            logs.event("match_ended", self.code, match=match_id, totals=totals,
                       winners=winners)
        return result

    async def _start_deal(self) -> None:
        match = self.match
        deal = match.start_deal()
        index = len(match.deals) - 1
        match_id = self.match_id
        kitty = list(deal.kitty) if deal.kitty is not None else None
        # Statements only, as an action's: the deals that begin together (at many tables, a
        # second after their last tricks) share a group commit. With a transaction (and an
        # fsync) each, 1,000 of them in the same second had made actions up to a second late.
        statements = [(_STORE_DEAL, {"match_id": match_id, "index": index,
                                     "dealer": deal.dealer, "deck": list(deal.deck),
                                     "kitty": kitty, "started": now()})]
        numbered = await self._commit(
            [("deal", {"match": match_id, "deal": index, "dealer": deal.dealer})], None,
            statements=statements)
        self.last_progress = time.monotonic()
        self._finish(numbered)
        logs.event("deal_dealt", self.code, match=match_id, deal=index, dealer=deal.dealer,
                   seq=self.seq)

    async def _start_match(self) -> None:
        """Every seat is filled: a new match (the first, or a rematch), and its first deal."""
        number = self.match_number + 1
        room_id, game, options = self.id, self.game, dict(self.options)
        seats = [(i, s.player_id, s.name if s.kind == "human" else bot_name(s.bot),
                  s.bot if s.kind == "bot" else None) for i, s in enumerate(self.seats)]
        width = GAMES[game].score_width

        def extra(session):
            row = MatchRow(room_id=room_id, number=number, game=game, options=options,
                           status="running", totals=[0] * width, winners=[])
            session.add(row)
            session.flush()
            for seat, player_id, name, bot in seats:
                session.add(MatchPlayer(match_id=row.id, seat=seat, player_id=player_id,
                                        name=name, bot=bot))
            return row.id

        # The match id is known only after the insert: store the event in the same transaction.
        holder: dict = {}

        def extra_with_event(session):
            holder["id"] = extra(session)
            session.add(RoomEvent(room_id=room_id, seq=self.seq + 1, kind="match",
                                  data={"match": holder["id"], "number": number}))

        try:
            await self.store.write(extra_with_event)
        except StorageError as error:
            logs.event("error", self.code, logging.ERROR, what="match_start", error=str(error))
            try:
                await self.reload()
            except Exception:
                self._broken = True
            code = "conflict" if isinstance(error, Conflict) else "storage"
            raise RoomError(code, "the match could not be started; try again") from None
        self.seq += 1
        self.match = Match(GAMES[game], options)
        self.match_id, self.match_number = holder["id"], number
        self.match_event_seq = self.seq
        self.action_count = 0
        self.client_ids = [{} for _ in self.seats]
        self._finish([(self.seq, "match", {"match": holder["id"], "number": number})])
        logs.event("match_started", self.code, match=holder["id"], number=number,
                   game=game, seq=self.seq)
        try:
            await self._start_deal()
        except RoomError as error:  # the match is stored; the driver deals (or another did)
            logs.event("error", self.code, logging.WARNING, what="deal", code=error.code)
            self.poke()

    # -- seats -----------------------------------------------------------------------------------

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """A person takes an open seat: returns (seat, secret token)."""
        async with self.lock:
            return await self._retrying(lambda: self._join(name, seat))

    async def _join(self, name: str, seat: int | None) -> tuple[int, str]:
        await self._ensure_fresh()
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if s.kind == "open"]
            if not free:
                raise RoomError("not_available", "every seat is taken")
            seat = free[0]
        if not 0 <= seat < len(self.seats):
            raise RoomError("bad_field", f"there is no seat {seat}")
        if self.seats[seat].kind != "open":
            raise RoomError("not_available", f"seat {seat} is taken")
        token = secrets.token_urlsafe(32)
        hashed = token_hash(token)
        room_id, store = self.id, self.store

        def extra(session):
            player = store.player(session, name)
            row = session.query(Seat).filter_by(room_id=room_id, seat=seat).one()
            row.kind, row.name, row.player_id, row.token_hash = "human", name, player.id, hashed
            holder["player"] = player.id

        holder: dict = {}
        numbered = await self._commit(
            [("seat", {"seat": seat, "name": name, "seat_kind": "human", "bot": None,
                       "standin": False})], extra)
        self.seats[seat] = SeatState("human", name=name, player_id=holder["player"],
                                     token_hash=hashed)
        self._finish(numbered)
        logs.event("seat_changed", self.code, seat=seat, seat_kind="human")
        await self._maybe_start()
        return seat, token

    async def _maybe_start(self) -> None:
        """Start the match once every seat is filled. The seat change that called this is
        already stored: a failure here (another process dealt first, the database went away)
        is only logged, and the room's driver tries again."""
        if self.match is None and all(s.kind != "open" for s in self.seats):
            try:
                await self._start_match()
            except RoomError as error:
                logs.event("error", self.code, logging.WARNING, what="match_start",
                           code=error.code)
                self.poke()

    def seat_of_token(self, token: str) -> int | None:
        hashed = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, hashed):
                return i
        return None

    async def _set_seat(self, seat: int, **changes) -> None:
        state = self.seats[seat]
        new = SeatState(**{**state.__dict__, **changes})
        room_id = self.id

        def extra(session):
            row = session.query(Seat).filter_by(room_id=room_id, seat=seat).one()
            for key, value in changes.items():
                setattr(row, key, value)

        numbered = await self._commit(
            [("seat", {"seat": seat, "name": new.name if new.kind != "bot" else bot_name(new.bot),
                       "seat_kind": new.kind, "bot": new.bot if new.played_by_bot else None,
                       "standin": new.standin})], extra)
        self.seats[seat] = new
        self._finish(numbered)
        logs.event("seat_changed", self.code, seat=seat, seat_kind=new.kind, bot=new.bot,
                   standin=new.standin)

    async def standin(self, by: int | None, seat, kind) -> None:
        """Hand a seat without a connected person to a bot (kind "rules" or "random")."""
        if by is None:
            raise RoomError("not_seated", "only seated players may hand a seat to a bot")
        kind = kind or "rules"
        if kind not in BOT_KINDS:
            raise RoomError("bad_field", f"no bot kind {kind!r} (rules or random)")
        async with self.lock:
            await self._ensure_fresh()
            if type(seat) is not int or not 0 <= seat < len(self.seats):
                raise RoomError("bad_field", f"there is no seat {seat!r}")
            state = self.seats[seat]
            if state.kind == "open":
                await self._set_seat(seat, kind="bot", bot=kind)
                await self._maybe_start()
            elif state.kind == "human" and not state.standin \
                    and not await self.connected_anywhere(seat):
                await self._set_seat(seat, standin=True, bot=kind)
            else:
                raise RoomError("not_available",
                                f"seat {seat} is played by someone who is here (or a bot)")

    async def rematch(self, by: int | None) -> None:
        if by is None:
            raise RoomError("not_seated", "only seated players may start a rematch")
        async with self.lock:
            await self._ensure_fresh()
            if self.match is None or not self.match.finished:
                raise RoomError("not_available", "the match is not over")
            await self._start_match()

    async def say(self, seat: int | None, text) -> None:
        if seat is None:
            raise RoomError("not_seated", "spectators cannot chat")
        if not isinstance(text, str):
            raise RoomError("bad_field", "text must be a string")
        text = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", "", text).strip()
        if not text:
            raise RoomError("bad_field", "the message is empty")
        if len(text) > self.settings.chat_max:
            raise RoomError("bad_field", f"at most {self.settings.chat_max} characters")
        async with self.lock:
            await self._ensure_fresh()
            data = {"seat": seat, "name": self.seats[seat].name, "text": text,
                    "time": now().isoformat()}
            numbered = await self._commit([("chat", data)], None)
            self._finish(numbered)

    # -- connections -----------------------------------------------------------------------------

    async def attach(self, conn: Connection, token: str | None, since) -> None:
        """A connection says hello: seat it, send ``welcome`` (missed events + state)."""
        error = None
        async with self.lock:
            if self.evicted:
                return False
            await self._ensure_fresh()
            seat = None
            if token is not None:
                seat = self.seat_of_token(token) if isinstance(token, str) else None
                if seat is None:
                    error = RoomError("bad_token", "this seat token is not valid for this room; "
                                                   "you are watching as a spectator")
            conn.seat = seat
            conn.name = self.seats[seat].name if seat is not None else None
            if error:
                conn.send({"type": "error", "code": error.code, "message": error.message})
            missed = None
            if isinstance(since, int) and not isinstance(since, bool) \
                    and since <= self.seq and self.seq - since <= MISSED_LIMIT \
                    and (self.match is None or since >= self.match_event_seq - 1):
                rows = await asyncio.to_thread(self.store.events, self.id, since, self.seq)
                missed = [{"seq": r.seq, "event": self.event_for(r.kind, r.data, seat)}
                          for r in rows]
            was_connected = seat is not None and self.connected(seat)
            was_here = seat is not None and self.connected_here(seat)
            self.conns.add(conn)
            self.last_used = time.monotonic()
            if seat is not None and not was_here:
                self.manager.broadcaster.presence(self.code, seat, True)
            conn.send({"type": "welcome", "seq": self.seq, "state": self.state_for(seat),
                       "missed": missed})
            if seat is not None and not was_connected:
                self._presence(seat, True)
            if seat is not None and self.seats[seat].standin:
                try:
                    await self._set_seat(seat, standin=False, bot=None)
                except RoomError as failure:
                    conn.send({"type": "error", "code": failure.code,
                               "message": failure.message})
        self.ensure_driver()
        return True

    def detach(self, conn: Connection) -> None:
        conn.closed = True
        self.conns.discard(conn)
        self.last_used = time.monotonic()
        if conn.seat is not None and not self.connected_here(conn.seat):
            self.manager.broadcaster.presence(self.code, conn.seat, False)
            if not self.connected_elsewhere(conn.seat):
                self._presence(conn.seat, False)

    # -- bots, deals and the turn timer ----------------------------------------------------------

    def poke(self) -> None:
        """Something changed: the driver plans again, unless it waits with nothing to do and
        there is still nothing for it (most actions between people: a task switch saved)."""
        if self._driver_idle and self._plan() is None:
            return
        self.changed.set()

    def ensure_driver(self) -> None:
        if self.driver is None or self.driver.done():
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    def _plan(self):
        """The next automatic step: (delay from last progress, what, seat) or None."""
        match = self.match
        if match is None:
            if all(s.kind != "open" for s in self.seats):
                return (0.0, "start", None)
            return None
        if match.finished:
            return None
        if match.current is None:
            return (self.settings.deal_pause, "deal", None)
        actors = match.to_act()
        for seat in actors:
            if self.seats[seat].played_by_bot:
                return (self.settings.bot_delay, "bot", seat)
        if self.turn_timer and actors:
            return (self.turn_timer, "timer", actors[0])
        return None

    async def _drive(self) -> None:
        while True:
            self.changed.clear()
            plan = self._plan()
            if plan is None:
                self._driver_idle = True
                try:
                    await self.changed.wait()
                finally:
                    self._driver_idle = False
                continue
            delay, what, seat = plan
            wait = self.last_progress + delay - time.monotonic()
            if wait > 0:
                try:
                    await asyncio.wait_for(self.changed.wait(), timeout=wait)
                    continue  # something happened: plan again
                except asyncio.TimeoutError:
                    pass
            if self._plan() != plan:
                continue
            try:
                await self._step(what, seat)
            except RoomError as error:
                log.info("room %s: automatic %s refused: %s", self.code, what, error.message)
                # A stale choice (someone acted meanwhile) retries at once; a database that is
                # down is retried every second.
                await asyncio.sleep(1.0 if error.code == "storage" else 0.05)
            except Exception:  # never let the room's driver die silently
                log.exception("room %s: automatic %s crashed", self.code, what)
                await asyncio.sleep(1)

    async def _step(self, what: str, seat: int | None) -> None:
        if what == "start":
            async with self.lock:
                await self._ensure_fresh()
                if self.match is None and all(s.kind != "open" for s in self.seats):
                    await self._start_match()
            return
        if what == "deal":
            async with self.lock:
                await self._ensure_fresh()
                if self.match is not None and self.match.current is None \
                        and not self.match.finished:
                    await self._start_deal()
            return
        match = self.match
        kind = self.seats[seat].bot if what == "bot" else "rules"
        bot = bot_for(self.game, kind or "rules")
        action = bot(match.view(seat), match.moves(seat), self.rng)
        await self.act(seat, action)


class RoomManager:
    """The rooms this process holds in memory, loaded from the database on first use."""

    def __init__(self, settings: Settings, store: Store, broadcaster: Broadcaster | None = None):
        self.settings = settings
        self.store = store
        self.broadcaster = broadcaster or LocalBroadcaster()
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        #: rooms being loaded: the last event number another process announced meanwhile
        self._loading_heard: dict[str, int] = {}
        self._sweeper: asyncio.Task | None = None
        self.broadcaster.local_presence = self.local_presence
        self.broadcaster.on_presence = self.remote_presence

    def start(self) -> None:
        """Background upkeep: evict idle rooms."""
        if self.settings.room_idle > 0:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    def local_presence(self) -> dict[str, list[int]]:
        """The seats connected to this process, by room (the presence heartbeat)."""
        out = {}
        for code, room in self.rooms.items():
            seats = room.local_seats()
            if seats:
                out[code] = sorted(seats)
        return out

    def remote_presence(self, origin: str, entries: dict, replace: bool) -> None:
        """Presence of another process: ``entries`` = {code: seats} (heartbeat, ``replace``)
        or {code: [[seat, connected], ...]} (a change)."""
        if replace:
            for code, room in self.rooms.items():
                room.remote_presence(origin, entries.get(code, []), True)
        else:
            for code, changes in entries.items():
                room = self.rooms.get(code)
                if room is not None:
                    room.remote_presence(origin, changes, False)

    def idle(self, room: Room, now_: float) -> bool:
        return (not room.conns and not room.lock.locked() and room._plan() is None
                and now_ - max(room.last_used, room.last_progress) > self.settings.room_idle)

    async def _sweep(self) -> None:
        """Forget rooms nobody watches and nothing drives for ``room_idle`` seconds: they
        are rebuilt from the database on next use."""
        period = max(1.0, min(60.0, self.settings.room_idle / 4))
        while True:
            await asyncio.sleep(period)
            try:
                now_ = time.monotonic()
                for code, room in list(self.rooms.items()):
                    if self.idle(room, now_):
                        self.evict(room)
            except Exception:
                log.exception("sweeping idle rooms failed")

    def evict(self, room: Room) -> None:
        room.evicted = True
        if room.driver is not None:
            room.driver.cancel()
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        logs.event("room_evicted", room.code, seq=room.seq)

    async def get(self, code: str) -> Room | None:
        code = (code or "").upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(code)
            if room is None:
                self._loading_heard[code] = 0
                try:
                    snap = await asyncio.to_thread(self.store.load_room, code)
                finally:
                    heard = self._loading_heard.pop(code)
                if snap is None:
                    return None
                room = Room(self, snap)
                self.rooms[code] = room
                room.ensure_driver()
                logs.event("room_loaded", code, seq=room.seq, match=room.match_id)
                if heard > room.seq:  # stored by another process after the snapshot was read
                    await room.catch_up()
        return room

    async def create(self, game: str, options: dict, seats: list[tuple[str, str | None]],
                     turn_timer: float | None) -> Room:
        checked = GAMES[game].check_options(options)

        def work(session):
            for _ in range(20):
                code = new_code()
                if session.query(RoomRow).filter_by(code=code).first() is None:
                    break
            row = RoomRow(code=code, game=game, options=checked, turn_timer=turn_timer)
            session.add(row)
            session.flush()
            for i, (kind, bot) in enumerate(seats):
                session.add(Seat(room_id=row.id, seat=i, kind=kind, bot=bot, standin=False))
            return code

        try:
            code = await self.store.write(work)
        except StorageError:
            raise RoomError("storage", "the room could not be stored; try again") from None
        logs.event("room_created", code, game=game, seats=[k if b is None else f"{k}:{b}"
                                                          for k, b in seats])
        room = await self.get(code)
        if all(kind == "bot" for kind, _ in seats):
            async with room.lock:
                await room._maybe_start()
        return room

    async def remote_event(self, code: str, seq: int, shared: list | None = None) -> None:
        """Another process stored event ``seq`` of room ``code`` (``"*"``: maybe any room),
        and maybe shared those events (see :meth:`Room.catch_up`)."""
        if code in self._loading_heard:
            self._loading_heard[code] = max(self._loading_heard[code], seq)
        rooms = list(self.rooms.values()) if code == "*" else [self.rooms.get(code)]
        for room in rooms:
            if room is not None and (code == "*" or seq > room.seq):
                try:
                    await room.catch_up(shared)
                except Exception as error:  # the database is away: try again in a second
                    logs.event("error", room.code, logging.WARNING, what="catch_up",
                               error=str(error)[:200])
                    if not room.evicted:
                        asyncio.get_running_loop().call_later(
                            1.0, lambda c=room.code, s=seq: asyncio.ensure_future(
                                self.remote_event(c, s)))

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for room in self.rooms.values():
            if room.driver is not None:
                room.driver.cancel()
        await self.broadcaster.close()
