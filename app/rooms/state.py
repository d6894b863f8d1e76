"""A room's state: a replica of what the database holds, built from a snapshot and moved on by
stored events, one at a time. Pure: no I/O, no event loop; the engine decides every rule."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, replace

from engine import GAMES, EngineError, Match, record
from engine.core import Viewer

from ..protocol import js_number
from ..storage.stored import CHAT_KEEP, Snapshot, StoredDeal, StoredEvent, StoredSeat, Tail


def token_hash(token: str) -> str:
    """What is stored of a seat token: the token itself is only ever given to its holder."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bot_name(seat: int) -> str:
    """A bot's name: its seat's, so that the bots of a table are told apart (the pages say it
    in their language)."""
    return f"Bot {seat + 1}"


@dataclass(slots=True, frozen=True)
class SeatState:
    kind: str  # open | human | bot
    bot: str | None = None  # a bot seat's kind, or the stand-in's of an absent person
    standin: bool = False
    name: str | None = None
    player_id: int | None = None
    token_hash: str | None = None
    by_key: bool = False  # taken with the player's key (models.Seat.by_key)

    @classmethod
    def of(cls, stored: StoredSeat) -> "SeatState":
        return cls(stored.kind, stored.bot, stored.standin, stored.name, stored.player_id,
                   stored.token_hash, stored.by_key)

    @property
    def played_by_bot(self) -> bool:
        return self.kind == "bot" or (self.kind == "human" and self.standin)

    def shown_name(self, seat: int) -> str | None:
        return bot_name(seat) if self.kind == "bot" else self.name

    def event(self, seat: int) -> dict:
        """The ``seat`` event that tells everyone the seat is now this."""
        return {"seat": seat, "name": self.shown_name(seat), "seat_kind": self.kind,
                "bot": self.bot if self.played_by_bot else None, "standin": self.standin}


class RoomState:
    """Seats, the event number, the chat, and the current match as the engine plays it."""

    def __init__(self, snap: Snapshot):
        room = snap.room
        self.id, self.code, self.game = room.id, room.code, room.game
        self.options = dict(room.options)
        self.turn_timer = room.turn_timer
        #: seconds the strong bots think per decision (None: the server's default)
        self.think_time = room.think_time
        self.created = room.created
        self.seats = [SeatState.of(s) for s in snap.seats]
        self.seq = snap.seq
        self.chat = [{"seq": e.seq, **e.data} for e in snap.chat]
        self.match: Match | None = None
        self.match_id: int | None = None
        self.match_number = 0
        self.match_event_seq = snap.match_event_seq
        self.action_count = 0
        #: Between deals: the seats whose people asked for the next deal; once the match is
        #: over, for a rematch (docs/protocol.md)
        self.ready: set[int] = set(snap.ready)
        #: the seats that asked for time to read the deal's summary (then ``deal_wait``, not
        #: ``deal_pause``, is its countdown), whether or not they have asked for the next since
        self.waiting: set[int] = set(snap.waiting)
        #: Per seat, the client ids of the match's actions -> the event that stored each, so
        #: that a retry is never applied twice. Plain strings and numbers: nothing per action
        #: for the garbage collector to walk.
        self.client_ids: list[dict[str, int]] = [{} for _ in self.seats]
        if snap.match is not None:
            self.match_id, self.match_number = snap.match.id, snap.match.number
            self.match = self._rebuilt(snap)

    def _rebuilt(self, snap: Snapshot) -> Match:
        """The match replayed from its stored deals and actions, as a record is replayed."""
        by_deal: dict[int, list[StoredEvent]] = {}
        for event in snap.actions:
            by_deal.setdefault(event.data["deal"], []).append(event)
        actions = [by_deal.get(deal.index, []) for deal in snap.deals]
        steps = record.positions(record.build(self.game, snap.match.options, [
            (deal.dealer, deal.deck, deal.kitty,
             [(e.data["seat"], e.data["action"]) for e in stored])
            for deal, stored in zip(snap.deals, actions)]))
        match = None
        for step in steps:
            match = step.match
            event = actions[step.deal][step.index] if step.index is not None else None
            if event is not None and event.client_id:
                self.client_ids[step.seat][event.client_id] = event.seq
        self.action_count = len(snap.actions)
        return match or Match(GAMES[self.game], snap.match.options)

    # -- what it is ---------------------------------------------------------------------------

    @property
    def status(self) -> str:
        if self.match is None:
            return "waiting"
        return "finished" if self.match.finished else "playing"

    @property
    def full(self) -> bool:
        return all(s.kind != "open" for s in self.seats)

    def seat_of_token(self, token: str) -> int | None:
        hashed = token_hash(token)
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, hashed):
                return i
        return None

    def seat_of_player(self, player_id: int) -> int | None:
        """The seat a player (known by their key) took with their key, if any (not one they
        took as a guest before the name was claimed: whoever claimed it may not be them)."""
        for i, s in enumerate(self.seats):
            if s.kind == "human" and s.by_key and s.player_id == player_id:
                return i
        return None

    def describe(self, connected: set[int], clock: dict) -> dict:
        """ROOM (docs/protocol.md): ``connected``, the seats a person is connected to (on any
        process); ``clock``, the turn timer's ``turn_left`` and ``turn_seat``."""
        game = GAMES[self.game]
        return {
            "code": self.code,
            "game": self.game,
            "options": dict(self.options),
            "seats": [
                {"seat": i, "name": s.shown_name(i), "kind": s.kind,
                 "bot": s.bot if s.played_by_bot else None, "standin": s.standin,
                 "connected": s.kind == "bot" or i in connected,
                 "team": game.side(i) if game.teams else None}
                for i, s in enumerate(self.seats)
            ],
            "status": self.status,
            "ready": sorted(self.ready),
            "waiting": sorted(self.waiting),
            "match": ({"id": self.match_id, "number": self.match_number}
                      if self.match_id is not None else None),
            "turn_timer": js_number(self.turn_timer),
            "think_time": js_number(self.think_time),
            **clock,
            "created": self.created,
        }

    def event_view(self, kind: str, data: dict, viewer: Viewer) -> dict:
        """An event as ``viewer`` may see it: actions go through the engine's ``redact``."""
        event = {"kind": kind, **data}
        if kind == "action":
            event.pop("n", None)  # the action's number in its match: the server's own bookkeeping
            for flag in ("deal_over", "match_over"):  # said when true only: most actions end
                if not event.get(flag):                 # neither, and every event carries them
                    event.pop(flag, None)
            match, deal = self.match, None
            if match is not None and data.get("match") == self.match_id \
                    and data["deal"] < len(match.deals):
                deal = match.deals[data["deal"]]
            if deal is None:  # not of the current match: show nothing that might be hidden
                event["action"] = {"type": data["action"]["type"]}
            else:
                event["action"] = deal.redact(data["action"], data["seat"], viewer)
        return event

    # -- moved on by stored events ------------------------------------------------------------

    def action_stored(self, seq: int, seat: int, client_id: str | None) -> None:
        """The action the engine applied to ``match`` was stored as event ``seq``."""
        self.seq = seq
        self.action_count += 1
        if client_id is not None:
            self.client_ids[seat][client_id] = seq

    @property
    def between_deals(self) -> bool:
        """A deal is over and the next is not dealt yet (its summary is on the table)."""
        match = self.match
        return match is not None and match.current is None and bool(match.deals) \
            and not match.finished

    def ready_said(self, seq: int, seat: int, wait: bool = False) -> None:
        self.seq = seq
        (self.waiting if wait else self.ready).add(seat)

    def match_started(self, seq: int, match_id: int, number: int) -> None:
        self.seq = seq
        self.ready, self.waiting = set(), set()
        self.match = Match(GAMES[self.game], self.options)
        self.match_id, self.match_number = match_id, number
        self.match_event_seq = seq
        self.action_count = 0
        self.client_ids = [{} for _ in self.seats]

    def deal_started(self, seq: int, deal: StoredDeal) -> None:
        """``deal`` (the pack the engine dealt, or as another process stored it) is dealt."""
        self.seq = seq
        self.ready, self.waiting = set(), set()
        if len(self.match.deals) == deal.index:  # another process's: deal it here too
            self.match.start_deal(list(deal.deck), deal.dealer, deal.kitty)

    def seat_changed(self, seq: int, seat: int, **changes) -> None:
        self.seq = seq
        self.seats[seat] = replace(self.seats[seat], **changes)
        if changes.get("kind") == "open":
            self._forget_asks(seat)

    def _forget_asks(self, seat: int) -> None:
        """A seat opened (its person gone) asks for nothing: a friend who takes it asks for
        themselves (the repository's snapshot reads it so too)."""
        self.ready.discard(seat)
        self.waiting.discard(seat)

    def chat_said(self, seq: int, data: dict) -> None:
        self.seq = seq
        self.chat.append({"seq": seq, **data})
        del self.chat[:-CHAT_KEEP]

    def apply_tail(self, tail: Tail) -> bool:
        """Apply events another process stored, in order; False at the first that does not
        fit (the caller then rebuilds the state from the database, so a half-applied tail
        never stays)."""
        for event in tail.events:
            if event.seq != self.seq + 1 or not self._apply(event, tail):
                return False
        return True

    def _apply(self, event: StoredEvent, tail: Tail) -> bool:
        kind, data, match = event.kind, event.data, self.match
        if kind == "action":
            if match is None or data.get("match") != self.match_id \
                    or data.get("n") != self.action_count \
                    or data.get("deal") != len(match.deals) - 1:
                return False
            try:
                match.apply(data["seat"], data["action"])
            except EngineError:
                return False
            self.action_stored(event.seq, data["seat"], event.client_id)
        elif kind == "deal":
            deal = tail.deals.get((data.get("match"), data.get("deal")))
            if match is None or deal is None or data["match"] != self.match_id \
                    or data["deal"] != len(match.deals):
                return False
            try:
                self.deal_started(event.seq, deal)
            except EngineError:
                return False
        elif kind == "match":
            self.match_started(event.seq, data["match"], data["number"])
        elif kind == "seat":
            if tail.seats is None or len(tail.seats) != len(self.seats):
                return False
            self.seats = [SeatState.of(s) for s in tail.seats]
            self.seq = event.seq
            if data.get("seat_kind") == "open":
                self._forget_asks(data["seat"])
        elif kind == "chat":
            self.chat_said(event.seq, data)
        elif kind == "ready":  # (for the next deal, or once the match is over for a rematch)
            if not (self.between_deals or (match is not None and match.finished)) \
                    or data.get("deal") != len(match.deals) - 1:
                return False
            self.ready_said(event.seq, data["seat"], data.get("wait", False))
        else:
            return False
        return True
