"""The table on phones and laptops together (issue 24): what a look at the screenshots found
wrong: a tapped card left raised, the result panel letting the table show through, the replay's
side hands cut on a phone, "free seat" said twice or as "1 free seat(s)", the top bar of a
Russian phone in three lines, the chat's placeholder cut (see conftest.py for the set-up)."""

from __future__ import annotations

import httpx
import pytest

from .conftest import LAPTOP, PHONE, fresh_name, shot
from .test_tables import (
    Watch,
    act,
    create_room,
    healthy,
    my_turn,
    play_first_legal,
    sit,
)

pytestmark = pytest.mark.browser

#: a phone's browser: touch, and the page's viewport (a tap there also moves the mouse, as on a
#: real phone, which leaves :hover on what was touched)
TOUCH = {"has_touch": True, "is_mobile": True}
#: the hand's cards that stand raised though none is chosen
RAISED = """() => [...document.querySelectorAll('#hand .card:not(.selected)')]
  .filter((c) => getComputedStyle(c).transform !== 'none').map((c) => c.dataset.card)"""



# -- a tapped card -------------------------------------------------------------------------------

def test_a_tapped_card_goes_down_when_let_go_or_played(live, new_page):
    """On a phone a card is raised while it is chosen, and only then: tapped again (let go), or
    played, nothing stays up under the finger."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page(PHONE, **TOUCH)
    sit(page, live, code, "Anna", 0)
    page.wait_for_selector("[data-testid=pass-button]")
    card = page.locator(".hand-row .card.playable").nth(2)
    name = card.get_attribute("data-card")
    card.tap()
    chosen = page.locator(f".hand-row .card[data-card='{name}']")
    assert "selected" in chosen.get_attribute("class")
    chosen.click()  # a tap as a phone also reports it: the mouse moves there and clicks
    page.wait_for_timeout(150)
    assert "selected" not in chosen.get_attribute("class")
    assert page.evaluate(RAISED) == [], "the card let go stays raised"
    while page.locator(".hand-row .card.selected").count() < 3:
        page.locator(".hand-row .card.playable:not(.selected)").first.click()
    act(page, page.locator("[data-testid=pass-button]"))
    watch = Watch([page], 60, "three tricks on a phone")
    played = 0
    while played < 3:
        watch()
        if my_turn(page) and play_first_legal(page):
            played += 1
            page.wait_for_timeout(150)
            assert page.evaluate(RAISED) == [], "a card stays raised after a play"
        else:
            page.wait_for_timeout(30)
    healthy(page)


# -- free seats ----------------------------------------------------------------------------------

@pytest.mark.parametrize("locale, words", [
    ("en-GB", {"seat": "Seat 2", "badge": "free", "one": "Waiting for players: 1 seat is free.",
               "two": "2 free seats", "one_free": "1 free seat"}),
    ("ru-RU", {"seat": "Место 2", "badge": "свободно", "one": "Ждём игроков: свободно 1 место.",
               "two": "2 свободных места", "one_free": "1 свободное место"}),
])
def test_a_free_seat_is_said_once_with_the_plural_of_its_language(live, new_page, locale, words):
    one = create_room(live, "black_maria", ["open", "open", "bot:rules"])
    two = create_room(live, "big_mariage", ["open", "open", "bot:rules", "bot:rules"])
    page = new_page(PHONE, locale=locale)
    sit(page, live, one, "Anna", 0)
    seat = page.locator("[data-testid=seat-1]")
    assert seat.locator(".name").text_content() == words["seat"]
    assert seat.locator(".badge.open").text_content() == words["badge"]
    assert page.text_content("[data-testid=status]").startswith(words["one"])
    page.goto(live.http + "/")
    for code, said in ((one, words["one_free"]), (two, words["two"])):
        row = page.locator("#open-rooms li", has=page.locator(f".code:text-is('{code}')"))
        row.wait_for()
        assert row.text_content().endswith(" · " + said), row.text_content()
    healthy(page)


# -- the replay on a phone -----------------------------------------------------------------------

def test_the_replays_open_hands_stay_inside_their_seats_on_a_phone(live, new_page):
    matches = httpx.get(f"{live.http}/api/matches?game=big_mariage&status=finished").json()["matches"]
    page = new_page(PHONE, locale="ru-RU")
    page.goto(f"{live.http}/matches/{matches[0]['id']}")
    page.wait_for_selector("#replay .seat-cards.open .card")
    for _ in range(10):
        page.click("[data-testid=replay-next]")
    cut = page.evaluate("""() => [...document.querySelectorAll('#replay .seat-cards.open .card')].filter((c) => {
      const r = c.getBoundingClientRect(), seat = c.closest('.seat').getBoundingClientRect();
      return r.left < seat.left - 0.5 || r.right > seat.right + 0.5 || r.left < 0 || r.right > innerWidth;
    }).map((c) => c.dataset.card)""")
    assert cut == [], f"cards cut at the seat's edge: {cut}"
    shot(page, "replay-open-hands-phone-ru")
    healthy(page)


# -- the top bar and the chat box ---------------------------------------------------------------

def test_the_top_bar_of_a_phone_is_two_lines_in_russian_with_the_identity_menu(live, new_page):
    """Brand, identity menu and language on the first line, the site's links on the second."""
    page = new_page(PHONE, locale="ru-RU")
    page.goto(live.http + "/")
    page.wait_for_selector("#seat-fields select")
    page.fill("#create-name", fresh_name("Анастасия Александровна"))  # claimed: the menu shows
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    for path in ("/", "/history", "/standings", "/rules"):
        page.goto(live.http + path)
        page.wait_for_selector("[data-testid=me-name]")
        boxes = page.evaluate("""() => Object.fromEntries([
            ['brand', '.topbar .brand'], ['me', '[data-testid=me-name]'], ['lang', '.topbar .lang'],
            ['lobby', '.topbar nav a[href="/"]'], ['rules', '.topbar nav a[href="/rules"]'],
            ['bar', '.topbar']].map(([k, sel]) => { const r = document.querySelector(sel).getBoundingClientRect();
              return [k, {top: r.top, bottom: r.bottom, left: r.left, right: r.right}]; }))""")
        first, second = boxes["brand"], boxes["lobby"]
        for item in ("me", "lang"):  # on the brand's line
            assert boxes[item]["top"] < first["bottom"] and boxes[item]["bottom"] > first["top"], (path, item, boxes)
        assert second["top"] >= first["bottom"] - 1, (path, boxes)
        assert abs(boxes["rules"]["top"] - second["top"]) < 2, f"{path}: the links take two lines: {boxes}"
        assert all(b["right"] <= 390 + 0.5 for b in boxes.values()), (path, boxes)
        assert boxes["bar"]["bottom"] < 90, (path, boxes)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shot(page, "topbar-phone-ru")
    healthy(page)


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_the_chat_box_shows_its_whole_placeholder(live, new_page, viewport, locale):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page(viewport, locale=locale)
    sit(page, live, code, "Anna", 0)
    if viewport == PHONE:
        page.click("[data-testid=chat-tab]")
    room = page.evaluate("""() => { const i = document.getElementById('chat-input'), s = getComputedStyle(i);
      const ctx = document.createElement('canvas').getContext('2d'); ctx.font = s.font;
      return [ctx.measureText(i.placeholder).width,
              i.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)]; }""")
    assert room[0] <= room[1], f"the placeholder needs {room[0]:.0f}px, the box has {room[1]:.0f}px"
    healthy(page)
