"""The registry of games, by the name records and the wire use."""

from __future__ import annotations

from .big_mariage import BigMariage
from .black_maria import BlackMaria
from .core import Game
from .marjolet import Marjolet

GAMES: dict[str, Game] = {game.name: game for game in (Marjolet(), BlackMaria(), BigMariage())}
