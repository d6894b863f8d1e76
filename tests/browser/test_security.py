"""The Content-Security-Policy in Chromium (app/web/security.py, docs/security.md): every page,
/docs included, works under it without a single violation (the new_page fixture fails a test on
any: a `securitypolicyviolation` listener writes each to the console); a page of another site
can neither frame a cardroom page nor open a table's WebSocket."""

from __future__ import annotations

import http.server
import threading
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from .test_tables import create_room, healthy

pytestmark = pytest.mark.browser

#: Opens a WebSocket from the page and says how it went: "open", or "closed CODE".
SOCKET = """(url) => new Promise((resolve) => {
  const ws = new WebSocket(url);
  ws.onopen = () => { ws.close(); resolve('open'); };
  ws.onclose = (e) => resolve('closed ' + e.code);
})"""


def test_every_page_works_under_the_policy(live, new_page):
    matches = httpx.get(live.http + "/api/matches", params={"status": "finished"}).json()
    finished = matches["matches"][0]
    someone = next(p["name"] for p in finished["players"] if not p.get("bot"))
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page()
    # each page, and what shows that its scripts ran
    for path, ready in [
            ("/", "#option-fields .option"),
            (f"/r/{code}", ".seat[data-seat='1']"),
            ("/history", "[data-testid=history-table] tbody tr"),
            (f"/matches/{finished['id']}", "#replay .seat"),
            (f"/players/{someone}", "[data-testid=player-name]"),
            (f"/standings?players={someone}", "[data-testid=standings] tbody tr"),
            ("/rules", "#black_maria"),
            ("/me/continue", "[data-testid=continue-status]:not(:empty)"),
            ("/r/NOSUCH", "main h1"),
            ("/docs", ".opblock"),  # Swagger UI, from this server, under the same policy
    ]:
        response = page.goto(live.http + path)
        policy = response.headers["content-security-policy"]
        assert "script-src 'self';" in policy and "unsafe" not in policy, path
        page.wait_for_selector(ready)
        healthy(page)
    # the API's reference used: an operation opened, tried (a request from the page), a schema
    # opened (Swagger UI's stylesheet draws its arrows as data: images)
    page.goto(live.http + "/docs")
    page.click(".opblock-summary-path[data-path='/api/games']")
    page.click(".try-out__btn")
    page.click(".execute")
    page.wait_for_selector(".live-responses-table .response-col_status:text-is('200')")
    page.locator(".models .json-schema-2020-12-accordion").first.click()
    page.wait_for_selector(".models .json-schema-2020-12-property")
    healthy(page)
    # the continue page said what it found in the link (its script ran), in the page's words
    assert page.goto(live.http + "/me/continue").ok
    page.wait_for_function("(checking) => document.querySelector("
                           "'[data-testid=continue-status]').textContent !== checking",
                           arg="Checking the link…")
    healthy(page)


@pytest.fixture
def elsewhere(live):
    """Another site on this machine (127.0.0.1, another port: another origin, and no browser
    rule about reaching local addresses from public ones in the way): its page frames a
    cardroom table (given as ?code=) and a page of its own."""
    class Site(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            url = urlsplit(self.path)
            if url.path == "/own":
                body = "<!doctype html><title>own</title><p id=own>its own page</p>"
            else:
                code = parse_qs(url.query)["code"][0]
                body = (f'<!doctype html><title>elsewhere</title><iframe src="/own"></iframe>'
                        f'<iframe src="{live.http}/r/{code}"></iframe>')
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_another_site_can_neither_frame_a_page_nor_open_a_socket(live, new_page, elsewhere):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page()
    with page.expect_console_message(lambda m: "frame-ancestors 'none'" in m.text):
        page.goto(f"{elsewhere}/?code={code}")
    own = next(f for f in page.frames if f.url.endswith("/own"))
    table = next(f for f in page.frames[1:] if f is not own)
    assert own.locator("#own").count() == 1  # the site may frame its own pages
    assert table.locator(".topbar").count() == 0, "the table was shown inside another site"
    socket = f"ws://127.0.0.1:{live.port}/ws/{code}"
    assert page.evaluate(SOCKET, socket) == "closed 1006"
    assert any("Unexpected response code: 403" in e for e in page.errors), page.errors
    # the table's own page opens the same socket
    mine = new_page()
    mine.goto(f"{live.http}/r/{code}")
    assert mine.evaluate(SOCKET, socket) == "open"
    healthy(mine)
