"""cardroom's rules engine: pure, synchronous, deterministic given the pack.

    >>> from engine import new_match
    >>> match = new_match("black_maria")
    >>> deal = match.start_deal()            # a fresh, secure shuffle
    >>> match.moves(match.to_act()[0])       # what that seat may do
    >>> match.apply(seat, {"type": "pass", "cards": [...]})
    >>> match.view(seat)                     # what that seat may know, JSON-ready
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
