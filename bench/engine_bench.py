"""Engine benchmark: random self-play deals per second, and the rules bots against random ones.

    .venv/bin/python bench/engine_bench.py [--seconds 5] [--deals 1000]

Deals per second are CPU time of this one process (one core), dealing included, every action
chosen by the random bot from ``Match.moves`` and applied through ``Match.apply``; each figure is
the median of short runs taken in turn with the others. When OpenSpiel
is installed (``pip install open_spiel``; not a dependency) it also times random Hearts deals
through OpenSpiel's Python API, two ways (see :func:`hearts_player`): with chance outcomes
sampled by their probabilities, as OpenSpiel's examples play and the bar the issue names, and
with the uniform shortcut.
"""

from __future__ import annotations

import argparse
import itertools
import pathlib
import random
import statistics
import sys
import time
from functools import partial

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from engine import GAMES, new_match  # noqa: E402
from engine.bots import bot_for  # noqa: E402
from engine.bots.random_bot import random_bot  # noqa: E402


def random_deals(game: str, rng: random.Random):
    """Random self-play deals of ``game``, without end; yields each deal's number of actions."""
    while True:
        # A fresh match each time: one endless match would keep every finished deal alive and
        # time the garbage collector's walks over them rather than the rules.
        match = new_match(game)
        match.start_deal(rng=rng)
        actions = 0
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, random_bot(None, match.moves(seat), rng))
            actions += 1
        yield actions


def random_deals_per_second(game: str, seconds: float) -> float:
    return deals_per_second(random_deals(game, random.Random(1)).__next__, seconds)


def actions_per_deal(game: str, deals: int = 2000) -> float:
    return sum(itertools.islice(random_deals(game, random.Random(1)), deals)) / deals


def hearts_player(chance: str):
    """One random deal of OpenSpiel's Hearts, or None without OpenSpiel.

    ``chance="sampled"`` plays as OpenSpiel's examples do: a chance node's outcome drawn by its
    probabilities from ``chance_outcomes()``, a player's action uniformly among
    ``legal_actions(player)``. That is the bar the issue names ("about 3,400 deals/s").
    ``chance="uniform"`` is a shortcut that holds for Hearts only, whose chance outcomes are
    equally likely: every action, chance or not, uniformly among ``legal_actions()``.
    """
    try:
        import pyspiel
    except ImportError:
        return None
    game, rng = pyspiel.load_game("hearts"), random.Random(1)

    def sampled() -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions(state.current_player())))

    def uniform() -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))

    return {"sampled": sampled, "uniform": uniform}[chance]


def deals_per_second(play_deal, seconds: float) -> float:
    deals, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        play_deal()
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
        side = ((lambda s, smart=smart: s % 2 == smart % 2) if spec.teams
                else (lambda s, smart=smart: s == smart))
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


def interleaved_rates(timers: dict, seconds: float, rounds: int = 5) -> dict[str, float]:
    """Each timer's median rate over ``rounds`` short runs taken in turn, so that a slow spell
    of a shared machine weighs on every figure alike instead of on whichever ran then."""
    rates: dict[str, list[float]] = {name: [] for name in timers}
    for _ in range(rounds):
        for name, timer in timers.items():
            rates[name].append(timer(seconds / rounds))
    return {name: statistics.median(values) for name, values in rates.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--deals", type=int, default=1000)
    args = parser.parse_args()
    print("random self-play, one core (CPU time, median of 5 interleaved runs):")
    timers = {game: partial(random_deals_per_second, game) for game in GAMES}
    hearts = {f"hearts, chance {how}": hearts_player(how) for how in ("sampled", "uniform")}
    if None not in hearts.values():
        timers |= {name: partial(deals_per_second, play) for name, play in hearts.items()}
    rates = interleaved_rates(timers, args.seconds)
    for game in GAMES:
        per_deal = actions_per_deal(game)
        print(f"  {game:12} {rates[game]:8.0f} deals/s  ({per_deal:.1f} actions per deal)")
    if None in hearts.values():
        print("  (OpenSpiel not installed: no Hearts baseline)")
    for name in hearts:
        if name in rates:
            print(f"  openspiel {name:22} {rates[name]:8.0f} deals/s")
    print(f"rules bot against random bots, {args.deals} deals each, average deal score:")
    for game in GAMES:
        ours, theirs = rules_against_random(game, args.deals)
        better = "lower" if game == "black_maria" else "higher"
        print(f"  {game:12} rules {ours:7.1f}   random {theirs:7.1f}   ({better} is better)")


if __name__ == "__main__":
    main()
