"""Whole deals through the real server and the system Chromium (see conftest.py)."""

from __future__ import annotations

import time

import httpx
import pytest

from .conftest import LAPTOP, PHONE, shot

pytestmark = pytest.mark.browser

SHEET_ROW = "[data-testid=score-sheet] tr[data-deal='{}']"


def my_turn(page) -> bool:
    return page.locator("[data-testid=status].yours").count() > 0


def try_click(locator) -> bool:
    from playwright.sync_api import Error as PlaywrightError

    try:
        locator.click(timeout=1500)
        return True
    except PlaywrightError:
        return False


def play_first_legal(page) -> bool:
    cards = page.locator(".hand-row .card.playable")
    return cards.count() > 0 and try_click(cards.first)


def create_room(live, game, seats, options=None) -> str:
    r = httpx.post(live.http + "/api/rooms", json={"game": game, "seats": seats,
                                                   "options": options or {}})
    assert r.status_code == 201, r.text
    return r.json()["code"]


def sit(page, live, code, name, seat):
    page.goto(f"{live.http}/r/{code}")
    page.fill("#seat-name", name)
    page.click(f"[data-testid=take-seat-{seat}]")
    page.wait_for_selector(f".seat.me[data-seat='{seat}']")


def test_black_maria_deal_against_two_bots_with_reload(live, new_page):
    page = new_page()
    page.goto(live.http + "/")
    page.check("input[value=black_maria]")
    page.fill("#create-name", "Anna")
    page.select_option("select[data-seat='1']", "bot:rules")
    page.select_option("select[data-seat='2']", "bot:random")
    assert page.input_value("[data-testid=turn-timer-select]") == ""  # off by default
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    code = page.text_content("#created-code")
    assert page.input_value("#invite-link").endswith("/r/" + code)
    shot(page, "lobby-created")
    page.click("#go-table")

    # Passing: three cards to the right, then the three received are shown.
    page.wait_for_selector("[data-testid=pass-button]")
    assert page.locator(".hand-row .card").count() == 17
    assert page.is_hidden("[data-testid=turn-timer]")
    assert page.is_disabled("[data-testid=pass-button]")
    shot(page, "black-maria-pass-laptop")
    for i in range(3):
        page.locator(".hand-row .card.playable").nth(i).click()
    assert page.locator(".hand-row .card.selected").count() == 3
    page.click("[data-testid=pass-button]")
    page.wait_for_selector("[data-testid=received] .cardtext")
    assert page.locator("[data-testid=received] .cardtext").count() == 3

    # Spectator on a phone: sees the table, no cards of anyone's hand.
    watcher = new_page(PHONE)
    watcher.goto(f"{live.http}/r/{code}")
    watcher.wait_for_selector(".seat[data-seat='0']")
    assert watcher.locator(".hand-row").count() == 0
    assert watcher.locator(".seat-cards .card:not(.back)").count() == 0

    reloaded = False
    deadline = time.monotonic() + 60
    while page.locator(SHEET_ROW.format(0)).count() == 0:
        assert time.monotonic() < deadline, "the deal did not finish"
        if not my_turn(page):
            page.wait_for_timeout(30)
            continue
        # a trick in progress, not the finished one that lingers in the middle for a moment
        in_trick = page.locator("#trick:not(.done) .card").count()
        if not reloaded and in_trick > 0:
            hand = page.locator(".hand-row .card").count()
            shot(page, "black-maria-play-laptop")
            page.reload()
            page.wait_for_selector("[data-testid=status].yours")
            assert page.locator(".seat.me[data-seat='0']").count() == 1, "seat not resumed"
            assert page.locator(".hand-row .card").count() == hand
            assert page.locator("#trick .card").count() == in_trick
            assert page.get_attribute("#conn", "data-status") == "online"
            reloaded = True
            continue
        playable = page.locator(".hand-row .card.playable")
        if playable.count() == 0:
            page.wait_for_timeout(30)
            continue
        card = playable.first.get_attribute("data-card")
        if try_click(playable.first):  # "your turn" is stale until the card has left the hand
            page.wait_for_function(
                """([card, lastRow]) => !document.querySelector(
                       `.hand-row .card[data-card="${card}"]`) || document.querySelector(lastRow)""",
                arg=[card, SHEET_ROW.format(0)], timeout=10000)
    assert reloaded, "never had a trick in progress on my turn"
    shot(page, "black-maria-after-deal-laptop")
    watcher.wait_for_selector(SHEET_ROW.format(0).replace("[data-testid=score-sheet] ", ""),
                              state="attached")
    shot(watcher, "black-maria-spectator-phone")
    total = sum(int(x) for x in page.locator("[data-testid=score-sheet] tfoot th").all_text_contents()[1:])
    assert total % 43 == 0 and total >= 43
    # chat is plain text
    page.fill("#chat-input", "<b>hi</b>")
    page.click("#chat-form button")
    page.wait_for_selector("[data-testid=chat-lines] li")
    assert "<b>hi</b>" in page.text_content("[data-testid=chat-lines]")
    assert page.locator("[data-testid=chat-lines] b b").count() == 0
    assert not page.errors


def test_marjolet_two_players_declaration_and_end_phase(live, new_page):
    code = create_room(live, "marjolet", ["open", "open"])
    a, b = new_page(LAPTOP), new_page(PHONE, locale="ru-RU")
    sit(a, live, code, "Anna", 0)
    sit(b, live, code, "Boris", 1)
    a.wait_for_selector("[data-testid=stock]")
    shot(a, "marjolet-start-laptop")
    declared = end_seen = exchanged = False
    deadline = time.monotonic() + 150
    deals_done = 0
    # The dix exchange is offered only to the holder of the 7 of trumps who wins a stock trick
    # while the turn-up lies on the table: loop over deals until it has been offered and used.
    while not (declared and end_seen and exchanged and deals_done >= 1):
        assert time.monotonic() < deadline and deals_done < 6, \
            f"declared={declared} end_phase={end_seen} exchanged={exchanged} deals={deals_done}"
        for p in (a, b):
            if p.locator("[data-testid=exchange]").count():
                trump = p.evaluate("window.cardroomTable.state.match.deal.trump")
                if try_click(p.locator("[data-testid=exchange]")):
                    # the dix now lies face up as the turn-up, and the table says who exchanged
                    p.wait_for_selector(f"[data-testid=stock] .turnup .card[data-card='7{trump}']")
                    if not exchanged:
                        shot(p, "marjolet-exchanged")
                    exchanged = True
            elif p.locator("[data-testid=declare]").count():
                if try_click(p.locator("[data-testid=declare]").first):
                    p.wait_for_selector("[data-testid^=declared-] .card")
                    if not declared:
                        shot(p, "marjolet-declared")
                    declared = True
            elif p.locator("[data-testid=draw]").count():
                try_click(p.locator("[data-testid=draw]"))
            elif my_turn(p):
                if not end_seen and p.locator("[data-testid=end-phase]").count():
                    end_seen = True
                    shot(a, "marjolet-end-phase-laptop")
                    shot(b, "marjolet-end-phase-phone")
                play_first_legal(p)
        while a.locator(SHEET_ROW.format(deals_done)).count():
            deals_done += 1
    assert deals_done >= 1
    assert not a.errors and not b.errors


def test_big_mariage_bidding_kitty_gives_contract_and_trump_call(live, new_page):
    code = create_room(live, "big_mariage", ["open"] * 4)
    pages = [new_page(LAPTOP if s == 0 else PHONE) for s in range(4)]
    for s, p in enumerate(pages):
        sit(p, live, code, ["Anna", "Boris", "Vera", "Gleb"][s], s)
    seen = {"bid": False, "give": False, "contract": False, "call": False}
    deadline = time.monotonic() + 100
    deals_done = 0
    while not (all(seen.values()) and deals_done >= 1):
        assert time.monotonic() < deadline, f"{seen} after {deals_done} deals"
        for s, p in enumerate(pages):
            if p.locator("[data-testid=bidbox]").count():
                if s == 0 and p.locator("[data-testid=bid-button]").count():
                    if not seen["bid"]:
                        shot(p, "big-mariage-bidding-laptop")
                    seen["bid"] |= try_click(p.locator("[data-testid=bid-button]"))
                else:
                    try_click(p.locator("[data-testid=bidbox] [data-testid=pass-button]"))
            elif p.locator("[data-testid^=give-]").count():
                if not seen["give"]:
                    shot(p, "big-mariage-kitty-laptop")
                if play_first_legal(p):
                    buttons = p.locator("[data-testid^=give-]:not([disabled])")
                    if buttons.count() and try_click(buttons.first):
                        seen["give"] = True
            elif p.locator("[data-testid=contract-button]").count():
                seen["contract"] |= try_click(p.locator("[data-testid=contract-button]"))
            elif my_turn(p):
                callable_ = p.locator(".hand-row .card[data-call]")
                if callable_.count() and try_click(callable_.first):
                    if try_click(p.locator("[data-testid=call-trumps]")):
                        seen["call"] = True
                        p.wait_for_selector(".info .trump:not(.none)")
                        shot(pages[0], "big-mariage-trumps-laptop")
                        shot(pages[1], "big-mariage-trumps-phone")
                else:
                    play_first_legal(p)
        while pages[0].locator(SHEET_ROW.format(deals_done)).count():
            deals_done += 1
    assert pages[0].locator("[data-testid=contract]").count() or deals_done
    shot(pages[0], "big-mariage-sheet-laptop")
    assert not any(p.errors for p in pages)


def test_history_match_page_and_replay(live, new_page):
    page = new_page()
    page.goto(live.http + "/history")
    rows = page.locator("[data-testid=history-table] tbody tr")
    assert rows.count() >= 9  # the demo matches
    page.select_option("select[name=game]", "big_mariage")
    page.select_option("select[name=status]", "finished")
    page.click(".filters button")
    page.wait_for_url("**game=big_mariage**")
    assert all("Big Mariage" in t for t in
               page.locator("[data-testid=history-table] tbody td:nth-child(2)").all_text_contents())
    shot(page, "history-laptop")
    page.locator("[data-testid=history-table] tbody a.button").first.click()
    page.wait_for_selector("[data-testid=deal-table] tbody tr")
    assert page.locator("[data-testid=chart] svg polyline").count() == 2
    assert page.locator("[data-testid=winners]").count() == 1
    page.wait_for_selector("#replay .seat")
    first = page.text_content("[data-testid=replay-where]")
    # all hands open in the replay
    assert page.locator("#replay .seat-cards.open .card").count() == 32 - 4
    for _ in range(12):
        page.click("[data-testid=replay-next]")
    assert page.text_content("[data-testid=replay-where]") != first
    assert page.text_content("[data-testid=replay-action]").strip()
    shot(page, "match-replay-laptop")
    page.set_viewport_size(PHONE)
    shot(page, "match-replay-phone")
    # the language switch is remembered
    page.click("[data-testid=lang-switch]")
    page.wait_for_selector("text=Повтор")
    page.goto(live.http + "/rules")
    assert page.locator(".convention").count() >= 5
    assert "Договорённость" in page.text_content(".rules")
    assert not page.errors
