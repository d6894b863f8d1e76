"""The history: matches, deals, records and player statistics, all from what is stored."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta, timezone

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine import GAMES
from engine.record import build

from .models import DealRow, MatchPlayer, MatchRow, Player, Room, RoomEvent, match_actions

#: A running match nothing has happened in for this long is shown as abandoned (its room can
#: still take it up again).
ABANDONED_AFTER = timedelta(hours=12)


def iso(value: datetime | None) -> str | None:
    """ISO 8601 in UTC (SQLite gives back naive datetimes: they were stored in UTC)."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.isoformat()


def _players(session: Session, match_ids: list[int]) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {m: [] for m in match_ids}
    if not match_ids:
        return out
    rows = session.scalars(select(MatchPlayer).where(MatchPlayer.match_id.in_(match_ids))
                           .order_by(MatchPlayer.match_id, MatchPlayer.seat))
    for row in rows:
        out[row.match_id].append({"seat": row.seat, "name": row.name, "bot": row.bot})
    return out


def _deal_counts(session: Session, match_ids: list[int]) -> dict[int, int]:
    """Each match's finished deals (not the one in progress)."""
    if not match_ids:
        return {}
    rows = session.execute(select(DealRow.match_id, func.count()).where(
        DealRow.match_id.in_(match_ids), DealRow.over.is_(True)).group_by(DealRow.match_id))
    return {m: n for m, n in rows}


def _last_activity(session: Session, room_ids: set[int]) -> dict[int, datetime]:
    """When each room stored its last event."""
    if not room_ids:
        return {}
    last = (select(RoomEvent.room_id, func.max(RoomEvent.seq).label("seq"))
            .where(RoomEvent.room_id.in_(room_ids)).group_by(RoomEvent.room_id).subquery())
    rows = session.execute(select(RoomEvent.room_id, RoomEvent.created).join(
        last, (RoomEvent.room_id == last.c.room_id) & (RoomEvent.seq == last.c.seq)))
    return {room_id: _utc(created) for room_id, created in rows}


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value


def summary_of(match: MatchRow, code: str, players: list[dict], deals: int,
               last_activity: datetime | None) -> dict:
    """MATCH_SUMMARY; ``abandoned``: running, and nothing happened for ABANDONED_AFTER."""
    last = last_activity or _utc(match.started)
    return {
        "id": match.id, "room": code, "number": match.number, "game": match.game,
        "options": match.options, "status": match.status, "started": iso(match.started),
        "ended": iso(match.ended), "players": players, "totals": match.totals,
        "winners": match.winners, "deals": deals, "last_activity": iso(last),
        "abandoned": match.status == "running"
        and datetime.now(timezone.utc) - last > ABANDONED_AFTER,
    }


def list_matches(session: Session, player: str | None, game: str | None, status: str | None,
                 since: datetime | None, until: datetime | None, limit: int,
                 offset: int) -> list[dict]:
    query = select(MatchRow, Room.code).join(Room, Room.id == MatchRow.room_id)
    if player:
        query = query.where(MatchRow.id.in_(
            select(MatchPlayer.match_id).where(MatchPlayer.name == player,
                                               MatchPlayer.bot.is_(None))))
    if game:
        query = query.where(MatchRow.game == game)
    if status:
        query = query.where(MatchRow.status == status)
    if since:
        query = query.where(MatchRow.started >= since)
    if until:
        query = query.where(MatchRow.started <= until)
    query = query.order_by(MatchRow.started.desc(), MatchRow.id.desc()).limit(limit).offset(offset)
    rows = session.execute(query).all()
    ids = [m.id for m, _ in rows]
    players, counts = _players(session, ids), _deal_counts(session, ids)
    last = _last_activity(session, {m.room_id for m, _ in rows if m.status == "running"})
    return [summary_of(m, code, players[m.id], counts.get(m.id, 0), last.get(m.room_id))
            for m, code in rows]


def match_detail(session: Session, match_id: int) -> dict | None:
    row = session.execute(select(MatchRow, Room.code).join(Room, Room.id == MatchRow.room_id)
                          .where(MatchRow.id == match_id)).first()
    if row is None:
        return None
    match, code = row
    deals = list(session.scalars(select(DealRow).where(DealRow.match_id == match_id)
                                 .order_by(DealRow.index)))
    counts = Counter(event.data["deal"] for event in session.scalars(match_actions(match)))
    last = _last_activity(session, {match.room_id}).get(match.room_id)
    out = summary_of(match, code, _players(session, [match_id])[match_id],
                     sum(1 for d in deals if d.over), last)
    out["teams"] = GAMES[match.game].teams
    out["deal_list"] = [
        {"index": d.index, "dealer": d.dealer, "over": d.over, "scores": d.scores,
         "summary": d.summary, "actions": counts.get(d.index, 0),
         "started": iso(d.started), "ended": iso(d.ended)}
        for d in deals
    ]
    return out


#: :func:`finished_record`'s answer for a match that is still running.
RUNNING = object()


def finished_record(session: Session, match_id: int):
    """The record of a finished match; None for no such match, :data:`RUNNING` while it runs
    (its packs are secret)."""
    match = session.get(MatchRow, match_id)
    if match is None:
        return None
    if match.status != "finished":
        return RUNNING
    return record(session, match_id)


def record(session: Session, match_id: int) -> dict | None:
    """The match as a record.md record (the caller checks that it is finished)."""
    match = session.get(MatchRow, match_id)
    if match is None:
        return None
    players = [p["name"] for p in _players(session, [match_id])[match_id]]
    actions: dict[int, list] = {}
    for event in session.scalars(match_actions(match)):
        actions.setdefault(event.data["deal"], []).append((event.data["seat"],
                                                           event.data["action"]))
    deals = [(d.dealer, d.deck, d.kitty, actions.get(d.index, []))
             for d in session.scalars(select(DealRow).where(DealRow.match_id == match_id)
                                      .order_by(DealRow.index))]
    return {**build(match.game, match.options, deals, players), "match_id": match.id,
            "started": iso(match.started), "ended": iso(match.ended)}


def _score_index(game: str, seat: int) -> int:
    return seat % 2 if GAMES[game].teams else seat


def player_stats(session: Session, name: str) -> dict | None:
    player = session.scalar(select(Player).where(Player.name == name))
    if player is None:
        return None
    return _stats(session, name, [player.id])


def all_stats(session: Session) -> list[dict]:
    return [_stats(session, p.name, [p.id])
            for p in session.scalars(select(Player).order_by(Player.name))]


def _stats(session: Session, name: str, ids: list[int]) -> dict:
    seats = session.execute(select(MatchPlayer.match_id, MatchPlayer.seat, MatchRow)
                            .join(MatchRow, MatchRow.id == MatchPlayer.match_id)
                            .where(MatchPlayer.player_id.in_(ids))).all()
    by_game: dict[str, dict] = {}
    match_ids = [m for m, _, _ in seats]
    deal_rows: dict[int, list[DealRow]] = {}
    if match_ids:
        for d in session.scalars(select(DealRow).where(DealRow.match_id.in_(match_ids),
                                                       DealRow.over.is_(True))):
            deal_rows.setdefault(d.match_id, []).append(d)
    for match_id, seat, match in seats:
        g = by_game.setdefault(match.game, {"played": 0, "won": 0, "deals": 0, "points": 0})
        index = _score_index(match.game, seat)
        if match.status == "finished":
            g["played"] += 1
            if index in (match.winners or []):
                g["won"] += 1
        for d in deal_rows.get(match_id, []):
            g["deals"] += 1
            g["points"] += (d.scores or [0] * (index + 1))[index]
    total = {"played": 0, "won": 0, "deals": 0, "points": 0}
    for g in by_game.values():
        for key in total:
            total[key] += g[key]
        g["average_per_deal"] = round(g["points"] / g["deals"], 2) if g["deals"] else None
    total["average_per_deal"] = (round(total["points"] / total["deals"], 2)
                                 if total["deals"] else None)
    return {"name": name, **total, "by_game": by_game}
