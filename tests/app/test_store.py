"""Store.write: writes waiting together share one commit, and one that fails fails alone."""

from __future__ import annotations

import asyncio
import os
import secrets
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select

from app import store as store_module
from app.models import DealRow, Room, RoomEvent
from app.store import Conflict, Store


def new_room(session) -> int:
    room = Room(code=secrets.token_hex(4).upper(), game="marjolet", options={})
    session.add(room)
    session.flush()
    return room.id


STORE_EVENT = RoomEvent.__table__.insert()


def event_row(room_id: int, seq: int) -> tuple:
    """The statement storing event ``seq``."""
    return STORE_EVENT, {"room_id": room_id, "seq": seq, "kind": "chat",
                         "data": {"text": str(seq)}, "created": datetime.now(timezone.utc)}


async def stored_event(store: Store, room_id: int, seq: int) -> int:
    """Store event ``seq`` as the actions' hot path does (a statement-only write): ``seq``."""
    await store.write(None, statements=[event_row(room_id, seq)])
    return seq


class DatabaseCalls:
    """The commits and executemany calls of the store's DBAPI connections (the hot path
    bypasses SQLAlchemy's execution events)."""

    def __init__(self, store: Store, monkeypatch):
        self.commits, self.statements = [], []
        checkout = store.engine.raw_connection
        monkeypatch.setattr(store.engine, "raw_connection",
                            lambda: _Counted(checkout(), self))


class _Counted:
    def __init__(self, connection, calls: DatabaseCalls):
        self._connection, self._calls = connection, calls

    def __getattr__(self, name):
        return getattr(self._connection, name)

    def commit(self):
        self._calls.commits.append(1)
        self._connection.commit()

    def cursor(self):
        cursor, calls = self._connection.cursor(), self._calls

        class Cursor:
            def __getattr__(self, name):
                return getattr(cursor, name)

            def executemany(self, sql, rows):
                calls.statements.append(sql)
                return cursor.executemany(sql, rows)

        return Cursor()


async def test_waiting_writes_share_a_commit_and_a_failing_one_fails_alone(database_url,
                                                                          monkeypatch):
    store = Store(database_url)
    try:
        room_id = store.transact(new_room)
        calls = DatabaseCalls(store, monkeypatch)
        commits, statements = calls.commits, calls.statements

        results = await asyncio.gather(*(stored_event(store, room_id, seq)
                                         for seq in range(1, 11)))
        assert results == list(range(1, 11))
        # SQLite: all ten in one commit, one executemany; PostgreSQL's writer thread may have
        # taken the first alone before the others were queued.
        assert len(commits) <= 2
        assert len([sql for sql in statements if sql.startswith("INSERT")]) <= 2

        results = await asyncio.gather(*(stored_event(store, room_id, seq)
                                         for seq in (11, 5, 12)), return_exceptions=True)
        assert results[0] == 11 and results[2] == 12
        assert isinstance(results[1], Conflict)  # event 5 exists: only that write is refused

        with store.sessions() as session:
            seqs = session.scalars(select(RoomEvent.seq).where(RoomEvent.room_id == room_id)
                                   .order_by(RoomEvent.seq)).all()
        assert seqs == list(range(1, 13))
    finally:
        store.close()


async def test_on_commit_runs_at_the_commit_before_the_waiter_and_even_without_one(database_url):
    store = Store(database_url)
    try:
        room_id = store.transact(new_room)
        seen = []
        await store.write(None, statements=[event_row(room_id, 1)],
                          on_commit=lambda result: seen.append("committed"))
        seen.append("resumed")
        assert seen == ["committed", "resumed"]

        # The waiting task is cancelled before the commit: what was stored is still told.
        waiter = asyncio.create_task(store.write(
            None, statements=[event_row(room_id, 2)],
            on_commit=lambda result: seen.append("stored without a waiter")))
        await asyncio.sleep(0)
        waiter.cancel()
        for _ in range(100):
            if len(seen) == 3:
                break
            await asyncio.sleep(0.01)
        assert seen[2] == "stored without a waiter"

        with pytest.raises(Conflict):  # nothing stored: nothing told
            await store.write(None, statements=[event_row(room_id, 2)],
                              on_commit=lambda result: seen.append("wrong"))
        assert "wrong" not in seen
    finally:
        store.close()


async def test_sqlite_commits_at_once_when_quiet_and_groups_writes_when_busy(sqlite_url,
                                                                             monkeypatch):
    monkeypatch.setattr(store_module, "COMMIT_INTERVAL", 0.3)
    store = Store(sqlite_url)
    try:
        room_id = store.transact(new_room)
        commits = DatabaseCalls(store, monkeypatch).commits
        loop = asyncio.get_running_loop()

        # Writes that come one at a time are committed at once, however close together.
        start = loop.time()
        for seq in (1, 2, 3):
            await stored_event(store, room_id, seq)
        assert loop.time() - start < 0.25 and len(commits) == 3

        # Two that come together share a commit, still at once ...
        start = loop.time()
        assert await asyncio.gather(*(stored_event(store, room_id, s) for s in (4, 5))) == [4, 5]
        assert loop.time() - start < 0.25 and len(commits) == 4

        # ... and from then on the next commit waits for the interval, for all asked meanwhile.
        sixth = asyncio.create_task(stored_event(store, room_id, 6))
        await asyncio.sleep(0.05)
        seventh = asyncio.create_task(stored_event(store, room_id, 7))
        assert await asyncio.gather(sixth, seventh) == [6, 7]
        assert loop.time() - start >= 0.3 and len(commits) == 5

        # One commit storing a single write does not end the grouping (under steady load that
        # happens now and then); two in a row do.
        for seq, waits in ((8, True), (9, True), (10, False)):
            start = loop.time()
            await stored_event(store, room_id, seq)
            assert (loop.time() - start >= 0.25) == waits
        assert len(commits) == 8
    finally:
        store.close()


async def test_deals_dealt_together_at_several_tables_share_one_commit(sqlite_url,
                                                                       monkeypatch):
    """A new deal is stored with statements only, as an action is: deals that begin together
    (at many tables, right after their last tricks) share a group commit instead of taking a
    transaction each (with 1,000 tables whose deals ended in the same second, that had made
    actions up to a second late)."""
    from app.rooms import RoomManager
    from app.settings import Settings

    store = Store(sqlite_url)
    settings = Settings(database_url=sqlite_url, bot_delay=0, deal_pause=3600)
    manager = RoomManager(settings, store)
    try:
        rooms = []
        for _ in range(4):
            room = await manager.create("marjolet", {}, [("open", None)] * 2, None)
            for seat in (0, 1):
                await room.join(f"p{seat}", seat)
            while room.match.current is not None:  # the first deal, to its end
                seat = room.match.to_act()[0]
                await room.act(seat, room.match.legal_actions(seat)[0])
            rooms.append(room)
        transactions, commits = [], []
        monkeypatch.setattr(store, "transact", lambda *args: transactions.append(args))
        run = store.store_statements
        monkeypatch.setattr(store, "store_statements",
                            lambda statements: commits.append(statements) or run(statements))

        await asyncio.gather(*(room._step("deal", None) for room in rooms))
        assert transactions == [] and len(commits) == 1
        assert [len(room.match.deals) for room in rooms] == [2] * 4
        with store.sessions() as session:
            stored = session.execute(select(DealRow.match_id, DealRow.deck)
                                     .where(DealRow.index == 1)).all()
        assert sorted((m, list(deck)) for m, deck in stored) \
            == sorted((room.match_id, list(room.match.current.deck)) for room in rooms)
    finally:
        await manager.close()
        store.close()


async def test_the_sqlite_wal_starts_over_under_steady_writes(sqlite_url, monkeypatch):
    """Checkpoints must copy the WAL whole now and then, or it grows without end (a GB a minute
    at 1,000 actions/s): a single background pass never catches up with steady writes. Every
    commit appends at least two 4 KiB pages (the event's and its unique index's), which a WAL
    that never started over would all hold."""
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 0.05)
    monkeypatch.setattr(store_module, "COMMIT_INTERVAL", 0)  # back to back
    store = Store(sqlite_url)
    wal = sqlite_url.removeprefix("sqlite:///") + "-wal"
    try:
        room_id = store.transact(new_room)
        loop = asyncio.get_running_loop()
        start, seq = loop.time(), 0
        while loop.time() - start < 1.0:  # about 20 checkpoints
            seq += 1
            await stored_event(store, room_id, seq)
        assert seq > 100 and os.path.getsize(wal) < seq * 4096 / 2
    finally:
        store.close()


@pytest.mark.parametrize("asked, level", [(None, 1), ("FULL", 2), ("NORMAL", 1)])
async def test_sqlite_commits_at_the_synchronous_level_the_settings_ask(sqlite_url, asked,
                                                                       level):
    """NORMAL (1) unless SQLITE_SYNCHRONOUS says FULL (2), on the connection the actions' hot
    path keeps as on the pooled ones, through the application as it starts."""
    from app.main import create_app
    from app.settings import Settings

    asking = {"sqlite_synchronous": asked} if asked else {}
    settings = Settings(database_url=sqlite_url, **asking)
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        store = app.state.store
        room_id = store.transact(new_room)
        store.store_statements([event_row(room_id, 1)])  # as the actions' hot path does
        assert store._kept.execute("PRAGMA synchronous").fetchone()[0] == level
        with store.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == level


def test_only_full_and_normal_are_synchronous_levels(monkeypatch):
    from pydantic import ValidationError

    from app.settings import Settings

    monkeypatch.setenv("SQLITE_SYNCHRONOUS", "NORMAL")
    assert Settings().sqlite_synchronous == "NORMAL"
    monkeypatch.setenv("SQLITE_SYNCHRONOUS", "OFF")
    with pytest.raises(ValidationError):
        Settings()
    with pytest.raises(ValueError):
        Store("sqlite://", synchronous="OFF")


async def test_rows_stamped_by_the_database_carry_the_time_they_were_stored(database_url):
    """The actions' hot path leaves a row's time to the database (``func.now()``): the time
    of its commit, to the millisecond on SQLite (whose CURRENT_TIMESTAMP has whole seconds),
    read back as any other datetime."""
    store = Store(database_url)
    try:
        room_id = store.transact(new_room)
        stamped = RoomEvent.__table__.insert().values(created=func.now())
        before = datetime.now(timezone.utc)
        await store.write(None, [(stamped, {"room_id": room_id, "seq": 1, "kind": "chat",
                                            "data": {"text": "hi"}})])
        after = datetime.now(timezone.utc)
        with store.sessions() as session:
            created = session.scalar(select(RoomEvent.created).where(RoomEvent.room_id == room_id))
        if created.tzinfo is None:  # SQLite keeps UTC without its zone
            created = created.replace(tzinfo=timezone.utc)
        assert before - timedelta(milliseconds=1) <= created <= after
    finally:
        store.close()
