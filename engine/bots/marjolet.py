"""The rules-aware Marjolet bot: it sees only its own view and moves.

- In the winner's window: exchange the dix, declare every combination that scores, then draw.
- Stock phase: go after aces and tens (take them when it is cheap, bank its own by winning with
  them), duck with low cards otherwise, keep trumps and combination cards.
- End phase: every unseen card is in the opponent's hand, so it plays the six last tricks
  exactly (a small memoised minimax over aces, tens, the last trick and the all-six bonus).
"""

from __future__ import annotations

import random

from ..core import beats
from ..marjolet import PACK

RANKS = "ATKQJ987"
STRENGTH = {r: len(RANKS) - i for i, r in enumerate(RANKS)}  # A 8 ... 7 1
ALL_CARDS = [r + s for s in "SHDC" for r in RANKS]


def _points(card: str) -> int:
    return 10 if card[0] in "AT" else 0


def _keep_value(card: str, hand: list[str], trump: str, deal: dict) -> float:
    """How much it hurts to part with ``card`` in the stock phase (higher: keep it)."""
    rank, suit = card
    value = STRENGTH[rank]
    if suit == trump:
        value += 6
    if rank in "AT":
        value += 6
    if rank in "KQ":
        partner = ("Q" if rank == "K" else "K") + suit
        if partner in hand:
            value += 5
        if sum(1 for c in hand if c[0] == rank) >= 2:
            value += 2
    if rank == "Q" and "J" + trump in hand:
        value += 3
    if card == "J" + trump:
        value += 4
    if card == "7" + trump and deal.get("turn_up") is not None:
        value += 8  # keep the dix for the exchange
    return value


def _stock_play(cards: list[str], deal: dict, trump: str) -> str:
    hand = cards
    trick = deal["trick"]
    keep = {c: _keep_value(c, hand, trump, deal) for c in cards}
    if not trick:
        # Lead the cheapest card, never an ace or ten if avoidable (they would be trumped).
        plain = [c for c in cards if c[0] not in "AT"] or cards
        return min(plain, key=lambda c: (keep[c], c))
    led = trick[0][1]
    winners = [c for c in cards if beats(c, led, trump, PACK.strength)]
    if _points(led):
        if winners:
            return min(winners, key=lambda c: (keep[c] - 2 * _points(c), c))
    else:
        # Bank our own ace or ten by winning with it in the suit led.
        banks = [c for c in winners if c[1] == led[1] and c[0] in "AT"]
        if banks:
            return max(banks, key=lambda c: STRENGTH[c[0]])
        cheap = [c for c in winners if c[1] != trump and keep[c] <= 6]
        if cheap:
            return min(cheap, key=lambda c: (keep[c], c))
    losers = [c for c in cards if not _points(c)] or cards
    return min(losers, key=lambda c: (keep[c], c))


def _end_play(cards: list[str], deal: dict, seat: int, trump: str) -> str:
    mine = frozenset(deal["hands"][seat])
    seen = set(deal["played"]) | mine
    trick = deal["trick"]
    theirs = frozenset(c for c in ALL_CARDS if c not in seen)
    end_won = deal.get("end_tricks_won") or [0, 0]
    played_end = end_won[0] + end_won[1]
    ok_me = end_won[seat] == played_end
    ok_them = end_won[1 - seat] == played_end
    memo: dict = {}

    def follow_options(hand: frozenset, led: str) -> list[str]:
        same = [c for c in hand if c[1] == led[1]]
        if same:
            higher = [c for c in same if STRENGTH[c[0]] > STRENGTH[led[0]]]
            return higher or same
        trumps = [c for c in hand if c[1] == trump]
        return trumps or list(hand)

    def outcome(lead_me: bool, lead_card: str, follow_card: str, mine, theirs, ok_me, ok_them):
        follower_wins = beats(follow_card, lead_card, trump, PACK.strength)
        me_wins = lead_me != follower_wins
        points = _points(lead_card) + _points(follow_card)
        last = not mine
        if last:
            points += 10
        ok_me = ok_me and me_wins
        ok_them = ok_them and not me_wins
        if last:
            if ok_me:
                points += 50
            if ok_them:
                points += 50
        diff = points if me_wins else -points
        return diff + value(mine, theirs, me_wins, ok_me, ok_them)

    def value(mine, theirs, lead_me, ok_me, ok_them) -> int:
        if not mine:
            return 0
        key = (mine, theirs, lead_me, ok_me, ok_them)
        if key in memo:
            return memo[key]
        if lead_me:
            best = max(
                min(outcome(True, a, b, mine - {a}, theirs - {b}, ok_me, ok_them)
                    for b in follow_options(theirs, a))
                for a in mine)
        else:
            best = min(
                max(outcome(False, b, a, mine - {a}, theirs - {b}, ok_me, ok_them)
                    for a in follow_options(mine, b))
                for b in theirs)
        memo[key] = best
        return best

    def score(card: str) -> int:
        if trick:
            led = trick[0][1]
            return outcome(False, led, card, mine - {card}, theirs - {led}, ok_me, ok_them)
        return min(outcome(True, card, b, mine - {card}, theirs - {b}, ok_me, ok_them)
                   for b in follow_options(theirs, card))

    if len(theirs) != len(mine) - (1 if trick else 0):
        # Should not happen; fall back to a cheap legal card.
        return min(cards, key=lambda c: (STRENGTH[c[0]], c))
    return max(cards, key=lambda c: (score(c), -STRENGTH[c[0]], c))


def marjolet_bot(view: dict, moves: dict, rng: random.Random) -> dict:
    if "exchange" in moves:
        return {"type": "exchange"}
    if moves.get("declare"):
        return {"type": "declare", "cards": list(moves["declare"][0])}
    if "draw" in moves:
        return {"type": "draw"}
    cards = moves["play"]
    if len(cards) == 1:
        return {"type": "play", "card": cards[0]}
    deal = view["deal"]
    seat = view["seat"]
    trump = deal["trump"]
    if deal["end_phase"]:
        card = _end_play(cards, deal, seat, trump)
    else:
        card = _stock_play(cards, deal, trump)
    return {"type": "play", "card": card}
