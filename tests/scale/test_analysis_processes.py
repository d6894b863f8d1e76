"""Post-match analyses shared by two real server processes on one PostgreSQL database (issue
28, item 4): each analysis asked for is done once, by whichever process takes it, and equals
``cardroom analyse`` of the record; a process killed in the middle of one leaves it unfinished
but whole, and the other takes it over once its hold is stale and finishes it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import httpx
import pytest
from sqlalchemy import func, select

from app.storage.models import MatchAnalysis
from app.storage.store import Store
from tests.app.test_analyses import played, stored
from tests.conftest import running
from tests.scale.conftest import ROOT

pytestmark = [pytest.mark.services, pytest.mark.timeout(300)]

#: The quality of every analysis here: the least there is (two determinizations a choice),
#: to keep the test's CPU time short; what is tested does not depend on it.
SIMULATIONS = 2
#: Seconds after which a hold not renewed may be taken over.
STALE = 5
#: How long a condition may take before the test fails (a guard against a hang only).
GUARD = 240


def analysis_rows(store: Store, ids: list[int]) -> dict[int, dict]:
    """The ``match_analyses`` rows of ``ids`` as they stand, by match: status, holder, deals
    kept and decisions done (a light read, made again and again)."""
    query = select(MatchAnalysis.match_id, MatchAnalysis.status, MatchAnalysis.worker,
                   func.json_array_length(MatchAnalysis.deals).label("kept"),
                   MatchAnalysis.done).where(MatchAnalysis.match_id.in_(ids))
    return store.transact(lambda s: {row.match_id: row._asdict() for row in s.execute(query)})


def analysis_row(store: Store, match_id: int) -> dict:
    """One ``match_analyses`` row with the deals it keeps and its result."""
    def read(session):
        row = session.get(MatchAnalysis, match_id)
        return {"status": row.status, "worker": row.worker, "deals": row.deals,
                "done": row.done, "result": row.result}
    return store.transact(read)


def wait_for(condition, what: str):
    """``condition()``'s first true value, asked again and again."""
    deadline = time.monotonic() + GUARD
    while not (found := condition()):
        assert time.monotonic() < deadline, f"still no {what} after {GUARD} s"
        time.sleep(0.1)
    return found


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (a server's analysis process among them)."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if parent == pid:
            found.append(int(entry))
    return found


def end_with_its_children(app, end) -> None:
    """End a server process by ``end`` (its ``kill`` or ``stop``): the processes it started
    (its analysis process, multiprocessing's resource tracker) end with it."""
    started = children(app.proc.pid)
    end()
    try:
        wait_for(lambda: not any(map(running, started)), "end of the server's processes")
    finally:
        for pid in filter(running, started):
            os.kill(pid, signal.SIGKILL)


def cardroom_analyse(path) -> subprocess.Popen:
    """``cardroom analyse`` of the record at ``path``, at this test's quality and seed 0."""
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "analyse", "--simulations", str(SIMULATIONS),
         "--seed", "0", str(path)], cwd=ROOT, stdout=subprocess.PIPE)


def test_two_processes_share_the_analyses_and_one_killed_mid_way_is_taken_over(
        pg_url, processes, tmp_path):
    """Three finished matches asked for, of two processes: the one holding the three-deal
    match is killed after keeping its first deal; the row stays running, its deals kept in
    order and no result; the other process takes it over once stale, resumes from the deals
    kept (never fewer again, its progress never shown going back) and finishes it (so both took work). Every analysis is then
    done, whole, and the same as ``cardroom analyse`` of the match's record."""
    store = Store(pg_url)
    commands: dict[int, subprocess.Popen] = {}
    servers = []
    try:
        long_id = stored(store, played("marjolet", {"target": 250}, 0))
        ids = [long_id, stored(store, played("big_mariage", {"target": 60}, 0)),
               stored(store, played("black_maria", {"target": 10}, 0))]
        servers = processes(2, pg_url, analysis_simulations=SIMULATIONS, analysis_stale=STALE,
                            analysis_poll=0.5, analysis_nice=0)
        records = {m: httpx.get(f"{servers[0].http}/api/matches/{m}/record").json()
                   for m in ids}
        deals = len(records[long_id]["deals"])
        assert deals >= 3
        for number, match_id in enumerate(ids):
            asked = httpx.post(f"{servers[number % 2].http}/api/matches/{match_id}/analysis")
            assert asked.status_code == 202
        for match_id, record in records.items():
            path = tmp_path / f"{match_id}.json"
            path.write_text(json.dumps(record))
            commands[match_id] = cardroom_analyse(path)

        def long_one_half_way():
            row = analysis_rows(store, ids).get(long_id)
            return row if row and row["status"] == "running" \
                and 1 <= row["kept"] <= deals - 2 else None

        held = wait_for(long_one_half_way, "deal kept of the three-deal match")
        [victim] = [s for s in servers if f":{s.proc.pid}:" in held["worker"]]
        [survivor] = [s for s in servers if s is not victim]
        end_with_its_children(victim, victim.kill)

        left = analysis_row(store, long_id)
        kept = len(left["deals"])
        assert left["status"] == "running" and left["worker"] == held["worker"]
        assert left["result"] is None and held["kept"] <= kept < deals
        assert [entry["deal"] for entry in left["deals"]] == list(range(kept))
        # its progress: the deals kept, and as far as it had gone into the next one (all of
        # it, if killed between its last decision and keeping the deal)
        sizes = [len(d["actions"]) for d in records[long_id]["deals"]]
        assert sum(sizes[:kept]) <= left["done"] <= sum(sizes[:kept + 1])

        def all_done():
            rows = analysis_rows(store, ids)
            assert rows[long_id]["kept"] >= kept, "started again from nothing"
            assert rows[long_id]["done"] >= left["done"], "its progress went back"
            return all(row["status"] == "done" for row in rows.values())

        wait_for(all_done, "end of the three analyses")
        for match_id, command in commands.items():
            out, _ = command.communicate(timeout=GUARD)
            assert command.returncode == 0
            found = httpx.get(f"{survivor.http}/api/matches/{match_id}/analysis").json()
            total = sum(len(d["actions"]) for d in records[match_id]["deals"])
            assert (found["status"], found["error"]) == ("done", None)
            assert found["done"] == found["total"] == total
            assert found["result"] == json.loads(out), match_id
        assert all(row["worker"] is None for row in analysis_rows(store, ids).values())
    finally:
        store.close()
        for server in servers:
            if server.proc.poll() is None:
                end_with_its_children(server, server.stop)
        for command in commands.values():
            if command.poll() is None:
                command.kill()
                command.wait()
