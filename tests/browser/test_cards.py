"""What every card on the pages shows is the card it is, in English and in Russian.

The expected faces and names are written here, on their own (not read from app/locales/*.json
nor from static/js/common.js), so that a wrong locale entry, a swapped suit symbol or a wrong
rank label fails: the corners (rank and suit), the pip, the red colour for hearts and diamonds
only and the spoken name (aria-label) of each card element (`.card[data-card]`), and the text
of each small text card (`.cardtext`), on a demo match's replay (all hands open, every step of
the match), its score sheet, and the live table's own hand, passing and received cards.
"""

from __future__ import annotations

import httpx
import pytest

from app.web import i18n

from .conftest import shot
from .test_tables import create_room, healthy, sit

pytestmark = pytest.mark.browser

LANGS = [("en", "en-GB"), ("ru", "ru-RU")]
RANKS = "23456789TJQKA"
SUITS = "SHDC"
SHOWN_RANK = {
    "en": {**{r: r for r in "23456789"}, "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"},
    "ru": {**{r: r for r in "23456789"}, "T": "10", "J": "В", "Q": "Д", "K": "К", "A": "Т"},
}
SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = {"H", "D"}
SPOKEN_RANK = {
    "en": {**{r: r for r in "23456789"}, "T": "10", "J": "jack", "Q": "queen", "K": "king",
           "A": "ace"},
    "ru": {"2": "двойка", "3": "тройка", "4": "четвёрка", "5": "пятёрка", "6": "шестёрка",
           "7": "семёрка", "8": "восьмёрка", "9": "девятка", "T": "десятка", "J": "валет",
           "Q": "дама", "K": "король", "A": "туз"},
}
SPOKEN_SUIT = {
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "ru": {"S": "пик", "H": "червей", "D": "бубён", "C": "треф"},
}
CODES = [r + s for s in SUITS for r in RANKS]


def spoken(card: str, lang: str) -> str:
    """"10 of diamonds", "десятка бубён"."""
    rank, suit = SPOKEN_RANK[lang][card[0]], SPOKEN_SUIT[lang][card[1]]
    return f"{rank} of {suit}" if lang == "en" else f"{rank} {suit}"


def text_card(card: str, lang: str) -> list:
    """A small text card as [its text, red?]: ["10♦", True], ["Д♠", False]."""
    return [SHOWN_RANK[lang][card[0]] + SYMBOL[card[1]], card[1] in RED]


def marriage_text(suit: str, points: int, lang: str) -> list:
    """A Big Mariage seat's marriage note: king and queen of the suit (each with its suit: "К♣Д"
    read as the king of clubs and a queen), then the points."""
    return [f"{SHOWN_RANK[lang]['K']}{SYMBOL[suit]}{SHOWN_RANK[lang]['Q']}{SYMBOL[suit]} {points}", suit in RED]


# What the page shows, as the reader sees it (innerText), of one card element.
FACE = """(c) => {
  const corner = (k) => { const x = c.querySelector(':scope > .corner.' + k);
    return x ? [x.querySelector('b') ? x.querySelector('b').innerText : null,
                x.querySelector('i') ? x.querySelector('i').innerText : null] : null; };
  const pip = c.querySelector(':scope > .pip');
  return {code: c.dataset.card ?? null, red: c.classList.contains('red'), corners: [corner('tl'), corner('br')],
          pip: pip ? pip.innerText : null, label: c.getAttribute('aria-label')};
}"""
FACES = "(els) => els.map(" + FACE + ")"  # for locator(...).evaluate_all
FACE_UP = ".card:not(.back)"
TEXTS = "(els) => els.map((e) => [e.innerText.trim(), e.classList.contains('red')])"


def face_faults(faces: list[dict], lang: str) -> list[str]:
    """Each face-up card against the table: corners, pip, colour and spoken name."""
    faults = []
    for f in faces:
        code = f["code"]
        if code not in CODES:
            faults.append(f"a face-up card with data-card={code!r}: {f}")
            continue
        rank, symbol = SHOWN_RANK[lang][code[0]], SYMBOL[code[1]]
        label = f["label"] or ""
        # the hand adds words after the name (", selected", ", received"...), so does a replayed
        # declarer's hand (", from the kitty"); a card in the trick says who played it first
        # ("Anna — 3 of spades, led")
        label = label.split(", ")[0].split(" — ")[-1]
        shown = {"corners": f["corners"], "pip": f["pip"], "red": f["red"], "label": label}
        want = {"corners": [[rank, symbol], [rank, symbol]], "pip": symbol,
                "red": code[1] in RED, "label": spoken(code, lang)}
        if shown != want:
            faults.append(f"{code} shows {shown}, not {want}")
    return faults


def card_texts(page, selector: str) -> list:
    return page.locator(selector).evaluate_all(TEXTS)


def known_text_cards(texts: list, lang: str) -> list[str]:
    """Small text cards whose code the page does not carry: each must read as some card."""
    reading = {tuple(text_card(c, lang)): c for c in CODES}
    return [f"{text!r} (red={red}) is no card in {lang}" for text, red in texts
            if (text, red) not in reading]


def assert_language(page, lang: str) -> None:
    assert page.evaluate("document.documentElement.lang") == lang
    # the strings the page's modules read (its JSON block) are that language's
    strings = page.evaluate("JSON.parse(document.getElementById('cardroom-strings').textContent)")
    assert strings == i18n.strings(lang)


# -- the match page: replay and score sheet --------------------------------------------------------

# Steps through every frame of the replay (the ▶ button), reading each one.
WALK = """(n) => {
  const face = """ + FACE + """;
  const read = (root) => [...root.querySelectorAll('.card:not(.back)')].map(face);
  const texts = (sel, root) => [...(root || document).querySelectorAll(sel)].map((e) => [e.innerText.trim(), e.classList.contains('red')]);
  const snap = () => ({
    step: Number(document.getElementById('rp-slider').value),
    faces: read(document.getElementById('replay')),
    action: texts('#rp-action .cardtext:not(.outcome *)'),
    outcome: texts('#rp-action .outcome .cardtext'),
    kitty: texts('#replay .kitty-cards .cardtext'),
    marriages: [...document.querySelectorAll('#replay .seat')].map((s) => [Number(s.dataset.seat), texts('.marriages .cardtext', s)]),
    trump: [...document.querySelectorAll('#replay .info .trump b')].map((b) => [b.innerText, b.closest('.trump').classList.contains('red')]),
    all: document.querySelectorAll('.cardtext').length,
  });
  const out = [snap()];
  for (let i = 1; i < n; i++) { document.getElementById('rp-next').click(); out.push(snap()); }
  return out;
}"""


def action_cards(action) -> list[str]:
    if not action:
        return []
    if action.get("cards"):
        return list(action["cards"])
    return [action["card"]] if action.get("card") else []


def sheet_cards(detail: dict) -> list[str]:
    """The cards the score sheet names, in its order: deals, then seats (spades taken in Black
    Maria, declared combinations in Marjolet; Big Mariage names none)."""
    out = []
    for deal in detail["deal_list"]:
        s = deal.get("summary")
        if not (deal.get("over") and s):
            continue
        if detail["game"] == "black_maria":
            out += [c for seat in s["spades"] for c in seat]
        elif detail["game"] == "marjolet":
            out += [c for seat in s["seats"] for combo in seat["combinations"] for c in combo["cards"]]
    return out


def demo_matches(live) -> dict[str, list[int]]:
    found = {}
    for m in httpx.get(live.http + "/api/matches", params={"status": "finished"}).json()["matches"]:
        found.setdefault(m["game"], []).append(m["id"])
    return found


def check_match_page(page, live, match_id: int, lang: str) -> tuple[set, int]:
    """Walk a finished match's replay and check every card it shows; returns the codes seen and
    the number of marriage notes checked."""
    detail = httpx.get(f"{live.http}/api/matches/{match_id}").json()
    frames = httpx.get(f"{live.http}/api/matches/{match_id}/replay").json()["frames"]
    page.goto(f"{live.http}/matches/{match_id}")
    page.wait_for_selector("#replay .seat")
    assert_language(page, lang)
    game = detail["game"]

    # the score sheet, in its order
    sheet = card_texts(page, "#deal-table .cardtext")
    assert sheet == [text_card(c, lang) for c in sheet_cards(detail)], (game, lang)

    shot(page, f"cards-{game}-replay-start-{lang}")
    snaps = page.evaluate(WALK, len(frames))
    assert [s["step"] for s in snaps] == list(range(len(frames))), "the replay did not step"
    seen, marriages = set(), 0
    for i, (frame, snap) in enumerate(zip(frames, snaps)):
        where = f"{game} match {match_id}, {lang}, step {i + 1}"
        faults = face_faults(snap["faces"], lang)
        assert not faults, f"{where}: {len(faults)} cards wrong, e.g. {faults[:3]}"
        seen |= {f["code"] for f in snap["faces"]}
        view = frame["deal_view"]
        if i == 0 or frame["action"] is None:  # a deal's start: every hand is open
            dealt = sorted(c for hand in view["hands"] for c in hand)
            shown = sorted(f["code"] for f in snap["faces"] if f["code"] != view.get("turn_up"))
            assert shown == dealt, f"{where}: the open hands are not the cards dealt"
        assert snap["action"] == [text_card(c, lang) for c in action_cards(frame["action"])], \
            f"{where}: {frame['action']}"
        # a deal's end in Black Maria says who took the queen of spades; the declarer's kitty,
        # while it gives, is named
        summary = detail["deal_list"][frame["deal"]]["summary"] if view["phase"] == "over" else None
        took = game == "black_maria" and summary and any("QS" in cards for cards in summary["spades"])
        assert snap["outcome"] == ([text_card("QS", lang)] if took else []), where
        kitty = view.get("kitty") if view["phase"] == "kitty" else None
        assert snap["kitty"] == [text_card(c, lang) for c in kitty or []], where
        want_marriages = [[s, [marriage_text(m["suit"], m["points"], lang)
                               for m in view.get("marriages") or [] if m["seat"] == s]]
                          for s, _ in snap["marriages"]]
        assert snap["marriages"] == want_marriages, where
        marriages += sum(len(texts) for _, texts in snap["marriages"])
        if snap["trump"]:
            assert snap["trump"] == [[SYMBOL[view["trump"]], view["trump"] in RED]], where
        # no small text card anywhere else on the page goes unchecked
        assert snap["all"] == len(sheet) + len(snap["action"]) + len(snap["outcome"]) + len(snap["kitty"]) + sum(
            len(texts) for _, texts in snap["marriages"]), f"{where}: unchecked .cardtext"
    return seen, marriages


@pytest.mark.parametrize("lang,locale", LANGS, ids=[lang for lang, _ in LANGS])
def test_replayed_cards_show_their_rank_suit_colour_and_name(live, new_page, lang, locale):
    page = new_page(locale=locale)
    matches = demo_matches(live)
    seen, marriages = set(), 0
    for game in ("black_maria", "marjolet", "big_mariage"):
        # a Big Mariage match whose replay shows marriages on the seats, else the first one
        ids = matches[game]
        if game == "big_mariage":
            ids = sorted(ids, key=lambda m: not any(
                f["deal_view"].get("marriages") for f in
                httpx.get(f"{live.http}/api/matches/{m}/replay").json()["frames"]))
        codes, n = check_match_page(page, live, ids[0], lang)
        if game == "black_maria":  # its pack: 52 cards less the 2 of clubs, all open at the start
            assert codes == set(CODES) - {"2C"}
        seen |= codes
        marriages += n
    assert {c[0] for c in seen} == set(RANKS) and {c[1] for c in seen} == set(SUITS)
    assert marriages > 0, "no marriage note was checked"
    healthy(page)


# -- the live table: the own hand, the cards passed and received ------------------------------------

@pytest.mark.parametrize("lang,locale", LANGS, ids=[lang for lang, _ in LANGS])
def test_own_hand_and_passed_cards_show_their_rank_suit_colour_and_name(live, new_page, lang, locale):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page(locale=locale)
    sit(page, live, code, "Anna", 0)
    page.wait_for_selector("[data-testid=pass-button]")
    assert_language(page, lang)
    hand = page.evaluate("window.cardroomTable.state.match.deal.hands[0]")
    faces = page.locator(".hand-row .card").evaluate_all(FACES)
    assert [f["code"] for f in faces] == hand and len(hand) == 17
    assert not face_faults(faces, lang), face_faults(faces, lang)[:3]

    # the three chosen, in the order chosen, in the line above the pass button
    chosen = []
    for i in (0, 5, 10):
        card = page.locator(".hand-row .card.playable").nth(i)
        chosen.append(card.get_attribute("data-card"))
        card.click()
        page.wait_for_selector(f".hand-row .card.selected[data-card='{chosen[-1]}']")
    assert card_texts(page, "#actions .pass-chosen .cardtext") == [text_card(c, lang) for c in chosen]
    page.click("[data-testid=pass-button]")
    page.wait_for_selector("[data-testid=received] .cardtext")
    received = page.evaluate("window.cardroomTable.state.match.deal.received[0]")
    assert card_texts(page, "[data-testid=received] .cardtext") == [text_card(c, lang) for c in received]
    page.wait_for_function("document.querySelectorAll('.hand-row .card.received').length === 3")
    shot(page, f"cards-black-maria-hand-{lang}")

    # everything face up on the page now: the hand (the received ones marked), any trick
    faces = page.locator(FACE_UP).evaluate_all(FACES)
    assert len(faces) >= 17
    assert not face_faults(faces, lang), face_faults(faces, lang)[:3]
    assert not known_text_cards(card_texts(page, ".cardtext"), lang)
    healthy(page)
