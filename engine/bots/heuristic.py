"""The rules-aware bot of each game."""

from __future__ import annotations

from .big_mariage import big_mariage_bot
from .black_maria import black_maria_bot
from .marjolet import marjolet_bot

HEURISTIC_BOTS = {
    "marjolet": marjolet_bot,
    "black_maria": black_maria_bot,
    "big_mariage": big_mariage_bot,
}
