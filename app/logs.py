"""Structured logs of each room's life: one JSON object per line on the ``cardroom.room``
logger (``cardroom serve`` prints them on standard error).

Events: ``room_created``, ``room_loaded``, ``room_evicted``, ``match_started``, ``deal_dealt``,
``action_stored`` (DEBUG: a line per card played is for chasing a bug, and cost 5% of the
CPU at 1,000 actions/s; type and seat only: never a card, so nothing hidden can leak),
``deal_ended``, ``match_ended``, ``seat_changed``, ``caught_up``, ``rebuilt``, ``error``; and,
for the whole process, the event loop's stalls (``gc_pause``, ``slow_write``, ``loop_stall``:
app/stalls.py).
"""

from __future__ import annotations

import logging
import sys
import threading
import time
import atexit

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


class BatchedHandler(logging.Handler):
    """Writes lines in batches (one write per ``period`` seconds, or at once for warnings and
    errors): a write and flush per action line cost more than the action itself under load."""

    def __init__(self, stream=None, period: float = 0.5):
        super().__init__()
        self.stream = stream or sys.stderr
        self.lines: list[str] = []
        self.period = period
        thread = threading.Thread(target=self._flusher, daemon=True, name="log-flusher")
        thread.start()
        atexit.register(self.flush)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.lines.append(self.format(record))
        except Exception:
            self.handleError(record)
            return
        if record.levelno >= logging.WARNING or len(self.lines) >= 1000:
            self.flush()

    def flush(self) -> None:
        lines, self.lines = self.lines, []
        if lines:
            try:
                self.stream.write("\n".join(lines) + "\n")
                self.stream.flush()
            except Exception:
                pass

    def _flusher(self) -> None:
        while True:
            time.sleep(self.period)
            self.flush()


def configure(level: str = "INFO") -> None:
    """Print the room log as JSON lines on standard error (``cardroom serve``)."""
    handler = BatchedHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    room_log.handlers[:] = [handler]
    room_log.setLevel(getattr(logging, level.upper(), logging.INFO))
    room_log.propagate = False
