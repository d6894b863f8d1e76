"""Bots: they choose an action from their own seat's view and moves, and nothing else.

A bot is a callable ``bot(view, moves, rng) -> action``: ``view`` is ``Match.view(seat)``,
``moves`` is ``Match.moves(seat)`` (also ``view["moves"]``), ``rng`` a ``random.Random``.
"""

from __future__ import annotations

from functools import partial

from .random_bot import random_bot


def bot_for(game: str, kind: str, *, seconds: float | None = None,
            simulations: int | None = None):
    """The bot of ``kind`` ("random", "rules" or "strong") for ``game``. The strong bot
    searches for ``seconds`` (1 by default) or ``simulations`` play-outs (then deterministic
    given ``rng``); it returns a picklable ``functools.partial``."""
    if kind == "random":
        return random_bot
    if kind == "rules":
        from .heuristic import HEURISTIC_BOTS

        return HEURISTIC_BOTS[game]
    if kind == "strong":
        from .strong import MODELS, strong_bot

        if game not in MODELS:
            raise ValueError(f"unknown game {game!r}")
        return partial(strong_bot, seconds=seconds, simulations=simulations)
    raise ValueError(f"unknown bot kind {kind!r}")


#: The kinds a server may call inline, on its event loop. The strong bot is not one of them:
#: it thinks for its budget, so it belongs in a process pool (``engine.bots.strong.think``).
BOT_KINDS = ("random", "rules")
