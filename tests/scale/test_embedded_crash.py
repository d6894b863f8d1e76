"""The embedded default, one process on a SQLite file at its default ``synchronous`` level
(NORMAL: a commit reaches the operating system, not yet the disk), killed without warning in the
middle of matches and started again on the same file: the clients reconnect, the matches
finish, and no acknowledged action is lost or applied twice."""

from __future__ import annotations

import asyncio

import pytest

from tests.scale.players import assert_audit, check_acknowledged, table

pytestmark = pytest.mark.timeout(150)


async def test_sigkill_the_sqlite_process_mid_matches_loses_nothing_acknowledged(
        sqlite_url, processes, monkeypatch):
    monkeypatch.delenv("SQLITE_SYNCHRONOUS", raising=False)  # the default, whatever it is
    (server,) = processes(1, sqlite_url)
    tables = [await table([server], f"s{i}") for i in range(3)]
    players = [p for _, ps in tables for p in ps]
    plays = [asyncio.create_task(p.play(timeout=120)) for p in players]
    while min(p.client.seq for p in players) < 12:
        await asyncio.sleep(0.02)
        assert not any(t.done() for t in plays), "a match ended before the kill"
    acked_before = sum(len(p.acked) for p in players)
    server.kill()
    server.start()  # the same port and file: the rooms are rebuilt from what was stored
    await asyncio.gather(*plays)
    assert all(p.reconnects for p in players)
    assert all(p.state["match"]["finished"] for p in players)
    assert acked_before > 0 and check_acknowledged(players, sqlite_url) > acked_before
    result = assert_audit(sqlite_url)
    assert result["matches"] == 3
    for player in players:
        await player.close()
