"""SQLAlchemy 2 models. The schema is created and changed only by Alembic (migrations/)."""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    Select,
    String,
    Text,
    UniqueConstraint,
    select,
)
from sqlalchemy import false as sa_false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, validates

from ..protocol import name_key


def now() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    pass


class Player(Base):
    """A name people play under. Claimed when a player key holds it (only the key's sha256
    is stored; the key itself stays in its browsers); a guest's otherwise."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    #: :func:`~app.protocol.name_key` of the name: names that read alike are one player's
    name_key: Mapped[str] = mapped_column(Text, unique=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    key_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True,
                                                 index=True)

    @validates("name")
    def _keyed(self, _, name: str) -> str:
        self.name_key = name_key(name)
        return name


class Room(Base):
    __tablename__ = "rooms"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict] = mapped_column(JSON)
    turn_timer: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: seconds its strong bots think per decision (None: the server's default)
    think_time: Mapped[float | None] = mapped_column(Float, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    #: "open", "human" or "bot"
    kind: Mapped[str] = mapped_column(String(8))
    #: the bot kind of a bot seat, or of the stand-in playing for an absent person
    bot: Mapped[str | None] = mapped_column(String(8), nullable=True)
    standin: Mapped[bool] = mapped_column(Boolean, default=False)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: sha256 of the seat token (the token itself is only ever given to its holder)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    #: taken with the player's key: their other devices sit at it too (a guest's seat is its
    #: token's alone, even once someone claims the guest's name)
    by_key: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())


class MatchRow(Base):
    __tablename__ = "matches"
    __table_args__ = (UniqueConstraint("room_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(32), index=True)
    options: Mapped[dict] = mapped_column(JSON)
    #: "running" or "finished"
    status: Mapped[str] = mapped_column(String(16), index=True)
    started: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)
    ended: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    totals: Mapped[list] = mapped_column(JSON)
    winners: Mapped[list] = mapped_column(JSON)
    #: how many seats bots play (a match against bots is counted apart from one among people)
    bot_seats: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class MatchPlayer(Base):
    """A seat of a match, and what it scored: kept up to date as each deal ends (so that
    statistics and standings add these up rather than every deal's scores)."""

    __tablename__ = "match_players"
    __table_args__ = (UniqueConstraint("match_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True,
                                                  index=True)
    name: Mapped[str] = mapped_column(String(64))
    bot: Mapped[str | None] = mapped_column(String(8), nullable=True)
    #: the seat's side (engine Game.side: its team's index, or its own), its side's points
    #: over the match's finished deals, how many, and whether the side won the finished match
    side: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    points: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    deals: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    won: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())


class DealRow(Base):
    __tablename__ = "deals"
    __table_args__ = (UniqueConstraint("match_id", "index"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"))
    index: Mapped[int] = mapped_column(Integer)
    dealer: Mapped[int] = mapped_column(Integer)
    #: the pack order: secret while the deal runs, never sent to a client of a running match
    deck: Mapped[list] = mapped_column(JSON)
    kitty: Mapped[list | None] = mapped_column(JSON, nullable=True)
    over: Mapped[bool] = mapped_column(Boolean, default=False)
    scores: Mapped[list | None] = mapped_column(JSON, nullable=True)
    summary: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    started: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    ended: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RoomEvent(Base):
    """The room's numbered event stream, and the one place actions are stored.

    An action event's ``data`` is ``{"match", "deal", "seat", "action", "deal_over",
    "match_over", "n"}`` (``n``: the action's number in its match, from 0), the action in normal
    form and raw: redacted per viewer when sent. Its ``match_id`` repeats ``data["match"]`` so
    that a match's actions can be selected (:func:`match_actions`), and ``client_id`` is the
    client's id for it (a retry is applied once; None for bots). One row per action: a second
    table of actions had cost each action a second row and a second unique index to write."""

    __tablename__ = "room_events"
    __table_args__ = (UniqueConstraint("room_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[dict] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"), nullable=True)
    client_id: Mapped[str | None] = mapped_column(String(80), nullable=True)


def match_actions(match: MatchRow) -> Select:
    """A match's action events, in order. Read through the room's unique (room, seq) index:
    a room holds few matches, and an index of their own would be written with every action."""
    return (select(RoomEvent)
            .where(RoomEvent.room_id == match.room_id, RoomEvent.kind == "action",
                   RoomEvent.match_id == match.id)
            .order_by(RoomEvent.seq))




class MatchAnalysis(Base):
    """A finished match's post-match analysis (engine/analysis.py, docs/analysis.md): asked
    for, under way in one process (``worker``, alive while ``heartbeat`` is renewed), done
    (``result``) or failed (``error``). ``deals``: the entries of the deals analysed so far,
    from which a process that takes a stale analysis over resumes."""

    __tablename__ = "match_analyses"
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    #: "queued", "running", "done" or "failed"
    status: Mapped[str] = mapped_column(String(16), index=True)
    simulations: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seed: Mapped[int] = mapped_column(Integer, default=0)
    #: decisions analysed so far, of ``total`` (0 until a process has read the record)
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    deals: Mapped[list] = mapped_column(JSON, default=list)
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    worker: Mapped[str | None] = mapped_column(String(64), nullable=True)
    heartbeat: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    requested: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
