"""The event loop's stalls reach the room log, each with what held the loop.

A stall watch is given its clock (and the sleep between its looks), and slow writes are timed
by ``stalls.clock``: here a clock that moves only when the test moves it, so that how long
something took is what the test says, however busy the machine is."""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
import time

import orjson
import pytest
from test_store import event_row, new_room

from app.ops import stalls
from app.ops.logs import room_log
from app.storage.store import Store


class Lines(logging.Handler):
    """The room log's lines logged from the test's own thread (a live server of another test
    file may be running in this process, its loop in a thread of its own)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.events: list[dict] = []
        self.thread = threading.get_ident()

    def emit(self, record):
        if record.thread == self.thread:
            self.events.append(orjson.loads(record.getMessage()))

    def named(self, name: str) -> list[dict]:
        return [e for e in self.events if e["event"] == name]


@pytest.fixture
def lines():
    # a live server's stall watch times the collections this thread asks for: not during a test
    others = [callback for callback in gc.callbacks
              if isinstance(getattr(callback, "__self__", None), stalls.StallWatch)]
    for callback in others:
        gc.callbacks.remove(callback)
    handler = Lines()
    room_log.addHandler(handler)
    level = room_log.level
    room_log.setLevel(logging.INFO)
    yield handler
    room_log.removeHandler(handler)
    room_log.setLevel(level)
    gc.callbacks.extend(others)


class Clock:
    """``stalls.clock``: seconds that pass only when the test says so."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(stalls, "clock", clock)
    return clock


async def test_a_loop_held_too_long_is_logged_with_how_late_it_ran(lines, clock):
    """The watch sleeps LOOK_EVERY between looks; a look that wakes on time is no stall, one
    that wakes late (the loop was held) is a line saying how late."""
    looks = []
    late = [0.0]

    async def sleep(seconds):  # on the watch's clock: on time, or as late as the test holds it
        looks.append(seconds)
        clock.advance(seconds + late[0])
        late[0] = 0.0
        await asyncio.sleep(0)

    async def looked(count: int) -> None:
        while len(looks) < count:
            await asyncio.sleep(0)

    watch = stalls.StallWatch(clock, sleep)
    watch.start()
    try:
        await looked(10)
        assert lines.named("loop_stall") == []  # a loop on time is never a stall
        late[0] = stalls.STALL / 2  # late, but by less than a stall
        await looked(12)
        assert lines.named("loop_stall") == []
        late[0] = 0.080  # the loop held for 80 ms
        await looked(14)
    finally:
        watch.stop()
    assert set(looks) == {stalls.LOOK_EVERY}
    [stall] = lines.named("loop_stall")
    assert stall["ms"] == 80.0


async def test_a_real_hold_of_the_loop_is_seen_by_the_watch(lines, monkeypatch):
    """On the real clock and sleep: a loop held by a blocking call shows as a stall at least
    as long as the hold (less the sleep it was in). A busy machine may make the loop late more
    often, never less: only the lower bound is checked."""
    monkeypatch.setattr(stalls, "LOOK_EVERY", 0.01)
    watch = stalls.StallWatch()
    watch.start()
    try:
        await asyncio.sleep(0)  # the watch is in its first sleep
        time.sleep(0.2)  # holds the loop; the watch's wake-up is overdue when it ends
        for _ in range(100):  # the overdue wake-up runs within a turn or two of the loop
            if lines.named("loop_stall"):
                break
            await asyncio.sleep(0)
    finally:
        watch.stop()
    assert any(stall["ms"] >= 190 for stall in lines.named("loop_stall")), lines.events


async def test_a_long_collection_is_logged_with_its_generation_and_a_short_one_is_not(
        lines, clock):
    took = [0.0]

    def collecting(phase, info):  # runs before the watch's callback: a collection takes took[0]
        if phase == "stop":
            clock.advance(took[0])

    enabled = gc.isenabled()
    gc.disable()  # only the collections the test asks for
    gc.callbacks.insert(0, collecting)
    watch = stalls.StallWatch(clock)
    watch.start()
    try:
        took[0] = stalls.STALL / 2
        gc.collect()
        assert lines.named("gc_pause") == []
        took[0] = 0.050
        gc.collect(1)
        watch.stop()
        gc.collect()  # stopped: no longer watched
    finally:
        watch.stop()
        gc.callbacks.remove(collecting)
        if enabled:
            gc.enable()
    [pause] = lines.named("gc_pause")
    assert pause["generation"] == 1 and pause["ms"] == 50.0 and "collected" in pause


async def test_a_slow_sqlite_write_on_the_loop_is_logged_with_its_size(lines, sqlite_url,
                                                                     clock):
    store = Store(sqlite_url)
    try:
        room_id = store.transact(new_room)
        await store.write(None, [event_row(room_id, 1)])
        assert lines.named("slow_write") == []
        store.fault = lambda: clock.advance(0.030)  # inside the transaction: a slow disk
        await asyncio.gather(*(store.write(None, [event_row(room_id, seq)])
                               for seq in (2, 3)))
    finally:
        store.close()
    [write] = lines.named("slow_write")
    assert write["what"] == "commit" and write["writes"] == 2 and write["ms"] == 30.0
