"""The strong bot against the rules bot, in duplicate deals; and search's simulations a second.

    .venv/bin/python bench/strong_bench.py GAME [--pairs 500] [--matches 0] [--seconds 0.1]
        [--clock cpu|wall] [--workers 2] [--out FILE]      # play, appending to FILE
    .venv/bin/python bench/strong_bench.py GAME --report [--out FILE]   # figures of FILE
    .venv/bin/python bench/strong_bench.py --speed [--seconds 5]      # simulations a second
    .venv/bin/python bench/strong_bench.py --latency [--seconds 1] [--decisions 100] [--workers 1]

Duplicate: every deal is played once per seat (Marjolet, Black Maria) or partnership (Big
Mariage) of the strong bot, the same cards dealt by the same dealer, so that the luck of the
cards cancels: what one bot is dealt, the other is dealt in the twin deal. A *deal set* is those
plays (two, three in Black Maria); figures are averaged per set, and their 95% confidence
intervals are taken over sets (normal approximation; a bootstrap for Black Maria's ratio).

- Marjolet: duplicate *matches* to the default target (500), the strong bot at seat 0 in one
  and seat 1 in the other, the same packs dealt deal after deal; each deal both matches reach
  is a deal set. Figures: the share of deals the strong bot scores more than the rules bot, its
  average margin, the share of matches it wins. ``--pairs`` deal sets at least, and
  ``--matches`` match pairs at least.
- Black Maria: one strong bot and two rules bots; the strong bot in each seat in turn.
  Figures: penalty points per deal of the strong bot and of a rules bot, and how many fewer
  the strong bot takes (1 - strong / rules).
- Big Mariage: a strong partnership against a rules partnership, each partnership in turn.
  Figures: the share of deals the strong side scores more, its average margin.

The strong bot thinks ``--seconds`` per decision on ``--clock``: ``cpu`` (default) is the CPU
time of its own process, one core, whatever else the machine runs; ``wall`` is the server's
clock. Each result is appended to ``--out`` as one JSON line as soon as it is played, so that a
long run can be watched (``--report``) and resumed (sets already there are not played again).

``--latency``: how long the server waits for the strong bot's answer, the time it is due by
being its think time (``--seconds``, 1 by default as in the server): decisions of rules-bot
deals asked through the server's own process pool (``app.rooms.thinking``), ``--workers``
processes kept busy, wall clock from the call to the answer (p99 against the think time plus
50 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import pathlib
import random
import statistics
import sys
import time
from functools import partial

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engine import GAMES, new_match  # noqa: E402
from engine.bots import bot_for  # noqa: E402
from engine.bots.strong import MODELS  # noqa: E402
from engine.bots.strong.search import play_out  # noqa: E402

CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
#: Every twin deal gets the same packs: the pack of deal ``d`` of set ``s`` comes from this seed.
PACK_SEED = 27_000


def packs(game: str, unit: int):
    """The packs (and kitties) of duplicate unit ``unit``, deal after deal, without end."""
    spec = GAMES[game]
    for number in range(10 ** 6):
        yield spec.shuffle(random.Random(PACK_SEED * 10 ** 6 + unit * 1000 + number))


class Timed:
    """The strong bot, keeping each decision's time on both clocks."""

    def __init__(self, game: str, seconds: float, clock: str, seed: int):
        self.bot = partial(bot_for(game, "strong", seconds=seconds), clock=CLOCKS[clock])
        self.rng = random.Random(seed)
        self.cpu: list[float] = []
        self.wall: list[float] = []

    def __call__(self, view, moves, _rng):
        cpu, wall = time.process_time(), time.perf_counter()
        action = self.bot(view, moves, self.rng)
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - wall)
        return action


def play(game: str, bots: list, deals, dealer: int, options: dict, rng: random.Random,
         whole_match: bool) -> tuple[list[list[int]], list[int]]:
    """Play one deal (or a whole match) with ``bots[seat]`` at each seat, on the packs of
    ``deals``, ``dealer`` dealing first; the scores of each deal, and the match's winners."""
    match = new_match(game, options)
    scores = []
    while not match.finished:
        deck, kitty = next(deals)
        deal = match.start_deal(deck, dealer if not match.deals else None, kitty)
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, bots[seat](match.view(seat), match.moves(seat), rng))
        scores.append(deal.scores())
        if not whole_match:
            break
    return scores, match.winners


def play_set(game: str, unit: int, seconds: float, clock: str) -> dict:
    """One duplicate unit: the same packs played once per seat (or side) of the strong bot."""
    spec, rules = GAMES[game], bot_for(game, "rules")
    sides = 2 if game != "black_maria" else 3
    whole_match = game == "marjolet"
    options = {} if whole_match else {"target": 10 ** 6}
    strong = Timed(game, seconds, clock, unit)
    plays = []
    for side in range(sides):
        bots = [strong if (seat % 2 if spec.teams else seat) == side else rules
                for seat in range(spec.seats)]
        scores, winners = play(game, bots, packs(game, unit), unit % spec.seats, options,
                               random.Random(unit), whole_match)
        plays.append({"side": side, "scores": scores, "won": side in winners})
    return {"unit": unit, "plays": plays, "cpu": [round(t, 4) for t in strong.cpu],
            "wall": [round(t, 4) for t in strong.wall]}


# -- figures ---------------------------------------------------------------------------------

def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0
    return mean, mean - half, mean + half


def quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def show(name: str, values: list[float], percent: bool = False, target: str = "") -> None:
    mean, low, high = interval(values)
    k = 100 if percent else 1
    unit = "%" if percent else ""
    print(f"  {name:44} {mean * k:7.1f}{unit}  [{low * k:.1f}, {high * k:.1f}]  {target}")


def report(game: str, results: list[dict]) -> None:
    print(f"{game}: {len(results)} duplicate units")
    if game == "black_maria":
        report_black_maria(results)
    else:
        report_two_sides(game, results)
    cpu = sorted(t for r in results for t in r["cpu"])
    wall = sorted(t for r in results for t in r["wall"])
    if cpu:
        print(f"  strong bot decisions: {len(cpu)}; CPU s per decision median "
              f"{quantile(cpu, .5):.3f}, p99 {quantile(cpu, .99):.3f}, max {cpu[-1]:.3f}; "
              f"wall median {quantile(wall, .5):.3f}, p99 {quantile(wall, .99):.3f}, "
              f"max {wall[-1]:.3f}")


def side_scores(game: str, play_: dict, deal: list[int]) -> tuple[int, int]:
    """The strong side's and the rules side's scores in one deal."""
    side = play_["side"]
    return deal[side], deal[1 - side]


def report_two_sides(game: str, results: list[dict]) -> None:
    more, margin, pairs = [], [], 0
    for result in results:
        a, b = result["plays"]
        for deal_a, deal_b in zip(a["scores"], b["scores"]):  # the deals both plays reached
            twins = [side_scores(game, a, deal_a), side_scores(game, b, deal_b)]
            more.append(sum(s > r for s, r in twins) / 2)
            margin.append(sum(s - r for s, r in twins) / 2)
            pairs += 1
    print(f"  {pairs} deal pairs")
    show("deals the strong side scores more", more, True, "target >= 60%")
    show("strong side's average margin per deal", margin, False,
         "target > 0" if game == "big_mariage" else "")
    if game == "marjolet":
        won = [sum(p["won"] for p in r["plays"]) / 2 for r in results]
        show(f"matches won ({len(won)} match pairs)", won, True, "target >= 65%")


def report_black_maria(results: list[dict]) -> None:
    strong, rules = [], []
    for result in results:
        s = r = 0.0
        for play_ in result["plays"]:
            deal = play_["scores"][0]
            s += deal[play_["side"]]
            r += (sum(deal) - deal[play_["side"]]) / 2
        strong.append(s / 3)
        rules.append(r / 3)
    show("strong bot's penalty points per deal", strong)
    show("a rules bot's penalty points per deal", rules)
    ratio = 1 - sum(strong) / sum(rules)
    rng = random.Random(0)
    boot = []
    for _ in range(2000):
        picks = [rng.randrange(len(strong)) for _ in strong]
        boot.append(1 - sum(strong[i] for i in picks) / sum(rules[i] for i in picks))
    boot.sort()
    print(f"  {'fewer penalty points than a rules bot':44} {ratio * 100:7.1f}%  "
          f"[{boot[50] * 100:.1f}, {boot[1949] * 100:.1f}]  target >= 25% (bootstrap)")


# -- simulations a second --------------------------------------------------------------------

def simulations_per_second(game: str, seconds: float) -> tuple[float, float]:
    """Play-outs a second (one core, CPU time) from the decisions of rules-bot deals, each
    candidate of a decision in each of its determinizations, as search plays them; and
    determinizations a second (knowledge from the view, placements, deals built)."""
    rng, rules, model = random.Random(1), bot_for(game, "rules"), MODELS[game]
    simulations = worlds = 0
    playing = building = 0.0
    while playing + building < seconds:
        match = new_match(game, {"target": 10 ** 6})
        match.start_deal(rng=rng)
        while match.current is not None:
            seat = match.to_act()[0]
            view, moves = match.view(seat), match.moves(seat)
            prior = model.parse(rules(view, moves, rng))
            candidates = model.candidates(view, moves, prior)
            if len(candidates) > 1:
                start = time.process_time()
                world = next(model.worlds(view, model.knowledge(view), rng))
                building += time.process_time() - start
                worlds += 1
                start = time.process_time()
                for action in candidates:
                    play_out(model, world, seat, action, view["options"], rng.getrandbits(32),
                             {}, time.process_time, None)
                playing += time.process_time() - start
                simulations += len(candidates)
            match.apply(seat, prior)
    return simulations / playing, worlds / building


# -- answering in time ----------------------------------------------------------------------

async def latencies(game: str, seconds: float, decisions: int,
                    workers: int) -> list[float]:
    """Wall time of the strong bot's answers as the server's driver waits for them: through
    its process pool (``app.rooms.thinking.Thinkers``, ``workers`` processes, started before),
    ``seconds`` of think time, from the call to the answer, over ``decisions`` decisions of
    rules-bot deals with a choice (the first ``workers`` decisions at once, then one at a
    time as each answers, as busy tables would ask)."""
    from app.rooms.thinking import Thinkers
    from app.settings import Settings

    rng, rules, model = random.Random(2), bot_for(game, "rules"), MODELS[game]
    asked = []
    while len(asked) < decisions:
        match = new_match(game, {"target": 10 ** 6})
        match.start_deal(rng=rng)
        while match.current is not None and len(asked) < decisions:
            seat = match.to_act()[0]
            view, moves = match.view(seat), match.moves(seat)
            prior = model.parse(rules(view, moves, rng))
            if len(model.candidates(view, moves, prior)) > 1:
                asked.append((view, moves))
            match.apply(seat, prior)
    thinkers = Thinkers(Settings(think_workers=workers))
    times: list[float] = []

    async def ask(queue: list) -> None:
        while queue:
            view, moves = queue.pop()
            start = time.perf_counter()
            await thinkers.decide(game, view, moves, len(queue), seconds)
            times.append(time.perf_counter() - start)

    try:
        await thinkers._ready()
        await asyncio.gather(*(ask(asked) for _ in range(workers)))
    finally:
        thinkers.close()
    if thinkers.fallbacks:
        print(f"  ({thinkers.fallbacks} answers were the rules bot's: the pool failed)")
    return sorted(times)


# -- running ---------------------------------------------------------------------------------

def load(path: pathlib.Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def enough(game: str, results: list[dict], pairs: int, matches: int) -> bool:
    if game == "marjolet":
        deal_pairs = sum(min(len(p["scores"]) for p in r["plays"]) for r in results)
        return deal_pairs >= pairs and len(results) >= matches
    return len(results) >= pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", choices=sorted(GAMES))
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--matches", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out")
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--latency", action="store_true")
    parser.add_argument("--decisions", type=int, default=100)
    args = parser.parse_args()
    if args.latency:
        seconds = args.seconds or 1.0
        print(f"strong bot answers through the server's process pool ({args.workers} "
              f"workers), {seconds} s think time, wall time from the call to the answer:")
        for game in GAMES:
            ts = asyncio.run(latencies(game, seconds, args.decisions, args.workers))
            print(f"  {game:12} {len(ts)} decisions: median {quantile(ts, .5):.3f} s, p99 "
                  f"{quantile(ts, .99):.3f} s, max {ts[-1]:.3f} s (budget + 50 ms: "
                  f"{seconds + .05:.3f} s)")
        return
    if args.speed:
        print("search, one core (CPU time), over the decisions of rules-bot deals:")
        for game in GAMES:
            sims, worlds = simulations_per_second(game, args.seconds or 5.0)
            print(f"  {game:12} {sims:8.0f} simulations/s  {worlds:8.0f} determinizations/s")
        return
    if args.game is None:
        parser.error("name a game (or --speed)")
    out = pathlib.Path(args.out or f"strong-{args.game}.jsonl")
    results = load(out)
    if not args.report:
        done = {r["unit"] for r in results}
        seconds = 0.1 if args.seconds is None else args.seconds
        task = partial(play_set, args.game, seconds=seconds, clock=args.clock)
        with multiprocessing.Pool(args.workers) as pool, out.open("a") as sink:
            # Enough units whatever happens (the pool queues them all at once): Marjolet's
            # matches last several deals each.
            todo = [u for u in range(len(done) + max(args.pairs, args.matches)) if u not in done]
            for result in pool.imap_unordered(task, todo):
                results.append(result)
                sink.write(json.dumps(result) + "\n")
                sink.flush()
                if enough(args.game, results, args.pairs, args.matches):
                    pool.terminate()
                    break
        print(f"conditions: {seconds} s per decision on the {args.clock} clock, "
              f"{args.workers} worker processes")
    report(args.game, results)


if __name__ == "__main__":
    main()
