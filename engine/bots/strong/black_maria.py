"""Black Maria as search sees it.

What a seat knows: its hand; every card played and by whom; that a seat which did not follow a
suit holds none of it (for the rest of the deal: no card comes back); and once the cards have
changed hands, that the three it passed to its right are there until played. While the passing
lasts the other hands are unknown, and a seat that has already passed chose as the rules bot
would (the model of the others).

Candidates for the pass (680 sets of three): the rules bot's, every three of the five cards it
would most like to get rid of, and for each short suit, the pass that empties it.
"""

from __future__ import annotations

import itertools
import random

from ...black_maria import PACK, PASS_SIZE, BlackMariaDeal
from ...cards import SUITS, of_suit
from ..black_maria import _danger, choose_pass
from .inference import Knowledge, tricks_seen
from .model import Model

#: The pass candidates take every three of this many of the most dangerous cards.
PASS_SHORTLIST = 5


class BlackMariaModel(Model):
    game = "black_maria"

    def knowledge(self, view: dict) -> Knowledge:
        deal, me = view["deal"], view["seat"]
        others = [(me + 1) % 3, (me + 2) % 3]
        tricks = tricks_seen(deal, 3)
        played = {card for trick in tricks for _, card in trick}
        known: dict = {seat: [] for seat in others}
        if deal["phase"] != "pass":  # what this seat passed went to its right
            known[(me - 1) % 3] = [c for c in deal["pass"][me] if c not in played]
        voids = {seat: set() for seat in range(3)}
        for trick in tricks:
            led = trick[0][1][1]
            for seat, card in trick[1:]:
                if card[1] != led:
                    voids[seat].add(led)
        seen = played.union(deal["hands"][me], *known.values())
        unseen = {card: tuple(s for s in others if card[1] not in voids[s])
                  for card in PACK.cards if card not in seen}
        return Knowledge(known, {s: deal["hand_sizes"][s] for s in others}, unseen)

    def determinize(self, view: dict, placement: dict, rng: random.Random) -> BlackMariaDeal:
        deal, me = view["deal"], view["seat"]
        hands = [placement.get(seat) for seat in range(3)]
        hands[me] = deal["hands"][me]
        passes = None
        if deal["phase"] == "pass":
            passes = [choose_pass(hands[s]) if done and s != me else None
                      for s, done in enumerate(deal["passed"])]
        return BlackMariaDeal.from_view(view["options"], deal, hands, passes)

    def candidates(self, view: dict, moves: dict, prior) -> list:
        if "pass" not in moves:
            return super().candidates(view, moves, prior)
        hand = sorted(moves["pass"]["from"], key=_danger, reverse=True)
        passes = [prior["cards"]]  # the rules bot's first
        passes += itertools.combinations(hand[:PASS_SHORTLIST], PASS_SIZE)
        for suit in SUITS:
            cards = of_suit(hand, suit)
            if 0 < len(cards) <= PASS_SIZE:
                passes.append(cards + [c for c in hand if c[1] != suit][:PASS_SIZE - len(cards)])
        unique: dict = {}
        for cards in passes:
            unique.setdefault(frozenset(cards), PACK.sorted(cards))
        return [self.parse({"type": "pass", "cards": cards}) for cards in unique.values()]

    def outcome(self, scores: list[int], seat: int) -> float:
        return -scores[seat]

