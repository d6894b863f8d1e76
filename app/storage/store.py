"""The database's write path: writes go one at a time and those that wait together share a
commit (:meth:`Store.write`), made by the event loop itself (SQLite's synchronously, PostgreSQL's
actions through psycopg's AsyncConnection); SQLite's WAL is checkpointed beside them. What is
written is the repository's business (app/storage/repository.py)."""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Callable

import psycopg
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from ..ops.stalls import timed
from .db import make_engine, make_sessions
from .stored import Conflict, Refused, StorageError

log = logging.getLogger("cardroom.store")

#: What a read or a write raises when the database fails it (a read outside the repository
#: raises the driver's error, as SQLAlchemy wraps it): the web side answers "unreachable, try
#: again" rather than fail.
DATABASE_FAILURES = (StorageError, DBAPIError)

#: Most writes one group commit stores together.
WRITE_BATCH = 200
#: Seconds between two SQLite WAL checkpoints (see Store.__init__).
CHECKPOINT_EVERY = 1.0
#: Shortest time from one group commit to the next while writes come together (see
#: Store.write): latency traded for CPU.
COMMIT_INTERVAL = 0.008
#: A pyformat placeholder (``%(name)s``) or an escaped percent sign, in compiled SQL.
_PYFORMAT = re.compile(r"%\(([^)]+)\)s|%%")
#: Seconds the event loop's PostgreSQL connection may stay unused before it is pinged, the next
#: time it is needed (see Store._cursor_on_loop).
KEEP_IDLE = 5.0


@dataclass(slots=True)
class _Write:
    """One write asked for: what to store, and whom to tell."""

    work: Callable | None
    statements: list
    on_commit: Callable[[object], None] | None
    future: asyncio.Future
    in_thread: bool = False

    def settle(self, outcome) -> None:
        """Once its transaction is over: ``on_commit(result)`` if it was committed (even if
        nobody waits any more: it was stored), then the future."""
        failed = isinstance(outcome, BaseException)
        if not failed and self.on_commit is not None:
            try:
                self.on_commit(outcome)
            except Exception:
                log.exception("a write's on_commit failed")
        if not self.future.cancelled():
            if failed:
                self.future.set_exception(outcome)
            else:
                self.future.set_result(outcome)


@dataclass(frozen=True, slots=True, eq=False)
class _Prepared:
    """A Core statement compiled once for a dialect and a set of parameter names: its SQL,
    the DBAPI parameters in order with each one's bind processor (JSON, dates), and the
    statement's own literal values. What SQLAlchemy works out again on every execution,
    worked out once: on the actions' hot path that work cost more than SQLite's own."""

    sql: str
    binds: tuple  # (name, bind processor or None), in the DBAPI's order
    literals: dict  # name -> value, for the binds the statement itself fills
    positional: bool

    @classmethod
    def compile(cls, statement, names, dialect) -> "_Prepared":
        compiled = statement.compile(dialect=dialect, column_keys=list(names))
        order = compiled.positiontup if compiled.positional else list(compiled.binds)
        binds = tuple((name, compiled.binds[name].type.dialect_impl(dialect)
                       .bind_processor(dialect)) for name in order)
        literals = {name: bind.value for name, bind in compiled.binds.items()
                    if not bind.required}
        return cls(compiled.string, binds, literals, compiled.positional)

    def parameters(self, given: dict):
        if self.literals:
            given = {**self.literals, **given}
        values = [given[name] if processor is None else processor(given[name])
                  for name, processor in self.binds]
        if self.positional:
            return tuple(values)
        return {name: value for (name, _), value in zip(self.binds, values)}

    def numbered(self) -> tuple[str, tuple[str, ...]]:
        """PostgreSQL: the (pyformat) SQL with numbered parameters, as PREPARE takes it, and
        the names of ``$1``, ``$2``... in order."""
        names: list[str] = []

        def number(match) -> str:
            if match.group(1) is None:
                return "%"
            if match.group(1) not in names:
                names.append(match.group(1))
            return f"${names.index(match.group(1)) + 1}"

        return _PYFORMAT.sub(number, self.sql), tuple(names)


class Store:
    def __init__(self, url: str, synchronous: str = "NORMAL"):
        self.url = url
        self.sqlite = url.startswith("sqlite")
        # SQLite: a commit that checkpoints fsyncs the whole WAL into the database (100 ms and
        # more) while holding up every write behind it; the checkpoint thread does it beside
        # the writes instead (PASSIVE: it never blocks one).
        self.engine = make_engine(url, autocheckpoint=not self.sqlite, synchronous=synchronous)
        self.sessions: sessionmaker = make_sessions(self.engine)
        #: Test hook: a callable raising an exception inside the next write transactions.
        self.fault: Callable[[], None] | None = None
        #: SQLite: the connection store_statements keeps using. Its page cache stays warm:
        #: connections taken in turn from the pool each found theirs stale (another had written
        #: since), and read the pages again (an insert cost 60% more).
        self._kept = None
        #: PostgreSQL: a cursor of the event loop's own connection (see _cursor_on_loop), the
        #: loop it belongs to and when it was last used.
        self._on_loop: tuple | None = None
        self._prepared: dict = {}  # (statement, parameter names) -> _Prepared
        #: PostgreSQL: the statements prepared on the loop's connection (see _prepare_on_loop):
        #: _Prepared -> (EXECUTE with placeholders, parameter names), or None where PREPARE
        #: failed (the statement then goes as it is).
        self._named: dict = {}
        self._pending: list[_Write] = []  # writes waiting for the next commit
        self._drain: asyncio.Task | None = None  # the task committing them (see write)
        self._last_commit = float("-inf")  # when the last commit began (the loop's clock)
        self._last_batches = (0, 0)  # how many writes it and the one before stored
        #: PostgreSQL: the thread of the ORM's transactions (see _write_batch), its own so that
        #: they never wait behind the rooms' reads in the loop's default executor.
        self._transactions: ThreadPoolExecutor | None = None
        self._threads_lock = threading.Lock()
        self._closing = threading.Event()
        self._checkpointer: threading.Thread | None = None
        #: SQLite: the checkpoint thread copied the WAL; the event loop copies the rest after
        #: its next commit, so that the WAL starts over (see _checkpoint).
        self._copy_the_rest = False

    def close(self) -> None:
        with self._threads_lock:
            if self._checkpointer is not None:
                self._closing.set()
                self._checkpointer.join()
                self._checkpointer = None
            if self._transactions is not None:
                self._transactions.shutdown()
                self._transactions = None
        if self._kept is not None:
            self._kept.close()
            self._kept = None
        self._forget_connection_on_loop()  # (AsyncConnection.close(), without its loop)
        self.engine.dispose()  # the last SQLite connection to close checkpoints what is left

    # -- writing -------------------------------------------------------------------------------

    def transact(self, work: Callable[[Session], object] | None, statements: list = ()):
        """Run ``work(session)`` and then ``statements`` (``(statement, parameters)`` pairs, as
        :meth:`store_statements` runs them) in one transaction and commit;
        StorageError/Conflict if not."""
        with self._storage_errors():
            with self.sessions() as session:
                with session.begin():
                    result = work(session) if work is not None else None
                    session.flush()
                    if statements:
                        cursor = session.connection().connection.cursor()
                        try:
                            for sql, rows in self._grouped(statements):
                                cursor.executemany(sql, rows)
                        finally:
                            cursor.close()
                    if self.fault is not None:
                        self.fault()
                return result

    def store_statements(self, statements: list) -> None:
        """Run ``statements`` in one transaction and commit, straight on a DBAPI connection
        (SQLite's hot path of actions; PostgreSQL's is :meth:`_store_on_loop`): each statement
        compiled once (:class:`_Prepared`), one executemany per statement in first-seen order
        (:meth:`_grouped`). StorageError/Conflict if not stored.
        It keeps its connection from one call to the next (the event loop is SQLite's only
        writer); one that broke (its rollback failed) is replaced."""
        with self._storage_errors():
            connection, self._kept = self._kept or self.engine.raw_connection(), None
            keep = False
            try:
                cursor = connection.cursor()
                try:
                    for sql, rows in self._grouped(statements):
                        cursor.executemany(sql, rows)
                    if self.fault is not None:
                        self.fault()
                    connection.commit()
                finally:
                    cursor.close()
                keep = True
            except BaseException:
                try:
                    connection.rollback()
                    keep = True
                except Exception:  # the connection is broken: the pool opens another
                    connection.invalidate()
                raise
            finally:
                if keep:
                    self._kept = connection
                else:
                    connection.close()

    async def _store_on_loop(self, statements: list) -> None:
        """PostgreSQL: :meth:`store_statements` made by the event loop on its own connection, in
        one round trip: the statements go as one query, which PostgreSQL runs as one
        transaction (its connection is in autocommit: a query of several statements is then
        all committed or none of it). Each is an EXECUTE of a statement prepared on that
        connection the first time it came (:meth:`_prepare_on_loop`), its values bound by
        psycopg (:meth:`_text`): PostgreSQL then parses and plans none of them again. Sent in
        pipeline mode with server-side binding, a commit had cost twice the CPU
        (docs/performance.md#writes-on-the-event-loop)."""
        with self._storage_errors():
            cursor = await self._cursor_on_loop()
            statements = [(self._prepare(statement, parameters), parameters)
                          for statement, parameters in statements]
            with self._kept_if_sound(cursor):
                await self._prepare_on_loop(cursor, [prepared for prepared, _ in statements
                                                     if prepared not in self._named])
            text = self._text(cursor, statements)
            if self.fault is not None:
                self.fault()
            with self._kept_if_sound(cursor):
                await cursor.execute(text)
            self._on_loop = (*self._on_loop[:2], time.monotonic())

    @contextmanager
    def _kept_if_sound(self, cursor):
        """Forget the loop's connection if what ran on it broke it or was cancelled while it
        waited (its state is then unknown): the next write opens another."""
        try:
            yield
        except psycopg.Error:
            if cursor.connection.broken:
                self._forget_connection_on_loop()
            raise
        except BaseException:
            self._forget_connection_on_loop()
            raise

    async def _prepare_on_loop(self, cursor, unseen: list[_Prepared]) -> None:
        """PREPARE on the loop's connection each statement it has not seen. One PostgreSQL
        will not prepare (a parameter whose type it cannot tell, say) goes as it is."""
        for prepared in unseen:
            if prepared in self._named:  # (twice in one commit)
                continue
            sql, names = prepared.numbered()
            name = f"cardroom_{len(self._named)}"
            try:
                await cursor.execute(f"PREPARE {name} AS {sql}")
            except psycopg.Error:
                if cursor.connection.broken:
                    raise
                log.warning("kept unprepared: %s", prepared.sql, exc_info=True)
                self._named[prepared] = None
                continue
            placeholders = ", ".join(["%s"] * len(names))
            self._named[prepared] = f"EXECUTE {name}({placeholders})", names

    def _text(self, cursor, statements: list) -> str:
        """``statements`` (``(_Prepared, parameters)`` pairs) as one query, in order, each
        with its values."""
        texts = []
        for prepared, parameters in statements:
            values = prepared.parameters(parameters)
            named = self._named.get(prepared)
            if named is None:
                texts.append(cursor.mogrify(prepared.sql, values))
            else:
                execute, names = named
                texts.append(cursor.mogrify(execute, [values[name] for name in names]))
        return ";".join(texts)

    async def _cursor_on_loop(self):
        """A cursor of the running loop's PostgreSQL connection (values bound by psycopg, in
        autocommit), kept from one write to the next. One left unused for :data:`KEEP_IDLE` is
        pinged first and replaced if it does not answer, so that a connection a database
        restart broke while nobody wrote fails no write."""
        loop = asyncio.get_running_loop()
        if self._on_loop is not None:
            cursor, its_loop, used = self._on_loop
            if its_loop is loop and not cursor.connection.broken and (
                    time.monotonic() - used <= KEEP_IDLE or await self._answers(cursor)):
                return cursor
            self._forget_connection_on_loop()
        arguments, options = self.engine.dialect.create_connect_args(self.engine.url)
        connection = await psycopg.AsyncConnection.connect(
            *arguments, **{"connect_timeout": 5, **options, "autocommit": True})
        cursor = psycopg.AsyncClientCursor(connection)
        self._on_loop = cursor, loop, time.monotonic()
        self._named = {}  # prepared on the connection before
        return cursor

    @staticmethod
    async def _answers(cursor) -> bool:
        try:
            await cursor.execute("SELECT 1")
            return True
        except psycopg.Error:
            return False

    def _forget_connection_on_loop(self) -> None:
        if self._on_loop is not None:
            self._on_loop[0].connection.pgconn.finish()
            self._on_loop = None

    def _grouped(self, statements: list) -> list:
        """``(statement, parameters)`` pairs as ``(sql, rows)``: one executemany per statement
        (made once, not per call: the same one groups), in first-seen order."""
        by_statement: dict = {}
        for statement, parameters in statements:
            prepared = self._prepare(statement, parameters)
            by_statement.setdefault(prepared, []).append(prepared.parameters(parameters))
        return [(prepared.sql, rows) for prepared, rows in by_statement.items()]

    def _prepare(self, statement, parameters: dict) -> _Prepared:
        key = (statement, tuple(parameters))
        prepared = self._prepared.get(key)
        if prepared is None:
            prepared = self._prepared[key] = _Prepared.compile(statement, parameters,
                                                               self.engine.dialect)
        return prepared

    @contextmanager
    def reading(self):
        """A session for reads whose failure to reach the database is a StorageError, as a
        write's is (the repository's reads: the rooms never see SQLAlchemy's own errors). A
        mistake in a read stays what it is (a server error, with its traceback)."""
        try:
            with self.sessions() as session:
                yield session
        except (DBAPIError, self.engine.dialect.dbapi.Error, OSError, ConnectionError) as error:
            raise StorageError(str(error)[:200]) from error

    @contextmanager
    def _storage_errors(self):
        """Turn whatever a write raised into Conflict (a unique key already stored: a race
        lost) or StorageError."""
        from sqlalchemy.exc import IntegrityError, SQLAlchemyError

        dbapi = self.engine.dialect.dbapi
        try:
            yield
        except Refused:
            raise
        except (IntegrityError, dbapi.IntegrityError) as error:
            raise Conflict(str(getattr(error, "orig", error))[:200]) from error
        except (SQLAlchemyError, dbapi.Error, OSError, ConnectionError) as error:
            raise StorageError(str(error)[:200]) from error
        except Exception as error:  # a fault injected by a test, or a driver surprise
            raise StorageError(str(error)[:200]) from error

    async def write(self, work: Callable | None, statements: list = (),
                    on_commit: Callable[[object], None] | None = None, in_thread: bool = False):
        """Run ``work`` and ``statements`` in a transaction and await its commit (without
        ``work``: the statements alone, the actions' hot path; else :meth:`transact`).
        ``on_commit(result)`` runs on the event loop as soon as the commit returned, before
        the waiting task resumes: what must follow the commit at once (telling everyone) goes
        there. ``in_thread``: ``work`` may take a while (the analyses' reads and writes): on
        SQLite it runs in the transactions' thread in its turn, the others' writes waiting
        for it rather than the event loop for its lock; PostgreSQL takes it beside them, in a
        thread of its own (the tables' writes do not wait for it).

        Writes go one at a time, never racing each other for the database's write lock, and
        the statement-only writes that wait together share one transaction (a group commit);
        if a shared transaction fails, each of its writes is tried alone, so one room's
        conflict never touches another's. Nothing is resolved before its commit returned.
        The event loop makes the commits: SQLite's (a local file) synchronously, PostgreSQL's
        statement-only ones through its own connection (:meth:`_store_on_loop`) and the
        others in a thread of their own; at most every :data:`COMMIT_INTERVAL` while writes come
        together. Why each of these: docs/performance.md#group-commit, #commit-interval and
        #writes-on-the-event-loop."""
        if in_thread and not self.sqlite:
            result = await asyncio.to_thread(self.transact, work, list(statements))
            if on_commit is not None:
                on_commit(result)
            return result
        loop = asyncio.get_running_loop()
        write = _Write(work, list(statements), on_commit, loop.create_future(), in_thread)
        if self.sqlite and self._checkpointer is None:
            with self._threads_lock:
                self._start_checkpoints()
        self._pending.append(write)
        if self._drain is None or self._drain.done() or self._drain.get_loop() is not loop:
            self._drain = loop.create_task(self._write_pending(), name="db-writes")
        return await write.future

    def _start_checkpoints(self) -> None:
        if self._checkpointer is None:
            self._checkpointer = threading.Thread(target=self._checkpoint_loop,
                                                  name="db-checkpoint", daemon=True)
            self._checkpointer.start()

    def _grouping_wait(self, now: float) -> float:
        """Seconds the next commit waits (0: none): while writes come together, until two
        commits in a row stored a single write, commits come at most every
        :data:`COMMIT_INTERVAL` from the start of the last one."""
        wait = self._last_commit + COMMIT_INTERVAL - now
        return wait if wait > 0 and max(self._last_batches) > 1 else 0.0

    async def _write_pending(self) -> None:
        """Commit the writes asked, in the order asked, those waiting together at once, until
        none waits. On SQLite nothing in it awaits anything but the commit interval: each
        commit holds the loop (``timed`` reports the long ones)."""
        loop = asyncio.get_running_loop()
        while self._pending:
            wait = self._grouping_wait(loop.time())
            if wait > 0:
                await asyncio.sleep(wait)
            writes, self._pending = self._pending, []
            self._last_commit = loop.time()
            self._last_batches = (len(writes), self._last_batches[0])
            with timed("slow_write", what="commit", writes=len(writes)) if self.sqlite \
                    else nullcontext():
                outcomes = await self._write_all(writes)
            for write, outcome in zip(writes, outcomes):
                write.settle(outcome)
            if self._copy_the_rest:
                self._copy_the_rest = False
                try:
                    with timed("slow_write", what="checkpoint"):
                        self._checkpoint()
                except Exception:  # the database is busy or away: the next round tries again
                    pass

    async def _write_all(self, writes: list[_Write]) -> list:
        """Store ``writes`` in order, consecutive statement-only ones together; the result (or
        StorageError) of each."""
        outcomes = []
        for statements_only, run in itertools.groupby(writes, key=lambda w: w.work is None):
            run = list(run)
            size = WRITE_BATCH if statements_only else 1
            for start in range(0, len(run), size):
                outcomes += await self._write_batch(run[start:start + size])
        return outcomes

    async def _write_batch(self, batch: list[_Write]) -> list:
        """The result (or StorageError) of each write of ``batch``: one commit for all if it
        can."""
        if len(batch) > 1:
            try:
                await self._stored([s for write in batch for s in write.statements])
                return [None] * len(batch)
            except StorageError:
                pass  # one of them failed: alone, each fails or succeeds on its own
        outcomes = []
        for write in batch:
            try:
                if write.work is None:
                    outcomes.append(await self._stored(write.statements))
                elif self.sqlite and not write.in_thread:
                    outcomes.append(self.transact(write.work, write.statements))
                else:
                    outcomes.append(await asyncio.get_running_loop().run_in_executor(
                        self._transaction_thread(), self.transact, write.work,
                        write.statements))
            except (StorageError, Refused) as error:  # each write's own outcome
                outcomes.append(error)
        return outcomes

    def _transaction_thread(self) -> ThreadPoolExecutor:
        with self._threads_lock:
            if self._transactions is None:
                self._transactions = ThreadPoolExecutor(1, thread_name_prefix="db-transactions")
            return self._transactions

    async def _stored(self, statements: list) -> None:
        """One transaction of statements, committed (the hot path)."""
        if self.sqlite:
            self.store_statements(statements)
        else:
            await self._store_on_loop(statements)

    def _checkpoint_loop(self) -> None:
        while not self._closing.wait(CHECKPOINT_EVERY):
            try:
                self._checkpoint()
            except Exception:  # the database is busy or away: the next round tries again
                continue
            self._copy_the_rest = True

    def _checkpoint(self) -> None:
        """Copy what it can of the SQLite WAL into the database without blocking any write
        (PASSIVE).

        The next write starts the WAL over only if it was all copied: under steady writes a
        pass in the checkpoint thread never is (more is written while it copies), and the WAL
        grew by a GB a minute at 1,000 actions/s, every commit slower than the last. So after
        each such pass the event loop, the only writer, runs one more right after a commit:
        it has only what was written meanwhile to copy, and nothing is written while it runs."""
        from sqlalchemy import text

        with self.engine.connect() as connection:
            connection.execute(text("PRAGMA wal_checkpoint(PASSIVE)"))

    def ping(self) -> bool:
        from sqlalchemy import text

        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return True
