"""The first thing a worker process of the server's pools does (``app/rooms/thinking.py``'s
searches, ``app/ops/analyst.py``'s analyses)."""

from __future__ import annotations

import os
import select
import threading
import time


def start_worker(nice: int, server: int) -> None:
    """Run ``nice`` steps below the server's priority, and end when the server process
    ``server`` ends: a server stopped by a signal or killed exits without waiting for its
    pools, and a search or an analysis under way (minutes of work) would run on without it.
    (Not the parent's death signal: a forkserver's workers are the forkserver's children, and
    it lives as long as they do.)"""
    if nice:
        try:
            os.nice(nice)
        except OSError:  # not allowed here: the worker runs at the server's priority
            pass
    threading.Thread(target=_end_with, args=(server,), name="ends with the server",
                     daemon=True).start()


def _end_with(server: int) -> None:
    try:
        ended = os.pidfd_open(server)  # readable once the process has ended
    except (AttributeError, OSError):  # not Linux 5.3+, or already ended
        while _running(server):
            time.sleep(1)
    else:
        select.select([ended], [], [])
    os._exit(1)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True
