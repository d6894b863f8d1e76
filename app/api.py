"""The REST side: rooms, joining, history, records and statistics (OpenAPI at /docs)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from typing import Literal

from fastapi import APIRouter, HTTPException, Query, Request
from pydantic import BaseModel, Field

from engine import GAMES, BadOptions
from engine.bots import BOT_KINDS

from . import history
from .rooms import RoomError

router = APIRouter(prefix="/api")


class CreateRoom(BaseModel):
    game: Literal["marjolet", "black_maria", "big_mariage"]
    options: dict = Field(default_factory=dict, description="the game's options (GET /api/games)")
    seats: list[str] | None = Field(
        None, description='one per seat: "open", "bot:rules" or "bot:random" '
                          '(default: every seat open)')
    turn_timer: float | None = Field(None, ge=1, le=600,
                                     description="seconds per turn for people; null: off")


class Join(BaseModel):
    name: str = Field(min_length=1, max_length=32)
    seat: int | None = None


def refuse(error: RoomError):
    status = {"not_available": 409, "conflict": 409, "storage": 503}.get(error.code, 400)
    raise HTTPException(status, error.message)


def parse_seat(spec: str) -> tuple[str, str | None]:
    spec = spec.strip().lower()
    if spec == "open":
        return "open", None
    kind = spec.split(":", 1)[1] if spec.startswith("bot:") else spec
    if kind not in BOT_KINDS:
        raise HTTPException(422, f'a seat is "open", "bot:rules" or "bot:random", not {spec!r}')
    return "bot", kind


@router.get("/games")
def games():
    return {"games": [
        {"name": g.name, "title": g.title, "seats": g.seats, "teams": g.teams,
         "options": {k: {"default": o.default, "meaning": o.meaning} for k, o in g.options.items()}}
        for g in GAMES.values()
    ]}


@router.post("/rooms", status_code=201)
async def create_room(body: CreateRoom, request: Request):
    game = GAMES[body.game]
    specs = body.seats if body.seats is not None else ["open"] * game.seats
    if len(specs) != game.seats:
        raise HTTPException(422, f"{game.title} has {game.seats} seats")
    seats = [parse_seat(s) for s in specs]
    try:
        game.check_options(body.options)
    except BadOptions as error:
        raise HTTPException(422, error.message) from None
    timer = body.turn_timer if body.turn_timer is not None else request.app.state.settings.turn_timer
    try:
        room = await request.app.state.rooms.create(body.game, body.options, seats, timer)
    except RoomError as error:
        refuse(error)
    return {"code": room.code, "invite": f"/r/{room.code}", "room": room.info()}


@router.get("/rooms")
async def list_rooms(request: Request, open: bool = True, limit: int = Query(50, le=200)):
    from sqlalchemy import select

    from .models import Room as RoomRow, Seat

    store = request.app.state.store

    def codes():
        with store.sessions() as session:
            query = select(RoomRow.code).order_by(RoomRow.created.desc()).limit(limit)
            if open:
                query = query.where(RoomRow.id.in_(
                    select(Seat.room_id).where(Seat.kind == "open")))
            return list(session.scalars(query))

    rooms = []
    for code in await asyncio.to_thread(codes):
        room = await request.app.state.rooms.get(code)
        if room is not None:
            rooms.append(room.info())
    return {"rooms": rooms}


async def room_or_404(request: Request, code: str):
    room = await request.app.state.rooms.get(code)
    if room is None:
        raise HTTPException(404, f"no room {code!r}")
    return room


@router.get("/rooms/{code}")
async def room_info(code: str, request: Request):
    return (await room_or_404(request, code)).info()


@router.post("/rooms/{code}/join")
async def join(code: str, body: Join, request: Request):
    room = await room_or_404(request, code)
    name = body.name.strip()
    if not name:
        raise HTTPException(422, "a name is needed")
    try:
        seat, token = await room.join(name, body.seat)
    except RoomError as error:
        refuse(error)
    return {"seat": seat, "token": token, "room": room.info()}


async def in_session(request: Request, work):
    store = request.app.state.store

    def run():
        with store.sessions() as session:
            return work(session)

    return await asyncio.to_thread(run)


@router.get("/matches")
async def matches(request: Request, player: str | None = None, game: str | None = None,
                  status: Literal["running", "finished"] | None = None,
                  since: datetime | None = None, until: datetime | None = None,
                  limit: int = Query(50, ge=1, le=500), offset: int = Query(0, ge=0)):
    def utc(value: datetime | None) -> datetime | None:  # naive dates are taken as UTC
        if value is None or value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc) if value else None
        return value.astimezone(timezone.utc)

    since, until = utc(since), utc(until)
    return {"matches": await in_session(request, lambda s: history.list_matches(
        s, player, game, status, since, until, limit, offset))}


@router.get("/matches/{match_id}")
async def match(match_id: int, request: Request):
    detail = await in_session(request, lambda s: history.match_detail(s, match_id))
    if detail is None:
        raise HTTPException(404, f"no match {match_id}")
    return detail


async def finished_record(request: Request, match_id: int) -> dict:
    """The record of a finished match: 404 for no match, 409 while it runs (its packs are secret)."""
    def work(session):
        from .models import MatchRow

        row = session.get(MatchRow, match_id)
        if row is None:
            return 404
        if row.status != "finished":
            return 409
        return history.record(session, match_id)

    result = await in_session(request, work)
    if result == 404:
        raise HTTPException(404, f"no match {match_id}")
    if result == 409:
        raise HTTPException(409, "the match is still running: its record, replay and pack "
                                 "order are available once it is finished")
    return result


@router.get("/matches/{match_id}/record")
async def match_record(match_id: int, request: Request):
    from fastapi.responses import JSONResponse

    return JSONResponse(await finished_record(request, match_id), headers={
        "Content-Disposition": f'attachment; filename="cardroom-match-{match_id}.json"'})


@router.get("/players")
async def players(request: Request):
    return {"players": await in_session(request, history.all_stats)}


@router.get("/players/{name}")
async def player(name: str, request: Request):
    stats = await in_session(request, lambda s: history.player_stats(s, name))
    if stats is None:
        raise HTTPException(404, f"no player {name!r}")
    return stats
