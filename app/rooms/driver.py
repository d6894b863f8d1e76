"""What happens in a room by itself: a match starts once every seat is filled, the next deal
is dealt after a pause, bots act after a moment's thought, and the rules bot plays for a
person whose turn timer ran out. The driver only calls the room's public commands, as a
person's connection does."""

from __future__ import annotations

import asyncio
import logging
import math
import random
import secrets
import time
from typing import NamedTuple

from engine.bots import BOT_KINDS, bot_for

from ..protocol import Refusal, js_number
from ..settings import Settings
from .state import RoomState

log = logging.getLogger("cardroom.rooms")


class Step(NamedTuple):
    """The next automatic step: ``what`` ("start", "deal", "rematch", "bot" or "timer"),
    ``delay`` seconds after the room's last progress, for ``seat``."""

    delay: float
    what: str
    seat: int | None = None


def ready_for_next(state: RoomState, connected) -> bool:
    """Every person at the table (seated, playing, connected, or who asked for time to read the
    summary: a reload or a blip of their link had dealt on them) asked for the next deal, or
    for a rematch; a table with nobody to wait for waits for the countdown (spectators of bots
    read the summary)."""
    people = [seat for seat, s in enumerate(state.seats)
              if s.kind == "human" and not s.standin
              and (connected(seat) or seat in state.waiting)]
    return bool(people) and state.ready.issuperset(people)


def absent(state: RoomState, connected) -> list[int]:
    """The seats of the people not at the table (away, or played by a stand-in) who have not
    asked for the rematch."""
    return [seat for seat, s in enumerate(state.seats)
            if s.kind == "human" and seat not in state.ready
            and (s.standin or not connected(seat))]


def rematch_wait(state: RoomState, settings: Settings, connected, away_for) -> float:
    """Seconds until every absent person (:func:`absent`) has left the table for good: away
    ``standin_grace`` (a reload or a phone's blip is not leaving: they had lost their seat at
    once), or stood in for. Their seats are opened then (room.begin_rematch)."""
    return max([0.0] + [settings.standin_grace - away_for(seat) for seat in absent(state, connected)
                        if not state.seats[seat].standin])


def paused(state: RoomState, connected, unwatched: bool) -> bool:
    """Nobody has watched the room for a while (``unwatched``) and no person is connected to a
    seat (on another process): it does nothing by itself (bots, stand-ins and turn timers would
    play for nobody, for ever)."""
    return unwatched and not any(seat.kind == "human" and connected(i)
                                 for i, seat in enumerate(state.seats))


def next_step(state: RoomState, settings: Settings, connected=lambda seat: True,
              unwatched: bool = False, away_for=lambda seat: math.inf) -> Step | None:
    """What the room will do by itself next, if nobody acts first (None: nothing).
    ``connected(seat)``: a person is connected to the seat; ``unwatched``: nobody has watched
    the room for a while (see :func:`paused`); ``away_for(seat)``: seconds its person has been
    away."""
    if paused(state, connected, unwatched):
        return None
    match = state.match
    if match is None:
        return Step(0.0, "start") if state.full else None
    if match.finished:  # a rematch once every person at the table asked for one
        if not ready_for_next(state, connected) or not (state.full or absent(state, connected)):
            return None
        return Step(rematch_wait(state, settings, connected, away_for), "rematch")
    if match.current is None:  # the deal's summary is on the table: see ready_for_next
        if ready_for_next(state, connected):
            return Step(0.0, "deal")
        # (someone asked for time to read it: the longer countdown, from their asking)
        pause = max(settings.deal_wait, settings.deal_pause) if state.waiting else settings.deal_pause
        return Step(pause, "deal")
    actors = match.to_act()
    for seat in actors:
        if state.seats[seat].played_by_bot:
            return Step(bot_pause(state, seat, settings), "bot", seat)
    if state.turn_timer and actors:
        return Step(state.turn_timer, "timer", actors[0])
    return None


def room_think_time(state: RoomState, settings: Settings) -> float:
    """Seconds the room's strong bots think per decision."""
    return state.think_time if state.think_time is not None else settings.think_time


def bot_pause(state: RoomState, seat: int, settings: Settings) -> float:
    """How long a bot waits before it acts: ``bot_delay``, of which the strong bot spends
    its think time thinking (it never waits longer than the others)."""
    if state.seats[seat].bot == "strong":
        return max(0.0, settings.bot_delay - room_think_time(state, settings))
    return settings.bot_delay


class Driver:
    """One task per room that waits for the next step's moment and takes it, planning again
    whenever the room changes (:meth:`poke`)."""

    def __init__(self, room):
        self.room = room
        self.changed = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.idle = False  # it waits for a change with nothing planned
        self.last_progress = time.monotonic()
        self.paused = False  # see paused(): its clocks start again when it plays on
        self.rng = random.Random(secrets.randbits(64))

    def plan(self) -> Step | None:
        room = self.room
        unwatched = room.unwatched()
        now_paused = paused(room.state, room.presence.connected, unwatched)
        if self.paused and not now_paused:  # someone is back, here or on another process
            self.progressed()
        self.paused = now_paused
        return next_step(room.state, room.settings, room.presence.connected, unwatched,
                         room.presence.away_for)

    def progressed(self) -> None:
        """The match moved on (an action, a deal): timers count from now."""
        self.last_progress = time.monotonic()

    def poke(self) -> None:
        """Something changed: plan again, unless the driver waits with nothing to do and there
        is still nothing for it (most actions between people: a task switch saved)."""
        if self.idle and self.plan() is None:
            return
        self.changed.set()

    def ensure(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._drive())

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def clocks(self) -> dict:
        """Seconds left to the person whose turn timer runs (``turn_left``, ``turn_seat``),
        and to the next deal while a deal's summary is on the table (``deal_left``)."""
        clocks = {"turn_left": None, "turn_seat": None, "deal_left": None}
        state = self.room.state
        if not state.turn_timer and not state.between_deals:
            return clocks
        step = self.plan()
        if step is not None and step.what in ("timer", "deal"):
            left = js_number(round(max(0.0, self.last_progress + step.delay - time.monotonic()),
                                   1))
            if step.what == "timer":
                clocks.update(turn_left=left, turn_seat=step.seat)
            else:
                clocks["deal_left"] = left
        return clocks

    async def _drive(self) -> None:
        while True:
            self.changed.clear()
            # (planned on what is stored: the replica may be a move or a deal ahead while that
            # is being stored, and the next turn's time counts from when it is)
            stored = self.room.state.seq
            step = self.plan()
            if step is None:
                self.idle = True
                try:
                    await self.changed.wait()
                finally:
                    self.idle = False
                continue
            if step.what == "bot" and self.room.thinkers is not None \
                    and self.room.state.seats[step.seat].bot == "strong":
                self.room.thinkers.warm()  # its first decision need not wait for the pool
            wait = self.last_progress + step.delay - time.monotonic()
            if wait > 0:
                # (asyncio.timeout, not wait_for: Python 3.11's wait_for loses a cancellation
                # that comes as the event is set, and the driver of a room let go played on)
                try:
                    async with asyncio.timeout(wait):
                        await self.changed.wait()
                    continue  # something happened: plan again
                except TimeoutError:
                    pass
            if self.plan() != step:
                continue
            try:
                await self._take(step, stored)
            except Refusal as refusal:
                log.info("room %s: automatic %s refused: %s", self.room.code, step.what,
                         refusal.message)
                # A stale choice (someone acted meanwhile) retries at once; a database that is
                # down is retried every second.
                await asyncio.sleep(1.0 if refusal.code == "storage" else 0.05)
            except Exception:  # never let the room's driver die silently
                log.exception("room %s: automatic %s crashed", self.room.code, step.what)
                await asyncio.sleep(1)

    async def _take(self, step: Step, stored: int) -> None:
        room = self.room
        if step.what == "start":
            await room.start()
        elif step.what == "deal":
            await room.deal()
        elif step.what == "rematch":
            await room.begin_rematch()
        else:
            match = room.state.match
            kind = room.state.seats[step.seat].bot if step.what == "bot" else "rules"
            view, moves = match.view(step.seat), match.moves(step.seat)
            if kind == "strong" and room.thinkers is not None:  # in a process pool
                action = await room.thinkers.decide(
                    room.game, view, moves, self.rng.getrandbits(32),
                    room_think_time(room.state, room.settings))
                if self.plan() != step:  # the table changed meanwhile (a person came back)
                    return
            else:
                inline = kind if kind in BOT_KINDS else "rules"  # never search on the loop
                action = bot_for(room.game, inline)(view, moves, self.rng)
            # (a timer's move is the one a moment decides: it stands only where it was chosen; a
            # bot's move stands while the bot is to act, as plan() checked, and a strong bot's
            # search is not thrown away because someone else passed meanwhile)
            await room.act(step.seat, action, timer=step.what == "timer",
                           standin=step.what == "bot" and room.state.seats[step.seat].standin,
                           planned_at=stored if step.what == "timer" else None)
