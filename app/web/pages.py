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
from datetime import datetime
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from engine import EVERYONE, GAMES
from engine.record import positions

from ..storage import history
from . import i18n
from .api import finished_record, in_session, invite_link
from .deps import Registry, StoreDep

ROOT = Path(__file__).resolve().parents[2]
templates = Jinja2Templates(directory=str(ROOT / "templates"))
# ``tojson`` escapes <, >, & and ' (nothing people typed can end an inline script); names in
# Russian stay as they are.
templates.env.policies["json.dumps_kwargs"] = {"ensure_ascii": False}
router = APIRouter()


def install(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=str(ROOT / "static")), name="static")
    app.include_router(router)


def is_loopback(host: str) -> bool:
    """Whether a server listening on ``host`` can be reached from this machine only."""
    return host in ("localhost", "::1") or host.startswith("127.")


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
    context.update(request=request, lang=lang, t=t, player=player, games=games,
                   strings=strings, other_lang="en" if lang == "ru" else "ru",
                   loopback_only=not settings.public_url and is_loopback(settings.host))
    response = templates.TemplateResponse(request, name, context)
    response.headers["Content-Language"] = lang
    return response


# -- pages ---------------------------------------------------------------------------------------

@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def lobby(request: Request):
    options = {g.name: {k: {"default": o.default} for k, o in g.options.items()}
               for g in GAMES.values()}
    return page(request, "lobby.html", options=options)


@router.get("/r/{code}", response_class=HTMLResponse, include_in_schema=False)
async def table(code: str, request: Request, rooms: Registry):
    code = code.strip().upper()
    room = await rooms.get(code)
    if room is None:
        return missing(request, "missing.title", "missing.text", code=code)
    settings = request.app.state.settings
    return page(request, "table.html", code=code, room=room.describe(),
                invite=invite_link(settings, code) if settings.public_url else "")


def missing(request: Request, title: str, text: str, **values) -> HTMLResponse:
    """The friendly page for a table or a match that is not there (404)."""
    response = page(request, "missing.html", title=title, text=text, values=values)
    response.status_code = 404
    return response


@router.get("/history", response_class=HTMLResponse, include_in_schema=False)
async def history_page(request: Request, store: StoreDep, player: str | None = None,
                       game: str | None = None, since: str | None = None,
                       until: str | None = None, status: str | None = None):
    def parse(value: str | None, end=False):
        if not value:
            return None
        try:
            day = datetime.fromisoformat(value)
        except ValueError:
            return None
        return day.replace(hour=23, minute=59, second=59) if end and len(value) <= 10 else day

    game = game if game in GAMES else None
    status = status if status in ("running", "finished") else None
    matches = await in_session(store, lambda s: history.list_matches(
        s, player or None, game, status, parse(since), parse(until, True), 200, 0))
    return page(request, "history.html", matches=matches,
                filters={"player": player or "", "game": game or "", "since": since or "",
                         "until": until or "", "status": status or ""})


def cumulative(detail: dict) -> list[list[int]]:
    width = 2 if detail.get("teams") else len(detail["players"])
    totals, rows = [0] * width, [[0] * width]
    for deal in detail["deal_list"]:
        if not deal["over"]:
            continue
        totals = [a + b for a, b in zip(totals, deal["scores"] or [0] * width)]
        rows.append(list(totals))
    return rows


def chart_svg(rows: list[list[int]], labels: list[str], title: str) -> Markup:
    """The cumulative scores as an inline SVG line chart (one line per seat or team), named for
    screen readers by `title` and the final totals."""
    width, height, pad, right = 760, 260, 40, 160
    left = 70  # room for "-1940" at the larger size of a phone (cardroom.css)
    values = [v for r in rows for v in r] or [0]
    low, high = min(0, min(values)), max(1, max(values))
    n = max(1, len(rows) - 1)

    def x(i):
        return left + (width - left - right) * i / n

    def y(v):
        return height - pad - (height - 2 * pad) * (v - low) / (high - low)

    colours = ["#f2c14e", "#5ab1ef", "#f78154", "#9bd26a"]
    finals = ", ".join(f"{labels[s] if s < len(labels) else s} {v}"
                       for s, v in enumerate(rows[-1] if rows else []))
    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
             f'xmlns="http://www.w3.org/2000/svg">',
             f'<title>{Markup.escape(title)}: {Markup.escape(finals)}</title>',
             f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" '
             f'class="axis"/>',
             f'<line x1="{left}" y1="{pad}" x2="{left}" y2="{height - pad}" class="axis"/>',
             f'<text x="{left - 6}" y="{y(high) + 4:.1f}" text-anchor="end">{high}</text>',
             f'<text x="{left - 6}" y="{y(low) + 4:.1f}" text-anchor="end">{low}</text>']
    for i in range(len(rows)):
        parts.append(f'<text x="{x(i):.1f}" y="{height - pad + 16}" '
                     f'text-anchor="middle">{i}</text>')
    for s in range(len(rows[0]) if rows else 0):
        points = " ".join(f"{x(i):.1f},{y(r[s]):.1f}" for i, r in enumerate(rows))
        colour = colours[s % len(colours)]
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="3" '
                     f'points="{points}"/>')
        for i, r in enumerate(rows):
            parts.append(f'<circle cx="{x(i):.1f}" cy="{y(r[s]):.1f}" r="3.5" '
                         f'fill="{colour}"/>')
        label = Markup.escape(labels[s] if s < len(labels) else str(s))
        parts.append(f'<text x="{width - right + 6}" y="{y(rows[-1][s]) + 4:.1f}" '
                     f'fill="{colour}">{label}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


@router.get("/matches/{match_id}", response_class=HTMLResponse, include_in_schema=False)
async def match_page(match_id: int, request: Request, store: StoreDep):
    detail = await in_session(store, lambda s: history.match_detail(s, match_id))
    if detail is None:
        return missing(request, "missing.match_title", "missing.match_text", id=match_id)
    lang = i18n.language(request)
    names = [i18n.translate(lang, "bot.name", n=p["seat"] + 1) if p["bot"] else p["name"]
             for p in detail["players"]]
    if detail.get("teams"):
        labels = [i18n.translate(lang, "team_of", a=names[0], b=names[2]),
                  i18n.translate(lang, "team_of", a=names[1], b=names[3])]
    else:
        labels = names
    rows = cumulative(detail)
    return page(request, "match.html", match=detail, labels=labels, running=rows[1:],
                chart=chart_svg(rows, labels, i18n.translate(lang, "match.chart")))


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
    """Every position of a finished match: the start of each deal, then after each action."""
    frames = []
    match = None
    for step in positions(record):
        match = step.match
        view = match.view(EVERYONE)
        frames.append({"deal": step.deal, "index": step.index, "seat": step.seat,
                       "action": step.action, "totals": view["totals"],
                       "deal_view": view["deal"], "deals": view["deals"],
                       "finished": view["finished"], "winners": view["winners"],
                       "to_act": view["to_act"]})
    game = GAMES[record["game"]]
    return {"game": game.name, "options": match.options if match else record.get("options"),
            "players": record.get("players"), "seats": game.seats, "teams": game.teams,
            "frames": frames}


@router.get("/api/matches/{match_id}/replay", tags=["pages"])
async def match_replay(match_id: int, store: StoreDep):
    """Replay frames of a finished match, all hands open (409 while it runs)."""
    record = await finished_record(store, match_id)
    return JSONResponse(await asyncio.to_thread(replay_frames, record))
