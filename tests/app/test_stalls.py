"""The event loop's stalls reach the room log, each with what held the loop."""

from __future__ import annotations

import asyncio
import gc
import logging
import time

import orjson
import pytest

from app import stalls
from app.logs import room_log
from app.store import Store

from test_store import event_row, new_room


class Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.events: list[dict] = []

    def emit(self, record):
        self.events.append(orjson.loads(record.getMessage()))

    def named(self, name: str) -> list[dict]:
        return [e for e in self.events if e["event"] == name]


@pytest.fixture
def lines():
    handler = Lines()
    room_log.addHandler(handler)
    level = room_log.level
    room_log.setLevel(logging.INFO)
    yield handler
    room_log.removeHandler(handler)
    room_log.setLevel(level)


async def test_a_loop_held_too_long_is_logged_with_how_late_it_ran(lines, monkeypatch):
    monkeypatch.setattr(stalls, "LOOK_EVERY", 0.01)
    watch = stalls.StallWatch()
    watch.start()
    try:
        await asyncio.sleep(0.05)
        assert lines.named("loop_stall") == []  # an idle loop is never late by 20 ms
        time.sleep(0.08)  # holds the loop
        await asyncio.sleep(0.05)
    finally:
        watch.stop()
    [stall] = lines.named("loop_stall")
    assert 60 <= stall["ms"] <= 200


async def test_a_long_collection_is_logged_with_its_generation_and_a_short_one_is_not(
        lines, monkeypatch):
    monkeypatch.setattr(stalls, "STALL", 1.0)
    watch = stalls.StallWatch()
    watch.start()
    try:
        gc.collect()  # well under a second
        assert lines.named("gc_pause") == []
        monkeypatch.setattr(stalls, "STALL", 0.0)
        gc.collect(1)
    finally:
        watch.stop()
    [pause] = lines.named("gc_pause")
    assert pause["generation"] == 1 and pause["ms"] >= 0 and "collected" in pause
    gc.collect()
    assert len(lines.named("gc_pause")) == 1  # stopped: no longer watched (STALL is still 0)


async def test_a_slow_sqlite_write_on_the_loop_is_logged_with_its_size(lines, sqlite_url):
    store = Store(sqlite_url)
    try:
        room_id = store.transact(new_room)
        await store.write(None, [event_row(room_id, 1)])
        assert lines.named("slow_write") == []
        store.fault = lambda: time.sleep(0.03)  # inside the transaction, as a slow disk
        await asyncio.gather(*(store.write(None, [event_row(room_id, seq)])
                               for seq in (2, 3)))
    finally:
        store.close()
    writes = lines.named("slow_write")
    assert writes and writes[0]["what"] == "commit" and writes[0]["ms"] >= 30
    assert sum(w["writes"] for w in writes) == 2
