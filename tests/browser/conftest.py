"""Browser tests: the real server (tests/conftest.py's LiveServer) on a temporary SQLite
database with bot delay 0, driven through the system Chromium with Playwright's sync API.

Without /usr/bin/chromium (or the playwright package) these tests skip with the reason, unless
CI=true: then each of them fails (the `browser` fixture), as the tests needing PostgreSQL do.
The test modules import playwright only inside functions, so that they are collected without it.
Screenshots go to test-artifacts/ (gitignored); not with CI=true, unless CARDROOM_SHOTS=1.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from pathlib import Path

import httpx
import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
#: Every Content-Security-Policy violation (app/web/security.py: no inline script or style) is
#: written to the console as an error, which fails the test like a script error.
REPORT_CSP = """document.addEventListener('securitypolicyviolation', (e) => console.error(
  `CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`));"""
#: A JavaScript function's text (what page.wait_for_function may poll without eval).
FUNCTION = re.compile(r"\s*(async\s+)?(function\b|\([^()]*\)\s*=>|\w+\s*=>)")
LAPTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def _unavailable() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is missing (scripts/ensure-chromium.sh installs it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _unavailable()
    for item in items:
        if "tests/browser" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            if reason and os.environ.get("CI") != "true":
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def live(tmp_path_factory):
    """A live server on a fresh SQLite database holding the demo matches (finished)."""
    from app.ops.seeds import load_demo
    from tests.conftest import LiveServer, fresh_sqlite

    url = fresh_sqlite(tmp_path_factory, "browserdb")
    load_demo(url)
    server = LiveServer(url).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def paused(tmp_path_factory):
    """A live server whose deal summaries stay on the table for a minute, unless everyone at
    the table asks for the next deal: deal boundaries a test steps over with "Next deal"."""
    from tests.conftest import LiveServer, fresh_sqlite

    server = LiveServer(fresh_sqlite(tmp_path_factory, "pauseddb"), deal_pause=60).start()
    yield server
    server.stop()


@pytest.fixture(scope="package")
def browser():
    reason = _unavailable()
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and the browser tests cannot run: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _polls_without_eval(page) -> None:
    """page.wait_for_function given an expression (not a function) polls it with eval(), which
    the pages' Content-Security-Policy refuses (no 'unsafe-eval'): make it a function."""
    wait = page.wait_for_function

    def wait_for_function(expression: str, *args, **kwargs):
        if not FUNCTION.match(expression):
            expression = f"() => ({expression})"
        return wait(expression, *args, **kwargs)

    page.wait_for_function = wait_for_function


@pytest.fixture
def new_page(browser):
    """new_page(viewport=LAPTOP, locale="en-GB", **options) -> a page in its own context (own
    storage); options go to the context (has_touch=True, is_mobile=True: a phone's browser).

    page.errors: its uncaught script errors and the errors written to its console (but a
    page's own 404 status, which the pages for a missing table or match answer with), among
    them every violation of the Content-Security-Policy;
    page.refusals: every `error` message the server sent it over the WebSocket ({"code",
    "message"}), whether or not the page showed it."""
    contexts = []

    def watch_socket(page, ws):
        def frame(payload):
            if isinstance(payload, str) and '"error"' in payload:
                message = json.loads(payload)
                if message.get("type") == "error":
                    page.refusals.append({"code": message.get("code"), "message": message.get("message")})
        ws.on("framereceived", frame)

    def console_error(page, message):
        if message.type == "error" and not (
                "status of 404" in message.text and message.location.get("url") == page.url):
            page.errors.append(f"console: {message.text} ({message.location.get('url')})")

    def make(viewport=None, locale="en-GB", **options):
        ctx = browser.new_context(viewport=viewport or LAPTOP, locale=locale, **options)
        ctx.add_init_script("window.CARDROOM_ANIM_MS = 0;")
        ctx.add_init_script(REPORT_CSP)
        ctx.set_default_timeout(15000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors, page.refusals = [], []
        _polls_without_eval(page)
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.on("console", lambda m: console_error(page, m))
        page.on("websocket", lambda ws: watch_socket(page, ws))
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def fresh_name(name: str) -> str:
    """A name nobody has taken yet on the session's server: the lobby claims the name it is
    given for the browser's player, and a name a player holds is refused to everyone else."""
    return f"{name} {secrets.token_hex(2)}"


#: Screenshots are for a person to look at: not taken with CI=true, where nobody does (a full page
#: takes a quarter to three quarters of a second: most of a minute of the suite's ten), unless
#: CARDROOM_SHOTS=1 asks for them.
SHOTS = os.environ.get("CI") != "true" or os.environ.get("CARDROOM_SHOTS") == "1"


#: with a trick on the table and moves of two lines at most, whether the top seat's name is below
#: the table's bar (the table scrolled under it, once, for want of a few pixels: one's only
#: opponent or one's partner out of sight); true in any other state, and with no top seat (Black
#: Maria). Read in one step: the bots play on meanwhile.
TOP_SEAT_IN_SIGHT = """() => {
  const trick = document.querySelector('#trick .card'), lines = Math.round(document.getElementById('actions').offsetHeight / 40);
  const top = document.querySelector('.seat-slot[data-pos=top] .nameplate');
  return !trick || lines > 2 || !top || top.getBoundingClientRect().top
    >= document.querySelector('.tablebar').getBoundingClientRect().bottom - 1; }"""


def shot(page, name: str) -> None:
    if not SHOTS:
        return
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def demo_match(server, game: str) -> dict:
    """A demo match of ``game`` (its room's code "DEMOnn"): the same whatever the other tests
    have finished before (the newest finished match may be one of theirs)."""
    found = httpx.get(f"{server.http}/api/matches", params={"game": game, "status": "finished", "limit": 500}).json()["matches"]
    return next(m for m in found if m["room"].startswith("DEMO"))
