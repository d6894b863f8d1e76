"""Marjolet (rules.md section 1): two players, 32 cards, a stock phase and an end phase.

The deal's life, as :attr:`MarjoletDeal.phase` names it:

- ``"play"``: a trick of the stock phase (tricks 1-10) is being played; the second player may
  play any card.
- ``"window"``: the winner of a stock-phase trick may declare combinations and exchange the dix
  (the 7 of trumps) for the turn-up, as often as allowed, then closes the window with ``draw``:
  the winner draws first, then the loser. After trick 10 the winner takes the last face-down
  card and the loser takes the turn-up and scores 10 for it.
- ``"end"``: tricks 11-16; the second player must follow suit and head the trick when able,
  else trump when able, else play any card.
- ``"over"``: the deal is scored.

Choices where rules.md is silent (named here and in the tests):

- A declaration needs no card that was not shown before: any set that scores and was never
  scored is accepted (the rule "each physical combination at most once" is the only limit).
- The card the dix exchange brings into the hand may be declared in the same window; the
  exchange is allowed in every window of tricks 1-10, the tenth included (the turn-up is still
  on the table until that window's ``draw``).
- Displayed cards are public: the views list them per seat until they are played or the stock
  is exhausted; every scored combination stays listed with its name and points.
- Every card played to a trick was seen face up by both players: the view lists them
  (``played``), so a bot may count cards as a careful player would.
"""

from __future__ import annotations

from typing import ClassVar

from .actions import CARD, CARDS, Schema
from .cards import SUIT_NAMES, SUITS, Pack, of_suit
from .core import Game, Option, TrickDeal, Viewer, positive_integer
from .errors import IllegalAction

PACK = Pack("ATKQJ987")
STRENGTH = PACK.strength
STOCK_TRICKS = 10
ALL_TRICKS = 16
#: The turn-up's place in the pack, after the twelve cards dealt.
TURN_UP = 12
POINT_RANKS = "AT"
#: Each card's points when captured: 10 an ace or a ten, else 0.
CARD_POINTS = {card: 10 if card[0] in POINT_RANKS else 0 for card in PACK.cards}
#: The bonus of the last trick, and of winning every end-phase trick.
LAST_TRICK_BONUS = 10
#: What the dix (the seven of trumps) scores: turned up, exchanged or played.
DIX_POINTS = 10
ALL_SIX_BONUS = 50

FOUR_OF_A_KIND = {"A": (100, "four aces"), "T": (80, "four tens"), "K": (60, "four kings"),
                  "Q": (40, "four queens")}

_TABLES: dict[tuple[str, str], dict[frozenset, tuple[list[str], str, int]]] = {}


def combination_table(trump: str, jack_queen: str) -> dict[frozenset, tuple[list[str], str, int]]:
    """Every scoring combination for these trumps and variant: card set -> (cards, name, points).

    Cached: there are only eight (trump, variant) pairs.
    """
    key = (trump, jack_queen)
    table = _TABLES.get(key)
    if table is not None:
        return table
    table = {}

    def add(cards, name, points):
        table[frozenset(cards)] = (PACK.sorted(cards), name, points)

    for rank, (points, name) in FOUR_OF_A_KIND.items():
        add([rank + s for s in SUITS], name, points)
    for s in SUITS:
        if s == trump:
            add(["K" + s, "Q" + s], "king and queen of trumps", 40)
        else:
            add(["K" + s, "Q" + s], f"marriage in {SUIT_NAMES[s]}", 20)
    add(["J" + trump, "Q" + trump], "marjolet and queen of trumps", 40)
    for s in SUITS:
        if s == trump:
            continue
        if jack_queen == "marjolet":
            add(["J" + trump, "Q" + s], f"marjolet and queen of {SUIT_NAMES[s]}", 20)
        else:
            add(["J" + s, "Q" + s], f"jack and queen of {SUIT_NAMES[s]}", 20)
    _TABLES[key] = table
    return table


def end_phase_follow(hand: list[str], led: str, trump: str) -> list[str]:
    """The cards of ``hand`` the second player of an end-phase trick may play after ``led``:
    its higher cards of the suit led if it holds any, else its cards of that suit, else its
    trumps. Empty: any card."""
    same = of_suit(hand, led[1])
    if same:
        above = STRENGTH[led]
        return [c for c in same if STRENGTH[c] > above] or same
    return of_suit(hand, trump)


class MarjoletDeal(TrickDeal):
    """One deal of Marjolet. See the module docstring for the phases and conventions."""

    seats: ClassVar[int] = 2
    pack: ClassVar[Pack] = PACK
    schema: ClassVar[Schema] = Schema({
        "play": {"card": CARD},
        "declare": {"cards": CARDS},
        "exchange": {},
        "draw": {},
    })
    changing = (*TrickDeal.changing, "end_tricks", "card_points", "points", "scored",
                "dix_points", "dix_events", "turn_up_bonus")
    changing_per_seat = (*TrickDeal.changing_per_seat, "shown", "combinations")

    def __init__(self, options, dealer, deck, kitty=None):
        super().__init__(options, dealer, deck, kitty)
        other = 1 - dealer
        deck = self.deck
        self.hands[other] = deck[0:3] + deck[6:9]
        self.hands[dealer] = deck[3:6] + deck[9:12]
        self.turn_up: str | None = deck[TURN_UP]
        self.trump = deck[TURN_UP][1]
        self.dix = "7" + self.trump
        self.table = combination_table(self.trump, options["jack_queen"])
        self.next_card = TURN_UP + 1  # index in deck of the next face-down stock card
        self.phase = "play"
        self.tricks_played = 0
        self.end_tricks = [0, 0]
        self.card_points = [0, 0]
        self.points = [0, 0]  # combinations, dix and turn-up bonuses
        self.shown: list[set[str]] = [set(), set()]
        self.scored: set[frozenset] = set()
        self.combinations: list[list[dict]] = [[], []]
        self.dix_points = [0, 0]
        self.dix_events: list[dict] = []
        self.turn_up_bonus = [0, 0]
        self.turn_up_taker: int | None = None
        self.exchanged_by: int | None = None
        self.dix_live = self.turn_up != self.dix  # may still score by being played
        self.last_trick_winner: int | None = None
        if not self.dix_live:
            self._score_dix(dealer, "turn-up")
        self.leader = self.turn = other

    @classmethod
    def from_view(cls, options: dict, view: dict, hands: list[list[str]],
                  stock: list[str]) -> MarjoletDeal:
        """The deal at the position ``view`` (a seat's view of the deal in progress) shows, with
        the cards that seat cannot see placed as chosen: ``hands``, both hands now, and
        ``stock``, the face-down stock cards in the order they will be drawn. A
        determinization, for search: it plays on and scores by the very rules of the deal it
        stands for, from here (its action log starts empty, and its summary does not name the
        dix and turn-up bonuses scored before)."""
        if view["phase"] == "over":
            raise ValueError("a finished deal has nothing left to determinize")
        turned_up = view["turned_up"]
        rest = [card for card in PACK.cards if card != turned_up and card not in stock]
        deal = cls(options, view["dealer"], rest[:TURN_UP] + [turned_up] + rest[TURN_UP:] + stock)
        deal.next_card = len(PACK) - len(stock)
        deal.restore_tricks(view, hands)
        deal.phase, deal.tricks_played = view["phase"], view["tricks_played"]
        deal.end_tricks, deal.card_points = list(view["end_tricks_won"]), list(view["card_points"])
        deal.points = [total - cards for total, cards in zip(view["scores"], view["card_points"])]
        deal.shown = [set(cards) for cards in view["declared"]]
        deal.combinations = [[dict(c, cards=list(c["cards"])) for c in combinations]
                             for combinations in view["scored_combinations"]]
        deal.scored = {frozenset(c["cards"]) for combinations in deal.combinations
                       for c in combinations}
        deal.turn_up, deal.dix_live = view["turn_up"], view["dix_live"]
        deal.exchanged_by, deal.turn_up_taker = view["exchanged_by"], view["turn_up_taken_by"]
        deal.dix_events = [dict(e) for e in view["dix"]]
        deal.dix_points = [sum(e["points"] for e in deal.dix_events if e["seat"] == seat)
                           for seat in (0, 1)]
        deal.check_every_card_once(*stock, *([deal.turn_up] if deal.turn_up else ()))
        return deal

    def arrange_stock(self, order: list[str]) -> None:
        """Put the face-down stock, which nobody has seen, in ``order`` (the same cards): for
        search, whose deals stand for any order of the stock. The deal then has a deck of its
        own (copies share theirs)."""
        drawn = self.deck[:self.next_card]
        if sorted(order) != sorted(self.deck[self.next_card:]):
            raise ValueError("arrange_stock takes the cards of the stock, in any order")
        self.deck = drawn + list(order)

    # -- turn and moves ------------------------------------------------------------------------

    def to_act(self) -> list[int]:
        return [] if self.over else [self.turn]

    def moves(self, seat: int) -> dict:
        if seat != self.turn:  # None once the deal is over
            return {}
        hand = self.hands[seat]
        phase = self.phase
        if phase == "play":  # the stock phase: any card
            return {"play": hand[:]}
        if phase == "window":
            result = {}
            declare = [cards for cards, _, _ in self.declarable(hand)]
            if declare:
                result["declare"] = declare
            if self.dix in hand:  # the turn-up is on the table in every window
                result["exchange"] = {}
            result["draw"] = {}
            return result
        return {"play": self.forced_cards(hand) or hand[:]}

    def declarable(self, hand: list[str]) -> list[tuple[list[str], str, int]]:
        """The combinations ``hand`` holds that were never scored: (cards, name, points)."""
        held, table, scored = set(hand), self.table, self.scored
        return [(list(table[key][0]), table[key][1], table[key][2])
                for key in filter(held.issuperset, table) if key not in scored]

    def forced_cards(self, hand: list[str]) -> list[str]:
        """The cards of ``hand`` the rules restrict a play to now: for the second player of an
        end-phase trick, its higher cards of the suit led if it holds any, else its cards of
        that suit, else its trumps. Empty: any card."""
        trick = self.trick
        if not trick or self.phase != "end":
            return []
        return end_phase_follow(hand, trick[0], self.trump)

    # -- applying ------------------------------------------------------------------------------

    def _play(self, seat: int, action: dict) -> None:
        if self.phase == "window":
            raise IllegalAction("draw_first")
        card = action["card"]
        if self.phase == "end":  # in the stock phase any card may be played
            forced = self.forced_cards(self.hands[seat])
            if forced and card not in forced:
                self.require_in_hand(seat, card)  # a card not held is refused as such
                led = self.trick[0][1]
                if forced[0][1] != led:
                    raise IllegalAction("must_trump", suit=self.trump)
                if card[1] == led:
                    raise IllegalAction("head_trick")
                raise IllegalAction("follow_suit", suit=led)
        done = self.play_card(seat, card)
        shown = self.shown[seat]
        if shown:
            shown.discard(card)
        if card == self.dix and self.dix_live:
            self.dix_live = False
            self._score_dix(seat, "played")
        if done is None:
            return
        (lead, follow), _, winner = done
        self.card_points[winner] += CARD_POINTS[lead] + CARD_POINTS[follow]
        self.tricks_played += 1
        if self.tricks_played <= STOCK_TRICKS:
            self.phase = "window"
        else:
            self.end_tricks[winner] += 1
            if self.tricks_played == ALL_TRICKS:
                self.last_trick_winner = winner
                self.phase = "over"
                self.over = True
                self.turn = self.leader = None

    def _declare(self, seat: int, action: dict) -> None:
        if self.phase != "window":
            raise IllegalAction("stock_out_declare" if self.phase == "end"
                                else "after_trick_declare")
        cards = action["cards"]
        for card in cards:
            self.require_in_hand(seat, card)
        key = frozenset(cards)
        entry = self.table.get(key)
        if entry is None:
            if len(cards) == 4 and all(c[0] == "J" for c in cards):
                raise IllegalAction("four_jacks")
            if (len(cards) == 2 and self.options["jack_queen"] == "same_suit"
                    and sorted(c[0] for c in cards) == ["J", "Q"]):
                raise IllegalAction("jack_same_suit")
            raise IllegalAction("no_combination")
        if key in self.scored:
            raise IllegalAction("scored_already")
        ordered, name, points = entry
        self.scored.add(key)
        self.shown[seat].update(cards)
        self.points[seat] += points
        self.combinations[seat].append({"cards": list(ordered), "name": name, "points": points})

    def _exchange(self, seat: int, action: dict) -> None:
        if self.phase != "window":
            raise IllegalAction("stock_out_exchange" if self.phase == "end"
                                else "after_trick_exchange")
        # The turn-up is on the table in every window: it leaves with the last draw, which
        # ends the windows.
        hand = self.hands[seat]
        if self.dix not in hand:
            raise IllegalAction("no_dix", card=self.dix)
        hand.remove(self.dix)
        self.shown[seat].discard(self.dix)
        hand.append(self.turn_up)
        self.turn_up = self.dix
        self.exchanged_by = seat
        self.dix_live = False
        self._score_dix(seat, "exchanged")

    def _draw(self, winner: int, action: dict) -> None:
        if self.phase != "window":
            raise IllegalAction("stock_out_draw" if self.phase == "end" else "after_trick_draw")
        loser = 1 - winner
        deck = self.deck
        if self.tricks_played < STOCK_TRICKS:
            i = self.next_card
            self.hands[winner].append(deck[i])
            self.hands[loser].append(deck[i + 1])
            self.next_card = i + 2
            self.phase = "play"
        else:
            self.hands[winner].append(deck[self.next_card])
            self.next_card += 1
            self.hands[loser].append(self.turn_up)
            self.turn_up_taker = loser
            self.turn_up = None
            self.turn_up_bonus[loser] = 10
            self.points[loser] += 10
            self.shown[0].clear()
            self.shown[1].clear()
            self.phase = "end"

    handlers = {"play": _play, "declare": _declare, "exchange": _exchange, "draw": _draw}

    def _score_dix(self, seat: int, how: str) -> None:
        self.dix_points[seat] += DIX_POINTS
        self.points[seat] += DIX_POINTS
        self.dix_events.append({"seat": seat, "how": how, "points": DIX_POINTS})

    # -- scores and views ----------------------------------------------------------------------

    def scores(self) -> list[int]:
        result = [self.points[0] + self.card_points[0], self.points[1] + self.card_points[1]]
        if self.over:
            result[self.last_trick_winner] += LAST_TRICK_BONUS
            for seat in (0, 1):
                if self.end_tricks[seat] == ALL_TRICKS - STOCK_TRICKS:
                    result[seat] += ALL_SIX_BONUS
        return result

    def summary(self) -> dict:
        totals = self.scores()
        seats = []
        for seat in (0, 1):
            last = LAST_TRICK_BONUS if self.over and self.last_trick_winner == seat else 0
            all_six = ALL_SIX_BONUS if self.over \
                and self.end_tricks[seat] == ALL_TRICKS - STOCK_TRICKS else 0
            seats.append({
                "card_points": self.card_points[seat],
                "combinations": [dict(c, cards=list(c["cards"])) for c in self.combinations[seat]],
                "combination_points": sum(c["points"] for c in self.combinations[seat]),
                "dix": self.dix_points[seat],
                "turn_up_bonus": self.turn_up_bonus[seat],
                "last_trick": last,
                "all_six": all_six,
                "total": totals[seat],
            })
        return {"trump": self.trump, "dix": [dict(e) for e in self.dix_events], "seats": seats}

    def public_view(self) -> dict:
        view = self.trick_view()
        sort = self.pack.sorted
        view.update({
            "phase": self.phase,
            "dealer": self.dealer,
            "turn_up": self.turn_up,
            "turned_up": self.deck[TURN_UP],
            "stock_count": (len(self.deck) - self.next_card) if self.turn_up is not None else 0,
            "tricks_played": self.tricks_played,
            "end_tricks_won": list(self.end_tricks),
            "declared": [sort(s) for s in self.shown],
            "scored_combinations": [[dict(c, cards=list(c["cards"])) for c in combos]
                                    for combos in self.combinations],
            "end_phase": self.phase in ("end", "over"),
            "exchanged_by": self.exchanged_by,
            "turn_up_taken_by": self.turn_up_taker,
            "dix_live": self.dix_live,
            # each 10 the dix scored: {"seat", "how": "turn-up"|"played"|"exchanged", "points"}
            "dix": [dict(e) for e in self.dix_events],
            # in the order played: a list that only grows is sent as its new cards alone
            "played": [card for cards, _, _ in self.finished for card in cards] + self.trick,
            "card_points": list(self.card_points),
            "scores": self.scores(),
        })
        return view

    def private_view(self, viewer: Viewer) -> dict:
        view = {"hands": self.hands_view(viewer)}
        if viewer == self.turn and self.phase == "window":
            # what each declaration of ``moves`` scores, for a page to say it on its button
            view["declarable"] = [{"cards": cards, "name": name, "points": points}
                                  for cards, name, points in self.declarable(self.hands[viewer])]
        return view


def _jack_queen(value) -> bool:
    return value in ("marjolet", "same_suit")


class Marjolet(Game):
    name = "marjolet"
    title = "Marjolet"
    deal_type = MarjoletDeal
    options = {
        "target": Option(500, positive_integer,
                         "points to reach; checked only between deals"),
        "jack_queen": Option("marjolet", _jack_queen,
                             "\"marjolet\": the jack of trumps pairs with any queen for 20 "
                             "(40 with the queen of trumps); \"same_suit\": a jack pairs with the "
                             "queen of its own plain suit for 20 (trump jack and queen still 40)"),
    }

    def winners(self, totals: list[int], options: dict) -> list[int] | None:
        a, b = totals
        if max(a, b) >= options["target"] and a != b:
            return [0] if a > b else [1]
        return None

