"""The table on phones and laptops together (issue 24): a whole Big Mariage match played by four
browsers, two of them phones (touch, a phone's viewport); and what a look at the screenshots found
wrong: a tapped card left raised, the result panel letting the table show through, the replay's
side hands cut on a phone, "free seat" said twice or as "1 free seat(s)", the top bar of a
Russian phone in three lines, the chat's placeholder cut (see conftest.py for the set-up)."""

from __future__ import annotations

import re
from datetime import datetime, timezone

import httpx
import pytest

from ..conftest import stored_match
from .conftest import LAPTOP, PHONE, TOP_SEAT_IN_SIGHT, demo_match, fresh_name, shot
from .test_cards import text_card
from .test_table_life import (
    _OVERLAPS,
    BIG_LANDSCAPE,
    LANDSCAPE,
    RESULT,
    SIDE_SEATS_CUT,
    SMALL_LANDSCAPE,
    TOASTS_SEEN,
    choose_three,
    felt_overlaps,
    fits,
    play_to_the_end_of_the_deal,
)
from .test_tables import (
    Watch,
    act,
    act_surely,
    create_room,
    give_first,
    healthy,
    make_my_move,
    my_turn,
    offer_bots,
    play_first_legal,
    play_on,
    sheet_matches_the_server,
    sit,
    state,
)

pytestmark = pytest.mark.browser

#: a phone's browser: touch, and the page's viewport (a tap there also moves the mouse, as on a
#: real phone, which leaves :hover on what was touched)
TOUCH = {"has_touch": True, "is_mobile": True}

#: The lines an element's text takes (its rectangles one below another: a larger figure or a
#: card's chip on a line has a rectangle of its own there, a pixel lower or higher).
LINES_OF = """(e) => {
  const text = document.createRange(); text.selectNodeContents(e);
  let lines = 0, bottom = -Infinity;
  for (const r of [...text.getClientRects()].sort((a, b) => a.top - b.top)) {
    if (r.top >= bottom - 2) lines += 1;
    bottom = Math.max(bottom, r.bottom);
  }
  return lines; }"""
#: the hand's cards that stand raised though none is chosen
RAISED = """() => [...document.querySelectorAll('#hand .card:not(.selected)')]
  .filter((c) => getComputedStyle(c).transform !== 'none').map((c) => c.dataset.card)"""
OPAQUE = """() => { const c = getComputedStyle(document.getElementById('result')).backgroundColor;
  const alpha = c.match(/rgba\\([^)]*,\\s*([\\d.]+)\\)/); return !alpha || Number(alpha[1]) === 1; }"""


def phase(page) -> str:
    m = state(page)["match"]
    if m["finished"]:
        return "match over"
    return m["deal"]["phase"]


# -- a whole match -------------------------------------------------------------------------------

def test_a_whole_big_mariage_match_on_two_laptops_and_two_phones(paused, new_page):
    """Anna (laptop, English) bids each deal and declares; Boris and Gleb play on phones
    (Russian, English), Vera on a laptop in Russian. Every phase fits each phone's screen, no card
    stays raised after a tap, each deal's result hides the table under it and is gone on the
    Next deal of all four; at the end every screen shows the winners, the server's totals and
    Rematch."""
    names = ["Anna", "Boris", "Vera", "Gleb"]
    phones = {1, 3}
    locales = ["en-GB", "ru-RU", "ru-RU", "en-GB"]
    code = create_room(paused, "big_mariage", ["open"] * 4, {"target": 150})  # a few deals
    pages = [new_page(PHONE, locale=locales[s], **TOUCH) if s in phones
             else new_page(LAPTOP, locale=locales[s]) for s in range(4)]
    for s, p in enumerate(pages):
        sit(p, paused, code, names[s], s)
    fitted = {s: set() for s in phones}  # the phases each phone was checked in
    deals = 0
    watch = Watch(pages, 420, "a whole Big Mariage match on four browsers")
    while not all(p.locator("[data-testid=match-over]").count() for p in pages):
        watch(f"after {deals} deals")
        moved = False
        for s, p in enumerate(pages):
            now = phase(p)
            if s in phones and now not in fitted[s]:
                assert fits(p) == [], f"{names[s]}'s phone, {now}"
                fitted[s].add(now)
            if now == "match over":
                continue
            if p.locator("[data-testid=next-deal]").count():
                assert p.evaluate(OPAQUE), "the table shows through the deal's result"
                if s == 0:
                    deals += 1
                    shot(p, "whole-match-deal-result-laptop")
                if s == 1:
                    shot(p, "whole-match-deal-result-phone-ru")
                moved = act(p, p.locator("[data-testid=next-deal]")) or moved
            elif p.locator("[data-testid=bid-button]").count() and s == 0:
                # no card is greyed while bidding: none is to be played yet
                assert p.locator(".hand-row .card.unplayable").count() == 0
                moved = act(p, p.locator("[data-testid=bid-button]")) or moved
            elif p.locator("[data-testid=bidbox] [data-testid=pass-button]").count():
                moved = act(p, p.locator("[data-testid=bidbox] [data-testid=pass-button]")) or moved
            elif p.locator("[data-testid^=give-]").count():
                moved = give_first(p) or moved
            elif p.locator("[data-testid=contract-button]").count():
                moved = act(p, p.locator("[data-testid=contract-button]")) or moved
            elif my_turn(p):
                if play_first_legal(p):
                    moved = True
                    if s in phones:
                        p.wait_for_timeout(150)  # the cards' own transition
                        assert p.evaluate(RAISED) == [], f"{names[s]}'s phone: a card stays raised"
        if not moved:
            pages[0].wait_for_timeout(30)

    m = state(pages[0])["match"]
    assert m["finished"] and m["winners"] and max(m["totals"]) >= 150
    for s, p in enumerate(pages):
        p.wait_for_selector(RESULT)
        assert p.evaluate(OPAQUE), "the table shows through the match's result"
        assert state(p)["match"]["totals"] == m["totals"]
        for i, total in enumerate(m["totals"]):  # "match total 230", "в партии 230"
            shown = p.text_content(f"[data-testid=result-total-{i}]")
            assert re.search(r"\u2212?\d+", shown).group() == str(total).replace("-", "\u2212"), shown
        assert p.locator("[data-testid=rematch]").count() == 1
        # a pair won: "Winners", "Победители"; a rounding is said only where it changes the points
        assert re.search(r"Winners: |Победители: ", p.text_content("[data-testid=match-over]"))
        for before, after in re.findall(r"(-?\d+)\s→\s(-?\d+)", p.text_content("#result")):
            assert before != after, f"{before} → {after}"
        sheet_matches_the_server(p)
        if s in phones:
            assert fits(p) == [], f"{names[s]}'s phone, the match's result"
    assert "★" in pages[0].text_content(f"[data-testid=result-side-{m['winners'][0]}]")
    # after the pair's last name, on its line (it had stood at the right of the first name's)
    star, last = pages[0].evaluate("""(side) => { const h = document.querySelector(`[data-testid=result-side-${side}] h3`);
      const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.bottom]; };
      const names = h.querySelector('.colname'), range = document.createRange();
      range.selectNodeContents(names.lastElementChild);
      const rects = [...range.getClientRects()], line = rects[rects.length - 1];
      return [box(h.querySelector('.star')), [line.left, line.right, line.bottom]]; }""", m["winners"][0])
    assert abs(star[2] - last[2]) < 3 and 0 <= star[0] - last[1] < 24, (star, last)
    # a deal's result before the match's, unless the first deal ended the match (a marriage
    # of 100 and the cards can make 150)
    seen = {"bidding", "play"} | ({"over"} if deals else set())
    for s in phones:
        assert seen <= fitted[s], fitted[s]
    shot(pages[0], "whole-match-over-laptop")
    shot(pages[1], "whole-match-over-phone-ru")
    healthy(*pages)


# -- a tapped card -------------------------------------------------------------------------------

def test_a_tapped_card_goes_down_when_let_go_or_played(live, new_page):
    """On a phone a card is raised while it is chosen, and only then: tapped again (let go), or
    played, nothing stays up under the finger; a hint shown while choosing goes with the pass."""
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
    page.locator(".hand-row .card.playable:not(.selected)").first.click()  # a fourth: a hint
    page.wait_for_selector("#toast.info:not([hidden])")
    act_surely(page, page.locator("[data-testid=pass-button]"))
    assert page.locator("#toast").is_hidden(), "the hint outlives the pass, over one's own seat"
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

def test_the_bots_offered_for_three_free_seats_fit_a_phone_above_its_bar(live, new_page):
    """Big Mariage before friends come: three seats free, each its line and three short bots in
    a row (nine buttons that each named the seat had gone on under the bottom bar)."""
    code = create_room(live, "big_mariage", ["open"] * 4)
    page = new_page(PHONE, locale="ru-RU", **TOUCH)
    sit(page, live, code, "Ира", 0)
    offer_bots(page)
    page.wait_for_selector("[data-testid=standin-box-3]")
    assert page.text_content("[data-testid=standin-1-rules]") == "По правилам"
    assert page.get_attribute("[data-testid=standin-box-1]", "aria-label") == "Место 2 (соперник слева) свободно. Его может занять бот:"
    below = page.evaluate("""() => { const bar = document.querySelector('.tools').getBoundingClientRect().top;
      return [...document.querySelectorAll('[data-testid^=standin-box-] button')].filter((b) => b.getBoundingClientRect().bottom > bar)
        .map((b) => b.dataset.testid); }""")
    assert below == []
    healthy(page)


@pytest.mark.parametrize("locale, words", [
    ("en-GB", {"seat": "Seat 2", "badge": "free", "one": "Waiting for players: 1 seat is free.",
               "two": "2 free seats", "one_free": "1 free seat", "share": " Share the invite link.",
               "visitor": "Waiting for players: 2 seats are free."}),
    ("ru-RU", {"seat": "Место 2", "badge": "свободно", "one": "Ждём игроков: свободно 1 место.",
               "two": "2 свободных места", "one_free": "1 свободное место", "share": " Поделитесь ссылкой-приглашением.",
               "visitor": "Ждём игроков: свободно 2 места."}),
])
def test_a_free_seat_is_said_once_with_the_plural_of_its_language(live, new_page, locale, words):
    one = create_room(live, "black_maria", ["open", "open", "bot:rules"])
    two = create_room(live, "big_mariage", ["open", "open", "bot:rules", "bot:rules"])
    page = new_page(PHONE, locale=locale)
    # a visitor still choosing a seat is not asked to share the link (only those seated are)
    page.goto(f"{live.http}/r/{one}")
    page.wait_for_selector("[data-testid=status]")
    assert page.text_content("[data-testid=status]") == words["visitor"]
    sit(page, live, one, "Anna", 0)
    seat = page.locator("[data-testid=seat-1]")
    assert seat.locator(".name").text_content() == words["seat"]
    assert seat.locator(".badge.open").text_content() == words["badge"]
    assert page.text_content("[data-testid=status]") == words["one"] + words["share"]
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


@pytest.mark.parametrize("game", ["marjolet", "black_maria", "big_mariage"])
def test_a_replayed_trick_on_a_small_phone_hides_no_index_and_its_winner_no_seat(live, new_page, game):
    """Each card of a trick shows its top-left corner; who wins it is said below the cards,
    over no seat; a marriage's points stay inside their seat; a seat's counts and bids are whole on
    one line ("взяток: 0" had been "взяток:" above "0"); the felt's foot never rises on the page
    from one step to the next (the page jumped under the thumb). (It may get shorter as the bar
    over it takes a row more for what the step did, its foot staying where it was.)"""
    matches = httpx.get(f"{live.http}/api/matches?game={game}&status=finished").json()["matches"]
    page = new_page({"width": 360, "height": 640}, locale="ru-RU", **TOUCH)
    page.goto(f"{live.http}/matches/{matches[0]['id']}")
    page.wait_for_selector("#replay .seat")
    tricks_seen, feet = 0, []
    for _ in range(60):
        page.click("[data-testid=replay-next]")
        feet.append(page.evaluate("Math.round(document.querySelector('#replay .felt').getBoundingClientRect().bottom + scrollY)"))
        broken = page.evaluate("""() => [...document.querySelectorAll('#replay .seat .extras > *')]
          .filter((note) => { const text = document.createRange();
            text.selectNodeContents(note.classList.contains('marriages') ? note.firstChild : note);  // (its label; its chips may wrap)
            const lines = [...text.getClientRects()], seat = note.closest('.seat').getBoundingClientRect();
            return new Set(lines.map((r) => Math.round(r.top))).size > 1 || lines.some((r) => r.right > seat.right - 2); })
          .map((note) => note.textContent)""")
        assert broken == [], (page.text_content("[data-testid=replay-where]"), broken)
        if not page.locator("#replay .trick .card").count():
            continue
        page.locator("#replay .trick").scroll_into_view_if_needed()
        step = page.locator("[data-testid=replay-next]").bounding_box()  # in sight with the trick
        assert 0 <= step["y"] and step["y"] + step["height"] <= 640, step
        wrong = page.evaluate("""() => {
          const box = (e) => e.getBoundingClientRect(), meet = (a, b) =>
            a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
          const wrong = [];
          for (const card of document.querySelectorAll('#replay .trick .card')) {
            const r = box(card), on = document.elementFromPoint(r.left + 6, r.top + 6);
            if (!on || on.closest('.card') !== card) wrong.push('index of ' + card.dataset.card + ' covered');
          }
          // (two players: the mark on the card led lies on no other; on the upper card's face it
          // had read as that one's)
          for (const led of document.querySelectorAll('#replay .trick.seats2 .led'))
            for (const card of document.querySelectorAll('#replay .trick .card'))
              if (card !== led.closest('.card') && meet(box(led), box(card))) wrong.push('"led" over ' + card.dataset.card);
          const caption = document.querySelector('#replay [data-testid=trick-winner]');
          for (const seat of caption ? document.querySelectorAll('#replay .seat') : [])
            if (meet(box(caption), box(seat))) wrong.push('the winner over a seat');
          for (const chip of document.querySelectorAll('#replay .note.marriages .cardtext'))
            if (box(chip).right > box(chip.closest('.seat')).right + 0.5) wrong.push('a marriage cut');
          return wrong; }""")
        assert wrong == [], (page.text_content("[data-testid=replay-where]"), wrong)
        tricks_seen += page.locator("#replay [data-testid=trick-winner]").count()
    assert tricks_seen >= 3
    assert feet == sorted(feet), feet
    shot(page, f"replay-trick-phone-{game}")
    healthy(page)


def rules_bots_match(live, seed: int) -> int:
    """A Big Mariage match the rules bots play from ``seed`` (contracts made and lost, marriages
    shown, the kitty taken), stored; its id."""
    import random
    import secrets
    from datetime import datetime, timezone

    from app.ops.seeds import store_match
    from engine import new_match
    from engine.bots import bot_for

    rng, bot, match = random.Random(seed), bot_for("big_mariage", "rules"), new_match("big_mariage", {"target": 500})
    while not match.finished:
        match.start_deal(rng=rng)
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, bot(match.view(seat), match.moves(seat), rng))
    with live.app.state.store.sessions() as session, session.begin():
        return store_match(session, f"R{secrets.token_hex(3)}", match, ["Anna", "Boris", "Vera", "Gleb"],
                           datetime.now(timezone.utc))


@pytest.mark.parametrize("game", ["marjolet", "black_maria", "big_mariage", "rules-4", "rules-15"])
def test_a_replay_on_a_small_phone_upright_shows_its_buttons_its_step_and_its_whole_felt(live, new_page, game):
    """Stepping through a whole match at 360×640, the buttons and what the step did stay at the
    screen's top, and the felt under them is seen whole: no seat under the buttons (the bar had
    covered the top seat whenever the bottom hand was looked at, and what the step did had
    scrolled away). Also Big Mariage matches the rules bots play: a declarer showing two
    marriages, or holding the kitty's eleven cards, had put the top seat under the bar (seed 4),
    and so had two marriages said whole at the top seat (seed 15)."""
    page = new_page({"width": 360, "height": 640}, locale="ru-RU", **TOUCH)
    match = rules_bots_match(live, int(game[6:])) if game.startswith("rules") else demo_match(live, game)["id"]
    page.goto(f"{live.http}/matches/{match}")
    page.wait_for_selector("#replay .seat")
    wrong = page.evaluate("""() => {
      const box = (e) => e.getBoundingClientRect(), wrong = [];
      const felt = document.querySelector('#replay .felt'), side = document.querySelector('.replay-side');
      const steps = Number(document.getElementById('rp-slider').max);
      for (let step = 1; step <= steps && wrong.length < 5; step++) {
        document.getElementById('rp-next').click();
        felt.scrollIntoView({ block: 'end' });
        const where = document.getElementById('rp-where').textContent + ': ', top = box(side).bottom;
        for (const id of ['rp-prev', 'rp-next', 'rp-where', 'rp-action'])
          if (box(document.getElementById(id)).bottom > top + 0.5) wrong.push(where + id + ' not in the bar');
        if (box(side).top < -0.5) wrong.push(where + 'the bar off the screen');
        for (const seat of felt.querySelectorAll('.seat'))
          if (box(seat).top < top - 0.5 || box(seat).bottom > innerHeight + 0.5) wrong.push(where + 'a seat hidden: ' + seat.textContent.slice(0, 20));
      }
      return wrong; }""")
    assert wrong == []
    shot(page, f"replay-upright-{game}-360")
    healthy(page)


def test_a_replay_on_a_tall_phone_keeps_its_felt_still_as_the_steps_said_wrap(live, new_page):
    """At 390×844 the bar keeps two lines for what the step did: the felt under it had moved
    down and up by a line whenever "Anna leads and calls trumps: Q♣ · score 105 : −400" wrapped."""
    page = new_page(PHONE, locale="ru-RU", **TOUCH)
    page.goto(f"{live.http}/matches/{demo_match(live, 'big_mariage')['id']}")
    page.wait_for_selector("#replay .seat")
    tops, lines = page.evaluate("""() => { const next = document.getElementById('rp-next'), tops = new Set(), lines = new Set();
      for (let k = 0; k < Number(document.getElementById('rp-slider').max); k++) {
        next.click();
        tops.add(Math.round(document.querySelector('#replay .felt').getBoundingClientRect().top));
        lines.add((""" + LINES_OF + """)(document.getElementById('rp-action')));
      }
      return [[...tops], [...lines]]; }""")
    assert sorted(lines) == [1, 2]  # (some steps said in one line, some in two)
    assert len(tops) == 1, tops


#: Every step of a replay on a phone held sideways, taken and measured in one go: what lies over
#: what on the felt, and, where the whole felt must be on the screen, what is off it or covers it.
SIDEWAYS_REPLAY = """(whole) => {
  const box = (e) => e.getBoundingClientRect(), wrong = [];
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const screen = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  const felt = document.querySelector('#replay .felt'), steps = Number(document.getElementById('rp-slider').max);
  for (let step = 1; step <= steps && wrong.length < 5; step++) {
    document.getElementById('rp-next').click();
    const where = document.getElementById('rp-where').textContent + ': ';
    for (const id of ['rp-prev', 'rp-next', 'rp-action']) {
      const r = box(document.getElementById(id));
      if (!inside(r, screen) || meet(r, box(felt))) wrong.push(where + id + ' not in sight beside the felt');
    }
    if (whole && !inside(box(felt), screen)) wrong.push(where + 'the felt off the screen');
    const seats = [...felt.querySelectorAll('.seat')];
    const centre = [...felt.querySelectorAll('.centre .info > *, .trick .card, .trick-caption')].filter((e) => box(e).width);
    seats.forEach((seat, i) => {
      if (!inside(box(seat), box(felt))) wrong.push(where + 'a seat out of the felt');
      for (const other of seats.slice(i + 1).concat(centre))
        if (meet(box(seat), box(other))) wrong.push(where + 'a seat over ' + (other.className || other.textContent));
    });
  }
  return wrong; }"""


@pytest.mark.parametrize("game, size, locale", [
    ("marjolet", LANDSCAPE, "en-GB"), ("black_maria", LANDSCAPE, "ru-RU"), ("big_mariage", LANDSCAPE, "ru-RU"),
    ("big_mariage", SMALL_LANDSCAPE, "en-GB"), ("black_maria", SMALL_LANDSCAPE, "en-GB"),
    ("big_mariage-1", LANDSCAPE, "ru-RU")],
    ids=["marjolet-844", "black_maria-844", "big_mariage-844", "big_mariage-640", "black_maria-640", "long-names-844"])
def test_a_replay_on_a_phone_held_sideways_keeps_its_buttons_beside_its_felt(live, new_page, game, size, locale):
    """The felt the screen's height, and beside it the step buttons and what the step did, so that
    stepping through a match needs no scrolling; on a small phone seventeen open hands a seat may
    make the felt taller than the screen, never one part over another. Names of 32 letters with
    no space too: "takes the trick" and such a name had run four lines down over the bottom seat."""
    if game == "big_mariage-1":
        names = [fresh_name("W" * 27), "Anna", fresh_name("Z" * 27), "Boris"]
        match = stored_match(live, game, names, datetime.now(timezone.utc))
    else:
        match = httpx.get(f"{live.http}/api/matches?game={game}&status=finished").json()["matches"][0]["id"]
    page = new_page(size, locale=locale, **TOUCH)
    page.goto(f"{live.http}/matches/{match}")
    page.wait_for_selector("#replay .seat")
    page.evaluate("document.getElementById('replay').scrollIntoView()")
    whole = size == LANDSCAPE
    assert page.evaluate(SIDEWAYS_REPLAY, whole) == []
    shot(page, f"replay-sideways-{game}-{size['width']}")
    healthy(page)


def test_a_replay_turned_sideways_and_back_lays_its_seats_out_for_each(live, new_page):
    """Turned, the felt fits the new screen at once (not at the next step); the top and bottom
    seats put their names beside their cards sideways and over them upright, where the cards a
    Marjolet seat showed keep their label, and lie there only (they had been shown twice, in
    its open hand too)."""
    matches = httpx.get(f"{live.http}/api/matches?game=marjolet&status=finished").json()["matches"]
    page = new_page(PHONE, locale="ru-RU", **TOUCH)
    page.goto(f"{live.http}/matches/{matches[0]['id']}")
    page.wait_for_selector("#replay .seat")
    assert page.evaluate("""() => { const next = document.getElementById('rp-next');
      for (let k = 0; k < 300 && !document.querySelector('#replay .declared'); k++) next.click();
      return !!document.querySelector('#replay .declared'); }""")
    twice = page.evaluate("""() => [...document.querySelectorAll('#replay .seat')].flatMap((seat) => {
      const open = new Set([...seat.querySelectorAll('.seat-cards.open .card')].map((c) => c.dataset.card));
      return [...seat.querySelectorAll('.declared .card')].map((c) => c.dataset.card).filter((c) => open.has(c)); })""")
    assert twice == []
    label = page.locator("#replay .declared .label").first
    assert label.bounding_box()["width"] > 10 and page.locator("#replay .beside").count() == 0
    page.set_viewport_size(LANDSCAPE)
    page.wait_for_function("document.querySelectorAll('#replay .beside').length === 2")  # (at the resize event)
    page.evaluate("document.getElementById('replay').scrollIntoView()")
    felt = page.locator("#replay .felt").bounding_box()
    assert 0 <= felt["y"] and felt["y"] + felt["height"] <= LANDSCAPE["height"], felt
    page.set_viewport_size(PHONE)
    page.wait_for_function("!document.querySelector('#replay .beside')")
    assert label.bounding_box()["width"] > 10
    healthy(page)


#: Marjolet's felt at its fullest, laid out and measured in one step (no redraw between): the top
#: seat showing six declared cards (three marriages, say), and the note that it
#: exchanged the dix. What lies over what (see _OVERLAPS), and whether the top seat's name is cut.
FULLEST_MARJOLET = f"""() => {{
  const top = document.querySelector('.seat-slot[data-pos=top] .seat');
  let shown = top.querySelector('.declared');
  if (!shown) {{
    shown = document.createElement('div'); shown.className = 'declared';
    const label = document.createElement('span'); label.className = 'label'; label.textContent = 'открыты';
    shown.append(label); top.append(shown);
  }}
  shown.querySelectorAll('.card').forEach((card) => card.remove());
  for (const card of [...document.querySelectorAll('.hand-row .card')].slice(0, 6)) shown.append(card.cloneNode(true));
  if (!document.querySelector('#info .note')) {{  // (unless the dix was exchanged in this deal)
    const note = document.createElement('p'); note.className = 'note';
    note.textContent = 'Семёрка козырей обменяна (' + top.querySelector('.name').textContent + ')';
    document.getElementById('info').append(note);
  }}
  const name = top.querySelector('.name');
  return ({_OVERLAPS})().concat(name.scrollWidth > name.clientWidth ? ['the top name cut'] : []); }}"""


def side_seats_whole(page, game, word=None):
    """The side seats say all they say, their counts each on one line."""
    said = page.evaluate(SIDE_SEATS_CUT, word)
    assert said == {"seats": 0 if game == "marjolet" else 2, "cut": [], "broken": []}


#: The box of Black Maria's cards chosen to pass given the widest three, as the page writes them.
THREE_TENS = """async () => { const { cardsText } = await import('/static/js/common.js');
  document.querySelector('.pass-chosen').replaceChildren(...[].concat(cardsText(['TH', 'TD', 'TC']))); }"""


#: On a phone held sideways, how far the hand's foot is above the felt's: the hand lies at the
#: foot of its column, where the thumb is, whatever the moves above it take (or below it, as
#: far as the bar of tools, where the column is full: Black Maria's eighteen cards at 640).
HAND_ABOVE_FOOT = """() => document.querySelector('.felt').getBoundingClientRect().bottom
  - document.getElementById('hand').getBoundingClientRect().bottom"""


@pytest.mark.parametrize("game, viewport", [
    ("marjolet", LANDSCAPE), ("marjolet", SMALL_LANDSCAPE), ("black_maria", SMALL_LANDSCAPE),
    ("black_maria", LANDSCAPE), ("marjolet", BIG_LANDSCAPE), ("black_maria", BIG_LANDSCAPE)],
    ids=["marjolet-844", "marjolet-640", "black_maria-640", "black_maria-844", "marjolet-932", "black_maria-932"])
def test_a_phone_held_sideways_lays_the_trick_beside_the_trumps_and_over_no_seat(
        live, new_page, game, viewport):
    """The trick and its caption over no seat, the side seats saying all they say, the hand at
    the foot of its column in every phase; Black Maria's three cards chosen to pass lengthen
    nothing (the moves had grown a line and the page scrolled)."""
    seats = ["open", "bot:rules"] + (["bot:rules"] if game == "black_maria" else [])
    page = new_page(viewport, locale="ru-RU", **TOUCH)
    sit(page, live, create_room(live, game, seats), "Анна", 0)
    tricks = 0
    watch = Watch([page], 60, f"{game} sideways")
    while tricks < 3:
        watch()
        if page.locator("[data-testid=pass-button]").count():
            side_seats_whole(page, game, "карты отданы ✓")
            moves = page.locator("#actions").bounding_box()["height"]
            page.evaluate(THREE_TENS)  # (whichever three are chosen: the widest)
            assert page.locator("#actions").bounding_box()["height"] == moves, "the moves grew for three tens"
            choose_three(page)
            assert page.locator("#actions").bounding_box()["height"] == moves, "the moves grew"
            assert fits(page) == [] and page.evaluate(HAND_ABOVE_FOOT) <= 8, (fits(page), page.evaluate(HAND_ABOVE_FOOT))
            act(page, page.locator("[data-testid=pass-button]"))
        elif page.locator("[data-testid=draw]").count():
            act(page, page.locator("[data-testid=draw]"))
        elif my_turn(page):
            assert page.evaluate(HAND_ABOVE_FOOT) <= 8 and fits(page) == [], (page.evaluate(HAND_ABOVE_FOOT), fits(page))
            if page.locator("#trick .card").count():  # the others' cards, and who led
                tricks += 1
                shot(page, f"sideways-{game}-{viewport['width']}")
                assert felt_overlaps(page) == [], page.text_content("#trick")
                side_seats_whole(page, game)
                if game == "marjolet" and tricks == 3:  # (the table redraws it as it was next)
                    assert page.evaluate(FULLEST_MARJOLET) == []
            elif page.locator("#toggle-last:not([disabled])").count():  # a whole trick, its winner
                page.click("#toggle-last")
                caption = page.locator("#trick.done [data-testid=trick-winner]")
                caption.wait_for()
                assert felt_overlaps(page) == [], page.text_content("#trick")
                assert caption.evaluate("(c) => c.scrollWidth <= c.clientWidth"), (viewport, caption.evaluate("(c) => [c.scrollWidth, c.clientWidth, c.innerText]"))  # (not cut)
                page.click("#toggle-last")
            play_first_legal(page)
        else:
            page.wait_for_timeout(50)
    healthy(page)


# -- the lobby's choices ------------------------------------------------------------------------

@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_every_choice_of_the_lobby_shows_whole_in_its_closed_box_on_a_small_phone(live, new_page, locale):
    page = new_page({"width": 360, "height": 640}, locale=locale, **TOUCH)
    page.goto(live.http + "/")
    page.wait_for_selector("#seat-fields select")
    # the settings folded under a line saying what they are: "Create the table" within a screen
    # and a third (it had been two screens down), a setting changed said on that line
    now = page.get_by_test_id("settings-now")
    assert now.text_content() == {
        "en-GB": "Target 500 · jack and queen: marjolet · turn timer: off (no time limit)",
        "ru-RU": "Играть до 500 · валет и дама: маржоле · время на ход: без ограничения"}[locale]
    assert page.locator("#create-button").bounding_box()["y"] < 640 * 4 / 3 and page.is_hidden("#option-fields")
    page.click("[data-testid=create-settings] summary")
    page.fill("#opt-target", "300")
    # said as it is typed (it had waited for the field to lose the focus)
    assert now.text_content().startswith({"en-GB": "Target 300 · ", "ru-RU": "Играть до 300 · "}[locale])
    page.select_option("[data-testid=turn-timer-select]", "60")
    page.click("[data-testid=create-settings] summary")
    assert now.text_content().startswith({"en-GB": "Target 300 · ", "ru-RU": "Играть до 300 · "}[locale])
    assert now.text_content().endswith({"en-GB": " · turn timer: 60 seconds", "ru-RU": " · время на ход: 60 секунд"}[locale])
    page.click("[data-testid=create-settings] summary")  # (open: their boxes measured below)
    for game in ("marjolet", "black_maria", "big_mariage"):
        page.check(f"input[name=game][value={game}]")
        cut = page.evaluate("""() => { const ctx = document.createElement('canvas').getContext('2d');
          return [...document.querySelectorAll('main select')].filter((s) => s.offsetParent).flatMap((s) => {
            const style = getComputedStyle(s); ctx.font = style.font;
            const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
            return [...s.options].filter((o) => ctx.measureText(o.text).width > room).map((o) => o.text); }); }""")
        assert cut == [], f"{game}: cut in their closed box: {cut}"
        unexplained = page.evaluate("""() => [...document.querySelectorAll('#option-fields :is(select, input)')]
          .filter((e) => !document.getElementById(e.getAttribute('aria-describedby'))?.textContent.trim()).map((e) => e.id)""")
        assert unexplained == [], f"{game}: a choice whose meaning is not tied to it: {unexplained}"
    shot(page, f"lobby-phone-{locale}")


# -- the history on a phone ----------------------------------------------------------------------

@pytest.mark.parametrize("locale, deals", [("en-GB", r"\d+ deals?"), ("ru-RU", r"\d+ раздач[аи]?")])
def test_the_history_of_a_phone_is_a_card_a_match_with_nothing_to_scroll_sideways(
        live, new_page, locale, deals):
    page = new_page({"width": 360, "height": 640}, locale=locale, **TOUCH)
    page.goto(live.http + "/history")
    rows = page.locator("[data-testid=history-table] tbody tr")
    assert rows.count() >= 9  # the demo matches
    assert page.evaluate("""() => { const box = document.querySelector('.scroll');
      return box.scrollWidth <= box.clientWidth && document.documentElement.scrollWidth <= innerWidth; }""")
    for row in rows.all()[:9]:
        assert re.fullmatch(deals, row.locator(".m-deals").inner_text().strip()), row.inner_text()
        box = row.locator(".m-open a").bounding_box()
        assert box["x"] + box["width"] <= 360 and box["height"] >= 24, box
    header = page.locator("[data-testid=history-table] thead")
    assert header.bounding_box()["width"] <= 1  # kept for screen readers only
    shot(page, f"history-phone-{locale}")
    rows.first.locator(".m-open a").click()
    page.wait_for_selector("[data-testid=deal-table]")
    healthy(page)


# -- the top bar and the chat box ---------------------------------------------------------------

def menu_whole(page, where: str) -> None:
    """The identity menu opened is whole on the screen, its links to one's page and matches in
    sight."""
    page.click("[data-testid=me-name]")
    menu = page.locator(".me-panel").bounding_box()
    assert menu["x"] >= 0 and menu["x"] + menu["width"] <= page.viewport_size["width"], (where, menu)
    for link in page.locator(".me-panel a").all():
        box = link.bounding_box()
        assert link.is_visible() and box["x"] + box["width"] <= page.viewport_size["width"], (where, link.inner_text())
    page.click("[data-testid=me-name]")


def brand_whole(page, where: str) -> None:
    """The brand is no cut word ("Карт…" beside a long name): its spade alone, its name still
    the link's for a screen reader."""
    cut = page.evaluate("(b => b.scrollWidth > b.clientWidth)(document.querySelector('.topbar .brand'))")
    assert not cut, f"{where}: the brand is cut"
    assert page.get_by_role("link", name="♠ Карточный клуб").count() == 1, where


def test_the_top_bar_of_a_phone_is_two_lines_in_russian_with_the_identity_menu(live, new_page):
    """Brand, identity menu and language on the first line, the site's links on the second."""
    page = new_page(PHONE, locale="ru-RU")
    page.goto(live.http + "/")
    page.wait_for_selector("#seat-fields select")
    page.fill("#create-name", fresh_name("Анастасия Александровна"))  # claimed: the menu shows
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    code = page.text_content("#created-code")
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
        assert boxes["lobby"]["bottom"] - boxes["lobby"]["top"] >= 24, (path, boxes)  # a thumb's target
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        brand_whole(page, path)
        menu_whole(page, path)
    shot(page, "topbar-phone-ru")
    page.goto(f"{live.http}/r/{code}")  # and at a table, whose bar hides the site's links
    page.wait_for_selector("[data-testid=me-name]")
    brand_whole(page, "the table")
    menu_whole(page, "the table")
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


@pytest.mark.parametrize("panel", ["chat-tab", "sheet-tab"])
def test_the_menu_opens_over_an_open_chat_or_score_sheet_on_a_phone(live, new_page, panel):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page({"width": 360, "height": 640}, locale="ru-RU", **TOUCH)
    sit(page, live, code, "Анна", 0)
    page.click(f"[data-testid={panel}]")
    page.click("[data-testid=menu-button]")
    page.wait_for_selector("[data-testid=table-menu]:not([hidden])")
    on_top = page.evaluate("""() => [...document.querySelectorAll('#table-menu label, #table-menu a, #table-menu button')]
      .filter((e) => e.offsetParent).map((e) => { const r = e.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return [e.textContent.trim(), Boolean(at && at.closest('#table-menu'))]; })""")
    assert on_top and all(seen for _, seen in on_top), on_top
    healthy(page)


def test_a_phones_chat_and_menu_by_keyboard_take_and_give_back_the_focus(live, new_page):
    """A phone with a keyboard (a tablet's, a screen reader's): the chat opened from its tab
    takes the focus into its line, and Esc there closes it (a line typed had gone nowhere, and
    Esc had closed it only from outside its line); Esc on ⚙ closes its menu. A tap on the tab
    opens the chat without the line's focus (a phone's keyboard would cover it)."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page({"width": 390, "height": 844})
    sit(page, live, code, "Anna", 0)
    active = lambda: page.evaluate("document.activeElement.id")
    page.focus("#toggle-chat")
    page.keyboard.press("Enter")
    assert page.evaluate("document.getElementById('table-app').dataset.panel") == "chat"
    assert active() == "chat-input"
    page.keyboard.type("hello")
    page.keyboard.press("Enter")
    page.wait_for_selector("#chat-lines >> text=hello")
    page.keyboard.press("Escape")
    assert page.evaluate("document.getElementById('table-app').dataset.panel") == ""
    assert active() == "toggle-chat"
    page.click("#toggle-chat")
    assert page.evaluate("document.getElementById('table-app').dataset.panel") == "chat"
    assert active() != "chat-input"
    page.click("#toggle-chat")
    page.focus("#menu-button")
    page.keyboard.press("Enter")
    assert page.locator("#table-menu").is_visible()
    page.keyboard.press("Escape")
    assert page.locator("#table-menu").is_hidden() and active() == "menu-button"
    healthy(page)


def test_the_table_bar_of_a_russian_phone_keeps_the_seconds_left_in_sight(live, new_page):
    """The table's name and the connection on one line, the turn timer on the next: a long name
    is cut short before the seconds left, which stay whole, by whole letters with no blank
    before the colon (CSS's ellipsis had left a letter's width: "Анастасия Алекс… :"), and read
    whole by a screen reader."""
    r = httpx.post(live.http + "/api/rooms", json={
        "game": "big_mariage", "seats": ["open", "bot:rules", "bot:rules", "bot:rules"],
        "turn_timer": 60})
    assert r.status_code == 201, r.text
    page = new_page({"width": 360, "height": 780}, locale="ru-RU", **TOUCH)
    sit(page, live, r.json()["code"], "Анастасия Александровна Вронская", 0)
    page.wait_for_selector("[data-testid=turn-timer]:has-text('ещё')")
    bar = page.evaluate("""() => { const box = (sel) => document.querySelector(sel).getBoundingClientRect();
      const chip = document.querySelector('[data-testid=turn-timer]');
      return {title: box('.tablebar .title'), conn: box('[data-testid=conn]'), timer: box('[data-testid=turn-timer]'),
              cut: chip.scrollWidth > chip.clientWidth + 1, text: chip.textContent,
              blank: box('[data-testid=turn-timer] .who').right - box('.who [aria-hidden]').right,
              shown: chip.querySelector('.who [aria-hidden]').textContent,
              read: chip.querySelector('.who .sr-only').textContent}; }""")
    assert abs(bar["title"]["top"] - bar["conn"]["top"]) < 8, bar  # one line
    assert bar["timer"]["top"] >= bar["title"]["bottom"] - 1, bar
    assert bar["timer"]["right"] <= 360 and bar["conn"]["right"] <= 360 and not bar["cut"], bar
    assert re.search(r": ещё \d+ с$", bar["text"]), bar
    assert bar["shown"].endswith("…") and "Анастасия Александровна Вронская".startswith(bar["shown"][:-1]), bar
    assert bar["read"] == "Анастасия Александровна Вронская" and abs(bar["blank"]) < 1, bar
    shot(page, "table-bar-timer-phone-ru")
    healthy(page)


@pytest.mark.parametrize("viewport", [PHONE, {"width": 360, "height": 640}], ids=["390", "360"])
def test_a_phone_keeps_the_rooms_code_in_sight_while_it_reconnects(live, new_page, viewport):
    """Friends read the room's code out to each other: on a phone in Russian, whose
    "переподключение…" is the longest the connection chip says, the game's name is cut short
    and the code stays whole, on the chip's line (at 360 pixels the chip had gone to a line of
    its own, the bar a line taller over the partner's seat)."""
    code = create_room(live, "big_mariage", ["open", "bot:rules", "bot:rules", "bot:rules"])
    page = new_page(viewport, locale="ru-RU", **TOUCH)
    sit(page, live, code, "Маша", 0)
    page.context.set_offline(True)
    page.wait_for_selector("#conn[data-status=reconnecting]")
    bar = page.evaluate("""() => { const box = (sel) => document.querySelector(sel).getBoundingClientRect();
      return {code: box('.tablebar .code'), title: box('.tablebar .title'), conn: box('#conn')}; }""")
    assert abs(bar["title"]["top"] - bar["conn"]["top"]) < 8, bar  # one line
    assert bar["code"]["right"] <= bar["title"]["right"] + 1, bar
    assert page.text_content(".tablebar .code") == code
    shot(page, "table-bar-reconnecting-phone-ru")
    page.context.set_offline(False)
    page.wait_for_selector("#conn[data-status=online]")
    page.errors[:] = [e for e in page.errors if "ERR_INTERNET_DISCONNECTED" not in e]
    healthy(page)


def test_a_phone_offline_a_while_says_its_table_may_be_old_and_takes_no_move(live, new_page):
    """Across town a phone loses the network: after a blip's while its table says that what it
    shows may be old, and its moves and hand are greyed and out of reach (it had shown the last
    picture as live and its buttons as working, a bid tapped then lost); back online, the table
    is live again and "no connection", said to a tap meanwhile, goes at once (it had stayed 3 s
    beside the green "на связи")."""
    code = create_room(live, "big_mariage", ["open", "bot:rules", "bot:rules", "bot:rules"])
    page = new_page(PHONE, locale="ru-RU", **TOUCH)
    # (the toast kept: it goes only because the table is back)
    page.context.add_init_script("window.CARDROOM_STALE_MS = 3000; window.CARDROOM_TOAST_MS = 30000;")
    sit(page, live, code, "Маша", 0)
    page.wait_for_selector("[data-testid=bid-button]")
    status = page.get_by_test_id("status")
    page.context.set_offline(True)
    page.wait_for_selector("#conn[data-status=reconnecting]")
    page.click("[data-testid=bid-button]")  # (a blip: the page still takes the tap, and says why it went nowhere)
    toast = page.locator("#toast", has_text="Нет связи: переподключаемся")
    toast.wait_for()
    out_of_reach = """() => [...document.querySelectorAll('#actions > :not(.status), #hand > *')].every((e) => e.inert)"""
    page.wait_for_function(out_of_reach)
    assert status.inner_text() == "Нет связи: переподключаемся… За столом могли уже сходить."
    assert page.evaluate("""() => [...document.querySelectorAll('#actions > :not(.status), #hand')]
      .every((e) => Number(getComputedStyle(e).opacity) < 1)""")  # (greyed)
    shot(page, "table-offline-phone-ru")
    page.context.set_offline(False)
    page.wait_for_selector("#conn[data-status=online]")
    toast.wait_for(state="hidden", timeout=1000)
    assert status.inner_text() == "Ваш ход"
    assert not page.evaluate("[...document.querySelectorAll('#actions *, #hand *')].some((e) => e.inert)")
    # (the focus, on the button tapped, had fallen to the page's body when it went out of reach:
    # it is back on it)
    assert page.evaluate("document.activeElement.dataset.testid") == "bid-button"
    page.errors[:] = [e for e in page.errors if "ERR_INTERNET_DISCONNECTED" not in e]
    healthy(page)


HAND_AND_BAR = """() => ({hand: document.getElementById('hand').getBoundingClientRect().bottom,
  bar: document.querySelector('.tools').getBoundingClientRect().top,
  actions: document.getElementById('actions').getBoundingClientRect().height})"""


def test_what_grows_above_the_hand_does_not_push_it_under_the_bottom_bar(live, new_page):
    """A phone's page taller than its screen (too short for the table to fit: a phone's split
    screen), the hand just above the bottom bar: the cards chosen to pass, beside the button,
    take a line more on the narrowest phone, and the hand stays where it was, in sight."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page({"width": 320, "height": 400}, **TOUCH)
    sit(page, live, code, "Маша", 0)
    page.wait_for_selector("[data-testid=pass-button]")
    at = page.evaluate(HAND_AND_BAR)
    page.evaluate("(by) => document.querySelector('main').scrollBy(0, by)", at["hand"] - at["bar"] + 2)
    before = page.evaluate(HAND_AND_BAR)
    assert abs(before["bar"] - 2 - before["hand"]) < 2, before  # (the page is taller than the screen)
    for n in range(3):  # taps where they land, with no scrolling of the test's own
        page.locator(".hand-row .card.playable:not(.selected)").first.dispatch_event("click")
        page.wait_for_function("(n) => document.querySelectorAll('.hand-row .card.selected').length === n",
                               arg=n + 1)
    after = page.evaluate(HAND_AND_BAR)
    assert after["actions"] > before["actions"], (before, after)  # the line above grew
    assert after["hand"] <= after["bar"] + 1 and abs(after["hand"] - before["hand"]) < 2, (before, after)
    healthy(page)


#: the table's bar (its name and code, the connection) whole on the screen, under the site's bar
BAR_IN_SIGHT = """() => { const bar = document.querySelector('.tablebar').getBoundingClientRect();
  return bar.top >= document.querySelector('.topbar').getBoundingClientRect().bottom - 1; }"""
@pytest.mark.parametrize("game, seats", [("marjolet", ["open", "bot:rules"]),
                                         ("big_mariage", ["open"] + ["bot:rules"] * 3)])
def test_a_small_phone_keeps_the_hand_and_the_moves_on_its_screen(paused, new_page, game, seats):
    """On a small phone (360 by 640) the table is the screen: the felt takes what the moves and
    the hand leave it, and in every state of a deal the hand and the moves are on the screen,
    above the bottom bar (they had been under it); where the moves take many lines
    (Marjolet's "declare, exchange, draw", Big Mariage's bidding) the felt's top may scroll out
    of sight instead; in the play, with a trick and short moves, the top seat stays in sight.
    At the deal's end the result panel is whole on the screen."""
    code = create_room(paused, game, seats)
    page = new_page({"width": 360, "height": 640}, locale="ru-RU", **TOUCH)
    # each closed trick held a moment, as for people: a declarer who leads every trick had
    # otherwise left a trick on the table only between two samples of a busy machine
    page.context.add_init_script("window.CARDROOM_ANIM_MS = 400;")
    sit(page, paused, code, "Маша", 0)
    page.wait_for_selector(".hand-row .card")
    watch = Watch([page], 90, f"a deal of {game} on a small phone")
    seen = set()
    while not page.locator("[data-testid=next-deal]").count():
        watch()
        shown = (phase(page), bool(page.locator("#trick .card").count()),
                 page.locator("#actions").evaluate("a => Math.round(a.offsetHeight / 40)"))
        if shown not in seen:  # each new arrangement of the screen
            bad = [b for b in fits(page) if b != "the page scrolls down"]
            if page.locator("#result:not([hidden])").count():
                # (the result came between two reads: brought into sight, it is what counts)
                bad = [b for b in bad if b.startswith("#result")]
            assert bad == [], shown
            assert page.evaluate(BAR_IN_SIGHT), f"the table's bar is out of sight: {shown}"
            assert page.evaluate(TOP_SEAT_IN_SIGHT), f"the top seat under the bar: {shown}"
            seen.add(shown)
        if not play_on(page):  # (bidding: all passing, there would be no play)
            page.wait_for_timeout(30)
    # at the deal's end the result panel is what counts (its "next deal" with it): whole on the
    # screen; the hand, empty now, and the moves ("next deal…") may be below it when it is tall
    assert [bad for bad in fits(page) if bad.startswith("#result")] == [], "the deal's result"
    assert page.locator("#actions .combo").count() == 0, "the combinations scored said twice"
    # each side's match total on one line ("всего в партии / 130" had made the result taller)
    lines = page.evaluate(f"() => [...document.querySelectorAll('#result .total')].map({LINES_OF})")
    assert lines and set(lines) == {1}, lines
    page.wait_for_timeout(300)  # (the result drawn and brought into sight)
    assert page.evaluate("""() => document.getElementById('result').getBoundingClientRect().top >=
        document.querySelector('.tablebar').getBoundingClientRect().bottom"""), \
        "the result's heading under the table's bar"
    assert any(trick for _, trick, _ in seen), seen  # (a trick on the table was among them)
    # the side seats' empty hands are counted nowhere ("×0" had stood under their names)
    counts = page.evaluate("""() => [...document.querySelectorAll('.seat-slot:is([data-pos=left], [data-pos=right]) .seat-cards')]
      .map((e) => getComputedStyle(e, '::after').content)""")
    assert all("×" not in c for c in counts), counts
    shot(page, f"small-phone-{game}-result")
    healthy(page)


#: every seat's name below the table's bar, on the screen
SEATS_IN_SIGHT = """() => { const bar = document.querySelector('.tablebar').getBoundingClientRect().bottom;
  return [...document.querySelectorAll('.seat .nameplate')].filter((n) => n.getBoundingClientRect().top < bar - 1)
    .map((n) => n.textContent); }"""


def test_a_small_phone_says_who_is_away_and_who_plays_for_them_by_the_seats_badges(live, new_page):
    """360 by 640: someone away, then a bot playing for them, is shown by their seat's badges
    and read, not written under "Your turn" (two lines of it had put the partner's seat under
    the table's bar for as long as the stand-in played)."""
    code = create_room(live, "big_mariage", ["open", "open", "bot:rules", "bot:rules"])
    page, boris = new_page({"width": 360, "height": 640}, locale="ru-RU", **TOUCH), new_page()
    sit(page, live, code, "Анна", 0)
    sit(boris, live, code, "Борис", 1)
    boris.goto("about:blank")
    page.wait_for_selector("[data-testid=presence-1].off")
    page.evaluate("window.cardroomTable.send({ type: 'standin', seat: 1, bot: 'rules' })")
    page.wait_for_selector("[data-testid=standin-note-1]", state="attached")
    watch = Watch([page], 90, "Anna's turn with a trick on the table, a bot playing for Boris")
    while not (my_turn(page) and page.locator("#trick .card").count() and phase(page) == "play"):
        watch()
        if not play_on(page):
            page.wait_for_timeout(30)
    note = page.locator("[data-testid=standin-note-1]")
    assert "Борис" in note.text_content() and note.bounding_box()["height"] <= 1  # (read)
    assert page.locator("[data-testid=standin-badge-1]").is_visible()
    assert page.evaluate("() => Math.round(document.getElementById('actions').offsetHeight / 40)") <= 2
    assert page.evaluate(TOP_SEAT_IN_SIGHT), "the partner's seat under the table's bar"
    healthy(page)


@pytest.mark.parametrize("game, seats, said", [
    ("black_maria", ["open", "bot:rules", "bot:rules"], "Д♠ — 13"),
    ("big_mariage", ["open"] + ["bot:rules"] * 3, "очки карт (всего 120)")])
def test_a_small_phone_folds_the_first_deals_word_on_the_game_behind_a_question_mark(
        paused, new_page, game, seats, said):
    """At 360 by 640 the first deal's word on the game (Black Maria's penalties as the cards are
    passed, what a Big Mariage bid is) is behind a "?" beside "Your turn": its three lines, with
    a long name, had put the seats at the top of the felt under the table's bar. Unfolded, it
    stays so as the table is drawn again; folded, every seat is in sight."""
    code = create_room(paused, game, seats)
    page = new_page({"width": 360, "height": 640}, locale="ru-RU", **TOUCH)
    sit(page, paused, code, "Александра Константиновна", 0)
    toggle = page.locator("[data-testid=aim-toggle]")
    toggle.wait_for()
    assert page.locator("[data-testid=aim]").is_hidden()
    assert page.evaluate(SEATS_IN_SIGHT) == []
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.get_by_role("button", name="Подсказка").count() == 1
    toggle.click()
    assert said in page.locator("[data-testid=aim]").inner_text()
    if game == "black_maria":  # a card chosen to pass: the moves drawn again
        page.locator(".hand-row .card").first.click()
        page.wait_for_selector("[data-testid=pass-button]:has-text('1/3')")
        assert page.locator("[data-testid=aim]").is_visible()
    assert page.locator("[data-testid=aim-toggle]").get_attribute("aria-expanded") == "true"
    page.click("[data-testid=aim-toggle]")
    assert page.locator("[data-testid=aim]").is_hidden()
    shot(page, f"small-phone-aim-{game}")
    page.set_viewport_size(PHONE)  # a taller phone: the word said as before, no "?"
    assert page.locator("[data-testid=aim]").is_visible() and toggle.is_hidden()
    healthy(page)


def test_a_small_phone_says_the_cards_passed_and_received_short_together(paused, new_page):
    """Black Maria at 360 by 640, the first trick: the cards one passed and those received
    said together, "→ Bot 3:" and "← Bot 2:" (four lines of "You passed to…" and "You
    received from…" had put the top of the felt under the table's bar); the words are what a
    screen reader hears."""
    code = create_room(paused, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page({"width": 360, "height": 640}, locale="en-GB", **TOUCH)
    sit(page, paused, code, "Anna", 0)
    page.wait_for_selector("[data-testid=pass-button]")
    choose_three(page)
    act(page, page.locator("[data-testid=pass-button]"))
    page.wait_for_selector("[data-testid=received] .cardtext")
    exchange = page.locator(".exchange")
    seen = exchange.evaluate("""(e) => [...e.querySelectorAll('.short, .long')].map((w) =>
      [w.className, w.textContent, w.getBoundingClientRect().width > 1, w.getAttribute('aria-hidden')])""")
    assert [(c, re.sub(r"\d", "N", text), shown, hidden) for c, text, shown, hidden in seen] == [
        ("long", "You passed to Bot N:", False, None), ("short", "→ Bot N:", True, "true"),
        ("long", "You received from Bot N:", False, None), ("short", "← Bot N:", True, "true")], seen
    assert exchange.bounding_box()["height"] < 70  # (two lines at most)
    assert page.evaluate(SEATS_IN_SIGHT) == []
    healthy(page)


@pytest.mark.parametrize("locale, call, plain", [("en-GB", "Call trumps", "No call"),
                                                  ("ru-RU", "Объявить козыри", "Без объявления")])
def test_a_small_phone_offers_to_call_trumps_in_two_short_buttons_side_by_side(
        paused, new_page, locale, call, plain):
    """At 360 by 640 the buttons to lead and call trumps or not are said short and side by side:
    said whole, one over the other and the first in two lines, they had put the partner's seat
    and the contract under the table's bar as the call was to be made. (Staged at her lead: a
    card to call with chosen, whatever her hand.)"""
    code = create_room(paused, "big_mariage", ["open"] + ["bot:rules"] * 3)
    page = new_page({"width": 360, "height": 640}, locale=locale, **TOUCH)
    sit(page, paused, code, "Маша", 0)
    watch = Watch([page], 120, "her lead after a trick")
    while True:  # (she passes: a bot declares; a deal all passed is thrown in)
        watch()
        m = state(page)["match"]
        deal, moves = m["deal"], m.get("moves") or {}
        if deal["phase"] == "play" and moves.get("play") and not deal["trick"] and deal.get("last_trick"):
            break
        if deal["phase"] == "over":
            act(page, page.locator("[data-testid=next-deal]"))
        elif deal["phase"] == "bidding" and "pass" in moves:
            act(page, page.locator("[data-testid=pass-button]"))
        elif moves.get("play"):
            play_first_legal(page)
        else:
            page.wait_for_timeout(30)
    card = page.evaluate("""async () => { const m = window.cardroomTable.state.match;
      window.keptTrump = m.moves.trump; m.moves.trump = [m.moves.play[0]];
      const { table } = await import('/static/js/table/state.js'); table.chosen.call = m.moves.play[0];
      for (let i = 0; i < 2; i++) document.getElementById('toggle-last').click();
      return m.moves.play[0]; }""")
    buttons = [page.locator("[data-testid=call-trumps]"), page.locator("[data-testid=lead-plain]")]
    boxes = [b.bounding_box() for b in buttons]
    assert abs(boxes[0]["y"] - boxes[1]["y"]) < 1 and boxes[1]["x"] + boxes[1]["width"] <= 360, boxes
    face = text_card(card, locale[:2])[0]
    assert [b.inner_text().split() for b in buttons] == [call.split() + [face], plain.split() + [face]]
    # (its name begins with what it says)
    assert page.get_by_role("button", name=re.compile("^" + call)).count() == 1
    shot(page, f"small-phone-call-trumps-{locale}")
    page.evaluate("""() => { const m = window.cardroomTable.state.match;
      if (window.keptTrump === undefined) delete m.moves.trump; else m.moves.trump = window.keptTrump;
      for (let i = 0; i < 2; i++) document.getElementById('toggle-last').click(); }""")
    healthy(page)


@pytest.mark.parametrize("locale, said", [("ru-RU", "Семёрка козырей: +10 сдающему"),
                                          ("en-GB", "Dix: +10 to the dealer")])
def test_a_marjolet_dix_turned_up_is_said_beside_the_stock_on_a_small_phone(live, new_page, locale, said):
    """On a small phone the dix turned up is said short, beside the stock, and the centre is no
    taller for it: a line of its own (two, in Russian) had pushed the top seat under the table's
    bar (a deal in eight, when the turn-up is the 7)."""
    code = create_room(live, "marjolet", ["open", "open"])
    page = new_page({"width": 360, "height": 640}, locale=locale, **TOUCH)
    sit(page, live, code, "Маша", 0)  # (nobody else sits: nothing redraws the centre meanwhile)
    shown = page.evaluate("""async () => {
      const { renderInfo } = await import('/static/js/render.js');
      const box = document.getElementById('info');
      const draw = (dix, exchangedBy = null) => { renderInfo(box, { game: "marjolet", names: ["Маша", "Boris"], deal: { trump: "S",
        turn_up: "7S", exchanged_by: exchangedBy, dix, dealer: 1, stock_count: 19, end_phase: false, phase: "play" } });
        return box.getBoundingClientRect().height; };
      const besideTheStock = (testid) => {
        const note = box.querySelector(`[data-testid=${testid}]`).getBoundingClientRect(),
              stock = box.querySelector('[data-testid=stock]').getBoundingClientRect();
        return note.left >= stock.right && note.top >= stock.top - 1 && note.bottom <= stock.bottom + 1 &&
          note.right <= box.getBoundingClientRect().right + 1; };
      const without = draw([]), withDix = draw([{ seat: 1, how: "turn-up", points: 10 }]);
      const turned = { said: box.querySelector('[data-testid=dix-turned]').innerText, beside: besideTheStock('dix-turned') };
      // the dix exchanged for the turn-up, said short beside it too (its line had put the top
      // seat under the bar at 360 by 640: Marjolet's small-phone test, a run in eight)
      const exchanged = draw([], 1);
      return { without, withDix, turned, exchanged, exchangedBeside: besideTheStock('dix-exchanged') }; }""")
    assert abs(shown["withDix"] - shown["without"]) < 1 and abs(shown["exchanged"] - shown["without"]) < 1, shown
    assert shown["turned"]["beside"] and shown["exchangedBeside"], shown
    assert shown["turned"]["said"] == said, shown
    healthy(page)


def test_a_side_seats_bid_is_said_on_one_line_on_a_small_phone(live, new_page):
    """("заявка: 7" had left its "0" to the next line at 360 px.) The widest bid, in Russian
    (the longer word), drawn in both side seats of the real table, each on one line inside its
    seat, on the narrowest phones too."""
    code = create_room(live, "big_mariage", ["open", "open", "open", "open"])
    page = new_page({"width": 360, "height": 640}, locale="ru-RU", **TOUCH)
    sit(page, live, code, "Дима", 0)  # (nobody else sits: nothing redraws the seats meanwhile)
    for width in (360, 320):
        page.set_viewport_size({"width": width, "height": 640})
        shown = page.evaluate(DRAW_BIDS)
        assert shown == [{"said": "заявка:\u00a0400", "lines": 1, "inside": True}] * 2, (width, shown)
    healthy(page)


#: Both side seats drawn bidding 400, and how each says it.
DRAW_BIDS = """async () => {
      const { renderSeats } = await import('/static/js/render.js');
      const deal = { phase: "bidding", bids: [[1, 400], [2, "pass"], [3, 400]], declarer: null, marriages: [], dealer: 1,
                     tricks_won: [0, 0, 0, 0], hand_counts: [7, 7, 7, 7], hands: [[], null, null, null] };
      renderSeats(document.getElementById('felt'), { game: "big_mariage", nSeats: 4, teams: [[0, 2], [1, 3]], me: 0,
        names: ["Дима", "Anastasia Aleksandrovna Vronskaya", "Оля", "Tom"], seatInfo: [], deal, toAct: [0] });
      return [1, 3].map((s) => { const bid = document.querySelector(`[data-seat="${s}"] .bid`);
        const seat = bid.closest('.seat').getBoundingClientRect(), r = bid.getBoundingClientRect();
        const range = document.createRange(); range.selectNodeContents(bid);
        const lines = new Set([...range.getClientRects()].map((line) => Math.round(line.top))).size;
        return { said: bid.textContent, lines, inside: r.left >= seat.left - 1 && r.right <= seat.right + 1 }; }); }"""


@pytest.mark.parametrize("size, listed", [({"width": 360, "height": 640}, False), (PHONE, True)], ids=["640", "844"])
def test_marjolet_combinations_scored_are_listed_under_the_moves_where_the_screen_has_room(live, new_page, size, listed):
    """At 360×640 the list (a line a declaration, for the rest of the deal) had kept the top seat
    under the table's bar: there the seats' points and shown cards say it."""
    code = create_room(live, "marjolet", ["open", "open"])
    page = new_page(size, locale="ru-RU", **TOUCH)
    sit(page, live, code, "Маша", 0)  # (nobody else sits: nothing redraws the moves meanwhile)
    shown = page.evaluate("""async () => {
      const { drawControls } = await import('/static/js/table/panels/marjolet.js');
      const { el } = await import('/static/js/common.js');
      const box = document.querySelector('.actions');
      box.replaceChildren();
      const combo = (cards, points) => ({ cards, points });
      drawControls({ state: { match: { deals: [{}, {}] } }, names: ["Маша", "Bob"], moves: {}, act: () => {},
        deal: { phase: "play", end_phase: false, trick: [], scored_combinations: [[combo(["KS", "QS"], 20)], [combo(["KH", "QH"], 20), combo(["QH", "JC"], 20)]] },
        line: (...content) => box.append(el("div", { class: "action-line" }, ...content)) });
      return [...box.querySelectorAll('.combo')].map((c) => c.getClientRects().length > 0); }""")
    assert shown == [listed] * 3
    healthy(page)


def test_a_tap_on_a_seat_badge_says_what_it_means_on_a_touch_screen(live, new_page):
    """A touch screen shows no title on hover: a tap on "D" (the dealer), a team's letter or
    "bot" says what it means and whose it is; with a mouse, the title does that and a click
    says nothing."""
    code = create_room(live, "big_mariage", ["open"] + ["bot:rules"] * 3)
    phone = new_page(PHONE, locale="ru-RU", **TOUCH)
    phone.context.add_init_script(TOASTS_SEEN + "window.CARDROOM_TOAST_MS = 1000;")
    sit(phone, live, code, "Анна", 0)
    phone.wait_for_selector(".seat .badge.dealer")
    dealer = phone.locator(".seat:has(.badge.dealer)")
    name = dealer.locator(".name").text_content()
    dealer.locator(".badge.dealer").tap()
    phone.wait_for_function("window.toastsSeen.length === 1")
    assert phone.evaluate("window.toastsSeen[0]") == ["toast info", f"{name}: сдающий"]
    shot(phone, "badge-tapped-phone")
    phone.wait_for_selector("#toast", state="hidden")
    phone.locator(".seat[data-seat='1'] .badge.team").tap()
    phone.wait_for_function("window.toastsSeen.length === 2")
    assert phone.evaluate("window.toastsSeen[1]") == ["toast info", "Бот 2: пара Б"]
    phone.wait_for_selector("#toast", state="hidden")  # (a toast in sight is a refusal to act())
    # (and a name in the centre's lines, which a phone may cut short, keeps on its line what
    # touches it: "(Анна)", "Анна,")
    act(phone, phone.locator("[data-testid=bid-button]"))
    phone.wait_for_selector("#info .named")
    # (read at once: the bots' bids redraw the lines)
    named = phone.evaluate("[...document.querySelectorAll('#info .named')].map((n) => [n.textContent, n.getBoundingClientRect().height])")
    assert named and all(re.fullmatch(r"\(?(Анна|Бот \d)[),.:]?", text) for text, _ in named), named
    assert all(height < 24 for _, height in named), named
    laptop = new_page(LAPTOP)
    laptop.goto(f"{live.http}/r/{code}")
    laptop.locator(".seat[data-seat='1'] .badge.team").click()
    laptop.wait_for_timeout(300)
    assert laptop.locator("#toast:not([hidden])").count() == 0
    assert laptop.get_attribute(".seat[data-seat='1'] .badge.team", "title") == "team B"
    healthy(phone, laptop)


def test_the_last_trick_asked_for_over_the_sheet_is_shown_on_the_felt(live, new_page):
    """On a phone the score sheet covers the table: "Last trick" closes it, or nothing would
    seem to happen."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page(PHONE, **TOUCH)
    sit(page, live, code, "Anna", 0)
    page.wait_for_selector("[data-testid=pass-button]")
    choose_three(page)
    act_surely(page, page.locator("[data-testid=pass-button]"))
    watch = Watch([page], 60, "a trick done")
    while page.locator("#toggle-last[disabled]").count():
        watch()
        if not (my_turn(page) and play_first_legal(page)):
            page.wait_for_timeout(30)
    page.click("#toggle-sheet")
    assert page.locator("#sheet").is_visible()
    page.click("#toggle-last")
    assert not page.locator("#sheet").is_visible()
    assert page.locator("#trick .card").count() == 3 and page.locator("#trick .card").first.is_visible()
    healthy(page)


def test_a_replayed_marriage_is_said_whole_in_a_side_seat_of_the_smallest_phone(live, new_page):
    """320 pixels wide: "marriages:" in a Big Mariage side seat on one line ("marriag / es:")."""
    matches = httpx.get(f"{live.http}/api/matches?game=big_mariage&status=finished").json()["matches"]
    page = new_page({"width": 320, "height": 640}, locale="en-GB", **TOUCH)
    page.goto(f"{live.http}/matches/{matches[0]['id']}")
    page.wait_for_selector("#replay .seat")
    side = "#replay .seat-slot:is([data-pos=left], [data-pos=right]) .marriages"
    for _ in range(120):
        if page.locator(side).count():
            break
        page.click("[data-testid=replay-next]")
    lines = page.evaluate(f"""() => [...document.querySelectorAll('{side}')].map((note) => {{
      const label = document.createRange(); label.selectNodeContents(note.firstChild);
      return new Set([...label.getClientRects()].map((r) => Math.round(r.top))).size; }})""")
    assert lines and set(lines) == {1}, lines
    healthy(page)


WORDS_ON_TWO_LINES = """(names) => names.flatMap((name) => {
  // each word of a name as the page lays it out: a word on two lines was broken in two
  const text = name.textContent, range = document.createRange(), broken = [];
  for (const m of text.matchAll(/\\S+/g)) {
    const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
    let at = 0, start = null, end = null;
    while (walker.nextNode()) {
      const node = walker.currentNode, len = node.length;
      if (start === null && m.index < at + len) start = [node, m.index - at];
      if (m.index + m[0].length <= at + len) { end = [node, m.index + m[0].length - at]; break; }
      at += len;
    }
    range.setStart(...start); range.setEnd(...end);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    if (tops.size > 1) broken.push(m[0]);
  }
  return broken; })"""


def test_three_friends_gone_their_long_names_stay_whole_words_on_a_small_phone(live, new_page):
    """Three of four gone, the fourth's phone (360×640) hands their seats to bots (each offered
    as three bots in one row), and one line says so for all three (one each had taken six lines, and pushed the seats off the screen), and a
    long name in a side seat keeps its words whole, a word too wide cut short ("Констант…"):
    they had broken in the middle ("Александ / ра")."""
    names = ["Anna", "Александра Константинова", "Maximilian-Alexander", "Екатерина Вячеславовна"]
    code = create_room(live, "big_mariage", ["open"] * 4)
    others = [new_page() for _ in range(3)]
    for seat, page in enumerate(others, start=1):
        sit(page, live, code, names[seat], seat)
    anna = new_page({"width": 360, "height": 640}, locale="ru-RU", has_touch=True, is_mobile=True)
    sit(anna, live, code, names[0], 0)
    for page in others:
        page.goto("about:blank")
    for seat in (1, 2, 3):  # (her own bid passed first when it is asked: the offers wait for it)
        anna.wait_for_function(f"""() => document.querySelector('[data-testid=standin-{seat}-rules]')
            || document.querySelector('[data-testid=pass-button]')""")
        make_my_move(anna)
        # the three bots in one row under the line that names the seat (a line each, naming
        # them again, had pushed the table off the screen)
        rows = anna.locator(f"[data-testid=standin-box-{seat}] button").evaluate_all(
            "bs => new Set(bs.map((b) => Math.round(b.getBoundingClientRect().top))).size")
        assert rows == 1, f"the bots for seat {seat + 1} in {rows} rows"
        act_surely(anna, anna.locator(f"[data-testid=standin-{seat}-rules]"))
    note = anna.locator("[data-testid=standin-note-1-2-3]")
    note.wait_for()
    assert note.text_content() == ("За игроков Александра Константинова, Maximilian-Alexander и "
                                   "Екатерина Вячеславовна играют боты, пока те не вернутся.")
    assert anna.locator(".standin-note").count() == 1
    side_names = anna.locator(".seat-slot:is([data-pos=left], [data-pos=right]) .nameplate .name")
    assert side_names.count() == 2
    assert side_names.evaluate_all(WORDS_ON_TWO_LINES) == []
    assert sorted(side_names.evaluate_all("(all) => all.map((n) => n.textContent)")) == sorted(names[1::2])
    # their "bot for now" badges whole on one line ("играет бот" had broken in two, or been cut)
    badges = anna.locator(".seat-slot:is([data-pos=left], [data-pos=right]) .badge.standin").evaluate_all(
        """(all) => all.map((b) => [b.textContent, b.getClientRects().length === 1
             && b.getBoundingClientRect().height < 20 && b.scrollWidth <= b.clientWidth
             && b.getBoundingClientRect().right <= b.closest('.seat').getBoundingClientRect().right])""")
    assert badges == [["играет бот", True]] * 2, badges
    shot(anna, "standins-long-names-small-phone")
    # someone watching is told, in one line, that the seats may be taken once the deal ends
    gran = new_page({"width": 360, "height": 640}, locale="ru-RU", has_touch=True, is_mobile=True)
    gran.goto(f"{live.http}/r/{code}")
    later = gran.locator("[data-testid=take-later-1-2-3]")
    later.wait_for()
    assert later.text_content() == ("На местах 2, 3 и 4 пока играют боты вместо тех, кого нет: "
                                    "одно из них можно занять, когда раздача закончится.")
    assert gran.locator("#seat-choices > *").count() == 1
    healthy(anna, gran)


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_a_seats_marriages_at_the_table_are_their_suits_and_points_on_a_small_phone(live, new_page, locale):
    """360 pixels wide, at the table: a side seat's marriage as "♥ 100" under "marriages:" on one
    line (the colon had gone to a line of its own, and "K♥Q♥ / 100" taken two more); one's own
    seat, declarer with two marriages, says them and its tricks on one line under its name (two
    more lines had put the partner's seat under the bar)."""
    code = create_room(live, "big_mariage", ["open"] * 4)
    page = new_page({"width": 360, "height": 640}, locale=locale, **TOUCH)
    page.goto(f"{live.http}/r/{code}")
    page.wait_for_selector(".seat")
    # (the felt drawn for a deal in play whose seats declared marriages, as the table draws it)
    notes = page.evaluate("""async () => {
      const { renderSeats } = await import('/static/js/render.js');
      const deal = { phase: "play", dealer: 0, declarer: 0, bids: [], tricks_won: [0, 2, 1, 0],
        marriages: [{ seat: 1, suit: "H", points: 100 }, { seat: 3, suit: "C", points: 60 },
                    { seat: 0, suit: "D", points: 80 }, { seat: 0, suit: "S", points: 40 }],
        hands: null, hand_sizes: [8, 6, 7, 8] };
      renderSeats(document.getElementById('felt'), { game: "big_mariage", nSeats: 4, teams: [[0, 2], [1, 3]],
        me: 0, names: ["Anna", "Boris", "Vera", "Gleb"], seatInfo: [], deal, toAct: [1], replay: false });
      const lines = (node) => new Set([...node.getClientRects()].map((r) => Math.round(r.top))).size;
      const seen = (note) => [...note.querySelectorAll('.cardtext')].map((c) => [...c.children].filter((s) => s.offsetParent).map((s) => s.textContent).join(''));
      const sides = [...document.querySelectorAll('.seat-slot:is([data-pos=left], [data-pos=right]) .marriages')].map((note) => {
        const label = document.createRange(); label.selectNodeContents(note.firstChild);
        return { label: lines(label), seen: seen(note), chips: [...note.querySelectorAll('.cardtext')].map(lines) }; });
      const own = document.querySelector('.seat-slot[data-pos=bottom] .extras');
      const tops = new Set([...own.children].map((c) => Math.round(c.getBoundingClientRect().top)));
      return { sides, own: { seen: seen(own.querySelector('.marriages')), lines: tops.size } }; }""")
    assert notes["sides"] == [{"label": 1, "seen": ["♥\u00a0100"], "chips": [1]},
                              {"label": 1, "seen": ["♣\u00a060"], "chips": [1]}], notes
    assert notes["own"] == {"seen": ["♦\u00a080", "♠\u00a040"], "lines": 1}, notes
    healthy(page)


def test_big_mariage_marks_the_declarers_marriages_as_it_gives_and_the_card_given_through_the_first_trick(live, new_page):
    """The declarer's kings and queens of a marriage are marked ♛ while it gives (a king given
    away had broken a marriage, unmarked), with the kitty's star too where a card has both; the
    card given one keeps its star through the first trick, which a small phone says by it alone
    (its line left out for room)."""
    code = create_room(live, "big_mariage", ["open"] * 4)
    page = new_page({"width": 360, "height": 640}, **TOUCH)
    page.goto(f"{live.http}/r/{code}")
    page.wait_for_selector(".seat")
    drawn = page.evaluate("""async () => {
      const { table } = await import('/static/js/table/state.js');
      const { drawHand } = await import('/static/js/table/hand.js');
      const { cardMarks } = await import('/static/js/table/panels/big_mariage.js');
      const hand = ["KH", "QH", "AH", "KC", "QC", "9C", "AS", "TS", "7D", "8S", "9D"];
      const draw = (seat, deal, moves) => {
        table.state = { ...table.state, you: { ...table.state.you, seat }, match: { ...table.state.match, deal } };
        drawHand({ moves, cardMarks, act: () => {}, redraw: () => {} });
        return Object.fromEntries([...document.querySelectorAll('#hand .card')].map((c) => [c.dataset.card,
          [c.className.split(' ').filter((n) => ['kitty', 'received', 'marriage'].includes(n)).sort().join(' '),
           c.getAttribute('aria-label'), getComputedStyle(c, '::before').content]]));
      };
      const giving = draw(0, { phase: "kitty", declarer: 0, kitty: ["KC", "9C", "7D", "8S"], gives: [], tricks_won: [0, 0, 0, 0],
        hands: [hand, null, null, null], marriages_held: [{ suit: "H", points: 100 }, { suit: "C", points: 60 }] },
        { give: { cards: hand, to: [1, 2, 3] } });
      const received = ["7C", "AD", "KD", "QS", "JS", "9S", "8D", "7H"];
      const deal = (tricks) => ({ phase: "play", declarer: 0, kitty: null, gives: [{ to: 1, card: null }, { to: 2, card: "7C" }, { to: 3, card: null }],
        tricks_won: tricks, hands: [null, null, received, null], trick: [] });
      return { giving, first: draw(2, deal([0, 0, 0, 0]), {}), later: draw(2, deal([1, 0, 0, 0]), {}) }; }""")
    giving = drawn["giving"]
    assert giving["KH"][:2] == ["marriage", "king of hearts, of a marriage (100)"], giving["KH"]
    assert giving["KH"][2] == '"♛"' and giving["QC"][0] == "marriage"
    assert giving["KC"][0] == "kitty marriage" and giving["KC"][1].endswith("from the kitty, of a marriage (60)"), giving["KC"]
    assert giving["9C"][0] == "kitty" and giving["AH"][0] == "" and giving["AH"][2] == "none"
    shot(page, "bm-marriages-marked-while-giving-360")
    assert drawn["first"]["7C"][0] == "received" and drawn["first"]["7C"][1].endswith("received")
    assert drawn["later"]["7C"][0] == ""
    healthy(page)


@pytest.mark.parametrize("game, seats", [("big_mariage", 4), ("black_maria", 3)])
def test_the_led_mark_lies_on_no_other_card_of_the_trick(live, new_page, game, seats):
    """Whichever seat led, its "led" mark lies over no other card of the trick, at the table and
    in a replay, on a phone and on a laptop (over a side card's left corner it had lain on the
    top card, as if that one were led: a replay had seemed to say that Vera led her 8♥ when Gleb
    had led the 10♦)."""
    code = create_room(live, game, ["open"] * seats)
    page = new_page({"width": 360, "height": 640}, **TOUCH)
    sit(page, live, code, "Anna", 0)  # (nobody else sits: nothing redraws the trick meanwhile)
    table = page.url
    replay = f"{live.http}/matches/{demo_match(live, game)['id']}"
    cards = ["8H", "TD", "AD", "8D"][:seats]
    for url, felt in ((table, "#felt"), (replay, ".replay-felt")):
        page.goto(url)
        page.wait_for_selector(f"{felt} .seat")
        for size in ({"width": 360, "height": 640}, LAPTOP):
            page.set_viewport_size(size)
            for leader in range(seats):
                trick = [[(leader + k) % seats, cards[k]] for k in range(seats)]
                covered = page.evaluate(LED_MARK_COVERS, [felt, trick, seats])
                assert covered == [], (felt, size, leader, covered)
    healthy(page)


#: The cards of a trick drawn in `felt` (led by its first seat) that its "led" mark lies on.
LED_MARK_COVERS = """async ([felt, trick, seats]) => {
  const { renderTrick } = await import('/static/js/render.js');
  const box = document.querySelector(felt);
  box.dataset.phase = 'play';
  renderTrick(box.querySelector('.trick'), { nSeats: seats, me: 0, names: ['Anna', 'Boris', 'Vera', 'Gleb'],
    deal: { trick, leader: trick[0][0] } }, null);
  const mark = box.querySelector('.trick .led').getBoundingClientRect();
  return [...box.querySelectorAll('.trick .card:not(:has(.led))')].filter((c) => { const r = c.getBoundingClientRect();
    return r.left < mark.right - 1 && mark.left < r.right - 1 && r.top < mark.bottom - 1 && mark.top < r.bottom - 1; })
    .map((c) => c.dataset.card); }"""


def test_the_score_sheets_target_is_whole_on_a_small_phone(live, new_page):
    """The sheet's first column is narrow: "(до 1000)" under "Итого" had been cut at its
    bracket on a 360-pixel phone."""
    code = create_room(live, "big_mariage", ["open", "bot:rules", "bot:rules", "bot:rules"])
    page = new_page({"width": 360, "height": 640}, locale="ru-RU", **TOUCH)
    sit(page, live, code, "Ольга", 0)
    page.click("[data-testid=sheet-tab]")
    target = page.locator("[data-testid=score-sheet] [data-testid=sheet-total] .target")
    target.wait_for()
    assert target.text_content().strip() == "(до 1000)"
    inside = target.evaluate("(t) => t.scrollWidth <= t.clientWidth + 1")  # (its text within its box)
    assert inside, "the target runs out of its column"
    healthy(page)


@pytest.mark.parametrize("size", [{"width": 768, "height": 1024}, {"width": 800, "height": 1280},
                                  {"width": 912, "height": 1368}])
def test_a_tablet_held_upright_has_its_hand_at_the_foot_of_the_screen(live, new_page, size):
    """A tablet held upright: the table is the screen's height, the hand at its foot, where the
    thumbs are (it had stood in the middle of the screen, a third of it bare below)."""
    code = create_room(live, "big_mariage", ["open", "bot:rules", "bot:rules", "bot:rules"])
    page = new_page(size, **TOUCH)
    sit(page, live, code, "Anna", 0)
    page.wait_for_selector("#hand .card")
    box = page.evaluate("""() => { const hand = document.getElementById('hand').getBoundingClientRect();
      const tools = document.querySelector('.tools').getBoundingClientRect();
      return {hand: hand.bottom, floor: tools.top > hand.top ? tools.top : innerHeight,
              page: document.documentElement.scrollHeight}; }""")
    assert box["page"] <= size["height"], box  # (nothing scrolls)
    assert box["floor"] - 90 <= box["hand"] <= box["floor"], box
    healthy(page)


#: the words of the felt's centre that the result lies over in part, cut at its edge
CUT_BY_THE_RESULT = """() => {
  const r = document.getElementById('result').getBoundingClientRect();
  return [...document.querySelectorAll('#felt .centre *')].filter((e) => {
    if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) return false;
    if (getComputedStyle(e).visibility !== 'visible') return false;
    const b = e.getBoundingClientRect();
    const meets = b.bottom > r.top && b.top < r.bottom && b.right > r.left && b.left < r.right;
    const within = b.top >= r.top && b.bottom <= r.bottom && b.left >= r.left && b.right <= r.right;
    return b.width > 0 && meets && !within;
  }).map((e) => e.textContent.trim()); }"""


def test_a_deals_result_on_a_tablet_leaves_no_line_of_the_centre_cut_at_its_edge(paused, new_page):
    """A deal's result over the felt of an upright tablet: the centre's lines it lies over are not
    seen cut in half above it ("Everyone passed: the deal is thrown in" had shown its lower half
    over the panel that says the same)."""
    code = create_room(paused, "big_mariage", ["open", "bot:rules", "bot:rules", "bot:rules"])
    page = new_page({"width": 768, "height": 1024}, **TOUCH)
    sit(page, paused, code, "Anna", 0)
    watch = Watch([page], 120, "a Big Mariage deal played to its result on a tablet")
    while not page.locator("[data-testid=next-deal]").count():
        watch("the deal goes on")
        if not play_on(page):
            page.wait_for_timeout(30)
    assert page.evaluate(CUT_BY_THE_RESULT) == []
    shot(page, "tablet-deal-result")
    # the last trick asked for: the result gives way, the centre is seen again
    page.click("#toggle-last")
    assert page.locator("#result").is_hidden()
    assert page.evaluate("getComputedStyle(document.querySelector('#felt .centre')).visibility") == "visible"
    healthy(page)


#: Each side's match total in a deal's result: how many lines its words and its figure take.
TOTAL_LINES = f"""() => [...document.querySelectorAll('#result .total')].map((total) => {{
  const words = document.createElement('span'), figure = total.querySelector('b');
  words.append(...[...total.childNodes].filter((n) => n !== figure));  // (the words alone)
  total.prepend(words);
  return [({LINES_OF})(words), ({LINES_OF})(figure)]; }})"""


@pytest.mark.parametrize("locale", ["ru-RU", "en-GB"])
def test_black_marias_three_totals_keep_their_words_and_figures_whole_on_a_small_phone(
        paused, new_page, locale):
    """Three sides to a deal's result on a 360-pixel phone: each match total's words on a line
    and its figure whole ("в партии 13" had been cut as "в / партии 1 / 3")."""
    code = create_room(paused, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page({"width": 360, "height": 640}, locale=locale, **TOUCH)
    sit(page, paused, code, "Tanya", 0)
    play_to_the_end_of_the_deal([page], "a Black Maria deal to its result on a small phone")
    assert page.evaluate(TOTAL_LINES) == [[1, 1]] * 3
    healthy(page)
