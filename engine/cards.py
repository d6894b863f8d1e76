"""Cards and packs.

A card is its two-character code, rank then suit (``"TD"`` is the ten of diamonds), exactly as in
match records, on the wire and in logs. Codes are plain strings: cheap to compare, hash and send.
"""

from __future__ import annotations

SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
ALL_RANKS = "AKQJT98765432"


def suit_of(card: str) -> str:
    return card[1]


def rank_of(card: str) -> str:
    return card[0]


class Pack:
    """The cards of one game and their trick-taking order.

    ``ranks`` lists the ranks high to low; ``strength[card]`` is larger for a stronger card of
    the same suit (it says nothing across suits).
    """

    def __init__(self, ranks: str, *, without: tuple[str, ...] = ()):
        self.ranks = ranks
        self.cards: tuple[str, ...] = tuple(
            r + s for s in SUITS for r in ranks if r + s not in without
        )
        self.card_set = frozenset(self.cards)
        self.strength: dict[str, int] = {
            r + s: len(ranks) - i for s in SUITS for i, r in enumerate(ranks)
        }

    def __len__(self) -> int:
        return len(self.cards)

    def sort_key(self, card: str) -> tuple[int, int]:
        """Suit by suit (S H D C), high to low within a suit: the order of a sorted hand."""
        return SUITS.index(card[1]), -self.strength[card]

    def sorted(self, cards) -> list[str]:
        return sorted(cards, key=self.sort_key)

    def is_permutation(self, deck) -> bool:
        return len(deck) == len(self.cards) and set(deck) == self.card_set
