"""The database's write path (synchronous SQLAlchemy under it): writes go one at a time and
those that wait together share a commit (:meth:`Store.write`); SQLite's WAL is checkpointed
beside them. What is written is the repository's business (app/storage/repository.py)."""

from __future__ import annotations

import asyncio
import itertools
import logging
import queue
import threading
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Callable

from sqlalchemy.orm import Session, sessionmaker

from ..ops.stalls import timed
from .db import make_engine, make_sessions
from .stored import Conflict, Refused, StorageError

log = logging.getLogger("cardroom.store")

#: Most writes one group commit stores together.
WRITE_BATCH = 200
#: Seconds between two SQLite WAL checkpoints (see Store.__init__).
CHECKPOINT_EVERY = 1.0
#: Shortest time from one SQLite group commit to the next while writes come together (see
#: Store.write): latency traded for CPU.
COMMIT_INTERVAL = 0.008
#: Seconds a database server's connection stays with the writer unused (see
#: Store.store_statements).
KEEP_IDLE = 5.0


@dataclass(slots=True)
class _Write:
    """One write asked for: what to store, and whom to tell."""

    work: Callable | None
    statements: list
    on_commit: Callable[[object], None] | None
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future

    def settle(self, outcome) -> None:
        """On the write's event loop, once its transaction is over: ``on_commit(result)`` if it
        was committed (even if nobody waits any more: it was stored), then the future."""
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


def _settle_all(writes: list[_Write], outcomes: list) -> None:
    for write, outcome in zip(writes, outcomes):
        write.settle(outcome)


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
        #: The connection the writer's statement writes keep using (see store_statements). On
        #: SQLite its page cache stays warm: connections taken in turn from the pool each found
        #: theirs stale (another had written since), and read the pages again (an insert cost
        #: 60% more).
        self._kept = None
        self._kept_since = 0.0  # when it was last used (time.monotonic())
        self._prepared: dict = {}  # (statement, parameter names) -> _Prepared
        self._pending: list = []  # SQLite: writes waiting for the next group commit
        self._last_commit = float("-inf")  # when the last commit began (the writer's clock)
        self._last_batches = (0, 0)  # how many writes it and the one before stored
        self._writes: queue.SimpleQueue = queue.SimpleQueue()  # others: the writer's queue
        self._writer: threading.Thread | None = None
        self._threads_lock = threading.Lock()
        self._closing = threading.Event()
        self._checkpointer: threading.Thread | None = None
        #: SQLite: the checkpoint thread copied the WAL; the event loop copies the rest after
        #: its next commit, so that the WAL starts over (see _checkpoint).
        self._copy_the_rest = False

    def close(self) -> None:
        with self._threads_lock:
            if self._writer is not None:
                self._writes.put(None)
                self._writer.join()
                self._writer = None
            if self._checkpointer is not None:
                self._closing.set()
                self._checkpointer.join()
                self._checkpointer = None
        if self._kept is not None:
            self._kept.close()
            self._kept = None
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
                            self._execute(cursor, statements)
                        finally:
                            cursor.close()
                    if self.fault is not None:
                        self.fault()
                return result

    def store_statements(self, statements: list) -> None:
        """Run ``statements`` in one transaction and commit, straight on a DBAPI connection
        (the hot path of actions): each statement compiled once (:class:`_Prepared`), one
        executemany per statement in first-seen order (:meth:`_execute`). StorageError/Conflict
        if not stored.
        It keeps its connection from one call to the next (they all come from the one writer:
        the event loop on SQLite, the writer thread otherwise). Taken from the pool each time,
        a PostgreSQL connection cost two round trips more a commit (the pool's ping when it is
        taken, its rollback when it is given back); after :data:`KEEP_IDLE` seconds unused it
        goes back to the pool, so that a connection a database restart broke while nobody
        wrote is replaced by the pool's ping rather than failing a write. One that broke
        (its rollback failed) is replaced at once."""
        with self._storage_errors():
            if self._kept is not None and not self.sqlite \
                    and time.monotonic() - self._kept_since > KEEP_IDLE:
                self._kept.close()
                self._kept = None
            connection, self._kept = self._kept or self.engine.raw_connection(), None
            keep = False
            try:
                cursor = connection.cursor()
                try:
                    with self._sent_together(connection):
                        self._execute(cursor, statements)
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
                    self._kept, self._kept_since = connection, time.monotonic()
                else:
                    connection.close()

    def _sent_together(self, connection):
        """PostgreSQL: the statements and the commit go to the server together, and their
        outcomes come back together (psycopg's pipeline mode: two round trips a commit, the
        transaction's BEGIN and then all the rest, rather than a wait after each statement
        and after the commit)."""
        if self.sqlite:
            return nullcontext()
        return connection.driver_connection.pipeline()

    def _execute(self, cursor, statements: list) -> None:
        """Run ``(statement, parameters)`` pairs on a DBAPI cursor: one executemany per
        statement (made once, not per call: the same one groups), in first-seen order."""
        by_statement: dict = {}
        for statement, parameters in statements:
            prepared = self._prepare(statement, parameters)
            by_statement.setdefault(prepared, []).append(prepared.parameters(parameters))
        for prepared, rows in by_statement.items():
            cursor.executemany(prepared.sql, rows)

    def _prepare(self, statement, parameters: dict) -> _Prepared:
        key = (statement, tuple(parameters))
        prepared = self._prepared.get(key)
        if prepared is None:
            prepared = self._prepared[key] = _Prepared.compile(statement, parameters,
                                                               self.engine.dialect)
        return prepared

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
                    on_commit: Callable[[object], None] | None = None):
        """Run ``work`` and ``statements`` in a transaction and await its commit (without
        ``work``: :meth:`store_statements`, else :meth:`transact`). ``on_commit(result)`` runs
        on the event loop as soon as the commit returned, before the waiting task resumes: what
        must follow the commit at once (telling everyone) goes there.

        Writes go one at a time, never racing each other for the database's write lock, and
        the statement-only writes that wait together share one transaction (a group commit);
        if a shared transaction fails, each of its writes is tried alone, so one room's
        conflict never touches another's. Nothing is resolved before its commit returned.
        SQLite, a local file, is written by the event loop itself, any other database by one
        writer thread; either commits at most every :data:`COMMIT_INTERVAL` while writes come
        together. Why each of these: docs/performance.md#group-commit, #commit-interval and
        #writes-on-the-event-loop."""
        loop = asyncio.get_running_loop()
        write = _Write(work, list(statements), on_commit, loop, loop.create_future())
        with self._threads_lock:
            self._start_threads()
        if self.sqlite:
            self._pending.append(write)
            if len(self._pending) == 1:
                wait = self._grouping_wait(loop.time())
                if wait > 0:
                    loop.call_later(wait, self._write_pending)
                else:
                    loop.call_soon(self._write_pending)
        else:
            self._writes.put(write)
        return await write.future

    def _start_threads(self) -> None:
        if self.sqlite and self._checkpointer is None:
            self._checkpointer = threading.Thread(target=self._checkpoint_loop,
                                                  name="db-checkpoint", daemon=True)
            self._checkpointer.start()
        elif not self.sqlite and self._writer is None:
            self._writer = threading.Thread(target=self._write_loop, name="db-writer",
                                            daemon=True)
            self._writer.start()

    def _grouping_wait(self, now: float) -> float:
        """Seconds the next commit waits (0: none): while writes come together, until two
        commits in a row stored a single write, commits come at most every
        :data:`COMMIT_INTERVAL` from the start of the last one."""
        wait = self._last_commit + COMMIT_INTERVAL - now
        return wait if wait > 0 and max(self._last_batches) > 1 else 0.0

    def _committing(self, now: float, writes: int) -> None:
        self._last_commit, self._last_batches = now, (writes, self._last_batches[0])

    def _write_pending(self) -> None:
        writes, self._pending = self._pending, []
        self._committing(asyncio.get_running_loop().time(), len(writes))
        with timed("slow_write", what="commit", writes=len(writes)):
            outcomes = self._write_all(writes)
        _settle_all(writes, outcomes)
        if self._copy_the_rest:
            self._copy_the_rest = False
            try:
                with timed("slow_write", what="checkpoint"):
                    self._checkpoint()
            except Exception:  # the database is busy or away: the next round tries again
                pass

    def _write_loop(self) -> None:
        """The writer thread: what waits together goes in one commit, and commits are spaced
        as on SQLite (:meth:`_grouping_wait`), so that more writes share each."""
        while True:
            wait = self._grouping_wait(time.monotonic())
            if wait > 0:
                time.sleep(wait)
            jobs = [self._writes.get()]
            while True:  # and every write waiting now
                try:
                    jobs.append(self._writes.get_nowait())
                except queue.Empty:
                    break
            stop = None in jobs
            writes = [job for job in jobs if job is not None]
            self._committing(time.monotonic(), len(writes))
            outcomes = self._write_all(writes)
            for loop in {write.loop for write in writes}:  # one hand-off per event loop
                mine = [(w, o) for w, o in zip(writes, outcomes) if w.loop is loop]
                try:
                    loop.call_soon_threadsafe(_settle_all, *map(list, zip(*mine)))
                except RuntimeError:  # that event loop is closed: nobody waits any more
                    pass
            if stop:
                return

    def _write_all(self, writes: list[_Write]) -> list:
        """Store ``writes`` in order, consecutive statement-only ones together; the result (or
        StorageError) of each."""
        outcomes = []
        for statements_only, run in itertools.groupby(writes, key=lambda w: w.work is None):
            run = list(run)
            size = WRITE_BATCH if statements_only else 1
            for start in range(0, len(run), size):
                outcomes += self._write_batch(run[start:start + size])
        return outcomes

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

    def _write_batch(self, batch: list[_Write]) -> list:
        """The result (or StorageError) of each write of ``batch``: one commit for all if it
        can."""
        if len(batch) > 1:
            try:
                self.store_statements([s for write in batch for s in write.statements])
                return [None] * len(batch)
            except StorageError:
                pass  # one of them failed: alone, each fails or succeeds on its own
        outcomes = []
        for write in batch:
            try:
                if write.work is None:
                    outcomes.append(self.store_statements(write.statements))
                else:
                    outcomes.append(self.transact(write.work, write.statements))
            except (StorageError, Refused) as error:  # each write's own outcome
                outcomes.append(error)
        return outcomes

    def ping(self) -> bool:
        from sqlalchemy import text

        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return True
