"""The strong bot at the table: a seat of its own (``bot:strong``) or a stand-in, thinking in the
server's process pool for the room's think time; whole deals against it over real WebSockets;
the event loop answers while it thinks; think times the server refuses."""

from __future__ import annotations

import asyncio
import os
import statistics
import time

import httpx
import pytest
from cardroom_client import Client, create_room, join

from app.rooms.thinking import Thinkers, new_room_think_time
from app.settings import Settings
from tests.conftest import LiveServer, fresh_sqlite


@pytest.fixture(scope="module")
def strong_server(tmp_path_factory):
    """A server of this module's own: its bots think in its own pool (two workers)."""
    live = LiveServer(fresh_sqlite(tmp_path_factory, "strong"), think_workers=2).start()
    yield live
    live.stop()


def thinkers(live) -> Thinkers:
    return live.app.state.rooms.thinkers


TABLES = {
    "marjolet": ["open", "bot:strong"],
    "black_maria": ["open", "bot:strong", "bot:rules"],
    "big_mariage": ["open", "bot:strong", "bot:rules", "bot:strong"],
}


@pytest.mark.parametrize("game", list(TABLES))
async def test_a_person_plays_a_whole_deal_against_strong_bots(strong_server, game):
    seats = TABLES[game]
    pool = thinkers(strong_server)
    before, fell_back = pool.decisions, pool.fallbacks
    code = await create_room(strong_server.http, game, seats, {"target": 1}, think_time=0.1)
    _, token = await join(strong_server.http, code, f"strong-{game}", 0)
    person = Client(strong_server.ws, code, token, name="p0")
    welcome = await person.connect()
    room = welcome["state"]["room"]
    assert room["think_time"] == 0.1
    assert [s["bot"] for s in room["seats"]] == [None if s == "open" else s[4:] for s in seats]
    await person.play(timeout=120)  # a target of 1: the first deal ends the match
    match = person.state["match"]
    assert match["finished"] and len(match["deals"]) >= 1
    strong_actions = [m for m in person.messages if m["type"] == "event"
                      and m["event"]["kind"] == "action" and seats[m["event"]["seat"]] == "bot:strong"]
    assert strong_actions
    decided = pool.decisions - before
    assert decided >= len(strong_actions)
    # The pool searched them: a decision the rules bot made instead is one the pool missed by
    # over a second, which only a stalled machine does (a gc pause of 2.9 s on a loaded one)
    assert pool.fallbacks - fell_back < decided / 2, (pool.fallbacks - fell_back, decided)
    await person.close()


async def test_a_strong_stand_in_plays_for_a_free_seat(strong_server):
    code = await create_room(strong_server.http, "marjolet", ["open", "open"], {"target": 1},
                             think_time=0.1)
    _, token = await join(strong_server.http, code, "Vera", 0)
    person = Client(strong_server.ws, code, token, name="vera")
    await person.connect()
    await person.send({"type": "standin", "seat": 1, "bot": "strong"})
    state = await person.until(lambda s: s["room"]["seats"][1]["kind"] == "bot")
    assert state["room"]["seats"][1]["bot"] == "strong"
    before = thinkers(strong_server).decisions
    await person.play(timeout=120)
    assert person.state["match"]["finished"]
    assert thinkers(strong_server).decisions > before
    await person.close()


async def test_the_event_loop_answers_while_strong_bots_think(tmp_path_factory):
    """Three strong bots think a second each, one after another, in a room nobody plays in:
    pings over a WebSocket and the health endpoint are answered at once meanwhile (were search
    on the event loop, a ping would wait half a second on average)."""
    live = LiveServer(fresh_sqlite(tmp_path_factory, "loop"), think_workers=1).start()
    try:
        code = await create_room(live.http, "black_maria", ["bot:strong"] * 3, {"target": 1000},
                                 think_time=1.0)
        watcher = Client(live.ws, code, name="watcher")
        await watcher.connect()
        deadline = time.monotonic() + 30
        while thinkers(live).decisions < 2:  # the pool is up, and the bots think on
            assert time.monotonic() < deadline, "the strong bots never thought"
            await asyncio.sleep(0.05)
        waits = []
        async with httpx.AsyncClient(base_url=live.http) as http:
            for _ in range(30):
                start = time.perf_counter()
                await watcher.send({"type": "ping"})
                await watcher.expect("pong", timeout=5)
                assert (await http.get("/api/health")).status_code == 200
                waits.append(time.perf_counter() - start)
                await asyncio.sleep(0.05)
        assert thinkers(live).decisions >= 3  # they thought all along
        # Half the search's second on the loop's side: a loaded machine delays some pings,
        # but only a search on the loop makes the typical one wait for it
        assert statistics.median(waits) < 0.25, waits
        pool = thinkers(live).pool
        workers = list(pool._processes) if pool is not None else []
        assert workers
        await watcher.close()
    finally:
        live.stop()
    # the app's shutdown shut the pool down: its workers are gone
    assert thinkers(live).pool is None
    deadline = time.monotonic() + 15
    while any(_alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "the thinking workers outlived the server"
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone but for its exit status
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("body, reason, params", [
    ({"think_time": 0.01}, "think_time", {"min": 0.1, "max": 10.0}),
    ({"think_time": 11}, "think_time", {"min": 0.1, "max": 10.0}),
    ({"think_time": -1}, "think_time", {"min": 0.1, "max": 10.0}),
    ({"think_time": 5, "turn_timer": 3}, "think_time_timer", {"timer": 3.0}),
    ({"seats": ["open", "bot:genius"]}, "seat_spec", {"spec": "bot:genius"}),
])
async def test_think_times_beyond_the_bounds_are_refused(strong_server, body, reason, params):
    async with httpx.AsyncClient(base_url=strong_server.http) as http:
        r = await http.post("/api/rooms", json={"game": "marjolet", **body})
        assert r.status_code == 422, r.text
        assert r.json()["reason"] == reason and r.json()["params"] == params
        r = await http.post("/api/rooms", json={"game": "marjolet", "think_time": "slow"})
        assert r.status_code == 422


async def test_the_think_time_defaults_to_the_setting_within_the_turn_timer(strong_server):
    async with httpx.AsyncClient(base_url=strong_server.http) as http:
        for extra, expected in (({}, 1.0), ({"turn_timer": 1}, 1.0),
                                ({"think_time": 2.5, "turn_timer": 30}, 2.5)):
            r = await http.post("/api/rooms", json={"game": "marjolet",
                                                    "seats": ["open", "bot:strong"], **extra})
            assert r.status_code == 201, r.text
            assert r.json()["room"]["think_time"] == expected
    settings = Settings(think_time=3.0)
    assert new_room_think_time(None, 2.0, settings) == 2.0
    assert new_room_think_time(None, None, settings) == 3.0
    assert new_room_think_time(0.1, 0.1, settings) == 0.1


def black_maria_pass() -> tuple[dict, dict]:
    """The view and the moves of the first seat to pass in a Black Maria deal."""
    from engine import new_match

    match = new_match("black_maria", {"target": 100})
    match.start_deal(list(match.game.pack.cards), dealer=0)
    seat = match.to_act()[0]
    return match.view(seat), match.moves(seat)


async def started(pool: Thinkers) -> None:
    """The pool is up (its start, seconds on a loaded machine, counts against the think time
    of the decision that waits for it, which the rules bot then answers)."""
    pool.warm()
    deadline = time.monotonic() + 60  # only so that a pool that never starts fails
    while pool.pool is None:
        assert time.monotonic() < deadline, "the thinking pool never started"
        await asyncio.sleep(0.05)


async def test_a_pool_that_fails_leaves_the_move_to_the_rules_bot():
    """A worker killed mid-search breaks the pool: the rules bot answers that move, and the
    next move has a new pool."""
    view, moves = black_maria_pass()
    pool = Thinkers(Settings(think_workers=1))
    try:
        await started(pool)
        assert "cards" in await pool.decide("black_maria", view, moves, 1, 0.1)
        assert pool.fallbacks == 0
        victim = next(iter(pool.pool._processes.values()))
        asking = asyncio.ensure_future(pool.decide("black_maria", view, moves, 2, 2.0))
        await asyncio.sleep(0.5)
        victim.kill()
        action = await asking
        assert action["type"] == "pass" and pool.fallbacks == 1 and pool.pool is None
        await started(pool)  # a new pool
        assert "cards" in await pool.decide("black_maria", view, moves, 3, 0.1)
        assert pool.fallbacks == 1
    finally:
        pool.close()


async def test_the_other_tables_waiting_for_a_pool_that_fails_are_answered(monkeypatch):
    """One decision too slow shuts the pool down, and with it the calls of other tables still
    in its queue: each of them is answered too, by the rules bot (they had raised a
    cancellation that ended their room's driver, and its bots never played again)."""
    from app.rooms import thinking

    view, moves = black_maria_pass()
    pool = Thinkers(Settings(think_workers=1))
    try:
        await started(pool)
        monkeypatch.setattr(thinking, "GRACE", -0.5)  # the first call given up after 0.1 s
        slow = asyncio.ensure_future(pool.decide("black_maria", view, moves, 1, 0.6))
        queued = [asyncio.ensure_future(pool.decide("black_maria", view, moves, seed, 3.0))
                  for seed in (2, 3, 4)]
        actions = await asyncio.gather(slow, *queued, return_exceptions=True)
        assert [a["type"] if isinstance(a, dict) else repr(a) for a in actions] == ["pass"] * 4
    finally:
        pool.close()


async def test_a_decision_whose_room_closes_is_cancelled_not_answered():
    """The room's own cancellation (it closes, its driver stops) goes through: only a call the
    pool's shutdown cancelled is answered by the rules bot."""
    view, moves = black_maria_pass()
    pool = Thinkers(Settings(think_workers=1))
    try:
        await started(pool)
        deciding = asyncio.ensure_future(pool.decide("black_maria", view, moves, 1, 2.0))
        await asyncio.sleep(0.3)
        deciding.cancel()
        with pytest.raises(asyncio.CancelledError):
            await deciding
        assert pool.fallbacks == 0
    finally:
        pool.close()
