"""Structured logs of each room's life: one JSON object per line on the ``cardroom.room``
logger (``cardroom serve`` prints them on standard error).

Events: ``room_created``, ``room_loaded``, ``room_evicted``, ``match_started``, ``deal_dealt``,
``action_stored`` (type and seat only: never a card, so nothing hidden can leak into logs),
``deal_ended``, ``match_ended``, ``seat_changed``, ``caught_up``, ``rebuilt``, ``error``.
"""

from __future__ import annotations

import json
import logging
import sys
import time

room_log = logging.getLogger("cardroom.room")


def event(name: str, room: str | None = None, level: int = logging.INFO, **fields) -> None:
    if not room_log.isEnabledFor(level):
        return
    record = {"ts": round(time.time(), 3), "event": name}
    if room is not None:
        record["room"] = room
    record.update(fields)
    room_log.log(level, json.dumps(record, separators=(",", ":"), default=str))


def configure(level: str = "INFO") -> None:
    """Print the room log as JSON lines on standard error (``cardroom serve``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    room_log.handlers[:] = [handler]
    room_log.setLevel(getattr(logging, level.upper(), logging.INFO))
    room_log.propagate = False
