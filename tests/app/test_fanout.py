"""Two server processes on one database with Redis fan-out: a spectator on one sees every
action taken on the other, in order, and the match plays to its end across both."""

from __future__ import annotations

import asyncio
import os
import secrets

import pytest

from cardroom_client import Client, create_room, join

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture(scope="module")
def redis_url():
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as error:  # noqa: BLE001
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis is required in CI and unreachable at {REDIS_URL}: {error}")
        pytest.skip(f"Redis unreachable at {REDIS_URL}: {error}")
    return REDIS_URL


async def test_actions_on_one_process_reach_the_other(database_url, redis_url):
    from tests.conftest import LiveServer

    channel = f"cardroom-test-{secrets.token_hex(4)}"
    a = LiveServer(database_url, redis_url=redis_url, redis_channel=channel).start()
    b = LiveServer(database_url, redis_url=redis_url, redis_channel=channel).start()
    try:
        code = await create_room(a.http, "black_maria", ["open", "open", "bot:rules"],
                                 {"target": 15})
        watcher = Client(b.ws, code, name="watcher")
        await watcher.connect()
        _, t0 = await join(a.http, code, "fan-a", 0)
        _, t1 = await join(b.http, code, "fan-b", 1)
        anna = Client(a.ws, code, t0, name="anna")   # on process A
        boris = Client(b.ws, code, t1, name="boris")  # on process B
        await anna.connect()
        await boris.connect()
        await asyncio.gather(anna.play(timeout=120), boris.play(timeout=120))
        final = await watcher.until(lambda s: s["match"] and s["match"]["finished"])
        assert final["match"]["totals"] == anna.state["match"]["totals"]
        for client in (watcher, anna, boris):
            seqs = [m["seq"] for m in client.messages if m["type"] == "event"]
            assert seqs == sorted(set(seqs))
        watched = [m["seq"] for m in watcher.messages if m["type"] == "event"]
        assert watched == list(range(watched[0], watched[-1] + 1))
        for client in (watcher, anna, boris):
            await client.close()
    finally:
        a.stop()
        b.stop()
