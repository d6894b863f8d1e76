"""Match records (record.md): write, load, validate, step through, replay.

Records are kept apart from the rules, as PGN is from a chess board: this module only feeds a
record's packs and actions to a :class:`~engine.core.Match` and reports where it breaks.
"""

from __future__ import annotations

import json
from typing import Iterable, Iterator, NamedTuple

from .actions import Action, describe
from .core import Match
from .errors import EngineError
from .games import GAMES

RECORD_FORMAT = "cardroom-record/1"


class RecordError(Exception):
    """A record that breaks a rule. ``str()`` is the one-line message of record.md."""

    def __init__(self, message: str, deal: int | None = None, action: int | None = None,
                 seat=None, what: str | None = None):
        self.message, self.deal, self.action, self.seat, self.what = \
            message, deal, action, seat, what
        super().__init__(self.line())

    def line(self) -> str:
        def dash(value):
            return "-" if value is None else str(value)

        return (f"deal {dash(self.deal)}, action {dash(self.action)}, seat {dash(self.seat)}, "
                f"{dash(self.what)}: {self.message}")


# -- writing -------------------------------------------------------------------------------------

def write(match: Match, players: list[str] | None = None) -> dict:
    """The match so far as a record (``players``: the seats' names, if the record names them)."""
    deals = [(deal.dealer, deal.deck, deal.kitty, deal.actions) for deal in match.deals]
    return build(match.game.name, match.options, deals, players)


def build(game: str, options: dict, deals: Iterable[tuple], players: list[str] | None = None
          ) -> dict:
    """A record from its stored parts: each deal as ``(dealer, deck, kitty, actions)``, with
    ``kitty`` None in games without one and ``actions`` as ``(seat, action)`` pairs in order."""
    record = {"format": RECORD_FORMAT, "game": game, "options": dict(options)}
    if players is not None:
        record["players"] = list(players)
    record["deals"] = [_deal_entry(*deal) for deal in deals]
    return record


def _deal_entry(dealer: int, deck: list[str], kitty, actions) -> dict:
    entry = {"dealer": dealer, "deck": list(deck)}
    if kitty is not None:
        entry["kitty"] = list(kitty)
    entry["actions"] = [[seat, dict(action)] for seat, action in actions]
    return entry


# -- reading -------------------------------------------------------------------------------------

class Position(NamedTuple):
    """A position of a record: a deal just dealt (``index`` None), or just after an action."""

    deal: int  # the deal's index in the record
    index: int | None  # the action's index in its deal
    seat: int | None  # who acted
    action: Action | None  # what, in normal form
    #: The match at this position: the same Match at every position, played on as the steps
    #: are taken (read it, or copy what you need, before taking the next).
    match: Match


def positions(record) -> Iterator[Position]:
    """Step through a record (a parsed JSON object): each deal's position once dealt, then
    after each action. Raise RecordError where it breaks (a bad game, options or deal list at
    once, the rest when the steps reach it)."""
    match = _new_match(record)
    return _steps(match, _deals(record))


def replay(record) -> Match:
    """Replay a record (a parsed JSON object) into a Match; raise RecordError where it breaks."""
    match = _new_match(record)
    for _ in _steps(match, _deals(record)):
        pass
    return match


def _new_match(record) -> Match:
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"format must be {RECORD_FORMAT!r}")
    game = GAMES.get(record.get("game")) if isinstance(record.get("game"), str) else None
    if game is None:
        raise RecordError(f"unknown game {record.get('game')!r}")
    players = record.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != game.seats
                                or not all(isinstance(p, str) for p in players)):
        raise RecordError(f"players must name the {game.seats} seats")
    try:
        return Match(game, record.get("options", {}))
    except EngineError as error:
        raise RecordError(error.message) from None


def _deals(record) -> list:
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    return deals


def _steps(match: Match, deals: list) -> Iterator[Position]:
    for index, entry in enumerate(deals):
        if not isinstance(entry, dict):
            raise RecordError("a deal must be an object", deal=index)
        dealer = entry.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool):
            raise RecordError(f"no dealer seat {dealer!r}", deal=index)
        try:
            match.start_deal(entry.get("deck"), dealer, entry.get("kitty"))
        except EngineError as error:
            raise RecordError(error.message, deal=index) from None
        actions = entry.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError("actions must be a list", deal=index)
        yield Position(index, None, None, None, match)
        for number, pair in enumerate(actions):
            if not (isinstance(pair, list) and len(pair) == 2):
                raise RecordError("an action must be a [seat, action] pair", index, number)
            seat, action = pair
            what = describe(action) if isinstance(action, dict) else repr(action)
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise RecordError(f"no seat {seat!r}", index, number, seat, what)
            try:
                normal = match.apply(seat, action)
            except EngineError as error:
                raise RecordError(error.message, index, number, seat, what) from None
            yield Position(index, number, seat, normal, match)


def summary(match: Match) -> dict:
    """What ``cardroom replay`` prints."""
    return {
        "game": match.game.name,
        "deal_scores": match.deal_scores(),
        "totals": list(match.totals),
        "finished": match.finished,
        "winners": list(match.winners),
        "next": match.next(),
    }


def load(text: str) -> Match:
    """Parse and replay a record's JSON text."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error}") from None
    return replay(record)
