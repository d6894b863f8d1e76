"""The people store in process (app/storage/players.py), on a fresh SQLite database: names and
keys, statistics, a player's page and standings, worked out from engine matches' records or
from hand-made match seats rather than read back from the server. Quick, so that mutation
testing (scripts/mutation.sh server) tries its mutants in seconds rather than through a live
server."""

from __future__ import annotations

import base64
import hashlib
import itertools
import re
from collections import Counter
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import insert, select
from test_matches import expected_stats
from test_people import played

from app.ops.seeds import store_match
from app.protocol import name_key
from app.storage import players
from app.storage.db import make_engine, make_sessions
from app.storage.models import MatchPlayer, MatchRow, Player, Room
from engine import GAMES
from engine.record import write
from tests.conftest import fresh_sqlite

T0 = datetime(2026, 9, 1, tzinfo=timezone.utc)
_codes = itertools.count()


def add_match(session, game: str, day: int, seats: list[tuple], running=False) -> int:
    """A match stored as its seats only: ``(name, side, points, deals, won)`` each, a bot's
    name None. Its id."""
    when = T0 + timedelta(days=day)
    room = Room(code=f"P{next(_codes)}", game=game, options={}, created=when)
    session.add(room)
    session.flush()
    match = MatchRow(room_id=room.id, number=1, game=game, options={}, started=when,
                     status="running" if running else "finished", totals=[], winners=[],
                     bot_seats=sum(name is None for name, *_ in seats))
    session.add(match)
    session.flush()
    for seat, (name, side, points, deals, won) in enumerate(seats):
        person = None
        if name is not None:
            person = session.scalar(select(Player).where(Player.name == name))
            if person is None:
                person = Player(name=name)
                session.add(person)
                session.flush()
        session.add(MatchPlayer(match_id=match.id, seat=seat, player_id=person and person.id,
                                name=name or f"Bot {seat + 1}", bot=None if name else "rules",
                                side=side, points=points, deals=deals, won=won))
    return match.id


def solo(names, points, deals, won) -> list[tuple]:
    """The seats of a game without teams: each its own side."""
    return [(n, seat, p, deals, w) for seat, (n, p, w) in enumerate(zip(names, points, won))]


def mariage(names, points, deals, winner) -> list[tuple]:
    """The seats of a Big Mariage match: partners opposite, ``points`` of sides 0 and 1."""
    return [(n, seat % 2, points[seat % 2], deals, winner == seat % 2)
            for seat, n in enumerate(names)]


# Ana's matches (player page): Black Maria (penalties), Marjolet and Big Mariage, with people
# and with bots, running ones among them; O1..O9, P2..P4 play with her.
ANA = "Ana P"
PAGE = [  # (game, day, seats, running)
    ("black_maria", 1, solo([ANA, "O1", "O2"], [3, 9, 14], 1, [True, False, False]), False),
    ("black_maria", 2, solo(["O1", ANA, "O3"], [26, 0, 0], 1, [False, True, True]), False),
    ("black_maria", 3, solo(["O1", "O2", ANA], [0, 4, 22], 1, [True, False, False]), False),
    ("black_maria", 4, solo([ANA, "O4", None], [13, 13, 0], 1, [False, False, True]), False),
    ("black_maria", 5, solo(["O5", ANA, "O6"], [10, 0, 16], 2, [False, True, False]), False),
    ("black_maria", 6, solo([ANA, "O7", "O8"], [0, 20, 6], 1, [True, False, False]), False),
    ("black_maria", 7, solo(["O9", None, ANA], [0, 5, 21], 1, [True, False, False]), False),
    ("black_maria", 8, solo(["O3", ANA, None], [7, 2, 4], 1, [False, False, False]), True),
    ("marjolet", 9, solo([ANA, "O2"], [310, 120], 3, [True, False]), False),
    ("marjolet", 10, solo(["O2", ANA], [301, 310], 2, [True, False]), False),
    ("big_mariage", 11, mariage([ANA, None, "P4", None], [300, -40], 4, 0), False),
    ("big_mariage", 12, mariage([None, "P4", None, ANA], [20, 100], 3, 0), False),
    ("big_mariage", 13, mariage([ANA, "P2", "P3", None], [55, 0], 2, 1), False),
    ("big_mariage", 14, mariage(["P3", None, ANA, None], [80, 20], 1, 0), True),
]

# Standings: S1..S7 chosen; tie-breaks (see test_standings_put_more_wins_first...); SX not
# chosen. All Black Maria.
S = [f"S{n} P" for n in range(1, 8)]
SX = "SX P"
TABLE = [
    ("black_maria", 1, solo([S[0], S[1]], [10, 6], 2, [True, False]), False),
    ("black_maria", 2, solo([S[0], S[2]], [4, 10], 2, [True, False]), False),
    ("black_maria", 3, solo([S[1], S[6]], [6, 6], 2, [True, False]), False),
    ("black_maria", 4, solo([S[2], S[6]], [10, 6], 2, [True, True]), False),
    ("black_maria", 5, solo([S[3], S[0]], [5, 4], 1, [True, False]), False),
    ("black_maria", 6, solo([S[5], S[3]], [4, 2], 1, [False, False]), True),
    ("black_maria", 7, solo([S[4], S[5]], [0, 0], 0, [False, False]), True),
    ("black_maria", 8, solo([S[0], SX], [100, 0], 5, [True, False]), False),
]

# Standings across games: T1 and T2 each won one Marjolet match of the two, with as many
# points; in a Black Maria match a bot won, T2 taking more penalties than T1.
T = ["T1 P", "T2 P"]
TIES = [
    ("marjolet", 1, solo(T, [301, 290], 2, [True, False]), False),
    ("marjolet", 2, solo(T, [290, 301], 2, [False, True]), False),
    ("black_maria", 3, solo([T[0], T[1], None], [2, 24, 0], 1, [False, False, True]), False),
]

# Partnerships: Q1..Q4 in Big Mariage (and a Black Maria match, which has none).
Q = [f"Q{n} P" for n in range(1, 5)]
PAIRS = [
    ("big_mariage", 1, mariage([Q[0], Q[1], Q[2], Q[3]], [300, -50], 3, 0), False),
    ("big_mariage", 3, mariage([Q[2], Q[0], Q[1], Q[3]], [120, 60], 2, 1), False),
    ("big_mariage", 4, mariage([Q[3], Q[2], Q[0], Q[1]], [40, 10], 1, None), True),
    ("big_mariage", 5, mariage([Q[2], Q[3], Q[0], Q[1]], [200, 10], 2, 0), False),
    ("black_maria", 6, solo([Q[0], Q[1], Q[2]], [0, 5, 21], 1, [True, False, False]), False),
]

# Engine matches of E1..E3 at different seats (statistics from their records).
E = [f"E{n} P" for n in range(1, 4)]
ENGINE = [("black_maria", 1, {"target": 1}, [E[0], E[1], E[2]]),
          ("black_maria", 2, {"target": 1}, [E[2], E[0], E[1]]),
          ("marjolet", 3, {"target": 1}, [E[1], E[0]]),
          ("big_mariage", 4, {"target": 300}, [E[1], E[2], E[0], "E4 P"])]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """The matches above; Ana's name claimed by a key; a player with no match yet."""
    url = fresh_sqlite(tmp_path_factory, "players")
    engine = make_engine(url)
    sessions = make_sessions(engine)
    ids, records = {}, []
    with sessions() as session, session.begin():
        for data in (PAGE, TABLE, TIES, PAIRS):
            ids[id(data)] = [add_match(session, game, day, seats, running)
                             for game, day, seats, running in data]
        for game, seed, options, names in ENGINE:
            match = played(game, seed, options)
            store_match(session, f"E{seed}", match, names, T0)
            records.append(write(match, names))
        session.scalar(select(Player).where(Player.name == ANA)).key_hash = "a" * 64
        session.add(Player(name="Zed P"))
    yield sessions, ids, records
    engine.dispose()


def figures(data, name, keep=lambda game, day, seats: True) -> dict[str, dict]:
    """``name``'s STATS figures by game over the matches of ``data`` that ``keep`` keeps."""
    out: dict[str, Counter] = {}
    for game, day, seats, running in data:
        for who, _, points, deals, won in seats:
            if who == name and keep(game, day, seats):
                c = out.setdefault(game, Counter())
                c.update(played=not running, won=won and not running, deals=deals,
                         points=points)
    return {game: with_average(c) for game, c in out.items()}


def with_average(c) -> dict:
    c = {k: int(c.get(k, 0)) for k in ("played", "won", "deals", "points")}
    return {**c, "average_per_deal": round(c["points"] / c["deals"], 2) if c["deals"] else None}


def totals(by_game: dict) -> dict:
    return with_average(sum((Counter({k: g[k] for k in ("played", "won", "deals", "points")})
                             for g in by_game.values()), Counter()))


# -- names and keys ----------------------------------------------------------------------------

def test_a_key_is_32_random_bytes_and_only_its_sha256_is_kept():
    """new_key: 32 bytes, URL-safe base64, a new one each time; key_hash: the hex SHA-256 of
    its UTF-8 bytes."""
    key = players.new_key()
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", key)
    assert len(base64.urlsafe_b64decode(key + "=")) == 32
    assert players.new_key() != key
    assert players.key_hash("ключ") == hashlib.sha256("ключ".encode()).hexdigest()
    assert players.key_hash("abc") == \
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


def test_a_name_is_claimed_by_one_key_and_found_by_it(db):
    """A new name is a new player held by the key; a guest's name (with its matches) can be
    claimed once; then another key, a guest or a rename is refused with a free variant."""
    sessions, _, _ = db
    with sessions() as session, session.begin():
        anna = players.claim(session, "Anna K", "key-1")
        assert anna.id is not None and anna.key_hash == players.key_hash("key-1")
        assert players.by_key(session, "key-1") is anna
        assert players.by_key(session, "key-2") is None
        assert players.by_name(session, "Anna K") is anna
        assert players.by_name(session, "Nobody K") is None
        guest = players.guest(session, "Gus K")
        assert guest.id is not None and guest.key_hash is None
        assert players.guest(session, "Gus K") is guest
        claimed = players.claim(session, "Gus K", "key-2")
        assert claimed is guest and claimed.key_hash == players.key_hash("key-2")
        for refused in (lambda: players.claim(session, "Anna K", "key-3"),
                        lambda: players.guest(session, "Anna K"),
                        lambda: players.rename(session, guest.id, "Anna K")):
            with pytest.raises(players.NameTaken) as taken:
                refused()
            assert (taken.value.name, taken.value.suggestion) == ("Anna K", "Anna K 2")
        assert players.by_name(session, "Anna K") is anna and guest.name == "Gus K"


def test_a_rename_keeps_the_player_and_refuses_a_name_anyone_has(db):
    """The same player under a new name; its own name again changes nothing; a guest's name is
    taken too."""
    sessions, _, _ = db
    with sessions() as session, session.begin():
        rita = players.claim(session, "Rita K", "key-r")
        players.guest(session, "Guest K")
        assert players.rename(session, rita.id, "Rita K") is rita
        renamed = players.rename(session, rita.id, "Margarita K")
        assert renamed is rita and rita.name == "Margarita K"
        assert players.by_name(session, "Rita K") is None
        session.expire_all()
        assert players.by_key(session, "key-r").name == "Margarita K"
        with pytest.raises(players.NameTaken) as taken:
            players.rename(session, rita.id, "Guest K")
        assert taken.value.suggestion == "Guest K 2"


def test_the_suggested_name_is_the_first_numbered_one_nobody_has(db):
    """"Vera 2" taken: "Vera 3", for "Vera" and for "Vera 2"; a name of 32 characters, the most, is cut to 30 before the
    number (a suggestion may be taken)."""
    sessions, _, _ = db
    long = "L" * 16 + "ж" * 16
    with sessions() as session, session.begin():
        for name in ("Vera K", "Vera K 2", long):
            players.guest(session, name)
        assert players._free_variant(session, "Vera K") == "Vera K 3"
        assert players._free_variant(session, "Vera K 2") == "Vera K 3"  # (not "Vera K 2 2")
        assert players._free_variant(session, "Vera K 9") == "Vera K 10"
        assert players._free_variant(session, long) == long[:30] + " 2"
        assert players.NameTaken("a", "b").args == ("a",)


def test_once_998_numbered_names_are_taken_the_suggestion_ends_in_a_random_suffix(db):
    """"Mo 2" to "Mo 999" all taken: the name cut to 25 and 6 random hex digits."""
    sessions, _, _ = db
    name = "M" * 32
    with sessions() as session, session.begin():
        taken = [f"{name[:32 - len(str(n)) - 1]} {n}" for n in range(2, 1000)]
        session.execute(insert(Player), [{"name": t, "name_key": name_key(t)} for t in taken])
        suggestion = players._free_variant(session, name)
    assert re.fullmatch("M{25} [0-9a-f]{6}", suggestion)


# -- statistics ---------------------------------------------------------------------------------

def test_statistics_agree_with_the_records_of_engine_matches(db):
    """all_stats: each person's points from their own seat (their team's in Big Mariage), wins,
    deals and averages by game, as worked out from the matches' records."""
    sessions, _, records = db
    with sessions() as session:
        listed = {s["name"]: s for s in players.all_stats(session)}
    for name in E:
        assert listed[name] == expected_stats(records, name)
    assert listed[E[0]]["played"] == 4


def test_everyone_is_listed_by_name_with_the_matches_of_every_game(db):
    """all_stats: every player in the order of their names, a player without matches too;
    running matches add deals and points, not matches played."""
    sessions, _, _ = db
    with sessions() as session:
        listed = players.all_stats(session)
    names = [s["name"] for s in listed]
    assert names == sorted(names) and "Zed P" in names
    by_name = {s["name"]: s for s in listed}
    assert by_name["Zed P"] == {"name": "Zed P", "played": 0, "won": 0, "deals": 0,
                                "points": 0, "average_per_deal": None, "by_game": {}}
    for data in (PAGE, TABLE, PAIRS):  # no one plays in two of them
        for name in {who for _, _, seats, _ in data for who, *_ in seats if who}:
            by_game = figures(data, name)
            assert by_name[name] == {"name": name, **totals(by_game),
                                     "by_game": dict(sorted(by_game.items()))}, name


def test_a_players_page_adds_up_each_game_with_people_and_with_bots_apart(db):
    """Ana's page: her STATS, claimed; per game the win rate (to three places), the matches
    among people and those with bots apart."""
    sessions, _, _ = db
    with sessions() as session:
        page = players.player_page(session, ANA)
        assert players.player_page(session, "Nobody P") is None
    by_game = figures(PAGE, ANA)
    assert {k: page[k] for k in ("name", "played", "won", "deals", "points",
                                 "average_per_deal")} == {"name": ANA, **totals(by_game)}
    assert page["claimed"] is True and list(page["by_game"]) == sorted(by_game)
    empty = with_average(Counter())
    people = figures(PAGE, ANA, lambda game, day, seats: all(n for n, *_ in seats))
    bots = figures(PAGE, ANA, lambda game, day, seats: not all(n for n, *_ in seats))
    for game, expected in by_game.items():
        shown = page["by_game"][game]
        assert {k: shown[k] for k in expected} == expected
        assert shown["win_rate"] == round(expected["won"] / expected["played"], 3)
        assert shown["people"] == people.get(game, empty)
        assert shown["bots"] == bots.get(game, empty)
    assert page["by_game"]["black_maria"]["win_rate"] == 0.571  # 4 of 7
    assert page["by_game"]["black_maria"]["bots"]["played"] == 2


def test_the_page_of_a_player_who_never_played_shows_nothing_played(db):
    sessions, _, _ = db
    with sessions() as session, session.begin():
        players.claim(session, "Newcomer P", "key-newcomer")
        page = players.player_page(session, "Newcomer P")
    assert page == {"name": "Newcomer P", "played": 0, "won": 0, "deals": 0, "points": 0,
                    "average_per_deal": None, "by_game": {}, "claimed": True, "timeline": [],
                    "opponents": [], "partners": []}


def test_a_players_page_shows_the_best_match_the_recent_form_and_the_timeline(db):
    """Best: the fewest penalties in Black Maria, the most points elsewhere, the earliest of
    equals; form: the last five finished matches of the game, oldest first; timeline: every
    finished match, oldest first."""
    sessions, ids, _ = db
    mine = ids[id(PAGE)]
    with sessions() as session:
        page = players.player_page(session, ANA)
        claimless = players.player_page(session, "O1")
    games = page["by_game"]
    assert games["black_maria"]["best"] == {"match": mine[1], "points": 0}
    assert games["marjolet"]["best"] == {"match": mine[8], "points": 310}
    assert games["big_mariage"]["best"] == {"match": mine[10], "points": 300}
    assert games["black_maria"]["form"] == ["lost", "lost", "won", "won", "lost"]  # days 3-7
    assert games["marjolet"]["form"] == ["won", "lost"]
    finished = [(i, game, seats, day) for i, (game, day, seats, running) in zip(mine, PAGE)
                if not running]
    assert page["timeline"] == [
        {"match": i, "game": game, "started": (T0 + timedelta(days=day)).isoformat(),
         "points": next(p for n, _, p, _, _ in seats if n == ANA),
         "won": next(w for n, _, _, _, w in seats if n == ANA)}
        for i, game, seats, day in finished]
    assert claimless["claimed"] is False
    with sessions() as session:
        unfinished = players.player_page(session, S[5])  # two running matches only
    assert {k: unfinished["by_game"]["black_maria"][k] for k in (
        "played", "deals", "win_rate", "best", "form")} == {
        "played": 0, "deals": 1, "win_rate": None, "best": None, "form": []}
    assert unfinished["timeline"] == [] and unfinished["opponents"] == []
    assert claimless["by_game"]["black_maria"]["best"] == {"match": mine[2], "points": 0}


def test_a_players_page_counts_head_to_head_records_and_partnerships(db):
    """Opponents: people on another side of her finished matches, the most played first (then
    by name), eight at most, with the matches she won and lost against each; partners: Big
    Mariage partners, the most played first."""
    sessions, _, _ = db
    with sessions() as session:
        page = players.player_page(session, ANA)
    against: dict[str, Counter] = {}
    together: dict[str, Counter] = {}
    for _, _, seats, running in PAGE:
        if running:
            continue
        [(side, points, won)] = [(s, p, w) for n, s, p, _, w in seats if n == ANA]
        for name, other_side, _, _, other_won in seats:
            if name in (None, ANA):
                continue
            if other_side == side:
                together.setdefault(name, Counter()).update(played=1, won=won, points=points)
            else:
                against.setdefault(name, Counter()).update(
                    played=1, won=won and not other_won, lost=other_won and not won)
    order = sorted(against, key=lambda n: (-against[n]["played"], n))
    assert len(order) == 10 and order[:2] == ["O2", "O1"]
    assert page["opponents"] == [{"name": n, **{k: against[n][k] for k in
                                                ("played", "won", "lost")}} for n in order[:8]]
    assert page["partners"] == [
        {"name": n, **{k: together[n][k] for k in ("played", "won", "points")}}
        for n in sorted(together, key=lambda n: (-together[n]["played"], n))]
    assert [p["name"] for p in page["partners"]] == ["P4", "P3"]  # not by name: most played first


# -- standings ----------------------------------------------------------------------------------

def shared_standing(name, chosen, data=TABLE, keep=lambda day: True) -> dict:
    """STATS of ``name`` over the matches of ``data`` with at least two of ``chosen``."""
    by_game = figures(data, name, lambda game, day, seats: sum(
        n in chosen for n, *_ in seats) > 1 and keep(day))
    return {"name": name, **totals(by_game), "by_game": by_game}


def ranked_names(db, names, game=None, since=None, until=None) -> list[tuple[int, str]]:
    """The standings' rows as the page shows them first: (rank, name)."""
    sessions, _, _ = db
    with sessions() as session:
        return [(r["rank"], r["name"]) for r in players.standings(session, names, game, since,
                                                                   until)["standings"]]


def unranked(row: dict) -> dict:
    """A standings row's STATS."""
    return {k: v for k, v in row.items() if k != "rank"}


def test_standings_count_only_the_matches_at_least_two_of_them_shared(db):
    """Each one's STATS over the matches shared with another chosen person; one person alone:
    all their matches; a name nobody has is left out."""
    sessions, _, _ = db
    with sessions() as session:
        table = players.standings(session, S + ["Nobody P"])
        alone = players.standings(session, [S[0]])
        two = players.standings(session, [S[0], S[1]])
    assert sorted(map(unranked, table["standings"]), key=lambda r: r["name"]) == [
        shared_standing(n, S) for n in S]
    mine = figures(TABLE, S[0])
    assert alone["standings"] == [{"rank": 1, "name": S[0], **totals(mine), "by_game": mine}]
    assert alone["standings"][0]["played"] == 4
    assert {r["name"]: r["played"] for r in two["standings"]} == {S[0]: 1, S[1]: 1}
    assert table["partnerships"] == [] and alone["partnerships"] == []
    assert table["unknown"] == ["Nobody P"] and alone["unknown"] == []


def test_the_leaderboard_is_everyone_who_played_over_all_their_matches_best_first(db):
    sessions, _, _ = db
    with sessions() as session:
        board = players.leaderboard(session)
        played = {r["name"]: r for r in players.all_stats(session) if r["played"]}
        top = players.leaderboard(session, "black_maria", most=2)
        black_maria = players.standings(session, [r["name"] for r in top], "black_maria")
    assert sorted(r["name"] for r in board) == sorted(played)
    assert all(unranked(r) == played[r["name"]] for r in board)  # all their matches, not the shared ones
    assert [(-r["won"], r["played"]) for r in board] == sorted((-r["won"], r["played"]) for r in board)
    assert len(top) == 2 and all(set(r["by_game"]) == {"black_maria"} for r in top)
    assert [r["name"] for r in top] == [r["name"] for r in black_maria["standings"]]


def test_standings_take_names_in_any_case_and_no_part_of_one(db):
    sessions, _, _ = db
    with sessions() as session:
        shouted = players.standings(session, [S[0].upper(), S[1].lower()])
        partly = players.standings(session, [S[0][:2]])
    assert {r["name"] for r in shouted["standings"]} == {S[0], S[1]} and shouted["unknown"] == []
    assert partly["standings"] == [] and partly["unknown"] == [S[0][:2]]  # (a league of whom?)


def test_standings_put_more_wins_first_then_fewer_matches_and_rows_level_share_a_rank(db):
    """S1 won twice; S4 once in one match; S2, S3, S7 once in two: level, they share third
    place, by name (S3 had come first across games for the most points a deal, Black Maria's
    penalties counted as if they were good); S5 and S6 no finished match. In Black Maria
    alone, the fewest penalties a deal break the tie (S2 and S7 as many: level), and a row
    with no deal comes last."""
    assert ranked_names(db, S) == [(1, S[0]), (2, S[3]), (3, S[1]), (3, S[2]), (3, S[6]),
                                   (6, S[4]), (6, S[5])]
    assert ranked_names(db, S, "black_maria") == [
        (1, S[0]), (2, S[3]), (3, S[1]), (3, S[6]), (5, S[2]), (6, S[5]), (7, S[4])]
    assert ranked_names(db, S, "marjolet") == [(1, name) for name in sorted(S)]


def test_standings_across_games_compare_no_points_and_within_one_game_the_right_way_round(db):
    """T1 and T2 each won one match of three: across the games they share first place (T2 had
    been first, the penalties it took in Black Maria added to its Marjolet points as if they
    were good). In Black Maria, the fewer penalties a deal rank higher; in Marjolet, as many
    wins, matches and points a deal: level."""
    assert ranked_names(db, T) == [(1, T[0]), (1, T[1])]
    assert ranked_names(db, T, "black_maria") == [(1, T[0]), (2, T[1])]
    assert ranked_names(db, T, "marjolet") == [(1, T[0]), (1, T[1])]


def test_standings_count_the_matches_begun_between_since_and_until(db):
    """Both bounds included; S1 and S2 shared the first day only."""
    sessions, _, _ = db
    day = lambda n: T0 + timedelta(days=n)  # noqa: E731
    with sessions() as session:
        table = players.standings(session, S, "black_maria", day(2), day(4))
    rows = {r["name"]: r for r in table["standings"]}
    for name in S:
        assert unranked(rows[name]) == shared_standing(name, S, keep=lambda d: 2 <= d <= 4), name
    assert rows[S[0]]["played"] == 1 and rows[S[6]]["played"] == 2


def test_partnerships_add_up_each_pair_on_one_side_whatever_their_seats(db):
    """Big Mariage partners among the chosen, a pair counted once whichever of them sat
    first; running matches add deals and points; the most wins first, then fewer matches;
    the dates bound them too; Black Maria alone has none."""
    sessions, _, _ = db

    def expected(keep=lambda day: True):
        pairs: dict[tuple, Counter] = {}
        for game, day, seats, running in PAIRS:
            if game != "big_mariage" or not keep(day):
                continue
            for (x, side_x, points, deals, won), (y, side_y, *_) in itertools.combinations(
                    seats, 2):
                if side_x == side_y:
                    pairs.setdefault(tuple(sorted((x, y))), Counter()).update(
                        played=not running, won=won and not running, deals=deals,
                        points=points)
        rows = [{"players": list(pair), **{k: int(c[k]) for k in
                                           ("played", "won", "deals", "points")}}
                for pair, c in pairs.items()]
        return sorted(rows, key=lambda r: (-r["won"], r["played"], r["players"]))

    with sessions() as session:
        every = players.standings(session, Q)["partnerships"]
        mariage = players.standings(session, Q, "big_mariage")["partnerships"]
        dated = players.standings(session, Q, None, T0 + timedelta(days=3),
                                  T0 + timedelta(days=4))["partnerships"]
        three = players.standings(session, Q[:3])["partnerships"]
        maria = players.standings(session, Q, "black_maria")["partnerships"]
    assert every == mariage == expected()
    assert every[0] == {"players": [Q[0], Q[2]], "played": 2, "won": 2, "deals": 5,
                        "points": 500}
    assert dated == expected(lambda day: 3 <= day <= 4)
    assert three == [p for p in expected() if Q[3] not in p["players"]]
    assert maria == []


@pytest.mark.parametrize("game", [None, "black_maria", "marjolet", "big_mariage"])
def test_the_average_key_puts_no_deals_last_and_the_better_average_first(game):
    """Lower averages first where lower is better (Black Maria), higher first otherwise."""
    lower = game is not None and GAMES[game].lower_is_better
    rows = [{"average_per_deal": a} for a in (None, 2.5, -1.0)]
    ranked = sorted(rows, key=lambda r: players._average_key(r, lower))
    assert [r["average_per_deal"] for r in ranked] == \
        ([-1.0, 2.5, None] if lower else [2.5, -1.0, None])
