"""Post-match analyses in the background (app/storage/analyses.py, app/ops/analyst.py, the
API): one analysis per match at a time whichever process takes it, a stale one taken over and
resumed from the deals kept, the result stored whole and the same as ``cardroom analyse``."""

from __future__ import annotations

import asyncio
import random
import re
import secrets
import threading
import time
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.ops import analyst as analyst_module
from app.ops.analyst import Analyst
from app.ops.seeds import store_match
from app.settings import Settings
from app.storage import analyses, history
from app.storage.store import Store
from engine import new_match
from engine.analysis import analyse, analyse_deal
from engine.bots.heuristic import HEURISTIC_BOTS

STALE = timedelta(seconds=60)


def played(game: str, options: dict, seed: int):
    """A match the rules bots play to its end."""
    rng = random.Random(seed)
    match = new_match(game, options)
    rules = HEURISTIC_BOTS[game]
    while not match.finished:
        match.start_deal(rng=rng)
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, rules(match.view(seat), match.moves(seat), rng))
    return match


def stored(store: Store, match, finished: bool = True) -> int:
    names = [f"A{secrets.token_hex(3)}" for _ in range(match.game.seats)]
    if not finished:
        match.finished = False
    when = datetime.now(timezone.utc) - timedelta(hours=1)
    return store.transact(lambda s: store_match(s, f"AN{secrets.token_hex(4)}", match, names,
                                                when))


def settings(url: str, **more) -> Settings:
    return Settings(**{"database_url": url, "analysis_simulations": 1, "analysis_poll": 0.05,
                       "limits": False, "bot_delay": 0, "deal_pause": 0, **more})


@pytest.fixture
def store(database_url):
    store = Store(database_url)
    yield store
    store.close()


def test_one_process_holds_an_analysis_and_a_stale_hold_is_taken_over(store):
    match_id = stored(store, played("marjolet", {"target": 60}, 1))
    now = datetime.now(timezone.utc)
    asked = store.transact(lambda s: analyses.request(s, match_id, now))
    assert asked["status"] == "queued" and asked["done"] == 0
    first = store.transact(lambda s: analyses.claim(s, "first", now, STALE))
    assert first == match_id
    # nobody else may take it while its hold is fresh
    assert store.transact(lambda s: analyses.claim(s, "second", now, STALE)) != match_id
    assert store.transact(lambda s: analyses.beat(s, match_id, "first", now))
    assert not store.transact(lambda s: analyses.beat(s, match_id, "second", now))
    assert store.transact(lambda s: analyses.save_deal(s, match_id, "first", now,
                                                       [{"deal": 0}], 10, 40))
    # its progress within the next deal: by its holder only, and only forward
    assert store.transact(lambda s: analyses.progress(s, match_id, "first", now, 13, 40))
    assert not store.transact(lambda s: analyses.progress(s, match_id, "first", now, 12, 40))
    assert not store.transact(lambda s: analyses.progress(s, match_id, "second", now, 14, 40))
    # asked again while it runs: it goes on as it is
    again = store.transact(lambda s: analyses.request(s, match_id, now, again=True))
    assert again["status"] == "running" and again["done"] == 13
    # its hold goes stale (the process stopped): another process takes it over, with its deals
    later = now + STALE + timedelta(seconds=1)
    assert store.transact(lambda s: analyses.claim(s, "second", later, STALE)) == match_id
    work = store.transact(lambda s: analyses.work(s, match_id, "second"))
    assert work["deals"] == [{"deal": 0}] and work["record"]["game"] == "marjolet"
    # the first process, back, stores nothing more
    assert store.transact(lambda s: analyses.work(s, match_id, "first")) is None
    assert not store.transact(lambda s: analyses.save_deal(s, match_id, "first", later,
                                                           [{"deal": 0}, {"deal": 1}], 20, 40))
    assert not store.transact(lambda s: analyses.finish(s, match_id, "first", later, {}, 40))
    assert store.transact(lambda s: analyses.finish(s, match_id, "second", later,
                                                    {"x": 1}, 40))
    done = store.transact(lambda s: analyses.get(s, match_id))
    assert done["status"] == "done" and done["result"] == {"x": 1} and done["done"] == 40
    # asked for again: kept as it is, unless asked to work it out anew
    assert store.transact(lambda s: analyses.request(s, match_id, later))["status"] == "done"
    anew = store.transact(lambda s: analyses.request(s, match_id, later, again=True))
    assert anew["status"] == "queued"
    # the one done still shown meanwhile (it had gone from the page, for everyone), then the new
    queued = store.transact(lambda s: analyses.get(s, match_id))
    assert queued["result"] == {"x": 1} and (queued["done"], queued["deals_done"]) == (0, 0)
    assert store.transact(lambda s: analyses.claim(s, "third", later, STALE)) == match_id
    assert store.transact(lambda s: analyses.work(s, match_id, "third"))["deals"] == []
    assert store.transact(lambda s: analyses.finish(s, match_id, "third", later, {"x": 2}, 40))
    assert store.transact(lambda s: analyses.get(s, match_id))["result"] == {"x": 2}


def test_no_analysis_of_a_running_match_or_of_none(store):
    match_id = stored(store, played("black_maria", {"target": 10}, 2), finished=False)
    now = datetime.now(timezone.utc)
    assert store.transact(lambda s: analyses.request(s, match_id, now)) is history.RUNNING
    assert store.transact(lambda s: analyses.get(s, match_id)) is history.RUNNING
    assert store.transact(lambda s: analyses.request(s, 10 ** 9, now)) is None


async def run_until_idle(analyst: Analyst) -> None:
    while await analyst.step():
        pass


def test_the_background_analysis_is_the_commands_and_resumes_from_the_deals_kept(
        sqlite_url, monkeypatch):
    """... and its transactions take their turn with the tables' writes: on the event loop's
    thread or the store's one thread of transactions, never beside them (on SQLite a commit
    of the loop's had waited for its lock)."""
    store = Store(sqlite_url)
    try:
        match = played("marjolet", {"target": 250}, 3)
        assert len(match.deals) >= 2
        match_id = stored(store, match)
        record = store.transact(lambda s: history.record(s, match_id))
        expected = analyse(record, simulations=1, seed=0)
        now = datetime.now(timezone.utc)
        store.transact(lambda s: analyses.request(s, match_id, now))
        # a process took it, kept its first deal (marked, to tell it apart) and stopped
        assert store.transact(lambda s: analyses.claim(s, "gone", now, STALE)) == match_id
        first = {**analyse_deal(record, 0, simulations=1, seed=0), "kept": True}
        assert store.transact(lambda s: analyses.save_deal(
            s, match_id, "gone", now - STALE * 2, [first], 5, 100))

        threads, transact = set(), store.transact

        def spied(*args, **kwargs):
            threads.add(threading.current_thread().name.split("_")[0])
            return transact(*args, **kwargs)
        monkeypatch.setattr(store, "transact", spied)

        async def run():
            analyst = Analyst(settings(sqlite_url), store)
            try:
                await run_until_idle(analyst)
            finally:
                await analyst.close()
            return analyst

        analyst = asyncio.run(run())
        assert analyst.finished == 1
        monkeypatch.undo()
        assert threads <= {threading.main_thread().name, "db-transactions"}, threads
        done = store.transact(lambda s: analyses.get(s, match_id))
        assert done["status"] == "done"
        total = sum(len(d["actions"]) for d in record["deals"])
        assert done["done"] == done["total"] == total
        assert done["result"]["deals"][0]["kept"] is True  # resumed, not started again
        done["result"]["deals"][0].pop("kept")
        assert done["result"] == expected
    finally:
        store.close()


def test_two_processes_never_run_one_analysis_at_once(sqlite_url):
    """Two analysts (each with its own connections, as two server processes) and three
    matches asked for: each match analysed once, by one of them."""
    store = Store(sqlite_url)
    try:
        ids = [stored(store, played("black_maria", {"target": 10}, seed)) for seed in (4, 5, 6)]
        now = datetime.now(timezone.utc)
        for match_id in ids:
            store.transact(lambda s, m=match_id: analyses.request(s, m, now))

        async def run():
            stores = [Store(sqlite_url), Store(sqlite_url)]
            analysts = [Analyst(settings(sqlite_url), s) for s in stores]
            try:
                await asyncio.gather(*(run_until_idle(a) for a in analysts))
            finally:
                for analyst, own in zip(analysts, stores):
                    await analyst.close()
                    own.close()
            return analysts

        analysts = asyncio.run(run())
        assert sum(a.finished for a in analysts) == 3 and sum(a.lost for a in analysts) == 0
        for match_id in ids:
            assert store.transact(lambda s, m=match_id: analyses.get(s, m))["status"] == "done"
    finally:
        store.close()


def test_the_api_asks_for_an_analysis_and_shows_its_progress_and_result(sqlite_url):
    store = Store(sqlite_url)
    try:
        match_id = stored(store, played("black_maria", {"target": 10}, 7))
        running_id = stored(store, played("black_maria", {"target": 10}, 8), finished=False)
    finally:
        store.close()
    with TestClient(create_app(settings(sqlite_url))) as client:
        path = f"/api/matches/{match_id}/analysis"
        assert client.get(path).json() == {"match_id": match_id, "status": None}
        asked = client.post(path)
        assert asked.status_code == 202 and asked.json()["status"] in ("queued", "running")
        deadline = time.monotonic() + 240
        while (found := client.get(path).json())["status"] not in ("done", "failed"):
            assert found["status"] in ("queued", "running")
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert found["status"] == "done", found
        assert found["result"]["format"] == "cardroom-analysis/2"
        assert "result" not in client.get(path, params={"result": "false"}).json()
        # asked again: the one done is kept, unless asked to work it out anew
        assert client.post(path).json()["status"] == "done"
        assert client.post(path, json={"again": True}).json()["status"] in ("queued",
                                                                               "running")
        assert client.get("/api/matches/999999/analysis").status_code == 404
        assert client.post("/api/matches/999999/analysis").status_code == 404
        assert client.get(f"/api/matches/{running_id}/analysis").status_code == 409
        assert client.post(f"/api/matches/{running_id}/analysis").status_code == 409


def test_the_progress_moves_within_a_deal_and_is_stored_at_a_bounded_rate(sqlite_url,
                                                                          monkeypatch):
    """A person waiting sees the analysis move decision by decision, never back (it had moved
    a deal at a time: "54 of 216" for 20 s, and nothing shown until the first deal was done);
    the count is stored at most every PROGRESS_EVERY seconds, not at every decision."""
    store = Store(sqlite_url)
    try:
        match_id = stored(store, played("black_maria", {"target": 10}, 7))
        record = store.transact(lambda s: history.record(s, match_id))
    finally:
        store.close()
    sizes = [len(deal["actions"]) for deal in record["deals"]]
    boundaries = {sum(sizes[:n]) for n in range(len(sizes) + 1)}
    monkeypatch.setattr(analyst_module, "PROGRESS_EVERY", 0.05)
    writes, store_progress = [], analyses.progress
    monkeypatch.setattr(analyses, "progress",
                        lambda *args: writes.append(args[4]) or store_progress(*args))
    seen = []
    with TestClient(create_app(settings(sqlite_url))) as client:
        path = f"/api/matches/{match_id}/analysis"
        client.post(path)
        began = time.monotonic()
        while (found := client.get(path, params={"result": "false"}).json())["status"] != "done":
            assert found["status"] in ("queued", "running") and time.monotonic() < began + 240
            if found["done"]:
                seen.append((found["done"], found["total"]))
            time.sleep(0.01)
        took = time.monotonic() - began
    within = sorted({done for done, _ in seen} - boundaries)
    assert len(within) >= 3, seen
    assert [done for done, _ in seen] == sorted(done for done, _ in seen), seen
    assert {total for _, total in seen} == {sum(sizes)}, seen
    assert len(writes) <= took / analyst_module.PROGRESS_EVERY + len(sizes), (len(writes), took)


def test_a_process_that_lost_its_hold_gives_its_deal_up_at_the_next_decision(sqlite_url):
    """Another process took the analysis over (this one's hold had gone stale, as a process
    paused for a while): the first one's heartbeat finds the hold gone and its analysis process
    stops at its next decision, storing nothing more, rather than spend seconds of a core on
    the rest of a deal nobody will keep."""
    store = Store(sqlite_url)
    try:
        match_id = stored(store, played("black_maria", {"target": 10}, 7))
        decisions = len(store.transact(lambda s: history.record(s, match_id))["deals"][0]["actions"])
        store.transact(lambda s: analyses.request(s, match_id, datetime.now(timezone.utc)))

        async def run():
            analyst = Analyst(settings(sqlite_url, analysis_simulations=60, analysis_stale=0.2),
                              store)
            try:
                step = asyncio.create_task(analyst.step())
                while analyst.analysed is None or analyst.analysed.value < 1:
                    await asyncio.sleep(0.005)
                taken = datetime.now(timezone.utc) + timedelta(hours=1)  # (fresh for the test)
                assert await asyncio.to_thread(store.transact, lambda s: analyses.claim(
                    s, "another", taken, timedelta(0))) == match_id
                at_takeover = analyst.analysed.value
                assert await step
                return analyst, at_takeover, analyst.analysed.value
            finally:
                await analyst.close()

        analyst, at_takeover, at_end = asyncio.run(run())
        assert analyst.lost == 1 and analyst.finished == 0
        assert at_end < decisions // 2, (at_takeover, at_end, decisions)  # (it had gone on to the end)
        held = store.transact(lambda s: analyses.get(s, match_id))
        assert held["status"] == "running" and held["done"] <= at_end
        assert store.transact(lambda s: analyses.work(s, match_id, "another"))["deals"] == []
    finally:
        store.close()


def test_a_heartbeat_failing_while_the_database_is_down_is_logged_once(sqlite_url, monkeypatch,
                                                                         caplog):
    """The database down for a while: the heartbeat's failure is logged once and its
    recovery once (it had been logged at every beat); a beat that finds the hold gone stops."""
    store = Store(sqlite_url)
    tries = []

    def beat(*args):
        tries.append(1)
        if len(tries) <= 6:
            raise ConnectionError("the database is down")
        return len(tries) < 9  # (held twice, then another process holds it)
    monkeypatch.setattr(analyses, "beat", beat)

    async def run():
        analyst = Analyst(settings(sqlite_url, analysis_stale=0.2), store)
        analyst.given_up = SimpleNamespace(value=0)
        await asyncio.wait_for(analyst._beat(1), 10)
        return analyst

    try:
        with caplog.at_level("WARNING", logger="cardroom.analysis"):
            analyst = asyncio.run(run())
    finally:
        store.close()
    said = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "cardroom.analysis"]
    assert [level for level, _ in said] == ["ERROR", "WARNING"], said
    assert said[0][1] == "analysis: its heartbeat failed (said again once it works)"
    assert re.fullmatch(r"analysis: its heartbeat works again after \d+ s", said[1][1]), said
    assert len(tries) == 9 and analyst.given_up.value == 1


def test_with_analyse_finished_every_match_that_finished_is_analysed(sqlite_url):
    store = Store(sqlite_url)
    try:
        match_id = stored(store, played("black_maria", {"target": 10}, 9))

        async def run():
            analyst = Analyst(settings(sqlite_url, analyse_finished=True,
                                       analysis_stale=7200), store)
            try:
                await run_until_idle(analyst)
            finally:
                await analyst.close()

        asyncio.run(run())
        assert store.transact(lambda s: analyses.get(s, match_id))["status"] == "done"
    finally:
        store.close()


def test_analyses_asked_for_are_limited_per_address(sqlite_url):
    store = Store(sqlite_url)
    try:
        match_id = stored(store, played("black_maria", {"target": 10}, 10))
    finally:
        store.close()
    limited = Settings(database_url=sqlite_url, analysis=False, limits=True,
                       limit_analyses="2/minute")
    with TestClient(create_app(limited)) as client:
        path = f"/api/matches/{match_id}/analysis"
        assert client.post(path).status_code == 202
        assert client.post(path).status_code == 202
        refused = client.post(path)
        assert refused.status_code == 429 and refused.json()["reason"] == "limit_analyses"
        assert int(refused.headers["Retry-After"]) >= 1
        assert client.get(path).status_code == 200  # looking is not limited
