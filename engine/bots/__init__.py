"""Bots: they choose an action from their own seat's view and moves, and nothing else.

A bot is a callable ``bot(view, moves, rng) -> action``: ``view`` is ``Match.view(seat)``,
``moves`` is ``Match.moves(seat)`` (also ``view["moves"]``), ``rng`` a ``random.Random``.
"""

from __future__ import annotations

from .random_bot import random_bot


def bot_for(game: str, kind: str):
    """The bot of ``kind`` ("random" or "rules") for ``game``."""
    if kind == "random":
        return random_bot
    if kind == "rules":
        from .heuristic import HEURISTIC_BOTS

        return HEURISTIC_BOTS[game]
    raise ValueError(f"unknown bot kind {kind!r}")


BOT_KINDS = ("random", "rules")
