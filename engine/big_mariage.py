"""Big Mariage (Большой марьяж): four players in two partnerships, rules.md section 3.

Seats 0 and 2 are team 0, seats 1 and 3 team 1. A deal goes through five phases:

``bidding``  from the dealer's left, clockwise among players who have not passed;
``kitty``    the declarer has taken the four kitty cards and gives one card to each other seat;
``contract`` the declarer fixes the contract (the winning bid or more);
``play``     eight tricks, no trumps at the start, trumps called with marriages;
``over``     scored (or thrown in: all four passed).

Conventions of rules.md kept here: no bid above 400 (:data:`MAX_BID`); all four passing ends the
deal with 0 for both teams; equal totals at or above the target play on.

Where rules.md is silent, this module chooses:
- the 400 cap holds for the contract as well as the bids; after a bid of 400 the others may
  only pass;
- a give to oneself, to a seat outside 0..3 or to a seat already given to is refused; the three
  gives come before the contract;
- ``"trump": true`` is refused on any card but the lead of a king or queen whose partner card is
  still in the hand (not merely ignored); calling a suit that is already trumps is allowed;
- declared marriages are listed from the declarer clockwise, hearts, diamonds, clubs, spades;
- the duty to trump holds even when the partner is winning the trick;
- the kitty cards stay visible to the declarer for the rest of the deal.
"""

from __future__ import annotations

import random

from .actions import CARD, INTEGER, OPTIONAL_FLAG, Schema
from .cards import Pack, of_suit
from .core import EVERYONE, Game, Option, TrickDeal, Viewer, positive_integer
from .errors import BadDeal, IllegalAction

MIN_BID = 60
MAX_BID = 400  # convention: a higher bid could never be made
BID_STEP = 5
KITTY_SIZE = 4

CARD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
#: Marriage (K+Q of one suit) values, highest first.
MARRIAGE_POINTS = {"H": 100, "D": 80, "C": 60, "S": 40}
MARRIAGE_ORDER = "HDCS"
TEAMS = ((0, 2), (1, 3))

_PACK = Pack("ATKQJ987")
_POINTS = {card: CARD_POINTS[card[0]] for card in _PACK.cards}
#: Every legal bid or contract value, ascending; a slice of it is a legal range.
_VALUES = list(range(MIN_BID, MAX_BID + 1, BID_STEP))
#: Valid kitty positions in the pack, for a deal built from a view (where they play no part).
_SOME_KITTY = [1, 3, 5, 7]


def round_defence(points: int) -> int:
    """The defenders' points to the nearest 5: ending in 1 or 2 down, 3 or 4 up (72→70, 73→75)."""
    rest = points % 5
    return points - rest if rest <= 2 else points + 5 - rest


def final_scores(raw: list[int], declaring: int, contract: int) -> tuple[int, int]:
    """A played deal's scores from each team's ``raw`` points: the declaring team's contract,
    won or lost; the defenders' points rounded (:func:`round_defence`)."""
    final = [round_defence(raw[0]), round_defence(raw[1])]
    final[declaring] = contract if raw[declaring] >= contract else -contract
    return final[0], final[1]


def card_points(cards) -> int:
    return sum(map(_POINTS.__getitem__, cards))


def _values_from(lowest: int) -> list[int]:
    """The legal values ``>= lowest`` (``lowest`` at least 60 and a multiple of 5)."""
    if lowest > MAX_BID:
        return []
    return _VALUES[(lowest - MIN_BID) // BID_STEP:]


def _check_value(value: int, kind: str) -> None:
    """What a bid and a contract (``kind``) both need: a multiple of 5, at most 400."""
    bid = kind == "bid"
    if value % BID_STEP:
        raise IllegalAction("bid_multiple" if bid else "contract_multiple", step=BID_STEP)
    if value > MAX_BID:
        raise IllegalAction("bid_max" if bid else "contract_max", max=MAX_BID)


class BigMariageDeal(TrickDeal):
    """One deal of Big Mariage. ``kitty`` is the list of the four kitty indices in ``deck``."""

    pack = _PACK
    seats = 4
    schema = Schema({
        "play": {"card": CARD, "trump": OPTIONAL_FLAG},
        "bid": {"value": INTEGER},
        "pass": {},
        "give": {"card": CARD, "to": INTEGER},
        "contract": {"value": INTEGER},
    })
    changing = (*TrickDeal.changing, "given", "marriage_points", "card_points")

    def __init__(self, options, dealer, deck, kitty=None):
        super().__init__(options, dealer, deck, kitty)
        a, b, c, d = sorted(kitty)
        self.kitty_cards = (deck[a], deck[b], deck[c], deck[d])
        dealt = deck[:a] + deck[a + 1:b] + deck[b + 1:c] + deck[c + 1:d] + deck[d + 1:]
        hands = self.hands
        for i in range(4):  # the i-th dealt card goes to the dealer's left, then clockwise
            hands[(dealer + 1 + i) & 3] = dealt[i::4]
        self.declared_variant = options["marriages"] == "declared"
        self.phase = "bidding"
        self.turn = (dealer + 1) % 4
        self.passed = 0  # bit s set: seat s has passed
        self.bids: tuple = ()  # ((seat, value or "pass"), ...)
        self.high_bid: int | None = None
        self.high_bidder: int | None = None
        self.declarer: int | None = None
        self.contract: int | None = None
        self.given: dict[int, str] = {}  # recipient seat -> card, in the order given
        self.marriages: tuple = ()  # ({"seat", "suit", "points"}, ...)
        self.marriage_points = [0, 0]
        self.card_points = [0, 0]
        self.trump_calls: tuple = ()  # ({"seat", "card", "suit", "trick"}, ...)
        self.tricks_played = 0
        self.final: tuple[int, int] | None = None

    @classmethod
    def from_view(cls, options: dict, view: dict, hands: list[list[str]],
                  kitty: list[str] | None = None) -> BigMariageDeal:
        """The deal at the position ``view`` (a seat's view of the deal) shows, with the cards
        that seat cannot see placed as chosen: ``hands``, every seat's hand now, and during the
        bidding ``kitty``, the four kitty cards. A determinization, for search: it plays on by
        the very rules of the deal it stands for, from here (its action log starts empty; what
        no rule needs and the view does not show, such as a give the seat did not see or the
        kitty of another declarer, stays unknown: None, and no kitty)."""
        known = list(kitty) if view["phase"] == "bidding" else list(view["kitty"] or ())
        deck = [card for card in _PACK.cards if card not in known]
        for position, card in zip(_SOME_KITTY, known):
            deck.insert(position, card)
        deal = cls(options, view["dealer"], deck, _SOME_KITTY)
        deal.kitty_cards = tuple(known)  # none when the seat never saw the kitty
        deal.restore_tricks(view, hands)
        deal.phase = view["phase"]
        deal.bids = tuple((seat, bid) for seat, bid in view["bids"])
        deal.passed = sum(1 << seat for seat, bid in deal.bids if bid == "pass")
        deal.high_bid, deal.high_bidder = view["high_bid"], view["high_bidder"]
        deal.declarer, deal.contract = view["declarer"], view["contract"]
        deal.given = {give["to"]: give["card"] for give in view["gives"]}
        deal.marriages = tuple(dict(m) for m in view["marriages"])
        for marriage in deal.marriages:
            deal.marriage_points[marriage["seat"] % 2] += marriage["points"]
        deal.trump_calls = tuple(dict(c) for c in view["trump_calls"])
        deal.tricks_played = len(deal.finished)
        for cards, _, winner in deal.finished:
            deal.card_points[winner % 2] += card_points(cards)
        if deal.phase == "over":
            deal.over, deal.final = True, tuple(view["scores"])
        deal.check_every_card_once(*(kitty if deal.phase == "bidding" else ()))
        return deal

    # -- whose turn, what they may do -----------------------------------------------------------

    def to_act(self) -> list[int]:
        return [] if self.over else [self.turn]

    def moves(self, seat: int) -> dict:
        if seat != self.turn:  # also when the deal is over: turn is None then
            return {}
        phase = self.phase
        if phase == "play":
            hand = self.hands[seat]
            moves = {"play": self.forced_cards(hand) or hand[:]}
            if not self.trick:  # a lead, which may call trumps
                calls = self.trump_callers(hand)
                if calls:
                    moves["trump"] = calls
            return moves
        if phase == "bidding":
            bids = _values_from(MIN_BID if self.high_bid is None else self.high_bid + BID_STEP)
            return {"bid": bids, "pass": {}} if bids else {"pass": {}}
        if phase == "kitty":
            given = self.given
            return {"give": {"cards": self.hands[seat][:],
                             "to": [s for s in self._others() if s not in given]}}
        return {"contract": _values_from(self.high_bid)}

    def forced_cards(self, hand: list[str]) -> list[str]:
        """The cards of ``hand`` the rules restrict a play to now: those of the suit led, when
        it holds any, else its trumps, when trumps are called and it holds any. Empty: any
        card."""
        trick = self.trick
        if not trick:
            return []
        cards = of_suit(hand, trick[0][1])
        trump = self.trump
        if cards or trump is None:
            return cards
        return of_suit(hand, trump)

    def trump_callers(self, hand: list[str]) -> list[str]:
        """The cards of ``hand`` that may call trumps now: when leading, the kings and then the
        queens of the marriages it holds."""
        if self.trick:
            return []
        kings = [c for c in hand if c[0] == "K" and "Q" + c[1] in hand]
        return kings + ["Q" + c[1] for c in kings]

    def _others(self) -> list[int]:
        d = self.declarer
        return [(d + 1) % 4, (d + 2) % 4, (d + 3) % 4]

    # -- applying ---------------------------------------------------------------------------------

    def _out_of_phase(self) -> IllegalAction:
        """The refusal of an action the phase does not await: what it awaits."""
        phase = self.phase
        if phase == "bidding":
            return IllegalAction("time_bid")
        if phase == "kitty":
            return IllegalAction("time_give")
        if phase == "contract":
            return IllegalAction("time_contract")
        return IllegalAction("time_play")

    def _bid(self, seat: int, action: dict) -> None:
        if self.phase != "bidding":
            raise self._out_of_phase()
        value = action["value"]
        _check_value(value, "bid")
        if value < MIN_BID:
            raise IllegalAction("lowest_bid", bid=MIN_BID)
        if self.high_bid is not None and value <= self.high_bid:
            raise IllegalAction("bid_higher", bid=self.high_bid)
        self.high_bid, self.high_bidder = value, seat
        self.bids += ((seat, value),)
        self._next_bidder(seat)

    def _pass(self, seat: int, action: dict) -> None:
        if self.phase != "bidding":
            raise self._out_of_phase()
        self.passed |= 1 << seat
        self.bids += ((seat, "pass"),)
        self._next_bidder(seat)

    def _next_bidder(self, seat: int) -> None:
        passed = self.passed
        left = 4 - bin(passed).count("1")
        if left == 0:  # convention: all four passed, the deal is thrown in
            self.phase, self.over, self.turn, self.final = "over", True, None, (0, 0)
            return
        if left == 1 and self.high_bid is not None:  # everyone but the highest bidder passed
            declarer = self.declarer = self.high_bidder
            self.phase, self.turn = "kitty", declarer
            self.hands[declarer].extend(self.kitty_cards)
            return
        nxt = (seat + 1) % 4
        while passed >> nxt & 1:
            nxt = (nxt + 1) % 4
        self.turn = nxt

    def _give(self, seat: int, action: dict) -> None:
        if self.phase != "kitty":
            raise self._out_of_phase()
        card, to = action["card"], action["to"]
        if not 0 <= to < 4:
            raise IllegalAction("no_seat", seat=to)
        if to == seat:
            raise IllegalAction("give_self")
        if to in self.given:
            raise IllegalAction("given_already", seat=to)
        self.require_in_hand(seat, card)
        self.hands[seat].remove(card)
        self.hands[to].append(card)
        self.given[to] = card
        if len(self.given) == 3:
            self.phase = "contract"

    def _contract(self, seat: int, action: dict) -> None:
        if self.phase != "contract":
            raise self._out_of_phase()
        value = action["value"]
        _check_value(value, "contract")
        if value < self.high_bid:
            raise IllegalAction("contract_low", bid=self.high_bid)
        self.contract = value
        self.phase = "play"
        self.leader = self.turn = seat
        if self.declared_variant:
            for s in self.clockwise_from(seat):
                hand = self.hands[s]
                for suit in MARRIAGE_ORDER:
                    if "K" + suit in hand and "Q" + suit in hand:
                        self._score_marriage(s, suit)

    def _score_marriage(self, seat: int, suit: str) -> None:
        points = MARRIAGE_POINTS[suit]
        self.marriages += ({"seat": seat, "suit": suit, "points": points},)
        self.marriage_points[seat % 2] += points

    def _play(self, seat: int, action: dict) -> None:
        if self.phase != "play":
            raise self._out_of_phase()
        card, call = action["card"], "trump" in action  # the parsed form drops a false flag
        hand = self.hands[seat]
        if call and card not in self.trump_callers(hand):
            self.require_in_hand(seat, card)  # a card not held is refused as such
            raise IllegalAction("call_trumps")
        trick = self.trick
        if trick and card[1] != trick[0][1]:  # only a card of another suit can be refused
            forced = self.forced_cards(hand)
            if forced and card not in forced:
                self.require_in_hand(seat, card)
                led = trick[0][1]
                if forced[0][1] == led:
                    raise IllegalAction("follow_suit", suit=led)
                raise IllegalAction("must_play_trump", suit=self.trump)
        done = self.play_card(seat, card)
        if call:  # a lead: it never completes a trick
            suit = card[1]
            self.trump = suit
            self.trump_calls += ({"seat": seat, "card": card, "suit": suit,
                                  "trick": self.tricks_played},)
            if not self.declared_variant:
                self._score_marriage(seat, suit)
        if done is None:
            return
        cards, _, winner = done
        self.card_points[winner & 1] += card_points(cards)
        self.tricks_played += 1
        if self.tricks_played == 8:
            self._finish()

    def _finish(self) -> None:
        self.final = final_scores(self.raw_points(), self.declarer % 2, self.contract)
        self.phase, self.over, self.turn, self.leader = "over", True, None, None

    handlers = {"bid": _bid, "pass": _pass, "give": _give, "contract": _contract, "play": _play}

    # -- scores -----------------------------------------------------------------------------------

    def raw_points(self) -> list[int]:
        """Each team's card points of tricks taken plus marriage points, so far."""
        return [self.card_points[0] + self.marriage_points[0],
                self.card_points[1] + self.marriage_points[1]]

    def scores(self) -> list[int]:
        if self.final is not None:
            return list(self.final)
        if self.contract is None:
            return [0, 0]
        return self.raw_points()

    def summary(self) -> dict:
        """The score sheet of the deal, per team (JSON-ready)."""
        raw = self.raw_points()
        declaring = None if self.declarer is None or self.contract is None else self.declarer % 2
        teams = []
        for team in (0, 1):
            entry = {
                "team": team,
                "seats": list(TEAMS[team]),
                "card_points": self.card_points[team],
                "marriages": [dict(m) for m in self.marriages if m["seat"] % 2 == team],
                "marriage_points": self.marriage_points[team],
                "points": raw[team],
                "declaring": declaring == team,
                "made": None,
                "score": self.scores()[team],
            }
            if declaring is not None and self.over:
                entry["made"] = raw[team] >= self.contract if declaring == team else None
                if declaring != team:
                    entry["rounded"] = round_defence(raw[team])
            teams.append(entry)
        return {
            "thrown_in": self.over and self.contract is None,
            "declarer": self.declarer,
            "high_bid": self.high_bid,
            "contract": self.contract,
            "trump_calls": [dict(c) for c in self.trump_calls],
            "teams": teams,
        }

    # -- seeing -----------------------------------------------------------------------------------

    def redact(self, action: dict, actor: int, viewer: Viewer) -> dict:
        if action.get("type") == "give" and viewer != EVERYONE and viewer != actor \
                and viewer != action.get("to"):
            return {"type": "give", "to": action["to"]}
        return action

    def public_view(self) -> dict:
        """``phase`` is one of ``bidding``, ``kitty`` (the declarer gives a card to each other
        seat), ``contract``, ``play`` and ``over``. ``played`` holds the cards of the finished
        tricks, ``high_bidder`` the seat of ``high_bid`` during the bidding, ``team_points``
        each team's raw points so far."""
        return {
            "phase": self.phase,
            "dealer": self.dealer,
            **self.trick_view(),
            "bids": [list(b) for b in self.bids],  # [[seat, value or "pass"], ...]
            "high_bid": self.high_bid,
            "high_bidder": self.high_bidder,
            "declarer": self.declarer,
            "contract": self.contract,
            "marriages": [dict(m) for m in self.marriages],
            "trump_calls": [dict(c) for c in self.trump_calls],
            # the finished tricks' cards in the order played: a list that only grows is sent
            # as its new cards alone
            "played": [card for cards, _, _ in self.finished for card in cards],
            "teams": [list(t) for t in TEAMS],
            "team_points": self.raw_points(),
            "scores": self.scores(),
            "variant": self.options["marriages"],
        }

    def private_view(self, viewer: Viewer) -> dict:
        """``hands`` shows only the viewer's own hand (0..3; ``None``: a spectator; EVERYONE:
        all open); ``kitty`` shows the kitty cards only to the declarer once taken; ``gives``
        lists the cards given, in order, each card visible only to the declarer and its
        recipient; ``marriages_held``, to the declarer alone while it gives and fixes the
        contract, the marriages in its hand."""
        everyone = viewer == EVERYONE
        declarer = self.declarer
        show_kitty = everyone or (declarer is not None and viewer == declarer)
        view = {
            "hands": self.hands_view(viewer),
            "gives": [
                {"to": to, "card": card if everyone or viewer == declarer or viewer == to
                 else None}
                for to, card in self.given.items()
            ],
            "kitty": self.pack.sorted(self.kitty_cards) if show_kitty else None,
        }
        # the declarer's own marriages while it gives and fixes the contract, in marriage order
        # (what they are worth is the rules', not the page's to know)
        if declarer is not None and viewer == declarer and self.phase in ("kitty", "contract"):
            hand = self.hands[declarer]
            view["marriages_held"] = [{"suit": suit, "points": MARRIAGE_POINTS[suit]}
                                      for suit in MARRIAGE_ORDER
                                      if "K" + suit in hand and "Q" + suit in hand]
        return view


class BigMariage(Game):
    name = "big_mariage"
    title = "Big Mariage"
    teams = True
    deal_type = BigMariageDeal
    options = {
        "target": Option(1000, positive_integer,
                         "the match ends after a deal when a team has this many points or more"),
        "marriages": Option("declared", lambda v: v in ("declared", "trump_only"),
                            "declared: every marriage in hand scores after the contract; "
                            "trump_only: a marriage scores only when it calls trumps"),
    }

    def shuffle(self, rng: random.Random) -> tuple[list[str], list[int]]:
        """A shuffled pack and a random kitty: four indices, none 0 or 31, no two consecutive."""
        deck, _ = super().shuffle(rng)
        rnd = rng.random
        # Four distinct picks from 1..27, sorted, spread by 0,1,2,3: uniform over valid kitties.
        picks = set()
        while len(picks) < KITTY_SIZE:
            picks.add(1 + int(rnd() * 27))
        a, b, c, d = sorted(picks)
        return deck, [a, b + 1, c + 2, d + 3]

    def check_kitty(self, kitty) -> None:
        if not isinstance(kitty, list) or len(kitty) != KITTY_SIZE or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in kitty):
            raise BadDeal("kitty_shape", count=KITTY_SIZE)
        if len(set(kitty)) != KITTY_SIZE:
            raise BadDeal("kitty_repeats")
        last = len(self.pack) - 1
        for i in kitty:
            if not 0 < i < last:
                raise BadDeal("kitty_position", position=i, last=last)
        ordered = sorted(kitty)
        for a, b in zip(ordered, ordered[1:], strict=False):
            if b == a + 1:
                raise BadDeal("kitty_consecutive", position=a, next_position=b)

    def winners(self, totals: list[int], options: dict) -> list[int] | None:
        target = options["target"]
        if max(totals) >= target and totals[0] != totals[1]:
            return [0 if totals[0] > totals[1] else 1]
        return None

