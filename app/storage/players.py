"""People: names claimed by a player key, and what they did over weeks of matches (statistics,
head-to-head, partnerships, standings), added up from what each match seat keeps
(``match_players.points``, ``deals``, ``won``: kept as each deal ends)."""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections import Counter, defaultdict
from datetime import datetime

import regex
from sqlalchemy import case, func, select
from sqlalchemy.orm import Session, aliased

from engine import GAMES

from ..protocol import NAME_CODE_POINTS, NAME_MAX, name_key
from .history import everyone, iso, meant_by
from .models import MatchPlayer, MatchRow, Player
from .stored import Refused

#: The games played by partnerships (Big Mariage).
PARTNERSHIP_GAMES = [g.name for g in GAMES.values() if g.teams]
#: Finished matches a player page draws over time, and results in its recent form.
TIMELINE, FORM = 200, 5
#: People a player page shows head-to-head records against.
OPPONENTS = 8


class NameTaken(Refused):
    """The name is held by another player key (or, for a rename, by anyone)."""

    def __init__(self, name: str, suggestion: str):
        super().__init__(name)
        self.name, self.suggestion = name, suggestion


def new_key() -> str:
    """A player key: a secret its browsers keep; the server stores only :func:`key_hash`."""
    return secrets.token_urlsafe(32)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def by_key(session: Session, key: str) -> Player | None:
    return session.scalar(select(Player).where(Player.key_hash == key_hash(key)))


def by_name(session: Session, name: str) -> Player | None:
    """The player of ``name`` or of a name that reads alike ("anna" finds "Anna")."""
    return session.scalar(select(Player).where(Player.name_key == name_key(name)))


def check_free(session: Session, name: str, player_id: int | None = None) -> Player | None:
    """NameTaken if ``name`` may not be claimed (``player_id`` None) or taken by the player
    ``player_id`` in a rename: another key holds it, or for a rename anyone else has it. The
    player who has it, if any (a guest's, to claim)."""
    player = by_name(session, name)
    if player is not None and player.id != player_id and (
            player_id is not None or player.key_hash is not None):
        raise NameTaken(name, _free_variant(session, name))
    return player


def claim(session: Session, name: str, key: str) -> Player:
    """The name, held from now on by ``key``: a new player, or a guest's name (with its
    history) nobody claimed yet. NameTaken if another key holds it."""
    player = check_free(session, name)
    if player is None:
        player = Player(name=name)
        session.add(player)
    player.key_hash = key_hash(key)
    session.flush()
    return player


def rename(session: Session, player_id: int, name: str) -> Player:
    """The same player (and history) under a new name nobody has."""
    player = session.get(Player, player_id)
    if name != player.name:
        check_free(session, name, player_id)
        player.name = name
        session.flush()
    return player


def guest(session: Session, name: str) -> Player:
    """The player of a name typed without a key: a guest's. NameTaken if a key holds it."""
    player = free_for_guests(session, name)
    if player is None:
        player = Player(name=name)
        session.add(player)
        session.flush()
    return player


def free_for_guests(session: Session, name: str) -> Player | None:
    """The guest's player of ``name`` if there is one; NameTaken if a key holds it."""
    player = by_name(session, name)
    if player is not None and player.key_hash is not None:
        raise NameTaken(name, _free_variant(session, name))
    return player


def _free_variant(session: Session, name: str) -> str:
    """A name like ``name`` that nobody has and that may be taken: "Anna 2", "Anna 3"...; a
    numbered name counts on from its number ("Anna 2" taken: "Anna 3", not "Anna 2 2"); a long
    name shortened to leave room for its number (the suggestion had been too long)."""
    numbered = regex.fullmatch(r"(.*\S) ([0-9]{1,3})", name)
    base, first = (numbered[1], int(numbered[2]) + 1) if numbered else (name, 2)
    for n in range(first, 1000):
        candidate = _with_suffix(base, f" {n}")
        if by_name(session, candidate) is None:
            return candidate
    return _with_suffix(name, f" {secrets.token_hex(3)}")


def _with_suffix(name: str, suffix: str) -> str:
    letters = regex.findall(r"\X", name)[:NAME_MAX - len(suffix)]
    while len("".join(letters) + suffix) > NAME_CODE_POINTS:
        letters.pop()
    return "".join(letters).rstrip() + suffix


# -- what people did ---------------------------------------------------------------------------
# Every figure is added up by the database (a few rows come back, whatever the years of play):
# built for each of thousands of match seats, Python objects had cost a standings page 300 ms.

_FINISHED = MatchRow.status == "finished"
_WON = case((_FINISHED & MatchPlayer.won.is_(True), 1), else_=0)
_FIGURES = (func.sum(case((_FINISHED, 1), else_=0)), func.sum(_WON),
            func.sum(MatchPlayer.deals), func.sum(MatchPlayer.points))


def _figures(played, won, deals, points) -> dict:
    """STATS' figures: finished matches played and won; deals and points of every match."""
    played, won, deals, points = (int(x or 0) for x in (played, won, deals, points))
    return {"played": played, "won": won, "deals": deals, "points": points,
            "average_per_deal": round(points / deals, 2) if deals else None}


def _add(totals: dict, figures: dict) -> None:
    for key in ("played", "won", "deals", "points"):
        totals[key] += figures[key]
    totals["average_per_deal"] = (round(totals["points"] / totals["deals"], 2)
                                  if totals["deals"] else None)


def _seats_of(player_ids, game=None, since=None, until=None, matches=None):
    """The match seats of these players, with their matches: a query's FROM and WHERE."""
    query = (select().select_from(MatchPlayer)
             .join(MatchRow, MatchRow.id == MatchPlayer.match_id)
             .where(MatchPlayer.player_id.in_(player_ids)))
    if game:
        query = query.where(MatchRow.game == game)
    if since:
        query = query.where(MatchRow.started >= since)
    if until:
        query = query.where(MatchRow.started <= until)
    if matches is not None:
        query = query.where(MatchPlayer.match_id.in_(matches))
    return query


def _by_player_and_game(session: Session, query) -> dict[int, dict[str, dict]]:
    rows = session.execute(query.add_columns(MatchPlayer.player_id, MatchRow.game, *_FIGURES)
                           .group_by(MatchPlayer.player_id, MatchRow.game))
    out: dict[int, dict[str, dict]] = defaultdict(dict)
    for player_id, game, *figures in rows:
        out[player_id][game] = _figures(*figures)
    return out


def stats(name: str, by_game: dict[str, dict]) -> dict:
    """STATS (docs/protocol.md): the totals, and by game."""
    totals = _figures(0, 0, 0, 0)
    for figures in by_game.values():
        _add(totals, figures)
    return {"name": name, **totals, "by_game": dict(sorted(by_game.items()))}


def all_stats(session: Session) -> list[dict]:
    people = list(session.scalars(select(Player).order_by(Player.name)))
    figures = _by_player_and_game(session, _seats_of([p.id for p in people]))
    return [stats(p.name, figures.get(p.id, {})) for p in people]


def player_page(session: Session, name: str) -> dict | None:
    """Everything a player page shows: STATS; per game the win rate, the best match, the
    recent form and the results among people and with bots apart; results over time;
    head-to-head against the people played most; Big Mariage partnerships. (``name`` as typed
    in an address: NFC, as names are kept.)"""
    player = by_name(session, unicodedata.normalize("NFC", name))
    if player is None:
        return None
    mine = _seats_of([player.id])
    out = stats(player.name, _by_player_and_game(session, mine).get(player.id, {}))
    out["claimed"] = player.key_hash is not None
    with_bots = case((MatchRow.bot_seats > 0, 1), else_=0)
    split = {(game, bots): _figures(*figures) for game, bots, *figures in session.execute(
        mine.add_columns(MatchRow.game, with_bots, *_FIGURES)
        .group_by(MatchRow.game, with_bots))}
    empty = _figures(0, 0, 0, 0)
    finished = _finished_seats(session, mine)
    for game, figures in out["by_game"].items():
        of_game = [seat for seat in finished if seat.game == game]
        figures.update(
            win_rate=round(figures["won"] / figures["played"], 3) if figures["played"] else None,
            best=_best(of_game, GAMES[game].lower_is_better),
            form=["won" if seat.won else "lost" for seat in reversed(of_game[:FORM])],
            form_matches=[seat.id for seat in reversed(of_game[:FORM])],
            people=split.get((game, 0), empty), bots=split.get((game, 1), empty))
    out["timeline"] = [{"match": seat.id, "game": seat.game, "started": iso(seat.started),
                        "points": seat.points, "won": seat.won}
                       for seat in reversed(finished[:TIMELINE])]
    out["opponents"], out["partners"] = _others(session, player.id)
    return out


def _finished_seats(session: Session, mine) -> list:
    """The player's finished matches, the newest first (in the order of their ids, which is
    the order they began): one query for the best match, the form and the timeline of every
    game, where a query each had cost PostgreSQL 2 s a page at 10,000 matches."""
    return session.execute(mine.where(_FINISHED).add_columns(
        MatchRow.id, MatchRow.game, MatchRow.started, MatchPlayer.points, MatchPlayer.won)
        .order_by(MatchPlayer.match_id.desc())).all()


def _best(seats: list, lower_is_better: bool) -> dict | None:
    """The match with the player's side's best points (the fewest penalties where lower is
    better), the earliest of equals."""
    if not seats:
        return None
    best = min(seats, key=lambda s: (s.points if lower_is_better else -s.points, s.started))
    return {"match": best.id, "points": best.points}


def _others(session: Session, player_id: int) -> tuple[list, list]:
    """Head-to-head records against the people played most (on another side) and each
    partnership's (on the same side: Big Mariage), over finished matches."""
    me, other = aliased(MatchPlayer), aliased(MatchPlayer)
    joined = (select().select_from(me)
              .join(MatchRow, MatchRow.id == me.match_id)
              .join(other, (other.match_id == me.match_id) & (other.player_id != player_id)
                    & other.bot.is_(None))
              .join(Player, Player.id == other.player_id)
              .where(me.player_id == player_id, _FINISHED))
    partner = me.side == other.side
    against = session.execute(joined.where(~partner).add_columns(
        Player.name, func.count(),
        func.sum(case((me.won.is_(True) & other.won.is_(False), 1), else_=0)),
        func.sum(case((other.won.is_(True) & me.won.is_(False), 1), else_=0)))
        .group_by(Player.name).order_by(func.count().desc(), Player.name).limit(OPPONENTS))
    together = session.execute(joined.where(partner).add_columns(
        Player.name, func.count(), func.sum(case((me.won.is_(True), 1), else_=0)),
        func.sum(me.points))
        .group_by(Player.name).order_by(func.count().desc(), Player.name))
    return ([{"name": n, "played": p, "won": int(w), "lost": int(lost)}
             for n, p, w, lost in against],
            [{"name": n, "played": p, "won": int(w), "points": int(pts)}
             for n, p, w, pts in together])


def standings(session: Session, names: list[str], game: str | None = None,
              since: datetime | None = None, until: datetime | None = None) -> dict:
    """A league table of ``names`` (whatever their case): each one's STATS over the matches in
    which at least two of them played (all their matches when only one is asked), ranked
    best first (:func:`_ranked`); in Big Mariage, each partnership of two of them; and the
    names nobody has played under. Without names, the :func:`leaderboard` of everyone."""
    if not names:
        return {"standings": leaderboard(session, game, since, until), "partnerships": [],
                "unknown": []}
    known = everyone(session)
    found = {name: meant_by(known, name) for name in names}
    people = list({p.id: p for matches in found.values() for p in matches}.values())
    ids = [p.id for p in people]
    shared = None
    if len(people) > 1:
        shared = (select(MatchPlayer.match_id).where(MatchPlayer.player_id.in_(ids))
                  .group_by(MatchPlayer.match_id).having(func.count() > 1))
    figures = _by_player_and_game(session, _seats_of(ids, game, since, until, shared))
    rows = _ranked([stats(p.name, figures.get(p.id, {})) for p in people], game)
    pairs = _partnerships(session, ids, since, until) \
        if game is None or game in PARTNERSHIP_GAMES else []
    return {"standings": rows, "partnerships": pairs,
            "unknown": [name for name, matches in found.items() if not matches]}


def leaderboard(session: Session, game: str | None = None, since: datetime | None = None,
                until: datetime | None = None, most: int = 50) -> list[dict]:
    """Everyone who has finished a match here (``game``, between ``since`` and ``until``):
    their STATS over all their matches, ranked as in :func:`standings`, the first ``most``."""
    people = everyone(session)
    figures = _by_player_and_game(session, _seats_of([p.id for p in people], game, since, until))
    rows = [stats(p.name, figures[p.id]) for p in people if p.id in figures]
    return _ranked([r for r in rows if r["played"]], game)[:most]  # (a match finished)


def _ranked(rows: list[dict], game: str | None) -> list[dict]:
    """Best first, each with its ``rank``: more matches won, then fewer played; within one
    game, then the better points per deal (the fewer in Black Maria, where they are
    penalties). Rows level in all of that share a rank ("1, 1, 3"), in the order of their
    names; someone named who has played none of these matches comes last (fewer played is
    better only among those who played). Across games no points are compared: a sum of Black
    Maria's penalties and the others' points had ranked a player higher for taking more
    penalties."""
    level = _level_key(game)
    ordered = sorted(rows, key=lambda r: (level(r), r["name"]))
    for place, (above, row) in enumerate(zip([None, *ordered], ordered), 1):
        row["rank"] = above["rank"] if above and level(above) == level(row) else place
    return ordered


def _level_key(game: str | None):
    """What a row's rank is worked out from, the smallest for the best: only figures the
    standings page shows (points per deal as rounded there)."""
    if game is None:
        return lambda r: (not r["played"], -r["won"], r["played"])
    lower = GAMES[game].lower_is_better
    return lambda r: (not r["played"], -r["won"], r["played"], _average_key(r, lower))


def _average_key(row: dict, lower: bool) -> float:
    average = row["average_per_deal"]
    if average is None:
        return float("inf")
    return average if lower else -average


def _partnerships(session: Session, ids: list[int], since, until) -> list[dict]:
    """Each pair of these players who sat on one side (Big Mariage), with its record."""
    a, b = aliased(MatchPlayer), aliased(MatchPlayer)
    pa, pb = aliased(Player), aliased(Player)
    query = (select(pa.name, pb.name, func.sum(case((_FINISHED, 1), else_=0)),
                    func.sum(case((_FINISHED & a.won.is_(True), 1), else_=0)),
                    func.sum(a.deals), func.sum(a.points))
             .select_from(a)
             .join(b, (b.match_id == a.match_id) & (b.side == a.side) & (b.seat > a.seat))
             .join(MatchRow, MatchRow.id == a.match_id)
             .join(pa, pa.id == a.player_id).join(pb, pb.id == b.player_id)
             .where(MatchRow.game.in_(PARTNERSHIP_GAMES), a.player_id.in_(ids),
                    b.player_id.in_(ids))
             .group_by(pa.name, pb.name))
    if since:
        query = query.where(MatchRow.started >= since)
    if until:
        query = query.where(MatchRow.started <= until)
    pairs: dict[tuple, Counter] = defaultdict(Counter)
    for x, y, played, won, deals, points in session.execute(query):
        pairs[tuple(sorted((x, y)))].update(played=int(played), won=int(won), deals=int(deals),
                                            points=int(points))
    rows = [{"players": list(pair), **{k: r[k] for k in ("played", "won", "deals", "points")}}
            for pair, r in pairs.items()]
    return sorted(rows, key=lambda r: (-r["won"], r["played"], r["players"]))
