"""The strong bot in the browser: a seat choice in the lobby with its thinking time (asked for
only when a seat has one), in both languages at laptop and phone size; a table against it, its
seat marked as the strong bot's; a stand-in of that kind."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from .conftest import PHONE, fresh_name, shot
from .test_tables import act, create_room, healthy, my_turn, offer_bots, play_first_legal, sit

pytestmark = pytest.mark.browser

SCREEN = {"width": 1280, "height": 800}
WORDS = {"en-GB": ("bot: strong", "Strong bot's thinking time",
                   "0.5 s a move"),
         "ru-RU": ("бот: сильный",
                   "Время на раздумье сильного бота", "0,5 с на ход")}


@pytest.mark.parametrize("viewport, locale", [(SCREEN, "en-GB"), (PHONE, "en-GB"),
                                              (SCREEN, "ru-RU"), (PHONE, "ru-RU")])
def test_the_lobby_offers_the_strong_bot_and_asks_its_thinking_time(live, new_page, viewport,
                                                                    locale):
    seat_text, think_label, half_second = WORDS[locale]
    page = new_page(viewport, locale=locale)
    page.goto(live.http + "/")
    page.wait_for_selector("#create-button:not([disabled])")  # the lobby's script drew the form
    page.check("input[value=big_mariage]")
    assert page.is_hidden("#think-option")  # no strong bot yet: nothing to ask
    for seat in (1, 2, 3):
        texts = page.locator(f"select[data-seat='{seat}'] option").all_text_contents()
        assert seat_text in texts
    page.select_option("select[data-seat='1']", "bot:strong")
    page.wait_for_selector("#think-option:not([hidden])")
    assert page.text_content("label[for=think-time]") == think_label
    assert half_second in page.locator("#think-time option").all_text_contents()
    assert page.input_value("[data-testid=think-time-select]") == "1"  # the default
    page.select_option("select[data-seat='3']", "bot:strong")
    page.select_option("select[data-seat='1']", "open")
    assert page.is_visible("#think-option")  # seat 4 still has one
    page.locator("#think-option").scroll_into_view_if_needed()
    wide = "phone" if viewport == PHONE else "laptop"
    shot(page, f"lobby-strong-bot-{wide}-{locale[:2]}")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, "the lobby scrolls sideways"
    page.select_option("select[data-seat='3']", "bot:random")
    assert page.is_hidden("#think-option")
    healthy(page)


def test_a_table_made_in_the_lobby_against_the_strong_bot(live, new_page):
    page = new_page(SCREEN)
    page.goto(live.http + "/")
    page.wait_for_selector("#create-button:not([disabled])")
    page.check("input[value=marjolet]")
    page.fill("#create-name", fresh_name("Anna"))
    page.check("[data-testid=create-guest]")
    page.select_option("select[data-seat='1']", "bot:strong")
    page.select_option("[data-testid=think-time-select]", "0.5")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))  # (every other seat a bot's: straight there)
    code = page.url.rsplit("/", 1)[1]
    room = httpx.get(f"{live.http}/api/rooms/{code}").json()
    assert room["think_time"] == 0.5 and room["seats"][1]["bot"] == "strong"
    page.wait_for_selector("[data-testid=strong-badge-1]")
    assert page.text_content("[data-testid=strong-badge-1]") == "strong bot"
    # a few tricks: the strong bot answers each card within its half second
    before = live.app.state.rooms.thinkers.decisions
    played, deadline = 0, time.monotonic() + 60
    while played < 4:
        assert time.monotonic() < deadline, "the strong bot did not answer"
        if my_turn(page) and play_first_legal(page):
            played += 1
        elif my_turn(page) and page.locator("[data-testid=draw]").count():
            act(page, page.locator("[data-testid=draw]"))  # a trick won: draw, declare nothing
        else:
            page.wait_for_timeout(50)
    assert live.app.state.rooms.thinkers.decisions - before >= 3  # it thought in the server's pool
    shot(page, "table-against-strong-bot-laptop")
    healthy(page)


def test_a_free_seat_can_go_to_a_strong_stand_in(live, new_page):
    code = create_room(live, "marjolet", ["open", "open"], {"target": 1})
    page = new_page(SCREEN)
    sit(page, live, code, "Anna", 0)
    offer_bots(page)
    page.wait_for_selector("[data-testid=standin-1-strong]")
    assert page.text_content("[data-testid=standin-1-strong]") == "Strong bot"
    page.click("[data-testid=standin-1-strong]")
    page.wait_for_selector("[data-testid=strong-badge-1]")
    assert httpx.get(f"{live.http}/api/rooms/{code}").json()["seats"][1]["bot"] == "strong"
    healthy(page)
