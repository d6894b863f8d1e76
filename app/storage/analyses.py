"""Post-match analyses in the database (the ``match_analyses`` table, docs/analysis.md#server).

One row a finished match: ``queued`` when asked for, ``running`` while one process holds it
(``worker``; it renews ``heartbeat``), then ``done`` with its ``result`` or ``failed``. Every
change of a running analysis is an UPDATE on the condition that its process still holds it, so
that whatever the order of events between processes, one analysis of a match runs at a time
and a process that lost it (taken over after its heartbeat went stale: a restart, a crash)
stores nothing more. The result is written with the status in one statement: never half.

Plain functions of a Session, for ``Store.write(…, in_thread=True)``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import and_, exists, or_, select, update
from sqlalchemy.orm import Session

from .history import RUNNING, iso, record
from .models import MatchAnalysis, MatchRow


def describe(row: MatchAnalysis, with_result: bool = True) -> dict:
    """The row as the API gives it."""
    described = {
        "match_id": row.match_id, "status": row.status, "done": row.done, "total": row.total,
        "deals_done": len(row.deals or ()), "simulations": row.simulations, "seed": row.seed,
        "requested": iso(row.requested), "finished": iso(row.finished), "error": row.error,
    }
    if with_result:
        described["result"] = row.result
    return described


def get(session: Session, match_id: int, with_result: bool = True):
    """The analysis of a match: None for no such match, :data:`RUNNING` while the match runs,
    ``{"status": None, ...}`` when none was asked for."""
    match = session.get(MatchRow, match_id)
    if match is None:
        return None
    if match.status != "finished":
        return RUNNING
    row = session.get(MatchAnalysis, match_id)
    if row is None:
        return {"match_id": match_id, "status": None}
    return describe(row, with_result)


def request(session: Session, match_id: int, now: datetime, again: bool = False):
    """Ask for a finished match's analysis: a done or failed one is worked out anew only when
    asked ``again`` (its result kept, and shown, until the new one replaces it); one queued or
    running stays as it is. None for no such match,
    :data:`RUNNING` while it runs; else the analysis as :func:`describe` gives it, without its
    result."""
    match = session.get(MatchRow, match_id)
    if match is None:
        return None
    if match.status != "finished":
        return RUNNING
    row = session.get(MatchAnalysis, match_id)
    if row is None:
        row = MatchAnalysis(match_id=match_id, deals=[])
        session.add(row)
    elif row.status in ("queued", "running") or not again:
        return describe(row, False)
    row.status, row.simulations, row.seed = "queued", None, 0  # (the server's simulations)
    row.done = row.total = 0
    # (the result kept: asked again, the analysis had gone from the page, for everyone, until
    # the new one was done)
    row.deals, row.error = [], None
    row.worker = row.heartbeat = None  # (``finished``: the kept result's)
    row.requested = now
    session.flush()
    return describe(row, False)


def queue_finished(session: Session, since: datetime, now: datetime) -> int:
    """Ask for the analysis of every match finished since ``since`` that has none (the
    setting ANALYSE_FINISHED): how many were asked for."""
    has = exists().where(MatchAnalysis.match_id == MatchRow.id)
    ids = session.scalars(select(MatchRow.id).where(MatchRow.status == "finished",
                                                    MatchRow.ended >= since, ~has)
                          .order_by(MatchRow.id)).all()
    for match_id in ids:
        session.add(MatchAnalysis(match_id=match_id, status="queued", seed=0, done=0, total=0,
                                  deals=[], requested=now))
    return len(ids)


def _takeable(now: datetime, stale: timedelta):
    return or_(MatchAnalysis.status == "queued",
               and_(MatchAnalysis.status == "running", MatchAnalysis.heartbeat < now - stale))


def waiting(session: Session, now: datetime, stale: timedelta) -> bool:
    """Whether some analysis waits for a process (a read: an idle process asks only this)."""
    return session.scalar(select(MatchAnalysis.match_id).where(_takeable(now, stale))
                          .limit(1)) is not None


def claim(session: Session, worker: str, now: datetime, stale: timedelta) -> int | None:
    """Take the analysis asked for first that nobody holds (queued, or running with a heartbeat
    older than ``stale``) for ``worker``: its match's id, or None."""
    candidates = session.scalars(select(MatchAnalysis.match_id)
                                 .where(_takeable(now, stale))
                                 .order_by(MatchAnalysis.requested, MatchAnalysis.match_id)
                                 .limit(8)).all()
    for match_id in candidates:
        taken = session.execute(
            update(MatchAnalysis)
            .where(MatchAnalysis.match_id == match_id, _takeable(now, stale))
            .values(status="running", worker=worker, heartbeat=now)
            .execution_options(synchronize_session=False))
        if taken.rowcount == 1:
            return match_id
    return None


def work(session: Session, match_id: int, worker: str) -> dict | None:
    """What ``worker`` needs to run the analysis it holds: the record, the quality, and the
    deals already analysed (to resume from); None if it does not hold it."""
    row = session.get(MatchAnalysis, match_id)
    if row is None or row.status != "running" or row.worker != worker:
        return None
    return {"record": record(session, match_id), "simulations": row.simulations,
            "seed": row.seed, "deals": list(row.deals or ())}


def _held(match_id: int, worker: str):
    return and_(MatchAnalysis.match_id == match_id, MatchAnalysis.status == "running",
                MatchAnalysis.worker == worker)


def _change(session: Session, match_id: int, holder: str, *conditions, **values) -> bool:
    changed = session.execute(update(MatchAnalysis).where(_held(match_id, holder), *conditions)
                              .values(**values).execution_options(synchronize_session=False))
    return changed.rowcount == 1


def beat(session: Session, match_id: int, worker: str, now: datetime) -> bool:
    """Renew ``worker``'s hold; False if it holds the analysis no more."""
    return _change(session, match_id, worker, heartbeat=now)


def progress(session: Session, match_id: int, worker: str, now: datetime, done: int,
             total: int) -> bool:
    """Store how many decisions ``worker`` has analysed, within a deal too; only forward: never
    below what is stored (a write overtaken by a later one, or after a takeover the new
    holder's count while behind the one before it). False if nothing was stored."""
    return _change(session, match_id, worker, MatchAnalysis.done < done, done=done,
                   total=total, heartbeat=now)


def save_deal(session: Session, match_id: int, worker: str, now: datetime, deals: list[dict],
              done: int, total: int) -> bool:
    """Keep the deals analysed so far (every one, in order) and the progress; False (nothing
    stored) if ``worker`` holds the analysis no more."""
    return _change(session, match_id, worker, deals=deals, done=done, total=total,
                   heartbeat=now)


def finish(session: Session, match_id: int, worker: str, now: datetime, result: dict,
           total: int) -> bool:
    """Store the result, the analysis done, in one statement; False (nothing stored) if
    ``worker`` holds the analysis no more."""
    return _change(session, match_id, worker, status="done", result=result, done=total,
                   total=total, finished=now, worker=None, heartbeat=None)


def fail(session: Session, match_id: int, worker: str, error: str) -> bool:
    """The analysis failed (``error``); a result kept from before stays, with its
    ``finished``."""
    return _change(session, match_id, worker, status="failed", error=error[:200],
                   worker=None, heartbeat=None)
