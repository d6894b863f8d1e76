"""Shared fixtures: the database URLs (SQLite and PostgreSQL) and a live uvicorn server.

PostgreSQL is looked for at 127.0.0.1:5432, database ``test`` (user postgres, then root, or
``TEST_POSTGRES_URL``); each test session works in a fresh schema dropped at the end. Without
PostgreSQL its tests skip, unless CI=true: then they fail.

Under mutmut (scripts/mutation.sh) only, the quick tests run first.
"""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import secrets
import socket
import sys
import threading
import time
from datetime import datetime

import pytest

_durations: dict[str, float] = {}


def pytest_collection_modifyitems(items):
    """Under mutmut only: the quick tests first. A mutant is killed by the first test that fails
    (mutmut runs pytest with ``-x``), and most are caught by a quick one; the slow tests (random
    play-outs, whole matches on a live server) then run only for the mutants nothing quicker
    catches. Outside mutmut this changes nothing."""
    if not os.environ.get("MUTANT_UNDER_TEST"):
        return
    stats = pathlib.Path("mutmut-stats.json")  # mutmut runs the tests from within mutants/
    if not _durations and stats.exists():
        _durations.update(json.loads(stats.read_text()).get("duration_by_test", {}))
    items.sort(key=lambda item: _durations.get(item.nodeid, 0.0))


PG_CANDIDATES = [
    os.environ.get("TEST_POSTGRES_URL"),
    "postgresql+psycopg://postgres@127.0.0.1:5432/test",
    "postgresql+psycopg://root@127.0.0.1:5432/test",
]


def _reachable_postgres() -> tuple[str | None, str]:
    import sqlalchemy

    reasons = []
    for url in filter(None, PG_CANDIDATES):
        try:
            engine = sqlalchemy.create_engine(url)
            with engine.connect() as connection:
                connection.execute(sqlalchemy.text("SELECT 1"))
            engine.dispose()
            return url, ""
        except Exception as error:  # noqa: BLE001 - any failure means "not reachable"
            reasons.append(f"{url}: {str(error).splitlines()[0][:120]}")
    return None, "; ".join(reasons)


@pytest.fixture(scope="session")
def postgres_url():
    """A PostgreSQL URL confined to a fresh schema (dropped after the session)."""
    from app.storage.db import scratch_schema

    base, reason = _reachable_postgres()
    if base is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required in CI and unreachable: {reason}")
        pytest.skip(f"PostgreSQL unreachable at 127.0.0.1:5432/test ({reason})")
    with scratch_schema(base, "cardroom_test") as url:
        yield url


def fresh_sqlite(tmp_path_factory, name: str) -> str:
    """The URL of a new, migrated SQLite database file."""
    from app.storage.migrate import upgrade

    url = f"sqlite:///{tmp_path_factory.mktemp(name)}/cardroom.db"
    upgrade(url)
    return url


@pytest.fixture
def sqlite_url(tmp_path_factory):
    """A new, migrated SQLite database file of the test's own."""
    return fresh_sqlite(tmp_path_factory, "sqlite")


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def database_url(request, tmp_path_factory):
    """A migrated, empty database for the session: SQLite file, then PostgreSQL."""
    from app.storage.migrate import upgrade

    if request.param == "sqlite":
        return fresh_sqlite(tmp_path_factory, "db")
    url = request.getfixturevalue("postgres_url")
    upgrade(url)
    return url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """The real app under uvicorn in a background thread (its own event loop)."""

    def __init__(self, database_url: str, uvicorn_options: dict | None = None, **settings):
        import uvicorn

        from app.cli import websocket_options
        from app.main import create_app
        from app.settings import Settings

        # limits off but where a test sets them: tests play many tables from one address
        values = {"bot_delay": 0.0, "deal_pause": 0.0, "standin_grace": 0.0, "limits": False, **settings}
        self.settings = Settings(database_url=database_url, **values)
        self.app = create_app(self.settings)
        self.port = free_port()
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="on", **{**websocket_options(self.settings),
                                                  **(uvicorn_options or {})})
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> "LiveServer":
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def on_its_loop(self, coroutine) -> "asyncio.Future":
        """Run ``coroutine`` on the server's own event loop, as its rooms do: their locks
        belong to that loop, and a test taking one from its own loop fails when it must wait."""
        loop = self.server.servers[0].get_loop()
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coroutine, loop))

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


@pytest.fixture(scope="module")
def server(database_url):
    """A live server on the session's database, shared by one test module."""
    live = LiveServer(database_url).start()
    yield live
    live.stop()


def _fuzz_counts() -> dict[str, int]:
    """The fuzzers' counts of this process (tests/app/test_fuzz.py), if they ran here."""
    fuzz = next((m for name, m in list(sys.modules.items()) if name.endswith("test_fuzz")), None)
    return dict(getattr(fuzz, "COUNTS", None) or {})


_workers_fuzz_counts: dict[str, int] = {}


def pytest_sessionfinish(session):
    """A pytest-xdist worker hands its fuzzers' counts to the controller."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["fuzz_counts"] = _fuzz_counts()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    for kind, count in getattr(node, "workeroutput", {}).get("fuzz_counts", {}).items():
        _workers_fuzz_counts[kind] = _workers_fuzz_counts.get(kind, 0) + count


def pytest_terminal_summary(terminalreporter):
    """The fuzzers' counts, when they ran (in this process or in the workers)."""
    counts = _fuzz_counts() or _workers_fuzz_counts
    if counts:
        terminalreporter.section("fuzzing")
        for kind, count in sorted(counts.items()):
            terminalreporter.write_line(f"{count:6} {kind}")


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs (not ended, nor a zombie waiting to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def stored_match(server, seed: str, names: list[str], when: datetime) -> int:
    """A demo match (``seeds/{seed}.json``) stored again as played by ``names`` at ``when``;
    its id."""
    from app.ops.seeds import store_match
    from engine.record import replay

    record = json.loads((pathlib.Path(__file__).resolve().parents[1] / "seeds" / f"{seed}.json").read_text(encoding="utf-8"))
    with server.app.state.store.sessions() as session, session.begin():
        return store_match(session, f"S{secrets.token_hex(3)}", replay(record), names, when)
