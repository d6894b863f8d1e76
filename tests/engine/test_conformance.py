"""Every record of ../shared/conformance replays to its expected output (record.md)."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

from engine.record import RecordError, load, summary

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Beside the checkout; CARDROOM_CONFORMANCE for a copy of the tests elsewhere
# (scripts/mutation.sh runs them in mutants/).
CONFORMANCE = pathlib.Path(os.environ.get("CARDROOM_CONFORMANCE",
                                          ROOT.parent / "shared" / "conformance"))
RECORDS = sorted(p for p in CONFORMANCE.glob("*.json") if not p.name.endswith(".expected.json"))


def records() -> list[pathlib.Path]:
    """The records; none is a failure in CI (CI=true) and a skip elsewhere."""
    if not RECORDS:
        reason = f"no conformance records in {CONFORMANCE}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return RECORDS


def record_path(name: str) -> pathlib.Path:
    """The conformance record ``name`` (other tests read them too), as :func:`records`: a
    failure in CI and a skip elsewhere when there are none."""
    records()
    return CONFORMANCE / f"{name}.json"


def expected_of(path: pathlib.Path) -> dict:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text())


@pytest.mark.parametrize("path", RECORDS or [None], ids=lambda p: p.stem if p else "none")
def test_record_replays_to_expected(path):
    records()
    expected = expected_of(path)
    if "error" in expected:
        with pytest.raises(RecordError) as raised:
            load(path.read_text())
        assert (raised.value.deal, raised.value.action) == (
            expected["error"]["deal"], expected["error"]["action"]), str(raised.value)
    else:
        got = summary(load(path.read_text()))
        assert {key: got[key] for key in expected} == expected


def run_replay(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "app.cli", "replay", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT)


def test_command_line_prints_summary_json():
    path = next(p for p in records() if "error" not in expected_of(p))
    done = run_replay(str(path))
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    assert set(printed) == {"game", "deal_scores", "totals", "finished", "winners", "next"}
    assert {k: printed[k] for k in expected_of(path)} == expected_of(path)
    assert done.stderr == ""


def test_command_line_rejects_bad_record_with_one_line():
    path = next(p for p in records() if "error" in expected_of(p))
    done = run_replay("-", stdin=path.read_text())
    error = expected_of(path)["error"]
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"deal {error['deal']}, action {error['action']}")


@pytest.mark.parametrize("text, start", [
    ("not json", "deal -, action -, seat -, -:"),
    ('{"format": "cardroom-record/2", "game": "marjolet", "deals": []}', "deal -, action -"),
    ('{"format": "cardroom-record/1", "game": "whist", "deals": []}', "deal -, action -"),
    ('{"format": "cardroom-record/1", "game": "marjolet", "options": {"target": 0}, "deals": []}',
     "deal -, action -"),
    ('{"format": "cardroom-record/1", "game": "black_maria", "deals": '
     '[{"dealer": 0, "deck": ["AS"], "actions": []}]}', "deal 0, action -, seat -, -:"),
])
def test_command_line_errors_outside_actions(text, start):
    done = run_replay("-", stdin=text)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(start)


def test_empty_record_awaits_first_deal():
    match = load('{"format": "cardroom-record/1", "game": "black_maria", "deals": []}')
    assert summary(match) == {"game": "black_maria", "deal_scores": [], "totals": [0, 0, 0],
                              "finished": False, "winners": [],
                              "next": {"deal": 0, "seat": None}}
