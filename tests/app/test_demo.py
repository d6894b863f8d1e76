"""`cardroom load-demo`: the seeds load (once) and show up in the history API."""

from __future__ import annotations

import os
import subprocess
from datetime import datetime, timedelta

import httpx

from engine.record import replay

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


async def test_load_demo_fills_the_history(tmp_path):
    from tests.conftest import LiveServer

    url = f"sqlite:///{tmp_path}/demo.db"
    env = {**os.environ, "DATABASE_URL": url}
    cli = os.path.join(ROOT, ".venv", "bin", "cardroom")
    first = subprocess.run([cli, "load-demo"], env=env, capture_output=True, text=True,
                           check=True)
    assert "loaded 9" in first.stdout
    again = subprocess.run([cli, "load-demo"], env=env, capture_output=True, text=True,
                           check=True)
    assert "loaded 0" in again.stdout
    live = LiveServer(url).start()
    try:
        async with httpx.AsyncClient(base_url=live.http) as http:
            matches = (await http.get("/api/matches")).json()["matches"]
            assert len(matches) == 9 and {m["game"] for m in matches} == {
                "marjolet", "black_maria", "big_mariage"}
            # one an evening, each as long as it took (all at one hour, each 30 minutes, had
            # looked made up)
            started = [datetime.fromisoformat(m["started"]) for m in matches]
            lasted = {datetime.fromisoformat(m["ended"]) - s for m, s in zip(matches, started)}
            assert len({s.date() for s in started}) == 9 and all(s.hour >= 18 for s in started)
            assert len(lasted) > 3 and all(timedelta(minutes=5) < x < timedelta(hours=1) for x in lasted)
            for m in matches[:3]:
                record = (await http.get(f"/api/matches/{m['id']}/record")).json()
                assert list(replay(record).totals) == m["totals"]
            anna = (await http.get("/api/players/Anna")).json()
            assert anna["played"] == 9 and anna["deals"] > 9
    finally:
        live.stop()
