"""What happens around the game at a table (issue 24): toasts that go away, the summary between
deals and the result of a match, what buttons call the other seats, an action sent once however
often it is clicked, the turn timer's notice, the pass kept across a reload, long names, and
your turn told by the tab (see conftest.py for the set-up)."""

from __future__ import annotations

import pytest

from .conftest import PHONE
from .test_tables import create_room, healthy, sit

pytestmark = pytest.mark.browser

def choose_three(page) -> None:
    cards = page.locator(".hand-row .card.playable")
    for i in range(3):
        cards.nth(i).click()


# -- toasts ----------------------------------------------------------------------------------------

def test_toasts_go_away_after_their_time(live, new_page):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page(PHONE)
    page.context.add_init_script("window.CARDROOM_TOAST_MS = 300;")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sit(page, live, code, "Anna", 0)
    page.wait_for_selector("[data-testid=pass-button]")
    page.click("[data-testid=copy-invite]")
    page.wait_for_selector("#toast.info", state="visible")
    page.wait_for_selector("#toast", state="hidden", timeout=5000)
    choose_three(page)
    page.locator(".hand-row .card.playable:not(.selected)").first.click()  # a fourth
    page.wait_for_selector("#toast.info", state="visible")
    assert "3" in page.text_content("#toast")
    page.wait_for_selector("#toast", state="hidden", timeout=5000)
    healthy(page)
