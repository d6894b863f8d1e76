"""Whole deals through the real server and the system Chromium (see conftest.py)."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from .conftest import LAPTOP, PHONE, fresh_name, shot

pytestmark = pytest.mark.browser

SHEET_ROW = "[data-testid=score-sheet] tr[data-deal='{}']"
STALL = 15.0  # seconds a table may stay unchanged while a test plays on it, before it fails


def my_turn(page) -> bool:
    return page.locator("[data-testid=status].yours").count() > 0


STATE = "window.cardroomTable && window.cardroomTable.state"


def state(page) -> dict:
    return page.evaluate(STATE)


def wait_state(page, expression: str, timeout: float = 15000) -> None:
    """Wait until a JavaScript condition on the table's current STATE `s` holds."""
    page.wait_for_function(f"(() => {{ const s = {STATE}; return !!(s && ({expression})); }})()",
                           timeout=timeout)


def try_click(locator) -> bool:
    from playwright.sync_api import Error as PlaywrightError

    try:
        locator.click(timeout=1500)
        return True
    except PlaywrightError:
        return False


def healthy(*pages) -> None:
    """Fail at once on a script error, a refusal from the server or an error toast."""
    for page in pages:
        assert not page.errors, f"script error on {page.url}: {page.errors}"
        assert not page.refusals, f"the server refused on {page.url}: {page.refusals}"
        toast = page.locator("#toast.error:not([hidden])")
        assert not toast.count(), f"error toast on {page.url}: {toast.all_text_contents()}"


def act(page, locator) -> bool:
    """Click a control that sends an action, then wait for the server's answer: the next state
    (the page's seq moves on) with the action answered (another's event alone, a bot's pass
    while Black Maria's are made at once, could have ended the wait). A refusal, a script error
    or any toast instead ("cannot be played now: you must follow suit") fails the test at once.
    False when the control could not be clicked (it was redrawn meanwhile), and nothing was
    sent."""
    from playwright.sync_api import Error as PlaywrightError

    before = page.evaluate("window.cardroomTable.seq")
    what = str(locator)
    if not try_click(locator):
        return False
    try:
        page.wait_for_function(
            """(before) => (window.cardroomTable.seq !== before && window.cardroomTable.inFlight === null)
                           || !document.getElementById('toast').hidden""", arg=before, timeout=10000)
    except PlaywrightError:
        healthy(page)
        raise AssertionError(
            f"no answer to {what} in 10 s: {state(page)['match'].get('moves')}") from None
    healthy(page)
    toast = page.locator("#toast:not([hidden])")
    assert page.evaluate("window.cardroomTable.seq") != before or not toast.count(), \
        f"{what}: the page said {toast.all_text_contents()} and sent nothing"
    return True


def act_surely(page, locator, seconds: float = 10) -> None:
    """`act` for a control the test cannot go on without: a click that could not be made (the
    control was being redrawn) is tried again, and failing that for `seconds` fails the test."""
    deadline = time.monotonic() + seconds
    while not act(page, locator):
        assert time.monotonic() < deadline, f"could not click {locator} in {seconds:.0f} s"


class Watch:
    """Called once per turn of a play loop: fails early, with what the pages say, on a script
    error, a refusal or an error toast, or when no page's table has changed for STALL seconds;
    the deadline is only the safety net."""

    def __init__(self, pages, seconds: float, what: str):
        self.pages, self.what = pages, what
        self.deadline = time.monotonic() + seconds
        self.seqs, self.since = None, time.monotonic()

    def __call__(self, progress: str = "") -> None:
        healthy(*self.pages)
        now = time.monotonic()
        seqs = [p.evaluate("window.cardroomTable && window.cardroomTable.seq") for p in self.pages]
        if seqs != self.seqs:
            self.seqs, self.since = seqs, now
        if now - self.since >= STALL or now >= self.deadline:
            said = [p.locator("[data-testid=status]").all_text_contents() for p in self.pages]
            assert now - self.since < STALL, \
                f"{self.what}: no table changed for {STALL:.0f} s (seq {seqs}, {said}) {progress}"
            raise AssertionError(f"{self.what}: not done in time ({said}) {progress}")


def play_first_legal(page, last: bool = False) -> bool:
    """Play the first playable card (``last``: the last one, the lowest of the hand's last
    suit, which seldom wins the trick) and wait for the server's answer (a Big Mariage card
    that could call trumps is led without calling). Nothing when the table does not ask for a
    card: a new deal's passing may have just begun, where a click only chooses a card to give
    (while it asks for one, nothing else moves on until the card is played)."""
    first = page.evaluate("""(last) => {
        const s = window.cardroomTable.state;
        if (!(s && s.match && s.match.moves && s.match.moves.play)) return null;
        const all = document.querySelectorAll('.hand-row .card.playable');
        const c = all[last ? all.length - 1 : 0];
        return c && [c.dataset.card, c.dataset.call !== undefined]; }""", last)
    if not first:
        return False
    card = page.locator(f".hand-row .card.playable[data-card='{first[0]}']")
    if first[1]:  # a click only selects it; the page then asks whether to call trumps
        return try_click(card) and act(page, page.locator("[data-testid=lead-plain]"))
    return act(page, card)


def pass_or_play(page, last: bool = False) -> bool:
    """Black Maria: pass the first three cards, or play the first legal card (``last``: the
    last one), if the table asks this page for either; whether it did."""
    if page.locator("[data-testid=pass-button]").count():
        cards = page.locator(".hand-row .card.playable")
        for i in range(3):
            cards.nth(i).click()
        return act(page, page.locator("[data-testid=pass-button]"))
    return my_turn(page) and play_first_legal(page, last)


def make_my_move(page) -> bool:
    """What the table asks of this page now, if it asks for a pass (Black Maria's first three
    cards, Big Mariage's bid passed): made (the offer of a bot for someone away waits for one's
    own move); whether it did."""
    if not page.locator("[data-testid=pass-button]").count():
        return False
    cards = page.locator(".hand-row .card.playable")
    for i in range(3 if cards.count() else 0):
        cards.nth(i).click()
    return act(page, page.locator("[data-testid=pass-button]"))


def play_on(page) -> bool:
    """Whatever the table asks of this page now, done the simplest way: bid, give the first card
    (Big Mariage's kitty), fix the contract, draw (Marjolet), pass the first three cards (Black
    Maria), or play the first legal card; whether it asked for anything."""
    for button in ("bid-button", "contract-button", "draw"):
        if page.locator(f"[data-testid={button}]").count():
            return act(page, page.locator(f"[data-testid={button}]"))
    if page.locator("[data-testid^=give-]").count():
        return give_first(page)
    if page.locator("[data-testid=pass-button]").count() and not page.locator("[data-testid=bidbox]").count():
        return pass_or_play(page)  # (Big Mariage's bidding has a pass button too)
    return my_turn(page) and play_first_legal(page)


def give_first(page) -> bool:
    """Big Mariage's kitty: choose the first card to give and give it to the first seat offered;
    whether it went."""
    page.locator(".hand-row .card.playable").first.click()  # chosen to give
    buttons = page.locator("[data-testid^=give-]:not([disabled])")
    return buttons.count() > 0 and act(page, buttons.first)


def number(text: str) -> int:
    """A score as the page writes it ("−75", with a minus sign)."""
    return int(text.strip().replace("\u2212", "-"))


def sheet_matches_the_server(page) -> None:
    """The score sheet shows a row per finished deal and the totals the server counted."""
    match = state(page)["match"]
    finished = [i for i, d in enumerate(match["deals"]) if d.get("over")]
    rows = page.locator("[data-testid=score-sheet] tbody tr[data-deal]")
    assert [int(x) for x in rows.evaluate_all("rs => rs.map(r => r.dataset.deal)")] == finished
    shown = page.locator("[data-testid=score-sheet] tfoot td").all_text_contents()
    assert [number(x.replace("★", "")) for x in shown] == match["totals"], (shown, match["totals"])


def create_room(live, game, seats, options=None) -> str:
    r = httpx.post(live.http + "/api/rooms", json={"game": game, "seats": seats,
                                                   "options": options or {}})
    assert r.status_code == 201, r.text
    return r.json()["code"]


def offer_bots(page) -> None:
    """Unfold the bots offered for the free seats (folded, so that a stray tap gives no seat)."""
    page.click("[data-testid=standin-free]:not([open]) > summary")


def sit(page, live, code, name, seat):
    """Take a seat as a guest (the tests' names, Anna and Boris, are nobody's player)."""
    page.goto(f"{live.http}/r/{code}")
    page.fill("#seat-name", name)
    page.check("[data-testid=seat-guest]")
    page.click(f"[data-testid=take-seat-{seat}]")
    page.wait_for_selector(f".seat.me[data-seat='{seat}']")


def test_black_maria_deal_against_two_bots_with_reload(live, new_page):
    page = new_page()
    page.goto(live.http + "/")
    page.check("input[value=black_maria]")
    page.fill("#create-name", fresh_name("Anna"))
    page.select_option("select[data-seat='1']", "bot:rules")
    page.select_option("select[data-seat='2']", "bot:random")
    assert page.input_value("[data-testid=turn-timer-select]") == ""  # off by default
    page.click("#create-button")
    # every other seat a bot's: nobody to invite, straight to the table, seated
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))
    page.wait_for_selector(".seat.me[data-seat='0']")
    code = page.url.rsplit("/", 1)[1]

    # Passing: three cards to the right, then the three received are shown.
    page.wait_for_selector("[data-testid=pass-button]")
    assert page.locator(".hand-row .card").count() == 17
    assert page.is_hidden("[data-testid=turn-timer]")
    assert page.is_disabled("[data-testid=pass-button]")
    # her seat says she is to pass ("to play", then "to move", had said it)
    assert page.text_content(".seat.me .turnmark") == "to pass"
    # and once ("choosing…" under it had said it again); the bots, who passed at once, say so
    assert page.locator(".seat.me .pass-state").count() == 0
    wait_state(page, "s.match.deal.passed[1] && s.match.deal.passed[2]")
    assert page.locator(".seat:not(.me) .pass-state").all_inner_texts() == ["has passed ✓"] * 2
    shot(page, "black-maria-pass-laptop")
    for i in range(3):
        page.locator(".hand-row .card.playable").nth(i).click()
    assert page.locator(".hand-row .card.selected").count() == 3
    gave = page.locator(".hand-row .card.selected").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
    page.click("[data-testid=pass-button]")
    page.wait_for_selector("[data-testid=received] .cardtext")
    assert page.locator("[data-testid=received] .cardtext").count() == 3
    # and what she passed, said with it through the first trick (the bots had passed first, the
    # play began at once, and the cards she passed were said nowhere)
    said = page.locator("[data-testid=passed]").inner_text()
    assert said.startswith("You passed to Bot ") and sorted(state(page)["match"]["deal"]["pass"][0]) == sorted(gave), said
    assert page.locator("[data-testid=passed] .cardtext").count() == 3

    # Spectator on a phone: sees the table, no cards of anyone's hand.
    watcher = new_page(PHONE)
    watcher.goto(f"{live.http}/r/{code}")
    watcher.wait_for_selector(".seat[data-seat='0']")
    assert watcher.locator(".hand-row").count() == 0
    assert watcher.locator(".seat-cards .card:not(.back)").count() == 0

    reloaded = False
    watch = Watch([page, watcher], 60, "the Black Maria deal")
    while page.locator(SHEET_ROW.format(0)).count() == 0:
        watch(f"reloaded={reloaded}")
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
        # until then, low cards: the highest ones (a hand's first) had at times won every
        # trick, so that it was never this seat's turn with a trick in progress
        if not play_first_legal(page, last=not reloaded):
            page.wait_for_timeout(30)
    assert reloaded, "never had a trick in progress on my turn"
    shot(page, "black-maria-after-deal-laptop")
    watcher.wait_for_selector(SHEET_ROW.format(0).replace("[data-testid=score-sheet] ", ""),
                              state="attached")
    shot(watcher, "black-maria-spectator-phone")
    sheet_matches_the_server(page)
    total = sum(int(x) for x in page.locator("[data-testid=score-sheet] tfoot td").all_text_contents())
    assert total == 43  # one deal: 13 hearts, the queen (13), king (10) and ace (7) of spades
    # the next deal (dealt at once here): the match's score so far said on the felt, to the
    # players and to a watcher on a phone (whose score sheet covers the cards)
    page.wait_for_selector("[data-testid=match-score]")
    seats, totals = state(page)["room"]["seats"], state(page)["match"]["totals"]
    # (a name and its figure never parted by the end of a line)
    said = "Match — " + " · ".join(f"{s['name']}:\u00a0{n}" for s, n in zip(seats, totals)) + " · to 100"
    for p in (page, watcher):
        p.wait_for_function(f"document.querySelector('[data-testid=match-score]')?.textContent === {said!r}")
    # chat is plain text
    page.fill("#chat-input", "<b>hi</b>")
    page.click("#chat-form button")
    page.wait_for_selector("[data-testid=chat-lines] li")
    assert "<b>hi</b>" in page.text_content("[data-testid=chat-lines]")
    assert page.locator("[data-testid=chat-lines] b b").count() == 0
    # each line says when it was said, in the reader's time
    said_at = page.locator("[data-testid=chat-lines] li time").last
    assert re.fullmatch(r"\d\d:\d\d", said_at.text_content()), said_at.text_content()
    assert page.evaluate("""(t) => { const d = new Date(t), now = new Date();
      return Math.abs(now - d) < 120000; }""", said_at.get_attribute("datetime"))
    healthy(page, watcher)


def test_join_by_code_takes_the_code_as_typed_or_the_invite_link_pasted(live, new_page):
    code = create_room(live, "marjolet", ["open", "open"])
    page = new_page(PHONE, locale="ru-RU")
    for typed in (f" {live.http}/r/{code}\n", f"  {code.lower()} "):  # (the box had kept "http:/")
        page.goto(live.http + "/")
        page.fill("#join-code", typed)
        page.press("#join-code", "Enter")
        page.wait_for_url(f"**/r/{code}")
        page.wait_for_selector("[data-testid=take-seat-0]")
    page.goto(live.http + "/")
    page.fill("#join-code", "K7Q")
    page.press("#join-code", "Enter")
    assert page.text_content("#join-error") == "Код стола — шесть букв и цифр; подойдёт и ссылка-приглашение."
    assert page.url == live.http + "/"  # nowhere to go: "No such table" is not where it leads
    healthy(page)


def test_an_option_left_empty_is_asked_for_by_its_name(live, new_page):
    page = new_page(PHONE, locale="ru-RU")
    page.goto(live.http + "/")
    page.check("input[value=big_mariage]")
    page.fill("#create-name", fresh_name("Вера"))
    page.click("[data-testid=create-settings] summary")  # (folded on a phone)
    page.fill("#opt-target", "")
    page.click("[data-testid=create-settings] summary")  # folded again: unfolded by the refusal
    rooms = len(httpx.get(live.http + "/api/rooms?open=true").json()["rooms"])
    page.click("#create-button")
    # (it had been sent as 0: "настройка «target» не принимает значение «0»")
    assert page.text_content("#create-error") == "«Играть до»: укажите число."
    assert page.evaluate("document.activeElement.id") == "opt-target"
    assert len(httpx.get(live.http + "/api/rooms?open=true").json()["rooms"]) == rooms
    # any refusal of an option names it as the lobby does
    said = page.evaluate("""() => import('/static/js/common.js').then((m) => m.refusalText(
        {reason: 'bad_option_value', params: {option: 'target', value: 5}}))""")
    assert said == "настройка «Играть до» не принимает значение 5"
    healthy(page)


def test_marjolet_two_players_declaration_and_end_phase(paused, new_page):
    # (a far target: the match must not end before the dix exchange has come up, by chance)
    code = create_room(paused, "marjolet", ["open", "open"], {"target": 5000})
    a, b = new_page(LAPTOP), new_page(PHONE, locale="ru-RU")
    sit(a, paused, code, "Anna", 0)
    sit(b, paused, code, "Boris", 1)
    a.wait_for_selector("[data-testid=stock]")
    shot(a, "marjolet-start-laptop")
    # the face-down pile says the count its label says; the turn-up lies upright beside it
    left = state(a)["match"]["deal"]["stock_count"]
    assert a.text_content("[data-testid=stock] .stockpile .count") == str(left)
    assert a.text_content("[data-testid=stock] .stock-label") == f"stock: {left}"
    assert b.text_content("[data-testid=stock] .stock-label") == f"в колоде: {left}"
    upright = a.evaluate("""() => { const c = document.querySelector('[data-testid=stock] .turnup .card');
                                   return [getComputedStyle(c).transform, c.getBoundingClientRect().width]; }""")
    assert upright[0] == "none" and upright[1] >= 44, upright
    declared = end_seen = exchanged = False
    watch = Watch([a, b], 150, "Marjolet")
    deals_done = 0
    # The dix exchange is offered only to the holder of the 7 of trumps who wins a stock trick
    # while the turn-up lies on the table: loop over deals until it has been offered and used.
    while not (declared and end_seen and exchanged and deals_done >= 1):
        progress = f"declared={declared} end_phase={end_seen} exchanged={exchanged} deals={deals_done}"
        watch(progress)
        assert deals_done < 10, progress  # (the dix exchange is a matter of chance)
        for seat, (p, other) in enumerate(((a, b), (b, a))):
            if p.locator("[data-testid=exchange]").count():
                trump = state(p)["match"]["deal"]["trump"]
                if act(p, p.locator("[data-testid=exchange]")):
                    # the dix now lies face up as the turn-up, on both tables, which say who
                    dix = f"[data-testid=stock] .turnup .card[data-card='7{trump}']"
                    assert p.locator(dix).count() == 1
                    other.wait_for_selector(dix)
                    name = ("Anna", "Boris")[seat]
                    for q in (p, other):
                        q.locator("#info .note", has_text=name).wait_for()
                    if not exchanged:
                        shot(p, "marjolet-exchanged")
                    exchanged = True
            elif p.locator("[data-testid=next-deal]").count():
                act(p, p.locator("[data-testid=next-deal]"))
            elif p.locator("[data-testid=declare]").count():
                cards = state(p)["match"]["moves"]["declare"][0]  # the first button's
                # the button says what the combination scores
                offer = next(o for o in state(p)["match"]["deal"]["declarable"] if o["cards"] == cards)
                said = p.text_content("[data-testid=declare] >> nth=0")
                assert f"+{offer['points']}" in said, (said, offer)
                # its name read on the phone too, where only the points are seen (it had been
                # hidden from screen readers as well)
                if p is b:
                    heard = re.compile(rf"\+{offer['points']} · \S")
                    assert p.get_by_role("button", name=heard).count() >= 1, said
                # what scores stands out, the draw beside it (drawn past unawares, a marriage's
                # 40 had gone by)
                looks = p.evaluate("""() => [...document.querySelectorAll('#actions [data-testid=declare], #actions [data-testid=draw]')]
                  .map((b) => b.dataset.testid + (b.classList.contains('primary') ? '*' : ''))""")
                assert set(looks) == {"declare*", "draw"}, looks
                if act(p, p.locator("[data-testid=declare]").first):
                    # laid face up in front of the declarer, on both tables
                    for q in (p, other):
                        for card in cards:
                            q.wait_for_selector(f"[data-testid=declared-{seat}] .card[data-card='{card}']")
                    # and not also among the backs the opponent sees (they had been counted twice)
                    deal = state(other)["match"]["deal"]
                    backs = other.locator(f"[data-testid=seat-{seat}] .seat-cards").get_attribute("data-count")
                    assert int(backs) == deal["hand_sizes"][seat] - len(deal["declared"][seat]), backs
                    if not declared:
                        shot(p, "marjolet-declared")
                    declared = True
            elif p.locator("[data-testid=draw]").count():
                # nothing to declare or exchange: the window says only to draw
                said = p.text_content("#actions")
                if not p.locator("[data-testid=declare], [data-testid=exchange]").count():
                    assert ("You won the trick: draw.", "Взятка ваша: берите карту из колоды.")[seat] in said, said
                    assert "primary" in p.get_attribute("[data-testid=draw]", "class")
                act(p, p.locator("[data-testid=draw]"))
            elif my_turn(p):
                if not end_seen and p.locator("[data-testid=end-phase]").count():
                    # the strict play is still play ("to move" had been said in it)
                    assert p.text_content(".seat.me .turnmark") == ("to play", "ходит")[seat]
                    end_seen = True
                    shot(a, "marjolet-end-phase-laptop")
                    shot(b, "marjolet-end-phase-phone")
                chase_the_dix(p)
        while a.locator(SHEET_ROW.format(deals_done)).count():
            deals_done += 1
    for p in (a, b):  # the finished deals are on both score sheets, as the server counted them
        sheet_matches_the_server(p)
    # the card points said as what they are: Marjolet's aces and tens ("card points" had said
    # nothing of which cards count)
    first = state(a)["match"]["deals"][0]["summary"]["seats"][0]["card_points"]
    assert f"aces and tens {first}" in a.text_content(SHEET_ROW.format(0))
    assert f"тузы и десятки {first}" in b.text_content(SHEET_ROW.format(0))
    # the match's target is said at its totals (nothing at the table had said it)
    assert a.text_content("[data-testid=score-sheet] [data-testid=sheet-total]") == "Total (to 5000)"
    assert b.text_content("[data-testid=score-sheet] [data-testid=sheet-total]") == "Итого (до 5000)"
    healthy(a, b)


def chase_the_dix(page) -> bool:
    """Marjolet: whoever holds the 7 of trumps while the turn-up lies there plays their highest
    other trump, to win the trick and be offered the exchange (the first legal card, it had taken
    up to nine deals, a minute and a half); else the first legal card."""
    trump = page.evaluate("""() => {
      const s = window.cardroomTable.state, d = s.match.deal, play = (s.match.moves || {}).play || [];
      if (!d.turn_up || !(d.hands[s.you.seat] || []).includes('7' + d.trump)) return null;
      const rank = (card) => 'ATKQJ987'.indexOf(card[0]);
      return play.filter((c) => c[1] === d.trump && c[0] !== '7').sort((x, y) => rank(x) - rank(y))[0] || null; }""")
    if trump:
        return act(page, page.locator(f".hand-row .card.playable[data-card='{trump}']"))
    return play_first_legal(page)


def test_big_mariage_bidding_kitty_gives_contract_and_trump_call(paused, new_page):
    code = create_room(paused, "big_mariage", ["open"] * 4)
    pages = [new_page(LAPTOP if s == 0 else PHONE) for s in range(4)]
    for s, p in enumerate(pages):
        sit(p, paused, code, ["Anna", "Boris", "Vera", "Gleb"][s], s)
    seen = {"bid": False, "give": False, "contract": False, "call": False}
    # a safety net, not a measure: the deals are random, and a chance to call trumps may take
    # several of them, each slower on a busy machine (a table that stops fails in STALL)
    watch = Watch(pages, 600, "Big Mariage")
    deals_done = 0
    while not (all(seen.values()) and deals_done >= 1):
        watch(f"{seen} after {deals_done} deals")
        for s, p in enumerate(pages):
            if p.locator("[data-testid=next-deal]").count():
                outcome_coloured_for(p, s)
                act(p, p.locator("[data-testid=next-deal]"))
            elif p.locator("[data-testid=bidbox]").count():
                if s == 0 and p.locator("[data-testid=bid-button]").count():
                    if not seen["bid"]:
                        shot(p, "big-mariage-bidding-laptop")
                        # her seat says she is to bid ("to play" had said it in the bidding)
                        assert p.text_content(".seat.me .turnmark") == "to bid"
                    value = int(p.input_value("[data-testid=bid-value]"))
                    if act(p, p.locator("[data-testid=bid-button]")):
                        assert [0, value] in state(p)["match"]["deal"]["bids"]
                        seen["bid"] = True
                else:
                    act(p, p.locator("[data-testid=bidbox] [data-testid=pass-button]"))
            elif p.locator("[data-testid^=give-]").count():
                if not seen["give"]:
                    shot(p, "big-mariage-kitty-laptop")
                    # the declarer's seat says they are to give ("to play" had said it)
                    assert p.text_content(".seat.me .turnmark") == "to give"
                # (a marriage kept to call trumps with on the first lead: a call seen in the first
                # deal rather than after several, a minute each)
                held = p.locator(".hand-row .card").evaluate_all("cs => cs.map((c) => c.dataset.card)")
                offered = p.locator(".hand-row .card.playable").evaluate_all("cs => cs.map((c) => c.dataset.card)")
                if not offered:  # (the give made meanwhile)
                    continue
                code = next((c for c in offered if not (c[0] in "KQ" and "KQ".replace(c[0], "") + c[1] in held)), offered[0])
                card = p.locator(f".hand-row .card[data-card='{code}']")
                if try_click(card):  # selects the card to give
                    buttons = p.locator("[data-testid^=give-]:not([disabled])")
                    if buttons.count() and act(p, buttons.first):
                        to = {g["card"]: g["to"] for g in state(p)["match"]["deal"]["gives"]}[code]
                        # the card given, marked in its new hand until the play
                        pages[to].locator(f".hand-row .card.received[data-card='{code}']").wait_for()
                        seen["give"] = True
            elif p.locator("[data-testid=contract-button]").count():
                # the declarer's marriages said beside the contract, and to nobody else
                hand = state(p)["match"]["deal"]["hands"][s]
                pairs = [x for x in "HDCS" if {"K" + x, "Q" + x} <= set(hand)]
                note = p.locator("[data-testid=marriages-held]")
                assert note.count() == (1 if pairs else 0)
                if pairs:
                    chips = note.locator(".cardtext").evaluate_all("cs => cs.map((c) => c.dataset.card)")
                    assert chips == [c for x in pairs for c in ("K" + x, "Q" + x)], chips
                    assert note.inner_text().endswith("they count once the contract is fixed.")
                assert all(q.locator("[data-testid=marriages-held]").count() == 0 for q in pages if q is not p)
                # a step above the winning bid, so that the contract shown is not the bid
                try_click(p.locator(".bidbox:has([data-testid=contract-value]) button", has_text="+5"))
                value = int(p.input_value("[data-testid=contract-value]"))
                if act(p, p.locator("[data-testid=contract-button]")):
                    assert state(p)["match"]["deal"]["contract"] == value
                    for q in pages:  # every table shows the contract fixed, not the bid
                        q.locator("[data-testid=contract]", has_text=f"Contract {value} —").wait_for()
                    # the declarer knows the kitty all deal: its cards stay marked in the hand
                    # as the play begins (the marks had gone), the gives said until a trick is won
                    wait_state(p, "s.match.deal.phase === 'play'")
                    deal = state(p)["match"]["deal"]
                    kept = sorted(c for c in deal["kitty"] if c in deal["hands"][s])
                    marked = p.locator(".hand-row .card.kitty").evaluate_all("cs => cs.map(c => c.dataset.card)")
                    assert sorted(marked) == kept and p.locator("[data-testid=given]").count() == 1, (marked, kept)
                    # (its star says what it means, pointed at)
                    titles = p.locator(".hand-row .card.kitty").evaluate_all("cs => cs.map(c => c.title)")
                    assert all(title.startswith("★ from the kitty") for title in titles), titles
                    seen["contract"] = True
            elif my_turn(p):
                # who called the trumps is said through the trick they were called in, not after
                # (it had stood to the deal's end, under the next one's countdown)
                said, due = p.evaluate(CALL_SAID)
                assert said == due, (said, due)
                callable_ = p.locator(".hand-row .card[data-call]")
                if callable_.count():
                    suit = callable_.first.get_attribute("data-card")[1]
                    # (said, not only in its title: a screen reader had not heard it)
                    assert callable_.first.get_attribute("aria-label").endswith(", can call trumps")
                    if try_click(callable_.first) and act(p, p.locator("[data-testid=call-trumps]")):
                        assert state(p)["match"]["deal"]["trump"] == suit
                        for q in pages:  # every table shows the trumps called
                            q.wait_for_function(
                                "(suit) => window.cardroomTable.state.match.deal.trump === suit", arg=suit)
                            assert q.locator("#info .trump:not(.none)").count() == 1
                            q.locator("[data-testid=called]").wait_for()
                        if not seen["call"]:
                            shot(pages[0], "big-mariage-trumps-laptop")
                            shot(pages[1], "big-mariage-trumps-phone")
                        seen["call"] = True
                else:
                    play_first_legal(p)
        while pages[0].locator(SHEET_ROW.format(deals_done)).count():
            deals_done += 1
    for p in pages:  # the finished deals are on every score sheet, as the server counted them
        sheet_matches_the_server(p)
    shot(pages[0], "big-mariage-sheet-laptop")
    healthy(*pages)


def outcome_coloured_for(page, seat):
    """The deal's result says how the contract went in green to the pair it was good for and in
    red to the other (the opponents' contract made had been green to those it beat)."""
    summary = state(page)["match"]["deals"][-1]["summary"]
    if summary["thrown_in"]:
        return
    declaring = next(i for i, team in enumerate(summary["teams"]) if team["declaring"])
    good = summary["teams"][declaring]["made"] == (seat % 2 == declaring)
    assert page.get_attribute("[data-testid=result-headline] > span", "class") == ("good" if good else "bad")


#: Whether the table says who called the trumps, and whether it is due (the last call made in
#: the trick being played), read together.
CALL_SAID = """() => { const deal = window.cardroomTable.state.match.deal, calls = deal.trump_calls;
  const done = deal.tricks_won.reduce((a, b) => a + b, 0);
  return [document.querySelectorAll('[data-testid=called]').length,
          calls.length && deal.phase === 'play' && calls[calls.length - 1].trick === done ? 1 : 0]; }"""


def test_history_match_page_and_replay(live, new_page):
    page = new_page()
    page.goto(live.http + "/history")
    rows = page.locator("[data-testid=history-table] tbody tr")
    assert rows.count() >= 9  # the demo matches
    page.select_option("select[name=game]", "big_mariage")
    page.select_option("select[name=status]", "finished")
    page.click(".filters button")
    page.wait_for_url("**game=big_mariage**")
    games = page.locator("[data-testid=history-table] tbody td:nth-child(2)").all_text_contents()
    assert len(games) >= 3 and all("Big Mariage" in t for t in games), games  # 3 demo matches
    # partners together, in the order of their totals, and the winners' total marked (it had
    # read "Anna, Boris, Vera, Gleb · 45 : 280")
    row = page.locator("[data-testid=history-table] tbody tr").first
    players = row.locator(".m-players").inner_text()
    assert re.fullmatch(r"[^,]+ & [^,]+ — [^,]+ & [^,]+", players), players
    assert row.locator(".m-totals b").inner_text().endswith("★")
    # a row is its links to the match and to its players, each once for the Tab key (the match
    # had been two stops: its date and "Open")
    page.focus("[data-testid=history-table] tbody tr:first-child .m-date a")
    stops = []
    while page.evaluate("document.activeElement.closest('tbody tr') === document.querySelector('[data-testid=history-table] tbody tr')"):
        stops.append(page.evaluate("document.activeElement.getAttribute('href')"))
        page.keyboard.press("Tab")
    assert len(stops) == len(set(stops)) == 1 + row.locator(".m-players a").count(), stops
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
    # at the end, the winners (as the page's heading says them)
    play, slider = page.locator("#rp-play"), page.locator("#rp-slider")
    assert page.locator("[data-testid=replay-winners]").count() == 0
    slider.evaluate("(s) => { s.value = s.max; s.dispatchEvent(new Event('input')); }")
    heading = page.text_content("[data-testid=winners] b")
    assert page.text_content("[data-testid=replay-winners]") == f"Winners: {heading}"
    # playing, the button says so (it had stayed "▷"); from the end it starts again
    # each step said as it is stepped to, with the analysis's word on it; not while it plays
    # by itself (a screen reader would hear one every 700 ms)
    live_regions = lambda: [page.get_attribute(f"#{i}", "aria-live") for i in ("rp-action", "rp-mark")]
    assert live_regions() == ["polite", "polite"]
    play.click()
    assert (play.text_content(), play.get_attribute("aria-pressed")) == ("❚❚", "true")
    assert live_regions() == ["off", "off"]
    page.wait_for_function("Number(document.getElementById('rp-slider').value) === 1")
    play.click()
    assert (play.text_content(), play.get_attribute("aria-pressed")) == ("▷", "false")
    assert live_regions() == ["polite", "polite"]
    page.set_viewport_size(PHONE)
    shot(page, "match-replay-phone")
    # the language switch is remembered
    page.click("[data-testid=lang-switch]")
    page.wait_for_selector("text=Повтор")
    page.goto(live.http + "/rules")
    assert page.locator(".convention").count() >= 5
    assert "Договорённость" in page.text_content(".rules")
    healthy(page)


def test_big_mariage_thrown_in_says_so_without_trumps_or_points(live, new_page):
    page = new_page()
    page.goto(live.http + "/")
    shown = page.evaluate("""async () => {
      const { renderInfo } = await import('/static/js/render.js');
      const box = document.createElement('div');
      const deal = { phase: 'over', dealer: 3, declarer: null, contract: null, high_bid: null, trump: null, team_points: [0, 0],
                     bids: [[0, 'pass'], [1, 'pass'], [2, 'pass'], [3, 'pass']], gives: [] };
      renderInfo(box, { game: 'big_mariage', names: ['Anna', 'Boris', 'Carol', 'Dave'], deal });
      return box.textContent; }""")
    # (it had said "no trumps · Points: A 0 · B 0" over "Everyone passed")
    assert "Everyone passed" in shown and "trumps" not in shown and "Points so far" not in shown, shown


@pytest.mark.parametrize("locale, said", [
    ("en-GB", "The dix turned up: 10 to the dealer (Boris)"),
    ("ru-RU", "Открыта семёрка козырей: 10 очков сдающему (Boris)")])
def test_a_marjolet_dix_turned_up_says_why_the_dealer_has_ten(live, new_page, locale, said):
    """The 7 of trumps turned up gives the dealer 10 at once (the engine's dix events say so):
    the centre says so (a newcomer had seen "points: 10" beside a seat before any card,
    unexplained); not for a dix exchanged (said as the exchange) or played, nor once the
    turn-up is taken."""
    code = create_room(live, "marjolet", ["open", "open"])
    page = new_page(locale=locale)
    page.goto(f"{live.http}/r/{code}")
    page.wait_for_selector(".seat")
    shown = page.evaluate("""async () => {
      const { renderInfo } = await import('/static/js/render.js');
      const box = document.getElementById('info'), seen = [];
      const turned = { seat: 1, how: "turn-up", points: 10 }, exchanged = { seat: 0, how: "exchanged", points: 10 };
      for (const [turn_up, exchanged_by, dix] of [["7H", null, [turned]], ["7H", 0, [exchanged]], ["9H", null, []], [null, null, [turned]]]) {
        renderInfo(box, { game: "marjolet", names: ["Anna", "Boris"], deal: { trump: "H", turn_up,
          exchanged_by, dix, dealer: 1, stock_count: 9, end_phase: false, phase: "play" } });
        seen.push(box.querySelector('[data-testid=dix-turned]')?.innerText ?? null);
      }
      return seen; }""")
    assert shown == [said, None, None, None], shown
    healthy(page)


def test_a_marjolet_dix_exchanged_is_said_while_the_turn_up_lies_there(live, new_page):
    """Once the turn-up is taken (the stock's last card drawn), "Anna exchanged the dix" is
    said no more: it had stayed through the strict play, a line of a small phone's centre."""
    code = create_room(live, "marjolet", ["open", "open"])
    page = new_page()
    page.goto(f"{live.http}/r/{code}")
    page.wait_for_selector(".seat")
    shown = page.evaluate("""async () => {
      const { renderInfo } = await import('/static/js/render.js');
      const box = document.getElementById('info');
      return [["7H", 9, false], [null, 0, true]].map(([turn_up, stock_count, end_phase]) => {
        renderInfo(box, { game: "marjolet", names: ["Anna", "Boris"], deal: { trump: "H", turn_up, exchanged_by: 0,
          dix: [{ seat: 0, how: "exchanged", points: 10 }], dealer: 1, stock_count, end_phase, phase: "play" } });
        return box.innerText.includes("Anna exchanged the dix"); }); }""")
    assert shown == [True, False], shown
    healthy(page)


def test_a_score_is_written_with_a_minus_sign_and_a_gain_with_a_plus(live, new_page):
    """The sheet and the result write "−75" (a minus sign, as on the bid buttons: a hyphen had
    read "-75") and, in Big Mariage, "+12" for a gain."""
    page = new_page()
    page.goto(live.http + "/")
    shown = page.evaluate("""async () => {
      const { signed } = await import('/static/js/common.js');
      return [signed(-75), signed(-75, true), signed(12, true), signed(12), signed(0, true)]; }""")
    assert shown == ["\u221275", "\u221275", "+12", "12", "0"]
    healthy(page)
