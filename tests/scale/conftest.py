"""The production topology as plain processes: app processes (``cardroom serve``) on free
ports against PostgreSQL (a fresh schema per test) and Redis, plus the tools the fault tests
need: a TCP proxy to cut the database, a private redis-server to restart.

PostgreSQL (127.0.0.1:5432, database ``test``) and Redis (127.0.0.1:6379) are required with
CI=true; elsewhere the tests skip with the reason when they are missing.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest

from tests.conftest import _reachable_postgres, free_port

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "app"))
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
CI = os.environ.get("CI") == "true"


def missing(what: str, reason: str):
    if CI:
        pytest.fail(f"{what} is required in CI and unavailable: {reason}")
    pytest.skip(f"{what} unavailable: {reason}")


@pytest.fixture
def pg_url():
    """A fresh, migrated schema in the ``test`` database (dropped afterwards)."""
    from app.storage.db import scratch_schema
    from app.storage.migrate import upgrade

    base, reason = _reachable_postgres()
    if base is None:
        missing("PostgreSQL", reason)
    with scratch_schema(base, "cardroom_scale") as url:
        upgrade(url)
        yield url


@pytest.fixture
def redis_url():
    """The shared Redis, with a channel of this test's own (set as ``REDIS_CHANNEL``)."""
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as error:  # noqa: BLE001
        missing("Redis", f"{REDIS_URL}: {error}")
    return REDIS_URL


class RedisServer:
    """A private redis-server on a free port, which a test may stop and start again."""

    def __init__(self):
        self.binary = shutil.which("redis-server")
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        import redis

        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None


@pytest.fixture
def private_redis():
    server = RedisServer()
    if server.binary is None:
        missing("redis-server", "the binary is not on PATH")
    server.start()
    yield server
    server.kill()


class AppProcess:
    """``cardroom serve`` as a real process (SIGKILL-able), bots and deals without delay."""

    def __init__(self, database_url: str, redis_url: str | None = None,
                 channel: str | None = None, **env):
        self.port = free_port()
        self.env = {**os.environ, "DATABASE_URL": database_url, "BOT_DELAY": "0",
                    "DEAL_PAUSE": "0", "RATE": "200", "LIMITS": "false", "PYTHONPATH": ROOT,
                    "PRESENCE_HEARTBEAT": "1", **{k.upper(): str(v) for k, v in env.items()}}
        self.env.pop("REDIS_URL", None)
        if redis_url:
            self.env["REDIS_URL"] = redis_url
            self.env["REDIS_CHANNEL"] = channel or "cardroom:events"
        self.proc: subprocess.Popen | None = None
        self.log = open(os.path.join(ROOT, "test-artifacts", f"scale-{self.port}.log"), "w")

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> "AppProcess":
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--no-migrate", "--port",
             str(self.port)], cwd=ROOT, env=self.env, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 90  # only so that a process that never starts fails
        while True:
            try:
                if httpx.get(self.http + "/api/health", timeout=10).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"app process on {self.port} did not start")
            time.sleep(0.1)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.log.close()


@pytest.fixture
def processes():
    """Start app processes with ``processes(n, **kwargs)``; all are stopped afterwards."""
    os.makedirs(os.path.join(ROOT, "test-artifacts"), exist_ok=True)
    started: list[AppProcess] = []

    def start(n: int, database_url: str, redis_url: str | None = None, **env):
        channel = f"cardroom-scale-{secrets.token_hex(4)}"
        apps = [AppProcess(database_url, redis_url, channel, **env) for _ in range(n)]
        for app in apps:
            started.append(app)
            app.start()
        return apps

    yield start
    for app in started:
        app.stop()


def hang_up(sockets) -> None:
    """Close ``sockets`` at once, both directions (the peer sees the connection drop)."""
    for s in sockets:
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        s.close()


class TcpProxy:
    """A TCP proxy in a thread (app -> proxy -> PostgreSQL, or browser -> proxy -> app) that
    can be cut (every open connection dropped, new ones refused) and restored, or freeze the
    connections open now (what they carry is dropped, and nobody is told: a link that died
    without a word), and with ``also_new`` those opened until :meth:`thaw` too."""

    def __init__(self, target_port: int, target_host: str = "127.0.0.1"):
        self.target = (target_host, target_port)
        self.port = free_port()
        self.open = True
        self.conns: set[socket.socket] = set()
        self.frozen: set[socket.socket] = set()
        self.freezing = False
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.listener.settimeout(0.2)
        self.running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while self.running:
            try:
                client, _ = self.listener.accept()
            except (socket.timeout, OSError):
                continue
            if not self.open:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.conns |= {client, upstream}
                if self.freezing:
                    self.frozen |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                if a not in self.frozen:
                    b.sendall(data)
        except OSError:
            pass
        if a not in self.frozen:  # (a frozen connection's peer is not told it ended either)
            hang_up((a, b))

    def cut(self) -> None:
        self.open = False
        with self.lock:
            conns, self.conns = self.conns, set()
        hang_up(conns)

    def freeze(self, also_new: bool = False) -> None:
        with self.lock:
            self.frozen |= self.conns
            self.freezing = also_new

    def thaw(self) -> None:
        """New connections pass again (those frozen stay so)."""
        self.freezing = False

    def restore(self) -> None:
        self.open = True

    def close(self) -> None:
        self.running = False
        self.cut()
        self.listener.close()
