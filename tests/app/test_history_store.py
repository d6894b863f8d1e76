"""The history store in process (app/storage/history.py), on a fresh SQLite database: the list
of matches and its filters, a match's detail and record, worked out from engine matches and
the demo records rather than read back from the server. Quick, so that mutation testing
(scripts/mutation.sh server) tries its mutants in seconds rather than through a live server."""

from __future__ import annotations

import json
import os
import random
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import delete, insert, select, text
from test_people import played

from app.ops.seeds import load_demo, store_match
from app.storage import history
from app.storage.db import make_engine, make_sessions
from app.storage.history import MAX_ID, RUNNING
from app.storage.migrate import ROOT
from app.storage.models import MatchPlayer, MatchRow, Player, RoomEvent
from engine import new_match
from engine.bots import bot_for
from engine.record import replay, write
from tests.conftest import fresh_sqlite

T0 = datetime(2026, 10, 1, tzinfo=timezone.utc)
LENA, PAVEL, RITA = "Lena H", "Pavel H", "Rita H"
PAVEL_NOW = "Pavel Renamed"  # Pavel's name since his matches
NOBODY = "Nobody H"


def partly_played(game: str, seed: int, deals: int, actions: int):
    """A running match: ``deals`` whole deals of the rules bots' play, then ``actions`` actions
    of the next; with the finished deals' scores, as they stood before the next deal began."""
    rng, bot = random.Random(seed), bot_for(game, "rules")
    match = new_match(game, {"target": 5000})

    def act():
        seat = match.to_act()[0]
        match.apply(seat, bot(match.view(seat), match.moves(seat), rng))

    for _ in range(deals):
        match.start_deal(rng=rng)
        while match.current is not None:
            act()
    finished_scores = match.deal_scores()
    match.start_deal(rng=rng)
    for _ in range(actions):
        act()
    assert not match.finished and match.current is not None
    return match, finished_scores


def as_json(value):
    return json.loads(json.dumps(value))


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """The nine demo matches (late November) and four hand-made ones of Lena, Pavel (renamed
    since) and Rita (claimed) in early October: M1 Black Maria, M2 Marjolet a day later, then
    at the same time M3, a running Big Mariage with two bots (two finished deals, one under
    way, a chat line three hours later) and M4, Black Maria; and M0, a day before M1, a
    Marjolet match of two others just dealt (no event yet)."""
    url = fresh_sqlite(tmp_path_factory, "history")
    assert load_demo(url) == (9, 0)
    engine = make_engine(url)
    sessions = make_sessions(engine)
    running, running_scores = partly_played("big_mariage", 2, deals=2, actions=6)
    made = {
        "M0": (partly_played("marjolet", 8, deals=0, actions=0)[0], [NOBODY, "Noone H"],
               T0 - timedelta(days=1), None),
        "M1": (played("black_maria", 1, {"target": 1}), [LENA, PAVEL, RITA], T0, None),
        "M2": (played("marjolet", 2, {"target": 1}), [PAVEL, LENA], T0 + timedelta(days=1),
               None),
        "M3": (running, [LENA, "", RITA, ""], T0 + timedelta(days=2),
               {1: "rules", 3: "random"}),
        "M4": (played("black_maria", 3, {"target": 1}), [RITA, LENA, PAVEL],
               T0 + timedelta(days=2), None),
    }
    ids = {}
    with sessions() as session, session.begin():
        for code, (match, names, when, bots) in made.items():
            ids[code] = store_match(session, f"HS{code}", match, names, when, bots)
        last = session.scalar(select(RoomEvent).where(RoomEvent.match_id == ids["M3"])
                              .order_by(RoomEvent.seq.desc()).limit(1))
        session.add(RoomEvent(room_id=last.room_id, seq=last.seq + 1, kind="chat",
                              data={"text": "back soon"},
                              created=T0 + timedelta(days=2, hours=3)))
        session.scalar(select(Player).where(Player.name == PAVEL)).name = PAVEL_NOW
        session.scalar(select(Player).where(Player.name == RITA)).key_hash = "f" * 64
    yield sessions, ids, made, running_scores
    engine.dispose()


def listed(db, player=None, game=None, status=None, since=None, until=None, limit=100,
           offset=0) -> list[str]:
    """The hand-made matches list_matches gives, by their names (M1...), in its order."""
    sessions, ids, _, _ = db
    names = {i: code for code, i in ids.items()}
    with sessions() as session:
        found = history.list_matches(session, player, game, status, since, until, limit, offset)
    return [names.get(m["id"], m["room"]) for m in found]


def test_iso_writes_utc_for_naive_datetimes_and_keeps_an_offset():
    """SQLite's naive datetimes are UTC; an aware one keeps its offset; None stays None."""
    assert history.iso(None) is None
    assert history.iso(datetime(2026, 1, 2, 3, 4, 5)) == "2026-01-02T03:04:05+00:00"
    three = timezone(timedelta(hours=3))
    assert history.iso(datetime(2026, 1, 2, 3, 4, 5, tzinfo=three)) == \
        "2026-01-02T03:04:05+03:00"


def test_seat_results_give_each_seat_its_sides_finished_deals_and_the_win():
    """Points of the seat's side (its team's in Big Mariage) over the finished deals only, how
    many, and won only for the winning side of a finished match."""
    for game, options in (("big_mariage", {"target": 300}), ("black_maria", {"target": 1})):
        match = played(game, 5, options)
        scores = match.deal_scores()
        teams = game == "big_mariage"
        assert history.seat_results(match) == [
            (sum(s[seat % 2 if teams else seat] for s in scores), len(scores),
             (seat % 2 if teams else seat) in match.winners)
            for seat in range(match.game.seats)]
        assert any(won for _, _, won in history.seat_results(match))
        assert not all(won for _, _, won in history.seat_results(match))
    running, scores = partly_played("black_maria", 6, deals=2, actions=4)
    assert history.seat_results(running) == [
        (sum(s[seat] for s in scores), 2, False) for seat in range(3)]


def test_the_history_lists_the_newest_first_and_the_later_id_first_at_the_same_time(db):
    """Every match, the newest first; M3 and M4 began at once: the later stored first."""
    assert listed(db) == [f"DEMO{n:02d}" for n in range(8, -1, -1)] + ["M4", "M3", "M2", "M1", "M0"]
    assert listed(db, player=LENA) == ["M4", "M3", "M2", "M1"]


def test_the_history_filters_by_person_game_and_status(db):
    """A person by the name they have now (Pavel renamed), a game, running or finished, and
    the filters together."""
    assert listed(db, player=RITA) == ["M4", "M3", "M1"]
    assert listed(db, player=PAVEL_NOW) == ["M4", "M2", "M1"]
    assert listed(db, player=PAVEL) == []
    assert listed(db, game="marjolet") == ["DEMO08", "DEMO07", "DEMO06", "M2", "M0"]
    assert listed(db, player=LENA, game="black_maria") == ["M4", "M1"]
    assert listed(db, status="running") == ["M3", "M0"]
    assert listed(db, player=LENA, status="finished") == ["M4", "M2", "M1"]
    assert listed(db, player=RITA, game="big_mariage", status="finished") == []


def test_the_history_finds_a_person_by_their_name_in_any_case_or_by_a_part_of_it(db):
    """The name whatever its case; failing that, everyone whose name holds what was typed."""
    assert listed(db, player=" lena H ") == listed(db, player="LENA H") == listed(db, player=LENA)
    assert listed(db, player="renamed") == listed(db, player=PAVEL_NOW)
    assert listed(db, player="a h") == ["M4", "M3", "M2", "M1"]  # Lena's and Rita's
    assert listed(db, player="nobody at all") == []


def test_the_history_filters_by_start_with_both_bounds_included(db):
    """since and until compare the start, and a match that began at either bound is in."""
    day1, day2 = T0 + timedelta(days=1), T0 + timedelta(days=2)
    assert listed(db, player=LENA, since=day1) == ["M4", "M3", "M2"]
    assert listed(db, player=LENA, until=day1) == ["M2", "M1"]
    assert listed(db, player=LENA, since=day1, until=day1) == ["M2"]
    assert listed(db, player=LENA, since=day2 + timedelta(seconds=1)) == []
    assert listed(db, player=LENA, until=T0 - timedelta(seconds=1)) == []


def test_the_history_pages_with_limit_and_offset(db):
    """limit counts matches from offset on, in the list's order."""
    assert listed(db, player=LENA, limit=2) == ["M4", "M3"]
    assert listed(db, player=LENA, limit=2, offset=1) == ["M3", "M2"]
    assert listed(db, player=LENA, limit=2, offset=3) == ["M1"]
    assert listed(db, player=LENA, offset=4) == []


def test_a_finished_matchs_summary_names_its_people_as_they_are_called_now(db):
    """MATCH_SUMMARY of M1 from the engine match: totals, winners, every deal; a guest, a
    renamed guest (the name he has now), a claimed player; active when it began."""
    sessions, ids, made, _ = db
    match, _, when, _ = made["M1"]
    with sessions() as session:
        [summary] = [m for m in history.list_matches(session, LENA, None, None, None, None, 100,
                                                     0) if m["id"] == ids["M1"]]
    assert summary == {
        "id": ids["M1"], "room": "HSM1", "number": 1, "game": "black_maria",
        "options": {"target": 1}, "status": "finished", "started": "2026-10-01T00:00:00+00:00",
        "ended": "2026-10-01T00:30:00+00:00",
        "players": [{"seat": 0, "name": LENA, "bot": None, "guest": True},
                    {"seat": 1, "name": PAVEL_NOW, "bot": None, "guest": True},
                    {"seat": 2, "name": RITA, "bot": None, "guest": False}],
        "totals": list(match.totals), "winners": list(match.winners),
        "deals": len(match.deals), "last_activity": "2026-10-01T00:00:00+00:00",
        "abandoned": False}
    assert summary["deals"] >= 1 and summary["winners"]


def test_a_running_matchs_summary_counts_finished_deals_and_its_last_event(db):
    """M3: two finished deals (not the one under way), bots by their seats, its last activity
    its room's last event (the chat line), abandoned half a day after it."""
    sessions, ids, _, _ = db
    with sessions() as session:
        [summary] = history.list_matches(session, LENA, None, "running", None, None, 100, 0)
    assert summary["id"] == ids["M3"] and summary["status"] == "running"
    assert summary["ended"] is None and summary["winners"] == []
    assert summary["deals"] == 2
    assert summary["players"] == [
        {"seat": 0, "name": LENA, "bot": None, "guest": True},
        {"seat": 1, "name": "Bot 2", "bot": "rules", "guest": False},
        {"seat": 2, "name": RITA, "bot": None, "guest": False},
        {"seat": 3, "name": "Bot 4", "bot": "random", "guest": False}]
    assert summary["last_activity"] == "2026-10-03T03:00:00+00:00"
    assert summary["abandoned"] is True  # two months ago


class Clock(datetime):
    """datetime with a now() the test sets."""

    at: datetime

    @classmethod
    def now(cls, tz=None):
        return cls.at


@pytest.mark.parametrize("after, abandoned", [
    (timedelta(hours=12), False), (timedelta(hours=12, seconds=1), True),
    (timedelta(hours=11, minutes=59), False)])
def test_a_running_match_is_abandoned_only_more_than_half_a_day_after_its_last_event(
        db, monkeypatch, after, abandoned):
    """Against a controlled clock: abandoned once more than 12 hours passed since the last
    event (the chat line), not at 12 hours; a finished match never."""
    sessions, ids, _, _ = db
    Clock.at = datetime(2026, 10, 3, 3, tzinfo=timezone.utc) + after
    monkeypatch.setattr(history, "datetime", Clock)
    with sessions() as session:
        found = {m["id"]: m["abandoned"] for m in history.list_matches(
            session, LENA, None, None, None, None, 100, 0)}
    assert found == {ids["M1"]: False, ids["M2"]: False, ids["M3"]: abandoned,
                     ids["M4"]: False}


def test_a_running_match_without_events_is_active_from_its_start(db, monkeypatch):
    """M0, just dealt, has no event: its activity is its start."""
    sessions, ids, _, _ = db
    monkeypatch.setattr(history, "datetime", Clock)
    for hours, abandoned in ((11, False), (13, True)):
        Clock.at = T0 - timedelta(days=1) + timedelta(hours=hours)
        with sessions() as session:
            [summary] = history.list_matches(session, NOBODY, None, None, None, None, 100, 0)
        assert summary["id"] == ids["M0"] and summary["deals"] == 0
        assert summary["last_activity"] == "2026-09-30T00:00:00+00:00"
        assert summary["abandoned"] is abandoned


def test_a_matchs_detail_lists_its_deals_with_their_actions(db):
    """M3's detail: its summary, its teams, every deal (the one under way too: not over, no
    summary) with its dealer, scores and number of actions, from the engine match."""
    sessions, ids, made, _ = db
    match, _, _, _ = made["M3"]
    with sessions() as session:
        detail = history.match_detail(session, ids["M3"])
        [summary] = history.list_matches(session, LENA, None, "running", None, None, 100, 0)
    assert {k: v for k, v in detail.items() if k not in ("teams", "deal_list")} == summary
    assert detail["teams"] is True
    started = "2026-10-03T00:00:00+00:00"
    assert detail["deal_list"] == [
        {"index": i, "dealer": deal.dealer, "over": deal.over, "scores": deal.scores(),
         "summary": as_json(deal.summary()) if deal.over else None,
         "actions": len(deal.actions), "started": started,
         "ended": started if deal.over else None}
        for i, deal in enumerate(match.deals)]
    assert [d["over"] for d in detail["deal_list"]] == [True, True, False]
    assert detail["deal_list"][2]["actions"] == 6


def test_a_demo_matchs_detail_counts_the_actions_of_each_deal_of_its_record(db):
    """A demo match: each deal's actions as many as in its record; Black Maria has no
    teams."""
    sessions, _, _, _ = db
    seed = json.load(open(os.path.join(ROOT, "seeds", "black_maria-2.json"), encoding="utf-8"))
    with sessions() as session:
        [row] = history.list_matches(session, None, "black_maria", None, None, None, 1, 1)
        detail = history.match_detail(session, row["id"])
    assert row["room"] == "DEMO04" and detail["teams"] is False
    assert [d["actions"] for d in detail["deal_list"]] == [len(d["actions"])
                                                           for d in seed["deals"]]
    assert detail["deals"] == len(seed["deals"])


@pytest.mark.parametrize("match_id", [0, -1, MAX_ID, MAX_ID + 1, 10 ** 6])
def test_no_detail_or_record_for_an_id_that_names_no_match(db, match_id):
    """Out of range or missing: None, and the database is not asked to compare with an id it
    cannot hold."""
    sessions, _, _, _ = db
    with sessions() as session:
        assert history.match_detail(session, match_id) is None
        assert history.finished_record(session, match_id) is None


def test_the_first_match_has_a_detail_and_a_record(db):
    """Id 1 (the first demo match) is a match like any other."""
    sessions, _, _, _ = db
    with sessions() as session:
        assert history.match_detail(session, 1)["id"] == 1
        assert history.finished_record(session, 1)["match_id"] == 1


def test_a_finished_matchs_record_is_the_match_as_played_under_the_names_of_now(db):
    """M1's record: the engine's own record of the match, with the renamed guest's new name,
    and its id and times; a demo match's record is its seed file."""
    sessions, ids, made, _ = db
    match, _, _, _ = made["M1"]
    with sessions() as session:
        found = history.finished_record(session, ids["M1"])
        demo = history.record(session, 5)
        started = session.get(MatchRow, 5).started.replace(tzinfo=timezone.utc)
    assert found == {**as_json(write(match, [LENA, PAVEL_NOW, RITA])), "match_id": ids["M1"],
                     "started": "2026-10-01T00:00:00+00:00",
                     "ended": "2026-10-01T00:30:00+00:00"}
    seed = json.load(open(os.path.join(ROOT, "seeds", "black_maria-2.json"), encoding="utf-8"))
    played = replay(seed)  # (as long as its moves took, five seconds each, and a minute a deal)
    minutes = sum(len(deal.actions) for deal in played.deals) * 5 / 60 + len(played.deals)
    assert demo == {**seed, "match_id": 5, "started": started.isoformat(),
                    "ended": (started + timedelta(minutes=minutes)).isoformat()}


def test_a_running_match_has_no_record(db):
    """Its packs are secret: finished_record answers RUNNING; record() of no match is None."""
    sessions, ids, _, _ = db
    with sessions() as session:
        assert history.finished_record(session, ids["M3"]) is RUNNING
        assert history.record(session, 10 ** 6) is None


def test_a_deal_without_actions_has_none_in_the_detail_and_the_record(db):
    """M0, just dealt: its one deal has 0 actions, and an empty list of them as a record."""
    sessions, ids, made, _ = db
    with sessions() as session:
        detail = history.match_detail(session, ids["M0"])
        stored = history.record(session, ids["M0"])
    assert [(d["index"], d["over"], d["actions"]) for d in detail["deal_list"]] == \
        [(0, False, 0)]
    assert stored["deals"] == as_json(write(made["M0"][0])["deals"]) and \
        stored["deals"][0]["actions"] == []


@contextmanager
def unordered_rows_reversed(session, reverse: bool):
    """SQLite's PRAGMA reverse_unordered_selects: rows a query does not order come in the
    other order (as a PostgreSQL table may give them), so that an answer cannot depend on it."""
    session.execute(text(f"PRAGMA reverse_unordered_selects = {int(reverse)}"))
    try:
        yield
    finally:
        session.execute(text("PRAGMA reverse_unordered_selects = 0"))


@pytest.mark.parametrize("reverse", [False, True])
def test_each_running_match_is_active_from_its_own_rooms_last_event(db, reverse):
    """M3 and M5, running in two rooms, listed together: each its own room's last event (the
    highest number), M3's chat line and M5's, stored before its earlier events, whichever room
    has more events and in whatever order the rows come. M5 is not committed."""
    sessions, ids, _, _ = db
    when = T0 + timedelta(days=3)
    with sessions() as session:
        m5 = store_match(session, "HSM5", partly_played("marjolet", 9, deals=0, actions=0)[0],
                         [LENA, NOBODY], when, actions=False)
        room = session.get(MatchRow, m5).room_id
        for seq, hours in ((3, 1), (1, 0), (2, 0)):
            session.add(RoomEvent(room_id=room, seq=seq, kind="chat", data={"text": "hi"},
                                  created=when + timedelta(hours=hours)))
        session.flush()
        with unordered_rows_reversed(session, reverse):
            found = {m["id"]: m["last_activity"] for m in history.list_matches(
                session, LENA, None, "running", None, None, 100, 0)}
            detail = history.match_detail(session, m5)
    assert found == {ids["M3"]: "2026-10-03T03:00:00+00:00", m5: "2026-10-04T01:00:00+00:00"}
    assert detail["last_activity"] == "2026-10-04T01:00:00+00:00"


def test_deals_come_in_their_order_whatever_order_the_rows_come_in(db):
    """M3's detail and a demo match's record list the deals by their index even when the
    database gives unordered rows the other way round."""
    sessions, ids, _, _ = db
    seed = json.load(open(os.path.join(ROOT, "seeds", "black_maria-2.json"), encoding="utf-8"))
    assert len(seed["deals"]) > 1
    with sessions() as session, unordered_rows_reversed(session, True):
        detail = history.match_detail(session, ids["M3"])
        demo = history.record(session, 5)
    assert [d["index"] for d in detail["deal_list"]] == [0, 1, 2]
    assert demo["deals"] == seed["deals"]


def test_a_time_with_an_offset_keeps_its_instant_in_a_summary(monkeypatch):
    """PostgreSQL gives a timestamptz in its session's time zone, not always UTC: a running
    match that began at 09:00+03:00 without an event since is active from then (06:00 UTC),
    so abandoned at 18:00:01 UTC, not at 21:00:01."""
    three = timezone(timedelta(hours=3))
    match = MatchRow(id=7, number=1, game="marjolet", options={}, status="running",
                     started=datetime(2026, 10, 1, 9, tzinfo=three), ended=None, totals=[0, 0],
                     winners=[])
    Clock.at = datetime(2026, 10, 1, 18, 0, 1, tzinfo=timezone.utc)
    monkeypatch.setattr(history, "datetime", Clock)
    summary = history.summary_of(match, "HSTZ", [], 0, None)
    assert datetime.fromisoformat(summary["last_activity"]) == \
        datetime(2026, 10, 1, 6, tzinfo=timezone.utc)
    assert summary["abandoned"] is True


def test_a_summary_lists_the_seats_in_order_whatever_order_they_were_stored_in(
        tmp_path_factory):
    url = fresh_sqlite(tmp_path_factory, "seat-order")
    engine = make_engine(url)
    sessions = make_sessions(engine)
    with sessions() as session, session.begin():
        match_id = store_match(session, "HSR", played("black_maria", 4, {"target": 1}),
                               ["Ann R", "Bob R", "Cid R"], T0, None)
        seats = session.scalars(select(MatchPlayer).where(MatchPlayer.match_id == match_id))
        copies = [{c.key: getattr(s, c.key) for c in MatchPlayer.__table__.columns
                   if c.key != "id"} for s in seats]
        session.execute(delete(MatchPlayer).where(MatchPlayer.match_id == match_id))
        session.execute(insert(MatchPlayer), sorted(copies, key=lambda s: -s["seat"]))
    with sessions() as session:
        [summary] = history.list_matches(session, None, None, None, None, None, 10, 0)
    engine.dispose()
    assert [(p["seat"], p["name"]) for p in summary["players"]] == [
        (0, "Ann R"), (1, "Bob R"), (2, "Cid R")]
