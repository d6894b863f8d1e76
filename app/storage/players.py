"""People: names claimed by a player key, and what they did over weeks of matches (statistics,
head-to-head, partnerships, standings), added up from what each match seat keeps
(``match_players.points``, ``deals``, ``won``: kept as each deal ends)."""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from engine import GAMES

from .history import iso
from .models import MatchPlayer, MatchRow, Player
from .stored import Refused

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
    return session.scalar(select(Player).where(Player.name == name))


def claim(session: Session, name: str, key: str) -> Player:
    """The name, held from now on by ``key``: a new player, or a guest's name (with its
    history) nobody claimed yet. NameTaken if another key holds it."""
    player = by_name(session, name)
    if player is None:
        player = Player(name=name)
        session.add(player)
    elif player.key_hash is not None:
        raise NameTaken(name, _free_variant(session, name))
    player.key_hash = key_hash(key)
    session.flush()
    return player


def rename(session: Session, player_id: int, name: str) -> Player:
    """The same player (and history) under a new name nobody has."""
    player = session.get(Player, player_id)
    if name != player.name:
        if by_name(session, name) is not None:
            raise NameTaken(name, _free_variant(session, name))
        player.name = name
        session.flush()
    return player


def guest(session: Session, name: str) -> Player:
    """The player of a name typed without a key: a guest's. NameTaken if a key holds it."""
    player = by_name(session, name)
    if player is None:
        player = Player(name=name)
        session.add(player)
        session.flush()
    elif player.key_hash is not None:
        raise NameTaken(name, _free_variant(session, name))
    return player


def _free_variant(session: Session, name: str) -> str:
    """A name like ``name`` that nobody has: "Anna 2", "Anna 3"..."""
    for n in range(2, 1000):
        candidate = f"{name[:60]} {n}"
        if by_name(session, candidate) is None:
            return candidate
    return f"{name[:50]} {secrets.token_hex(3)}"


# -- what people did ---------------------------------------------------------------------------

@dataclass(slots=True)
class Seat:
    """One match seat of a player, with its match's facts."""

    player_id: int
    match_id: int
    seat: int
    points: int
    deals: int
    won: bool
    game: str
    finished: bool
    started: datetime
    bots: int


def _seats(session: Session, player_ids, game: str | None = None,
           since: datetime | None = None, until: datetime | None = None) -> list[Seat]:
    query = (select(MatchPlayer.player_id, MatchPlayer.match_id, MatchPlayer.seat,
                    MatchPlayer.points, MatchPlayer.deals, MatchPlayer.won, MatchRow.game,
                    MatchRow.status, MatchRow.started, MatchRow.bot_seats)
             .join(MatchRow, MatchRow.id == MatchPlayer.match_id)
             .where(MatchPlayer.player_id.in_(player_ids)))
    if game:
        query = query.where(MatchRow.game == game)
    if since:
        query = query.where(MatchRow.started >= since)
    if until:
        query = query.where(MatchRow.started <= until)
    return [Seat(p, m, s, pts, deals, won, g, status == "finished", started, bots)
            for p, m, s, pts, deals, won, g, status, started, bots in session.execute(query)]


def _totals(seats: list[Seat]) -> dict:
    """STATS' figures: finished matches played and won; deals and points of every match."""
    played = sum(1 for s in seats if s.finished)
    won = sum(1 for s in seats if s.finished and s.won)
    deals, points = sum(s.deals for s in seats), sum(s.points for s in seats)
    return {"played": played, "won": won, "deals": deals, "points": points,
            "average_per_deal": round(points / deals, 2) if deals else None}


def stats(name: str, seats: list[Seat]) -> dict:
    """STATS (docs/protocol.md): the totals, and by game."""
    by_game = defaultdict(list)
    for seat in seats:
        by_game[seat.game].append(seat)
    return {"name": name, **_totals(seats),
            "by_game": {game: _totals(rows) for game, rows in sorted(by_game.items())}}


def all_stats(session: Session) -> list[dict]:
    players = list(session.scalars(select(Player).order_by(Player.name)))
    seats = defaultdict(list)
    for seat in _seats(session, [p.id for p in players]):
        seats[seat.player_id].append(seat)
    return [stats(p.name, seats[p.id]) for p in players]


def player_page(session: Session, name: str) -> dict | None:
    """Everything a player page shows: STATS; per game the win rate, the best match, the
    recent form and the results against people and against bots apart; results over time;
    head-to-head against the people played most; Big Mariage partnerships."""
    player = by_name(session, name)
    if player is None:
        return None
    seats = _seats(session, [player.id])
    out = stats(player.name, seats)
    out["claimed"] = player.key_hash is not None
    for game, figures in out["by_game"].items():
        mine = [s for s in seats if s.game == game]
        figures.update(_game_detail(game, mine))
    finished = sorted((s for s in seats if s.finished), key=lambda s: (s.started, s.match_id))
    out["timeline"] = [{"match": s.match_id, "game": s.game, "started": iso(s.started),
                        "points": s.points, "won": s.won} for s in finished[-TIMELINE:]]
    out["opponents"], out["partners"] = _others(session, player.id, finished)
    return out


def _game_detail(game: str, seats: list[Seat]) -> dict:
    finished = sorted((s for s in seats if s.finished), key=lambda s: (s.started, s.match_id))
    lower = GAMES[game].lower_is_better
    best = (min if lower else max)(finished, key=lambda s: s.points, default=None)
    people = [s for s in seats if not s.bots]
    return {
        "win_rate": round(sum(s.won for s in finished) / len(finished), 3) if finished else None,
        "best": {"match": best.match_id, "points": best.points} if best else None,
        "form": ["won" if s.won else "lost" for s in finished[-FORM:]],
        "people": _totals(people),
        "bots": _totals([s for s in seats if s.bots]),
    }


def _others(session: Session, player_id: int, finished: list[Seat]) -> tuple[list, list]:
    """Head-to-head records against the people played most (opponents: another side), and
    each Big Mariage partnership's (partners: the same side), over finished matches."""
    mine = {s.match_id: s for s in finished}
    if not mine:
        return [], []
    other = aliased(MatchPlayer)
    rows = session.execute(
        select(other.match_id, other.seat, other.won, Player.name)
        .join(Player, Player.id == other.player_id)
        .where(other.match_id.in_(mine), other.player_id != player_id, other.bot.is_(None)))
    against, together = defaultdict(Counter), defaultdict(Counter)
    for match_id, seat, won, name in rows:
        me = mine[match_id]
        game = GAMES[me.game]
        if game.side(seat) == game.side(me.seat):
            together[name]["played"] += 1
            together[name]["won"] += me.won
            together[name]["points"] += me.points
        else:
            record = against[name]
            record["played"] += 1
            record["won"] += me.won and not won
            record["lost"] += won and not me.won
    opponents = sorted(against.items(), key=lambda item: (-item[1]["played"], item[0]))
    partners = sorted(together.items(), key=lambda item: (-item[1]["played"], item[0]))
    return ([{"name": n, "played": r["played"], "won": r["won"], "lost": r["lost"]}
             for n, r in opponents[:OPPONENTS]],
            [{"name": n, "played": r["played"], "won": r["won"], "points": r["points"]}
             for n, r in partners])


def standings(session: Session, names: list[str], game: str | None = None,
              since: datetime | None = None, until: datetime | None = None) -> dict:
    """A league table of ``names``: each one's STATS over the matches in which at least two of
    them played (all their matches when only one is asked), best first (more matches won,
    then fewer played, then the better average per deal); and, in Big Mariage, each
    partnership of two of them."""
    players = list(session.scalars(select(Player).where(Player.name.in_(names))))
    seats = _seats(session, [p.id for p in players], game, since, until)
    if len(players) > 1:
        together = Counter(s.match_id for s in seats)
        seats = [s for s in seats if together[s.match_id] > 1]
    by_player = defaultdict(list)
    for seat in seats:
        by_player[seat.player_id].append(seat)
    rows = [stats(p.name, by_player[p.id]) for p in players]
    lower = game is not None and GAMES[game].lower_is_better
    rows.sort(key=lambda r: (-r["won"], r["played"], _average_key(r, lower), r["name"]))
    return {"standings": rows, "partnerships": _partnerships(players, seats)}


def _average_key(row: dict, lower: bool) -> float:
    average = row["average_per_deal"]
    if average is None:
        return float("inf")
    return average if lower else -average


def _partnerships(players: list[Player], seats: list[Seat]) -> list[dict]:
    """Big Mariage: each pair of the players who sat on one side, with its record."""
    names = {p.id: p.name for p in players}
    by_match = defaultdict(list)
    for seat in seats:
        if seat.game == "big_mariage":
            by_match[seat.match_id].append(seat)
    pairs = defaultdict(Counter)
    game = GAMES["big_mariage"]
    for match_seats in by_match.values():
        for a in match_seats:
            for b in match_seats:
                if a.seat < b.seat and game.side(a.seat) == game.side(b.seat):
                    record = pairs[tuple(sorted((names[a.player_id], names[b.player_id])))]
                    record["played"] += a.finished
                    record["won"] += a.finished and a.won
                    record["deals"] += a.deals
                    record["points"] += a.points
    rows = [{"players": list(pair), **{k: r[k] for k in ("played", "won", "deals", "points")}}
            for pair, r in pairs.items()]
    return sorted(rows, key=lambda r: (-r["won"], r["played"], r["players"]))
