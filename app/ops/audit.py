"""Audit a database: every stored match replays through the engine to its stored scores.

Used by the load benchmark and the fault tests (``audit(url)``), and from the command line:
``.venv/bin/python -m app.ops.audit DATABASE_URL``. Checks, per match: the actions are numbered
0..n-1 without gaps; no client action id was applied twice; the record replays through the
engine (``engine.record.replay``) and gives the stored per-deal scores, totals, winners and
finished status; the rooms' event numbers have no gaps.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from sqlalchemy import func, select

from engine.record import replay

from ..storage import history
from ..storage.models import DealRow, MatchRow, RoomEvent, match_actions
from ..storage.store import Store


def audit(database_url: str, match_ids: list[int] | None = None) -> dict:
    store = Store(database_url)
    problems: list[str] = []
    checked = finished = actions = 0
    try:
        with store.sessions() as session:
            query = select(MatchRow).order_by(MatchRow.id)
            if match_ids is not None:
                query = query.where(MatchRow.id.in_(match_ids))
            for match in session.scalars(query):
                checked += 1
                rows = list(session.scalars(match_actions(match)))
                actions += len(rows)
                if [r.data["n"] for r in rows] != list(range(len(rows))):
                    problems.append(f"match {match.id}: action numbers have gaps")
                if any(r.data["match"] != match.id for r in rows):
                    problems.append(f"match {match.id}: action events whose data names another "
                                    f"match")
                twice = [c for c, n in Counter(r.client_id for r in rows if r.client_id).items()
                         if n > 1]
                if twice:
                    problems.append(f"match {match.id}: client ids applied twice: {twice[:3]}")
                record = history.record(session, match.id)
                try:
                    replayed = replay(record)
                except Exception as error:  # noqa: BLE001 - reported, not raised
                    problems.append(f"match {match.id}: does not replay: {error}")
                    continue
                deals = list(session.scalars(select(DealRow).where(
                    DealRow.match_id == match.id).order_by(DealRow.index)))
                for deal, again in zip(deals, replayed.deals):
                    if deal.over != again.over or (deal.over and deal.scores != again.scores()):
                        problems.append(f"match {match.id} deal {deal.index}: stored "
                                        f"{deal.scores} replays to {again.scores()}")
                if list(match.totals) != list(replayed.totals):
                    problems.append(f"match {match.id}: totals {match.totals} replay to "
                                    f"{replayed.totals}")
                if (match.status == "finished") != replayed.finished:
                    problems.append(f"match {match.id}: status {match.status} but replay "
                                    f"finished={replayed.finished}")
                if replayed.finished:
                    finished += 1
                    if sorted(match.winners) != sorted(replayed.winners):
                        problems.append(f"match {match.id}: winners {match.winners} replay "
                                        f"to {replayed.winners}")
            for room_id, count, top in session.execute(
                    select(RoomEvent.room_id, func.count(), func.max(RoomEvent.seq))
                    .group_by(RoomEvent.room_id)):
                if count != top:
                    problems.append(f"room {room_id}: event numbers have gaps")
    finally:
        store.close()
    return {"matches": checked, "finished": finished, "actions": actions,
            "problems": problems, "ok": not problems}


if __name__ == "__main__":
    result = audit(sys.argv[1])
    print(json.dumps(result, indent=1))
    sys.exit(0 if result["ok"] else 1)
