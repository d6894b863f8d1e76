"""Seconds of post-match analysis per whole deal, per game, on one core (engine/analysis.py).

    .venv/bin/python bench/analysis_bench.py [--deals 5] [--simulations N] [--games marjolet ...]

Each game's deals are played by the rules bots from fixed seeds (the same deals every run), then
analysed one at a time at the default quality (``DEFAULT_SIMULATIONS``, or ``--simulations``).
The time is the CPU time of this process (``time.process_time``): one core, whatever else the
machine runs. Targets (issue 28): a Marjolet or Big Mariage deal under 10 s, a Black Maria deal
under 20 s. The figures go in docs/analysis.md.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engine import GAMES, new_match  # noqa: E402
from engine.analysis import DEFAULT_SIMULATIONS, analyse  # noqa: E402
from engine.bots.heuristic import HEURISTIC_BOTS  # noqa: E402
from engine.record import write  # noqa: E402

TARGETS = {"marjolet": 10.0, "black_maria": 20.0, "big_mariage": 10.0}
#: Deal ``n`` of a game is dealt and played from this seed plus ``n``.
SEED = 28_000


def deal_record(game: str, number: int) -> dict:
    """A record of one deal the rules bots play (Big Mariage: one that is not thrown in)."""
    rng = random.Random(SEED + number)
    rules = HEURISTIC_BOTS[game]
    while True:
        match = new_match(game, {"target": 10 ** 6})
        deal = match.start_deal(rng=rng)
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, rules(match.view(seat), match.moves(seat), rng))
        if game != "big_mariage" or deal.contract is not None:
            return write(match)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--simulations", type=int, default=None)
    parser.add_argument("--games", nargs="+", choices=sorted(GAMES), default=list(GAMES))
    args = parser.parse_args()
    print("post-match analysis, CPU seconds per whole deal (one core), rules-bot deals:")
    for game in args.games:
        simulations = args.simulations or DEFAULT_SIMULATIONS[game]
        times, decisions, choices = [], 0, 0
        for number in range(args.deals):
            record = deal_record(game, number)
            start = time.process_time()
            analysis = analyse(record, simulations=simulations, seed=number)
            times.append(time.process_time() - start)
            searched = [d for d in analysis["deals"][0]["decisions"] if "choices" in d]
            decisions += len(searched)
            choices += sum(len(d["choices"]) for d in searched)
        verdict = "meets" if max(times) < TARGETS[game] else "MISSES"
        print(f"  {game:12} {simulations} determinizations a choice, {args.deals} deals "
              f"({decisions / args.deals:.0f} decisions, {choices / args.deals:.0f} choices a "
              f"deal): mean {statistics.fmean(times):.2f} s, median "
              f"{statistics.median(times):.2f} s, max {max(times):.2f} s; target "
              f"< {TARGETS[game]:.0f} s: {verdict}")


if __name__ == "__main__":
    main()
