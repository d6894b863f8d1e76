"""People benchmark: a player's page and the standings with years of play stored.

    .venv/bin/python bench/people_bench.py [--matches 10000] [--db sqlite|postgres] [--requests 50]

Stores MATCHES finished matches of the three games among twelve friends (each match played
by the rules bots, a quarter of them with a bot in a seat), as the server stores them, without
their actions (the figures do not read them); then asks a live server (uvicorn, as the tests
run it) for each friend's page (``GET /api/players/{name}``) and for standings of six of them
(``GET /api/standings``), REQUESTS times each, and prints the latency p50 / p95 / max in ms.
The target: under 100 ms.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from app.ops.seeds import store_match  # noqa: E402
from app.storage.migrate import upgrade  # noqa: E402
from app.storage.store import Store  # noqa: E402
from engine import new_match  # noqa: E402
from engine.bots import bot_for  # noqa: E402

FRIENDS = [f"Friend {i:02d}" for i in range(12)]
OPTIONS = {"marjolet": {"target": 1}, "black_maria": {"target": 1},
           "big_mariage": {"target": 1}}


def played(game: str, rng: random.Random):
    bot = bot_for(game, "rules")
    match = new_match(game, OPTIONS[game])
    while not match.finished:
        match.start_deal(rng=rng)
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, bot(match.view(seat), match.moves(seat), rng))
    return match


def fill(url: str, count: int) -> float:
    """Store ``count`` matches; the seconds it took."""
    rng = random.Random(7)
    start = time.perf_counter()
    store = Store(url)
    when = datetime.now(timezone.utc) - timedelta(days=3 * 365)
    try:
        done = 0
        while done < count:
            with store.sessions() as session, session.begin():
                for _ in range(min(500, count - done)):
                    game = rng.choice(list(OPTIONS))
                    match = played(game, rng)
                    names = rng.sample(FRIENDS, match.game.seats)
                    bots = {rng.randrange(match.game.seats): "rules"} \
                        if rng.random() < 0.25 else None
                    when += timedelta(minutes=rng.randrange(60, 180))
                    store_match(session, f"B{done:06d}", match, names, when, bots,
                                actions=False)
                    done += 1
    finally:
        store.close()
    return time.perf_counter() - start


def latencies(base: str, path: str, params_list: list[dict], requests: int) -> list[float]:
    times = []
    with httpx.Client(base_url=base, timeout=30) as http:
        for i in range(requests):
            params = params_list[i % len(params_list)]
            start = time.perf_counter()
            r = http.get(path.format(**params), params=params.get("query"))
            times.append((time.perf_counter() - start) * 1000)
            r.raise_for_status()
    return times


def figures(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[max(0, int(len(times) * 0.95) - 1)]
    return (f"p50 {statistics.median(times):.1f} / p95 {p95:.1f} / max {times[-1]:.1f} ms "
            f"({len(times)} requests)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    if args.db == "sqlite":
        run(f"sqlite:///{tempfile.mkdtemp()}/people.db", args)
    else:
        from app.storage.db import scratch_schema
        from tests.conftest import _reachable_postgres

        base, reason = _reachable_postgres()
        if base is None:
            raise SystemExit(f"PostgreSQL unreachable: {reason}")
        with scratch_schema(base, "cardroom_people") as url:
            run(url, args)


def run(url: str, args) -> None:
    from tests.conftest import LiveServer

    upgrade(url)
    seconds = fill(url, args.matches)
    if args.db == "postgres":  # as autovacuum would have by then: years of play are analysed
        store = Store(url)
        with store.engine.begin() as connection:
            connection.exec_driver_sql("ANALYZE")
        store.close()
    print(f"{args.matches} matches stored in {seconds:.0f} s ({args.db})")
    live = LiveServer(url).start()
    try:
        pages = latencies(live.http, "/api/players/{name}",
                          [{"name": name} for name in FRIENDS], args.requests)
        sets = [{"query": {"players": ",".join(FRIENDS[i:i + 6])}} for i in range(0, 12, 3)]
        table = latencies(live.http, "/api/standings", sets, args.requests)
        game = latencies(live.http, "/api/standings",
                         [{"query": {**s["query"], "game": "big_mariage"}} for s in sets],
                         args.requests)
    finally:
        live.stop()
    print(f"player page:              {figures(pages)}")
    print(f"standings, six people:    {figures(table)}")
    print(f"standings, Big Mariage:   {figures(game)}")


if __name__ == "__main__":
    main()
