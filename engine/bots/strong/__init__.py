"""The strong bot: it searches from what its seat knows, for every decision of the three games.

Search is determinized Monte Carlo (``search.py``): deals consistent with the seat's view
(``inference.py``, and each game's model) are played out to the end with every candidate
action, the rules bot playing every seat after it, or an exact solver where the game has one
(Marjolet's end phase). ``bot_for(game, "strong", seconds=1.0)`` or ``simulations=N`` give the
bot; :func:`think` is the same for a process pool (its arguments and answer pickle).
"""

from __future__ import annotations

import random
import time
from typing import Callable

from ...actions import Action
from .big_mariage import BigMariageModel
from .black_maria import BlackMariaModel
from .marjolet import MarjoletModel
from .model import Model
from .search import Budget, choose

MODELS: dict[str, Model] = {model.game: model for model in
                            (MarjoletModel(), BlackMariaModel(), BigMariageModel())}

#: The think time when neither time nor simulations are named.
DEFAULT_SECONDS = 1.0


def strong_bot(view: dict, moves: dict, rng: random.Random, *, seconds: float | None = None,
               simulations: int | None = None,
               clock: Callable[[], float] = time.perf_counter) -> Action:
    """The strong bot (``bot(view, moves, rng)`` once its budget is bound, as ``bot_for``
    does): ``seconds`` of search on ``clock`` (anytime: its best when time is up), or
    ``simulations`` play-outs, deterministic given ``rng`` and the view."""
    if seconds is None and simulations is None:
        seconds = DEFAULT_SECONDS
    return choose(MODELS[view["game"]], view, moves, rng, Budget(simulations, seconds, clock))


def think(game: str, view: dict, moves: dict, seed: int, seconds: float | None = None,
          simulations: int | None = None, until: float | None = None) -> dict:
    """The strong bot's action for ``view``'s seat, as a plain dict: a module-level function
    whose arguments and answer pickle, for a process pool. ``seed`` seeds its random numbers
    (with ``simulations``, the same seed and view give the same action); ``seconds`` is wall
    time from the call; ``until``, a moment of ``time.monotonic`` (one clock for every process
    of the machine), the time to answer by however long the call waited in the pool's queue
    (the rules bot's choice when it is already past)."""
    if view.get("game") != game:
        raise ValueError(f"a view of {view.get('game')!r}, not of {game!r}")
    if until is not None:
        if simulations is not None:
            raise ValueError("search by simulations or until a moment, not both")
        left = max(0.0, until - time.monotonic())
        seconds = left if seconds is None else min(seconds, left)
        return dict(strong_bot(view, moves, random.Random(seed), seconds=seconds,
                               clock=time.monotonic))
    return dict(strong_bot(view, moves, random.Random(seed), seconds=seconds,
                           simulations=simulations))
