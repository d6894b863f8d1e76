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
#: The largest id a row may have (a signed 64-bit integer): a larger one names no match, and
#: the databases refuse to compare with it.
MAX_ID = 2 ** 63 - 1


def iso(value: datetime | None) -> str | None:
    """ISO 8601 in UTC (SQLite gives back naive datetimes: they were stored in UTC)."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.isoformat()


def seat_results(match) -> list[tuple[int, int, bool]]:
    """Each seat's ``(points, deals, won)`` in an engine Match: its side's points over the
    finished deals, their number, and whether its side won the finished match (what
    ``match_players`` keeps as each deal ends)."""
    game = match.game
    finished = [deal.scores() for deal in match.deals if deal.over]
    sides = [game.side(seat) for seat in range(game.seats)]
    return [(sum(s[side] for s in finished), len(finished),
             match.finished and side in match.winners) for side in sides]


def _players(session: Session, match_ids: list[int]) -> dict[int, list[dict]]:
    """Each match's seats: a person by the name they have now (a rename keeps the history),
    ``guest`` when no player key holds it; a bot by its seat's name and its kind."""
    out: dict[int, list[dict]] = {m: [] for m in match_ids}
    if not match_ids:
        return out
    rows = session.execute(
        select(MatchPlayer.match_id, MatchPlayer.seat, MatchPlayer.name, MatchPlayer.bot,
               Player.name, Player.key_hash)
        .outerjoin(Player, Player.id == MatchPlayer.player_id)
        .where(MatchPlayer.match_id.in_(match_ids))
        .order_by(MatchPlayer.match_id, MatchPlayer.seat))
    for match_id, seat, name_then, bot, name, key in rows:
        out[match_id].append({"seat": seat, "name": name or name_then, "bot": bot,
                              "guest": bot is None and key is None})
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


def everyone(session: Session) -> list:
    """Every player's (id, name), for :func:`meant_by`."""
    return session.execute(select(Player.id, Player.name)).all()


def meant_by(players: list, typed: str, partly: bool = False) -> list:
    """The ``players`` (rows of id and name) a name typed in a search means: the one it names
    whatever the case ("anna": Anna); failing that, given ``partly``, those whose names hold it
    ("ann": Anna, Joanna), at most 500. (Compared in Python: SQLite's lower() knows no letter
    beyond ASCII.)"""
    wanted = typed.strip().casefold()
    if not wanted:
        return []
    exact = [p for p in players if p.name.casefold() == wanted]
    return exact or ([p for p in players if wanted in p.name.casefold()][:500] if partly else [])


def list_matches(session: Session, player: str | None, game: str | None, status: str | None,
                 since: datetime | None, until: datetime | None, limit: int,
                 offset: int) -> list[dict]:
    query = select(MatchRow, Room.code).join(Room, Room.id == MatchRow.room_id)
    if player and player.strip():  # (the name whatever its case, else any name that holds it)
        ids = [p.id for p in meant_by(everyone(session), player, partly=True)]
        query = query.where(MatchRow.id.in_(
            select(MatchPlayer.match_id).where(MatchPlayer.player_id.in_(ids))))
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
    if not 0 < match_id <= MAX_ID:
        return None
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
    return _if_finished(session, match_id, lambda: record(session, match_id))


def finished_players(session: Session, match_id: int):
    """The players' names of a finished match (by seat), or None and :data:`RUNNING` as
    :func:`finished_record` says them, without reading its actions."""
    return _if_finished(session, match_id,
                        lambda: [p["name"] for p in _players(session, [match_id])[match_id]])


def _if_finished(session: Session, match_id: int, then):
    if not 0 < match_id <= MAX_ID:
        return None
    match = session.get(MatchRow, match_id)
    if match is None:
        return None
    if match.status != "finished":
        return RUNNING
    return then()


def record(session: Session, match_id: int) -> dict | None:
    """The match as a record.md record (the caller checks that it is finished)."""
    match = session.get(MatchRow, match_id)
    if match is None:
        return None
    players = [p["name"] for p in _players(session, [match_id])[match_id]]
    actions: dict[int, list] = {}
    by_bot: dict[int, list] = {}
    for event in session.scalars(match_actions(match)):
        deal = actions.setdefault(event.data["deal"], [])
        if event.data.get("timer") or event.data.get("standin"):
            by_bot.setdefault(event.data["deal"], []).append(len(deal))
        deal.append((event.data["seat"], event.data["action"]))
    rows = session.scalars(select(DealRow).where(DealRow.match_id == match_id)
                           .order_by(DealRow.index)).all()
    made = build(match.game, match.options,
                 [(d.dealer, d.deck, d.kitty, actions.get(d.index, [])) for d in rows], players)
    # the actions a bot made for a person (the turn timer's, a stand-in's): a key of the deal
    # that other readers of the record ignore (record.md)
    for row, entry in zip(rows, made["deals"]):
        if by_bot.get(row.index):
            entry["by_bot"] = by_bot[row.index]
    return {**made, "match_id": match.id, "started": iso(match.started),
            "ended": iso(match.ended)}
