"""People on the REST side: a light identity (a player key, no password, no e-mail), players'
statistics and pages, standings. The key travels in the ``X-Player-Key`` header only: never in
a URL, so never in a log or a Referer."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Annotated

import segno
from fastapi import APIRouter, Header, Query, Request
from pydantic import BaseModel, Field

from engine import GAMES

from ..protocol import Refusal, person_name
from ..storage import players
from ..storage.stored import Conflict
from .deps import LimitsDep, Registry, SettingsDep, StoreDep, in_session
from .limits import address

router = APIRouter(prefix="/api")

PlayerKey = Annotated[str | None, Header(alias="X-Player-Key",
                                         description="the player key, for your identity")]


class NameBody(BaseModel):
    name: str = Field(max_length=64)


class Identity(BaseModel):
    """A player: ``key`` only in the answer that made it (keep it: it is the identity)."""

    name: str
    key: str | None = None


class Device(BaseModel):
    """A link (the key in its fragment, which browsers never send) and its QR code (SVG)."""

    link: str
    qr: str


class Totals(BaseModel):
    played: int
    won: int
    deals: int
    points: int
    average_per_deal: float | None


class Stats(Totals):
    """STATS: finished matches played and won; the deals and points of every match."""

    name: str
    by_game: dict[str, Totals]


class Best(BaseModel):
    match: int
    points: int


class GameFigures(Totals):
    """A game's figures on a player's page: ``form``, the last five results (won or lost),
    oldest first, of the matches ``form_matches``; ``people`` and ``bots``, the same figures
    among people only and with bots."""

    win_rate: float | None
    best: Best | None
    form: list[str]
    form_matches: list[int]
    people: Totals
    bots: Totals


class Result(BaseModel):
    match: int
    game: str
    started: str | None
    points: int
    won: bool


class Opponent(BaseModel):
    name: str
    played: int
    won: int
    lost: int


class Partner(BaseModel):
    name: str
    played: int
    won: int
    points: int


class PlayerPage(Stats):
    """STATS, and what a player's page shows: by game, over time (``timeline``), against
    whom (``opponents``), with whom (``partners``, Big Mariage)."""

    claimed: bool
    by_game: dict[str, GameFigures]
    timeline: list[Result]
    opponents: list[Opponent]
    partners: list[Partner]


class Partnership(BaseModel):
    players: list[str]
    played: int
    won: int
    deals: int
    points: int


class Standing(Stats):
    rank: int = Field(description="1 for the best; rows level in what is compared share one "
                                  "(1, 1, 3)")


class Standings(BaseModel):
    standings: list[Standing]
    partnerships: list[Partnership]
    unknown: list[str] = Field(description="the names asked for that nobody has played under")


def named(error: players.NameTaken) -> Refusal:
    """A refusal of a name held by someone: 409 with a name nobody has."""
    return Refusal("name_claimed", "name_claimed", name=error.name, suggestion=error.suggestion)


async def me_or_refuse(store, key: str | None) -> tuple[int, str]:
    """The player a key holds: (id, name); Refusal without a key or with one nobody holds."""
    if not key:
        raise Refusal("bad_player_key", "no_player_key")

    def work(session):
        player = players.by_key(session, key)
        return (player.id, player.name) if player is not None else None

    found = await in_session(store, work)
    if found is None:
        raise Refusal("bad_player_key", "bad_player_key")
    return found


@router.post("/me", status_code=201, response_model=Identity)
async def make_identity(body: NameBody, request: Request, store: StoreDep, limits: LimitsDep):
    """A new player key holding ``name`` (a new name, or a guest's nobody claimed yet, with
    its history): keep the key; the server keeps only its hash."""
    name, key = person_name(body.name), players.new_key()
    await _refuse_taken(store, name)
    await limits.check("names", address(request))
    return {"name": await _named(store, lambda session: players.claim(session, name, key)),
            "key": key}


@router.get("/me", response_model=Identity)
async def who_am_i(store: StoreDep, key: PlayerKey = None):
    _, name = await me_or_refuse(store, key)
    return {"name": name}


@router.patch("/me", response_model=Identity)
async def rename_me(body: NameBody, request: Request, store: StoreDep, limits: LimitsDep,
                    rooms: Registry, key: PlayerKey = None):
    """The same player and history under a new name nobody has, at the tables still in play
    too."""
    player_id, _ = await me_or_refuse(store, key)
    typed = person_name(body.name)
    await _refuse_taken(store, typed, player_id)
    await limits.check("names", address(request))
    name = await _named(store, lambda session: players.rename(session, player_id, typed))
    await rooms.renamed(player_id)
    return {"name": name}


async def _refuse_taken(store, name: str, player_id: int | None = None) -> None:
    """A name taken refused before it counts toward the address's names (a player trying
    names until one was free had been told to wait); the claim or rename checks it again."""
    try:
        await in_session(store, lambda session: players.check_free(session, name, player_id))
    except players.NameTaken as error:
        raise named(error) from None


async def _named(store, work) -> str:
    """The name of the player ``work`` claims or renames, as stored ("Anna" for "anna", a
    guest's name claimed); a name taken is refused with a suggestion. A name that reads alike
    stored by another process meanwhile (the unique key's conflict) is tried once more, to be
    refused as taken rather than answered as a storage failure."""
    for attempt in range(2):
        try:
            return await store.write(lambda session: work(session).name)
        except players.NameTaken as error:
            raise named(error) from None
        except Conflict:
            if attempt:
                raise


@router.post("/me/device", response_model=Device)
async def another_device(request: Request, store: StoreDep, settings: SettingsDep,
                         key: PlayerKey = None):
    """The link that brings this identity to another device, and its QR code."""
    await me_or_refuse(store, key)
    base = settings.public_url or str(request.base_url)
    link = f"{base.rstrip('/')}/me/continue#key={key}"
    qr = segno.make(link, error="m").svg_inline(scale=4, border=2, omitsize=True)
    return {"link": link, "qr": qr}


@router.get("/players", response_model=dict[str, list[Stats]])
async def all_players(store: StoreDep):
    return {"players": await in_session(store, players.all_stats)}


@router.get("/players/{name:path}", response_model=PlayerPage)
async def player(name: str, store: StoreDep):
    """STATS, with per game the win rate, the best match, the recent form and the results
    against people and against bots; results over time; head-to-head; partnerships."""
    page = await in_session(store, lambda s: players.player_page(s, name))
    if page is None:
        raise Refusal("no_player", "no_player", name=name[:40])
    return page


def utc(value: datetime | None) -> datetime | None:
    """Naive dates are taken as UTC; Refusal for one UTC cannot say (0001-01-01T00:00+01:00)."""
    if value is None or value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc) if value else None
    try:
        return value.astimezone(timezone.utc)
    except OverflowError:
        raise Refusal("bad_field", "bad_field", field="date") from None


@router.get("/standings", response_model=Standings)
async def standings(store: StoreDep, players_: Annotated[str, Query(
        alias="players", description="names, comma-separated")] = "",
                    game: str | None = None, since: datetime | None = None,
                    until: datetime | None = None):
    """A league table of these people, best first, over the matches in which at least two of
    them played; Big Mariage partnerships apart. Without names, everyone who has finished a
    match here (the first 50)."""
    names = [n.strip() for n in players_.split(",") if n.strip()][:20]
    if game is not None and game not in GAMES:
        raise Refusal("bad_field", "bad_field", field="game")
    return await in_session(store, lambda s: players.standings(s, names, game, utc(since),
                                                               utc(until)))
