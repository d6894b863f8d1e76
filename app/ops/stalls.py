"""The event loop's stalls, in the room log. Every room waits while the loop is held, so each
stall shows in every table's latency at once; what held it is rarely visible from outside
(the load bench's rounds that missed their p99 were, by turns, the host's disk, the garbage
collector and a loop too busy to catch up). Each stall of at least :data:`STALL` seconds is a
WARNING line:

- ``gc_pause``: a collection of the garbage collector (``generation``, ``ms``, ``collected``);
- ``slow_write``: the event loop's own SQLite write (``what``: ``commit`` with its ``writes``,
  or ``checkpoint``; ``ms``), logged by the store;
- ``loop_stall``: the loop ran ``ms`` late, whatever held it (the two above included).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from contextlib import contextmanager

from . import logs

#: The shortest hold of the event loop worth a line: the load target's p99.
STALL = 0.020
#: Seconds between two looks at how late the event loop runs.
LOOK_EVERY = 0.1
#: What slow writes are timed with. Read at each use, so that a test can put a clock of its
#: own here (tests/app/test_stalls.py); a StallWatch is given its own.
clock = time.perf_counter


def stalled(name: str, seconds: float, **fields) -> None:
    logs.event(name, level=logging.WARNING, ms=round(1000 * seconds, 1), **fields)


def _logged_if_long(name: str, took: float, **fields) -> None:
    if took >= STALL:
        stalled(name, took, **fields)


@contextmanager
def timed(name: str, **fields):
    """Log ``name`` if what runs inside takes :data:`STALL` or longer (on the event loop)."""
    started = clock()
    try:
        yield
    finally:
        _logged_if_long(name, clock() - started, **fields)


class StallWatch:
    """Logs the garbage collector's long pauses and the loop's lateness while started."""

    def __init__(self, clock=time.perf_counter, sleep=asyncio.sleep):
        #: what it measures with, and sleeps with between two looks: its own, so that a test's
        #: clock times its watch alone, not those of live servers running in the same process
        self.clock, self.sleep = clock, sleep
        self._collecting_since = None
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        gc.callbacks.append(self._collector)
        self._task = asyncio.get_running_loop().create_task(self._look())

    def stop(self) -> None:
        if self._collector in gc.callbacks:
            gc.callbacks.remove(self._collector)
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _collector(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._collecting_since = self.clock()
        elif self._collecting_since is not None:
            took = self.clock() - self._collecting_since
            self._collecting_since = None
            _logged_if_long("gc_pause", took, generation=info["generation"],
                            collected=info["collected"])

    async def _look(self) -> None:
        while True:
            before = self.clock()
            await self.sleep(LOOK_EVERY)
            _logged_if_long("loop_stall", self.clock() - before - LOOK_EVERY)
