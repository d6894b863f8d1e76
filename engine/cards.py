"""Cards and packs.

A card is its two-character code, rank then suit (``"TD"`` is the ten of diamonds), exactly as in
match records, on the wire and in logs. Codes are plain strings: cheap to compare, hash and send.
"""

from __future__ import annotations

SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
ALL_RANKS = "AKQJT98765432"


#: Whether a card code is of each suit, whatever the pack (for C-speed filtering of hands).
_IS_OF_SUIT = {s: frozenset(r + s for r in ALL_RANKS).__contains__ for s in SUITS}


def of_suit(cards, suit: str) -> list[str]:
    """The cards of ``suit`` in ``cards``, in their order."""
    return list(filter(_IS_OF_SUIT[suit], cards))


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
        self._hand_order = {card: i for i, card in enumerate(self.cards)}

    def __len__(self) -> int:
        return len(self.cards)

    def sorted(self, cards) -> list[str]:
        """Suit by suit (S H D C), high to low within a suit: the order of a sorted hand."""
        return sorted(cards, key=self._hand_order.__getitem__)

    def is_permutation(self, deck) -> bool:
        """Whether ``deck`` holds every card of the pack exactly once (and nothing else)."""
        try:
            return len(deck) == len(self.cards) and set(deck) == self.card_set
        except TypeError:  # something unhashable in it
            return False
