"""Fault tests on the production topology as plain processes: PostgreSQL, Redis, two app
processes. Each ends with the audit: every stored match replays through the engine to its
stored scores, and every acknowledged action is stored exactly once."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from cardroom_client import Client

from tests.scale.players import assert_audit, check_acknowledged, stored_client_ids, table

pytestmark = [pytest.mark.services, pytest.mark.timeout(150)]


async def test_sigkill_one_process_mid_matches(pg_url, redis_url, processes):
    a, b = processes(2, pg_url, redis_url)
    tables = [await table([a, b], f"k{i}") for i in range(4)]
    players = [p for _, ps in tables for p in ps]
    plays = [asyncio.create_task(p.play(timeout=120)) for p in players]
    # let every match get going, then kill process A without warning
    while min(p.client.seq for p in players) < 12:
        await asyncio.sleep(0.02)
        if any(t.done() for t in plays):
            errors = [t.exception() for t in plays if t.done() and t.exception()]
            assert not errors, errors
            break
    a.kill()
    await asyncio.gather(*plays)
    moved = [p for p in players if p.reconnects]
    assert moved, "nobody was connected to the killed process"
    assert all(p.state["match"]["finished"] for p in players)
    acked = check_acknowledged(players, pg_url)
    assert acked > 0
    result = assert_audit(pg_url)
    assert result["matches"] == 4
    for player in players:
        await player.close()


async def test_redis_restart_under_play(pg_url, private_redis, processes):
    a, b = processes(2, pg_url, private_redis.url)
    code, (anna, boris) = await table([a, b], "r")
    watcher = Client(b.ws, code, name="watcher")  # a spectator on B sees A's actions via Redis
    await watcher.connect()
    plays = [asyncio.create_task(p.play(timeout=120)) for p in (anna, boris)]
    while anna.client.seq < 15:
        await asyncio.sleep(0.05)
    private_redis.kill()
    await asyncio.sleep(1.0)
    private_redis.start()
    await asyncio.gather(*plays)
    final = await watcher.until(lambda s: s["match"] and s["match"]["finished"], timeout=30)
    assert final["match"]["totals"] == anna.state["match"]["totals"]
    seqs = [m["seq"] for m in watcher.messages if m["type"] == "event"]
    assert seqs == list(range(seqs[0], seqs[-1] + 1)), "the spectator missed or repeated events"
    # fan-out is back by itself: a chat line said on A reaches B's spectator
    await anna.client.send({"type": "chat", "text": "after the restart"})
    await watcher.until(lambda s: any(c["text"] == "after the restart" for c in s["chat"]),
                        timeout=60)
    check_acknowledged([anna, boris], pg_url)
    assert_audit(pg_url)
    await watcher.close()
    for player in (anna, boris):
        await player.close()


def stored_count(database_url: str) -> int:
    from sqlalchemy import func, select

    from app.storage.models import RoomEvent
    from app.storage.store import Store

    store = Store(database_url)
    try:
        with store.sessions() as s:  # every write stores an event (actions are events)
            return s.scalar(select(func.count()).select_from(RoomEvent))
    finally:
        store.close()


async def test_database_briefly_unreachable(pg_url, redis_url, processes):
    import httpx
    from sqlalchemy.engine import make_url

    from tests.scale.conftest import TcpProxy

    real = make_url(pg_url)
    proxy = TcpProxy(real.port or 5432, real.host)
    proxied = real.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    try:
        a, b = processes(2, proxied, redis_url)
        code, players = await table([a, b], "d", {"target": 40})
        await asyncio.gather(*(p.play(timeout=60, stop=lambda p: p.client.seq >= 10)
                               for p in players))
        # the bot acts at once: wait until a person has the turn, then cut the database
        for _ in range(200):
            ready = [p for p in players if p.client.my_turn()]
            if ready:
                break
            await asyncio.sleep(0.05)
            for p in players:
                while not p.client.inbox.empty():
                    p.client.inbox.get_nowait()
        actor = ready[0]
        before = stored_count(pg_url)
        proxy.cut()
        await actor.client.send({"type": "action", "id": "during-outage",
                                 "action": actor.client.choose()})
        answer = await actor._reply("during-outage", timeout=30)
        assert answer["type"] == "error" and answer["code"] == "storage", answer
        assert "nothing was applied" in answer["message"]
        async with httpx.AsyncClient() as http:
            r = await http.get(a.http + "/api/health", timeout=60)
            assert r.status_code == 503 and r.json()["database"] is False, r.text
        assert stored_count(pg_url) == before, "something was stored while it was down"
        proxy.restore()
        await asyncio.gather(*(p.play(timeout=120) for p in players))
        async with httpx.AsyncClient() as http:
            assert (await http.get(a.http + "/api/health", timeout=60)).status_code == 200
        # the refused action was never stored, not even once the database was back
        assert "during-outage" not in {i for p in players for i in p.acked}
        assert "during-outage" not in stored_client_ids(pg_url)
        check_acknowledged(players, pg_url)
        assert_audit(pg_url)
        for player in players:
            await player.close()
    finally:
        proxy.close()


async def test_flood_of_bad_and_racing_messages(pg_url, redis_url, processes):
    a, b = processes(2, pg_url, redis_url, rate=1000)
    code, (anna, boris) = await table([a, b], "f", {"target": 1})
    # a twin of anna's seat on the other process, and a spectator, both flooding
    twin = Client(b.ws, code, anna.client.token, name="twin")
    await twin.connect()
    spectator = Client(a.ws, code, name="spy")
    await spectator.connect()
    rng = random.Random(5)
    junk = ["{not json", "[1,2]", json.dumps({"type": "dance"}), "x" * 5000,
            json.dumps({"type": "action", "id": "same", "action": {"type": "play", "card": "AS"}}),
            json.dumps({"type": "action", "action": {"type": "fly"}}),
            json.dumps({"type": "action", "id": 7, "action": None}),
            json.dumps({"type": "hello", "token": "forged"}),
            json.dumps({"type": "chat", "text": ""}),
            json.dumps({"type": "standin", "seat": 1})]
    stop = asyncio.Event()
    sent = {twin.name: 0, spectator.name: 0}

    async def flood(client: Client):
        while not stop.is_set():
            if rng.random() < 0.5 and client.state and client.state["match"] \
                    and client.state["match"]["moves"]:
                await client.send({"type": "action", "id": f"race-{rng.randrange(40)}",
                                   "action": client.choose()})
            else:
                await client.send(rng.choice(junk))
            sent[client.name] += 1
            await asyncio.sleep(0.0005)

    floods = [asyncio.create_task(flood(c)) for c in (twin, spectator)]
    while min(sent.values()) < 100:  # the people play once each flood is well under way
        await asyncio.sleep(0.01)
    await asyncio.gather(anna.play(timeout=120), boris.play(timeout=120))
    stop.set()
    await asyncio.gather(*floods)
    assert anna.state["match"]["finished"] and boris.state["match"]["finished"]
    for client in (anna.client, boris.client, twin, spectator):
        seqs = [m["seq"] for m in client.messages if m["type"] == "event"]
        assert seqs == sorted(set(seqs)), f"{client.name} saw events out of order"

    def errors() -> set:
        return {m["code"] for m in twin.messages + spectator.messages if m["type"] == "error"}

    # each kind of junk is answered with its error (the answers come in order, after the
    # flood's frames before them: waited for, not timed; the deadline only ends a hang)
    deadline = asyncio.get_running_loop().time() + 60
    while not {"bad_json", "unknown_type", "too_large"} <= errors():
        assert asyncio.get_running_loop().time() < deadline, errors()
        await asyncio.sleep(0.01)
    result = assert_audit(pg_url)
    assert result["matches"] == 1
    for c in (twin, spectator):
        await c.close()
    for player in (anna, boris):
        await player.close()
