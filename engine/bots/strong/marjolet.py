"""Marjolet as search sees it, with an exact solver of the end phase.

What a seat knows: its hand; every card played; the turn-up while it lies on the table; the
cards its opponent has declared, until played; the card turned up at the deal, in the hand of
an opponent who exchanged the dix for it, until played; the number of cards in the stock. The
rest of the cards are in the opponent's hand or in the stock, in any order. Once the stock is
drawn, every card is seen: the end phase is a game of perfect information.

Play-outs go as the rules bot plays through the stock phase; the end phase is then worked out
by ``marjolet_end.EndSolver`` (its value under perfect play, not played card by card), one
solver for all the play-outs of a decision.
"""

from __future__ import annotations

import random

from ...actions import PLAY
from ...marjolet import PACK, MarjoletDeal
from .inference import Knowledge
from .marjolet_end import EndSolver
from .model import Model

#: Positions a solver keeps before search starts afresh (memory: some 150 bytes each).
SOLVER_TABLE_LIMIT = 200_000


#: The share of its think time the strong bot takes over each decision of the trick winner's
#: window (:meth:`MarjoletModel.time_share`).
WINDOW_SHARE = 0.2


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

    def time_share(self, view: dict, moves: dict) -> float:
        # The trick winner's window (declare, exchange the dix, draw): the rules bot declares
        # and exchanges all it can, which search seldom beats, and a person does it at once;
        # with all its think time for each, the bot had taken 20 s over one window at 5 s.
        return WINDOW_SHARE if "draw" in moves else 1.0

    def determinize(self, view: dict, placement: dict, rng: random.Random) -> MarjoletDeal:
        deal, me = view["deal"], view["seat"]
        hands = [placement.get(0), placement.get(1)]
        hands[me] = deal["hands"][me]
        return MarjoletDeal.from_view(view["options"], deal, hands, placement["stock"])

    def play_out(self, deal: MarjoletDeal, options: dict, rng: random.Random,
                 memory: dict, plan=None) -> list[int] | None:
        policy = self.policy
        # Each seat draws the same cards whoever wins the tricks (the stock is in random order
        # either way): the candidates of a decision, which change who wins, are then compared
        # on the same cards drawn, not on luck.
        stock = deal.deck[deal.next_card:]
        pairs = len(stock) // 2
        draws, last = [stock[:pairs], stock[pairs:2 * pairs]], stock[2 * pairs:]
        while deal.phase != "end" and not deal.over:
            seat = deal.turn
            moves = deal.moves(seat)
            view = {"game": self.game, "seat": seat, "options": options, "moves": moves,
                    "deal": deal.view(seat)}
            action = policy(view, moves, rng)
            if action["type"] == "draw" and draws[seat]:
                first, second = draws[seat].pop(), draws[1 - seat].pop()
                deal.arrange_stock([first, second, *draws[0], *draws[1], *last])
            deal.apply(seat, action)
        solver = memory.get("end")
        if solver is None or len(solver.table) > SOLVER_TABLE_LIMIT:
            # one solver for all the play-outs of a decision (their end phases have the same
            # trumps, and late in the stock phase often the same hands), renewed when large
            solver = memory["end"] = EndSolver(deal.trump)
        if deal.trick and not deal.over:  # a trick under way: the follower answers it
            deal.apply(deal.turn, PLAY[solver.best_card(deal)])
        # the rest is worked out, not played: the scores' difference is exact
        return None if deal.over else solver.scores(deal)

    def outcome(self, scores: list[int], seat: int) -> float:
        return scores[seat] - scores[1 - seat]
