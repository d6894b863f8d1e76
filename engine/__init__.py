"""cardroom's rules engine: pure, synchronous, deterministic given the pack.

    >>> from engine import new_match
    >>> match = new_match("black_maria", {"target": 100})
    >>> deal = match.start_deal(list(match.game.pack.cards), dealer=0)  # or a secure shuffle
    >>> match.to_act(), match.moves(1)["pass"]["choose"]  # who acts, what seat 1 may do
    ([1, 2, 0], 3)
    >>> match.apply(1, {"type": "pass", "cards": ["AS", "JS", "8S"]})  # its normal form
    {'type': 'pass', 'cards': ['AS', 'JS', '8S']}
    >>> match.apply(2, {"type": "play", "card": "KS"})  # a coded refusal changes nothing
    Traceback (most recent call last):
    engine.errors.IllegalAction: everyone must pass three cards first
    >>> match.view(2)["deal"]["pass"]  # what seat 2 may know, JSON-ready
    [None, None, None]
"""

from __future__ import annotations

from .core import EVERYONE, Deal, Game, Match, Viewer, expand_moves
from .errors import BadDeal, BadOptions, EngineError, IllegalAction, MalformedAction, NotYourTurn
from .games import GAMES


def new_match(game: str, options: dict | None = None) -> Match:
    """A new match of ``game`` (a key of :data:`GAMES`); BadOptions for unknown options."""
    if game not in GAMES:
        raise BadOptions("unknown_game", game=game)
    return Match(GAMES[game], options)


__all__ = [
    "EVERYONE", "GAMES", "BadDeal", "BadOptions", "Deal", "EngineError", "Game", "IllegalAction",
    "MalformedAction", "Match", "NotYourTurn", "Viewer", "expand_moves", "new_match",
]
