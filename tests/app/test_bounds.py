"""Bounded options and numbers out of range (issue 26's findings): each is a clear refusal,
never a server error, and nothing is stored."""

from __future__ import annotations

import httpx
import pytest

from app.rooms.registry import TARGET_MAX
from app.storage.history import MAX_ID
from tests.conftest import LiveServer, fresh_sqlite

BEYOND = MAX_ID + 1


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """On SQLite: what is refused here is refused before the database is asked."""
    live = LiveServer(fresh_sqlite(tmp_path_factory, "bounds")).start()
    yield live
    live.stop()


@pytest.fixture
async def http(server):
    async with httpx.AsyncClient(base_url=server.http) as client:
        yield client


async def rooms_now(http) -> set[str]:
    return {r["code"] for r in (await http.get("/api/rooms", params={"open": False,
                                                                      "limit": 200})).json()["rooms"]}


@pytest.mark.parametrize("game", sorted(TARGET_MAX))
async def test_a_target_has_a_maximum_per_game(http, game):
    before = await rooms_now(http)
    for target in (TARGET_MAX[game] + 1, 2 ** 63, 10 ** 30):
        r = await http.post("/api/rooms", json={"game": game, "options": {"target": target}})
        assert r.status_code == 422, r.text
        assert r.json()["reason"] == "target_too_high"
        assert r.json()["params"]["count"] == TARGET_MAX[game]
    assert await rooms_now(http) == before
    r = await http.post("/api/rooms", json={"game": game, "options": {"target": TARGET_MAX[game]}})
    assert r.status_code == 201


@pytest.mark.parametrize("timer", ["1e309", "-1e309", "NaN", "0.5", "601", "0", "true", "\"30\""])
async def test_the_turn_timer_is_finite_and_between_1_and_600_seconds(http, timer):
    body = '{"game": "marjolet", "turn_timer": %s}' % timer
    r = await http.post("/api/rooms", content=body,
                        headers={"Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body", "turn_timer"]


@pytest.mark.parametrize("game, option, value", [
    ("marjolet", "target", "1e400"), ("marjolet", "jack_queen", "1e400"),
    ("big_mariage", "marriages", "-1e400"), ("black_maria", "target", "NaN")])
async def test_an_option_of_no_finite_number_is_refused_with_its_name(http, game, option, value):
    """(The engine's refusal names the value, which JSON cannot hold: the answer had failed
    with a 500.)"""
    before = await rooms_now(http)
    body = '{"game": "%s", "options": {"%s": %s}}' % (game, option, value)
    r = await http.post("/api/rooms", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    assert r.json()["reason"] == "bad_option_value" and r.json()["params"]["option"] == option
    assert await rooms_now(http) == before


@pytest.mark.parametrize("query", ["limit=-1", "limit=0", "limit=201", f"limit={BEYOND}"])
async def test_the_rooms_listed_are_bounded(http, query):
    assert (await http.get(f"/api/rooms?{query}")).status_code == 422


@pytest.mark.parametrize("path", ["/api/matches/{id}", "/api/matches/{id}/record",
                                  "/api/matches/{id}/replay", "/matches/{id}"])
@pytest.mark.parametrize("match_id", [BEYOND, 10 ** 30, 0, -5])
async def test_a_match_id_out_of_range_names_no_match(http, path, match_id):
    r = await http.get(path.format(id=match_id))
    assert r.status_code == 404, r.text


@pytest.mark.parametrize("offset", [BEYOND, -1])
async def test_an_offset_out_of_range_is_refused(http, offset):
    r = await http.get("/api/matches", params={"offset": offset})
    assert r.status_code == 422
