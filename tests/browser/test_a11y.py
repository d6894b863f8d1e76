"""Every page passes axe-core's WCAG 2 A/AA rules, at 1280×860 and 390×844 (the replay at 844×390
too), in English and Russian: axe-core (the npm package pinned in package.json, installed by
scripts/ensure-axe.sh) is injected into each page and run, and each test fails with the list of
what it found.

The tables are played by one person against bots on a server of this module's own whose deal
summaries stay until the person asks for the next deal (deal_pause), so that each phase can be
checked as it stands. The same seat is open in two browsers, one in each language; a third is a
spectator.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from .conftest import LAPTOP, PHONE, fresh_name, shot
from .test_tables import (
    Watch,
    act,
    act_surely,
    create_room,
    healthy,
    my_turn,
    play_first_legal,
    sit,
)

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SIZES = {"laptop": LAPTOP, "phone": PHONE}
PHONE_SIDEWAYS = {"width": PHONE["height"], "height": PHONE["width"]}  # (the replay beside its buttons)
LOCALES = {"en": "en-GB", "ru": "ru-RU"}
#: The one exemption, rule -> the elements it leaves out, and why. The cards of the hand are
#: buttons whose face shows the card as symbols (K♠ in two corners and the pip) and whose name is
#: the card's spoken name ("king of spades", "король пик"; docs/pages.md#accessibility): the face
#: is a picture of the card, its name the picture's text alternative. axe's Label in Name
#: (WCAG 2.5.3) reads the corners as a text label ("K K") that the name should repeat; a name
#: that did ("K♠ K♠, king of spades") would only make every card longer to hear.
EXEMPT = {"label-content-name-mismatch": ".hand-row .card"}
RUN = """async ([tags, exempt]) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, elementRef: true,
                                          resultTypes: ['violations']});  // less work on passes
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.filter((n) => !(exempt[v.id] && n.element && n.element.matches(exempt[v.id])))
                  .map((n) => ({target: n.target.join(' '), why: n.failureSummary || ''})),
  })).filter((v) => v.nodes.length);
}"""


@pytest.fixture(scope="module")
def axe_ready(browser):
    if not AXE.exists():
        reason = f"{AXE} is missing (scripts/ensure-axe.sh installs it with npm ci)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and the accessibility test cannot run: {reason}")
        pytest.skip(reason)
    return AXE


@pytest.fixture(scope="module")
def held(tmp_path_factory):
    """A live server (bot delay 0) on which a deal's summary stays until the table says `next`
    (an hour at most), with the demo matches in its history."""
    from app.ops.seeds import load_demo
    from tests.conftest import LiveServer, fresh_sqlite

    url = fresh_sqlite(tmp_path_factory, "a11ydb")
    load_demo(url)
    server = LiveServer(url, deal_pause=3600.0).start()
    yield server
    server.stop()


class Audit:
    """Runs axe on pages and gathers what it finds, each line naming the page, the language and
    the size; `check()` fails with all of them."""

    def __init__(self):
        self.found: list[str] = []
        self.checked: list[str] = []

    def __call__(self, page, what: str, sizes=SIZES) -> None:
        lang = page.evaluate("document.documentElement.lang")
        for size, viewport in sizes.items():
            page.set_viewport_size(viewport)
            if not page.evaluate("typeof window.axe === 'object'"):
                # evaluated by the browser's debugger, not as a <script> of the page, which
                # the site's Content-Security-Policy would refuse (inline)
                page.evaluate(AXE.read_text())
            where = f"{what} ({lang}, {size})"
            self.checked.append(where)
            for v in page.evaluate(RUN, [TAGS, EXEMPT]):
                lines = [f"{where}: {v['id']} [{v['impact']}] {v['help']}"]
                for n in v["nodes"][:6]:
                    why = " ".join(n["why"].split()).replace("Fix any of the following: ", "")
                    lines.append(f"    {n['target']}: {why.replace('Fix all of the following: ', '')[:240]}")
                if len(v["nodes"]) > 6:
                    lines.append(f"    and {len(v['nodes']) - 6} more")
                self.found.append("\n".join(lines))

    def check(self) -> None:
        assert not self.found, (f"{len(self.found)} axe violations on "
                                f"{len(self.checked)} page views:\n" + "\n".join(self.found))


@pytest.fixture
def audit(axe_ready):
    return Audit()


def opened(new_page, locale: str):
    page = new_page(LAPTOP, locale=locale)
    page.emulate_media(reduced_motion="reduce")
    return page


# -- the pages around the tables -----------------------------------------------------------------

@pytest.mark.parametrize("lang", LOCALES)
def test_lobby_history_match_rules_and_missing_pages(held, new_page, audit, lang):
    page = opened(new_page, LOCALES[lang])
    page.goto(held.http + "/")
    assert page.evaluate("document.documentElement.lang") == lang
    page.wait_for_selector("#seat-fields select")
    audit(page, "lobby")
    page.check("input[value=marjolet]")
    page.select_option("select[data-seat='1']", "bot:strong")
    page.wait_for_selector("#think-option:not([hidden])")
    audit(page, "lobby, a strong bot's thinking time")
    page.select_option("select[data-seat='1']", "open")
    page.fill("#create-name", fresh_name("Anna"))
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    audit(page, "lobby, table created")

    page.click("#go-table")  # the creator is seated; the other seat is open
    page.wait_for_selector(".seat.me[data-seat='0']")
    page.wait_for_selector("#conn[data-status=online]")
    audit(page, "table waiting for players")
    guest = opened(new_page, LOCALES[lang])
    guest.goto(page.url)
    guest.wait_for_selector("#join-panel:not([hidden]) [data-testid=take-seat-1]")
    audit(guest, "table, a visitor offered the free seat")
    guest.fill("#seat-name", "Boris")
    guest.check("[data-testid=seat-guest]")
    guest.click("[data-testid=take-seat-1]")  # the match begins
    guest.wait_for_selector(".seat.me[data-seat='1']")

    page.goto(held.http + "/history")
    page.wait_for_selector("[data-testid=history-table]")
    audit(page, "history")
    page.goto(held.http + "/history?status=finished")
    page.locator("[data-testid=history-table] tbody a.button").first.click()
    page.wait_for_selector("#replay .seat")
    for _ in range(60):  # on to a trick with cards in the middle (past any bidding)
        if page.locator("#replay .trick .card").count() >= 2:
            break
        page.click("[data-testid=replay-next]")
    assert page.locator("#replay .trick .card").count() >= 2
    audit(page, "match page and replay", sizes={**SIZES, "phone sideways": PHONE_SIDEWAYS})
    page.goto(held.http + "/history?status=running")
    page.locator("[data-testid=history-table] tbody a.button").first.click()
    page.wait_for_selector("[data-testid=table-link]")
    audit(page, "a running match's page")
    page.goto(held.http + "/rules")
    audit(page, "rules")
    page.goto(held.http + "/players/Anna")
    page.wait_for_selector("[data-testid=chart] svg")
    audit(page, "a player's page")
    page.goto(held.http + "/standings?players=Anna,Boris,Vera,Gleb&game=big_mariage")
    page.wait_for_selector("[data-testid=standings]")
    audit(page, "standings")
    page.click("[data-testid=me-name]")  # the identity menu, open (the lobby claimed a name)
    audit(page, "the identity menu")
    page.goto(held.http + "/me/continue")
    audit(page, "continue on this device")
    page.goto(held.http + "/r/NOSUCH")
    audit(page, "missing table")
    page.goto(held.http + "/matches/999999")
    audit(page, "missing match")
    page.goto(held.http + "/nothing/here")
    assert page.locator("h1").text_content() in ("Page not found", "Страница не найдена")
    audit(page, "missing page")
    healthy(page, guest)
    audit.check()


# -- the tables, phase by phase ------------------------------------------------------------------

def state(page) -> dict:
    return page.evaluate("window.cardroomTable.state")


def in_russian_too(new_page, server, code: str, page):
    """The same seat (this browser's seat token) on a Russian page."""
    key = f"cardroom.seat.{code}"
    seat = page.evaluate("(key) => localStorage.getItem(key)", key)
    assert seat, "not seated"
    ru = opened(new_page, LOCALES["ru"])
    ru.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(seat)})")
    ru.goto(f"{server.http}/r/{code}")
    ru.wait_for_selector(".seat.me")
    return ru


class Table:
    """One person at a table of bots (seat 0), on an English page and a Russian one, and
    perhaps a spectator: `audit_now(what)` checks them all as the table stands."""

    def __init__(self, server, new_page, audit, game: str, seats: list[str], options=None):
        self.code = create_room(server, game, seats, options)
        self.page = opened(new_page, LOCALES["en"])
        sit(self.page, server, self.code, "Anna", 0)
        self.ru = in_russian_too(new_page, server, self.code, self.page)
        self.others: list = [self.ru]
        self.audit, self.game = audit, game
        self.checked: set[str] = set()
        # a safety net (a table that stops fails in STALL): a test may play several deals
        self.watch = Watch([self.page], 300, game)

    @property
    def s(self) -> dict:
        return state(self.page)

    def between_deals(self) -> bool:
        m = self.s["match"]
        return bool(m and not m["finished"] and m["deal"] and m["deal"]["phase"] == "over")

    def audit_now(self, what: str, staged=None) -> None:
        """Each page shows the same event as the English one, then axe runs on each; `staged`,
        called with the page and true before, false after, shows what a deal may not (the
        pages' moves are their person's: nothing moves meanwhile)."""
        if what in self.checked:
            return
        self.checked.add(what)
        seq = self.page.evaluate("window.cardroomTable.seq")
        for p in (self.page, *self.others):
            p.wait_for_function("(seq) => window.cardroomTable.seq === seq", arg=seq)
            if staged:
                staged(p, True)
            self.audit(p, f"{self.game}: {what}")
            if staged:
                staged(p, False)

    def next_deal(self) -> None:
        """Ask for the next deal and wait for it to be dealt (not for any event: the person's
        `ready` comes first, and a second `next` for the same deal brings none)."""
        deals = len(self.s["match"]["deals"])
        self.page.evaluate("window.cardroomTable.send({type: 'next'})")
        self.page.wait_for_function("""(deals) => {
            const m = window.cardroomTable.state.match;
            return m.finished || m.deals.length > deals;
        }""", arg=deals, timeout=30000)


def test_black_maria_phases_and_a_spectator(held, new_page, audit):
    t = Table(held, new_page, audit, "black_maria", ["open", "bot:rules", "bot:random"],
              {"target": 1})  # one deal: its end is the match's
    page = t.page
    page.wait_for_selector("[data-testid=pass-button]")
    # one heading above the rest, the table's (the first had been the chat's, at level 3)
    assert page.locator("h1").all_text_contents() == [f"Black Maria · {t.code}"]
    # a person's name opens their page in a new tab, and says so (Enter had opened tabs unsaid)
    described = page.evaluate("""() => { const a = document.querySelector('.seat.me a.name');
      return [a.target, document.getElementById(a.getAttribute('aria-describedby')).textContent]; }""")
    assert described == ["_blank", "(opens in a new tab)"], described
    for i in range(2):
        page.locator(".hand-row .card.playable").nth(i).click()
    t.audit_now("passing, two cards chosen")
    small = {"small phone": {"width": 360, "height": 640}}
    for p in (page, t.ru):  # the first deal's word on the game behind a "?", folded and not
        audit(p, "black_maria: passing, the help folded", sizes=small)
        p.click("[data-testid=aim-toggle]")
        audit(p, "black_maria: passing, the help unfolded", sizes=small)
        p.click("[data-testid=aim-toggle]")
        p.set_viewport_size(LAPTOP)
    page.locator(".hand-row .card.playable:not(.selected)").first.click()
    act_surely(page, page.locator("[data-testid=pass-button]"))
    page.wait_for_selector("[data-testid=received] .cardtext")
    watcher = opened(new_page, LOCALES["en"])
    watcher.goto(f"{held.http}/r/{t.code}")
    watcher.wait_for_selector(".seat[data-seat='0']")
    t.others.append(watcher)
    while not t.s["match"]["finished"]:
        t.watch()
        deal = t.s["match"]["deal"]
        if my_turn(page) and deal["trick"]:
            t.audit_now("play, the cards received marked, a trick on the table")
        # (her lowest card, which seldom wins: with the first, a run had never met a trick on
        # the table at her turn, as if she had led every trick)
        if not (my_turn(page) and play_first_legal(page, last=True)):
            page.wait_for_timeout(30)
    page.wait_for_selector("[data-testid=match-over]")
    page.evaluate("window.cardroomTable.send({type: 'chat', text: 'gg'})")  # a line in the chat
    for p in (page, t.ru, watcher):
        p.wait_for_selector("[data-testid=chat-lines] li", state="attached")
    t.audit_now("the match over")
    for p in (page, t.ru):  # on a phone the score sheet (and chat) are behind a button
        p.set_viewport_size(PHONE)
        p.evaluate("document.getElementById('toggle-sheet').click()")
        assert p.get_attribute("#toggle-sheet", "aria-expanded") == "true"
        audit(p, "black_maria: the score sheet opened", sizes={"phone": PHONE})
    assert len(t.checked) == 3, t.checked
    healthy(page, t.ru, watcher)
    audit.check()


def offer_a_marriage(page, offered: bool) -> None:
    """A marriage to declare and the seven of trumps to exchange in the trick winner's window,
    whether or not the deal offers them (the declare button's own label, the cards' names where
    "K♥" is seen, had broken "label in name" only in the deals that did); on a phone, where
    only its points are seen, the marriage's name heard."""
    page.evaluate("""(offered) => {
      const m = window.cardroomTable.state.match, marriage = {cards: ['KH', 'QH'], points: 20, name: 'marriage in hearts'};
      const staged = {moves: {declare: [marriage.cards], exchange: {}}, deal: {declarable: [marriage]}};
      if (offered) {
        window.keptOffers = Object.entries(staged).map(([part, values]) => [part, Object.keys(values).map((k) => [k, m[part][k]])]);
        for (const [part, values] of Object.entries(staged)) Object.assign(m[part], values);
      } else {  // (put back as it was, or the state is no longer its hash's)
        for (const [part, kept] of window.keptOffers) {
          for (const [k, v] of kept) { if (v === undefined) delete m[part][k]; else m[part][k] = v; }
        }
      }
      for (let i = 0; i < 2; i++) document.getElementById('toggle-last').click(); }""", offered)
    if offered:
        page.set_viewport_size(PHONE)
        heard = re.compile(r"^(Declare king of hearts queen of hearts \+20 · marriage in hearts"
                           r"|Объявить короля червей даму червей \+20 · марьяж червей)$")
        assert page.get_by_role("button", name=heard).count() == 1, page.text_content("#actions")


def test_marjolet_stock_window_and_deal_end(held, new_page, audit):
    t = Table(held, new_page, audit, "marjolet", ["open", "bot:rules"])
    page = t.page
    page.wait_for_selector("[data-testid=stock]")
    while True:
        t.watch(t.checked)
        if t.between_deals():
            t.audit_now("the deal's end")
            if len(t.checked) == 4:
                break
            # a deal may not show every moment (the person led every end-phase trick): another
            t.next_deal()
            continue
        deal = t.s["match"]["deal"]
        if page.locator("[data-testid=draw]").count():
            t.audit_now("the trick winner's window: declare, exchange, draw", offer_a_marriage)
            for button in ("declare", "exchange", "draw"):
                if page.locator(f"[data-testid={button}]").count():
                    act(page, page.locator(f"[data-testid={button}]").first)
                    break
        elif my_turn(page):
            if deal["trick"] and not deal["end_phase"]:
                t.audit_now("the stock and the turn-up, a trick on the table")
            if deal["trick"] and deal["end_phase"]:
                t.audit_now("the end phase, a trick on the table")
            play_first_legal(page)
        else:
            page.wait_for_timeout(30)
    # a sheet longer than its box (more deals than fit) scrolls, and the keyboard reaches it
    page.set_viewport_size(LAPTOP)
    page.evaluate("""() => { const body = document.querySelector('#sheet tbody');
      for (let i = 0; i < 40; i++) body.append(body.lastElementChild.cloneNode(true)); }""")
    assert page.evaluate("(() => { const s = document.getElementById('sheet'); return s.scrollHeight > s.clientHeight; })()")
    # scrolled, its names and its totals stay in sight (the totals had been under the box's edge)
    page.evaluate("document.getElementById('sheet').scrollTop = 300")
    edges = page.evaluate("""() => { const box = document.getElementById('sheet').getBoundingClientRect();
      const head = document.querySelector('#sheet thead th').getBoundingClientRect();
      const foot = document.querySelector('#sheet tfoot th').getBoundingClientRect();
      return {names: head.top >= box.top - 1, totals: foot.bottom <= box.bottom + 1}; }""")
    assert edges == {"names": True, "totals": True}, edges
    shot(page, "sheet-long-scrolled")
    audit(page, "a score sheet longer than its box", {"laptop": LAPTOP})
    healthy(page, t.ru)
    audit.check()


def offer_a_trump_call(page, offered: bool) -> None:
    """At her lead, a card to call trumps with, chosen, whether or not she holds a marriage (the
    buttons to call or not had been audited only in the deals that offered a call)."""
    page.evaluate("""(offered) => {
      const m = window.cardroomTable.state.match;
      if (offered) { window.keptTrump = m.moves.trump; m.moves.trump = [m.moves.play[0]]; }
      else if (window.keptTrump === undefined) delete m.moves.trump;  // (as it was: the state keeps its hash)
      else m.moves.trump = window.keptTrump;
      for (let i = 0; i < 2; i++) document.getElementById('toggle-last').click(); }""", offered)
    if offered:
        page.locator(".hand-row .card[data-call]").first.click()
        page.locator("[data-testid=call-trumps]").wait_for()


def test_big_mariage_bidding_kitty_contract_play_and_deal_end(held, new_page, audit):
    t = Table(held, new_page, audit, "big_mariage", ["open", "bot:rules", "bot:rules", "bot:rules"])
    page = t.page
    declared = False  # this deal's declarer is the person (a bid high enough that bots pass)
    needed = {"bidding", "the declarer's kitty, a card chosen to give",
              "the declarer fixes the contract", "play, a trick on the table", "the deal's end",
              "lead or call trumps"}
    while True:
        t.watch(t.checked)
        if t.between_deals():
            if declared:
                t.audit_now("the deal's end")
                if needed <= t.checked:
                    break
            # the bots took the contract, or the deal did not show every moment (the declarer
            # won every trick, so never saw one on the table): on to the next deal
            t.next_deal()
            continue
        if page.locator("[data-testid=bid-button]").count():
            t.audit_now("bidding")
            value = page.locator("[data-testid=bid-value]")
            while int(value.input_value()) < 200:
                page.locator("[data-testid=bidbox] button", has_text="+20").click()
            act(page, page.locator("[data-testid=bid-button]"))
        elif page.locator("[data-testid=bidbox] [data-testid=pass-button]").count():
            act(page, page.locator("[data-testid=bidbox] [data-testid=pass-button]"))
        elif page.locator("[data-testid^=give-]").count():
            declared = True
            t.audit_now("the declarer's kitty, nothing chosen")
            page.locator(".hand-row .card.playable").first.click()
            t.audit_now("the declarer's kitty, a card chosen to give")
            act(page, page.locator("[data-testid^=give-]:not([disabled])").first)
        elif page.locator("[data-testid=contract-button]").count():
            t.audit_now("the declarer fixes the contract")
            act(page, page.locator("[data-testid=contract-button]"))
        elif my_turn(page):
            if t.s["match"]["deal"]["trick"]:
                t.audit_now("play, a trick on the table")
            callable_ = page.locator(".hand-row .card[data-call]")
            deal = t.s["match"]["deal"]
            if callable_.count() and "lead or call trumps" not in t.checked:
                callable_.first.click()
                t.audit_now("lead or call trumps")
            elif not deal["trick"] and deal["last_trick"]:  # her lead, no marriage to call with
                t.audit_now("lead or call trumps", offer_a_trump_call)
            play_first_legal(page)
        else:
            page.wait_for_timeout(30)
    healthy(page, t.ru)
    audit.check()
