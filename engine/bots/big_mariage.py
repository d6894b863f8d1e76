"""The rules-aware Big Mariage bot: it sees only its own view and its legal moves.

Bidding: values the hand (aces, guarded tens, marriages, a share from partner and kitty; in
``trump_only`` only a share of the marriages, which score there only when they call trumps) and
bids the minimum while the bid stays under that value; it does not outbid its partner without a
much stronger hand. Kitty: low cards that cannot complete a marriage go to the opponents, a king
or queen (a possible marriage) or else a point card to the partner. Contract: the winning bid,
raised when the hand is clearly worth more. Play: calls trumps with its marriages (longest suit
first; in ``trump_only`` every call scores, so it calls whenever it can), cashes aces, draws
trumps when they are its own, and follows with its partner in mind: it never overtakes a
partner who is winning safely, dumps points on such tricks, and otherwise wins as cheaply as it
can or throws its least valuable card.
"""

from __future__ import annotations

import random

from ..big_mariage import BigMariageDeal
from ..core import beats, expand_moves, trick_winner

RANKS = "ATKQJ987"  # high to low
STRENGTH = {r: 8 - i for i, r in enumerate(RANKS)}
PACK = BigMariageDeal.pack
POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
MARRIAGE = {"H": 100, "D": 80, "C": 60, "S": 40}
#: The share of its marriages' points a hand counts on in ``trump_only``, where a marriage
#: scores only when it calls trumps: the declarer's first lead can call one, the others need a
#: trick won first. (Measured in duplicate deals against counting them whole: 11 points more a
#: pair of deals; in ``declared`` the same shares change nothing.)
CALLED_SHARE = (0.8, 0.3)


def _suits(hand):
    by = {"S": [], "H": [], "D": [], "C": []}
    for c in hand:
        by[c[1]].append(c)
    return by


def _marriage_suits(hand):
    return [s for s in "HDCS" if "K" + s in hand and "Q" + s in hand]


def hand_value(hand, with_partner: bool = True, marriages_score: str = "declared") -> int:
    """A rough estimate of the points the team can take with this hand as declarer
    (``marriages_score``: the ``marriages`` option)."""
    by = _suits(hand)
    value = 0
    marriages = sorted(_marriage_suits(hand), key=MARRIAGE.get, reverse=True)
    for i, s in enumerate(marriages):
        share = CALLED_SHARE[min(i, 1)] if marriages_score == "trump_only" else 1
        value += int(MARRIAGE[s] * share)
    for s, cards in by.items():
        ranks = {c[0] for c in cards}
        if "A" in ranks:
            value += 14
            if "T" in ranks:
                value += 10
        elif "T" in ranks and len(cards) >= 3:
            value += 5
        if s in marriages:
            value += 3 * len(cards)  # a long trump suit wins tricks
    if with_partner:
        value += 25  # the partner's tricks and the kitty
    return value


def _cheapest(cards):
    """The card that costs least to lose: fewest points, then lowest rank."""
    return min(cards, key=lambda c: (POINTS[c[0]], STRENGTH[c[0]]))


def _unseen_higher(card, seen):
    """Cards of the same suit above ``card`` that have not been seen played."""
    return [r + card[1] for r in RANKS[:RANKS.index(card[0])] if r + card[1] not in seen]


def big_mariage_bot(view: dict, moves: dict, rng: random.Random) -> dict:
    deal = view.get("deal") or view
    seat = view.get("seat")
    hand = deal["hands"][seat] if seat is not None else None
    if hand is None:
        return rng.choice(expand_moves(moves))
    try:
        options = view.get("options", {})
        if "bid" in moves or "pass" in moves:
            return _bid(deal, seat, hand, moves, options)
        if "give" in moves:
            return _give(deal, seat, hand, moves)
        if "contract" in moves:
            return _contract(hand, moves, options)
        if "play" in moves:
            return _play(deal, seat, hand, moves, options)
    except (KeyError, ValueError, IndexError, TypeError):
        pass
    return rng.choice(expand_moves(moves))


def _bid(deal, seat, hand, moves, options):
    bids = moves.get("bid") or []
    if bids and would_bid(hand, seat, deal.get("high_bidder"), bids[0], options):
        return {"type": "bid", "value": bids[0]}
    return {"type": "pass"}


def would_bid(hand, seat: int, high_bidder: int | None, lowest: int, options: dict) -> bool:
    """Whether this bot bids ``lowest`` (rather than passes) with ``hand`` at ``seat``."""
    value = hand_value(hand, marriages_score=options.get("marriages", "declared"))
    if high_bidder is not None and high_bidder % 2 == seat % 2:
        value -= 40  # only take over from the partner with a much stronger hand
    return lowest <= value


def _give(deal, seat, hand, moves):
    spec = moves["give"]
    cards, targets = list(spec["cards"]), spec["to"]
    partner = (seat + 2) % 4
    keep = set()
    for s in _marriage_suits(hand):
        keep.update(("K" + s, "Q" + s))
    for c in hand:
        if c[0] == "A":
            keep.add(c)
    opponents = [t for t in targets if t != partner]
    free = [c for c in cards if c not in keep] or cards
    if opponents:
        # a low card, never a king or queen (it could complete their marriage)
        safe = [c for c in free if c[0] not in "KQ"] or free
        by = _suits(hand)
        card = min(safe, key=lambda c: (POINTS[c[0]], len(by[c[1]]) > 2, STRENGTH[c[0]]))
        return {"type": "give", "card": card, "to": opponents[0]}
    # to the partner: a king or queen that may complete a marriage, else a point card
    kq = [c for c in free if c[0] in "KQ"]
    if kq:
        card = max(kq, key=lambda c: MARRIAGE[c[1]])
    else:
        card = max(free, key=lambda c: (POINTS[c[0]], STRENGTH[c[0]]))
    return {"type": "give", "card": card, "to": partner}


def _contract(hand, moves, options):
    values = moves["contract"]
    target = hand_value(hand, marriages_score=options.get("marriages", "declared")) - 10
    best = values[0]
    for v in values:
        if v <= target:
            best = v
    return {"type": "contract", "value": best}


def _play(deal, seat, hand, moves, options):
    legal = moves["play"]
    calls = moves.get("trump") or []
    trick = deal["trick"]
    trump = deal["trump"]
    seen = set(hand)  # cards no opponent can hold
    seen.update(deal.get("played") or [])
    last = deal.get("last_trick")
    if last:
        seen.update(c for _, c in last["cards"])
    if not trick:
        return _lead(deal, seat, hand, legal, calls, trump, seen, options)
    return {"type": "play", "card": _follow(seat, legal, trick, trump, seen)}


def _lead(deal, seat, hand, legal, calls, trump, seen, options):
    by = _suits(hand)
    if calls:
        trump_only = options.get("marriages") == "trump_only"
        suits = sorted({c[1] for c in calls}, key=lambda s: (len(by[s]), MARRIAGE[s]),
                       reverse=True)
        best = suits[0]
        if trump_only or trump is None or (trump != best and len(by[best]) >= len(by.get(trump, []))):
            # lead the queen: the king stays to win a later trick
            return {"type": "play", "card": "Q" + best, "trump": True}
    # cash aces of plain suits
    aces = [c for c in legal if c[0] == "A" and c[1] != trump]
    if aces:
        return {"type": "play", "card": max(aces, key=lambda c: len(by[c[1]]))}
    # draw trumps with a strong trump suit
    if trump is not None:
        trumps = by[trump]
        if len(trumps) >= 3 or any(c[0] == "A" for c in trumps):
            return {"type": "play", "card": max(trumps, key=lambda c: STRENGTH[c[0]])}
    # a ten whose ace is gone
    for c in legal:
        if c[0] == "T" and c[1] != trump and "A" + c[1] in seen:
            return {"type": "play", "card": c}
    # otherwise a low card of the longest plain suit
    plain = [c for c in legal if c[1] != trump] or legal
    longest = max(plain, key=lambda c: (len(by[c[1]]), -STRENGTH[c[0]]))
    low = [c for c in plain if c[1] == longest[1]]
    return {"type": "play", "card": _cheapest(low)}


def _follow(seat, legal, trick, trump, seen):
    partner = (seat + 2) % 4
    winner, best = trick[trick_winner([c for _, c in trick], trump, PACK.strength)]
    last_to_play = len(trick) == 3
    points = sum(POINTS[c[0]] for _, c in trick)
    if winner == partner:
        safe = last_to_play or best[1] == trump or not _unseen_higher(best, seen)
        if safe:
            # dump points, but keep aces and trumps that can still win
            dump = [c for c in legal if c[0] != "A" and c[1] != trump] or \
                [c for c in legal if c[1] != trump] or legal
            return max(dump, key=lambda c: (POINTS[c[0]], -STRENGTH[c[0]]))
    winning = [c for c in legal if beats(c, best, trump, PACK.strength)]
    if winning and (points > 0 or last_to_play or winner != partner):
        if last_to_play:
            return min(winning, key=lambda c: (c[1] == trump, STRENGTH[c[0]]))
        # not last: win with a card opponents are unlikely to beat
        top = [c for c in winning if c[1] == trump or not _unseen_higher(c, seen)]
        if top:
            return min(top, key=lambda c: (c[1] == trump, STRENGTH[c[0]]))
        if points >= 10:
            return max(winning, key=lambda c: STRENGTH[c[0]])
    return _cheapest(legal)
