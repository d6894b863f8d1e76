"""The browser pages: lobby, table (the invite link), history, match page, rules.

``install(app)`` (called by :func:`app.main.create_app`) mounts ``/static`` and adds the page
routes plus two small endpoints the pages need beyond docs/protocol.md:

- ``GET /api/matches/{id}/replay``: the frames of a FINISHED match, replayed through the
  engine with every hand open (``Match.view(EVERYONE)`` after each action); 409 while running.
- ``GET /lang/{code}``: remember the interface language in a cookie and go back.

Nothing here decides a rule: the table page is a shell filled by ``static/js/table.js`` from
the server's WebSocket state; the replay frames are the engine's own views.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import unicodedata
from collections import OrderedDict
from datetime import datetime, timezone, tzinfo
from pathlib import Path
from typing import Annotated
from urllib.parse import quote, urlencode
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import segno
from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from markupsafe import Markup
from starlette.exceptions import HTTPException

from engine import EVERYONE, GAMES
from engine.record import positions

from ..storage import history, players
from . import i18n
from .api import finished_record, invite_link
from .charts import GAME_COLOURS, balance, chart_svg, cumulative
from .deps import Registry, StoreDep, in_session

ROOT = Path(__file__).resolve().parents[2]
templates = Jinja2Templates(directory=str(ROOT / "templates"))
# The pages' data goes in <script type="application/json"> blocks: ``tojson`` escapes <, >, & and
# ' (nothing people typed can end the block); names in Russian stay as they are.
templates.env.policies["json.dumps_kwargs"] = {"ensure_ascii": False}
# A name in a path: its "/" encoded too (urlencode keeps it), as with encodeURIComponent.
templates.env.filters["segment"] = lambda value: quote(str(value), safe="")


def utc_time(value: str | None) -> Markup:
    """A stored time (ISO 8601) as a <time> saying it in UTC, which static/js/times.js says
    again in the reader's time zone."""
    if not value:
        return Markup()
    when = datetime.fromisoformat(value).astimezone(timezone.utc)
    return Markup('<time datetime="{}">{} UTC</time>').format(
        when.strftime("%Y-%m-%dT%H:%M:%SZ"), when.strftime("%Y-%m-%d %H:%M"))


templates.env.filters["utc_time"] = utc_time
templates.env.filters["figure"] = i18n.figure
router = APIRouter()


def install(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=str(ROOT / "static")), name="static")
    app.include_router(router)
    app.add_exception_handler(HTTPException, not_found_page)
    app.state.replays = OrderedDict()  # (each app its own: another database, other matches)


async def not_found_page(request: Request, error: HTTPException):
    """A browser opening an address nobody serves is shown a page in the site's layout; the
    API and other clients keep FastAPI's JSON."""
    if (error.status_code == 404 and not request.url.path.startswith("/api/")
            and "text/html" in request.headers.get("accept", "")):
        return missing(request, "missing.page_title", "missing.page_text")
    return await http_exception_handler(request, error)


def day(value: str | None, end: bool = False, zone: str = "") -> datetime | None:
    """A date typed in a filter, in the reader's time ``zone`` (the form's ``tz``, which
    static/js/times.js fills in: the times shown are the reader's) or else UTC; a day alone
    ``end``s at its last second. None for nothing or something that is no date."""
    if not value:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    if end and len(value) <= 10:
        when = when.replace(hour=23, minute=59, second=59)
    try:  # (in UTC: SQLite compares the times as the naive UTC it stores)
        return (when if when.tzinfo else when.replace(tzinfo=time_zone(zone))).astimezone(timezone.utc)
    except OverflowError:  # (a day at the calendar's end: 0001-01-01 east of UTC)
        return None


def time_zone(name: str) -> tzinfo:
    """The IANA time zone ``name`` ("Asia/Tokyo"), or UTC for anything else."""
    try:
        return ZoneInfo(name) if name else timezone.utc
    except (ValueError, ZoneInfoNotFoundError):  # (ValueError: a path, not a name)
        return timezone.utc


def is_loopback(host: str) -> bool:
    """Whether a server listening on ``host`` can be reached from this machine only."""
    return host in ("localhost", "::1") or host.startswith("127.")


def address(request: Request) -> str:
    """The page's path and query, encoded again (Starlette gives the path decoded: a name's
    "#", "?" or "%" would end it or change it)."""
    query = request.url.query
    return quote(request.scope["path"]) + (f"?{query}" if query else "")


def decimal(value: float | None, lang: str) -> str:
    """An average to two places as ``lang`` writes it ("44,78" in Russian, as the analysis
    does; "90,00" beside "10,33", not "90,0"; "−12,50" with a minus sign; "—" for none)."""
    if value is None:
        return "—"
    text = f"{value:.2f}".removeprefix("-0.00")  # (no "−0,00")
    return (text or "0.00").replace(".", "," if lang == "ru" else ".").replace("-", "\u2212")


def page(request: Request, name: str, **context) -> HTMLResponse:
    lang = i18n.language(request)
    strings = i18n.strings(lang)

    def t(key: str, **values) -> str:
        return i18n.translate(lang, key, **values)

    def player(p: dict) -> str:
        """A player's name as shown: a bot's in the page's language."""
        return t("bot.name", n=p["seat"] + 1) if p.get("bot") else p["name"]

    games = [{"name": g.name, "title": t("game." + g.name), "seats": g.seats, "teams": g.teams}
             for g in GAMES.values()]
    settings = request.app.state.settings
    context.update(request=request, lang=lang, t=t, player=player,
                   decimal=lambda value: decimal(value, lang), games=games,
                   strings=strings, other_lang="en" if lang == "ru" else "ru", here=address(request),
                   loopback_only=not settings.public_url and is_loopback(settings.host))
    response = templates.TemplateResponse(request, name, context)
    response.headers["Content-Language"] = lang
    return response


# -- pages ---------------------------------------------------------------------------------------

@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def lobby(request: Request):
    return page(request, "lobby.html")


@router.get("/r/{code}", response_class=HTMLResponse, include_in_schema=False)
async def table(code: str, request: Request, rooms: Registry):
    if code != code.strip().upper():  # the proxy sends a room's page and socket by its code
        return RedirectResponse(request.url.replace(path=f"/r/{code.strip().upper()}"), 308)
    room = await rooms.get(code)
    if room is None:
        return missing(request, "missing.title", "missing.text", code=code)
    settings = request.app.state.settings
    return page(request, "table.html", code=code, room=room.describe(),
                invite=invite_link(settings, code) if settings.public_url else "",
                standin_grace=settings.standin_grace)


@router.get("/r/{code}/qr.svg", include_in_schema=False)
async def table_qr(code: str, request: Request, rooms: Registry):
    """The table's invite link as a QR code (SVG): a friend's phone camera opens the table
    (the lobby shows it beside the link, for friends round the host's screen)."""
    if await rooms.get(code) is None:
        return Response(status_code=404)
    settings = request.app.state.settings
    link = invite_link(settings, code) if settings.public_url \
        else str(request.base_url).rstrip("/") + f"/r/{code}"
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False,
                                     dark="#000", light="#fff")
    return Response(out.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600"})


def missing(request: Request, title: str, text: str, status: int = 404,
            **values) -> HTMLResponse:
    """The friendly page for a table, a match, a player or a page that is not there (404)."""
    response = page(request, "missing.html", title=title, text=text, values=values)
    response.status_code = status
    return response


def unavailable(request: Request) -> HTMLResponse | None:
    """For a browser, the page that says the database is away for now (503); None for the API
    and other clients."""
    if request.url.path.startswith("/api/") or "text/html" not in request.headers.get("accept", ""):
        return None
    return missing(request, "unavailable.title", "unavailable.text", status=503)


#: By game, the seats of each column of its totals: partners together ("Anna & Boris — Carol &
#: Dave" beside "45 : 280"), else each seat alone.
SIDES = {g.name: [[s for s in range(g.seats) if g.side(s) == c] for c in range(g.score_width)]
         for g in GAMES.values()}


#: Matches a page of the history lists, newest first.
HISTORY_PAGE = 50


@router.get("/history", response_class=HTMLResponse, include_in_schema=False)
async def history_page(request: Request, store: StoreDep, player: str | None = None,
                       game: str | None = None, since: str | None = None,
                       until: str | None = None, status: str | None = None, tz: str = "",
                       number: Annotated[str, Query(alias="page")] = ""):
    game = game if game in GAMES else None
    status = status if status in ("running", "finished") else None
    # (a page that is no number is the first: a link typed wrong still lists matches;
    # str.isdigit had let "²" through to int(), a server error)
    number = int(number) if re.fullmatch(r"[0-9]{1,6}", number) and int(number) > 0 else 1
    found = await in_session(store, lambda s: history.list_matches(
        s, player or None, game, status, day(since, zone=tz), day(until, end=True, zone=tz),
        HISTORY_PAGE + 1, (number - 1) * HISTORY_PAGE))
    filters = {"player": player or "", "game": game or "", "since": since or "",
               "until": until or "", "status": status or ""}

    def link(to: int) -> str:
        kept = {k: v for k, v in {**filters, "tz": tz}.items() if v}
        return "/history?" + urlencode({**kept, "page": to}) if to > 1 \
            else "/history" + ("?" + urlencode(kept) if kept else "")

    # (it had stopped at the newest 200 matches, saying nothing of the others)
    pages = {"number": number, "newer": link(number - 1) if number > 1 else None,
             "older": link(number + 1) if len(found) > HISTORY_PAGE else None}
    shown = found[:HISTORY_PAGE]
    for m in shown:
        m["result"] = _result_of(player or "", m)
    return page(request, "history.html", matches=shown, sides=SIDES, filters=filters,
                pages=pages)


def _result_of(name: str, match: dict) -> str | None:
    """Whether the person named ``name`` exactly (in any case) won or lost the finished
    ``match`` (a history row): the history filtered by one's name says it in each row (the
    star on the winners' total had had to be matched to a column)."""
    wanted = unicodedata.normalize("NFC", name.strip()).casefold()
    if not wanted or match["status"] != "finished" or match.get("abandoned"):
        return None
    for column, side in enumerate(SIDES[match["game"]]):
        if any(not match["players"][s]["bot"]
               and match["players"][s]["name"].casefold() == wanted for s in side):
            return "won" if column in (match["winners"] or []) else "lost"
    return None


@router.get("/matches/{match_id:int}", response_class=HTMLResponse, include_in_schema=False)
async def match_page(match_id: int, request: Request, store: StoreDep):
    detail = await in_session(store, lambda s: history.match_detail(s, match_id))
    if detail is None:
        return missing(request, "missing.match_title", "missing.match_text", id=match_id)
    lang = i18n.language(request)
    names = [i18n.translate(lang, "bot.name", n=p["seat"] + 1) if p["bot"] else p["name"]
             for p in detail["players"]]
    sides = SIDES[detail["game"]]
    labels = [i18n.translate(lang, "team_and").join(names[seat] for seat in side)
              for side in sides]
    rows = cumulative(detail)
    goal = (detail["options"] or {}).get("target")
    target = (goal, i18n.translate(lang, "match.chart_target", n=goal)) if goal else None
    # (no chart before a deal is over: a line at 0 alone had filled the page)
    chart = chart_svg(rows, labels, i18n.translate(lang, "match.chart"), target=target) \
        if len(rows) > 1 else None
    return page(request, "match.html", match=detail, labels=labels, running=rows[1:],
                teams=sides if detail.get("teams") else None, chart=chart)


@router.get("/players/{name:path}", response_class=HTMLResponse, include_in_schema=False)
async def player_page(name: str, request: Request, store: StoreDep):
    """A player's page: by game, over time, against whom, with whom."""
    found = await in_session(store, lambda s: players.player_page(s, name))
    if found is None:
        return missing(request, "missing.player_title", "missing.player_text", name=name)
    lang = i18n.language(request)
    # (a match begun and no deal of it over says nothing yet: no table of noughts, no flat line)
    found["by_game"] = {g: f for g, f in found["by_game"].items() if f["played"] or f["deals"]}
    games = [g for g in GAMES if found["by_game"].get(g, {}).get("played")]
    labels = [i18n.translate(lang, "game." + g) for g in games]
    chart = chart_svg(balance(found["timeline"], games), labels,
                      i18n.translate(lang, "player.chart"),
                      movers=[games.index(entry["game"]) for entry in found["timeline"]],
                      colours=[GAME_COLOURS[g] for g in games])
    return page(request, "player.html", person=found, chart=chart,
                penalties={g for g in games if GAMES[g].lower_is_better})


@router.get("/standings", response_class=HTMLResponse, include_in_schema=False)
async def standings_page(request: Request, store: StoreDep, players_: Annotated[
        str, Query(alias="players")] = "", game: str = "", since: str = "", until: str = "",
                         tz: str = ""):
    """A league table of the people in the query string (the page picks the people you play
    with most when it has none); without them, everyone who has played here."""
    names = [n.strip() for n in players_.split(",") if n.strip()][:20]
    game_ = game if game in GAMES else None
    begun, ended = day(since, zone=tz), day(until, end=True, zone=tz)
    table = await in_session(store, lambda s: players.standings(s, names, game_, begun, ended))
    return page(request, "standings.html", table=table, order=_ranked_by(game_), filters={
        "players": ", ".join(names), "game": game_ or "", "since": since, "until": until,
        "chosen": bool(game_ or begun or ended)})  # (a date that is none chooses nothing)


def _ranked_by(game: str | None) -> str:
    """The string saying how the standings of ``game`` are ranked (players._ranked)."""
    if game is None:
        return "standings.order"
    return "standings.order_penalties" if GAMES[game].lower_is_better else "standings.order_points"


@router.get("/me/continue", response_class=HTMLResponse, include_in_schema=False)
async def continue_here(request: Request):
    """Where a "continue on another device" link leads: the page's script takes the key from
    the link's fragment (never sent to the server) and keeps it in this browser."""
    response = page(request, "continue.html")
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@router.get("/rules", response_class=HTMLResponse, include_in_schema=False)
async def rules(request: Request):
    lang = i18n.language(request)
    return page(request, f"rules_{lang}.html")


@router.get("/lang/{code}", include_in_schema=False)
async def set_language(code: str, request: Request, next: str = "/"):
    if not next.startswith("/") or next.startswith("//"):
        next = "/"
    response = RedirectResponse(next, status_code=303)
    if code in i18n.LANGUAGES:
        response.set_cookie("lang", code, max_age=3600 * 24 * 365, samesite="lax")
    return response


# -- JSON for the pages ------------------------------------------------------------------------

def replay_frames(record: dict) -> dict:
    """Every position of a finished match: the start of each deal, then after each action.
    A frame holds the deal's view and the totals, not the match's deals so far: those are the
    match page's (``deal_list``), and in every frame they had grown the answer by their square
    (1.1 MB for a match of ten deals)."""
    frames = []
    match = None
    for step in positions(record):
        match = step.match
        view = match.view(EVERYONE)
        frame = {"deal": step.deal, "index": step.index, "seat": step.seat,
                 "action": step.action, "totals": view["totals"],
                 "deal_view": view["deal"], "to_act": view["to_act"]}
        if step.index in record["deals"][step.deal].get("by_bot", ()):
            frame["by_bot"] = True  # (the turn timer's move, or a stand-in's)
        frames.append(frame)
    game = GAMES[record["game"]]
    return {"game": game.name, "options": match.options if match else record.get("options"),
            "seats": game.seats, "teams": game.teams, "frames": frames}


#: How many finished matches' frames, encoded, a process keeps (``app.state.replays``, by
#: match): a replay is worked out once, by the first of the requests that ask for it at once,
#: not at every request (twenty at once had held the server's answers up for seconds). The
#: players' names are not kept: someone renamed is read afresh.
REPLAYS_KEPT = 16


async def _replay_json(replays: OrderedDict[int, asyncio.Future], store, match_id: int) -> bytes:
    job = replays.get(match_id)
    if job is None:
        job = replays[match_id] = asyncio.ensure_future(_work_out_replay(store, match_id))

        def forget_a_failure(done: asyncio.Future) -> None:
            if (done.cancelled() or done.exception() is not None) and replays.get(match_id) is done:
                del replays[match_id]
        job.add_done_callback(forget_a_failure)
        while len(replays) > REPLAYS_KEPT:
            replays.popitem(last=False)
    replays.move_to_end(match_id)
    return await asyncio.shield(job)  # (one request gone does not stop the others' work)


async def _work_out_replay(store, match_id: int) -> bytes:
    record = await finished_record(store, match_id)
    return await asyncio.to_thread(lambda: json.dumps(replay_frames(record)).encode())


@router.get("/api/matches/{match_id}/replay", tags=["pages"])
async def match_replay(match_id: int, store: StoreDep, request: Request):
    """Replay frames of a finished match, all hands open (409 while it runs)."""
    names = await finished_record(store, match_id, history.finished_players)
    frames = await _replay_json(request.app.state.replays, store, match_id)
    return Response(b'{"players": ' + json.dumps(names).encode() + b", " + frames[1:],
                    media_type="application/json")
