"""Post-match analyses in the background: never on the event loop.

Each server process runs one :class:`Analyst` (``ANALYSIS=false``: none). It looks for an
analysis nobody holds (``app/storage/analyses.py``: asked for on a match's page or, with
``ANALYSE_FINISHED``, for every match that finished), takes it, and works it out deal by deal
in a process of its own (``engine.analysis.analyse_deal``: CPU work, seconds a deal, at a lower
priority), keeping each deal in the database as it is done and renewing its hold meanwhile.
Within a deal, the analysis process counts the decisions it has analysed in a number shared
with the server's process, which stores it as the progress (at most every
:data:`PROGRESS_EVERY` seconds: a person waiting sees it move, the database is not hammered). The
result is put together from the deals (``assemble``) and stored with its status in one
statement. A process that stops in the middle leaves the deals it kept: once its hold is stale
(``ANALYSIS_STALE``) another process, or the same one restarted, takes the analysis over and
resumes from them; a process that lost its hold stores nothing more, and its analysis process
stops at its next decision rather than finish a deal for nobody. The same seed and quality
give the same analysis in whichever process, so a resumed analysis is the one that would have
been.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import secrets
import socket
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timedelta, timezone

from engine.analysis import analyse_deal, assemble

from ..settings import Settings
from ..storage import analyses
from .workers import start_worker

log = logging.getLogger("cardroom.analysis")

#: Seconds between two writes of an analysis's progress within a deal (none while it stands).
PROGRESS_EVERY = 1.0

#: In the analysis process: the decisions of its deal analysed so far, shared with the server's
#: process (a number without a lock: a process killed while holding one would have left the
#: event loop waiting on it for ever), and whether the server's process lost its hold (set: the
#: deal is given up at the next decision).
_analysed = _given_up = None


class HoldLost(Exception):
    """Raised in the analysis process: another process holds the analysis now."""


def _now() -> datetime:
    return datetime.now(timezone.utc)


class Analyst:
    """One process's background analyses (see the module's docstring)."""

    def __init__(self, settings: Settings, store):
        self.settings, self.store = settings, store
        self.worker = f"{socket.gethostname()[:30]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.stale = timedelta(seconds=settings.analysis_stale)
        self.pool: ProcessPoolExecutor | None = None
        #: the decisions the pool's process has analysed of its deal, and whether to give it
        #: up (see ``_analysed``)
        self.analysed = self.given_up = None
        self.task: asyncio.Task | None = None
        self.started = _now()
        self._wake = asyncio.Event()
        #: analyses this process finished, and those it lost to another process
        self.finished = self.lost = 0

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop(), name="analyst")

    def poke(self) -> None:
        """Look for work now (an analysis was just asked for)."""
        self._wake.set()

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except asyncio.CancelledError:
                pass
            self.task = None
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    async def _db(self, work):
        """``work(session)`` in one transaction, in the store's thread, in turn with every
        other write (on SQLite, one beside the event loop's had held its commits)."""
        return await self.store.write(work, in_thread=True)

    def _read(self, work):
        with self.store.sessions() as session:
            return work(session)

    async def _loop(self) -> None:
        while True:
            try:
                if not await self.step():
                    try:  # (not wait_for: see app/rooms/driver.py)
                        async with asyncio.timeout(self.settings.analysis_poll):
                            await self._wake.wait()
                    except TimeoutError:
                        pass
                    self._wake.clear()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("analysis: a step failed")
                await asyncio.sleep(self.settings.analysis_poll)

    async def step(self) -> bool:
        """Take one analysis nobody holds and run it: whether there was one."""
        now = _now()
        if self.settings.analyse_finished:
            since = self.started - self.stale
            await self._db(lambda s: analyses.queue_finished(s, since, now))
        if not await asyncio.to_thread(self._read, lambda s: analyses.waiting(s, now,
                                                                             self.stale)):
            return False
        match_id = await self._db(lambda s: analyses.claim(s, self.worker, now, self.stale))
        if match_id is None:
            return False
        await self.run(match_id)
        return True

    async def run(self, match_id: int) -> None:
        """Work out the analysis this process holds, from the deals already kept."""
        worker = self.worker
        work = await self._db(lambda s: analyses.work(s, match_id, worker))
        if work is None:
            return
        record, simulations, seed = work["record"], work["simulations"], work["seed"]
        simulations = simulations or self.settings.analysis_simulations
        deals = work["deals"]
        sizes = [len(deal.get("actions", ())) for deal in record["deals"]]
        total = sum(sizes)
        self._pool()
        self.given_up.value = 0  # (once: a hold lost between two deals stops the next one)
        beating = asyncio.create_task(self._beat(match_id))
        try:
            loop = asyncio.get_running_loop()
            for number in range(len(deals), len(sizes)):
                entry = await self._analyse_deal(match_id, (record, number, simulations, seed),
                                                 sum(sizes[:number]), total)
                deals = [*deals, entry]
                done = sum(sizes[:len(deals)])
                kept = await self._db(lambda s, deals=deals, done=done: analyses.save_deal(
                    s, match_id, worker, _now(), deals, done, total))
                if not kept:
                    self.lost += 1
                    return
            result = await loop.run_in_executor(self._pool(), assemble, record, deals,
                                                simulations, seed)
            if await self._db(lambda s: analyses.finish(s, match_id, worker, _now(), result,
                                                        total)):
                self.finished += 1
            else:
                self.lost += 1
        except asyncio.CancelledError:
            raise
        except HoldLost:  # (noticed by a heartbeat: nothing more is stored)
            log.info("analysis of match %s: another process holds it now", match_id)
            self.lost += 1
        except BrokenProcessPool:  # the process died (killed?): the hold goes stale, and
            log.exception("analysis: its process died")  # the analysis is taken over
            self.pool = None
        except Exception as error:
            log.exception("analysis of match %s failed", match_id)
            said = f"{type(error).__name__}: {error}"
            await self._db(lambda s: analyses.fail(s, match_id, worker, said))
        finally:
            beating.cancel()

    async def _analyse_deal(self, match_id: int, work: tuple, before: int, total: int) -> dict:
        """``analyse_deal(*work)`` in the analysis process, its progress stored meanwhile
        (``before``: the decisions of the deals before it)."""
        pool = self._pool()
        self.analysed.value = 0
        reporting = asyncio.create_task(self._report(match_id, before, total))
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, _analyse_counted,
                                                                    *work)
        finally:
            reporting.cancel()

    async def _report(self, match_id: int, before: int, total: int) -> None:
        stored, failing = None, _Failing("storing its progress")
        while not self.given_up.value:
            await asyncio.sleep(PROGRESS_EVERY)
            done = before + self.analysed.value
            if done == stored:
                continue
            try:
                await self._db(lambda s, done=done: analyses.progress(
                    s, match_id, self.worker, _now(), done, total))
            except Exception:
                failing.failed()
                continue
            stored = done
            failing.worked()

    async def _beat(self, match_id: int) -> None:
        every, failing = max(0.05, self.settings.analysis_stale / 4), _Failing("its heartbeat")
        while True:
            await asyncio.sleep(every)
            try:
                held = await self._db(lambda s: analyses.beat(s, match_id, self.worker, _now()))
            except Exception:
                failing.failed()
                continue
            failing.worked()
            if not held:
                self.given_up.value = 1
                return

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            context = multiprocessing.get_context("spawn")
            self.analysed, self.given_up = context.RawValue("i", 0), context.RawValue("b", 0)
            self.pool = ProcessPoolExecutor(
                max_workers=1, mp_context=context, initializer=_start_analysis_process,
                initargs=(self.settings.analysis_nice, os.getpid(), self.analysed,
                          self.given_up))
        return self.pool


class _Failing:
    """A write a loop repeats, its failure logged once until it works again (the database
    down had logged it every second)."""

    def __init__(self, what: str):
        self.what, self.since = what, None

    def failed(self) -> None:
        """Called in the ``except`` that caught the failure."""
        if self.since is None:
            self.since = time.monotonic()
            log.exception("analysis: %s failed (said again once it works)", self.what)

    def worked(self) -> None:
        if self.since is not None:
            log.warning("analysis: %s works again after %.0f s", self.what,
                        time.monotonic() - self.since)
            self.since = None


def _start_analysis_process(nice: int, server: int, analysed, given_up) -> None:
    global _analysed, _given_up
    _analysed, _given_up = analysed, given_up
    start_worker(nice, server)


def _analyse_counted(record: dict, number: int, simulations: int | None, seed: int) -> dict:
    """In the analysis process: ``analyse_deal``, counting its decisions in ``_analysed``;
    given up (:class:`HoldLost`) once ``_given_up`` is set."""
    def count(done: int, total: int) -> None:
        if _given_up.value:
            raise HoldLost
        _analysed.value = done
    return analyse_deal(record, number, simulations, seed, progress=count)
