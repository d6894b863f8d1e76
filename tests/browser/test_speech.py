"""A player with a keyboard and a screen reader: where the focus goes when what it was on goes
away, what the live region says as the game goes on, the menus, the single-key shortcuts, forced
colours (see conftest.py for the set-up)."""

from __future__ import annotations

import re

import pytest

from .conftest import LAPTOP, fresh_name
from .test_tables import (
    Watch,
    act,
    create_room,
    healthy,
    my_turn,
    pass_or_play,
    play_first_legal,
    sit,
    state,
    wait_state,
)

pytestmark = pytest.mark.browser

# Every sentence the live region says, in order (it is written at once, several sentences of a
# moment together).
SAID_LOG = """
window.said = [];
addEventListener('DOMContentLoaded', () => {
  const box = document.getElementById('announce');
  if (box) new MutationObserver(() => { if (box.textContent) window.said.push(box.textContent); })
    .observe(box, { childList: true, characterData: true, subtree: true });
});
"""

FOCUS = """() => { const a = document.activeElement;
  return a === document.body || !a ? 'body' : (a.closest('#hand, #actions, #result') || {id: a.id || a.tagName}).id; }"""


def said(page) -> str:
    return " | ".join(page.evaluate("window.said"))


def press(page, selector: str) -> None:
    """Focus a control and press Enter on it, as the keyboard does; wait for the answer."""
    before = page.evaluate("window.cardroomTable.seq")
    page.focus(selector)
    page.keyboard.press("Enter")
    page.wait_for_function("(b) => window.cardroomTable.seq !== b", arg=before)
    healthy(page)


def focus_lands(page, what: str) -> str:
    """Where the focus is once the page has drawn what came: never the page's body."""
    try:
        page.wait_for_function(f"({FOCUS})() !== 'body'", timeout=5000)
    except Exception:
        raise AssertionError(f"the focus fell to the page's body after {what}") from None
    return page.evaluate(FOCUS)


def test_marjolet_window_by_keyboard_keeps_the_focus_and_is_said(paused, new_page):
    code = create_room(paused, "marjolet", ["open", "bot:rules"], {"target": 5000})
    page = new_page()
    page.add_init_script(SAID_LOG)
    sit(page, paused, code, "Anna", 0)
    pressed = []
    watch = Watch([page], 120, "Marjolet's windows by keyboard")
    while len(pressed) < 4 or "draw" not in pressed:
        watch(str(pressed))
        if page.locator("[data-testid=draw]").count():
            # the window's first button: a declaration or the exchange while there is one
            button = page.locator("#actions button").first
            testid = button.get_attribute("data-testid")
            press(page, f"#actions button[data-testid={testid}]")
            pressed.append(testid)
            where = focus_lands(page, f"{testid} pressed")
            # a window still open keeps the focus among its buttons
            if page.locator("[data-testid=draw]").count():
                assert where == "actions", (testid, where)
        elif page.locator("[data-testid=next-deal]").count():
            act(page, page.locator("[data-testid=next-deal]"))
        elif my_turn(page):
            play_first_legal(page)
        else:
            page.wait_for_timeout(30)
    assert re.search(r"You won the trick: (declare|exchange|draw)", said(page)), said(page)
    # a declaration is said with what it scored ("K♠ Q♠" alone had not said whether it was the
    # trumps' king and queen, 40, or a marriage, 20), hers and the bot's
    if any(testid.startswith("declare") for testid in pressed):
        assert re.search(r"Anna declares [^.]+ — [^.]+ \+\d+\.", said(page)), said(page)
    for found in re.finditer(r"Bot 2 declares [^.]+\.", said(page)):
        assert re.search(r" — [^.]+ \+\d+\.$", found.group()), found.group()
    healthy(page)


def test_marjolet_the_card_drawn_and_the_strict_play_are_said(paused, new_page):
    """The card a draw brings is said by its name (the hand grew by it, unmarked, and only "Your
    turn" was said), and the end phase's rule once as it begins (it had only been shown)."""
    code = create_room(paused, "marjolet", ["open", "bot:rules"], {"target": 5000})
    page = new_page()
    page.add_init_script(SAID_LOG)
    sit(page, paused, code, "Anna", 0)
    watch = Watch([page], 120, "a Marjolet deal to its strict play")
    while not (state(page)["match"]["deal"].get("end_phase") and "strict play" in said(page)):
        watch(said(page)[-300:])
        if page.locator("[data-testid=draw]").count():
            act(page, page.locator("[data-testid=draw]"))
        elif my_turn(page):
            play_first_legal(page)
        else:
            page.wait_for_timeout(30)
    text = said(page)
    assert len(re.findall(r"You draw (seven|eight|nine|ten|jack|queen|king|ace) of (spades|hearts|diamonds|clubs)\.", text)) >= 2, text
    assert text.count("Stock exhausted: strict play! Follow suit and head the trick") == 1, text
    # the trumps are said with the deal, by the card turned up (they had been on the felt alone)
    turn_up = state(page)["match"]["deal"]["turned_up"]
    suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[turn_up[1]]
    assert re.search(rf"A new deal\. Trumps: {suit}; the turn-up is the \w+ of {suit}\.", text), text
    while my_turn(page) or state(page)["match"]["deal"]["tricks_played"] < 12:  # two tricks more
        watch(said(page)[-300:])
        if not (my_turn(page) and play_first_legal(page)):
            page.wait_for_timeout(30)
    assert said(page).count("strict play!") == 1, said(page)  # (once a deal, not once a trick)
    healthy(page)


def test_black_maria_pass_by_keyboard_then_what_came_is_said(live, new_page):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page({"width": 1280, "height": 720}, locale="ru-RU")  # (17 cards overlap)
    page.add_init_script(SAID_LOG)
    page.goto(f"{live.http}/lang/ru?next=/r/{code}")
    page.fill("#seat-name", "Анна")
    page.check("[data-testid=seat-guest]")
    page.click("[data-testid=take-seat-0]")
    page.wait_for_selector("[data-testid=pass-button]")
    # one region named for her hand, its row unnamed (it had been said twice); a spectator has
    # no hand and no moves
    assert page.get_attribute("#hand", "aria-label") == "Ваши карты" and page.locator("#hand [aria-label='Ваши карты']").count() == 0
    watcher = new_page()
    watcher.goto(f"{live.http}/r/{code}")
    watcher.wait_for_selector(".watching")
    assert watcher.get_attribute("#hand", "aria-label") is None and watcher.get_attribute("#actions", "aria-label") is None
    # the other hands: one picture each, named by the count
    assert page.locator(".seat-cards[role=img]").evaluate_all(
        "ws => ws.map(w => w.getAttribute('aria-label'))") == ["17 карт рубашкой вверх"] * 2
    page.focus(".hand-row .card:first-child")
    for i in range(3):
        if i:
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
    press(page, "[data-testid=pass-button]")
    assert focus_lands(page, "the pass") == "hand"  # (the button went; the cards to play are next)
    wait_state(page, "s.match.deal.phase === 'play'")
    # the card raised by the focus covers no neighbour's corner (a card just received had shown
    # only as its star)
    page.wait_for_timeout(400)  # (raised: a transition)
    assert page.evaluate(CORNERS_COVERED) == []
    received = state(page)["match"]["deal"]["received"][0]
    page.wait_for_function("window.said.join(' ').includes('Вы получили')")
    text = said(page)
    # the cards by their names, not "К♠"
    assert re.search(r"Вы получили от игрока Бот 2: \w+ (пик|червей|бубён|треф)", text), text
    assert len(received) == 3 and "♠" not in text.split("Вы получили")[1], text
    if state(page)["match"]["moves"].get("play"):  # to lead: the turn is said again, now to play
        # (said a moment after the state is drawn: the live region is written after the drawing)
        page.wait_for_function("window.said.join(' | ').split('Выберите 3 карты')[1].includes('Ваш ход')")
    # a card written small is read by its name too ("Т♥" had been read as a letter and a sign)
    cards = page.locator("[data-testid=received] .cardtext").evaluate_all(
        "cs => cs.map(c => [c.getAttribute('role'), c.getAttribute('aria-label'), c.dataset.card])")
    assert [(role, card) for role, _, card in cards] == [("img", card) for card in received], cards
    assert all(re.fullmatch(r"\w+ (пик|червей|бубён|треф)", name) for _, name, _ in cards), cards
    healthy(page)


def test_big_mariage_the_others_bids_are_said(live, new_page):
    code = create_room(live, "big_mariage", ["open", "bot:rules", "bot:rules", "bot:rules"])
    page = new_page()
    page.add_init_script(SAID_LOG)
    sit(page, live, code, "Anna", 0)
    watch = Watch([page], 90, "Big Mariage: the bids said, then a card given her and four tricks")
    while not (re.search(r"Bot \d (bids \d+|passes)", said(page)) and given_and_played(page)):
        watch(said(page))
        if page.locator("[data-testid=bidbox] [data-testid=pass-button]").count():
            act(page, page.locator("[data-testid=bidbox] [data-testid=pass-button]"))
        elif page.locator("[data-testid=next-deal]").count():
            act(page, page.locator("[data-testid=next-deal]"))
        elif my_turn(page):
            play_first_legal(page)
        else:
            page.wait_for_timeout(50)
    # the card given her is said as it comes, by its event (it had been said again at every trick)
    text = said(page)
    assert len(re.findall(r"gives to Anna \w", text)) >= 1 and "gave you" not in text, text
    # the marriages declared once the contract was fixed are said, or that there are none (they
    # had been shown on the seats alone, as "K♥Q♥ 100")
    names, suits = ["Anna", "Bot 2", "Bot 3", "Bot 4"], {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    declared = state(page)["match"]["deal"]["marriages"]
    for m in declared:
        assert f"{names[m['seat']]} — marriage in {suits[m['suit']]}, {m['points']}" in text, text
    assert ("Marriage declared: " in text or "Marriages declared: " in text) if declared \
        else "No marriages declared." in text, text
    if declared:  # and read so on the seat
        assert page.locator(".seat .marriages [role=img]").first.get_attribute("aria-label").startswith("marriage in ")
    healthy(page)


def test_big_mariage_a_redraw_keeps_the_focus_on_the_bid_stepper_and_what_is_typed(live, new_page):
    code = create_room(live, "big_mariage", ["open", "bot:rules", "bot:rules", "bot:rules"])
    page = new_page()
    sit(page, live, code, "Anna", 0)
    watch = Watch([page], 60, "Big Mariage: Anna's bid")
    while not page.locator("[data-testid=bid-button]").count():
        watch()
        if page.locator("[data-testid=next-deal]").count():
            act(page, page.locator("[data-testid=next-deal]"))
        elif my_turn(page):  # (a deal where she cannot bid: played on to the next)
            play_first_legal(page)
        else:
            page.wait_for_timeout(50)
    low = int(page.input_value("[data-testid=bid-value]"))
    # each step says what it does, heard alone; the lowest bid's "−5" says it can go no lower
    names = page.locator(".stepper button").evaluate_all("bs => bs.map(b => [b.getAttribute('aria-label'), b.getAttribute('aria-disabled')])")
    assert names == [["Lower the bid by 5", "true"], ["Raise the bid by 5", "false"], ["Raise the bid by 20", "false"]], names
    assert page.get_attribute("[data-testid=bid-button]", "aria-describedby") == "bid-value"
    page.focus("[data-testid=bid-value-up]")
    page.keyboard.press("Enter")
    assert page.get_attribute("[data-testid=bid-value-down]", "aria-disabled") == "false"
    drawn_anew(page)
    page.wait_for_function("document.activeElement.dataset.testid === 'bid-value-up'")
    # (it had landed on "−5": Space pressed again would have lowered the bid)
    page.keyboard.press("Enter")
    assert int(page.input_value("[data-testid=bid-value]")) == low + 10
    # a bid typed: what is half typed is marked, with the range, not sent, and kept (with its
    # caret) through a redraw; Enter sends it once it is one
    page.fill("[data-testid=bid-value]", "3")
    assert page.get_attribute("[data-testid=bid-value]", "aria-invalid") == "true"
    assert page.get_attribute("[data-testid=bid-button]", "aria-disabled") == "true"
    assert page.text_content("#bid-value-range") == f"From {low} to 400, in fives"
    assert page.is_visible("#bid-value-range")
    # the bid button keeps its place in the focus order (disabled, Tab had gone on to "Pass"),
    # says it cannot be sent and sends nothing
    tabs = []
    for _ in range(3):
        page.keyboard.press("Tab")
        tabs.append(page.evaluate("document.activeElement.dataset.testid"))
    assert tabs == ["bid-value-up", "bid-value-up20", "bid-button"], tabs
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert not any(s == 0 for s, _ in state(page)["match"]["deal"]["bids"])
    page.focus("[data-testid=bid-value]")
    page.evaluate("() => { const i = document.querySelector('[data-testid=bid-value]'); i.setSelectionRange(1, 1); }")
    drawn_anew(page)
    page.wait_for_function("document.activeElement.dataset.testid === 'bid-value'")
    assert page.input_value("[data-testid=bid-value]") == "3"
    page.keyboard.type("40")
    assert page.get_attribute("[data-testid=bid-value]", "aria-invalid") == "false"
    assert not page.is_visible("#bid-value-range")
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.cardroomTable.state.match.deal.bids.some(([s, b]) => s === 0 && b === 340)")
    healthy(page)


def drawn_anew(page):
    """A welcome, the table drawn anew from it (the bid button is a new one: a bid sent before
    the welcome would have been refused as sent with no connection)."""
    # (marked after the redraw that says the link is down)
    page.evaluate("window.cardroomTable.reconnectNow(); document.querySelector('[data-testid=bid-button]').dataset.old = 'yes'")
    page.wait_for_function("() => { const b = document.querySelector('[data-testid=bid-button]');"
                           " return b && !b.dataset.old && document.getElementById('conn').dataset.status === 'online'; }")


#: The hand's cards whose corner (rank and suit) is under another card.
CORNERS_COVERED = """() => [...document.querySelectorAll('.hand-row .card')].filter((card) => {
  const r = card.getBoundingClientRect(), on = document.elementFromPoint(r.left + 6, r.top + 12);
  return !on || on.closest('.card') !== card; }).map((c) => c.dataset.card)"""

def test_a_card_under_the_pointer_covers_no_neighbours_corner(live, new_page):
    """A card chosen to pass, the pointer resting on it, is raised under its right-hand neighbour:
    on top, it had hidden the next card's rank while one chose."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page({"width": 1440, "height": 900})
    sit(page, live, code, "Anna", 0)
    page.wait_for_selector("[data-testid=pass-button]")
    card = page.locator(".hand-row .card.playable").nth(4)
    card.click()  # (chosen, and the pointer stays on it)
    page.wait_for_timeout(300)  # (raised: a transition)
    assert "selected" in card.get_attribute("class")
    assert page.evaluate(CORNERS_COVERED) == []
    healthy(page)


ACTIVE = "() => { const a = document.activeElement; return [a.dataset.testid || '', a.classList.contains('playable')]; }"

# Not her turn: the focus kept on a card that cannot be moved now, the last of her hand. In one
# step with the look at the status (a slow host had drawn her turn, and its focus move, between
# the two, and the test's focus had then undone the page's).
HOLD_THE_LAST_CARD_UNTIL_MY_TURN = """() => {
  if (document.querySelector("[data-testid=status].yours")) return false;
  const last = document.querySelector(".hand-row .card:last-child");
  if (last && document.activeElement.dataset.testid !== "bid-button") last.focus();
  return true;
}"""

def test_a_turn_takes_the_focus_from_the_hand_to_what_it_asks(live, new_page):
    """A keyboard in the hand when a turn begins: the bid's turn takes it to the bid (the controls
    are above the hand: it had been 16 tabs away, nothing said), and a card's turn to a card that
    can be played (it had often begun on one that "cannot be played now")."""
    code = create_room(live, "big_mariage", ["open", "bot:rules", "bot:rules", "bot:rules"])
    page = new_page()
    sit(page, live, code, "Anna", 0)
    watch = Watch([page], 90, "Big Mariage: Anna's bid, then her cards played by keyboard")
    bids = plays = 0
    while bids < 1 or plays < 3:
        watch(f"{bids} bids, {plays} cards")
        if page.locator("[data-testid=next-deal]").count():
            act(page, page.locator("[data-testid=next-deal]"))
            continue
        if page.evaluate(HOLD_THE_LAST_CARD_UNTIL_MY_TURN):
            page.wait_for_timeout(30)
            continue
        page.wait_for_timeout(100)  # (the page's own focus move, drawn with the state)
        if page.locator("[data-testid=bid-button]").count():
            assert page.evaluate(ACTIVE) == ["bid-button", False]
            press(page, "[data-testid=bidbox] [data-testid=pass-button]")
            bids += 1
        elif (state(page)["match"]["moves"] or {}).get("play"):
            assert page.evaluate(ACTIVE)[1], "a turn begun on a card that cannot be played"
            # the card raised by the focus covers no neighbour's corner (the Q♠ just received
            # had shown only as its star)
            assert page.evaluate(CORNERS_COVERED) == []
            plays += play_first_legal(page)
        else:
            page.wait_for_timeout(30)
    healthy(page)


#: The trick as the state has it and its cards as the page reads them, in one step (a bot's
#: third card had closed the trick between the look at the state and the look at the page).
TRICK_AND_ITS_LABELS = """() => { const deal = window.cardroomTable.state?.match?.deal;
  return [deal?.trick || [], [...document.querySelectorAll('#trick .card')].map((c) => c.getAttribute('aria-label'))]; }"""


def test_a_seats_letters_and_the_tricks_cards_are_read_by_what_they_mean(live, new_page):
    """A seat's "D" and "A" are read as "dealer" and "team A" (bare letters had been read), and a
    card in the trick by who played it and whether it was led ("3 of diamonds" alone)."""
    code = create_room(live, "big_mariage", ["open", "bot:rules", "bot:rules", "bot:rules"])
    page = new_page()
    sit(page, live, code, "Anna", 0)
    wait_state(page, "s.match.deal")
    dealer = state(page)["match"]["deal"]["dealer"]
    read = page.locator(f"[data-testid=seat-{dealer}] .nameplate").aria_snapshot()
    team = f"team {'AB'[dealer % 2]}"
    assert "dealer" in read and team in read and not re.search(r"\b[DAB]\b", read.replace(team, "")), read
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    sit(page, live, code, "Anna", 0)
    watch = Watch([page], 60, "Black Maria: a trick with two cards")
    while len((seen := page.evaluate(TRICK_AND_ITS_LABELS))[0]) < 2:
        watch()
        if not pass_or_play(page):
            page.wait_for_timeout(20)
    trick, labels = seen
    names = ["Anna", "Bot 2", "Bot 3"]
    assert labels[0].startswith(f"{names[trick[0][0]]} — ") and labels[0].endswith(", led"), labels
    assert labels[1].startswith(f"{names[trick[1][0]]} — ") and "led" not in labels[1], labels
    healthy(page)


def given_and_played(page) -> bool:
    deal = state(page)["match"]["deal"]
    return any(g.get("to") == 0 and g.get("card") for g in deal.get("gives") or []) \
        and len(deal.get("played") or []) >= 16


def test_a_trick_won_then_ones_lead_says_your_turn(live, new_page):
    """A trick one wins and leads after, a turn that follows one's own card at once: "Your turn"
    is said after the trick's winner, as every other turn (it had been said only when what the
    turn asked changed)."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page()
    page.add_init_script(SAID_LOG)
    sit(page, live, code, "Anna", 0)
    watch = Watch([page], 90, "a trick Anna wins, then her lead")
    def won_with_the_last_card() -> bool:  # (her turn never paused between the two)
        last = (state(page)["match"]["deal"] or {}).get("last_trick") or {}
        return last.get("winner") == 0 and last["cards"][-1][0] == 0

    while not (won_with_the_last_card() and my_turn(page) and not state(page)["match"]["deal"]["trick"]):
        watch()
        page.evaluate("window.said = []")
        if not pass_or_play(page, last=False):
            page.wait_for_timeout(30)
    page.wait_for_function("window.said.join(' ').includes('You take the trick')")
    page.wait_for_function("window.said.join(' ').split('You take the trick')[1].includes('Your turn')")
    healthy(page)


def test_the_last_trick_shown_is_said(live, new_page):
    """L (or its button) shows the last trick on the felt and says it: who played which card,
    who took it (it had said nothing, the focus staying in the hand)."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page()
    page.add_init_script(SAID_LOG)
    sit(page, live, code, "Anna", 0)
    watch = Watch([page], 60, "a first trick played")
    while not ((state(page)["match"]["deal"] or {}).get("last_trick") and my_turn(page)):
        watch()  # (her turn: nothing moves while she reads the last trick)
        if not pass_or_play(page):
            page.wait_for_timeout(30)
    last = state(page)["match"]["deal"]["last_trick"]
    page.focus(".hand-row .card:first-child")
    page.keyboard.press("l")
    names = ["Anna", "Bot 2", "Bot 3"]
    page.wait_for_function("window.said.join(' ').includes('Last trick:')")
    text = said(page).split("Last trick: ")[1]
    assert text.startswith(", ".join(f"{names[seat]} — " for seat, _ in last["cards"][:1])), text
    assert all(f"{names[seat]} — " in text for seat, _ in last["cards"]), text
    assert f"taken by {names[last['winner']]}." in text, text
    healthy(page)


def test_a_seat_taken_by_keyboard_keeps_the_focus_at_the_table(live, new_page):
    """The seat's form goes once the seat is taken: the focus goes on to the hand (it had fallen
    to the page's body, back at the top of the page), another seat still open (the form drawn
    again on the way)."""
    code = create_room(live, "black_maria", ["open", "open", "bot:rules"])
    page = new_page()
    page.goto(f"{live.http}/r/{code}")
    page.fill("#seat-name", fresh_name("Anna"))
    page.check("[data-testid=seat-guest]")
    page.focus("[data-testid=take-seat-0]")
    page.keyboard.press("Enter")
    page.wait_for_selector(".seat.me[data-seat='0']")
    # the match waits for seat 2: the focus is on the bots offered for it
    assert focus_lands(page, "a seat taken") == "actions"
    assert page.evaluate("document.activeElement.dataset.testid") == "standin-free-open"
    healthy(page)


def test_the_first_tab_offers_to_skip_to_the_game_or_the_content(live, new_page):
    """Tab's first stop is a link past the bar's links and tools, seen once it has the focus: at
    a table to the seat's form, or once seated to what the deal asks; elsewhere to the page's
    content (ten stops had come before a card)."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page()

    def skip():
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "skip-link"
        assert page.locator("#skip-link").bounding_box()["y"] >= 0  # (out of sight until then)
        page.keyboard.press("Enter")

    page.goto(f"{live.http}/r/{code}")
    page.wait_for_selector("#join-panel:not([hidden])")
    assert page.locator("#skip-link").bounding_box()["y"] < 0
    assert page.text_content("#skip-link") == "Skip to the game"
    skip()
    assert page.evaluate("document.activeElement.id") == "seat-name"
    sit(page, live, code, "Anna", 0)
    page.wait_for_selector("#hand .card.playable")
    page.reload()
    page.wait_for_selector("#hand .card.playable")
    skip()
    assert page.evaluate(FOCUS) == "hand"  # (Black Maria's pass: no move before three cards)
    # on a phone, with the score sheet over the table: it closes, and the focus is in the hand
    # (the hand under the sheet had been out of reach, and the link did nothing)
    page.set_viewport_size({"width": 390, "height": 844})
    page.click("[data-testid=sheet-tab]")
    page.focus("#skip-link")
    page.keyboard.press("Enter")
    assert page.evaluate("document.getElementById('table-app').dataset.panel") == ""
    assert page.evaluate(FOCUS) == "hand"
    # seated at a table still waiting for a friend: to the bots offered for the free seat (it
    # had gone to the felt, which says nothing to do)
    waiting = create_room(live, "black_maria", ["open", "open", "bot:rules"])
    sit(page, live, waiting, "Anna", 0)
    page.wait_for_selector("[data-testid=standin-free-open]")
    page.focus("#skip-link")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.testid") == "standin-free-open"
    page.goto(f"{live.http}/history")
    assert page.text_content("#skip-link") == "Skip to the content"
    skip()
    page.keyboard.press("Tab")  # on from the content's top: its first control, not the bar's
    assert page.evaluate("document.activeElement.closest('main') !== null")
    healthy(page)


def test_a_panel_over_the_table_takes_what_it_covers_out_of_reach(live, new_page):
    """On a phone, the score sheet or the chat opened over the table: Tab goes nowhere under it
    (it had gone on into the hidden hand, and Enter chosen a card nobody saw); S pressed on a
    card takes the focus into the sheet, and the table is back when it closes."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page({"width": 640, "height": 400})
    sit(page, live, code, "Anna", 0)
    page.wait_for_selector("[data-testid=pass-button]")
    page.focus(".hand-row .card:first-child")
    page.keyboard.press("s")
    assert page.get_attribute("#toggle-sheet", "aria-expanded") == "true"
    assert page.evaluate("document.activeElement.id") == "sheet"
    for _ in range(12):
        page.keyboard.press("Tab")
        where = page.evaluate("document.activeElement.closest('#felt, #actions, #hand, #result, .topbar')?.id ?? null")
        assert where is None, f"the focus went under the sheet: {where}"
    # and stays so when the table is drawn again under it (a new welcome)
    page.evaluate("window.cardroomTable.reconnectNow()")
    page.wait_for_selector("#conn[data-status=online]")
    assert page.evaluate("document.getElementById('hand').inert"), "the hand within reach under the sheet"
    page.keyboard.press("Escape")
    assert page.evaluate("document.getElementById('hand').inert") is False
    # S and Escape at once: the card it was on has the focus back (it had fallen to the body)
    page.focus(".hand-row .card:nth-child(2)")
    page.keyboard.press("s")
    assert page.evaluate("document.activeElement.id") == "sheet"
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.matches('.hand-row .card:nth-child(2)')")
    # a panel opened by its tab and Tabbed into: closed, the focus is on its tab again
    page.focus("#toggle-sheet")
    page.keyboard.press("Enter")
    page.focus("#sheet")
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.id") == "toggle-sheet"
    healthy(page)


def test_lobby_a_table_made_moves_the_focus_to_its_link(live, new_page):
    page = new_page()
    page.goto(live.http + "/")
    page.check("input[value=marjolet]")
    page.fill("#create-name", fresh_name("Anna"))
    page.focus("#create-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#created:not([hidden])")
    # (the form the focus was in is hidden: the focus had fallen to the page's body)
    assert page.evaluate("document.activeElement.id") == "created-title"
    code = page.text_content("#created-code")
    # the table just made is among the open ones at once (it had waited for the next refresh)
    page.locator("#open-rooms", has_text=code).wait_for(timeout=3000)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "invite-link"
    # the link copied is said (the button's new words had not been read), then offered again
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    # (waited for: the copy is the clipboard's promise, answered after the key on a busy host)
    page.wait_for_function("document.querySelector('[data-testid=copy-said]').textContent === 'Copied!'", timeout=5000)
    page.wait_for_function("document.getElementById('copy-link').textContent === 'Copy the link'", timeout=5000)


def test_a_touch_phone_is_offered_no_keys_to_turn_off(live, new_page):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page({"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page.goto(f"{live.http}/r/{code}")
    page.fill("#seat-name", fresh_name("Anna"))
    page.click("[data-testid=take-seat-0]")
    page.wait_for_selector("[data-testid=pass-button]")
    page.click("[data-testid=menu-button]")
    assert page.locator("#opt-sound").is_visible()
    assert not page.locator("[data-testid=opt-keys]").is_visible()  # ("Keys L and S", on a phone)


def test_settings_turn_the_single_keys_off_and_menus_close_as_menus(live, new_page):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page()
    page.goto(f"{live.http}/r/{code}")
    page.fill("#seat-name", fresh_name("Anna"))
    page.click("[data-testid=take-seat-0]")
    page.wait_for_selector("[data-testid=pass-button]")
    assert page.get_attribute("#toggle-sheet", "aria-keyshortcuts") == "S"
    page.keyboard.press("s")  # on: S takes the focus to the score sheet (beside the table here)
    assert page.evaluate("document.activeElement.id") == "sheet"
    page.set_viewport_size({"width": 390, "height": 844})  # on a phone, it opens it and again closes it
    page.keyboard.press("s")
    assert page.get_attribute("#toggle-sheet", "aria-expanded") == "true"
    page.keyboard.press("s")
    assert page.get_attribute("#toggle-sheet", "aria-expanded") == "false"
    page.set_viewport_size(LAPTOP)
    page.click("[data-testid=menu-button]")
    # a phone held sideways has no top bar: the site's pages are in the menu too
    links = page.locator("#table-menu a").all_text_contents()
    assert {"History", "Standings", "Русский"} <= set(links), links
    heights = page.locator("#table-menu a").evaluate_all("as => as.map(a => a.getBoundingClientRect().height)")
    assert min(heights) >= 24, heights  # (to touch: they had been 19 px high)
    page.uncheck("[data-testid=opt-keys]")
    # the menu closes when the focus leaves it
    page.focus("[data-testid=opt-keys]")
    page.focus(".hand-row .card:first-child")
    assert page.locator("#table-menu").is_hidden()
    page.keyboard.press("s")  # (WCAG 2.1.4: a letter typed, by voice for one, does nothing)
    assert page.get_attribute("#toggle-sheet", "aria-expanded") == "false"
    assert page.evaluate("document.activeElement.id") != "sheet"
    assert page.get_attribute("#toggle-sheet", "aria-keyshortcuts") is None
    page.reload()
    page.wait_for_selector("[data-testid=pass-button]")
    page.keyboard.press("s")
    assert page.evaluate("document.activeElement.id") != "sheet"  # (remembered)
    # the identity menu closes with Escape, and with a click elsewhere
    page.click("[data-testid=me-name]")
    assert page.locator(".me-menu").evaluate("d => d.open")
    page.keyboard.press("Escape")
    assert not page.locator(".me-menu").evaluate("d => d.open")
    assert page.evaluate("document.activeElement.dataset.testid") == "me-name"
    page.click("[data-testid=me-name]")
    page.click("#felt")
    assert not page.locator(".me-menu").evaluate("d => d.open")
    healthy(page)


def test_forced_colours_still_show_the_chosen_cards(live, new_page):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page(forced_colors="active")
    sit(page, live, code, "Anna", 0)
    page.wait_for_selector("[data-testid=pass-button]")
    page.locator(".hand-row .card").first.click()
    # the gold ring is a shadow, which forced colours take away: an outline stays
    look = page.evaluate("""() => { const st = getComputedStyle(document.querySelector('.hand-row .card.selected'));
        return [st.outlineStyle, parseFloat(st.outlineWidth)]; }""")
    assert look[0] == "solid" and look[1] >= 2, look
    healthy(page)


def test_black_maria_deal_end_is_said_with_who_took_the_queen(paused, new_page):
    """The deal's end said: who took the queen, the points, and that the next deal comes by
    itself and when, and how to keep the result open (a screen reader reading its details had
    not known it would close); on the way each sentence said ends ("Your turn Choose 3 cards"
    had run on), and cards said together are parted by commas."""
    code = create_room(paused, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page()
    page.add_init_script(SAID_LOG)
    sit(page, paused, code, "Anna", 0)
    watch = Watch([page], 60, "a Black Maria deal to its end")
    while not page.locator("[data-testid=next-deal]").count():
        watch()
        if not pass_or_play(page):
            page.wait_for_timeout(30)
    summary = state(page)["match"]["deals"][0]["summary"]
    taker = next(s for s, cards in enumerate(summary["spades"]) if "QS" in cards)
    name = ["Anna", "Bot 2", "Bot 3"][taker]
    scores = state(page)["match"]["deals"][0]["scores"]
    page.wait_for_function("window.said.join(' ').includes('Deal 1 is over.')")
    # one sentence each: the title, who took the queen, the points (had been "Deal 1 is over Anna: 13")
    points = "; ".join(f"{who}: {n}, match total {n}" for who, n in zip(["Anna", "Bot 2", "Bot 3"], scores))
    assert f"Deal 1 is over. {name} took the queen of spades. {points}." in said(page), said(page)
    text = said(page)
    assert re.search(r"Deal 1 is over\. .*The next deal comes in (59|60) seconds; “Wait” keeps this result open\.", text), text
    # a later deal says each one's match total beside the deal's points (the match's end had
    # been said with the last deal's points alone): the totals made to differ, the result drawn
    page.evaluate("""async () => {
      const { table } = await import('/static/js/table/state.js');
      const { drawResult } = await import('/static/js/table/result.js');
      table.state.match.totals = table.state.match.totals.map((n) => n + 100);
      table.said.result = '';
      drawResult({ names: ['Anna', 'Bot 2', 'Bot 3'], teams: null, send: () => {} });
    }""")
    assert f"Anna: {scores[0]}, match total {scores[0] + 100}; Bot 2: {scores[1]}," in said(page), said(page)
    assert re.search(r"Your turn\. Choose 3 cards", text), text
    assert re.search(r"from Bot \d: (\w+ of \w+, ){2}\w+ of \w+", text), text
    healthy(page)
