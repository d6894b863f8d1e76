"""The history and a match's page around the match: the way from a running match to its
table, and times said in the reader's time zone and language."""

from __future__ import annotations

import httpx
import pytest

from .conftest import shot
from .test_tables import create_room, healthy, sit

pytestmark = pytest.mark.browser


def test_a_running_matchs_page_leads_to_its_table(live, new_page):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    player = new_page()
    sit(player, live, code, "Anna", 0)
    match_id = httpx.get(f"{live.http}/api/rooms/{code}").json()["match"]["id"]
    watcher = new_page(locale="ru-RU")
    for page in (player, watcher):
        page.goto(f"{live.http}/matches/{match_id}")
        shot(page, f"running-match-{page.evaluate('document.documentElement.lang')}")
        page.click("[data-testid=table-link]")
        page.wait_for_url(f"**/r/{code}")
        page.wait_for_selector(".seat[data-seat='0']")
    shot(watcher, "running-match-to-its-table-ru")
    assert player.locator(".seat.me[data-seat='0']").count() == 1  # back in her seat
    assert watcher.locator(".seat.me").count() == 0  # watching
    finished = httpx.get(f"{live.http}/api/matches", params={"status": "finished"}).json()
    player.goto(f"{live.http}/matches/{finished['matches'][0]['id']}")
    player.wait_for_selector("[data-testid=winners]")
    assert player.locator("[data-testid=table-link]").count() == 0
    healthy(player, watcher)
