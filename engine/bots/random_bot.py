"""The random bot: every legal action equally likely, without listing them all."""

from __future__ import annotations

import random
from math import floor


def _count(kind: str, spec) -> int:
    if isinstance(spec, list):
        return len(spec)
    if kind == "give":
        return len(spec["cards"]) * len(spec["to"])
    if "choose" in spec:
        return 1  # one representative: the choice of cards is drawn below
    return 1


def random_bot(view: dict, moves: dict, rng: random.Random) -> dict:
    cards = moves.get("play")
    if cards is not None and len(moves) == 1:  # the common case, kept fast for self-play
        return {"type": "play", "card": cards[floor(rng.random() * len(cards))]}
    sizes = list(map(_count, moves, moves.values()))
    pick = floor(rng.random() * sum(sizes))
    for (kind, spec), size in zip(moves.items(), sizes):
        if pick >= size:
            pick -= size
            continue
        if kind == "play":
            return {"type": "play", "card": spec[pick]}
        if kind == "trump":
            return {"type": "play", "card": spec[pick], "trump": True}
        if kind == "declare":
            return {"type": "declare", "cards": list(spec[pick])}
        if kind in ("bid", "contract"):
            return {"type": kind, "value": spec[pick]}
        if kind == "give":
            card, to = divmod(pick, len(spec["to"]))
            return {"type": "give", "card": spec["cards"][card], "to": spec["to"][to]}
        if "choose" in spec:  # draw the cards one by one, each uniformly among those left
            pool = list(spec["from"])
            cards = [pool.pop(floor(rng.random() * len(pool))) for _ in range(spec["choose"])]
            return {"type": kind, "cards": cards}
        return {"type": kind}
    raise ValueError("no legal move")
