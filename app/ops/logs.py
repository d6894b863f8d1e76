"""Structured logs of each room's life: one JSON object per line on the ``cardroom.room``
logger (``cardroom serve`` prints them on standard error).

Events: ``room_created``, ``room_loaded``, ``room_evicted``, ``match_started``, ``deal_dealt``,
``action_stored`` (DEBUG: a line per card played is for chasing a bug, and cost 5% of the
CPU at 1,000 actions/s; type and seat only: never a card, so nothing hidden can leak),
``deal_ended``, ``match_ended``, ``seat_changed``, ``caught_up``, ``rebuilt``, ``error``; and,
for the whole process, the event loop's stalls (``gc_pause``, ``slow_write``, ``loop_stall``:
app/ops/stalls.py).
"""

from __future__ import annotations

import atexit
import logging
import queue
import sys
import time
from logging.handlers import QueueHandler, QueueListener

import orjson

room_log = logging.getLogger("cardroom.room")


def event(name: str, room: str | None = None, level: int = logging.INFO, **fields) -> None:
    if not room_log.isEnabledFor(level):
        return
    record = {"ts": round(time.time(), 3), "event": name}
    if room is not None:
        record["room"] = room
    record.update(fields)
    room_log.log(level, orjson.dumps(record, default=str).decode())


def configure(level: str = "INFO") -> None:
    """Print the room log as JSON lines on standard error (``cardroom serve``). The event loop
    only queues each line; a thread of the standard library's QueueListener writes them (a
    write and flush per line on the loop had cost more than an action itself under load)."""
    lines: queue.SimpleQueue = queue.SimpleQueue()
    listener = QueueListener(lines, logging.StreamHandler(sys.stderr))
    listener.start()
    atexit.register(listener.stop)
    room_log.handlers[:] = [QueueHandler(lines)]
    room_log.setLevel(getattr(logging, level.upper(), logging.INFO))
    room_log.propagate = False
