"""A room: the one actor every change of a table goes through, people's, bots' and the turn
timer's alike. Each command holds the room's lock and goes

    check (the engine decides) -> store (one transaction) -> apply -> tell every connection,

the last two at the commit itself, before anyone waits on anything else. A write that fails
leaves nothing half-done: the room rebuilds itself from the database (:meth:`Room.reload`), as
it does after a restart, on a second process or after a lost race."""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from dataclasses import replace
from datetime import datetime, timezone

from engine import GAMES, EngineError

from .. import protocol
from ..ops import logs
from ..protocol import Refusal
from ..storage.stored import Conflict, DealEnd, Snapshot, StorageError, StoredDeal
from .driver import Driver, absent, ready_for_next, rematch_wait
from .outbox import Connection, Outbox
from .state import RoomState, SeatState, bot_name, token_hash
from .sync import CatchUp, Presence
from .thinking import SEAT_BOTS

#: Most missed events a reconnection is told one by one (more: the state alone).
MISSED_LIMIT = 1000
#: The kinds of events that hold all they need in their data: other processes apply them as
#: they come with their notice.
SHARED = ("action", "chat", "ready")


def open_seat(kinds: list[str], seat: int | None) -> int:
    """The seat a person asking for ``seat`` (None: the first open one) takes, given each
    seat's kind ("standin": a bot plays it for someone away, which only a person asking for
    it by its number takes); Refusal if it is not there or not to be taken."""
    if seat is None:
        free = [i for i, kind in enumerate(kinds) if kind == "open"]
        if not free:
            raise Refusal("not_available", "all_seats_taken")
        seat = free[0]
    if not 0 <= seat < len(kinds):
        raise Refusal("bad_field", "no_such_seat", seat=seat)
    if kinds[seat] not in ("open", "standin"):
        raise Refusal("not_available", "seat_taken", seat=seat)
    return seat


class Room:
    """One table, after boardgame.io's ``Master(game, storage, transport)``: the game's state
    (:class:`RoomState`), its storage (the repository) and its transports (the connections
    here, the broadcaster to other processes)."""

    def __init__(self, snap: Snapshot, settings, repository, broadcaster, thinkers=None):
        self.settings, self.repository, self.broadcaster = settings, repository, broadcaster
        #: the process pool the strong bots think in (thinking.Thinkers, the registry's)
        self.thinkers = thinkers
        self.code, self.game = snap.room.code, snap.room.game
        self.lock = asyncio.Lock()
        self.state = RoomState(snap)
        # ROOM changes by itself while a clock runs or presence on other processes may expire
        self.outbox = Outbox(self.state, self.describe,
                             lambda: bool(self.state.turn_timer) or self.state.between_deals
                             or bool(self.presence))
        self.presence = Presence(self.code, self.outbox, self.broadcaster)
        self.driver = Driver(self)
        #: the turn (match, deal, actions) the prober last saw, since when, and if it probed it
        self._turn: tuple | None = None
        self._turn_since = 0.0
        self._turn_probed = False
        self.catch_up = CatchUp(self)
        self.last_used = time.monotonic()
        # (watched once a socket says hello here, or made here: a room loaded to be listed, or
        # to hear another process's events, had played its bots on for nobody)
        self.last_watched = -math.inf
        self.last_asked = -math.inf  # by a page, a request or a socket here (the registry)
        self.evicted = False
        #: a failed write left the state stale and the database could not be read: it is
        #: rebuilt before the next command
        self.broken = False

    # -- what it is -----------------------------------------------------------------------------

    def describe(self) -> dict:
        """ROOM (docs/protocol.md)."""
        seats = range(len(self.state.seats))
        return self.state.describe({i for i in seats if self.presence.connected(i)},
                                   self.driver.clocks())

    def unwatched(self) -> bool:
        """Nobody has had the room open here for ``bot_table_idle`` seconds."""
        return not self.outbox.conns and \
            time.monotonic() - self.last_watched > self.settings.bot_table_idle

    def idle(self, now: float, after: float) -> bool:
        """Nobody watches, nothing is under way or planned, for ``after`` seconds."""
        return (not self.outbox.conns and not self.lock.locked() and self.driver.plan() is None
                and now - max(self.last_used, self.driver.last_progress) > after)

    # -- the commands ---------------------------------------------------------------------------

    async def act(self, seat: int, action, client_id: str | None = None,
                  by: Connection | None = None, timer: bool = False, standin: bool = False,
                  planned_at: int | None = None) -> dict:
        """Apply, store, tell. Returns ``{"seq", "action"}`` (and ``"duplicate": True`` for an
        id already applied, which changes and tells nothing); raises Refusal. ``by``: the
        connection that sent it, whose event of it carries the ack; ``timer``: the turn timer
        played it for the person, ``standin``: a stand-in bot for someone away (the event says
        so); ``planned_at``: the driver chose it when
        the room's last stored event was this one, and it is refused if another was stored
        since (a move, a deal: the turn that follows has its own time)."""
        async with self.lock:
            if planned_at is not None and planned_at != self.state.seq:
                raise Refusal("conflict", "acted_first")
            return await self._retrying(
                lambda: self._act(seat, action, client_id, by, timer, standin))

    async def _act(self, seat: int, action, client_id: str | None, by: Connection | None,
                   timer: bool, standin: bool) -> dict:
        await self._ensure_fresh()
        state = self.state
        if client_id is not None and client_id in state.client_ids[seat]:
            stored = await asyncio.to_thread(self.repository.client_action, state.id,
                                             state.match_id, seat, client_id)
            return {"seq": state.client_ids[seat][client_id], "action": stored,
                    "duplicate": True}
        match = state.match
        if match is None:
            raise Refusal("not_your_turn", "not_started")
        deal_index, deal = len(match.deals) - 1, match.current
        try:  # the check: the engine applies it to the replica, or refuses it
            normal = match.apply(seat, action)
        except EngineError as error:
            raise Refusal.of_engine(error) from None
        seq = state.seq + 1
        data = {"match": state.match_id, "deal": deal_index, "seat": seat, "action": normal,
                "deal_over": deal.over, "match_over": match.finished, "n": state.action_count}
        if timer:
            data["timer"] = True
        if standin:
            data["standin"] = True
        ended = self._deal_end(deal_index) if deal.over else None

        def stored(_) -> None:
            state.action_stored(seq, seat, client_id)
            self.driver.progressed()
            self._tell([(seq, "action", data)], client_id, by)

        await self._write(self.repository.store_action(state.id, seq, data, client_id, ended,
                                                       stored))
        logs.event("action_stored", self.code, logging.DEBUG, match=state.match_id,
                   deal=deal_index, n=data["n"], seat=seat, type=normal.get("type"), seq=seq)
        if ended is not None:
            logs.event("deal_ended", self.code, match=state.match_id, deal=deal_index,
                       scores=ended.scores, totals=ended.totals)
            if ended.finished:
                logs.event("match_ended", self.code, match=state.match_id,
                           totals=ended.totals, winners=ended.winners)
        return {"seq": seq, "action": normal}

    def _deal_end(self, index: int) -> DealEnd:
        """What the end of deal ``index`` stores: its scores and summary, the match's totals
        and winners, and each seat's share of them."""
        state, match = self.state, self.state.match
        deal, game = match.deals[index], match.game
        scores = deal.scores()
        sides = [game.side(seat) for seat in range(game.seats)]
        return DealEnd(state.match_id, index, scores, deal.summary(), list(match.totals),
                       list(match.winners), match.finished,
                       gains=[scores[side] for side in sides],
                       won=[match.finished and side in match.winners for side in sides])

    async def join(self, name: str, seat: int | None,
                   player_id: int | None = None) -> tuple[int, str]:
        """A person takes an open seat (the first one if ``seat`` is None): the player
        ``player_id`` (known by their key), or a guest called ``name``. (seat, token)."""
        async with self.lock:
            return await self._retrying(lambda: self._join(name, seat, player_id))

    async def _join(self, name: str, seat: int | None,
                    player_id: int | None) -> tuple[int, str]:
        await self._ensure_fresh()
        state = self.state
        seat = open_seat(["standin" if s.standin else s.kind for s in state.seats], seat)
        if state.seats[seat].standin and (player_id is None or state.seat_of_player(player_id) != seat):
            await self._check_taken_over(seat)  # (its player, who took it with a key, takes it back)
        self._check_not_seated(name, player_id, seat)
        token = secrets.token_urlsafe(32)
        hashed = token_hash(token)
        seq = state.seq + 1
        data = SeatState("human", name=name).event(seat)
        by_key = player_id is not None

        def stored(player_id: int) -> None:
            state.seat_changed(seq, seat, kind="human", name=name, player_id=player_id,
                               token_hash=hashed, by_key=by_key, bot=None, standin=False)
            self._tell([(seq, "seat", data)])

        await self._write(self.repository.take_seat(state.id, seq, seat, name, hashed, data,
                                                    stored, player_id))
        logs.event("seat_changed", self.code, seat=seat, seat_kind="human")
        if state.match is not None and state.match.finished:
            # (a seat taken once the match is over, one its person left: taken for the
            # rematch, asked for with it, before the new page has even connected; the seat is
            # theirs whatever becomes of the ask, which their page may make again)
            try:
                await self._say_ready(seat)
            except Refusal as refusal:
                logs.event("error", self.code, logging.WARNING, what="rematch_ask",
                           code=refusal.code)
        await self._start_if_full()
        return seat, token

    async def rename(self, player_id: int) -> None:
        """The player ``player_id``, renamed, is called so at their seat here (a table had kept
        the old name to its end). The name is read under the lock: of two renames close
        together, the later one is the seat's."""
        async with self.lock:
            await self._retrying(lambda: self._rename(player_id))

    async def _rename(self, player_id: int) -> None:
        await self._ensure_fresh()
        seat = self.state.seat_of_player(player_id)
        if seat is None:
            return
        name = await asyncio.to_thread(self.repository.player_name, player_id)
        if name is None or self.state.seats[seat].name == name:
            return
        self._check_not_seated(name, player_id, seat)  # (a guest's seat may show that name)
        await self._change_seat(seat, name=name)

    async def _check_taken_over(self, seat: int) -> None:
        """A seat a bot plays for someone away may be taken over by someone else (the table
        played on without them, and a spectator, their grandmother say, would rather play it),
        while no deal is in play: taken during one, its hidden cards would reach whoever handed
        it to the bot and came back as another person. Not while its person is connected."""
        match = self.state.match
        if (match is not None and match.current is not None) or await self.presence.anywhere(seat):
            raise Refusal("not_available", "take_over_between_deals", seat=seat)

    def _check_not_seated(self, name: str, player_id: int | None, taking: int) -> None:
        """One person, one seat of a table: a player (or a guest's name) at a second seat would
        play against themselves, or with both teams, and the table could not tell them apart.
        (The seat ``taking`` is left: its own person may take it back from their stand-in.)"""
        key = protocol.name_key(name)
        for seat, taken in enumerate(self.state.seats):
            if seat != taking and taken.kind == "human" and (protocol.name_key(taken.name) == key or (
                    player_id is not None and taken.player_id == player_id)):
                raise Refusal("not_available", "already_seated", name=name, seat=seat)

    async def standin(self, by: int | None, seat, kind: str | None) -> None:
        """Hand a seat without a connected person (or an open seat) to a bot of ``kind``."""
        if by is None:
            raise Refusal("not_seated", "only_seated_standin")
        kind = kind or "rules"
        if kind not in SEAT_BOTS:
            raise Refusal("bad_field", "no_bot_kind", bot=str(kind)[:20])
        async with self.lock:
            await self._ensure_fresh()
            if type(seat) is not int or not 0 <= seat < len(self.state.seats):
                raise Refusal("bad_field", "no_such_seat", seat=repr(seat)[:20])
            now = self.state.seats[seat]
            if now.kind == "open":
                await self._change_seat(seat, kind="bot", bot=kind)
                await self._start_if_full()
            elif now.kind == "human" and not now.standin \
                    and not await self.presence.anywhere(seat):
                if kind == "random":  # (a bot that plays any card: an opponent's gift to itself)
                    raise Refusal("not_available", "standin_not_random", name=now.name)
                left = self.settings.standin_grace - self.presence.away_for(seat)
                if left > 0:  # (a blip of a phone's link is not leaving the table)
                    raise Refusal("not_available", "away_briefly", name=now.name,
                                  seconds=math.ceil(left))
                await self._change_seat(seat, standin=True, bot=kind)
            else:
                raise Refusal("not_available", "seat_busy", seat=seat)

    async def start(self) -> None:
        """Start the first match once every seat is filled (the driver's step)."""
        async with self.lock:
            await self._ensure_fresh()
            if self.state.match is None and self.state.full:
                await self._begin_match()

    async def rematch(self, by: int | None) -> None:
        """A person asks for a rematch: it begins once every person at the table has (the
        driver's step, :meth:`begin_rematch`), so that nobody's result is wiped from under
        their eyes by another's tap. Stored and told as a ``ready`` for the match's last deal."""
        if by is None:
            raise Refusal("not_seated", "only_seated_rematch")
        async with self.lock:
            await self._ensure_fresh()
            await self._retrying(lambda: self._ask_rematch(by))

    async def _ask_rematch(self, seat: int) -> None:
        self._check_seated(seat, "only_seated_rematch")
        match = self.state.match
        if match is None or not match.finished:
            raise Refusal("not_available", "match_not_over")
        await self._say_ready(seat)

    async def begin_rematch(self) -> None:
        """The rematch everyone at the table asked for (the driver's step). The seat of someone
        who left without asking for it is opened first, for a friend or a bot to take: the
        rematch waits for it (it had begun with them "away", and a stand-in's match had counted
        as theirs)."""
        async with self.lock:
            await self._ensure_fresh()
            state, presence = self.state, self.presence  # (someone may have come back)
            if state.match is None or not state.match.finished \
                    or not ready_for_next(state, presence.connected) \
                    or rematch_wait(state, self.settings, presence.connected, presence.away_for):
                return
            leaving = absent(state, presence.connected)
            for seat in leaving:  # (asked where they may be connected: on another process)
                if not state.seats[seat].standin and await presence.anywhere(seat):
                    return
            for seat in leaving:
                await self._open_seat(seat)
            if state.full:
                await self._begin_match()

    async def leave(self, seat: int | None) -> None:
        """A person gives up their seat while no match is in play (before the first, or once
        it is over): it is opened, for a friend or a bot to take, and a rematch waits for it
        (there had been no way to leave but to close the page)."""
        if seat is None:
            raise Refusal("not_seated", "only_seated_leave")
        async with self.lock:
            await self._ensure_fresh()
            await self._retrying(lambda: self._leave(seat))
            self.broadcaster.presence(self.code, seat, False)
            if not self.presence.elsewhere(seat):
                self.presence.gone(seat)
        self.driver.poke()  # (everyone else may have asked for the rematch already)

    async def _leave(self, seat: int) -> None:
        match = self.state.match
        if match is not None and not match.finished:
            raise Refusal("not_available", "leave_in_play")
        self._check_seated(seat, "only_seated_leave")
        await self._open_seat(seat)

    def _check_seated(self, seat: int, reason: str) -> None:
        """Refusal (``reason``) for a seat nobody holds any more (left: a connection of another
        process may not know it yet)."""
        if self.state.seats[seat].kind == "open":
            raise Refusal("not_seated", reason)

    async def _open_seat(self, seat: int) -> None:
        await self._change_seat(seat, kind="open", name=None, player_id=None, token_hash=None,
                                by_key=False, bot=None, standin=False)

    async def deal(self) -> None:
        """Deal the next deal of the match, if it waits for one (the driver's step)."""
        async with self.lock:
            await self._ensure_fresh()
            match = self.state.match
            if match is not None and match.current is None and not match.finished:
                await self._deal()

    async def ready(self, seat: int | None, wait: bool = False, read: int | None = None) -> None:
        """A person has read the deal's summary and asks for the next deal: it is dealt once
        every person at the table has (or the countdown ends; see driver.next_step). ``wait``:
        they are still reading it, and the countdown stops. ``read``: the deal whose summary
        they read, if their page said."""
        if seat is None:
            raise Refusal("not_seated", "only_seated_next")
        async with self.lock:
            await self._ensure_fresh()
            await self._retrying(lambda: self._ask_next(seat, wait, read))

    async def _ask_next(self, seat: int, wait: bool, read: int | None) -> None:
        match = self.state.match
        if read is not None and match is not None and 0 <= read < len(match.deals) - 1:
            return  # (sent as the next deal came: that deal's summary is gone, nothing to ask)
        if not self.state.between_deals:
            raise Refusal("not_available", "no_deal_to_close")
        await self._say_ready(seat, wait)

    async def _say_ready(self, seat: int, wait: bool = False) -> None:
        """``seat`` has read the deal's (or the match's) end and asks for what comes next
        (``wait``: asks for time to read it; stored as a ``ready`` note that says so)."""
        state = self.state
        if seat in state.ready or (wait and seat in state.waiting):
            return
        seq = state.seq + 1
        data = {"seat": seat, "deal": len(state.match.deals) - 1, **({"wait": True} if wait else {})}

        def stored(_) -> None:
            state.ready_said(seq, seat, wait)
            if wait:  # (deal_wait counts from the asking, as other processes count it)
                self.driver.progressed()
            self._tell([(seq, "ready", data)])

        await self._write(self.repository.store_note(state.id, seq, "ready", data, stored))

    async def say(self, seat: int | None, text, client_id: str | None = None,
                  by: Connection | None = None) -> None:
        """A chat line; ``by``'s event of it carries ``client_id`` as its ack."""
        if seat is None:
            raise Refusal("not_seated", "spectators_chat")
        text = protocol.chat_line(text, self.settings.chat_max)
        async with self.lock:
            await self._ensure_fresh()
            state = self.state
            seq = state.seq + 1
            data = {"seat": seat, "name": state.seats[seat].name, "text": text,
                    "time": datetime.now(timezone.utc).isoformat()}

            def stored(_) -> None:
                state.chat_said(seq, data)
                self._tell([(seq, "chat", data)], client_id, by)

            await self._write(self.repository.store_note(state.id, seq, "chat", data, stored))

    # -- connections ------------------------------------------------------------------------------

    async def attach(self, conn: Connection, token: str | None, since: int | None,
                     player_id: int | None = None, admit=None) -> bool:
        """A connection says hello: seat it by its seat token or, failing that, by its
        player (``player_id``, known by their key: their seats on any device); send
        ``welcome`` (the missed events and the state). ``admit(seat)`` may refuse it (a
        Refusal) once its seat is known. False if the room was evicted meanwhile (the caller
        loads it again)."""
        async with self.lock:
            if self.evicted:
                return False
            await self._ensure_fresh()
            state = self.state
            seat = None
            if token is not None:
                seat = state.seat_of_token(token)
                if seat is None:
                    conn.send(protocol.error(Refusal("bad_token", "bad_token")))
            if seat is None and player_id is not None:
                seat = state.seat_of_player(player_id)
            if admit is not None:
                admit(seat)
            conn.seat = seat
            missed = None  # (the events of an earlier match cannot be shown seat by seat)
            if since is not None and since <= state.seq and state.seq - since <= MISSED_LIMIT \
                    and (state.match is None or since >= state.match_event_seq - 1):
                missed = await self._missed(since, seat)
            was_connected = seat is not None and self.presence.connected(seat)
            was_here = seat is not None and self.outbox.connected_here(seat)
            self.outbox.conns.add(conn)
            self.last_used = self.last_watched = time.monotonic()
            if seat is not None and not was_here:
                self.broadcaster.presence(self.code, seat, True)
            self.outbox.welcome(conn, missed)
            if seat is not None and not was_connected:
                self.outbox.presence(seat, True)
            if seat is not None and state.seats[seat].standin:  # back: the stand-in leaves
                try:
                    await self._change_seat(seat, standin=False, bot=None)
                except Refusal as refusal:
                    conn.send(protocol.error(refusal))
        self.driver.ensure()
        self.driver.poke()  # a paused room of bots plays on
        return True

    async def _missed(self, since: int, seat: int | None) -> list[dict] | None:
        """The events after ``since`` as ``seat`` may see them; None if the database cannot
        give them now (the welcome's whole state is enough: they only tell what happened)."""
        state = self.state
        try:
            events = await asyncio.to_thread(self.repository.events, state.id, since, state.seq)
        except StorageError as error:
            logs.event("error", self.code, logging.WARNING, what="missed_events",
                       error=str(error)[:200])
            return None
        return [protocol.missed_event(e.seq, state.event_view(e.kind, e.data, seat))
                for e in events]

    async def resync(self, conn: Connection) -> None:
        """``conn`` asks for its whole state again (its own went wrong). Under the lock, as
        every welcome: an action the engine applied to the replica is stored before it shows."""
        async with self.lock:
            await self._ensure_fresh()
            self.outbox.welcome(conn, None)

    def probe_if_slow(self, now: float) -> None:
        """The people to act have taken ``probe_after`` seconds (from when the prober first
        saw the turn, the same on every process): ping their connections here, once a turn.
        One whose link died is dropped within ``probe_timeout``, and the table sees them away
        (and may hand the seat to a bot)."""
        state, match = self.state, self.state.match
        if match is None or match.finished or match.current is None:
            return
        turn = (state.match_id, len(match.deals), state.action_count)
        if turn != self._turn:
            self._turn, self._turn_since, self._turn_probed = turn, now, False
        if self._turn_probed or now - self._turn_since < self.settings.probe_after:
            return
        self._turn_probed = True
        seats = match.to_act()
        for conn in self.outbox.conns:
            if conn.seat in seats and conn.probe is not None:
                conn.probe(self.settings.probe_timeout)

    def detach(self, conn: Connection) -> None:
        conn.closed = True
        if conn not in self.outbox.conns:  # (it never said hello here: nobody watched)
            return
        self.outbox.conns.discard(conn)
        self.last_used = self.last_watched = time.monotonic()
        seat = conn.seat
        if seat is not None and not self.outbox.connected_here(seat):
            self.broadcaster.presence(self.code, seat, False)
            if not self.presence.elsewhere(seat):
                self.presence.gone(seat)
                self.driver.poke()  # (the table may have waited for them alone: a rematch)

    # -- rebuilding ---------------------------------------------------------------------------------

    async def reload(self, deliver_since: int | None = None) -> None:
        """Forget the replica and rebuild it from the database (the caller holds the lock),
        then tell the connections every event after ``deliver_since`` (default: the replica's
        last) they have not seen yet."""
        old = self.state.seq if deliver_since is None else deliver_since
        snap = await asyncio.to_thread(self.repository.load, self.code)
        if snap is not None:
            self.state = self.outbox.state = RoomState(snap)
            self.outbox.changed(room=True, chat=True)
        self.broken = False
        self.driver.poke()
        if self.state.seq > old and self.outbox.conns:
            events = await asyncio.to_thread(self.repository.events, self.state.id, old,
                                             self.state.seq)
            self.outbox.deliver([(e.seq, e.kind, e.data) for e in events])
            self._watch_from_open_seats()

    async def _ensure_fresh(self) -> None:
        """Before acting on a replica a failed write left stale: rebuild it (or refuse)."""
        if self.broken:
            try:
                await self.reload()
            except Exception:
                raise Refusal("storage", "storage_unreachable") from None

    # -- the steps every command shares -------------------------------------------------------

    async def _write(self, writing):
        """Await a repository write: the one path a failed write takes. Nothing of it was
        stored, and the replica (which the engine may have moved on already) is rebuilt."""
        try:
            return await writing
        except Conflict:
            logs.event("error", self.code, logging.WARNING, what="conflict",
                       seq=self.state.seq + 1)
            await self._rebuild_after_failure()
            raise Refusal("conflict", "acted_first") from None
        except StorageError as error:
            logs.event("error", self.code, logging.ERROR, what="storage", error=str(error))
            await self._rebuild_after_failure()
            raise Refusal("storage", "storage_refused") from None

    async def _rebuild_after_failure(self) -> None:
        try:
            await self.reload()
        except Exception:  # the database is away: rebuilt before the next command
            self.broken = True

    async def _retrying(self, body):
        """Run ``body`` (under the lock); if its write lost a race to another process, the
        replica was caught up: check and run it once more on the fresh state."""
        try:
            return await body()
        except Refusal as refusal:
            if refusal.code != "conflict":
                raise
            return await body()

    def told(self, events: list[tuple[int, str, dict]], ack: tuple | None = None) -> None:
        """Stored events reach every connection here, and the driver plans again."""
        self.last_used = time.monotonic()
        self.outbox.deliver(events, ack)
        self._watch_from_open_seats()
        self.driver.poke()

    def _watch_from_open_seats(self) -> None:
        """A connection of a seat opened (its person left, here or on another process)
        watches from then on, told so by a welcome as a spectator's: it had kept the seat,
        and the hand of the friend who took it next."""
        for conn in [c for c in self.outbox.conns
                     if c.seat is not None and self.state.seats[c.seat].kind == "open"]:
            conn.seat = None
            self.outbox.welcome(conn, None)

    def _tell(self, events: list[tuple[int, str, dict]], client_id: str | None = None,
              by: Connection | None = None) -> None:
        """Events this process stored: tell the connections here (``by``'s with the ack of
        ``client_id``), then the other processes. Those of the kinds in :data:`SHARED` travel
        whole, to be applied as they are; the rest (deals, seats, matches) needs rows read
        from the database."""
        self.told(events, (by, client_id) if by is not None else None)
        shared = None
        if all(kind in SHARED for _, kind, _ in events):
            shared = [[seq, kind, data, client_id] for seq, kind, data in events]
        self.broadcaster.published(self.code, self.state.seq, shared)

    async def _change_seat(self, seat: int, **changes) -> None:
        state = self.state
        seq = state.seq + 1
        new = replace(state.seats[seat], **changes)
        data = new.event(seat)

        def stored(_) -> None:
            state.seat_changed(seq, seat, **changes)
            self._tell([(seq, "seat", data)])

        await self._write(self.repository.change_seat(state.id, seq, seat, changes, data,
                                                      stored))
        logs.event("seat_changed", self.code, seat=seat, seat_kind=new.kind, bot=new.bot,
                   standin=new.standin)

    async def _start_if_full(self) -> None:
        """Once the seat just filled (and stored) was the last open one: the match starts (a
        rematch, once everyone at the table has asked for it). A failure here is only logged:
        the driver tries again."""
        state, connected = self.state, self.presence.connected
        # (someone absent, a blip or gone, is the driver's to wait for: begin_rematch)
        rematch = state.match is not None and state.match.finished \
            and ready_for_next(state, connected) and not absent(state, connected)
        if (state.match is None or rematch) and state.full:
            try:
                await self._begin_match()
            except Refusal as refusal:
                logs.event("error", self.code, logging.WARNING, what="match_start",
                           code=refusal.code)
                self.driver.poke()

    async def _begin_match(self) -> None:
        """A new match (the first, or a rematch) and its first deal: the one place a match
        starts."""
        state = self.state
        number = state.match_number + 1
        game = GAMES[state.game]
        players = [(s.player_id, s.name if s.kind == "human" else bot_name(seat),
                    s.bot if s.kind == "bot" else None, game.side(seat))
                   for seat, s in enumerate(state.seats)]
        seq = state.seq + 1

        def stored(match_id: int) -> None:
            state.match_started(seq, match_id, number)
            self._tell([(seq, "match", {"match": match_id, "number": number})])

        match_id = await self._write(self.repository.start_match(
            state.id, seq, number, state.game, dict(state.options), players,
            game.score_width, stored))
        logs.event("match_started", self.code, match=match_id, number=number,
                   game=state.game, seq=seq)
        try:
            await self._deal()
        except Refusal as refusal:  # the match is stored; the driver deals (or another did)
            logs.event("error", self.code, logging.WARNING, what="deal", code=refusal.code)
            self.driver.poke()

    async def _deal(self) -> None:
        state = self.state
        match = state.match
        dealt = match.start_deal()
        deal = StoredDeal(len(match.deals) - 1, dealt.dealer, list(dealt.deck),
                          list(dealt.kitty) if dealt.kitty is not None else None)
        seq = state.seq + 1
        data = {"match": state.match_id, "deal": deal.index, "dealer": deal.dealer}

        def stored(_) -> None:
            state.deal_started(seq, deal)
            self.driver.progressed()
            self._tell([(seq, "deal", data)])

        await self._write(self.repository.store_deal(state.id, seq, data, deal, stored))
        logs.event("deal_dealt", self.code, match=state.match_id, deal=deal.index,
                   dealer=deal.dealer, seq=seq)
