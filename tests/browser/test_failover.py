"""The table page in the production topology (tests/scale/: two app processes on PostgreSQL
and Redis, the shipped nginx.conf in front, HTTPS): when the process holding a room dies, both
pages say they are reconnecting, nginx sends them to the other process, and play goes on from
its welcome, each event's changes applied to the page's STATE without ever asking for the
whole state again."""

from __future__ import annotations

import time

import httpx
import pytest

from tests.scale.conftest import pg_url, processes, redis_url  # noqa: F401 (fixtures)
from tests.scale.test_tls import nginx_binary, proxy, rooms_held  # noqa: F401 (fixtures)

from .conftest import LAPTOP, PHONE, shot
from .test_tables import act, healthy, my_turn, play_first_legal, state

pytestmark = [pytest.mark.browser, pytest.mark.services, pytest.mark.timeout(180)]


def play(pages, actions: int) -> None:
    """Marjolet's seats draw when they must and play their first playable card, until
    ``actions`` cards have been played; each is answered (``act`` fails the test if not)."""
    played, deadline = 0, time.monotonic() + 60
    while played < actions:
        assert time.monotonic() < deadline, f"{played} of {actions} cards played in 60 s"
        for page in pages:
            if page.locator("[data-testid=draw]").count():
                act(page, page.locator("[data-testid=draw]"))
            elif my_turn(page) and play_first_legal(page):
                played += 1


def test_the_pages_of_a_killed_process_play_on_through_the_other(proxy, new_page):  # noqa: F811
    https, _, trust, apps = proxy
    made = httpx.post(f"{https}/api/rooms", json={"game": "marjolet", "seats": ["open", "open"]},
                      verify=trust)
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    phone = new_page(PHONE, locale="ru-RU", has_touch=True, is_mobile=True,
                     ignore_https_errors=True)
    laptop = new_page(LAPTOP, ignore_https_errors=True)
    pages = [phone, laptop]
    asked = {id(page): 0 for page in pages}  # the `sync` messages each page sent
    for page in pages:
        page.on("websocket", lambda ws, page=page: ws.on(
            "framesent", lambda text, page=page: asked.__setitem__(
                id(page), asked[id(page)] + ('"sync"' in str(text)))))
    for seat, (page, name) in enumerate(zip(pages, ("Anna", "Boris"))):
        page.goto(f"{https}/r/{code}")
        page.fill("#seat-name", name)
        page.check("[data-testid=seat-guest]")
        page.click(f"[data-testid=take-seat-{seat}]")
        page.wait_for_selector(f".seat.me[data-seat='{seat}']")
    play(pages, 4)
    held = rooms_held(apps)
    assert sorted(held) == [0, 1], f"rooms held by each process: {held}"
    home, other = apps if held[0] else apps[::-1]
    before = [state(page)["seq"] for page in pages]

    home.kill()
    for page in pages:
        page.wait_for_selector("#conn[data-status=reconnecting]")
    shot(phone, "failover-reconnecting-phone")
    for page in pages:
        page.wait_for_selector("#conn[data-status=online]", timeout=30000)
    assert rooms_held([other]) == [1]
    assert [state(page)["seq"] for page in pages] == before, "the welcome lost an event"
    play(pages, 4)
    shot(phone, "failover-played-on-phone")

    healthy(*pages)  # (a page that lost step says so on its console, which fails here)
    after = [state(page) for page in pages]
    assert after[0]["seq"] == after[1]["seq"] > before[0] + 4
    assert after[0]["match"]["deal"]["trick"] == after[1]["match"]["deal"]["trick"]
    assert asked == {id(page): 0 for page in pages}, "a page asked for the whole state"
