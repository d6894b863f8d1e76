"""Determinized Monte Carlo search: the strong bot's way of choosing an action.

For one decision, search samples deals consistent with what the seat knows (determinizations),
and in each plays every candidate action out to the end of the deal, every seat then playing as
the rules bot does (or as an exact solver of the last tricks, where the model has one). All
candidates are played out in the same determinizations with the same random numbers, so that
their comparison is not blurred by the luck of the sample. The budget is shared out by
*sequential halving*: in each round every remaining candidate gets as many play-outs, and the
worse half is dropped, so that most play-outs go to telling the good candidates apart.

The best average wins if it beats the rules bot's choice (the *prior*, always a candidate)
clearly: over the determinizations both were played out in, by more than ``CONFIDENCE``
standard errors of their paired differences. Otherwise the prior stands: with the few play-outs
a tenth of a second allows, the best of many noisy averages is often only the luckiest, and a
game's outcomes (a contract made or failed, a marriage in a hidden hand) are far apart. The
prior also answers when no play-out finished in time.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from dataclasses import dataclass
from typing import Callable

from ...actions import Action
from ...core import Deal
from .model import CONFIDENCE, Model


@dataclass(frozen=True)
class Budget:
    """How much to search: ``simulations`` play-outs in all (deterministic given the random
    numbers), or ``seconds`` on ``clock`` (anytime: the best so far when time is up)."""

    simulations: int | None = None
    seconds: float | None = None
    clock: Callable[[], float] = time.perf_counter

    def __post_init__(self):
        if (self.simulations is None) == (self.seconds is None):
            raise ValueError("search by simulations or by seconds, not both")


class _OutOfTime(Exception):
    pass


def choose(model: Model, view: dict, moves: dict, rng: random.Random, budget: Budget) -> Action:
    """The action search finds best for ``view``'s seat, among ``moves``."""
    deadline = None if budget.seconds is None \
        else budget.clock() + budget.seconds * model.time_share(view, moves)
    prior = model.parse(model.policy(view, moves, random.Random(0)))
    plans = model.plans(view, moves, prior)
    candidates = [action for action, _ in plans]
    if len(candidates) == 1:
        return candidates[0]
    knowledge = model.knowledge(view)
    worlds = model.worlds(view, knowledge, rng)
    rounds, simulations = math.ceil(math.log2(len(candidates))), budget.simulations
    if knowledge.certain:  # nothing hidden: one determinization tells all
        rounds, simulations = 1, len(candidates)
    totals = [0.0] * len(candidates)
    #: each candidate's utility in each determinization it was played out in, by number
    outcomes: list[dict[int, float]] = [{} for _ in candidates]
    alive = list(range(len(candidates)))
    seat, options = view["seat"], view["options"]
    played = 0  # determinizations every alive candidate was played out in
    memory: dict = {}  # what the play-outs of this decision share
    rescore = model.rescorer(view, moves)
    if rescore is not None:  # one play-out tells every candidate's outcome
        rounds = 0
        try:
            while played < (simulations or math.inf):
                deal = played_out(model, next(worlds), seat, prior, options,
                                  rng.getrandbits(32), memory, budget.clock, deadline)
                for i, candidate in enumerate(candidates):
                    result = model.utility(rescore(deal, candidate, seat))
                    outcomes[i][played] = result
                    totals[i] += result
                played += 1
        except _OutOfTime:
            pass
    try:
        for done in range(rounds):
            if simulations is not None:
                count = max(1, simulations // rounds // len(alive))
                round_over = lambda n, count=count: n >= count  # noqa: E731
            else:
                end = budget.clock() + (deadline - budget.clock()) / (rounds - done)
                round_over = lambda n, end=end: n and budget.clock() >= end  # noqa: E731
            n = 0
            while not round_over(n):
                world, seed = next(worlds), rng.getrandbits(32)
                results = [play_out(model, world, seat, candidates[i], options, seed, memory,
                                    budget.clock, deadline, plans[i][1]) for i in alive]
                for i, outcome in zip(alive, results):
                    result = model.utility(outcome)
                    outcomes[i][played + n] = result
                    totals[i] += result
                n += 1
            played += n
            if done < rounds - 1:
                alive.sort(key=lambda i: -totals[i])  # stable: on a tie, the earlier first
                alive = sorted(alive[:math.ceil(len(alive) / 2)])
    except _OutOfTime:
        pass  # the determinization in progress is dropped: its play-outs are not all there
    if not played:
        return candidates[0]
    best = max(alive, key=lambda i: (totals[i], -i))
    if best and plans[0] == (prior, None) and not knowledge.certain \
            and not clearly_better(outcomes[best], outcomes[0],
                                   model.confidence(view, moves)):
        return prior
    return candidates[best]


def clearly_better(these: dict[int, float], those: dict[int, float],
                   confidence: float = CONFIDENCE) -> bool:
    """Whether outcomes ``these`` beat ``those`` by more than ``confidence`` standard errors,
    over the determinizations both were played out in (paired: the same cards, the same random
    numbers)."""
    differences = [these[w] - those[w] for w in these.keys() & those.keys()]
    if len(differences) < 2:
        return False
    mean = statistics.fmean(differences)
    error = statistics.stdev(differences) / math.sqrt(len(differences))
    return mean > confidence * error if error else mean > 0


def play_out(model: Model, world: Deal, seat: int, action: Action, options: dict, seed: int,
             memory: dict, clock, deadline: float | None, plan=None) -> float:
    """The outcome for ``seat`` of ``action`` in ``world``, the deal then played out (the
    seat's later decisions as ``plan`` says, if the model made one)."""
    if deadline is not None and clock() >= deadline:
        raise _OutOfTime
    deal = world.copy()
    deal.apply(seat, action)
    scores = model.play_out(deal, options, random.Random(seed), memory, plan)
    return model.outcome(deal.scores() if scores is None else scores, seat)


def played_out(model: Model, world: Deal, seat: int, action: Action, options: dict, seed: int,
               memory: dict, clock, deadline: float | None) -> Deal:
    """``world`` after ``action``, played out to its end (for a model's rescorer)."""
    if deadline is not None and clock() >= deadline:
        raise _OutOfTime
    deal = world.copy()
    deal.apply(seat, action)
    model.play_out(deal, options, random.Random(seed), memory)
    return deal
