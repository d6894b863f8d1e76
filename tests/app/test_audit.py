"""The audit passes what was stored as it should be, and names what was not."""

from __future__ import annotations

from sqlalchemy import select, update

from app.ops.audit import audit
from app.ops.seeds import load_demo
from app.storage.models import DealRow, MatchRow, match_actions
from app.storage.store import Store
from engine import GAMES


def _demo(tmp_path_factory) -> str:
    from tests.conftest import fresh_sqlite

    url = fresh_sqlite(tmp_path_factory, "audit")
    load_demo(url)
    return url


def _change(url: str, change) -> None:
    store = Store(url)
    try:
        with store.sessions() as session, session.begin():
            match = session.scalars(select(MatchRow).order_by(MatchRow.id)).first()
            change(session, match, list(session.scalars(match_actions(match))))
    finally:
        store.close()


def test_the_demo_matches_pass_the_audit(tmp_path_factory):
    result = audit(_demo(tmp_path_factory))
    assert result["ok"], result["problems"]
    assert result["matches"] == result["finished"] >= 9 and result["actions"] > 0


def test_a_gap_in_a_matchs_actions_is_named(tmp_path_factory):
    url = _demo(tmp_path_factory)

    def drop_one(session, match, actions):
        session.delete(actions[5])

    _change(url, drop_one)
    problems = audit(url)["problems"]
    assert any("action numbers have gaps" in p for p in problems), problems
    assert any("event numbers have gaps" in p for p in problems), problems


def test_a_client_id_stored_twice_is_named(tmp_path_factory):
    url = _demo(tmp_path_factory)

    def same_id(session, match, actions):
        for event in actions[:2]:
            event.client_id = "again"

    _change(url, same_id)
    assert any("client ids applied twice: ['again']" in p for p in audit(url)["problems"])


def test_stored_scores_that_the_actions_do_not_give_are_named(tmp_path_factory):
    url = _demo(tmp_path_factory)

    def other_scores(session, match, actions):
        session.execute(update(DealRow).where(DealRow.match_id == match.id, DealRow.index == 0)
                        .values(scores=[999]))

    _change(url, other_scores)
    assert any("deal 0: stored [999] replays to" in p for p in audit(url)["problems"])


def test_an_action_that_the_rules_refuse_is_named(tmp_path_factory):
    url = _demo(tmp_path_factory)

    def play_out_of_turn(session, match, actions):
        first = actions[0]
        seats = GAMES[match.game].seats
        first.data = {**first.data, "seat": (first.data["seat"] + 1) % seats}

    _change(url, play_out_of_turn)
    problems = audit(url)["problems"]
    assert any("does not replay" in p for p in problems), problems
