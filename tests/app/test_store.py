"""Store.write: writes waiting together share one commit, and one that fails fails alone."""

from __future__ import annotations

import asyncio
import os
import secrets
import sqlite3
import struct
import threading
from contextlib import asynccontextmanager
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select

from app.storage import store as store_module
from app.storage.models import DealRow, Room, RoomEvent
from app.storage.store import Conflict, Store


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
    """The commits of the store's connections for statement-only writes, and the SQL sent in
    them (the hot path bypasses SQLAlchemy's execution events): SQLite's executemany calls on
    its DBAPI connection, PostgreSQL's queries on the event loop's connection (each one a
    transaction, in autocommit)."""

    def __init__(self, store: Store, monkeypatch):
        self.commits, self.statements = [], []
        if store.sqlite:
            checkout = store.engine.raw_connection
            monkeypatch.setattr(store.engine, "raw_connection",
                                lambda: _Counted(checkout(), self))
        else:
            take = store._cursor_on_loop

            async def counted():
                return _CountedOnLoop(await take(), self)

            monkeypatch.setattr(store, "_cursor_on_loop", counted)


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


class _CountedOnLoop:
    """The cursor of PostgreSQL's connection on the event loop: each query it runs is one
    transaction (autocommit); a PREPARE stores nothing."""

    def __init__(self, cursor, calls: DatabaseCalls):
        self._cursor, self._calls = cursor, calls

    def __getattr__(self, name):
        return getattr(self._cursor, name)

    async def execute(self, sql):
        if not sql.startswith("PREPARE"):
            self._calls.commits.append(1)
        self._calls.statements.append(sql)
        return await self._cursor.execute(sql)


class Transactions:
    """The event numbers each transaction of the actions' hot path stored, in order: one list
    per statement-only transaction (committed or refused whole)."""

    def __init__(self, store: Store, monkeypatch):
        self.stored: list[list[int]] = []
        run = store._stored

        async def counted(statements):
            self.stored.append([parameters["seq"] for _, parameters in statements])
            return await run(statements)

        monkeypatch.setattr(store, "_stored", counted)


@asynccontextmanager
async def writer_held(store: Store):
    """PostgreSQL: a write with work of its own (made in its own thread) holds the writes
    until the block ends, so that those asked meanwhile all wait together, as they do under
    load (else how many wait together depends on PostgreSQL's speed). SQLite writes
    synchronously, at the end of the loop's turn: nothing to hold."""
    if store.sqlite:
        yield
        return
    started, release = threading.Event(), threading.Event()

    def hold(session):
        started.set()
        release.wait(120)

    holding = asyncio.ensure_future(store.write(hold))
    assert await asyncio.to_thread(started.wait, 120)
    try:
        yield
    finally:
        release.set()
        await holding


async def test_waiting_writes_share_a_commit_and_a_failing_one_fails_alone(database_url,
                                                                          monkeypatch):
    store = Store(database_url)
    try:
        room_id = store.transact(new_room)
        calls = DatabaseCalls(store, monkeypatch)
        transactions = Transactions(store, monkeypatch).stored

        async with writer_held(store):
            writes = asyncio.gather(*(stored_event(store, room_id, seq) for seq in range(1, 11)))
            await asyncio.sleep(0)  # all ten asked
        assert await writes == list(range(1, 11))
        # one transaction for the ten, one commit, one executemany (PostgreSQL: one query)
        assert transactions == [list(range(1, 11))]
        assert len(calls.commits) == 1
        assert len([sql for sql in calls.statements if not sql.startswith("PREPARE")]) == 1

        async with writer_held(store):
            writes = asyncio.gather(*(stored_event(store, room_id, seq) for seq in (11, 5, 12)),
                                    return_exceptions=True)
            await asyncio.sleep(0)
        results = await writes
        assert results[0] == 11 and results[2] == 12
        assert isinstance(results[1], Conflict)  # event 5 exists: only that write is refused
        # tried together, then each alone
        assert transactions[1:] == [[11, 5, 12], [11], [5], [12]]

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
        await asyncio.sleep(0)  # asked
        waiter.cancel()
        # writes are stored and told in the order they were asked: once a later one is back,
        # the cancelled one has been stored and told
        await store.write(None, statements=[event_row(room_id, 3)])
        assert seen == ["committed", "resumed", "stored without a waiter"]

        with pytest.raises(Conflict):  # nothing stored: nothing told
            await store.write(None, statements=[event_row(room_id, 2)],
                              on_commit=lambda result: seen.append("wrong"))
        assert "wrong" not in seen
    finally:
        store.close()


class LoopClock:
    """The event loop's own clock (``loop.time()``), standing still until the test moves it.
    The store reads it for when its last commit began, and waits for the interval with
    ``loop.call_later``, which is on this clock too: a commit that waits is made in the first
    turn of the loop after the test has moved the clock far enough, never before."""

    def __init__(self, loop, monkeypatch):
        self.now = 0.0
        monkeypatch.setattr(loop, "time", lambda: self.now)

    def advance(self, seconds: float) -> None:
        self.now += seconds


async def committed(writes) -> bool:
    """Whether ``writes`` (tasks) are all committed and back within a few turns of the event
    loop: at once, without waiting for any time to pass."""
    for _ in range(20):
        if all(write.done() for write in writes):
            break
        await asyncio.sleep(0)
    return all(write.done() for write in writes)


async def test_sqlite_commits_at_once_when_quiet_and_groups_writes_when_busy(sqlite_url,
                                                                             monkeypatch):
    store = Store(sqlite_url)
    try:
        room_id = store.transact(new_room)
        stored = Transactions(store, monkeypatch).stored
        clock = LoopClock(asyncio.get_running_loop(), monkeypatch)
        interval = store_module.COMMIT_INTERVAL

        def ask(*seqs) -> list:
            return [asyncio.ensure_future(stored_event(store, room_id, seq)) for seq in seqs]

        # Writes that come one at a time are committed at once, however close together (the
        # clock does not move).
        for seq in (1, 2, 3):
            assert await committed(ask(seq))
        # Two that come together share a commit, still at once ...
        assert await committed(ask(4, 5))
        assert stored == [[1], [2], [3], [4, 5]]

        # ... and from then on the next commit waits for the interval from the last one's
        # start, for all asked meanwhile.
        began = clock.now
        writes = ask(6)
        assert not await committed(writes)
        clock.advance(interval / 2)
        writes += ask(7)
        assert not await committed(writes)
        clock.now = began + interval * 0.99
        assert not await committed(writes)
        clock.now = began + interval
        assert await committed(writes)
        assert [write.result() for write in writes] == [6, 7] and stored[-1] == [6, 7]

        # One commit storing a single write does not end the grouping (under steady load that
        # happens now and then); two in a row do.
        for seq, waits in ((8, True), (9, True), (10, False)):
            write = ask(seq)
            if waits:
                assert not await committed(write), seq
                clock.advance(interval)
            assert await committed(write), seq
        assert stored == [[1], [2], [3], [4, 5], [6, 7], [8], [9], [10]]
    finally:
        store.close()


async def test_deals_dealt_together_at_several_tables_share_one_commit(sqlite_url,
                                                                       monkeypatch):
    """A new deal is stored with statements only, as an action is: deals that begin together
    (at many tables, right after their last tricks) share a group commit instead of taking a
    transaction each (with 1,000 tables whose deals ended in the same second, that had made
    actions up to a second late)."""
    from app.rooms import RoomRegistry
    from app.settings import Settings
    from app.storage.repository import RoomRepository

    store = Store(sqlite_url)
    settings = Settings(database_url=sqlite_url, bot_delay=0, deal_pause=3600)
    registry = RoomRegistry(settings, RoomRepository(store))
    try:
        rooms = []
        for _ in range(4):
            room = await registry.create("marjolet", {}, [("open", None)] * 2, None)
            for seat in (0, 1):
                await room.join(f"p{seat}", seat)
            match = room.state.match
            while match.current is not None:  # the first deal, to its end
                seat = match.to_act()[0]
                await room.act(seat, match.legal_actions(seat)[0])
            rooms.append(room)
        transactions, commits = [], []
        monkeypatch.setattr(store, "transact", lambda *args: transactions.append(args))
        run = store.store_statements
        monkeypatch.setattr(store, "store_statements",
                            lambda statements: commits.append(statements) or run(statements))

        await asyncio.gather(*(room.deal() for room in rooms))
        assert transactions == [] and len(commits) == 1
        assert [len(room.state.match.deals) for room in rooms] == [2] * 4
        with store.sessions() as session:
            stored = session.execute(select(DealRow.match_id, DealRow.deck)
                                     .where(DealRow.index == 1)).all()
        assert sorted((m, list(deck)) for m, deck in stored) \
            == sorted((room.state.match_id, list(room.state.match.current.deck)) for room in rooms)
    finally:
        await registry.close()
        store.close()


class CheckpointClock:
    """What the checkpoint thread waits on between two passes (``Store._closing``, waited on
    for CHECKPOINT_EVERY): here a pass comes each time the test says so, not each second."""

    def __init__(self):
        self._state = threading.Condition()
        self._ticks = 0
        self._closing = False
        self._waiting = False
        self.passes = 0  # passes begun

    def wait(self, timeout=None) -> bool:
        """The thread, between two passes: True when the store closes."""
        with self._state:
            self._waiting = True
            self._state.notify_all()
            self._state.wait_for(lambda: self._ticks or self._closing)
            self._waiting = False
            if self._closing:
                return True
            self._ticks -= 1
            self.passes += 1
            return False

    def set(self) -> None:  # Store.close
        with self._state:
            self._closing = True
            self._state.notify_all()

    def one_pass(self) -> None:
        """Run one pass of the thread and wait until it is over (the thread waits again)."""
        with self._state:
            assert self._state.wait_for(lambda: self._waiting, 120)
            passes = self.passes
            self._ticks += 1
            self._state.notify_all()
            assert self._state.wait_for(lambda: self.passes > passes and self._waiting, 120)


def wal_restarts(wal: str) -> int:
    """How many times the SQLite WAL has started over: its header's checkpoint sequence
    number, which each restart increments."""
    with open(wal, "rb") as f:
        return struct.unpack(">I", f.read(16)[12:16])[0]


async def test_the_sqlite_wal_starts_over_under_steady_writes(sqlite_url):
    """Checkpoints must copy the WAL whole now and then, or it grows without end (a GB a minute
    at 1,000 actions/s). Under steady writes the checkpoint thread's pass never copies all of
    it (what is written while it copies is left), so the WAL would never start over; the event
    loop, the only writer, copies the rest right after its next commit. Here each pass of the
    thread is left short the same way, by a reader whose snapshot predates the last writes (a
    checkpoint copies nothing a reader may still need); the test runs the thread's passes
    itself and counts the WAL's restarts."""
    store = Store(sqlite_url)
    store._closing = clock = CheckpointClock()
    path = sqlite_url.removeprefix("sqlite:///")
    seq = 0

    async def write(count: int) -> None:
        nonlocal seq
        for _ in range(count):
            seq += 1
            await stored_event(store, room_id, seq)

    try:
        room_id = store.transact(new_room)
        await write(1)  # the checkpoint thread starts with the first write
        restarts = wal_restarts(path + "-wal")
        sizes = []
        for round_ in range(1, 6):
            await write(10)
            reader = sqlite3.connect(path, isolation_level=None)
            try:
                reader.execute("BEGIN")
                reader.execute("SELECT count(*) FROM room_events").fetchone()  # its snapshot
                await write(10)  # written after it
                await asyncio.to_thread(clock.one_pass)  # copies up to the reader's snapshot
            finally:
                reader.close()
            assert wal_restarts(path + "-wal") == restarts + round_ - 1
            await write(1)  # the commit after the pass, and the loop's copy of the rest
            await write(1)  # this one starts the WAL over
            assert wal_restarts(path + "-wal") == restarts + round_, round_
            sizes.append(os.path.getsize(path + "-wal"))
        assert clock.passes == 5
        # the file is reused from its start each round (two 4 KiB pages or more per write: a
        # WAL that never started over would grow by 90 KiB or more a round); a round may write
        # a frame more than another (a page of the index split), seen once in a full run
        frame = 4096 + 24
        assert max(sizes[1:]) - min(sizes[1:]) <= 2 * frame, sizes
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


async def test_a_writes_own_refusal_reaches_its_waiter_as_it_is_and_others_are_stored(
        database_url):
    """Work that refuses inside its transaction (a name someone holds) stores nothing of
    itself and gets its refusal back, not a storage failure; writes beside it go on."""
    from app.storage.stored import Refused

    class Taken(Refused):
        pass

    def refuse(session):
        new_room(session)  # written, then taken back with the transaction
        raise Taken("held")

    store = Store(database_url)
    try:
        room_id = store.transact(new_room)
        with store.sessions() as session:
            rooms_before = session.scalar(select(func.count()).select_from(Room))
        results = await asyncio.gather(store.write(refuse),
                                       stored_event(store, room_id, 1),
                                       return_exceptions=True)
        assert isinstance(results[0], Taken) and results[1] == 1
        with store.sessions() as session:
            assert session.scalar(select(func.count()).select_from(Room)) == rooms_before
    finally:
        store.close()


async def test_the_writer_keeps_its_connection_and_replaces_one_that_broke(database_url,
                                                                           monkeypatch):
    """One connection for every commit: taken from the pool each time, a PostgreSQL
    connection cost two round trips more a commit (the pool's ping, its rollback)."""
    import psycopg

    from app.storage.stored import StorageError

    store = Store(database_url)
    try:
        room_id = store.transact(new_room)
        opened = []
        if store.sqlite:
            take = store.engine.raw_connection
            monkeypatch.setattr(store.engine, "raw_connection",
                                lambda: opened.append(1) or take())
        else:
            connect = psycopg.AsyncConnection.connect
            monkeypatch.setattr(psycopg.AsyncConnection, "connect",
                                lambda *args, **kw: opened.append(1) or connect(*args, **kw))

        def break_it() -> None:
            """What a database restart does to the writer's connection."""
            if store.sqlite:
                store._kept.dbapi_connection.close()
                return
            pid = store._on_loop[0].connection.info.backend_pid
            with store.engine.connect() as other:
                other.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")

        for seq in range(1, 6):
            await stored_event(store, room_id, seq)
        assert len(opened) == 1
        # A connection that broke fails the write it is used for; the next one is stored on
        # a new connection.
        break_it()
        opened.clear()
        with pytest.raises(StorageError):
            await stored_event(store, room_id, 6)
        assert await stored_event(store, room_id, 7) == 7 and len(opened) == 1
        if not store.sqlite:
            # One that broke while unused for a while is found out before it is used: no
            # write fails.
            break_it()
            monkeypatch.setattr(store_module, "KEEP_IDLE", 0.0)
            assert await stored_event(store, room_id, 8) == 8 and len(opened) == 2
            assert await stored_event(store, room_id, 9) == 9 and len(opened) == 2
        with store.sessions() as session:
            seqs = session.scalars(select(RoomEvent.seq).where(RoomEvent.room_id == room_id))
            assert sorted(seqs) == [1, 2, 3, 4, 5, 7] + ([] if store.sqlite else [8, 9])
    finally:
        store.close()


async def test_postgresql_commits_at_most_every_interval_while_writes_come_together(
        postgres_url, monkeypatch):
    """As on SQLite: once two writes shared a commit, the next waits for the interval from
    that commit's start, so that the writes asked meanwhile share it."""
    from app.storage.migrate import upgrade

    upgrade(postgres_url)
    monkeypatch.setattr(store_module, "COMMIT_INTERVAL", 1.0)
    store = Store(postgres_url)
    try:
        room_id = store.transact(new_room)
        stored = Transactions(store, monkeypatch).stored

        def ask(*seqs) -> list:
            return [asyncio.ensure_future(stored_event(store, room_id, seq)) for seq in seqs]

        for seq in (1, 2):  # one at a time: each at once
            await asyncio.gather(*ask(seq))
        async with writer_held(store):
            writes = ask(3, 4)
            await asyncio.sleep(0.05)
        await asyncio.gather(*writes)
        first = ask(5)
        await asyncio.sleep(0.1)
        assert not first[0].done()  # held for the interval
        await asyncio.gather(*first, *ask(6))
        assert stored == [[1], [2], [3, 4], [5, 6]]
    finally:
        store.close()


async def test_what_people_type_is_stored_as_it_is(database_url):
    """PostgreSQL's hot path sends the values inside its query text (bound by psycopg): quotes,
    backslashes, placeholders and statements in a chat line are stored as they were typed,
    and nothing else is run."""
    store = Store(database_url)
    typed = ["it's", 'say "hi"', "C:\\new\\table", "100% %s %(seq)s $$ $1", "a;\nb -- c /* d",
             "'); DELETE FROM room_events; --", "Пики ♠ 🂡", "\\x00 \\u0000"]
    try:
        room_id = store.transact(new_room)
        await store.write(None, [(STORE_EVENT, {"room_id": room_id, "seq": seq, "kind": "chat",
                                                "data": {"text": text, "seat": seq},
                                                "created": datetime.now(timezone.utc)})
                                 for seq, text in enumerate(typed, 1)])
        with store.sessions() as session:
            stored = session.scalars(select(RoomEvent.data).where(RoomEvent.room_id == room_id)
                                     .order_by(RoomEvent.seq)).all()
        assert stored == [{"text": text, "seat": seq} for seq, text in enumerate(typed, 1)]
    finally:
        store.close()


async def test_postgresql_writes_with_the_connection_options_of_the_url(postgres_url):
    """The event loop's connection is opened with what the URL says, as the pool's are (here a
    connect timeout of its own, which the store also sets when the URL does not)."""
    from app.storage.migrate import upgrade

    upgrade(postgres_url)
    store = Store(postgres_url + "&connect_timeout=3")
    try:
        room_id = store.transact(new_room)
        assert await stored_event(store, room_id, 1) == 1
        assert store._on_loop[0].connection.info.get_parameters()["connect_timeout"] == "3"
    finally:
        store.close()


async def test_postgresql_prepares_each_statement_once_a_connection(postgres_url, monkeypatch):
    """The hot path's statements are prepared on the event loop's connection the first time
    they come, then only EXECUTEd; a new connection prepares them again; one PostgreSQL will
    not prepare is sent as it is, and stored all the same."""
    from sqlalchemy import text

    from app.storage.migrate import upgrade
    from app.storage.stored import StorageError

    upgrade(postgres_url)
    store = Store(postgres_url)
    try:
        room_id = store.transact(new_room)
        calls = DatabaseCalls(store, monkeypatch)
        for seq in (1, 2, 3):
            await stored_event(store, room_id, seq)
        prepares = [sql for sql in calls.statements if sql.startswith("PREPARE")]
        assert len(prepares) == 1 and "INSERT INTO room_events" in prepares[0]
        assert all(sql.startswith("EXECUTE") for sql in calls.statements[1:])

        pid = store._on_loop[0].connection.info.backend_pid
        with store.engine.connect() as other:  # what a database restart does to it
            other.exec_driver_sql(f"SELECT pg_terminate_backend({pid})")
        with pytest.raises(StorageError):
            await stored_event(store, room_id, 4)
        calls.statements.clear()
        assert await stored_event(store, room_id, 5) == 5
        assert [sql.split()[0] for sql in calls.statements] == ["PREPARE", "EXECUTE"]

        # the type of :always ($4) cannot be told: PostgreSQL refuses to prepare it
        unpreparable = text("INSERT INTO room_events (room_id, seq, kind, data, created) "
                            "SELECT :room_id, :seq, 'chat', CAST(:data AS JSON), now() "
                            "WHERE :always IS NULL")
        for seq in (6, 7):
            await store.write(None, [(unpreparable, {"room_id": room_id, "seq": seq,
                                                     "data": '{"text": "typed"}',
                                                     "always": None})])
        assert calls.statements[-1].startswith("INSERT") and len(calls.statements) == 5
        with store.sessions() as session:
            seqs = session.scalars(select(RoomEvent.seq).where(RoomEvent.room_id == room_id))
            assert sorted(seqs) == [1, 2, 3, 5, 6, 7]
    finally:
        store.close()


def test_a_read_the_database_fails_is_a_storage_error_and_a_mistake_stays_a_mistake(
        sqlite_url, monkeypatch):
    """The repository's reads: the database away is "unreachable, try again" (StorageError),
    but a mistake in a read is not passed off as one (it had been: a 503, without its
    traceback)."""
    from sqlalchemy.exc import OperationalError

    from app.storage.stored import StorageError

    store = Store(sqlite_url)
    try:
        def away():
            raise OperationalError("SELECT 1", {}, Exception("database unreachable (test)"))
        with monkeypatch.context() as patch:
            patch.setattr(store, "sessions", away)
            with pytest.raises(StorageError):
                with store.reading():
                    pass
        with pytest.raises(KeyError):
            with store.reading() as session:
                session.scalar(select(func.count()).select_from(Room))
                {}["a mistake"]
    finally:
        store.close()
