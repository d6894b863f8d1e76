"""Marjolet as search sees it, with an exact solver of the end phase.

What a seat knows: its hand; every card played; the turn-up while it lies on the table; the
cards its opponent has declared, until played; the card turned up at the deal, in the hand of
an opponent who exchanged the dix for it, until played; the number of cards in the stock. The
rest of the cards are in the opponent's hand or in the stock, in any order. Once the stock is
drawn, every card is seen: the end phase is a game of perfect information.

Play-outs go as the rules bot plays through the stock phase; the end phase (six tricks, the
second player bound to follow, head and trump) is then played perfectly by :class:`EndSolver`,
an alpha-beta search with a transposition table over the two hands. It reads the rules from the
engine (which cards may follow, who wins, what a trick and its bonuses are worth) and only
chooses the cards: the engine plays them and keeps the score.
"""

from __future__ import annotations

import random

from ...actions import PLAY
from ...core import beats
from ...marjolet import (
    ALL_SIX_BONUS,
    CARD_POINTS,
    LAST_TRICK_BONUS,
    PACK,
    STOCK_TRICKS,
    STRENGTH,
    MarjoletDeal,
    end_phase_follow,
)
from .inference import Knowledge
from .model import Model

INFINITY = 10 ** 6


class MarjoletModel(Model):
    game = "marjolet"

    def knowledge(self, view: dict) -> Knowledge:
        deal, me = view["deal"], view["seat"]
        other = 1 - me
        played = set(deal["played"])
        known = set(deal["declared"][other])
        if deal["exchanged_by"] == other:
            known.add(deal["turned_up"])
        known -= played
        seen = played.union(deal["hands"][me], known)
        if deal["turn_up"] is not None:
            seen.add(deal["turn_up"])
        sizes = {other: deal["hand_sizes"][other], "stock": deal["stock_count"]}
        places = (other, "stock") if deal["stock_count"] else (other,)
        unseen = {card: places for card in PACK.cards if card not in seen}
        return Knowledge({other: sorted(known), "stock": []}, sizes, unseen)

    def determinize(self, view: dict, placement: dict, rng: random.Random) -> MarjoletDeal:
        deal, me = view["deal"], view["seat"]
        hands = [placement.get(0), placement.get(1)]
        hands[me] = deal["hands"][me]
        return MarjoletDeal.from_view(view["options"], deal, hands, placement["stock"])

    def play_out(self, deal: MarjoletDeal, options: dict, rng: random.Random) -> None:
        policy = self.policy
        while deal.phase != "end" and not deal.over:
            seat = deal.turn
            moves = deal.moves(seat)
            view = {"game": self.game, "seat": seat, "options": options, "moves": moves,
                    "deal": deal.view(seat)}
            deal.apply(seat, policy(view, moves, rng))
        solver = EndSolver(deal.trump)
        while not deal.over:
            deal.apply(deal.turn, PLAY[solver.best_card(deal)])

    def outcome(self, scores: list[int], seat: int) -> float:
        return scores[seat] - scores[1 - seat]


class EndSolver:
    """Perfect play of Marjolet's end phase, for one trump suit.

    A position between tricks is ``(leader's hand, follower's hand, leader clean, follower
    clean)``, hands as frozensets, *clean* meaning it has won every end-phase trick so far (and
    may still win all six). Its value is what the leader will score from there on minus what
    the follower will: card points, the last trick and the all-six bonus. The transposition
    table keeps bounds of values; one solver serves every move of a deal's end phase.
    """

    def __init__(self, trump: str):
        self.trump = trump
        self.table: dict[tuple, tuple[int, int, str | None]] = {}
        #: The moves worth trying in a position: (lead, follow) or (follow, led, lead) -> cards.
        self.choices: dict[tuple, list[str]] = {}

    def best_card(self, deal: MarjoletDeal) -> str:
        """The card the seat to play in ``deal`` (in its end phase) plays best."""
        seat = deal.turn
        finished = deal.tricks_played - STOCK_TRICKS  # end-phase tricks
        clean = [deal.end_tricks[s] == finished for s in (0, 1)]
        if not deal.trick:
            lead, follow = frozenset(deal.hands[seat]), frozenset(deal.hands[1 - seat])
            best, best_card = -INFINITY, None
            for a in self._leads(lead, follow):  # a lead must beat the best so far to count
                value = self._answer(a, lead - {a}, follow, clean[seat], clean[1 - seat],
                                     best, INFINITY)
                if value > best:
                    best, best_card = value, a
            return best_card
        led = deal.trick[0]
        leader = 1 - seat
        lead, follow = frozenset(deal.hands[leader]), frozenset(deal.hands[seat])
        worst, worst_card = INFINITY, None
        for b in self._answers(follow, led, lead):  # the leader's value: the lower the better
            value = self._edge(led, b, lead, follow - {b}, clean[leader], clean[seat],
                               -INFINITY, worst)
            if value < worst:
                worst, worst_card = value, b
        return worst_card

    def value(self, lead: frozenset, follow: frozenset, lead_clean: bool, follow_clean: bool,
              alpha: int, beta: int) -> int:
        """The position's value for its leader, exact when inside ``(alpha, beta)``, else a
        bound on the side it falls (fail-soft alpha-beta)."""
        if not lead:
            return 0
        key = (lead, follow, lead_clean, follow_clean)
        low, high, first = self.table.get(key, (-INFINITY, INFINITY, None))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        best, best_card = -INFINITY, None
        order = self._leads(lead, follow)
        if first is not None:  # the best lead found before, first: it cuts soonest
            order = [first, *(a for a in order if a != first)]
        for a in order:
            worst = self._answer(a, lead - {a}, follow, lead_clean, follow_clean,
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

    def _answer(self, a: str, lead: frozenset, follow: frozenset, lead_clean: bool,
                follow_clean: bool, alpha: int, beta: int) -> int:
        """The leader's value once it has led ``a``: the follower's best answer."""
        worst = INFINITY
        for b in self._answers(follow, a, lead):
            value = self._edge(a, b, lead, follow - {b}, lead_clean, follow_clean, alpha,
                               min(beta, worst))
            if value < worst:
                worst = value
                if worst <= alpha:
                    break
        return worst

    def _edge(self, a: str, b: str, lead: frozenset, follow: frozenset, lead_clean: bool,
              follow_clean: bool, alpha: int, beta: int) -> int:
        """The leader's value of the trick ``a`` then ``b`` and of the rest, ``lead`` and
        ``follow`` being the hands left."""
        points = CARD_POINTS[a] + CARD_POINTS[b]
        last = not lead
        if last:
            points += LAST_TRICK_BONUS
        if beats(b, a, self.trump, STRENGTH):  # the follower takes it and leads
            if last and follow_clean:
                points += ALL_SIX_BONUS
            return -points - self.value(follow, lead, follow_clean, False,
                                        -points - beta, -points - alpha)
        if last and lead_clean:
            points += ALL_SIX_BONUS
        return points + self.value(lead, follow, lead_clean, False, alpha - points,
                                   beta - points)

    def _leads(self, lead: frozenset, follow: frozenset) -> list[str]:
        """The leads worth trying, high cards first."""
        key = (lead, follow)
        cards = self.choices.get(key)
        if cards is None:
            cards = self.choices[key] = distinct(sorted(lead, key=STRENGTH.get, reverse=True),
                                                 follow)
        return cards

    def _answers(self, hand: frozenset, led: str, leader: frozenset) -> list[str]:
        """The answers to ``led`` worth trying: those the engine allows, low cards first."""
        key = (hand, led, leader)
        cards = self.choices.get(key)
        if cards is None:
            held = sorted(hand, key=STRENGTH.get, reverse=True)
            allowed = end_phase_follow(held, led, self.trump) or held
            cards = self.choices[key] = distinct(allowed, leader)[::-1]
        return cards


def distinct(cards: list[str], others: frozenset) -> list[str]:
    """``cards`` (high to low) but one of each run of cards alike: of one suit, worth the same
    points, with no card of ``others`` (the other hand) ranked between them. They take and lose
    the same tricks (every card left is in one of the two hands), so one stands for all."""
    kept, above = [], None
    for card in cards:
        if not (above and above[1] == card[1] and CARD_POINTS[above] == CARD_POINTS[card]
                and not any(o[1] == card[1] and STRENGTH[card] < STRENGTH[o] < STRENGTH[above]
                            for o in others)):
            kept.append(card)
        above = card
    return kept
