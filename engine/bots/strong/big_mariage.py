"""Big Mariage as search sees it.

What a seat knows: its hand; every card played and by whom; that a seat which did not follow
the suit led holds none of it, and none of the trumps either if it did not trump when trumps
were called; the marriages declared, and the other card of a marriage that called trumps, until
played; as declarer, the kitty and where each of its gives went; in the default variant, that
a seat without a declared marriage in a suit did not hold its king and queen together at the
contract. During the bidding, the bids: a hand is kept more readily when it would have bid as
the seat did by the rules bot's valuation (a hint, not a rule: people bid otherwise).

Candidates: a bid is a pass or the lowest bid (jumps, tried once, were mostly noise: a jump to
200 that failed); a give is any card to any seat but that of the nines, eights and sevens of a
suit only the lowest (they are alike); a contract is any legal value: the play that follows
does not depend on it, so each determinization is played out once and scored for every value
(``rescorer``), the value chosen from the spread of the points the declaring team takes rather
than from a handful of play-outs each.

A bid is searched with how far the seat would go on bidding: as the rules bot would (its
valuation of the hand), and bidding on up to each of a few ceilings (``plans``): in play-outs
where the rules bot bid for it, a bid it would fight for looked no better than a pass.

What search plays for: the margin, and coming out of the deal ahead (``WIN_BONUS``). The rules
bots pass a third of the deals in (nobody scores); a bid or a pass stands as soon as its average
is the better (``confidence``), for search's bids to find the deals worth declaring.
"""

from __future__ import annotations

import random

from ...big_mariage import (
    BID_STEP,
    MARRIAGE_POINTS,
    MAX_BID,
    MIN_BID,
    BigMariageDeal,
    final_scores,
)
from ...cards import SUITS
from ..big_mariage import would_bid
from .inference import Knowledge, tricks_seen
from .model import Model, with_prior

#: Raises above the lowest bid worth trying.
BID_JUMPS = (0,)
#: How far above the lowest bid the seat may go on bidding in a play-out, each a plan of its
#: own: in the play-outs the rules bot bids for it only while its hand's valuation allows,
#: so that a bid it would fight for looked no better than a pass.
BID_CEILINGS = (0, 20, 40, 80)
#: What scoring more than the other team in a deal is worth besides the margin: the bot plays
#: to come out of each deal ahead, not only for points.
WIN_BONUS = 60
#: How much less likely a hand is kept when a bid or pass of its seat does not fit it.
UNLIKE_BID = 0.25
#: Ranks without card points, alike enough that only the lowest of a suit is worth giving.
BLANKS = "987"


class BigMariageModel(Model):
    game = "big_mariage"

    def knowledge(self, view: dict) -> Knowledge:
        deal, me = view["deal"], view["seat"]
        others = [seat for seat in range(4) if seat != me]
        tricks = tricks_seen(deal, 4)
        played = {card for trick in tricks for _, card in trick}
        known: dict = {seat: set() for seat in others}
        if me == deal["declarer"]:
            for give in deal["gives"]:
                known[give["to"]].add(give["card"])
        for marriage in deal["marriages"]:
            known.get(marriage["seat"], set()).update(("K" + marriage["suit"],
                                                        "Q" + marriage["suit"]))
        for call in deal["trump_calls"]:  # the caller held the other card of the marriage
            partner = ("Q" if call["card"][0] == "K" else "K") + call["suit"]
            known.get(call["seat"], set()).add(partner)
        known = {seat: sorted(cards - played) for seat, cards in known.items()}
        voids = _voids(tricks, deal["trump_calls"])
        sizes = {seat: deal["hand_sizes"][seat] for seat in others}
        if deal["phase"] == "bidding":
            known["kitty"], sizes["kitty"] = [], 4
        seen = played.union(deal["hands"][me], *known.values())
        unseen = {card: tuple(p for p in sizes if card[1] not in voids.get(p, ()))
                  for card in BigMariageDeal.pack.cards if card not in seen}
        return Knowledge(known, sizes, unseen)

    def plausible(self, view: dict, placement: dict, rng: random.Random) -> bool:
        deal = view["deal"]
        if deal["phase"] == "bidding":
            return rng.random() < _bids_likelihood(deal["bids"], placement, view["options"])
        if deal["phase"] in ("play", "over") and deal["variant"] == "declared":
            return not _undeclared_marriage(view, placement)
        return True

    def determinize(self, view: dict, placement: dict, rng: random.Random) -> BigMariageDeal:
        deal, me = view["deal"], view["seat"]
        hands = [placement.get(seat) for seat in range(4)]
        hands[me] = deal["hands"][me]
        return BigMariageDeal.from_view(view["options"], deal, hands, placement.get("kitty"))

    def candidates(self, view: dict, moves: dict, prior) -> list:
        if "bid" in moves:
            lowest = moves["bid"][0]
            bids = [{"type": "bid", "value": lowest + jump} for jump in BID_JUMPS
                    if lowest + jump in moves["bid"]]
            return with_prior(prior, [{"type": "pass"}, *bids], self.parse)
        if "give" in moves:
            cards = moves["give"]["cards"]
            lowest_blank = {suit: max((c for c in cards if c[1] == suit and c[0] in BLANKS),
                                      key=lambda c: BLANKS.index(c[0]), default=None)
                            for suit in SUITS}
            worth = [c for c in cards if c[0] not in BLANKS or lowest_blank[c[1]] == c]
            return with_prior(prior, [{"type": "give", "card": c, "to": to}
                                      for c in worth for to in moves["give"]["to"]], self.parse)
        if "contract" in moves:  # every value: one play-out scores them all (rescorer)
            return with_prior(prior, [{"type": "contract", "value": value}
                                      for value in moves["contract"]], self.parse)
        return super().candidates(view, moves, prior)

    def confidence(self, view: dict, moves: dict) -> float:
        # the rules bot passes too readily (a third of its deals are thrown in): search's bid
        # or pass stands as soon as its average is the better
        return 0.0 if "bid" in moves else super().confidence(view, moves)

    def plans(self, view: dict, moves: dict, prior) -> list:
        if "bid" not in moves:
            return super().plans(view, moves, prior)
        plans = super().plans(view, moves, prior)  # the prior and the other, as the rules bot
        lowest = moves["bid"][0]
        bid = self.parse({"type": "bid", "value": lowest})
        return plans + [(bid, (view["seat"], lowest + raised)) for raised in BID_CEILINGS
                        if lowest + raised <= MAX_BID]

    def play_out(self, deal: BigMariageDeal, options: dict, rng: random.Random,
                 memory: dict, plan=None) -> None:
        if plan is None:
            return super().play_out(deal, options, rng, memory)
        seat, ceiling = plan  # it bids the lowest bid while that is at most the ceiling
        policy, game = self.policy, self.game
        while not deal.over:
            actor = deal.turn
            moves = deal.moves(actor)
            if actor == seat and deal.phase == "bidding":
                bids = moves.get("bid") or []
                action = {"type": "bid", "value": bids[0]} if bids and bids[0] <= ceiling \
                    else {"type": "pass"}
            else:
                view = {"game": game, "seat": actor, "options": options, "moves": moves,
                        "deal": deal.view(actor)}
                action = policy(view, moves, rng)
            deal.apply(actor, action)
        return None

    def rescorer(self, view: dict, moves: dict):
        if "contract" not in moves:
            return None

        def rescore(deal: BigMariageDeal, candidate, seat: int) -> float:
            # the play does not depend on the contract's value: only the scoring does
            scores = final_scores(deal.raw_points(), deal.declarer % 2, candidate["value"])
            return self.outcome(list(scores), seat)
        return rescore

    def outcome(self, scores: list[int], seat: int) -> float:
        return scores[seat % 2] - scores[1 - seat % 2]

    def utility(self, outcome: float) -> float:
        return outcome + WIN_BONUS * ((outcome > 0) - (outcome < 0))


def _voids(tricks: list, calls: list) -> dict[int, set[str]]:
    """The suits each seat has shown it lacks: the suit led when it did not follow, and the
    trumps of the time when it neither followed nor trumped."""
    voids: dict[int, set[str]] = {seat: set() for seat in range(4)}
    for number, trick in enumerate(tricks):
        trump = None
        for call in calls:  # a call takes effect with the lead of its trick
            if call["trick"] <= number:
                trump = call["suit"]
        led = trick[0][1][1]
        for seat, card in trick[1:]:
            if card[1] != led:
                voids[seat].add(led)
                if trump is not None and card[1] != trump:
                    voids[seat].add(trump)
    return voids


def _undeclared_marriage(view: dict, placement: dict) -> bool:
    """Whether a seat of ``placement`` held at the contract a king and queen it did not declare
    (its hand then: its cards now and those it played since)."""
    deal, me = view["deal"], view["seat"]
    held = {seat: set(cards) for seat, cards in placement.items() if seat != "kitty"}
    for trick in tricks_seen(deal, 4):
        for seat, card in trick:
            if seat in held:
                held[seat].add(card)
    declared = {(m["seat"], m["suit"]) for m in deal["marriages"]}
    return any("K" + suit in cards and "Q" + suit in cards and (seat, suit) not in declared
               for seat, cards in held.items() if seat != me for suit in MARRIAGE_POINTS)


def _bids_likelihood(bids: list, placement: dict, options: dict) -> float:
    """How well the bids so far fit the hands of ``placement``: 1 when each bid and pass is
    what the rules bot would have done with that hand, less for each one it would not."""
    likelihood, high_bidder, lowest = 1.0, None, MIN_BID
    for seat, bid in bids:
        hand = placement.get(seat)
        if hand is not None and lowest <= MAX_BID \
                and would_bid(hand, seat, high_bidder, lowest, options) == (bid == "pass"):
            likelihood *= UNLIKE_BID
        if bid != "pass":
            high_bidder, lowest = seat, bid + BID_STEP
    return likelihood
