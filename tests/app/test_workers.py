"""A worker process of the server's pools ends with the server, however the server ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tests.conftest import running

#: How long a worker may take to end after its server (a guard against a hang, not a measure).
GUARD = 30

#: A server in miniature: a pool of one worker started as the server's pools start theirs,
#: the worker's pid printed, then a long task under way in it.
SERVER = textwrap.dedent("""
    import multiprocessing, os, sys, time
    from concurrent.futures import ProcessPoolExecutor
    from app.ops.workers import start_worker

    if __name__ == "__main__":
        pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context(sys.argv[1]),
                                   initializer=start_worker, initargs=(5, os.getpid()))
        print(pool.submit(os.getpid).result(), flush=True)
        pool.submit(time.sleep, 600)
        time.sleep(600)
""")


@pytest.mark.parametrize("context", ["spawn", "forkserver"])
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_worker_ends_with_the_server_that_started_it(context, how):
    server = subprocess.Popen([sys.executable, "-c", SERVER, context], stdout=subprocess.PIPE,
                              text=True, cwd=os.path.dirname(os.path.dirname(os.path.dirname(
                                  os.path.abspath(__file__)))))
    worker = int(server.stdout.readline())
    try:
        assert running(worker) and os.getpriority(os.PRIO_PROCESS, worker) >= 5
        server.send_signal(how)
        server.wait(GUARD)
        deadline = time.monotonic() + GUARD
        while running(worker):
            assert time.monotonic() < deadline, "the worker outlived its server"
            time.sleep(0.05)
    finally:
        server.kill()
        if running(worker):
            os.kill(worker, signal.SIGKILL)
