"""Match records (record.md): load, validate, replay, write.

Records are kept apart from the rules, as PGN is from a chess board: this module only feeds a
record's packs and actions to a :class:`~engine.core.Match` and reports where it breaks.
"""

from __future__ import annotations

import json

from .actions import describe
from .core import RECORD_FORMAT, Match
from .errors import EngineError
from .games import GAMES


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


def replay(record) -> Match:
    """Replay a record (a parsed JSON object) into a Match; raise RecordError where it breaks."""
    match = _new_match(record)
    deals = record.get("deals")
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    for index, entry in enumerate(deals):
        _replay_deal(match, index, entry)
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


def _replay_deal(match: Match, index: int, entry) -> None:
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
    for number, pair in enumerate(actions):
        if not (isinstance(pair, list) and len(pair) == 2):
            raise RecordError("an action must be a [seat, action] pair", index, number)
        seat, action = pair
        what = describe(action) if isinstance(action, dict) else repr(action)
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise RecordError(f"no seat {seat!r}", index, number, seat, what)
        try:
            match.apply(seat, action)
        except EngineError as error:
            raise RecordError(error.message, index, number, seat, what) from None


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


def dumps(match: Match, players: list[str] | None = None) -> str:
    return json.dumps(match.to_record(players), indent=1)
