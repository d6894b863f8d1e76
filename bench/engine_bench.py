"""Engine benchmark: random self-play deals per second, and the rules bots against random ones.

    .venv/bin/python bench/engine_bench.py [--seconds 5] [--deals 1000]

Deals per second are CPU time of this one process (one core), dealing included, every action
chosen by the random bot from ``Match.moves`` and applied through ``Match.apply``. When OpenSpiel
is installed (``pip install open_spiel``; not a dependency) it also times random Hearts deals
through OpenSpiel's Python API, the bar the issue names.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engine import GAMES, new_match  # noqa: E402
from engine.bots import bot_for  # noqa: E402
from engine.bots.random_bot import random_bot  # noqa: E402


def random_deals_per_second(game: str, seconds: float) -> tuple[float, float]:
    rng = random.Random(1)
    deals = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        # A fresh match each time: one endless match would keep every finished deal alive and
        # time the garbage collector's walks over them rather than the rules.
        match = new_match(game)
        match.start_deal(rng=rng)
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, random_bot(None, match.moves(seat), rng))
            actions += 1
        deals += 1
    elapsed = time.process_time() - start
    return deals / elapsed, actions / deals


def hearts_deals_per_second(seconds: float) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game, rng = pyspiel.load_game("hearts"), random.Random(1)
    deals, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        deals += 1
    return deals / (time.process_time() - start)


def rules_against_random(game: str, deals: int) -> tuple[float, float]:
    """Average deal score of the rules bot's side and of the random side, seats rotating.

    Black Maria: one rules bot against two random bots (penalties: lower is better; the
    random side's figure is per random player). Marjolet: one against one. Big Mariage: a rules
    partnership against a random one.
    """
    rules_bot, rng = bot_for(game, "rules"), random.Random(2)
    spec = GAMES[game]
    ours = theirs = 0.0
    for n in range(deals):
        smart = n % spec.seats
        side = (lambda s: s % 2 == smart % 2) if spec.teams else (lambda s: s == smart)
        match = new_match(game)  # fresh: a view lists every finished deal of its match
        match.start_deal(rng=rng)
        deal = match.current
        while match.current is not None:
            seat = match.to_act()[0]
            bot = rules_bot if side(seat) else random_bot
            match.apply(seat, bot(match.view(seat), match.moves(seat), rng))
        scores = deal.scores()
        if spec.teams:
            ours += scores[smart % 2]
            theirs += scores[1 - smart % 2]
        else:
            ours += scores[smart]
            theirs += (sum(scores) - scores[smart]) / (spec.seats - 1)
    return ours / deals, theirs / deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--deals", type=int, default=1000)
    args = parser.parse_args()
    print("random self-play, one core (CPU time):")
    for game in GAMES:
        rate, per_deal = random_deals_per_second(game, args.seconds)
        print(f"  {game:12} {rate:8.0f} deals/s  ({per_deal:.1f} actions per deal)")
    hearts = hearts_deals_per_second(args.seconds)
    if hearts is None:
        print("  (OpenSpiel not installed: no Hearts baseline)")
    else:
        print(f"  {'openspiel hearts':12} {hearts:8.0f} deals/s  (baseline)")
    print(f"rules bot against random bots, {args.deals} deals each, average deal score:")
    for game in GAMES:
        ours, theirs = rules_against_random(game, args.deals)
        better = "lower" if game == "black_maria" else "higher"
        print(f"  {game:12} rules {ours:7.1f}   random {theirs:7.1f}   ({better} is better)")


if __name__ == "__main__":
    main()
