"""The headers every response carries and the WebSocket's Origin rule (app/web/security.py,
docs/security.md): every route of the app is asked, pages, the API, static files, 404s, a
refusal and a 500 alike; no page carries anything that runs inline; a socket from a page of
another site is refused before the room ever sees it."""

from __future__ import annotations

import re

import httpx
import pytest
import websockets
from cardroom_client import create_room, join
from starlette.routing import Mount, Route, WebSocketRoute

from app.main import create_app
from app.settings import Settings
from app.web.security import origin_allowed

#: A file under each mount.
FILES = {"/static": "/static/js/common.js", "/docs/assets": "/docs/assets/swagger-ui.css"}


def assert_guarded(r: httpx.Response, referrer: str = "same-origin") -> None:
    where = f"{r.request.method} {r.request.url.path} ({r.status_code})"
    policies = r.headers.get_list("content-security-policy")
    assert len(policies) == 1, f"{where}: {policies}"
    directives = {d.split()[0]: d.split()[1:] for d in policies[0].split("; ")}
    assert directives["script-src"] == ["'self'"], where
    assert directives["style-src"] == ["'self'"], where
    assert directives["default-src"] == ["'self'"], where
    assert directives["frame-ancestors"] == ["'none'"], where
    assert directives["object-src"] == ["'none'"], where
    assert directives["base-uri"] == ["'none'"], where
    # images from here; Swagger UI's stylesheet draws with data: images
    images = ["'self'", "data:"] if r.request.url.path == "/docs" else ["'self'"]
    assert directives["img-src"] == images, where
    assert "unsafe" not in policies[0], where
    # the socket is this server's own, named as ws:// and wss:// too
    host = r.request.url.netloc.decode()
    assert directives["connect-src"] == ["'self'", f"ws://{host}", f"wss://{host}"], where
    assert r.headers["x-content-type-options"] == "nosniff", where
    assert r.headers["x-frame-options"] == "DENY", where
    assert r.headers.get_list("referrer-policy") == [referrer], where


def every_route(routes, prefix: str = ""):
    """(path, route) for each route, into the routers the app includes (FastAPI keeps an
    included router as one entry of ``app.routes``)."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from every_route(included.routes, prefix + route.include_context.prefix)
        else:
            assert isinstance(route, (Route, Mount, WebSocketRoute)), f"unknown route {route}"
            yield prefix + route.path, route


def concrete(path: str, values: dict) -> str:
    return re.sub(r"\{(\w+)(:\w+)?\}", lambda m: str(values[m.group(1)]), path)


async def test_every_route_answers_with_the_headers(server):
    """Each route of the app (each method), with real values in its path, whatever it answers
    (200, a refusal for an empty body, 404)."""
    code = await create_room(server.http, "marjolet", ["open", "bot:rules"])
    await join(server.http, code, "Hedwig", 0)
    values = {"code": code, "name": "Hedwig", "match_id": 1}
    asked = 0
    async with httpx.AsyncClient(base_url=server.http) as http:
        room = (await http.get(f"/api/rooms/{code}")).json()
        values["match_id"] = room["match"]["id"]
        for path, route in every_route(server.app.routes):
            if isinstance(route, WebSocketRoute):
                continue
            if isinstance(route, Mount):
                assert_guarded(r := await http.get(FILES[path]))
                assert r.status_code == 200
                asked += 1
                continue
            path = concrete(path, values)
            for method in sorted(route.methods - {"HEAD"}):
                body = {"json": {}} if method in ("POST", "PATCH", "PUT") else {}
                r = await http.request(method, path, **body)
                assert_guarded(r, "no-referrer" if path == "/me/continue" else "same-origin")
                asked += 1
        assert asked > 25
        # what no route answers: a path nobody serves, a file that is not there, a refusal
        for path in ("/nowhere", "/static/nothing.js", "/r/NOSUCH", "/matches/999999",
                     "/api/rooms/NOSUCH"):
            r = await http.get(path)
            assert r.status_code == 404
            assert_guarded(r)
        r = await http.post("/api/rooms", json={"game": "chess"})
        assert r.status_code == 422
        assert_guarded(r)


async def test_a_server_error_carries_the_headers_too():
    """A 500 is made by Starlette outside the routes: the headers are added outside it."""
    app = create_app(Settings(database_url="sqlite://"))

    @app.get("/broken")
    async def broken():
        raise RuntimeError("a bug")

    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://cards.test") as http:
        r = await http.get("/broken")
    assert r.status_code == 500
    assert_guarded(r)


async def test_no_page_runs_anything_inline(server):
    """Data for the page is JSON in <script type="application/json">; no inline script, no
    handler attribute, no style attribute or element."""
    code = await create_room(server.http, "marjolet", ["open", "bot:rules"])
    await join(server.http, code, "Jarmila", 0)
    async with httpx.AsyncClient(base_url=server.http) as http:
        match_id = (await http.get(f"/api/rooms/{code}")).json()["match"]["id"]
        for path in ("/", f"/r/{code}", f"/matches/{match_id}", "/history", "/players/Jarmila",
                     "/standings?players=Jarmila,Boris", "/rules", "/me/continue", "/r/NOSUCH",
                     "/docs"):
            html = (await http.get(path)).text
            scripts = re.findall(r"<script\b([^>]*)>", html)
            assert scripts, path
            for attributes in scripts:
                assert ("src=" in attributes
                        or 'type="application/json"' in attributes), f"{path}: {attributes}"
            assert not re.search(r"<[^>]+\son\w+\s*=", html), path
            assert not re.search(r"<[^>]+\sstyle\s*=|<style", html), path
            assert "javascript:" not in html, path


async def test_the_match_page_carries_its_data_as_json(server):
    """What people typed (a name ending a script) stays data in the page's JSON block."""
    code = await create_room(server.http, "marjolet", ["open", "bot:rules"])
    await join(server.http, code, "</script><b>x", 0)
    async with httpx.AsyncClient(base_url=server.http) as http:
        match_id = (await http.get(f"/api/rooms/{code}")).json()["match"]["id"]
        html = (await http.get(f"/matches/{match_id}")).text
    block = re.search(r'<script type="application/json" id="match-data">(.*?)</script>', html,
                      re.S)
    assert block and "\\u003c/script\\u003e\\u003cb\\u003ex" in block.group(1)
    assert "</script><b>" not in html


# -- the WebSocket's Origin ----------------------------------------------------------------------

async def refused(url: str, origin: str) -> int:
    with pytest.raises(websockets.InvalidStatus) as caught:
        async with websockets.connect(url, origin=origin):
            pass
    return caught.value.response.status_code


async def welcomed(ws_base: str, code: str, origin: str | None) -> dict:
    async with websockets.connect(f"{ws_base}/ws/{code}", origin=origin) as ws:
        await ws.send('{"type": "hello"}')
        message = await ws.recv()
    assert '"welcome"' in message, message
    return message


async def test_a_socket_from_another_site_is_refused_before_it_opens(server):
    code = await create_room(server.http, "black_maria", ["open", "open", "bot:rules"])
    url = f"{server.ws}/ws/{code}"
    own = f"http://127.0.0.1:{server.port}"
    for origin in ("https://evil.example", "null", f"http://127.0.0.1:{server.port + 1}",
                   f"http://127.0.0.1:{server.port}.evil.example", "http://localhost",
                   f"http://evil.example/{own}"):
        assert await refused(url, origin) == 403, origin
    await welcomed(server.ws, code, own)  # the page the server served
    await welcomed(server.ws, code, f"https://127.0.0.1:{server.port}")  # behind TLS
    await welcomed(server.ws, code, None)  # not a browser: scripts, bots, the load bench
    # nobody was seated or told by the refused attempts: the room's seats are as they were
    async with httpx.AsyncClient(base_url=server.http) as http:
        room = (await http.get(f"/api/rooms/{code}")).json()
    assert [s["kind"] for s in room["seats"]] == ["open", "open", "bot"]


@pytest.mark.parametrize("origin, host, public_url, allowed", [
    (None, "127.0.0.1:8000", None, True),  # not a browser
    ("http://127.0.0.1:8000", "127.0.0.1:8000", None, True),
    ("https://Cards.Example.org", "cards.example.org", None, True),
    ("http://127.0.0.1:8001", "127.0.0.1:8000", None, False),
    ("null", "127.0.0.1:8000", None, False),
    ("http://user@127.0.0.1:8000", "127.0.0.1:8000", None, False),
    ("https://cards.example.org", "10.0.0.5:8000", "https://cards.example.org/", True),
    ("https://cards.example.org", "10.0.0.5:8000", "https://cards.example.org:443", True),
    ("http://cards.example.org", "10.0.0.5:8000", "https://cards.example.org", False),
    ("https://cards.example.org:8443", "10.0.0.5:8000", "https://cards.example.org", False),
    ("https://cards.example.org", None, None, False),
])
def test_which_origins_are_the_servers_own(origin, host, public_url, allowed):
    assert origin_allowed(origin, host, public_url) is allowed


async def test_public_url_is_an_origin_of_the_server(sqlite_url):
    from tests.conftest import LiveServer

    live = LiveServer(sqlite_url, public_url="https://cards.example.org/").start()
    try:
        code = await create_room(live.http, "marjolet", ["open", "open"])
        await welcomed(live.ws, code, "https://cards.example.org")
        await welcomed(live.ws, code, "https://CARDS.example.org")
        assert await refused(f"{live.ws}/ws/{code}", "https://cards.example.org.evil") == 403
        assert await refused(f"{live.ws}/ws/{code}", "http://cards.example.org:8443") == 403
        await welcomed(live.ws, code, f"http://127.0.0.1:{live.port}")  # its Host still is
    finally:
        live.stop()


async def test_a_body_too_long_is_refused_before_the_application_reads_it(server):
    """Over 64 KiB (nginx's cap in production): 413, said by its Content-Length or counted as
    it comes in chunks; nothing is made. (./run reached through a tunnel had taken in 31 MB.)"""
    from app.web.security import MAX_BODY

    big = b'{"game": "marjolet", "options": {"x": "' + b"a" * MAX_BODY + b'"}}'

    async def chunks():
        for start in range(0, len(big), 8192):
            yield big[start:start + 8192]

    async with httpx.AsyncClient(base_url=server.http) as http:
        async def codes() -> set[str]:  # (the rooms of other tests play on meanwhile)
            rooms = (await http.get("/api/rooms", params={"open": False, "limit": 200})).json()
            return {room["code"] for room in rooms["rooms"]}
        before = await codes()
        for body in (big, chunks()):
            r = await http.post("/api/rooms", content=body,
                                headers={"Content-Type": "application/json"})
            assert r.status_code == 413, r.text
            assert r.json()["reason"] == "body_too_large" and r.json()["params"] == {"count": MAX_BODY}
            assert "content-security-policy" in r.headers
        assert await codes() == before
        made = await http.post("/api/rooms", json={"game": "marjolet", "options": {}})
        assert made.status_code == 201, made.text  # (a body within reach reaches the route whole)
