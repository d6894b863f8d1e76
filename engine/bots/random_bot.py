"""The random bot: every legal action equally likely, without listing them all.

It returns :class:`~engine.actions.Action` objects, which ``apply`` takes without parsing them.
"""

from __future__ import annotations

import random
from math import floor

from ..actions import PLAY, Action


def _count(kind: str, spec) -> int:
    if isinstance(spec, list):
        return len(spec)
    if kind == "give":
        return len(spec["cards"]) * len(spec["to"])
    return 1  # an action without fields, or one representative of a "choose" (drawn below)


def random_bot(view: dict, moves: dict, rng: random.Random) -> Action:
    if len(moves) == 1:  # one kind of action (always so while playing cards): nothing to weigh
        cards = moves.get("play")
        if cards is not None:  # the common case, kept fast for self-play
            return PLAY[cards[floor(rng.random() * len(cards))]]
        [(kind, spec)] = moves.items()
        if not spec:  # an action without fields (Marjolet's draw): the only choice
            return Action(type=kind)
        return _action(kind, spec, floor(rng.random() * _count(kind, spec)), rng.random)
    draw = rng.random
    sizes = list(map(_count, moves, moves.values()))
    pick = floor(draw() * sum(sizes))
    for (kind, spec), size in zip(moves.items(), sizes, strict=True):
        if pick < size:
            return _action(kind, spec, pick, draw)
        pick -= size
    raise ValueError("no legal move")


def _action(kind: str, spec, pick: int, draw) -> Action:
    """The ``pick``-th action of one kind of ``moves`` (``draw``: uniform in [0, 1))."""
    if kind == "play":
        return PLAY[spec[pick]]
    if kind == "trump":
        return Action(type="play", card=spec[pick], trump=True)
    if kind == "declare":
        return Action(type="declare", cards=list(spec[pick]))
    if kind in ("bid", "contract"):
        return Action(type=kind, value=spec[pick])
    if kind == "give":
        card, to = divmod(pick, len(spec["to"]))
        return Action(type="give", card=spec["cards"][card], to=spec["to"][to])
    if "choose" in spec:  # draw the cards one by one, each uniformly among those left
        pool = list(spec["from"])
        sizes = range(len(pool), len(pool) - spec["choose"], -1)  # the pool as it shrinks
        return Action(type=kind, cards=[pool.pop(floor(draw() * n)) for n in sizes])
    return Action(type=kind)
