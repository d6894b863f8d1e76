"""The rules-aware Black Maria bot: sheds the dangerous spades, ducks, avoids hearts."""

from __future__ import annotations

import random

from ..black_maria import PENALTY, BlackMariaDeal

STRENGTH = BlackMariaDeal.pack.strength
DANGER = ("QS", "KS", "AS")


def _danger(card: str) -> tuple:
    """How much a card hurts to keep: spade honours first, then high hearts, then high cards."""
    return (card in DANGER, PENALTY.get(card, 0), card[1] == "H", STRENGTH[card])


def choose_pass(hand: list[str]) -> list[str]:
    low_spades = sum(1 for c in hand if c[1] == "S" and c not in DANGER)
    keep_queen_guarded = "QS" in hand and low_spades >= 4
    ranked = sorted(hand, key=_danger, reverse=True)
    if keep_queen_guarded:  # with four small guards the queen is safer kept than given away
        ranked.remove("QS")
    return ranked[:3]


def choose_play(hand: list[str], trick: list, legal: list[str]) -> str:
    if not trick:  # lead the lowest card of a suit without danger, hearts last
        safe = [c for c in legal if c[1] != "H" and c not in DANGER] or legal
        return min(safe, key=lambda c: STRENGTH[c])
    led = trick[0][1][1]
    if legal[0][1] != led:  # void: throw away the worst card
        return max(legal, key=_danger)
    best = max((c for _, c in trick if c[1] == led), key=STRENGTH.get)
    under = [c for c in legal if STRENGTH[c] < STRENGTH[best]]
    if under:  # duck as high as possible
        return max(under, key=lambda c: STRENGTH[c])
    points = sum(PENALTY.get(c, 0) for _, c in trick)
    if len(trick) == 2 and points == 0:  # we take it anyway: take it with the most dangerous
        return max(legal, key=_danger)
    return min(legal, key=lambda c: (c in DANGER, STRENGTH[c]))


def black_maria_bot(view: dict, moves: dict, rng: random.Random) -> dict:
    deal = view["deal"]
    hand = deal["hands"][view["seat"]]
    if "pass" in moves:
        return {"type": "pass", "cards": choose_pass(hand)}
    return {"type": "play", "card": choose_play(hand, deal["trick"], moves["play"])}
