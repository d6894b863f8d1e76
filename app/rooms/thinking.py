"""The strong bot's thinking, off the event loop: a process pool that search runs in.

The rules and random bots answer in a fraction of a millisecond and are called inline by the
driver. The strong bot searches for its room's think time, so it runs in a
``ProcessPoolExecutor`` (``THINK_WORKERS`` processes, made on first use, closed with the
registry): the event loop only waits on a future, and every other table goes on meanwhile.
The workers run at a lower priority (``THINK_NICE``), so that when the machine is short of
cores the tables' own work comes first and search gets what is left.

The bot is asked to answer by a moment (``until``), not for a duration: a call that waited in
the pool's queue behind other tables' bots searches for what is left of its time, and one that
comes too late answers the rules bot's choice at once. Should the pool itself fail (a worker
killed, a pool that does not answer a second after the moment), the rules bot answers, as it
does for the calls still in the pool's queue, and the pool is made anew for the next call.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

from engine.bots import BOT_KINDS, bot_for
from engine.bots.strong import think

from ..ops.workers import start_worker
from ..protocol import Refusal
from ..settings import Settings

log = logging.getLogger("cardroom.rooms")

#: Every bot kind a seat may have: the inline ones and the strong bot, which thinks here.
SEAT_BOTS = (*BOT_KINDS, "strong")
#: Seconds past its moment a call may take before the rules bot answers instead.
GRACE = 1.0
#: Seconds before its moment search stops: the play-out under way ends, and the answer travels
#: back to the event loop, by the moment.
RESERVE = 0.02
#: Seconds the pool may take to start (the forkserver imports the engine once, and every
#: worker is forked from it) before the rules bot answers instead.
STARTING = 30.0


class Thinkers:
    """The process pool of one server process (see the module's docstring)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.pool: ProcessPoolExecutor | None = None
        self._starting: asyncio.Future | None = None
        self.closed = False
        #: decisions asked for, and those the rules bot made because the pool failed
        self.decisions = 0
        self.fallbacks = 0

    @property
    def workers(self) -> int:
        return self.settings.think_workers or os.cpu_count() or 1

    def warm(self) -> None:
        """Start the pool now if it is not (a strong bot will soon think): its first decision
        then need not wait for it."""
        if self.pool is None and self._starting is None and not self.closed:
            self._starting = asyncio.ensure_future(asyncio.to_thread(self._start))
            self._starting.add_done_callback(self._started)

    def _start(self) -> None:
        """Make the pool and start every worker (in a thread: starting the forkserver waits
        until it has imported the engine, seconds on a busy machine)."""
        # forkserver: the workers never inherit the server's threads and locks (a fork of a
        # process with threads may hold a lock nobody will release), nor its sockets
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["__main__", "engine.bots.strong"])
        pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                   initializer=start_worker,
                                   initargs=(self.settings.think_nice, os.getpid()))
        try:
            for started in [pool.submit(os.getpid) for _ in range(self.workers)]:
                started.result(timeout=STARTING)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        if self.closed:  # the server stopped meanwhile
            pool.shutdown(wait=False, cancel_futures=True)
            return
        self.pool = pool

    def _started(self, starting: asyncio.Future) -> None:
        self._starting = None
        if not starting.cancelled() and starting.exception() is not None:
            log.warning("strong bot: the thinking pool did not start (%r)",
                        starting.exception())

    async def _ready(self) -> ProcessPoolExecutor:
        self.warm()
        if self._starting is not None:
            await asyncio.shield(self._starting)
        if self.pool is None:
            raise RuntimeError("no thinking pool")
        return self.pool

    async def decide(self, game: str, view: dict, moves: dict, seed: int,
                     seconds: float) -> dict:
        """The strong bot's action for ``view``'s seat, ``seconds`` from now."""
        until = time.monotonic() + seconds
        self.decisions += 1
        try:  # (asyncio.timeout, not wait_for: see app/rooms/driver.py)
            async with asyncio.timeout(STARTING):
                pool = await self._ready()
            future = asyncio.get_running_loop().run_in_executor(
                pool, think, game, view, moves, seed, None, None, until - RESERVE)
            async with asyncio.timeout(max(0.0, until - time.monotonic()) + GRACE):
                return await future
        except asyncio.CancelledError:
            if asyncio.current_task().cancelling():  # the room closes: not the pool's doing
                raise
            # another call's failure shut the pool down while this one waited in its queue
            return self._instead(game, view, moves, seed, "CancelledError")
        except Exception as error:  # a broken pool, one too slow, one that did not start
            self._drop()
            return self._instead(game, view, moves, seed, type(error).__name__)

    def _instead(self, game: str, view: dict, moves: dict, seed: int, failure: str) -> dict:
        """The rules bot's action, when the pool failed this decision."""
        self.fallbacks += 1
        log.warning("strong bot: the thinking pool failed (%s); the rules bot answers", failure)
        return dict(bot_for(game, "rules")(view, moves, random.Random(seed)))

    def _drop(self) -> None:
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Shut the pool down (its workers end once their current search does)."""
        self.closed = True
        self._drop()


def new_room_think_time(requested: float | None, turn_timer: float | None,
                        settings: Settings) -> float:
    """A new room's think time: ``requested`` when it is within the settings' bounds and the
    turn timer (a Refusal otherwise), else the default (no longer than the turn timer)."""
    if requested is None:
        return min(settings.think_time, turn_timer or settings.think_time)
    low, high = settings.think_time_min, settings.think_time_max
    if not low <= requested <= high:  # NaN is never within
        raise Refusal("bad_field", "think_time", min=low, max=high)
    if turn_timer and requested > turn_timer:
        raise Refusal("bad_field", "think_time_timer", timer=turn_timer)
    return requested
