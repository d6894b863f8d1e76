"""Whole matches of every game over real WebSockets: people played by the test, bots in the
other seats, a spectator watching; no connection ever sees a card it may not know; the
history API and the downloaded record agree with what was played."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import httpx
import pytest

from cardroom_client import Client, allowed_by_seq, check_no_leak, create_room, join

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TABLES = {
    "black_maria": (["open", "open", "bot:rules"], {"target": 15}),
    "marjolet": (["open", "open"], {"target": 150}),
    "big_mariage": (["open", "bot:rules", "open", "bot:random"], {"target": 150}),
}


@pytest.mark.parametrize("game", list(TABLES))
async def test_whole_match(server, game):
    seats, options = TABLES[game]
    code = await create_room(server.http, game, seats, options)
    spectator = Client(server.ws, code, name="watcher")
    await spectator.connect()
    people = []
    for seat, kind in enumerate(seats):
        if kind == "open":
            _, token = await join(server.http, code, f"{game}-p{seat}", seat)
            people.append(Client(server.ws, code, token, name=f"p{seat}"))
    for person in people:
        await person.connect()
    await asyncio.gather(*(p.play(timeout=150) for p in people))
    await spectator.until(lambda s: s["match"] and s["match"]["finished"])
    match_id = spectator.state["room"]["match"]["id"]
    final = spectator.state["match"]

    async with httpx.AsyncClient(base_url=server.http) as http:
        detail = (await http.get(f"/api/matches/{match_id}")).json()
        assert detail["status"] == "finished"
        assert detail["totals"] == final["totals"] and detail["winners"] == final["winners"]
        assert [d["scores"] for d in detail["deal_list"]] == [d["scores"] for d in final["deals"]]
        assert all(d["summary"] is not None for d in detail["deal_list"])
        r = await http.get(f"/api/matches/{match_id}/record")
        assert r.status_code == 200
        record = r.json()
        listed = (await http.get("/api/matches", params={"player": f"{game}-p0",
                                                         "game": game})).json()["matches"]
        assert [m["id"] for m in listed] == [match_id]
        stats = (await http.get(f"/api/players/{game}-p0")).json()
        assert stats["played"] >= 1 and stats["deals"] >= len(detail["deal_list"])

    out = subprocess.run([os.path.join(ROOT, ".venv", "bin", "cardroom"), "replay", "-"],
                         input=json.dumps(record), capture_output=True, text=True, check=True)
    replayed = json.loads(out.stdout)
    assert replayed["deal_scores"] == [d["scores"] for d in detail["deal_list"]]
    assert replayed["totals"] == detail["totals"] and replayed["finished"]
    assert replayed["winners"] == detail["winners"]

    # No connection saw a card it may not know, at any moment of the match.
    events = [(m["seq"], m["event"]) for m in spectator.messages if m["type"] == "event"]
    start = max(i for i, (_, e) in enumerate(events) if e["kind"] == "match")
    events = events[start:]
    nseats = len(seats)
    allowed = allowed_by_seq(record, events, list(range(nseats)) + [None])
    checked = check_no_leak(spectator, allowed, None)
    for person in people:
        checked += check_no_leak(person, allowed, person.seat)
    assert checked > 50
    # Each action came back to the connection that sent it in its own event, with the ack;
    # no other connection saw an ack, and no ack came in a frame of its own.
    for person in people:
        events = [m for m in person.messages if m["type"] == "event"]
        acks = [m["ack"] for m in events if "ack" in m]
        own = [m for m in events if m["event"]["kind"] == "action"
               and m["event"]["seat"] == person.seat]
        assert len(acks) == len(set(acks)) == len(own) > 0
        assert all(m["ack"].startswith(f"{person.name}-") for m in own)
        assert not any(m["type"] == "ack" for m in person.messages)
    assert not any("ack" in m for m in spectator.messages)
    # Every seat's event stream is complete and in order.
    for client in people + [spectator]:
        seqs = [m["seq"] for m in client.messages if m["type"] == "event"]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    for client in people + [spectator]:
        await client.close()


async def test_rematch_and_open_rooms(server):
    code = await create_room(server.http, "black_maria", ["open", "bot:random", "bot:random"],
                             {"target": 1})
    async with httpx.AsyncClient(base_url=server.http) as http:
        rooms = (await http.get("/api/rooms")).json()["rooms"]
        assert code in [r["code"] for r in rooms]
    _, token = await join(server.http, code, "Rema")
    person = Client(server.ws, code, token, name="rema")
    await person.connect()
    await person.play()
    first = person.state["room"]["match"]["id"]
    await person.send({"type": "rematch"})
    await person.until(lambda s: s["room"]["match"]["id"] != first and s["match"]["deals"])
    assert person.state["match"]["finished"] is False
    await person.play()
    await person.close()
