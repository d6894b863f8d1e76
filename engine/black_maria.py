"""Black Maria (Чёрная Мария), three players: rules.md section 2.

Phases of a deal: ``"pass"`` (every seat secretly chooses three cards for its right-hand
neighbour; the cards change hands once all three have chosen), ``"play"`` (17 tricks, follow
suit if able, no trumps) and ``"over"``.
"""

from __future__ import annotations

from .actions import CARD, CARDS, Schema
from .cards import Pack, of_suit
from .core import EVERYONE, Game, Option, TrickDeal, Viewer, positive_integer
from .errors import IllegalAction

PASS_SIZE = 3
PACK = Pack("AKQJT98765432", without=("2C",))
#: Every card's penalty: 1 a heart, 13 the queen of spades, 10 the king, 7 the ace, else 0.
PENALTY = {card: 0 for card in PACK.cards} | {r + "H": 1 for r in PACK.ranks} \
    | {"QS": 13, "KS": 10, "AS": 7}


def penalty(cards) -> int:
    return sum(map(PENALTY.__getitem__, cards))


class BlackMariaDeal(TrickDeal):
    seats = 3
    pack = PACK
    schema = Schema({"pass": {"cards": CARDS}, "play": {"card": CARD}})
    changing = (*TrickDeal.changing, "passes", "to_pass", "received", "penalties")

    def __init__(self, options, dealer, deck, kitty=None):
        super().__init__(options, dealer, deck, kitty)
        for i in range(3):  # the i-th card goes to the dealer's left, then clockwise
            self.hands[(dealer + 1 + i) % 3] = deck[i::3]
        self.phase = "pass"
        self.passes: list[list[str] | None] = [None, None, None]
        #: The seats whose pass is still awaited, clockwise from the dealer's left.
        self.to_pass = self.clockwise_from(dealer + 1)
        self.received: list[list[str] | None] = [None, None, None]
        #: Each seat's penalty points so far: its captured cards', added up trick by trick.
        self.penalties = [0, 0, 0]

    @classmethod
    def from_view(cls, options: dict, view: dict, hands: list[list[str]],
                  passes: list[list[str] | None] | None = None) -> BlackMariaDeal:
        """The deal at the position ``view`` (a seat's view of the deal) shows, with the cards
        that seat cannot see placed as chosen: ``hands``, every seat's hand now, and while the
        passing lasts ``passes``, the cards each seat that has passed chose (None for the
        others). A determinization, for search: it plays on by the very rules of the deal it
        stands for, from here (its action log starts empty; what no rule needs and the view
        does not show, such as the other seats' passes once made, stays unknown: None)."""
        deal = cls(options, view["dealer"], list(PACK.cards))
        deal.restore_tricks(view, hands)
        deal.phase = view["phase"]
        if deal.phase == "pass":
            deal.passes = [list(chosen) if done else None
                           for chosen, done in zip(passes or [None] * 3, view["passed"])]
            if any(p is not None and not set(p) <= set(h) for p, h in zip(deal.passes, hands)):
                raise ValueError("a pass must come from its seat's hand")
            deal.to_pass = [s for s in deal.to_pass if not view["passed"][s]]
        else:
            deal.to_pass = []
            deal.passes = [None if p is None else list(p) for p in view["pass"]]
            deal.received = [None if r is None else list(r) for r in view["received"]]
        deal.penalties = list(view["scores"])
        deal.over = deal.phase == "over"
        deal.check_every_card_once()
        return deal

    # -- turns ---------------------------------------------------------------------------------

    def to_act(self) -> list[int]:
        if self.phase == "pass":
            return self.to_pass[:]
        if self.phase == "play":
            return [self.turn]
        return []

    def moves(self, seat: int) -> dict:
        hand = self.hands[seat]
        if self.phase == "pass":
            if self.passes[seat] is not None:
                return {}
            return {"pass": {"choose": PASS_SIZE, "from": list(hand)}}
        if seat != self.turn:
            return {}
        return {"play": self.forced_cards(hand) or hand[:]}

    def forced_cards(self, hand: list[str]) -> list[str]:
        """The cards of ``hand`` the rules restrict a play to now: those of the suit led, when
        it holds any. Empty: any card."""
        trick = self.trick
        return of_suit(hand, trick[0][1]) if trick else []

    # -- actions -------------------------------------------------------------------------------

    def _pass(self, seat: int, action: dict) -> None:
        if self.phase != "pass":
            raise IllegalAction("passing_over")
        cards = action["cards"]
        if len(cards) != PASS_SIZE:
            raise IllegalAction("pass_exactly", count=PASS_SIZE)
        for card in cards:
            self.require_in_hand(seat, card)
        self.passes[seat] = list(cards)
        self.to_pass.remove(seat)
        if not self.to_pass:
            self._exchange()

    @staticmethod
    def pass_target(seat: int) -> int:
        """The seat ``seat``'s three cards go to: its right-hand neighbour, the seat before it in
        play's order (play goes to the left)."""
        return (seat + 2) % 3

    def _exchange(self) -> None:
        """All three have chosen: each hand gives its pass to the right, takes the left's."""
        hands, passes = self.hands, self.passes
        for seat in range(3):
            for card in passes[seat]:
                hands[seat].remove(card)
        for seat in range(3):
            self.received[self.pass_target(seat)] = list(passes[seat])
        for seat in range(3):
            hands[seat].extend(self.received[seat])
        self.phase = "play"
        self.leader = self.turn = (self.dealer + 1) % 3

    def _play(self, seat: int, action: dict) -> None:
        if self.phase != "play":
            raise IllegalAction("pass_first")
        card, trick = action["card"], self.trick
        if trick and card[1] != trick[0][1]:  # only a card of another suit can be refused
            forced = self.forced_cards(self.hands[seat])
            if forced and card not in forced:
                self.require_in_hand(seat, card)  # a card not held is refused as such
                raise IllegalAction("follow_suit", suit=trick[0][1])
        done = self.play_card(seat, card)
        if done is None:
            return
        cards, _, winner = done
        self.penalties[winner] += penalty(cards)
        if not self.hands[seat]:  # every hand is as long as this one between tricks
            self.phase, self.over = "over", True
            self.turn = self.leader = None

    handlers = {"pass": _pass, "play": _play}

    # -- scores and views ----------------------------------------------------------------------

    def scores(self) -> list[int]:
        return list(self.penalties)

    def summary(self) -> dict:
        return {
            "hearts": [sum(1 for c in won if c[1] == "H") for won in self.captured],
            "spades": [[c for c in ("QS", "KS", "AS") if c in won] for won in self.captured],
            # (each of them with its penalty, so that a sheet adds up in sight)
            "spade_penalties": [[PENALTY[c] for c in ("QS", "KS", "AS") if c in won]
                                for won in self.captured],
            "tricks": list(self.tricks_won),
            "penalties": self.scores(),
        }

    def public_view(self) -> dict:
        return {
            "phase": self.phase,
            "dealer": self.dealer,
            "passed": [seat not in self.to_pass for seat in range(3)],
            "pass_to": [self.pass_target(seat) for seat in range(3)],  # (for pages to name them)
            "scores": self.scores(),
            **self.trick_view(),
        }

    def private_view(self, viewer: Viewer) -> dict:
        sees_all = viewer == EVERYONE
        return {
            "hands": self.hands_view(viewer),
            "pass": [p if sees_all or s == viewer else None for s, p in enumerate(self.passes)],
            "received": [r if sees_all or s == viewer else None
                         for s, r in enumerate(self.received)],
        }

    def redact(self, action: dict, actor: int, viewer: Viewer) -> dict:
        if action["type"] == "pass" and viewer != actor and viewer != EVERYONE:
            return {"type": "pass"}
        return action


class BlackMaria(Game):
    name = "black_maria"
    title = "Black Maria"
    lower_is_better = True
    deal_type = BlackMariaDeal
    options = {
        "target": Option(100, positive_integer,
                         "the match ends after the deal in which someone reaches this total"),
    }

    def winners(self, totals: list[int], options: dict) -> list[int] | None:
        if max(totals) < options["target"]:
            return None
        lowest = min(totals)
        return [seat for seat, total in enumerate(totals) if total == lowest]
