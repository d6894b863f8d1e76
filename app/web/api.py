"""The REST side: rooms, joining, history, records and statistics (OpenAPI at /docs). A refusal
is :class:`~app.protocol.Refusal`'s body with its HTTP status."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from typing import Annotated, Literal

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, StrictFloat, StrictInt

from engine import GAMES, BadOptions

from ..protocol import MatchDetail, MatchSummary, Refusal, RoomInfo, person_name
from ..rooms.registry import TARGET_MAX
from ..rooms.room import open_seat
from ..rooms.thinking import SEAT_BOTS, new_room_think_time
from ..storage import analyses, history, players
from .deps import LimitsDep, Registry, SettingsDep, StoreDep, in_session
from .limits import address
from .people import me_or_refuse, named, utc

router = APIRouter(prefix="/api")


class CreateRoom(BaseModel):
    game: Literal[tuple(GAMES)]  # type: ignore[valid-type]
    options: dict = Field(default_factory=dict, description="the game's options (GET /api/games)")
    seats: list[str] | None = Field(
        None, description='one per seat: "open", "bot:rules", "bot:random" or "bot:strong" '
                          '(default: every seat open)')
    # (strict: not true, nor "30", which had been taken for 1 s and 30 s)
    turn_timer: StrictFloat | None = Field(None, ge=1, le=600,
                                           description="seconds per turn for people; null: off")
    think_time: StrictFloat | None = Field(
        None, description="seconds the strong bot thinks per decision (THINK_TIME_MIN to "
                          "THINK_TIME_MAX, at most the turn timer); null: the server's "
                          "THINK_TIME, or the turn timer when that is shorter")


class Join(BaseModel):
    name: str = Field("", max_length=64, description="a guest's name (ignored with a key)")
    seat: StrictInt | None = None  # (not true, "1" nor 1.0)


class CreateAndJoin(CreateRoom):
    join: Join | None = Field(
        None, description="the creator's seat, taken with the table (as POST "
                          "/api/rooms/{code}/join, with the same X-Player-Key): a name or a "
                          "seat refused leaves no table")


class Created(BaseModel):
    code: str
    invite: str
    room: RoomInfo
    seat: int | None = Field(None, description="the creator's seat, given `join`")
    token: str | None = Field(None, description="its token, given `join`")


class Joined(BaseModel):
    seat: int
    token: str
    room: RoomInfo


class Rooms(BaseModel):
    rooms: list[RoomInfo]


class Matches(BaseModel):
    matches: list[MatchSummary]


def invite_link(settings, code: str) -> str:
    """The link friends open: absolute from ``PUBLIC_URL`` when it is set, else the path (the
    page puts the address it was opened at before it)."""
    path = f"/r/{code}"
    return settings.public_url.rstrip("/") + path if settings.public_url else path


def parse_seat(spec: str) -> tuple[str, str | None]:
    spec = spec.strip().lower()
    if spec == "open":
        return "open", None
    kind = spec.split(":", 1)[1] if spec.startswith("bot:") else spec
    if kind not in SEAT_BOTS:
        raise Refusal("bad_field", "seat_spec", spec=spec[:40])
    return "bot", kind


@router.get("/games")
def games():
    return {"games": [
        {"name": g.name, "title": g.title, "seats": g.seats, "teams": g.teams,
         "options": {k: {"default": o.default, "meaning": o.meaning,
                         **({"max": TARGET_MAX[g.name]} if k == "target" else {})}
                     for k, o in g.options.items()}}
        for g in GAMES.values()
    ]}


@router.post("/rooms", status_code=201, response_model=Created)
async def create_room(body: CreateAndJoin, request: Request, rooms: Registry, store: StoreDep,
                      settings: SettingsDep, limits: LimitsDep,
                      key: Annotated[str | None, Header(alias="X-Player-Key")] = None):
    await limits.check("rooms", address(request))
    game = GAMES[body.game]
    specs = body.seats if body.seats is not None else ["open"] * game.seats
    if len(specs) != game.seats:
        raise Refusal("bad_field", "seat_count", game=game.title, count=game.seats)
    seats = [parse_seat(s) for s in specs]
    creator = await seat_for_creator(body.join, seats, store, key) if body.join else None
    timer = body.turn_timer if body.turn_timer is not None else settings.turn_timer
    thinking = new_room_think_time(body.think_time, timer, settings)
    try:
        room = await rooms.create(body.game, body.options, seats, timer, thinking)
    except BadOptions as error:
        raise Refusal.of_engine(error) from None
    try:
        seat, token = await room.join(*creator) if creator else (None, None)
    except players.NameTaken as error:  # (claimed meanwhile, by a key: the table stays empty)
        raise named(error) from None
    return {"code": room.code, "invite": invite_link(settings, room.code),
            "room": described(room), "seat": seat, "token": token}


async def seat_for_creator(join: Join, seats: list, store, key: str | None):
    """(name, seat, player id) of the table's creator, refused as a join would be but before
    the table is made: a table nobody could sit at is not left in the lobby's list."""
    seat = open_seat([kind for kind, _ in seats], join.seat)
    if key:
        player_id, name = await me_or_refuse(store, key)
        return name, seat, player_id
    name = person_name(join.name)
    try:
        await in_session(store, lambda session: players.free_for_guests(session, name))
    except players.NameTaken as error:
        raise named(error) from None
    return name, seat, None


@router.get("/rooms", response_model=Rooms)
async def list_rooms(rooms: Registry, open: bool = True,
                     limit: int = Query(50, ge=1, le=200)):
    codes = await asyncio.to_thread(rooms.repository.open_room_codes, limit, open)
    found = [await rooms.get(code, asked=False) for code in codes]  # only looked at
    return {"rooms": [described(room) for room in found if room is not None]}


def described(room) -> dict:
    """ROOM, and for a reader of the REST side (the lobby's list of one's own tables) the seats
    whose move it is: the socket's STATE says it in the match, and its ROOM does not repeat it."""
    match = room.state.match
    return {**room.describe(), "to_act": match.to_act() if match is not None else []}


async def room_or_404(rooms, code: str):
    room = await rooms.get(code)
    if room is None:
        raise Refusal("no_room", "no_room", code=code[:20])
    return room


@router.get("/rooms/{code}", response_model=RoomInfo)
async def room_info(code: str, rooms: Registry):
    return described(await room_or_404(rooms, code))


@router.post("/rooms/{code}/join", response_model=Joined)
async def join(code: str, body: Join, request: Request, rooms: Registry, store: StoreDep,
               limits: LimitsDep,
               key: Annotated[str | None, Header(alias="X-Player-Key")] = None):
    """A seat for a player (``X-Player-Key``: their identity, and their name) or a guest
    (``name``, which no player key may hold)."""
    await limits.check("joins", address(request))
    room = await room_or_404(rooms, code)
    player_id, name = (await me_or_refuse(store, key)) if key else (None, person_name(body.name))
    try:
        seat, token = await room.join(name, body.seat, player_id)
    except players.NameTaken as error:
        raise named(error) from None
    return {"seat": seat, "token": token, "room": described(room)}


@router.get("/matches", response_model=Matches)
async def matches(store: StoreDep, player: str | None = None, game: str | None = None,
                  status: Literal["running", "finished"] | None = None,
                  since: datetime | None = None, until: datetime | None = None,
                  limit: int = Query(50, ge=1, le=500),
                  offset: int = Query(0, ge=0, le=history.MAX_ID)):
    since, until = utc(since), utc(until)
    return {"matches": await in_session(store, lambda s: history.list_matches(
        s, player, game, status, since, until, limit, offset))}


@router.get("/matches/{match_id}", response_model=MatchDetail)
async def match(match_id: int, store: StoreDep):
    detail = await in_session(store, lambda s: history.match_detail(s, match_id))
    if detail is None:
        raise Refusal("no_match", "no_match", id=match_id)
    return detail


async def finished_record(store, match_id: int, read=history.finished_record):
    """The record of a finished match (or what else ``read`` reads of it, as
    ``history.finished_players``): ``no_match``, or ``running`` while it runs (its packs are
    secret)."""
    found = await in_session(store, lambda s: read(s, match_id))
    if found is None:
        raise Refusal("no_match", "no_match", id=match_id)
    if found is history.RUNNING:
        raise Refusal("running", "running")
    return found


@router.get("/matches/{match_id}/record")
async def match_record(match_id: int, store: StoreDep):
    return JSONResponse(await finished_record(store, match_id), headers={
        "Content-Disposition": f'attachment; filename="cardroom-match-{match_id}.json"'})


class AskAnalysis(BaseModel):
    again: bool = Field(False, description="work a done or failed analysis out anew")


@router.get("/matches/{match_id}/analysis")
async def match_analysis(match_id: int, store: StoreDep, result: bool = True):
    """A finished match's post-match analysis (docs/analysis.md#server): ``status`` null (none
    asked for), queued, running (``done`` of ``total`` decisions), done (``result``, the
    analysis of ``cardroom analyse``) or failed (``error``). ``result=false``: the progress
    alone."""
    found = await in_session(store, lambda s: analyses.get(s, match_id, result)) \
        if 0 < match_id <= history.MAX_ID else None
    if found is None:
        raise Refusal("no_match", "no_match", id=match_id)
    if found is history.RUNNING:
        raise Refusal("running", "running")
    return found


@router.post("/matches/{match_id}/analysis", status_code=202)
async def ask_analysis(match_id: int, store: StoreDep, request: Request, limits: LimitsDep,
                       body: AskAnalysis | None = None):
    """Ask for a finished match's analysis, worked out in the background (one at a time per
    match, by whichever server process takes it); its progress is GET's."""
    await limits.check("analyses", address(request))
    again = bool(body and body.again)
    now = datetime.now(timezone.utc)
    found = await store.write(lambda s: analyses.request(s, match_id, now, again=again),
                              in_thread=True) if 0 < match_id <= history.MAX_ID else None
    if found is None:
        raise Refusal("no_match", "no_match", id=match_id)
    if found is history.RUNNING:
        raise Refusal("running", "running")
    analyst = getattr(request.app.state, "analyst", None)
    if analyst is not None:
        analyst.poke()
    return found
