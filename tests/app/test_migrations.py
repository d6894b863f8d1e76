"""Migrations that move stored data keep all of it: upgraded, and downgraded again."""

from __future__ import annotations

import json

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError

from app.storage.migrate import alembic_config

WHEN = "2026-11-30 10:00:00"


@pytest.fixture(params=["sqlite", "postgres"])
def blank_url(request, tmp_path):
    """An empty database of its own, not migrated."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/blank.db"
        return
    from app.storage.db import scratch_schema

    base = request.getfixturevalue("postgres_url").split("?")[0]
    with scratch_schema(base, "cardroom_migration") as url:
        yield url


def _insert(connection, table: str, **row) -> None:
    row = {k: json.dumps(v) if isinstance(v, (dict, list)) else v for k, v in row.items()}
    names = ", ".join(f'"{k}"' for k in row)
    connection.execute(text(f"INSERT INTO {table} ({names}) VALUES "
                            f"({', '.join(':' + k for k in row)})"), row)


def _action(match, deal, seat, n, over=False, finished=False):
    return {"match": match, "deal": deal, "seat": seat, "action": {"type": "play", "card": f"{n}S"},
            "deal_over": over, "match_over": finished, "n": n}


def _stored_at_0002(connection) -> None:
    """Room 1: a running match whose two actions were stored with their events, a chat line
    between them. Room 2: a finished match seeded without events (as `cardroom seed` did)."""
    for room in (1, 2):
        _insert(connection, "rooms", id=room, code=f"r{room}", game="black_maria",
                options={}, created=WHEN)
        _insert(connection, "matches", id=room, room_id=room, number=1, game="black_maria",
                options={}, status="running" if room == 1 else "finished", started=WHEN,
                totals=[0, 0, 0], winners=[])
        _insert(connection, "deals", match_id=room, index=0, dealer=0, deck=["AS"],
                over=room == 2, started=WHEN)
    _insert(connection, "room_events", room_id=1, seq=1, kind="match",
            data={"match": 1, "number": 1}, created=WHEN)
    _insert(connection, "room_events", room_id=1, seq=2, kind="action",
            data=_action(1, 0, 0, 0), created=WHEN)
    _insert(connection, "room_events", room_id=1, seq=3, kind="chat",
            data={"seat": 1, "text": "hi"}, created=WHEN)
    _insert(connection, "room_events", room_id=1, seq=4, kind="action",
            data=_action(1, 0, 1, 1), created=WHEN)
    for match, n, seat, client_id in [(1, 0, 0, "c-0"), (1, 1, 1, None),
                                      (2, 0, 2, "s-0"), (2, 1, 0, None)]:
        _insert(connection, "actions", match_id=match, seq=n, deal_index=0, seat=seat,
                action={"type": "play", "card": f"{n}S"}, client_id=client_id, created=WHEN)


def _events(connection) -> list[tuple]:
    return [(room, seq, kind, json.loads(data) if isinstance(data, str) else data, match, client)
            for room, seq, kind, data, match, client in connection.execute(text(
                "SELECT room_id, seq, kind, data, match_id, client_id FROM room_events "
                "ORDER BY room_id, seq"))]


def test_0003_stores_each_action_as_its_room_event_and_back(blank_url):
    config = alembic_config(blank_url)
    command.upgrade(config, "0002")
    engine = create_engine(blank_url)
    try:
        with engine.begin() as connection:
            _stored_at_0002(connection)
        command.upgrade(config, "0003")
        assert "actions" not in inspect(engine).get_table_names()
        with engine.connect() as connection:
            assert _events(connection) == [
                (1, 1, "match", {"match": 1, "number": 1}, None, None),
                (1, 2, "action", _action(1, 0, 0, 0), 1, "c-0"),
                (1, 3, "chat", {"seat": 1, "text": "hi"}, None, None),
                (1, 4, "action", _action(1, 0, 1, 1), 1, None),
                # the seeded actions, now events: the last ends the deal and the match
                (2, 1, "action", _action(2, 0, 2, 0), 2, "s-0"),
                (2, 2, "action", _action(2, 0, 0, 1, over=True, finished=True), 2, None),
            ]
        command.downgrade(config, "0002")
        with engine.connect() as connection:
            actions = connection.execute(text(
                "SELECT match_id, seq, deal_index, seat, action, client_id FROM actions "
                "ORDER BY match_id, seq")).all()
            assert [(m, n, d, s, json.loads(a) if isinstance(a, str) else a, c)
                    for m, n, d, s, a, c in actions] == [
                (1, 0, 0, 0, {"type": "play", "card": "0S"}, "c-0"),
                (1, 1, 0, 1, {"type": "play", "card": "1S"}, None),
                (2, 0, 0, 2, {"type": "play", "card": "0S"}, "s-0"),
                (2, 1, 0, 0, {"type": "play", "card": "1S"}, None)]
        columns = {c["name"] for c in inspect(engine).get_columns("room_events")}
        assert not columns & {"match_id", "client_id"}
    finally:
        engine.dispose()


def test_0004_fills_each_seats_points_deals_and_win_and_leaves_every_name_a_guests(blank_url):
    """Stored names stay, unclaimed; each match seat gets its side's points over the finished
    deals (Big Mariage: its team's), how many, and whether its side won the finished match;
    a match counts its bot seats."""
    config = alembic_config(blank_url)
    command.upgrade(config, "0003")
    engine = create_engine(blank_url)
    try:
        with engine.begin() as connection:
            for player, name in ((1, "Anna"), (2, "Boris")):
                _insert(connection, "players", id=player, name=name, created=WHEN)
            for room, game in ((1, "big_mariage"), (2, "black_maria")):
                _insert(connection, "rooms", id=room, code=f"r{room}", game=game, options={},
                        created=WHEN)
            _insert(connection, "matches", id=1, room_id=1, number=1, game="big_mariage",
                    options={}, status="finished", started=WHEN, totals=[130, 30],
                    winners=[0])
            _insert(connection, "matches", id=2, room_id=2, number=1, game="black_maria",
                    options={}, status="running", started=WHEN, totals=[13, 20, 10],
                    winners=[])
            for match, seat, player, bot in ((1, 0, 1, None), (1, 1, 2, None),
                                             (1, 2, None, "rules"), (1, 3, None, "random"),
                                             (2, 0, 2, None), (2, 1, 1, None),
                                             (2, 2, None, "rules")):
                _insert(connection, "match_players", match_id=match, seat=seat,
                        player_id=player, name="Bot" if bot else "x", bot=bot)
            for match, index, over, scores in ((1, 0, True, [100, 0]), (1, 1, True, [30, 30]),
                                               (2, 0, True, [13, 20, 10]),
                                               (2, 1, False, None)):
                _insert(connection, "deals", match_id=match, index=index, dealer=0,
                        deck=["AS"], over=over, scores=scores, started=WHEN)
        command.upgrade(config, "0004")
        with engine.connect() as connection:
            seats = connection.execute(text(
                "SELECT match_id, seat, points, deals, won FROM match_players "
                "ORDER BY match_id, seat")).all()
            assert [(m, s, p, d, bool(w)) for m, s, p, d, w in seats] == [
                (1, 0, 130, 2, True), (1, 1, 30, 2, False), (1, 2, 130, 2, True),
                (1, 3, 30, 2, False),
                (2, 0, 13, 1, False), (2, 1, 20, 1, False), (2, 2, 10, 1, False)]
            assert connection.execute(text(
                "SELECT id, bot_seats FROM matches ORDER BY id")).all() == [(1, 2), (2, 1)]
            assert connection.execute(text(
                "SELECT name, key_hash FROM players ORDER BY id")).all() == [
                ("Anna", None), ("Boris", None)]
        command.downgrade(config, "0003")
        columns = {c["name"] for c in inspect(engine).get_columns("match_players")}
        assert not columns & {"points", "deals", "won"}
    finally:
        engine.dispose()


def test_0007_keeps_the_seats_of_claimed_names_their_players_and_a_guests_its_tokens(blank_url):
    """The seats stored before stay the player's on every device where the player's name is
    claimed; a guest's is its token's alone."""
    config = alembic_config(blank_url)
    command.upgrade(config, "0006")
    engine = create_engine(blank_url)
    try:
        with engine.begin() as connection:
            _insert(connection, "players", id=1, name="Anna", created=WHEN, key_hash="k" * 64)
            _insert(connection, "players", id=2, name="Gena", created=WHEN)
            _insert(connection, "rooms", id=1, code="r1", game="black_maria", options={},
                    created=WHEN)
            for seat, kind, player in ((0, "human", 1), (1, "human", 2), (2, "bot", None)):
                _insert(connection, "seats", room_id=1, seat=seat, kind=kind,
                        player_id=player, standin=False)
        command.upgrade(config, "0007")
        with engine.connect() as connection:
            assert [(s, bool(k)) for s, k in connection.execute(text(
                "SELECT seat, by_key FROM seats ORDER BY seat"))] == [
                (0, True), (1, False), (2, False)]
        command.downgrade(config, "0006")
        assert "by_key" not in {c["name"] for c in inspect(engine).get_columns("seats")}
    finally:
        engine.dispose()


def test_0008_keys_every_name_and_renumbers_the_later_of_names_that_read_alike(blank_url):
    """Of stored names that read alike the first player keeps theirs; each later one is
    numbered as a name taken is answered, its matches staying its own."""
    config = alembic_config(blank_url)
    command.upgrade(config, "0007")
    engine = create_engine(blank_url)
    names = ["Anna", "Bob Lee", "anna", "ＡＮＮＡ", "bob  lee", "Anna 2", "W" * 32, "w" * 32]
    try:
        with engine.begin() as connection:
            for n, name in enumerate(names, 1):
                _insert(connection, "players", id=n, name=name, created=WHEN)
        command.upgrade(config, "0008")
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT name, name_key FROM players ORDER BY id")).all()
        assert [name for name, _ in rows] == ["Anna", "Bob Lee", "anna 3", "ＡＮＮＡ 4",
                                              "bob  lee 2", "Anna 2", "W" * 32, "w" * 30 + " 2"]
        assert [key for _, key in rows] == ["anna", "bob lee", "anna 3", "anna 4", "bob lee 2",
                                            "anna 2", "w" * 32, "w" * 30 + " 2"]
        with pytest.raises(IntegrityError), engine.begin() as connection:
            _insert(connection, "players", id=9, name="ANNA", name_key="anna", created=WHEN)
        command.downgrade(config, "0007")
        assert "name_key" not in {c["name"] for c in inspect(engine).get_columns("players")}
    finally:
        engine.dispose()
