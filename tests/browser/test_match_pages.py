"""The history and a match's page around the match: the way from a running match to its
table, and times said in the reader's time zone and language."""

from __future__ import annotations

from datetime import datetime, timezone
from urllib.parse import quote

import httpx
import pytest

from ..conftest import stored_match
from .conftest import demo_match, fresh_name, shot
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
        # no deal over yet: no chart (a line at 0 had filled the page) and no keys for a replay
        # that is not there
        assert page.get_by_test_id("chart").count() == page.get_by_test_id("replay-keys").count() == 0
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


def test_times_are_said_in_the_readers_time_zone_and_language(live, new_page):
    names = [fresh_name("Toshi"), fresh_name("Yuki")]
    match_id = stored_match(live, "marjolet-1", names,
                            datetime(2026, 3, 1, 22, 30, tzinfo=timezone.utc))
    addresses = [f"/matches/{match_id}", f"/history?player={quote(names[0])}"]
    for locale, day in [("en-GB", "2 Mar 2026"), ("ru-RU", "2 мар. 2026")]:
        page = new_page(locale=locale, timezone_id="Asia/Tokyo")  # 9 hours ahead of UTC
        for address in addresses:
            page.goto(live.http + address)
            time = page.locator("main time")
            assert time.get_attribute("datetime") == "2026-03-01T22:30:00Z"
            page.wait_for_function("!document.querySelector('main time').textContent.includes('UTC')")
            assert day in time.text_content() and "07:30" in time.text_content(), address
        shot(page, f"history-times-{locale}")
        # the days filtered by are the reader's too: it began on 2 March in Tokyo
        for date, found in [("2026-03-02", True), ("2026-03-01", False)]:
            page.fill("input[name=since]", date)
            page.fill("input[name=until]", date)
            page.click(".filters button")
            page.wait_for_url("**tz=Asia%2FTokyo**")
            assert bool(page.locator(f"main a[href='/matches/{match_id}']").count()) == found, date
        healthy(page)
    without_scripts = new_page(java_script_enabled=False)
    for address in addresses:
        without_scripts.goto(live.http + address)
        assert without_scripts.text_content("main time") == "2026-03-01 22:30 UTC"


def test_one_winner_is_a_winner_a_pair_winners(live, new_page):
    matches = httpx.get(f"{live.http}/api/matches", params={"status": "finished"}).json()["matches"]
    page = new_page()
    for game, word in (("marjolet", "Winner"), ("black_maria", "Winner"), ("big_mariage", "Winners")):
        match = next(m for m in matches if m["game"] == game and len(m["winners"]) == 1)
        page.goto(f"{live.http}/matches/{match['id']}")
        heading = page.text_content("[data-testid=winners]")
        assert heading.startswith(f"{word}: "), (game, heading)  # (it had said "Winners" of one)
        page.wait_for_selector("#replay .seat")  # (the replay's frames are in: the slider's end is the match's)
        page.locator("#rp-slider").evaluate("(s) => { s.value = s.max; s.dispatchEvent(new Event('input')); }")
        assert page.text_content("[data-testid=replay-winners]").startswith(f"{word}: "), game
    healthy(page)


def test_partners_are_joined_in_the_pages_language(live, new_page):
    page = new_page(locale="ru-RU")
    page.goto(f"{live.http}/lang/ru?next=/history%3Fgame%3Dbig_mariage")
    players = page.locator("[data-testid=history-table] tbody tr .m-players").first.inner_text()
    # (the match page says "Anna и Vera": the history had said "Anna & Vera")
    assert " и " in players and "&" not in players, players


def test_a_long_name_with_no_space_widens_no_page_on_a_phone(live, new_page):
    """A name of 32 letters with no space breaks where it must: no page scrolls sideways on a
    phone (a match page had been 589 pixels wide on a 390 one), and a contract's "(name)" in
    the deal table stays in its column."""
    long = fresh_name("W" * 27)  # (32 characters, the most)
    match_id = stored_match(live, "big_mariage-1", [long, "Anna", fresh_name("Z" * 27), "Boris"],
                            datetime.now(timezone.utc))
    page = new_page({"width": 390, "height": 844}, locale="ru-RU", has_touch=True, is_mobile=True)
    for address in (f"/matches/{match_id}", f"/players/{quote(long)}", "/history", "/standings"):
        page.goto(live.http + address)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, address
    page.goto(f"{live.http}/matches/{match_id}")
    spilled = page.evaluate("""() => [...document.querySelectorAll('#deal-table td .details > *')]
      .filter((d) => d.getBoundingClientRect().right > d.closest('td').getBoundingClientRect().right + 1)
      .map((d) => d.textContent)""")
    assert spilled == [], spilled
    shot(page, "long-name-match-phone")
    healthy(page)


def test_each_deal_in_the_table_and_the_link_at_the_top_lead_to_the_replay(live, new_page):
    """On a phone the replay lies under the deals, the chart and the analysis: a link under the
    title goes to it, and each deal's number starts the replay at that deal, in sight: its bar
    at the screen's top and the felt whole under it (the section's heading in sight had cut the
    bottom seat)."""
    match = demo_match(live, "big_mariage")  # (the tallest felt: four open hands)
    assert match["deals"] >= 3
    frames = httpx.get(f"{live.http}/api/matches/{match['id']}/replay").json()["frames"]
    page = new_page({"width": 360, "height": 640}, locale="ru-RU", has_touch=True, is_mobile=True)
    page.goto(f"{live.http}/matches/{match['id']}")
    page.wait_for_selector("#replay .seat")
    page.get_by_test_id("to-replay").click()
    in_sight = """() => { const bar = document.querySelector('.replay-side').getBoundingClientRect();
      const felt = document.querySelector('.replay-felt').getBoundingClientRect();
      return bar.top >= 0 && bar.bottom <= felt.top + 1 && felt.bottom <= innerHeight + 1; }"""
    page.wait_for_function(in_sight)
    page.evaluate("scrollTo(0, 0)")
    button = page.locator("[data-testid=deal-table] tr[data-deal='2'] .deal-link")
    assert button.get_attribute("aria-label") == "Повтор раздачи 3"
    button.click()
    first = next(i for i, f in enumerate(frames) if f["deal"] == 2)
    where = page.get_by_test_id("replay-where")
    # (the step counted within the deal)
    steps = sum(f["deal"] == 2 for f in frames)
    assert where.inner_text() == f"раздача 3/{frames[-1]['deal'] + 1} · шаг 1/{steps}"
    assert page.get_by_test_id("replay-action").inner_text().startswith("Раздача 3, сдаёт")
    assert page.evaluate(in_sight)
    assert page.evaluate("document.activeElement.id") == "rp-slider"
    # and stays so step by step, as the felt grows (the declarer's kitty had pushed the bottom
    # hand under the screen's bottom)
    for step in range(first + 1, first + 16):  # (the bidding, the kitty taken, the first cards)
        page.keyboard.press("ArrowRight")
        assert page.evaluate(in_sight), f"step {step + 1}"
    shot(page, "match-deal-to-replay-phone-ru")
    healthy(page)


def test_a_replayed_pass_names_who_the_cards_went_to(live, new_page):
    """("Boris passes 2♠ 2♥ 9♦" had not said to whom.) The name is the seat the engine gave
    the cards to, as its frames show them received once all have passed."""
    match = demo_match(live, "black_maria")
    frames = httpx.get(f"{live.http}/api/matches/{match['id']}/replay").json()["frames"]
    names = [p["name"] for p in httpx.get(f"{live.http}/api/matches/{match['id']}").json()["players"]]
    passes = [i for i, f in enumerate(frames) if f["action"] and f["action"]["type"] == "pass"][:3]
    received = frames[passes[-1]]["deal_view"]["received"]
    page = new_page()
    page.goto(f"{live.http}/matches/{match['id']}")
    page.wait_for_selector("#replay .seat")
    for step in passes:
        frame = frames[step]
        to = next(seat for seat, cards in enumerate(received) if sorted(cards or []) == sorted(frame["action"]["cards"]))
        page.locator("#rp-slider").evaluate(f"(s) => {{ s.value = {step}; s.dispatchEvent(new Event('input')); }}")
        said = page.get_by_test_id("replay-action").inner_text()
        assert said.startswith(f"{names[frame['seat']]} passes to {names[to]} "), said
    healthy(page)


@pytest.mark.parametrize("locale, worth", [("en-GB", "— {name} +{points}"), ("ru-RU", " +{points}")])
def test_a_replayed_declaration_says_what_it_is_and_its_worth(live, new_page, locale, worth):
    """("Anna declares K♠ Q♠" had not said whether it was the trumps' king and queen, 40, or a
    marriage, 20.) The name and the points are those the deal lists once it is declared."""
    match = demo_match(live, "marjolet")
    frames = httpx.get(f"{live.http}/api/matches/{match['id']}/replay").json()["frames"]
    declared = [i for i, f in enumerate(frames) if f["action"] and f["action"]["type"] == "declare"]
    assert declared, "the demo Marjolet match declares nothing"
    page = new_page(locale=locale)
    page.goto(f"{live.http}/matches/{match['id']}")
    page.wait_for_selector("#replay .seat")
    for step in declared:
        frame = frames[step]
        combination = next(c for c in frame["deal_view"]["scored_combinations"][frame["seat"]]
                           if sorted(c["cards"]) == sorted(frame["action"]["cards"]))
        page.locator("#rp-slider").evaluate(f"(s) => {{ s.value = {step}; s.dispatchEvent(new Event('input')); }}")
        said = page.get_by_test_id("replay-action").inner_text()
        assert worth.format(name=combination["name"], points=combination["points"]) in said, said
    healthy(page)


@pytest.mark.parametrize("game", ["marjolet", "big_mariage"])
def test_a_replay_in_a_laptops_window_shows_its_buttons_and_the_bottom_hand(live, new_page, game):
    """In a 1366 by 768 screen's window the replay's buttons and what the step did stay at the
    top, and the felt under them is seen whole, step by step: the bottom hand had been under the
    window's foot, and scrolling down to it had hidden the buttons."""
    match = demo_match(live, game)
    page = new_page({"width": 1366, "height": 657})
    page.goto(f"{live.http}/matches/{match['id']}")
    page.wait_for_selector("#replay .seat")
    page.get_by_test_id("to-replay").click()
    in_sight = """() => { const bar = document.querySelector('.replay-side').getBoundingClientRect();
      const hand = document.querySelector('.replay-felt .seat-slot[data-pos=bottom] .seat').getBoundingClientRect();
      return [bar.top >= 0 && bar.bottom <= innerHeight / 4, hand.bottom <= innerHeight + 1]; }"""
    for step in range(60):
        assert page.evaluate(in_sight) == [True, True], f"step {step + 1}"
        page.keyboard.press("ArrowRight")
    page.mouse.wheel(0, 300)  # (looked further down: the buttons stay)
    page.wait_for_function("document.querySelector('.replay-side').getBoundingClientRect().top >= 0")
    shot(page, f"replay-laptop-{game}")
    healthy(page)


def test_a_replayed_deal_says_how_it_came_out_and_which_cards_were_the_kitty(live, new_page):
    """At each deal's last step the replay says how the contract went, as the result panel does
    (the score alone had not said that a contract failed); while the declarer gives, the kitty's
    cards are named and marked in its hand (the hand had only grown from seven cards to eleven)."""
    match = demo_match(live, "big_mariage")
    detail = httpx.get(f"{live.http}/api/matches/{match['id']}").json()
    names = [p["name"] for p in detail["players"]]
    frames = httpx.get(f"{live.http}/api/matches/{match['id']}/replay").json()["frames"]
    page = new_page()
    page.goto(f"{live.http}/matches/{match['id']}")
    page.wait_for_selector("#replay .seat")
    go = lambda step: page.locator("#rp-slider").evaluate(  # noqa: E731
        f"(s) => {{ s.value = {step}; s.dispatchEvent(new Event('input')); }}")
    said = page.get_by_test_id("replay-action")
    seen_raised = False
    for deal in detail["deal_list"]:
        last = max(i for i, f in enumerate(frames) if f["deal"] == deal["index"])
        go(last)
        totals = " : ".join(str(n).replace("-", "\u2212") for n in frames[last]["totals"])
        assert f"score {totals}" in said.inner_text()  # (a minus sign, as the sheet writes it)
        summary = deal["summary"]
        if summary["thrown_in"]:
            assert "Everyone passed" in said.inner_text()
            continue
        team = next(t for t in summary["teams"] if t["declaring"])
        outcome = "made" if team["made"] else "failed"
        assert f"Contract {summary['contract']} ({names[summary['declarer']]}) {outcome} with {team['points']} points" \
            in said.inner_text(), said.inner_text()
        # the deals table says a contract raised above the winning bid (the bid had been seen
        # only while the bidding lasted)
        row = page.locator(f"[data-testid=deal-table] tr[data-deal='{deal['index']}']").inner_text()
        raised = summary["contract"] > summary["high_bid"]
        assert (f"after a bid of {summary['high_bid']}" in row) == raised, row
        seen_raised = seen_raised or raised
        go(last - 1)  # (a step before, the deal goes on: nothing said of it)
        assert " made with " not in said.inner_text() and " failed with " not in said.inner_text()
        ends = (last, outcome)
    assert seen_raised  # (else the test shows nothing of it)
    page.set_viewport_size({"width": 360, "height": 640})  # (a phone upright: said short)
    go(ends[0])
    assert f" · contract {ends[1]} · " in said.inner_text() and " points" not in said.inner_text()
    page.set_viewport_size({"width": 1280, "height": 800})
    kitty = next(i for i, f in enumerate(frames) if f["deal_view"]["phase"] == "kitty")
    go(kitty)
    view = frames[kitty]["deal_view"]
    marked = page.locator(".replay-felt .seat-cards.open .card.kitty")
    assert sorted(marked.evaluate_all("(cards) => cards.map((c) => c.dataset.card)")) == sorted(view["kitty"])
    assert all(card in view["hands"][view["declarer"]] for card in view["kitty"])
    assert marked.first.get_attribute("aria-label").endswith(", from the kitty")
    assert page.locator(".replay-felt .info .kitty-cards").inner_text().startswith("The kitty:")
    go(kitty - 1)  # (the bidding: no card marked)
    assert marked.count() == 0
    healthy(page)


def test_the_replays_keys_step_a_move_a_deal_or_to_either_end(live, new_page):
    """← → a move; in the replay's controls PgDn PgUp a deal and Home End the first and the last
    step (there had been no key for a deal); outside them those keys are the page's."""
    match = demo_match(live, "marjolet")
    frames = httpx.get(f"{live.http}/api/matches/{match['id']}/replay").json()["frames"]
    starts = [i for i, f in enumerate(frames) if i == 0 or f["deal"] != frames[i - 1]["deal"]]
    page = new_page()
    page.goto(f"{live.http}/matches/{match['id']}")
    page.wait_for_selector("#replay .seat")
    assert page.get_by_test_id("replay-keys").is_visible()
    page.get_by_test_id("to-replay").click()  # (the focus on the replay's position)
    step = lambda: int(page.locator("#rp-slider").input_value())  # noqa: E731
    page.keyboard.press("PageDown")
    assert step() == starts[1]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("PageUp")
    assert step() == starts[1]  # (the deal's start)
    page.keyboard.press("End")
    assert step() == len(frames) - 1
    page.keyboard.press("Home")
    assert step() == 0
    page.keyboard.press("ArrowRight")  # (the score as it was: shown, not read again at each step)
    said = page.get_by_test_id("replay-action")
    assert "score 0 : 0" in said.inner_text() and "score" not in said.aria_snapshot(), said.aria_snapshot()
    page.keyboard.press("ArrowLeft")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("End")  # (the page's: to its foot, scrolled smoothly)
    page.wait_for_function("scrollY > 0")
    assert step() == 0
    healthy(page)


def test_a_two_player_trick_says_led_beside_the_card_led(live, new_page):
    """Marjolet's two cards overlap: "led" is beside the card led, not above or below the other
    (at the bottom card's left it lay under the top card, and had seemed to be that card's)."""
    match = demo_match(live, "marjolet")
    frames = httpx.get(f"{live.http}/api/matches/{match['id']}/replay").json()["frames"]
    page = new_page()
    page.goto(f"{live.http}/matches/{match['id']}")
    page.wait_for_selector("#replay .seat")
    leaders = set()
    for i, frame in enumerate(frames):
        trick = frame["deal_view"]["trick"]
        if len(trick) != 1 or trick[0][0] in leaders:  # (a trick led, by each seat once)
            continue
        leaders.add(trick[0][0])
        page.locator("#rp-slider").evaluate(f"(s) => {{ s.value = {i + 1}; s.dispatchEvent(new Event('input')); }}")
        over = page.evaluate("""() => {
          const tag = document.querySelector('#replay .trick .led').getBoundingClientRect();
          const other = document.querySelector('#replay .trick .card:not(:has(.led))').getBoundingClientRect();
          return Math.min(tag.right, other.right) - Math.max(tag.left, other.left) > tag.width / 2; }""")
        assert not over, (i + 1, "'led' above or below the other card")
    assert leaders == {0, 1}
    healthy(page)


def test_a_figure_in_the_deals_table_keeps_to_its_words_on_a_phone(live, new_page):
    """At 360 pixels a detail of a deal wraps, its figure with the word before it ("семёрка
    козырей / 10" had left the 10 alone on a line, as if it were another detail)."""
    page = new_page({"width": 360, "height": 640}, locale="ru-RU", has_touch=True, is_mobile=True)
    page.goto(f"{live.http}/matches/{demo_match(live, 'marjolet')['id']}")
    page.wait_for_selector("#deal-table .detail")
    alone = page.evaluate("""() => [...document.querySelectorAll('#deal-table .detail')].flatMap((detail) => {
      const node = [...detail.childNodes].find((n) => n.nodeType === 3 && /\\S[\\s\\u00a0]\\d+$/.test(n.textContent));
      if (!node) return [];
      const text = node.textContent, figure = text.match(/\\d+$/)[0], range = document.createRange();
      const top = (from, to) => { range.setStart(node, from); range.setEnd(node, to); return range.getBoundingClientRect().top; };
      const word = text.length - figure.length - 2;  // (the word's last letter)
      return Math.abs(top(word, word + 1) - top(text.length - figure.length, text.length)) > 2 ? [text] : []; })""")
    assert alone == [], alone
    healthy(page)


def test_a_replay_puts_the_viewers_own_seat_at_its_foot(live, new_page):
    """As at the table, one's own seat is at the bottom of a replay of one's match: the seat this
    browser took at the match's table, else a known player's by name (Vera had found herself at
    the top); someone else sees the first seat there."""
    match = demo_match(live, "big_mariage")
    names = {p["seat"]: p["name"] for p in match["players"]}
    page = new_page()
    page.goto(f"{live.http}/matches/{match['id']}")
    bottom = "#replay .seat-slot[data-pos=bottom] .seat"
    page.wait_for_selector(bottom)
    assert page.get_attribute(bottom, "data-seat") == "0"
    page.evaluate("(room) => localStorage.setItem('cardroom.seat.' + room, JSON.stringify({token: 't', seat: 2}))", match["room"])
    page.reload()
    page.wait_for_selector(bottom)
    assert page.get_attribute(bottom, "data-seat") == "2"
    assert page.get_attribute("#replay .seat-slot[data-pos=top] .seat", "data-seat") == "0"  # (her partner opposite)
    page.evaluate("(room) => localStorage.removeItem('cardroom.seat.' + room)", match["room"])
    page.evaluate("(name) => localStorage.setItem('cardroom.player', JSON.stringify({key: 'k', name}))", names[3])
    page.reload()
    page.wait_for_selector(bottom)
    assert page.get_attribute(bottom, "data-seat") == "3"
    healthy(page)


@pytest.mark.parametrize("lang, said", [("en", "(a bot's move)"), ("ru", "(ход бота)")])
def test_the_replay_says_which_moves_a_bot_made_for_a_person(live, new_page, lang, said):
    """A move the turn timer or a stand-in made for a person is said to be a bot's (it had read
    as theirs, and the analysis had graded it); the others are not."""
    match = demo_match(live, "black_maria")["id"]
    frames = httpx.get(f"{live.http}/api/matches/{match}/replay").json()
    frames["frames"][3]["by_bot"] = True
    page = new_page(locale="ru-RU" if lang == "ru" else "en-GB")
    page.route(f"**/api/matches/{match}/replay", lambda route: route.fulfill(json=frames))
    page.goto(f"{live.http}/lang/{lang}?next=/matches/{match}")
    page.wait_for_selector("#replay .seat")
    line = page.get_by_test_id("replay-action")
    for step in range(1, 5):
        page.locator("#rp-slider").evaluate(f"(s) => {{ s.value = {step}; s.dispatchEvent(new Event('input')); }}")
        assert (said in line.inner_text()) == (step == 3), (step, line.inner_text())
    healthy(page)
