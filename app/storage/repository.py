"""The rooms' persistence, behind named methods: the only module that knows how a room is
stored (its rows, its statements). Reads are synchronous (the rooms call them in a worker
thread); writes go through :meth:`Store.write`, which group-commits them and runs each one's
``on_commit`` at its commit, before anyone is told (docs/server.md)."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Callable

from sqlalchemy import bindparam, exists, func, select
from sqlalchemy.orm import Session

from . import players
from .history import iso
from .models import DealRow, MatchPlayer, MatchRow, Player, Room, RoomEvent, Seat, match_actions
from .store import Store
from .stored import (
    CHAT_KEEP,
    DealEnd,
    Snapshot,
    StorageError,
    StoredDeal,
    StoredEvent,
    StoredMatch,
    StoredRoom,
    StoredSeat,
    Tail,
)

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

_DEALS, _MATCHES = DealRow.__table__, MatchRow.__table__
# The statements of the actions' hot path (and of new deals), made once: Store.write groups a
# group commit's statements by identity, one executemany each. Events' rows are stamped with
# the database's clock as they are stored: a time taken and formatted in Python for each row
# had cost more than the rest of its parameters. Inserts return nothing (inline): nobody reads
# the new rows' ids.
_STORE_EVENT = RoomEvent.__table__.insert().inline().values(created=func.now())
_STORE_DEAL = _DEALS.insert().inline().values(over=False, started=func.now())
_END_DEAL = _DEALS.update().where(
    _DEALS.c.match_id == bindparam("the_match"), _DEALS.c.index == bindparam("the_deal")
).values(over=True, scores=bindparam("new_scores", type_=_DEALS.c.scores.type),
         summary=bindparam("new_summary", type_=_DEALS.c.summary.type), ended=func.now())
_SCORE_MATCH = _MATCHES.update().where(_MATCHES.c.id == bindparam("the_match")).values(
    totals=bindparam("new_totals", type_=_MATCHES.c.totals.type),
    winners=bindparam("new_winners", type_=_MATCHES.c.winners.type))
_FINISH_MATCH = _SCORE_MATCH.values(status="finished", ended=func.now())
_SEATS = MatchPlayer.__table__
_SCORE_SEAT = _SEATS.update().where(
    _SEATS.c.match_id == bindparam("the_match"), _SEATS.c.seat == bindparam("the_seat")
).values(points=_SEATS.c.points + bindparam("gain", type_=_SEATS.c.points.type),
         deals=_SEATS.c.deals + 1, won=bindparam("has_won", type_=_SEATS.c.won.type))


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


class RoomRepository:
    def __init__(self, store: Store):
        self.store = store

    # -- writing ------------------------------------------------------------------------------

    async def create_room(self, game: str, options: dict, seats: list[tuple[str, str | None]],
                          turn_timer: float | None, think_time: float | None = None) -> str:
        """A new room with ``seats`` ((kind, bot kind) each); its code."""
        def work(session):
            for _ in range(20):
                code = new_code()
                if session.scalar(select(Room.id).where(Room.code == code)) is None:
                    break
            row = Room(code=code, game=game, options=options, turn_timer=turn_timer,
                       think_time=think_time)
            session.add(row)
            session.flush()
            for i, (kind, bot) in enumerate(seats):
                session.add(Seat(room_id=row.id, seat=i, kind=kind, bot=bot, standin=False))
            return code

        return await self.store.write(work)

    async def store_action(self, room_id: int, seq: int, data: dict, client_id: str | None,
                           ended: DealEnd | None, on_commit: Callable) -> None:
        """Event ``seq``: an action (``data``), with its deal's end when it ends one."""
        statements = []
        if ended is not None:
            statements = [
                (_END_DEAL, {"the_match": ended.match_id, "the_deal": ended.deal,
                             "new_scores": ended.scores, "new_summary": ended.summary}),
                (_FINISH_MATCH if ended.finished else _SCORE_MATCH,
                 {"the_match": ended.match_id, "new_totals": ended.totals,
                  "new_winners": ended.winners}),
                *((_SCORE_SEAT, {"the_match": ended.match_id, "the_seat": seat, "gain": gain,
                                 "has_won": won})
                  for seat, (gain, won) in enumerate(zip(ended.gains, ended.won)))]
        statements.append(_event(room_id, seq, "action", data, data["match"], client_id))
        await self.store.write(None, statements, on_commit=on_commit)

    async def store_deal(self, room_id: int, seq: int, data: dict, deal: StoredDeal,
                         on_commit: Callable) -> None:
        """Event ``seq``: a new deal of match ``data["match"]``, with its pack. Statements only,
        as an action's: the deals that begin together (at many tables, a second after their
        last tricks) share a group commit; with a transaction each, 1,000 of them in the same
        second had made actions up to a second late."""
        await self.store.write(None, [
            (_STORE_DEAL, {"match_id": data["match"], "index": deal.index,
                           "dealer": deal.dealer, "deck": deal.deck, "kitty": deal.kitty}),
            _event(room_id, seq, "deal", data)], on_commit=on_commit)

    async def store_note(self, room_id: int, seq: int, kind: str, data: dict,
                         on_commit: Callable) -> None:
        """Event ``seq``, of a kind that is all in its data: a chat line, a person ready for
        the next deal."""
        await self.store.write(None, [_event(room_id, seq, kind, data)], on_commit=on_commit)

    async def start_match(self, room_id: int, seq: int, number: int, game: str, options: dict,
                          players: list[tuple[int | None, str, str | None, int]], width: int,
                          on_commit: Callable[[int], None]) -> int:
        """Event ``seq``: match ``number`` of the room starts with ``players`` ((player id,
        name, bot kind, side) by seat). ``on_commit(match id)``; returns the match id."""
        def work(session):
            row = MatchRow(room_id=room_id, number=number, game=game, options=options,
                           status="running", totals=[0] * width, winners=[],
                           bot_seats=sum(1 for _, _, bot, _ in players if bot is not None))
            session.add(row)
            session.flush()
            for seat, (player_id, name, bot, side) in enumerate(players):
                session.add(MatchPlayer(match_id=row.id, seat=seat, player_id=player_id,
                                        name=name, bot=bot, side=side))
            session.add(RoomEvent(room_id=room_id, seq=seq, kind="match",
                                  data={"match": row.id, "number": number}))
            return row.id

        return await self.store.write(work, on_commit=on_commit)

    async def take_seat(self, room_id: int, seq: int, seat: int, name: str, hashed: str,
                        data: dict, on_commit: Callable[[int], None],
                        player_id: int | None = None) -> int:
        """Event ``seq``: a person called ``name`` takes ``seat`` (its token's hash stored):
        the player ``player_id`` (by their key) or a guest of that name. ``on_commit(player
        id)``; returns the player id."""
        def work(session):
            person = session.get(Player, player_id) if player_id else players.guest(session, name)
            row = session.scalar(select(Seat).where(Seat.room_id == room_id, Seat.seat == seat))
            row.kind, row.name, row.player_id, row.token_hash = "human", name, person.id, hashed
            row.by_key, row.standin, row.bot = bool(player_id), False, None  # (a stand-in's seat)
            session.add(RoomEvent(room_id=room_id, seq=seq, kind="seat", data=data))
            return person.id

        return await self.store.write(work, on_commit=on_commit)

    async def change_seat(self, room_id: int, seq: int, seat: int, changes: dict, data: dict,
                          on_commit: Callable) -> None:
        """Event ``seq``: ``seat``'s columns change (a bot takes it, a stand-in comes or goes)."""
        def work(session):
            row = session.scalar(select(Seat).where(Seat.room_id == room_id, Seat.seat == seat))
            for key, value in changes.items():
                setattr(row, key, value)
            session.add(RoomEvent(room_id=room_id, seq=seq, kind="seat", data=data))

        await self.store.write(work, on_commit=on_commit)

    # -- reading (synchronous: from a worker thread) -----------------------------------------

    def load(self, code: str) -> Snapshot | None:
        """The room as stored. Every write stores a room event, so the snapshot is consistent
        when the last event number is the same before and after the reads (else read again)."""
        for _ in range(20):
            snap = self._load(code)
            if snap is None:
                return None
            with self.store.reading() as session:
                if _last_seq(session, snap.room.id) == snap.seq:
                    return snap
        raise StorageError(f"room {code} changes too fast to be read")

    def _load(self, code: str) -> Snapshot | None:
        with self.store.reading() as session:
            room = session.scalar(select(Room).where(Room.code == code))
            if room is None:
                return None
            seats = session.scalars(select(Seat).where(Seat.room_id == room.id)
                                    .order_by(Seat.seat))
            snap = Snapshot(room=StoredRoom(room.id, room.code, room.game, dict(room.options),
                                            room.turn_timer, iso(room.created),
                                            room.think_time),
                            seats=[_seat(row) for row in seats], seq=_last_seq(session, room.id))
            match = session.scalar(select(MatchRow).where(MatchRow.room_id == room.id)
                                   .order_by(MatchRow.number.desc()).limit(1))
            if match is not None:
                snap.match = StoredMatch(match.id, match.number, dict(match.options))
                snap.deals = [_deal(row) for row in session.scalars(
                    select(DealRow).where(DealRow.match_id == match.id).order_by(DealRow.index))]
                snap.actions = [_event_of(row) for row in session.scalars(match_actions(match))]
                snap.match_event_seq = session.scalar(
                    select(func.max(RoomEvent.seq)).where(RoomEvent.room_id == room.id,
                                                          RoomEvent.kind == "match")) or 0
            chat = session.scalars(
                select(RoomEvent).where(RoomEvent.room_id == room.id, RoomEvent.kind == "chat")
                .order_by(RoomEvent.seq.desc()).limit(CHAT_KEEP))
            snap.chat = [_event_of(row) for row in reversed(list(chat))]
            # (asks are notes, not rows of the match: a rebuilt room had forgotten them)
            dealt = session.scalar(select(func.max(RoomEvent.seq)).where(
                RoomEvent.room_id == room.id, RoomEvent.kind.in_(("deal", "match")))) or 0
            # (a seat opened since, its person gone, is asked by nobody: a friend who takes it
            # asks for themselves)
            asks = session.execute(select(RoomEvent.kind, RoomEvent.data).where(
                RoomEvent.room_id == room.id, RoomEvent.kind.in_(("ready", "seat")),
                RoomEvent.seq > dealt).order_by(RoomEvent.seq))
            ready, waiting = set(), set()
            for kind, data in asks:
                if kind == "ready":
                    (waiting if data.get("wait") else ready).add(data["seat"])
                elif data.get("seat_kind") == "open":
                    ready.discard(data["seat"])
                    waiting.discard(data["seat"])
            snap.ready, snap.waiting = sorted(ready), sorted(waiting)
            return snap

    def tail(self, room_id: int, after: int) -> Tail:
        """What a room stored after event ``after``: the events, and the rows they need to be
        applied one by one. Each event is stored in the same transaction as its rows, so rows
        read after the events are there."""
        with self.store.reading() as session:
            tail = Tail(events=[_event_of(row) for row in session.scalars(
                select(RoomEvent).where(RoomEvent.room_id == room_id, RoomEvent.seq > after)
                .order_by(RoomEvent.seq))])
            deals = {(e.data.get("match"), e.data.get("deal"))
                     for e in tail.events if e.kind == "deal"}
            for match_id in {m for m, _ in deals}:
                indexes = [d for m, d in deals if m == match_id]
                for row in session.scalars(select(DealRow).where(
                        DealRow.match_id == match_id, DealRow.index.in_(indexes))):
                    tail.deals[(row.match_id, row.index)] = _deal(row)
            if any(e.kind == "seat" for e in tail.events):
                tail.seats = [_seat(row) for row in session.scalars(
                    select(Seat).where(Seat.room_id == room_id).order_by(Seat.seat))]
            return tail

    def events(self, room_id: int, after: int, upto: int) -> list[StoredEvent]:
        """The room's events numbered ``after`` + 1 to ``upto``."""
        with self.store.reading() as session:
            return [_event_of(row) for row in session.scalars(
                select(RoomEvent).where(RoomEvent.room_id == room_id, RoomEvent.seq > after,
                                        RoomEvent.seq <= upto).order_by(RoomEvent.seq))]

    def client_action(self, room_id: int, match_id: int, seat: int,
                      client_id: str) -> dict | None:
        """The action ``seat`` stored in the match under ``client_id`` (a retry's ack)."""
        with self.store.reading() as session:
            for data in session.scalars(select(RoomEvent.data).where(
                    RoomEvent.room_id == room_id, RoomEvent.match_id == match_id,
                    RoomEvent.client_id == client_id)):
                if data["seat"] == seat:
                    return data["action"]
            return None

    def player_of_key(self, key: str) -> int | None:
        """The id of the player a key holds (None: no player has it)."""
        with self.store.reading() as session:
            player = players.by_key(session, key)
            return player.id if player is not None else None

    def playing_bot_rooms(self, since: datetime) -> int:
        """How many rooms of bots alone have a match running that stored an event after
        ``since`` (a room nobody watches pauses: it stores nothing)."""
        with self.store.reading() as session:
            return session.scalar(select(func.count()).select_from(Room).where(
                Room.id.not_in(select(Seat.room_id).where(Seat.kind != "bot")),
                Room.id.in_(select(MatchRow.room_id).where(MatchRow.status == "running")),
                exists().where(RoomEvent.room_id == Room.id, RoomEvent.created > since)))

    def codes_seating(self, player_id: int, since: datetime, most: int) -> list[str]:
        """The rooms where the player sits by their key that stored an event after ``since``,
        the ``most`` newest: the tables still in play (one a match ended at may rematch)."""
        with self.store.reading() as session:
            return list(session.scalars(
                select(Room.code).join(Seat, Seat.room_id == Room.id)
                .where(Seat.player_id == player_id, Seat.by_key.is_(True), Seat.kind == "human",
                       exists().where(RoomEvent.room_id == Room.id, RoomEvent.created > since))
                .order_by(Room.created.desc()).limit(most)))

    def player_name(self, player_id: int) -> str | None:
        with self.store.reading() as session:
            player = session.get(Player, player_id)
            return player.name if player is not None else None

    def open_room_codes(self, limit: int, open_only: bool) -> list[str]:
        """The newest rooms' codes (``open_only``: those with a free seat)."""
        with self.store.reading() as session:
            query = select(Room.code).order_by(Room.created.desc()).limit(limit)
            if open_only:
                query = query.where(Room.id.in_(select(Seat.room_id).where(Seat.kind == "open")))
            return list(session.scalars(query))


def _event(room_id: int, seq: int, kind: str, data: dict, match_id: int | None = None,
           client_id: str | None = None) -> tuple:
    return (_STORE_EVENT, {"room_id": room_id, "seq": seq, "kind": kind, "data": data,
                           "match_id": match_id, "client_id": client_id})


def _last_seq(session: Session, room_id: int) -> int:
    return session.scalar(select(func.max(RoomEvent.seq)).where(RoomEvent.room_id == room_id)) or 0


def _seat(row: Seat) -> StoredSeat:
    return StoredSeat(row.kind, row.bot, row.standin, row.name, row.player_id, row.token_hash,
                      row.by_key)


def _deal(row: DealRow) -> StoredDeal:
    return StoredDeal(row.index, row.dealer, list(row.deck),
                      list(row.kitty) if row.kitty is not None else None)


def _event_of(row: RoomEvent) -> StoredEvent:
    return StoredEvent(row.seq, row.kind, row.data, row.client_id)
