"""The shared trick-taking core: a deal's life cycle, tricks, and the match around the deals.

A game module supplies a :class:`Game` (seats, pack, options, match end) and a :class:`Deal`
subclass (its phases). Everything that is the same in the three games lives here once.
"""

from __future__ import annotations

import itertools
import operator
import random
import secrets
from dataclasses import dataclass
from typing import Callable, ClassVar, Final, Iterable, Literal

from . import actions
from .actions import Action
from .cards import Pack
from .errors import BadDeal, BadOptions, IllegalAction, NotYourTurn

#: The viewer of a view that shows every hand: for finished matches and replays only.
EVERYONE: Final = "everyone"

#: Who looks at a view: a seat (from 0), None for a spectator, or :data:`EVERYONE`.
Viewer = int | None | Literal["everyone"]

#: A finished trick: its cards as played (the leader's first, then clockwise), its leader and
#: its winner.
FinishedTrick = tuple[list[str], int, int]


class Deal:
    """One deal, from the dealt pack to its scores. Subclasses implement one game's phases.

    Contract for subclasses: ``handlers`` maps each action type of ``schema`` to the method that
    applies it. A handler, ``handler(deal, seat, action)``, receives an action already checked
    against ``schema`` from a seat in ``to_act()``; it must check everything else (the phase
    first) *before* changing anything and raise :class:`IllegalAction` if the rules forbid the
    action, so a refused action changes nothing.
    """

    schema: ClassVar[actions.Schema]
    handlers: ClassVar[dict[str, Callable[[Deal, int, dict], None]]]
    seats: ClassVar[int]

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "schema" in cls.__dict__ or "handlers" in cls.__dict__:
            if set(cls.handlers) != set(cls.schema.kinds):
                raise TypeError(f"{cls.__name__}: handlers and schema name different actions")

    def __init__(self, options: dict, dealer: int, deck: list[str], kitty=None):
        self.options = options
        self.dealer = dealer
        self.deck = list(deck)
        self.kitty = kitty
        # Who acted and what, in two parallel lists rather than one of (seat, action) pairs: a
        # play is a shared Action and a seat an int, so a log entry then allocates no object the
        # garbage collector tracks (a server holding a thousand deals collected 25K such pairs
        # in each young collection).
        self._actors: list[int] = []
        self._actions: list[Action] = []
        self.over = False
        #: A shortcut of ``to_act``: when not None, the one seat to act (None: ask ``to_act``).
        self.turn: int | None = None

    #: The attributes that change in place during a deal, which a :meth:`copy` must not share
    #: with its original: lists, sets and dicts (each subclass adds its own).
    changing: ClassVar[tuple[str, ...]] = ("_actors", "_actions")
    #: Likewise, lists of such containers (a hand per seat...): each inner one is copied too.
    changing_per_seat: ClassVar[tuple[str, ...]] = ()

    def copy(self) -> Deal:
        """An independent copy of the deal, cheap enough for search to make thousands a second:
        what changes in place is copied (see :attr:`changing`), the rest (cards, tuples, the
        deck and options, which no rule changes) is shared."""
        clone = object.__new__(type(self))
        state = clone.__dict__
        state.update(self.__dict__)
        for name in self.changing:
            state[name] = state[name].copy()
        for name in self.changing_per_seat:
            state[name] = [inner.copy() for inner in state[name]]
        return clone

    # -- what each game implements -------------------------------------------------------------

    def to_act(self) -> list[int]:
        """Seats whose action is awaited, clockwise from the dealer's left."""
        raise NotImplementedError

    def moves(self, seat: int) -> dict:
        """What ``seat`` may do now, compactly (see :func:`expand_moves`); ``{}`` if nothing."""
        raise NotImplementedError

    def view(self, viewer: Viewer) -> dict:
        """What ``viewer`` may know (``None``: a spectator; :data:`EVERYONE`: all hands open)."""
        return {**self.public_view(), **self.private_view(viewer)}

    def public_view(self) -> dict:
        """The part of every view that is the same for all viewers: nothing hidden."""
        raise NotImplementedError

    def private_view(self, viewer: Viewer) -> dict:
        """The part of ``viewer``'s view that depends on who looks (hands, passed cards...)."""
        raise NotImplementedError

    def scores(self) -> list[int]:
        """The deal's scores so far, as ``cardroom replay`` prints them (final once over)."""
        raise NotImplementedError

    def summary(self) -> dict:
        """Public details of the scoring, for the score sheet (only meaningful once over)."""
        return {}

    def redact(self, action: dict, actor: int, viewer: Viewer) -> dict:
        """The action as ``viewer`` may see it in an event stream (default: all of it)."""
        return action

    # -- shared ------------------------------------------------------------------------------------

    def apply(self, seat: int, action) -> dict:
        """Apply ``action`` for ``seat``; return its normal form, or raise an EngineError."""
        parsed = action if type(action) is Action else self.schema.parse(action)
        if seat != self.turn and seat not in self.to_act():
            raise NotYourTurn("deal_over" if self.over else "not_your_turn")
        self.handlers[parsed["type"]](self, seat, parsed)
        self._actors.append(seat)
        self._actions.append(parsed)
        return parsed

    @property
    def actions(self) -> list[tuple[int, Action]]:
        """The deal's accepted actions so far, in order, as (seat, action in normal form)."""
        return list(zip(self._actors, self._actions, strict=True))

    def legal_actions(self, seat: int) -> list[dict]:
        return expand_moves(self.moves(seat))

    def clockwise_from(self, first: int) -> list[int]:
        seats = self.seats
        first %= seats
        return [*range(first, seats), *range(first)]


class TrickDeal(Deal):
    """A deal played in tricks: the current trick, who leads, what each seat has captured."""

    pack: ClassVar[Pack]
    changing = (*Deal.changing, "trick", "tricks_won", "finished")
    changing_per_seat = ("hands", "captured")

    def __init__(self, options, dealer, deck, kitty=None):
        super().__init__(options, dealer, deck, kitty)
        self.hands: list[list[str]] = [[] for _ in range(self.seats)]
        #: The cards of the trick in progress as played: the leader's first, then clockwise.
        self.trick: list[str] = []
        self.leader: int | None = None
        self.captured: list[list[str]] = [[] for _ in range(self.seats)]
        self.tricks_won = [0] * self.seats
        #: The finished tricks, in order.
        self.finished: list[FinishedTrick] = []
        self.trump: str | None = None

    def restore_tricks(self, view: dict, hands: list[list[str]]) -> None:
        """Set the trick play as a view of the deal shows it (:meth:`trick_view`'s fields) and
        the hands to ``hands``: the shared part of every game's ``from_view``."""
        self.hands = [list(hand) for hand in hands]
        self.finished = [(list(cards), leader, winner)
                         for leader, winner, cards in view["past_tricks"]]
        self.captured = [[] for _ in range(self.seats)]
        for cards, _, winner in self.finished:
            self.captured[winner] += cards
        self.tricks_won = list(view["tricks_won"])
        self.trick = [card for _, card in view["trick"]]
        self.leader, self.turn, self.trump = view["leader"], view["turn"], view["trump"]

    def check_every_card_once(self, *elsewhere: str) -> None:
        """Refuse (ValueError) a deal built by ``from_view`` whose hands, tricks and the cards
        ``elsewhere`` (a stock, a kitty) do not hold every card of the pack exactly once: a
        bug of the caller, not a refusal of the rules."""
        cards = [*elsewhere, *self.trick]
        for hand, won in zip(self.hands, self.captured):
            cards += hand
            cards += won
        if not self.pack.is_permutation(cards):
            raise ValueError("a determinization must place every card exactly once")

    def require_in_hand(self, seat: int, card: str) -> None:
        """Refuse ``card`` if ``seat`` does not hold it."""
        if card not in self.hands[seat]:
            raise not_in_hand(card)

    def play_card(self, seat: int, card: str) -> FinishedTrick | None:
        """The step every play to a trick shares, once the game has found the card legal (a
        card the seat does not hold is refused here, before anything changes): ``card`` goes
        from ``seat``'s hand to the trick. If that completes the trick, its winner takes it and
        leads next, and the trick is returned as ``(cards, leader, winner)``; else the turn
        passes to the left and None is returned."""
        try:
            self.hands[seat].remove(card)
        except ValueError:
            raise not_in_hand(card) from None
        trick = self.trick
        trick.append(card)
        seats = self.seats
        if len(trick) < seats:
            self.turn = (seat + 1) % seats
            return None
        leader = self.leader
        winner = (leader + trick_winner(trick, self.trump, self.pack.strength)) % seats
        self.captured[winner] += trick
        self.tricks_won[winner] += 1
        self.trick = []  # the finished trick's list is kept as it is, in finished
        self.leader = self.turn = winner
        # A plain tuple: a NamedTuple's __new__ is Python code, and cost 4% of a random deal.
        done = (trick, leader, winner)
        self.finished.append(done)
        return done

    def plays(self, trick: list[str], leader: int) -> list[list]:
        """``[[seat, card], ...]``: who played each card of ``trick``, led by ``leader``."""
        seats = self.seats
        return [[(leader + i) % seats, card] for i, card in enumerate(trick)]

    @property
    def last_trick(self) -> dict | None:
        """The last finished trick, ``{"cards": [[seat, card], ...], "winner": seat}``."""
        if not self.finished:
            return None
        cards, leader, winner = self.finished[-1]
        return {"cards": self.plays(cards, leader), "winner": winner}

    def past_tricks(self) -> list[list]:
        """``[[leader, winner, cards], ...]``: the finished tricks, public to all, each with its
        cards as played (the leader's first). Search needs them: who played what shows which
        suits a seat lacks. Compact, as views go to every connection on every action."""
        return [[leader, winner, cards] for cards, leader, winner in self.finished]

    def trick_view(self) -> dict:
        """The public part of the trick play, the same for every viewer."""
        return {
            "trick": self.plays(self.trick, self.leader),
            "leader": self.leader,
            "turn": self.turn,
            "last_trick": self.last_trick,
            "past_tricks": self.past_tricks(),
            "tricks_won": list(self.tricks_won),
            "hand_sizes": [len(h) for h in self.hands],
            "trump": self.trump,
        }

    def hands_view(self, viewer: Viewer) -> list:
        """Each seat's hand if ``viewer`` may see it, else ``None``."""
        return [
            self.pack.sorted(h) if viewer == EVERYONE or viewer == s else None
            for s, h in enumerate(self.hands)
        ]


def beats(card: str, best: str, trump: str | None, strength: dict[str, int]) -> bool:
    """Whether ``card`` beats ``best``, the best card of a trick so far."""
    if card[1] == best[1]:
        return strength[card] > strength[best]
    return card[1] == trump


def trick_winner(trick: list[str], trump: str | None, strength: dict[str, int]) -> int:
    """The position in ``trick`` (its cards, led first) of the winning card: the highest trump,
    else the highest card of the suit led."""
    best = trick[0]
    for card in trick:
        if card[1] == best[1]:
            if strength[card] > strength[best]:
                best = card
        elif card[1] == trump:
            best = card
    return trick.index(best)


def not_in_hand(card: str) -> IllegalAction:
    """The refusal of a card the seat does not hold: every game's, made here only."""
    return IllegalAction("not_in_hand", card=card)


def expand_moves(moves: dict) -> list[dict]:
    """Every legal action named by a compact ``moves`` description.

    Shapes: ``{"play": [cards]}`` (with ``"trump": [cards]`` for leads that may call trumps),
    ``{"declare": [[cards], ...]}``, ``{"bid": [values]}``, ``{"contract": [values]}``,
    ``{"give": {"cards": [...], "to": [...]}}``, ``{"pass": {"choose": k, "from": [cards]}}``
    and ``{"draw": {}}``-style actions without fields.
    """
    result: list[dict] = []
    for kind, spec in moves.items():
        if kind == "play":
            result.extend({"type": "play", "card": c} for c in spec)
        elif kind == "trump":
            result.extend({"type": "play", "card": c, "trump": True} for c in spec)
        elif kind == "declare":
            result.extend({"type": "declare", "cards": list(cs)} for cs in spec)
        elif kind in ("bid", "contract"):
            result.extend({"type": kind, "value": v} for v in spec)
        elif kind == "give":
            result.extend(
                {"type": "give", "card": c, "to": t} for c in spec["cards"] for t in spec["to"]
            )
        elif isinstance(spec, dict) and "choose" in spec:
            result.extend(
                {"type": kind, "cards": list(cs)}
                for cs in itertools.combinations(spec["from"], spec["choose"])
            )
        else:
            result.append({"type": kind})
    return result


def shuffled(cards, rng: random.Random) -> list[str]:
    """``cards`` in a uniformly random order.

    Sorting by independent uniform keys is a uniform permutation, and in CPython much cheaper
    than ``random.shuffle``, which runs Python code for every card.
    """
    draw = rng.random
    return sorted(cards, key=lambda _: draw())


@dataclass(frozen=True)
class Option:
    default: object
    accepts: Callable[[object], bool]
    meaning: str


def positive_integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


class Game:
    """One game's constants: seats, pack, options, how a match ends."""

    name: str
    title: str
    deal_type: type[Deal]
    options: dict[str, Option]
    #: True when deal scores and totals are per team (two entries) rather than per seat.
    teams: bool = False
    #: True when the scores are penalties: the lowest total wins.
    lower_is_better: bool = False

    @property
    def seats(self) -> int:
        return self.deal_type.seats

    @property
    def pack(self) -> Pack:
        return self.deal_type.pack

    def check_options(self, options: dict | None) -> dict:
        """The options with defaults filled in; BadOptions for an unknown key or value."""
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise BadOptions("options_not_object")
        for key, value in options.items():
            if key not in self.options:
                raise BadOptions("unknown_option", game=self.name, option=key)
            if not self.options[key].accepts(value):
                raise BadOptions("bad_option_value", option=key, value=value)
        return {key: options.get(key, opt.default) for key, opt in self.options.items()}

    def shuffle(self, rng: random.Random) -> tuple[list[str], object]:
        """A fresh pack order (and kitty, for games that have one)."""
        return shuffled(self.pack.cards, rng), None

    def check_kitty(self, kitty) -> None:
        if kitty is not None:
            raise BadDeal("no_kitty", game=self.name)

    def winners(self, totals: list[int], options: dict) -> list[int] | None:
        """The winners once the match is over after a deal, else None."""
        raise NotImplementedError

    @property
    def score_width(self) -> int:
        return 2 if self.teams else self.seats

    def side(self, seat: int) -> int:
        """Where ``seat``'s score is in deal scores, totals and winners: its team's (partners
        sit opposite: seats 0 and 2, 1 and 3) or its own."""
        return seat % 2 if self.teams else seat


class Match:
    """A match: deals one after another until the game's target ends it.

    The match never deals by itself: :meth:`start_deal` is called with a given pack (replays,
    tests) or without one (a fresh, cryptographically secure shuffle).
    """

    def __init__(self, game: Game, options: dict | None = None):
        self.game = game
        self.options = game.check_options(options)
        self.deals: list[Deal] = []
        #: The deal in progress, if any.
        self.current: Deal | None = None
        self.totals = [0] * game.score_width
        self.winners: list[int] = []
        self.finished = False
        #: The score sheet's lines of the finished deals, which never change (see score_sheet).
        self._sheet: list[dict] = []

    # -- dealing -----------------------------------------------------------------------------------

    def next_dealer(self) -> int | None:
        """The seat that must deal next (None before the first deal: any seat may)."""
        return (self.deals[-1].dealer + 1) % self.game.seats if self.deals else None

    def start_deal(self, deck=None, dealer: int | None = None, kitty=None,
                   rng: random.Random | None = None) -> Deal:
        if self.finished:
            raise BadDeal("match_over")
        if self.current is not None:
            raise BadDeal("deal_in_progress")
        expected = self.next_dealer()
        if dealer is None:
            rng_ = rng or secrets.SystemRandom()
            dealer = expected if expected is not None else rng_.randrange(self.game.seats)
        if not isinstance(dealer, int) or isinstance(dealer, bool) \
                or not 0 <= dealer < self.game.seats:
            raise BadDeal("no_dealer_seat", value=dealer)
        if expected is not None and dealer != expected:
            raise BadDeal("wrong_dealer", seat=expected, named_seat=dealer)
        if deck is None:  # a fresh shuffle: a whole pack and a valid kitty by construction
            deck, kitty = self.game.shuffle(rng or secrets.SystemRandom())
        else:
            if not isinstance(deck, list) or not self.game.pack.is_permutation(deck):
                raise BadDeal("bad_pack")
            self.game.check_kitty(kitty)
        deal = self.game.deal_type(self.options, dealer, deck, kitty)
        self.deals.append(deal)
        self.current = None if deal.over else deal
        return deal

    # -- playing -----------------------------------------------------------------------------------

    def apply(self, seat: int, action) -> dict:
        """Apply one action of the deal in progress; return its normal form."""
        deal = self.current
        if deal is None:
            raise NotYourTurn("match_over" if self.finished else "no_deal")
        parsed = deal.apply(seat, action)
        if deal.over:
            self._close_deal(deal)
        return parsed

    def _close_deal(self, deal: Deal) -> None:
        self.current = None
        self.totals[:] = map(operator.add, self.totals, deal.scores())
        winners = self.game.winners(self.totals, self.options)
        if winners is not None:
            self.finished, self.winners = True, sorted(winners)

    def to_act(self) -> list[int]:
        deal = self.current
        if deal is None:
            return []
        turn = deal.turn
        return [turn] if turn is not None else deal.to_act()

    def moves(self, seat: int) -> dict:
        deal = self.current
        return deal.moves(seat) if deal else {}

    def legal_actions(self, seat: int) -> list[dict]:
        return expand_moves(self.moves(seat))

    def deal_scores(self) -> list[list[int]]:
        return [deal.scores() for deal in self.deals]

    def next(self) -> dict | None:
        """The deal index and seat whose action is awaited, as ``cardroom replay`` prints it."""
        if self.finished:
            return None
        deal = self.current
        if deal is not None:
            return {"deal": len(self.deals) - 1, "seat": deal.to_act()[0]}
        dealer = self.next_dealer()
        seat = None if dealer is None else (dealer + 1) % self.game.seats
        return {"deal": len(self.deals), "seat": seat}

    # -- seeing ------------------------------------------------------------------------------------

    def view(self, viewer: Viewer = None) -> dict:
        """Everything ``viewer`` may know of the match (a seat; ``None``: a spectator).

        :data:`EVERYONE` opens every hand and is for finished matches only: the caller decides.
        """
        return self.views([viewer])[0]

    def score_sheet(self) -> list[dict]:
        """A line per deal: its dealer, scores and, once over, summary. A finished deal's line
        is worked out once (every view holds the sheet: late in a long match, summing up the
        past deals again had cost more than the rest of a view); treat the lines as read-only."""
        sheet = self._sheet
        while len(sheet) < len(self.deals) and self.deals[len(sheet)].over:
            deal = self.deals[len(sheet)]
            sheet.append({"dealer": deal.dealer, "scores": deal.scores(), "over": True,
                          "summary": deal.summary()})
        return sheet + [{"dealer": d.dealer, "scores": d.scores(), "over": False, "summary": None}
                        for d in self.deals[len(sheet):]]

    def views(self, viewers: Iterable[Viewer]) -> list[dict]:
        """``view(viewer)`` for each of ``viewers``. What every viewer may know is worked out once
        and shared by the views (telling a table an action needs one view per seat): read
        them, do not change them."""
        last = self.deals[-1] if self.deals else None
        public = {
            "game": self.game.name,
            "options": dict(self.options),
            "seats": self.game.seats,
            "teams": self.game.teams,
            "totals": list(self.totals),
            "deals": self.score_sheet(),
            "finished": self.finished,
            "winners": list(self.winners),
            "to_act": self.to_act(),
        }
        deal = last.public_view() if last else None
        return [{
            **public,
            "seat": viewer if viewer != EVERYONE else None,
            "moves": self.moves(viewer) if isinstance(viewer, int) else {},
            "deal": {**deal, **last.private_view(viewer)} if last else None,
        } for viewer in viewers]
