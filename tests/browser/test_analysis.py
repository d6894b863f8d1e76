"""The post-match analysis on the match page (issue 28): asked for with its button, its
progress, then a summary per player and the chart; in the replay, a marked decision shows its
mark, the better choice and what each was worth."""

from __future__ import annotations

import random
import re
import time
from datetime import datetime, timedelta, timezone
from decimal import ROUND_HALF_UP, Decimal

import httpx
import pytest

from tests.browser.conftest import LAPTOP, PHONE, shot
from tests.browser.test_a11y import AXE, Audit


def server_with_a_match(tmp_path_factory, name: str, simulations: int):
    """A live server analysing at ``simulations`` determinizations a choice, holding one
    finished Black Maria match of the rules bots, three deals (``server.match_id``)."""
    from app.ops.seeds import store_match
    from app.storage.store import Store
    from engine import new_match
    from engine.bots.heuristic import HEURISTIC_BOTS
    from tests.conftest import LiveServer, fresh_sqlite

    url = fresh_sqlite(tmp_path_factory, name)
    rng, rules = random.Random(12), HEURISTIC_BOTS["black_maria"]
    match = new_match("black_maria", {"target": 40})
    while not match.finished:
        match.start_deal(rng=rng)
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, rules(match.view(seat), match.moves(seat), rng))
    store = Store(url)
    try:
        match_id = store.transact(lambda s: store_match(
            s, "ANALYSED", match, ["Anna", "Boris", "Clara"],
            datetime.now(timezone.utc) - timedelta(hours=1)))
    finally:
        store.close()
    server = LiveServer(url, analysis_simulations=simulations, analysis_poll=0.2).start()
    server.match_id = match_id
    return server


@pytest.fixture(scope="module")
def analysed_server(tmp_path_factory):
    """Its analyses quick (four determinizations a choice: with fewer, hardly a cost stands
    measured a second time, and the test needs marks of two players)."""
    server = server_with_a_match(tmp_path_factory, "analysisdb", 4)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory):
    """Its analyses at the default quality: long enough to be watched (seconds a deal)."""
    server = server_with_a_match(tmp_path_factory, "slowanalysisdb", 40)
    yield server
    server.stop()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_match_page_asks_for_the_analysis_and_the_replay_shows_its_marks(
        analysed_server, new_page, lang):
    live, match_id = analysed_server, analysed_server.match_id
    if lang == "ru":  # (asked here too: run apart from the English one, it had waited for nothing)
        httpx.post(f"{live.http}/api/matches/{match_id}/analysis")
    page = new_page(locale="ru-RU" if lang == "ru" else "en-GB")
    page.goto(f"{live.http}/lang/{lang}?next=/matches/{match_id}")
    section = page.get_by_test_id("analysis")
    status = page.get_by_test_id("analysis-status")
    if lang == "en":
        status.filter(has_text="not been analysed").wait_for()
        page.get_by_test_id("analysis-ask").focus()
        page.keyboard.press("Enter")
        # the focus on what it is doing, its button gone (it had fallen to the page's body)
        assert page.evaluate("document.activeElement.dataset.testid") == "analysis-status"
    # done: a row per player in the summary, and the chart
    page.get_by_test_id("analysis-row").first.wait_for(timeout=240_000)
    if lang == "en":  # (and said, once ready, to whoever asked here)
        assert page.get_by_test_id("analysis-told").text_content() == "The analysis is ready."
    assert page.get_by_test_id("analysis-row").count() == 3
    # "Analyse again" under what it would redo (above the summary, a tap meant for it had asked)
    assert section.evaluate("""(s) => Boolean(s.querySelector('[data-testid=analysis-chart]')
      .compareDocumentPosition(s.querySelector('[data-testid=analysis-ask]:not([hidden])')) & Node.DOCUMENT_POSITION_FOLLOWING)""")
    assert section.locator("svg.an-chart circle").count() > 10
    result = httpx.get(f"{live.http}/api/matches/{match_id}/analysis").json()["result"]
    frames = httpx.get(f"{live.http}/api/matches/{match_id}/replay").json()["frames"]
    marked = [(deal["deal"], d) for deal in result["deals"] for d in deal["decisions"]
              if d.get("mark")]
    assert marked, "no decision marked: pick another match"
    deal, decision = marked[0]
    first = next(i for i, f in enumerate(frames) if f["deal"] == deal)
    page.get_by_test_id("replay-where").wait_for()
    for _ in range(first + decision["index"] + 1):
        page.keyboard.press("ArrowRight")
    mark = page.get_by_test_id("replay-mark")
    words = {"en": {"mistake": "Mistake", "blunder": "Blunder", "inaccuracy": "Inaccuracy"},
             "ru": {"mistake": "Ошибка", "blunder": "Грубая ошибка",
                    "inaccuracy": "Неточность"}}[lang]
    text = mark.inner_text()
    assert text.startswith(words[decision["mark"]]), text
    def tenths(value: float) -> str:  # as the page's language writes a number, a minus its sign
        # (a half away from nothing, as Intl.NumberFormat rounds: −13.25 is −13.3)
        rounded = Decimal(str(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
        return f"{rounded}".replace(".", "," if lang == "ru" else ".").replace("-", "\u2212")

    assert tenths(decision["cost"]) in text and ("better:" in text or "лучше:" in text)
    # the better choice's value, then the choice made's, each named
    said = {"en": "value {} against {} for the choice made", "ru": "ценность {} против {} у сделанного выбора"}[lang]
    values = said.format(tenths(decision["best_value"]), tenths(decision["value"]))
    assert values in text
    # on a phone held upright they are read, not seen: the line under the replay's buttons short
    page.set_viewport_size({"width": 360, "height": 640})
    detail = mark.locator(".detail")
    assert values in detail.text_content() and detail.bounding_box()["width"] <= 1
    page.set_viewport_size({"width": 1280, "height": 800})
    # and what a value is, in this game ("worth" had been said of nothing)
    measure = {"en": "minus the penalty points the player takes", "ru": "штрафные очки игрока в раздаче со знаком минус"}[lang]
    assert measure in status.inner_text()
    assert f"mark-{decision['mark']}" in mark.get_attribute("class")
    # a choice not marked says whose word it is ("The best choice" alone had hung over the felt)
    plain = [(deal["deal"], d) for deal in result["deals"] for d in deal["decisions"]
             if not d.get("mark") and "choices" in d]
    plain_deal, choice = plain[0]
    step = next(i for i, f in enumerate(frames) if f["deal"] == plain_deal) + choice["index"] + 1
    page.locator("#rp-slider").evaluate(f"(s) => {{ s.value = {step}; s.dispatchEvent(new Event('input')); }}")
    assert mark.inner_text().startswith({"en": "Analysis: ", "ru": "Анализ — "}[lang]), mark.inner_text()
    # a cost within the play-outs' margin of error says it is not counted (a walk had read "9.0
    # points lost" on a move, and not found it among the points lost)
    noises = [(deal["deal"], d) for deal in result["deals"] for d in deal["decisions"]
              if d.get("cost") and not d.get("significant")]
    assert noises, "no cost within the margin of error in this analysis"
    noise = noises[0]
    step = next(i for i, f in enumerate(frames) if f["deal"] == noise[0]) + noise[1]["index"] + 1
    page.locator("#rp-slider").evaluate(f"(s) => {{ s.value = {step}; s.dispatchEvent(new Event('input')); }}")
    assert mark.inner_text().endswith({"en": "margin of error: not counted", "ru": "не в счёт"}[lang]), mark.inner_text()
    page.locator("#rp-slider").evaluate(f"(s) => {{ s.value = {first + decision['index'] + 1}; s.dispatchEvent(new Event('input')); }}")
    shot(page, f"analysis-{lang}")
    # the marked moves listed in the match's order, each taking the replay to itself (they had
    # been found only by stepping through the whole replay)
    moves = page.get_by_test_id("analysis-move")
    assert moves.count() == len(marked)
    # one player's own, the heading counting them; then everyone's again
    seat = marked[0][1]["seat"]
    theirs = [d for _, d in marked if d["seat"] == seat]
    page.get_by_test_id("analysis-whose").select_option(str(seat))
    assert page.locator("[data-testid=analysis-move]:visible").count() == len(theirs) < len(marked)
    assert f"({len(theirs)})" in section.locator(".an-marked summary").inner_text()
    page.get_by_test_id("analysis-whose").select_option("")
    assert page.locator("[data-testid=analysis-move]:visible").count() == len(marked)
    deal, decision = marked[-1]
    moves.last.focus()
    page.keyboard.press("Enter")
    where = {"en": "deal {}/{} · step {}/{}", "ru": "раздача {}/{} · шаг {}/{}"}[lang]
    assert page.get_by_test_id("replay-where").inner_text() == where.format(
        deal + 1, frames[-1]["deal"] + 1, decision["index"] + 2, sum(f["deal"] == deal for f in frames))
    assert mark.inner_text().startswith(words[decision["mark"]]) and tenths(decision["cost"]) in moves.last.inner_text()
    assert page.evaluate("document.activeElement.id") == "rp-slider"
    # the chart says what its axes are: the points lost, up to the most; each deal along
    labels = section.locator("svg.an-chart text.an-label").all_text_contents()
    lost = {"en": "points lost", "ru": "потеряно очков"}[lang]
    assert labels[0] == f"{round(max(d['cost'] for deal in result['deals'] for d in deal['decisions'] if 'choices' in d))} · {lost}"
    played = sorted({deal["deal"] for deal in result["deals"] if any("choices" in d for d in deal["decisions"])})
    assert labels[1:] == [{"en": "deal", "ru": "раздача"}[lang] + " 1"] + [str(n + 1) for n in played[1:]]
    # the axis's label over no dot (on a phone it had sat on the highest one)
    clear = section.evaluate("""(s) => { const label = s.querySelector('svg.an-chart text.an-label').getBoundingClientRect();
      return [...s.querySelectorAll('svg.an-chart circle')].every((c) => { const r = c.getBoundingClientRect();
        return r.top >= label.bottom || r.bottom <= label.top || r.left >= label.right || r.right <= label.left; }); }""")
    assert clear, "the axis's label lies over a dot"
    # a player is one colour on the page: the running totals' line, the dots and the legend
    # here; a mistake or a blunder is a white ring (orange and red rings had read as another
    # player's; an inaccuracy is a larger dot)
    colours = page.evaluate("""() => {
      const rgb = (c) => { const e = document.createElement('i'); e.style.color = c; document.body.append(e); const v = getComputedStyle(e).color; e.remove(); return v; };
      return {lines: [...document.querySelectorAll('[data-testid=chart] svg polyline')].map((l) => rgb(l.getAttribute('stroke'))),
              keys: [...document.querySelectorAll('.an-key')].map((k) => getComputedStyle(k).color),
              dots: [...new Set([...document.querySelectorAll('svg.an-chart circle')].map((c) => rgb(c.getAttribute('fill'))))],
              rings: [...new Set([...document.querySelectorAll('svg.an-chart circle:is(.mark-mistake, .mark-blunder)')].map((c) => getComputedStyle(c).stroke))]}; }""")
    assert colours["keys"] == colours["lines"], colours
    assert set(colours["dots"]) <= set(colours["keys"]) and colours["rings"] == ["rgb(255, 255, 255)"], colours
    # the chart names its players' colours (the marks' legend is a phone's)
    assert page.get_by_test_id("analysis-chart").locator(".an-legend").is_visible()
    assert page.get_by_test_id("analysis-summary").locator(".an-marks").is_hidden()
    # on a phone the summary fits ("Inaccuracies" had been cut, two columns off the screen):
    # its marks headed as chess writes them, the words said under it
    summary = page.get_by_test_id("analysis-summary")
    for size in ({"width": 360, "height": 640}, PHONE):  # (at 360 its "??" column had been cut)
        page.set_viewport_size(size)
        assert summary.evaluate("(s) => s.scrollWidth <= s.clientWidth"), summary.evaluate("(s) => [s.scrollWidth, s.clientWidth]")
    assert summary.locator(".an-mark-head .symbol").all_inner_texts() == ["?!", "?", "??"]
    assert summary.locator(".an-mark-head .word").evaluate_all("(ws) => ws.every((w) => w.offsetWidth <= 1)")
    assert summary.locator(".an-marks").inner_text().startswith({"en": "?! inaccuracies", "ru": "?! неточности"}[lang])
    shot(page, f"analysis-phone-{lang}")
    if AXE.exists():  # (test_a11y fails in CI without it)
        audit = Audit()
        audit(page, "the match page analysed, its marked moves listed")
        audit.check()
    if lang == "en":
        # asked again, the analysis done stays, its marks in the replay too, until the new one
        # replaces it (it had gone from the page, for everyone, for as long as that took)
        page.set_viewport_size(LAPTOP)
        rows = page.get_by_test_id("analysis-row").count()
        page.get_by_test_id("analysis-ask").click()
        status.filter(has_text=re.compile("Waiting for its turn|Analysing")).wait_for()
        assert page.get_by_test_id("analysis-row").count() == rows
        assert page.get_by_test_id("analysis-move").count() == len(marked)
        assert mark.inner_text().startswith(words[decision["mark"]])
        page.get_by_test_id("analysis-told").filter(has_text="ready").wait_for(timeout=240_000)
        assert page.get_by_test_id("analysis-row").count() == rows
    assert not page.errors


def test_an_analysis_refused_says_why_and_can_be_asked_for_again(live, new_page):
    match_id = httpx.get(f"{live.http}/api/matches", params={"status": "finished"}).json()["matches"][0]["id"]
    page = new_page()
    # the server's refusal as the address's limit gives it (the tests' server has no limits)
    page.route(f"**/api/matches/{match_id}/analysis", lambda route: route.fulfill(
        status=429, json={"code": "rate_limited", "reason": "limit_analyses", "params": {"seconds": 3135},
                          "message": "too many analyses"}) if route.request.method == "POST" else route.continue_())
    page.goto(f"{live.http}/matches/{match_id}")
    ask = page.get_by_test_id("analysis-ask")
    ask.click()
    status = page.get_by_test_id("analysis-status")
    status.filter(has_text="try again").wait_for()
    # (it had said "Something went wrong", the button gone until a reload)
    assert status.text_content() == "Too many analyses were asked for from your address; try again in 3135 s."
    assert ask.is_visible()
    assert [e for e in page.errors if "429" not in e] == []


def test_the_analysis_in_progress_shows_its_bar_moving_within_a_deal(slow_server, new_page):
    """A person waiting sees the analysis move, decision by decision (it had moved a deal at a
    time, "54 of 216" for 20 s: it seemed stuck), on a bar named by the words above it. (Until
    it has moved twice within a deal: the whole analysis at this quality takes a minute.)"""
    live, match_id = slow_server, slow_server.match_id
    path = f"{live.http}/api/matches/{match_id}/analysis"
    record = httpx.get(f"{live.http}/api/matches/{match_id}/record").json()
    sizes = [len(deal["actions"]) for deal in record["deals"]]
    boundaries = {sum(sizes[:n]) for n in range(len(sizes) + 1)}
    page = new_page(locale="ru-RU")
    page.goto(f"{live.http}/lang/ru?next=/matches/{match_id}")
    page.get_by_test_id("analysis-ask").click()
    bar = page.get_by_test_id("analysis-progress")
    bar.wait_for(timeout=60_000)
    running = r"Разбор: (\d+) из (\d+) ход"
    shown = []
    while len({*shown} - boundaries) < 2:
        assert bar.is_visible() and httpx.get(path, params={"result": "false"}).json()["status"] == "running", shown
        value, most, said = bar.evaluate("(b) => [b.value, b.max, document.getElementById(b.getAttribute('aria-labelledby')).textContent]")
        if shown and value != shown[-1]:
            assert re.match(running, said).groups() == (str(int(value)), str(int(most))), said
        if not shown or value != shown[-1]:
            shown.append(value)
            if len(shown) == 2:
                shot(page, "analysis-progress-ru")
                if AXE.exists():
                    audit = Audit()
                    audit(page, "the match page, its analysis under way", sizes={"laptop": LAPTOP})
                    audit.check()
        time.sleep(0.25)
    assert shown == sorted(shown), (shown, sizes)
    assert not page.errors


#: Each chart of the page: its class, the width it is shown at and the width its box has for it
#: (px).
CHART_WIDTHS = """() => [...document.querySelectorAll('.chart-box')].filter((b) => b.querySelector('svg')).map((box) => {
  const style = getComputedStyle(box), svg = box.querySelector('svg');
  return {chart: svg.getAttribute('class'), drawn: svg.getBoundingClientRect().width,
          room: box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)}; })"""


#: Resolved once the page has drawn two frames: a resize laid out in the first, its
#: ResizeObserver has run (100 ms had not always brought a slow host's next frame).
TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def analysed_now(live, match_id: int) -> None:
    """Ask for the match's analysis (kept if done) and wait until it is done."""
    path = f"{live.http}/api/matches/{match_id}/analysis"
    httpx.post(path)
    deadline = time.monotonic() + 240
    while httpx.get(path, params={"result": "false"}).json()["status"] != "done":
        assert time.monotonic() < deadline
        time.sleep(0.2)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_match_pages_charts_take_the_width_they_have(analysed_server, new_page, lang):
    """The running totals and the analysis chart as wide as the page's panel on a desktop (at
    700 and 640 they had used half of it), and on a phone still inside it, the analysis
    chart's labels drawn again at a size to read when the page is narrowed (and widened)."""
    live, match_id = analysed_server, analysed_server.match_id
    analysed_now(live, match_id)
    page = new_page(viewport={"width": 1280, "height": 800}, locale="ru-RU" if lang == "ru" else "en-GB")
    page.goto(f"{live.http}/lang/{lang}?next=/matches/{match_id}")
    page.get_by_test_id("analysis-row").first.wait_for()
    label = page.locator("svg.an-chart text.an-label").first
    for size in ({"width": 1280, "height": 800}, {"width": 390, "height": 844},
                 {"width": 360, "height": 640}, {"width": 1280, "height": 800}):
        page.set_viewport_size(size)
        page.evaluate(TWO_FRAMES)  # (a resize observed, the chart drawn again)
        charts = page.evaluate(CHART_WIDTHS)
        assert [c["chart"] for c in charts] == ["chart", "an-chart"], charts
        assert all(c["room"] - 2 <= c["drawn"] <= c["room"] + 0.5 for c in charts), (size, charts)
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), size
        assert 11 <= label.bounding_box()["height"] <= 18, (size, label.bounding_box())
    shot(page, f"analysis-charts-{lang}")
    assert not page.errors


def replay_page(live, new_page, lang: str):
    """The analysed match's page in ``lang``, its replay drawn (for showMark to be tried on)."""
    page = new_page(locale="ru-RU" if lang == "ru" else "en-GB")
    page.goto(f"{live.http}/lang/{lang}?next=/matches/{live.match_id}")
    page.get_by_test_id("replay-where").wait_for()
    return page


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_unmarked_cost_says_whether_it_is_counted(analysed_server, new_page, lang):
    """A cost too small to mark but counted says so, beside one within the margin of error
    that is not: "2.7 points lost" counted and "16.7 points lost … not counted" had read as if
    the small loss counted and the large one did not, for no reason. A bot's move for the
    player (the turn timer's, a stand-in's) is not theirs: not counted either."""
    page = replay_page(analysed_server, new_page, lang)
    said = page.evaluate("""async () => {
      const { showMark } = await import('/static/js/analysis.js');
      const frames = [{ deal: 0, action: null }, { deal: 0, action: { type: "play", card: "2C" }, seat: 0, deal_view: {} }];
      const line = document.createElement('p');
      const said = (d) => { showMark(line, { deals: [{ decisions: [{ index: 0, seat: 0, action: frames[1].action, ...d }] }] }, frames, 1, ["Anna"]); return line.textContent; };
      return [said({ cost: 0, significant: false, mark: null, exact: false }),
              said({ cost: 1.5, significant: true, mark: null, exact: false }),
              said({ cost: 9, significant: false, mark: null, exact: false }),
              said({ cost: 30, significant: true, mark: null, exact: false, by_bot: true })]; }""")
    expected = {"en": ["Analysis: the best choice", "Analysis: 1.5 points lost: counted, too few to mark",
                       "Analysis: 9.0 points lost, within the margin of error: not counted",
                       "Analysis: a bot's move for the player (the turn timer's or a stand-in's): not counted"],
                "ru": ["Анализ — лучший выбор", "Анализ — потеряно очков: 1,5 — в счёт, но меньше неточности",
                       "Анализ — потеряно очков: 9,0 — в пределах погрешности, не в счёт",
                       "Анализ — ход бота за игрока (по таймеру или на замене): не в счёт"]}[lang]
    assert said == expected


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_declarers_gives_are_marked_as_one_set(analysed_server, new_page, lang):
    """Big Mariage's three gives are one decision (docs/analysis.md): each give's step says the
    set's mark, and the better set by the give that differs (a give valued alone had been
    blamed for the others' loss)."""
    page = replay_page(analysed_server, new_page, lang)
    said = page.evaluate("""async () => {
      const { showMark } = await import('/static/js/analysis.js');
      const gives = [{ type: "give", card: "7C", to: 1 }, { type: "give", card: "8C", to: 3 }, { type: "give", card: "KH", to: 2 }];
      const frames = [{ deal: 0, action: null }, ...gives.map((action) => ({ deal: 0, action, seat: 0, deal_view: {} }))];
      const set = { index: 0, seat: 0, kind: "gives", action: gives, best: [gives[0], gives[1], { type: "give", card: "8S", to: 2 }],
                    choices: [], cost: 239.2, best_value: 129.5, value: -109.7, significant: true, mark: "blunder", exact: false };
      const result = { deals: [{ decisions: [set, { index: 1, seat: 0, kind: "give", action: gives[1], with: 0 },
                                                { index: 2, seat: 0, kind: "give", action: gives[2], with: 0 }] }] };
      const line = document.createElement('p');
      return [1, 2, 3].map((i) => { showMark(line, result, frames, i, ["Anna", "Boris", "Vera", "Gleb"]); return line.textContent; }); }""")
    expected = {"en": "Blunder: 239.2 points lost · better: 8♠ to Vera, the others as given · value 129.5 against −109.7 for the choice made",
                "ru": "Грубая ошибка — потеряно очков: 239,2 · лучше: 8♠ игроку Vera, остальные — как были · ценность 129,5 против −109,7 у сделанного выбора"}[lang]
    assert said == [expected] * 3


def test_a_phone_folds_a_long_list_of_marked_moves(analysed_server, new_page):
    """On a phone a list of more than eight marked moves comes folded under its heading (29 had
    put the chart and the replay 6,000 pixels down); on a desktop, and when short, unfolded."""
    live, match_id = analysed_server, analysed_server.match_id
    analysed_now(live, match_id)

    def marking(how_many: int):
        def fulfil(route):
            found = route.fetch().json()
            chosen = [d for deal in found["result"]["deals"] for d in deal["decisions"]
                      if "choices" in d][:how_many]
            for d in found["result"]["deals"][0]["decisions"]:
                d["mark"] = None
            for d in chosen:
                d["mark"] = "inaccuracy"
            route.fulfill(json=found)
        return fulfil

    for size, marks, unfolded in ((PHONE, 12, False), (LAPTOP, 12, True), (PHONE, 5, True)):
        page = new_page(size)
        page.route(f"**/api/matches/{match_id}/analysis", marking(marks))
        page.goto(f"{live.http}/matches/{match_id}")
        page.get_by_test_id("analysis-row").first.wait_for()
        assert page.get_by_test_id("analysis-move").count() >= marks
        assert page.locator(".an-marked details").evaluate("(d) => d.open") == unfolded, (size, marks)
        assert page.get_by_test_id("analysis-move").first.is_visible() == unfolded
