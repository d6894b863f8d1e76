"""Perfect play of Marjolet's end phase: six tricks, every card seen, the second player bound
to follow, head and trump.

An alpha-beta search with a transposition table over the two hands, held as bit masks (bit
``i`` for the ``i``-th card of the pack) so that a position is one integer. It reads the rules
from the engine: which cards may follow a lead (``end_phase_follow``, on bit masks), which card
beats which (``beats``), what cards, the last trick, all six tricks and the dix are worth. It
chooses cards (the engine plays them and keeps the score) or works out the scores perfect play
reaches (search's play-outs).
"""

from __future__ import annotations

from ...core import beats
from ...marjolet import (
    ALL_SIX_BONUS,
    CARD_POINTS,
    DIX_POINTS,
    LAST_TRICK_BONUS,
    PACK,
    STOCK_TRICKS,
    STRENGTH,
    MarjoletDeal,
)

INFINITY = 10 ** 6
CARDS = PACK.cards
INDEX = {card: i for i, card in enumerate(CARDS)}
BIT = {card: 1 << i for i, card in enumerate(CARDS)}
POINTS = [CARD_POINTS[card] for card in CARDS]
SUIT = [card[1] for card in CARDS]
RANK = [STRENGTH[card] for card in CARDS]


def _between(i: int, j: int) -> int:
    """The cards of the suit of cards ``i`` and ``j`` ranked strictly between them."""
    low, high = sorted((RANK[i], RANK[j]))
    return sum(BIT[c] for c in CARDS if c[1] == SUIT[i] and low < STRENGTH[c] < high)


#: ``BETWEEN[i][j]``: see :func:`_between`.
BETWEEN = [[_between(i, j) for j in range(len(CARDS))] for i in range(len(CARDS))]
#: The cards of each suit, and ``ABOVE[i]``: the cards of card ``i``'s suit that outrank it.
SUIT_MASK = {suit: sum(BIT[c] for c in CARDS if c[1] == suit) for suit in "SHDC"}
ABOVE = [sum(BIT[c] for c in CARDS if c[1] == SUIT[i] and STRENGTH[c] > RANK[i])
         for i in range(len(CARDS))]
#: Per trump suit, ``TAKES[a]``: the cards that beat card ``a`` when it leads.
TAKES = {trump: [sum(BIT[b] for b in CARDS if beats(b, a, trump, STRENGTH)) for a in CARDS]
         for trump in "SHDC"}


class EndSolver:
    """Perfect play of the end phase for one trump suit; one solver serves every move of as
    many end phases as its caller likes (the positions it has worked out stay in its table).

    A position between tricks is the leader's hand, the follower's, and whether each is
    *clean* (has won every end-phase trick so far, so may still win all six). Its value is
    what the leader will score from there on minus what the follower will: card points, the
    last trick and the all-six bonus. The table keeps bounds of values (fail-soft alpha-beta).
    """

    def __init__(self, trump: str):
        self.trump = trump
        self.takes = TAKES[trump]
        self.trumps = SUIT_MASK[trump]
        self.table: dict[int, tuple[int, int, int]] = {}
        self.leads: dict[tuple[int, int], list[int]] = {}

    def best_card(self, deal: MarjoletDeal) -> str:
        """The card the seat to play in ``deal`` (in its end phase) plays best."""
        seat = deal.turn
        finished = deal.tricks_played - STOCK_TRICKS
        clean = [deal.end_tricks[s] == finished for s in (0, 1)]
        if not deal.trick:
            lead, follow = _mask(deal.hands[seat]), _mask(deal.hands[1 - seat])
            best, best_card = -INFINITY, None
            for a in self._leads(lead, follow):  # a lead must beat the best so far to count
                value = self._answer(a, lead & ~(1 << a), follow, clean[seat],
                                     clean[1 - seat], best, INFINITY)
                if value > best:
                    best, best_card = value, a
            return CARDS[best_card]
        led, leader = INDEX[deal.trick[0]], 1 - seat
        lead, follow = _mask(deal.hands[leader]), _mask(deal.hands[seat])
        worst, worst_card = INFINITY, None
        for b in self._answers(follow, led, lead):  # the leader's value: the lower the better
            value = self._trick(led, b, lead, follow & ~(1 << b), clean[leader], clean[seat],
                                -INFINITY, worst)
            if value < worst:
                worst, worst_card = value, b
        return CARDS[worst_card]

    def scores(self, deal: MarjoletDeal) -> list[int]:
        """The scores of ``deal`` (in its end phase, between tricks) once both play the rest
        perfectly, up to one number added to both: the difference is exact, the sum is not
        (the points of the tricks left are given to the leader as their difference). The dix
        not yet played scores for its holder whenever it is played."""
        seat = deal.turn
        finished = deal.tricks_played - STOCK_TRICKS
        clean = [deal.end_tricks[s] == finished for s in (0, 1)]
        scores = deal.scores()
        if deal.dix_live:
            for holder in (0, 1):
                if deal.dix in deal.hands[holder]:
                    scores[holder] += DIX_POINTS
        scores[seat] += self.value(_mask(deal.hands[seat]), _mask(deal.hands[1 - seat]),
                                   clean[seat], clean[1 - seat], -INFINITY, INFINITY)
        return scores

    def value(self, lead: int, follow: int, lead_clean: bool, follow_clean: bool,
              alpha: int, beta: int) -> int:
        """The position's value for its leader: exact inside ``(alpha, beta)``, else a bound
        on the side it falls."""
        if not lead:
            return 0
        key = (lead << 34) | (follow << 2) | (lead_clean << 1) | follow_clean
        low, high, first = self.table.get(key, (-INFINITY, INFINITY, -1))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        best, best_card = -INFINITY, -1
        order = self._leads(lead, follow)
        if first >= 0:  # the best lead found before, first: it cuts soonest
            order = [first, *(a for a in order if a != first)]
        for a in order:
            worst = self._answer(a, lead & ~(1 << a), follow, lead_clean, follow_clean,
                                 max(alpha, best), beta)
            if worst > best:
                best, best_card = worst, a
                if best >= beta:
                    break
        if best <= alpha:
            high = best
        elif best >= beta:
            low = best
        else:
            low = high = best
        self.table[key] = (low, high, best_card)
        return best

    def _answer(self, a: int, lead: int, follow: int, lead_clean: bool, follow_clean: bool,
                alpha: int, beta: int) -> int:
        """The leader's value once it has led card ``a``: the follower's best answer."""
        worst = INFINITY
        for b in self._answers(follow, a, lead):
            value = self._trick(a, b, lead, follow & ~(1 << b), lead_clean, follow_clean,
                                alpha, min(beta, worst))
            if value < worst:
                worst = value
                if worst <= alpha:
                    break
        return worst

    def _trick(self, a: int, b: int, lead: int, follow: int, lead_clean: bool,
               follow_clean: bool, alpha: int, beta: int) -> int:
        """The leader's value of the trick ``a`` then ``b`` and of the rest, ``lead`` and
        ``follow`` being the hands left."""
        points = POINTS[a] + POINTS[b]
        last = not lead
        if last:
            points += LAST_TRICK_BONUS
        if self.takes[a] >> b & 1:  # the follower takes it and leads
            if last and follow_clean:
                points += ALL_SIX_BONUS
            return -points - self.value(follow, lead, follow_clean, False,
                                        -points - beta, -points - alpha)
        if last and lead_clean:
            points += ALL_SIX_BONUS
        return points + self.value(lead, follow, lead_clean, False, alpha - points,
                                   beta - points)

    def _leads(self, lead: int, follow: int) -> list[int]:
        """The leads worth trying, high cards first."""
        key = (lead, follow)
        cards = self.leads.get(key)
        if cards is None:
            cards = _distinct(_indices(lead), follow)
            cards.sort(key=RANK.__getitem__, reverse=True)
            self.leads[key] = cards
        return cards

    def _answers(self, hand: int, led: int, leader: int) -> list[int]:
        """The answers to card ``led`` worth trying: those the engine allows, low first."""
        cards = _distinct(_indices(self.follow(hand, led)), leader)
        cards.sort(key=RANK.__getitem__)
        return cards

    def follow(self, hand: int, led: int) -> int:
        """The cards of ``hand`` that may answer card ``led``: ``end_phase_follow`` on bit
        masks (its higher cards of the suit led, else its cards of that suit, else its trumps,
        else any card; tests check that both agree)."""
        return hand & ABOVE[led] or hand & SUIT_MASK[SUIT[led]] or hand & self.trumps or hand


def _mask(cards) -> int:
    return sum(BIT[card] for card in cards)


def _indices(mask: int) -> list[int]:
    """The indices of the cards of ``mask``, in pack order."""
    indices = []
    while mask:
        low = mask & -mask
        indices.append(low.bit_length() - 1)
        mask ^= low
    return indices


def _distinct(cards: list[int], others: int) -> list[int]:
    """``cards`` (in pack order: suit by suit, high to low) but one of each run of cards alike:
    of one suit, worth the same points, with no card of ``others`` (the other hand) ranked
    between them. They take and lose the same tricks (every card left is in one of the two
    hands), so one stands for all."""
    kept, above = [], -1
    for card in cards:
        if above < 0 or SUIT[above] != SUIT[card] or POINTS[above] != POINTS[card] \
                or BETWEEN[above][card] & others:
            kept.append(card)
        above = card
    return kept
