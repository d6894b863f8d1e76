"""Everything the server reads from and writes to the database (synchronous SQLAlchemy; the
room runs these calls in a worker thread). The database is the single source of truth: a room
in memory is only a replica that can always be rebuilt with :func:`load_room`."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Callable

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from .db import make_engine, make_sessions
from .models import (ActionRow, DealRow, MatchPlayer, MatchRow, Player, Room, RoomEvent,
                     Seat)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class StorageError(Exception):
    """The database refused or failed a write: nothing of it was stored."""


class Conflict(StorageError):
    """Another writer stored the same sequence number first (a race lost)."""


@dataclass
class Snapshot:
    """A room as stored: enough to rebuild it exactly."""

    room: Room
    seats: list[Seat]
    match: MatchRow | None
    deals: list[DealRow] = field(default_factory=list)
    actions: list[ActionRow] = field(default_factory=list)
    seq: int = 0
    match_event_seq: int = 0
    chat: list[RoomEvent] = field(default_factory=list)


@dataclass
class Tail:
    """Events stored after a given number, with what applying them needs."""

    events: list[RoomEvent]
    deals: dict = field(default_factory=dict)       # (match id, deal index) -> DealRow
    client_ids: dict = field(default_factory=dict)  # (match id, action seq) -> client id
    seats: list[Seat] | None = None


class Store:
    def __init__(self, url: str):
        self.url = url
        self.engine = make_engine(url)
        self.sessions: sessionmaker = make_sessions(self.engine)
        #: Test hook: a callable raising an exception inside the next write transactions.
        self.fault: Callable[[], None] | None = None

    def close(self) -> None:
        self.engine.dispose()

    # -- writing -------------------------------------------------------------------------------

    def transact(self, work: Callable[[Session], object], core: bool = False):
        """Run ``work(session)`` in one transaction and commit; StorageError/Conflict if not.
        ``core``: ``work`` gets a bare connection (no ORM session: the hot path of actions)."""
        from sqlalchemy.exc import IntegrityError, SQLAlchemyError

        try:
            if core:
                with self.engine.begin() as connection:
                    result = work(connection)
                    if self.fault is not None:
                        self.fault()
                return result
            with self.sessions() as session:
                with session.begin():
                    result = work(session)
                    session.flush()
                    if self.fault is not None:
                        self.fault()
                return result
        except IntegrityError as error:
            raise Conflict(str(error.orig)[:200]) from error
        except (SQLAlchemyError, OSError, ConnectionError) as error:
            raise StorageError(str(error)[:200]) from error
        except Exception as error:  # a fault injected by a test, or a driver surprise
            raise StorageError(str(error)[:200]) from error

    # -- reading -------------------------------------------------------------------------------

    def room_id(self, code: str) -> int | None:
        with self.sessions() as session:
            return session.scalar(select(Room.id).where(Room.code == code))

    def load_room(self, code: str) -> Snapshot | None:
        """The room as stored. Every write stores a room event, so the snapshot is consistent
        when the last event number is the same before and after the reads (else read again)."""
        for _ in range(20):
            snap = self._load_room(code)
            if snap is None:
                return None
            with self.sessions() as session:
                last = session.scalar(select(func.max(RoomEvent.seq))
                                      .where(RoomEvent.room_id == snap.room.id)) or 0
            if last == snap.seq:
                return snap
        raise StorageError(f"room {code} changes too fast to be read")

    def _load_room(self, code: str) -> Snapshot | None:
        with self.sessions() as session:
            room = session.scalar(select(Room).where(Room.code == code))
            if room is None:
                return None
            seats = list(session.scalars(
                select(Seat).where(Seat.room_id == room.id).order_by(Seat.seat)))
            match = session.scalar(select(MatchRow).where(MatchRow.room_id == room.id)
                                   .order_by(MatchRow.number.desc()).limit(1))
            snap = Snapshot(room=room, seats=seats, match=match)
            snap.seq = session.scalar(select(func.max(RoomEvent.seq))
                                      .where(RoomEvent.room_id == room.id)) or 0
            if match is not None:
                snap.deals = list(session.scalars(
                    select(DealRow).where(DealRow.match_id == match.id).order_by(DealRow.index)))
                snap.actions = list(session.scalars(
                    select(ActionRow).where(ActionRow.match_id == match.id)
                    .order_by(ActionRow.seq)))
                snap.match_event_seq = session.scalar(
                    select(func.max(RoomEvent.seq)).where(RoomEvent.room_id == room.id,
                                                          RoomEvent.kind == "match")) or 0
            snap.chat = list(reversed(list(session.scalars(
                select(RoomEvent).where(RoomEvent.room_id == room.id, RoomEvent.kind == "chat")
                .order_by(RoomEvent.seq.desc()).limit(50)))))
            return snap

    def tail(self, room_id: int, after: int) -> "Tail":
        """What a room stored after event ``after``: the events, and the rows they need to be
        applied incrementally (the packs of new deals, the client ids of new actions, the
        seats if a seat changed). Each event is stored in the same transaction as its rows, so
        rows read after the events are there."""
        with self.sessions() as session:
            events = list(session.scalars(
                select(RoomEvent).where(RoomEvent.room_id == room_id, RoomEvent.seq > after)
                .order_by(RoomEvent.seq)))
            tail = Tail(events=events)
            if not events:
                return tail
            deal_refs = {(e.data.get("match"), e.data.get("deal"))
                         for e in events if e.kind == "deal"}
            for match_id in {m for m, _ in deal_refs}:
                indexes = [d for m, d in deal_refs if m == match_id]
                for row in session.scalars(select(DealRow).where(
                        DealRow.match_id == match_id, DealRow.index.in_(indexes))):
                    tail.deals[(row.match_id, row.index)] = row
            action_refs = [(e.data.get("match"), e.data.get("n"))
                           for e in events if e.kind == "action"]
            for match_id in {m for m, _ in action_refs}:
                first = min(n for m, n in action_refs if m == match_id and n is not None)
                for row in session.execute(select(ActionRow.seq, ActionRow.client_id).where(
                        ActionRow.match_id == match_id, ActionRow.seq >= first,
                        ActionRow.client_id.is_not(None))):
                    tail.client_ids[(match_id, row.seq)] = row.client_id
            if any(e.kind == "seat" for e in events):
                tail.seats = list(session.scalars(
                    select(Seat).where(Seat.room_id == room_id).order_by(Seat.seat)))
            return tail

    def events(self, room_id: int, after: int, upto: int) -> list[RoomEvent]:
        with self.sessions() as session:
            return list(session.scalars(
                select(RoomEvent).where(RoomEvent.room_id == room_id, RoomEvent.seq > after,
                                        RoomEvent.seq <= upto).order_by(RoomEvent.seq)))

    def player(self, session: Session, name: str) -> Player:
        player = session.scalar(select(Player).where(Player.name == name))
        if player is None:
            player = Player(name=name)
            session.add(player)
            session.flush()
        return player

    def ping(self) -> bool:
        from sqlalchemy import text

        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return True
