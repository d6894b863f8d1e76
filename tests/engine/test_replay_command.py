"""``cardroom replay`` as record.md describes it, in process: the summary as one JSON object on
standard output, or status 1 and one line on standard error naming deal, action, seat and
action (a dash for what the error does not belong to)."""

import io
import json
import sys

import pytest

from engine import new_match
from engine.cli import replay_command
from engine.record import RecordError, load, replay, summary

FORMAT = "cardroom-record/1"


def _black_maria_record(actions):
    """A Black Maria record of one deal from the pack in order, seat 0 dealing."""
    deck = list(new_match("black_maria").game.pack.cards)
    return {"format": FORMAT, "game": "black_maria", "options": {},
            "players": ["Анна", "Boris", "Clara"],
            "deals": [{"dealer": 0, "deck": deck, "actions": actions}]}


def _hand(seat):
    """Seat ``seat``'s cards in the record above (one at a time from the dealer's left)."""
    deck = list(new_match("black_maria").game.pack.cards)
    return [deck[i] for i in range(51) if (1 + i) % 3 == seat]


def _pass(seat):
    return [seat, {"type": "pass", "cards": _hand(seat)[:3]}]


def _error_of(record) -> RecordError:
    with pytest.raises(RecordError) as raised:
        replay(record)
    return raised.value


def test_an_error_in_an_action_names_its_deal_action_seat_and_the_action():
    cards = _hand(1)[:3]
    record = _black_maria_record([_pass(1), _pass(1)])
    assert str(_error_of(record)) == \
        f"deal 0, action 1, seat 1, pass {' '.join(cards)}: it is not your turn"


def test_an_error_of_a_deal_has_dashes_for_the_action():
    record = _black_maria_record([])
    record["deals"][0]["dealer"] = 3
    assert str(_error_of(record)) == "deal 0, action -, seat -, -: no seat 3 to deal"


def test_an_error_of_the_whole_record_has_dashes_for_everything():
    record = _black_maria_record([])
    record["format"] = "cardroom-record/2"
    assert str(_error_of(record)) == \
        "deal -, action -, seat -, -: format must be 'cardroom-record/1'"


@pytest.fixture
def record_text():
    return json.dumps(_black_maria_record([_pass(1), _pass(2)]), ensure_ascii=False)


def test_replay_of_a_file_prints_the_summary_as_json(tmp_path, capsys, record_text):
    path = tmp_path / "match.json"
    path.write_text(record_text, encoding="utf-8")
    assert replay_command(str(path)) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == summary(load(record_text)) and err == ""
    assert json.loads(out)["next"] == {"deal": 0, "seat": 0}  # seat 0 has not passed yet


def test_replay_of_dash_reads_standard_input(monkeypatch, capsys, record_text):
    monkeypatch.setattr(sys, "stdin", io.StringIO(record_text))
    assert replay_command("-") == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == summary(load(record_text)) and err == ""


def test_replay_of_a_file_that_cannot_be_read_says_so_on_one_line(tmp_path, capsys):
    path = tmp_path / "missing.json"
    assert replay_command(str(path)) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"deal -, action -, seat -, -: cannot read {path}: No such file or directory\n"


def test_replay_of_a_broken_record_prints_its_line_and_nothing_else(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(_black_maria_record([_pass(1), _pass(1)])), encoding="utf-8")
    assert replay_command(str(path)) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("deal 0, action 1, seat 1, pass ") and err.count("\n") == 1
    assert err.endswith(": it is not your turn\n")
