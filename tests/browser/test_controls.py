"""Stand-ins, rematch, the turn timer, translated refusals, keyboard and screen readers, and the
layout of every table on a phone and a laptop (see conftest.py for the set-up)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx
import pytest

from .conftest import PHONE, fresh_name, shot
from .test_speech import SAID_LOG
from .test_tables import (
    Watch,
    act,
    act_surely,
    create_room,
    healthy,
    make_my_move,
    my_turn,
    offer_bots,
    pass_or_play,
    play_first_legal,
    sit,
    state,
    wait_state,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LAPTOP_800 = {"width": 1280, "height": 800}


# -- stand-ins -----------------------------------------------------------------------------------

def test_standin_for_someone_away_and_their_return(live, new_page):
    code = create_room(live, "black_maria", ["open", "open", "bot:rules"])
    a, b = new_page(), new_page(PHONE)
    a.context.add_init_script(SAID_LOG)
    sit(a, live, code, "Anna", 0)
    sit(b, live, code, "Boris", 1)
    a.wait_for_selector("[data-testid=pass-button]")
    assert a.locator("[data-testid^=standin-box-]").count() == 0  # everybody is here

    b.goto("about:blank")  # Boris's connection drops
    a.wait_for_selector("[data-testid=presence-1].off")
    assert a.locator("[data-testid^=standin-box-]").count() == 0  # (Anna's own pass first)
    make_my_move(a)
    box = a.locator("[data-testid=standin-box-1]")
    box.wait_for()
    assert "Boris" in box.text_content()
    # played for in earnest: the random bot, which a free seat is offered, would be Anna's gift
    assert box.locator("button").evaluate_all("bs => bs.map((b) => b.dataset.testid)") == ["standin-1-rules", "standin-1-strong"]
    shot(a, "standin-offered-laptop")
    a.click("[data-testid=standin-1-rules]")
    a.wait_for_selector("[data-testid=standin-badge-1]")
    a.wait_for_selector("[data-testid=standin-note-1]")
    assert a.locator("[data-testid^=standin-box-]").count() == 0
    wait_state(a, "s.room.seats[1].standin && s.room.seats[1].bot === 'rules'")
    # the bot plays Boris's part: his three cards are passed without him
    wait_state(a, "s.match.deal.passed[1]")
    # (said, though the cards received may be said over it at once: Anna had passed first)
    a.wait_for_function("window.said.some((said) => said.includes('Boris'))")
    shot(a, "standin-playing-laptop")

    # Anna (who passed first) plays on until the bot has played a card of Boris's too
    watch = Watch([a], 60, "the stand-in's first card for Boris")
    # (16 cards or fewer in the play: the pass made, the cards received, one played at least;
    # 14 is the pass alone)
    while (deal := state(a)["match"]["deal"])["phase"] != "play" or deal["hand_sizes"][1] > 16:
        watch()
        if my_turn(a):
            play_first_legal(a)
        else:
            a.wait_for_timeout(30)

    # Boris comes back (same browser, same seat token): he takes his seat back at once, and is
    # told which of the cards he last saw the bot has passed and played for him
    b.goto(f"{live.http}/r/{code}")
    b.wait_for_selector(".seat.me[data-seat='1']")
    # and Anna is shown he is back (only his dot had turned green)
    a.locator("#toast.info", has_text="Boris is back at the table.").wait_for()
    told = b.locator("#toast.info", has_text="While you were away, a bot played for you; gone from your hand:")
    told.wait_for()
    # the three passed, and what it played of the cards he had seen (not those received since)
    gone = told.locator(".cardtext").evaluate_all("(all) => all.map((c) => c.dataset.card)")
    assert len(gone) >= 3, told.text_content()
    wait_state(b, "s.you.seat === 1 && !!s.match.deal.hands[1]")
    assert not set(gone) & set(state(b)["match"]["deal"]["hands"][1]), (gone, told.text_content())
    shot(b, "standin-told-phone")
    a.wait_for_selector("[data-testid=standin-badge-1]", state="detached")
    a.wait_for_selector("[data-testid=presence-1].on")
    assert a.locator("[data-testid=standin-note-1]").count() == 0
    wait_state(b, "!s.room.seats[1].standin && s.you.seat === 1")
    assert b.locator(".hand-row .card").count() > 0
    assert b.locator("[data-testid^=standin-box-]").count() == 0
    healthy(a, b)


def test_someone_back_before_the_bot_played_any_of_their_cards_is_told_it_sat_in(live, new_page):
    """Big Mariage: the first of the two people asked to bid drops; a bot bids for them, and the
    bidding waits for the other. Back before any card of theirs is played, they are told a bot
    sat in for them (a bid made for them had gone unsaid), and their hand is whole."""
    code = create_room(live, "big_mariage", ["open", "open", "bot:rules", "bot:rules"])
    pages = [new_page(), new_page(PHONE)]
    sit(pages[0], live, code, "Anna", 0)
    sit(pages[1], live, code, "Boris", 1)
    wait_state(pages[0], "s.match.deal.phase === 'bidding'")
    # (the first dealer is drawn: the bidding starts at its left, and of seats 0 and 1 the
    # first asked is 0 unless the dealer is 0)
    away = 1 if state(pages[0])["match"]["deal"]["dealer"] == 0 else 0
    leaver, stayer = pages[away], pages[1 - away]
    wait_state(leaver, f"s.match.deal.turn === {away}")
    seen = state(leaver)["match"]["deal"]["hands"][away]
    leaver.goto("about:blank")  # the connection drops as the bid is asked for
    stayer.locator(f"[data-testid=standin-box-{away}]").wait_for()
    stayer.click(f"[data-testid=standin-{away}-rules]")
    wait_state(stayer, f"s.match.deal.bids.some(([seat]) => seat === {away})")
    assert state(stayer)["match"]["deal"]["hand_sizes"][away] == len(seen)
    leaver.goto(f"{live.http}/r/{code}")
    leaver.wait_for_selector(f".seat.me[data-seat='{away}']")
    leaver.locator("#toast.info", has_text="While you were away, a bot sat in for you; the seat is yours again.").wait_for()
    wait_state(leaver, f"!s.room.seats[{away}].standin && s.you.seat === {away}")
    assert sorted(state(leaver)["match"]["deal"]["hands"][away]) == sorted(seen)
    healthy(leaver, stayer)


def test_a_seat_token_not_recognised_is_said_and_forgotten(live, new_page):
    """A page whose kept seat token the table does not know (another server's, a typo'd copy)
    says it watches, once, and forgets the token (it had been sent on every reconnection)."""
    code = create_room(live, "marjolet", ["open", "bot:rules"])
    page = new_page()
    page.goto(f"{live.http}/lobby-missing")  # (same origin: the key is the table's)
    page.evaluate(f"localStorage.setItem('cardroom.seat.{code}', JSON.stringify({{token: 'nobody', seat: 0, name: 'Anna'}}))")
    page.goto(f"{live.http}/r/{code}")
    page.locator("#toast", has_text="Your seat could not be recognised: you are watching as a spectator.").wait_for()
    assert page.evaluate(f"localStorage.getItem('cardroom.seat.{code}')") is None
    page.refusals.clear()  # (the server's bad_token, said by the toast)
    healthy(page)


def test_someone_watching_plays_the_seat_a_bot_plays_for_someone_away(paused, new_page):
    """Boris gone and his seat handed to a bot, Gran, who watches, may play it once the deal
    ends (she had only been able to watch; during a deal its hidden cards would reach whoever
    handed it over); Boris back finds it taken and is told by whom."""
    live = paused
    code = create_room(live, "black_maria", ["open", "open", "bot:rules"])
    anna, boris, gran = new_page(), new_page(), new_page(PHONE)
    sit(anna, live, code, "Anna", 0)
    sit(boris, live, code, "Boris", 1)
    gran.goto(f"{live.http}/r/{code}")
    gran.wait_for_selector(".seat")
    assert gran.is_hidden("#join-panel")  # (everyone is here)
    boris.goto("about:blank")
    make_my_move(anna)
    act_surely(anna, anna.locator("[data-testid=standin-1-rules]"))
    later = gran.locator("[data-testid=take-later-1]")
    later.wait_for()
    assert later.text_content() == "A bot plays seat 2 for Boris for now: you may take it once this deal ends."
    assert not gran.locator("[data-testid=take-seat-1]").count()
    take = gran.locator("[data-testid=take-seat-1]")
    watch = Watch([anna, gran], 90, "the deal's end, for Gran to take the seat")
    while not take.count():
        watch()
        if not pass_or_play(anna, last=True):
            anna.wait_for_timeout(30)
    assert take.text_content() == "Play seat 2 for Boris (a bot plays it for now)"
    gran.fill("#seat-name", "Gran")
    gran.check("[data-testid=seat-guest]")
    take.click()
    gran.wait_for_selector(".seat.me[data-seat='1']")
    wait_state(gran, "s.you.seat === 1 && !s.room.seats[1].standin && s.room.seats[1].name === 'Gran'")
    anna.wait_for_selector("[data-testid=standin-badge-1]", state="detached")
    assert "Gran now plays seat 2." in anna.text_content("[data-testid=announce]")
    boris.goto(f"{live.http}/r/{code}")  # his seat token is no longer the seat's
    boris.locator("#toast", has_text="Gran has taken your seat while you were away: you are watching.").wait_for()
    wait_state(boris, "s.you.seat === null")
    assert not anna.locator("#toast", has_text="is back at the table").count()
    healthy(anna, gran)


@pytest.fixture(scope="module")
def graceful(tmp_path_factory):
    """A live server on which a seat goes to a bot only after its person is away 3 s."""
    from tests.conftest import LiveServer, fresh_sqlite

    server = LiveServer(fresh_sqlite(tmp_path_factory, "gracedb"), standin_grace=3.0).start()
    yield server
    server.stop()


def test_a_bot_is_offered_for_someone_only_once_they_have_been_away_a_while(graceful, new_page):
    """A phone's blip is not leaving: while Boris has only just gone, the table says so and
    offers no bot (one had been offered, and taken, 0.3 s after his link dropped); a while on,
    it does. Back, he is told that a bot sat in for him (or which cards it played)."""
    live = graceful
    code = create_room(live, "big_mariage", ["open", "open", "bot:rules", "bot:rules"])
    a, b = new_page(), new_page(PHONE)
    sit(a, live, code, "Anna", 0)
    sit(b, live, code, "Boris", 1)
    b.context.set_offline(True)
    a.wait_for_selector("[data-testid=presence-1].off")
    gone = time.monotonic()
    assert "Boris has just lost the connection" in a.text_content("[data-testid=away-note-1]")
    assert a.locator("[data-testid^=standin-box-]").count() == 0
    refused = a.evaluate("""() => new Promise((done) => { const sock = new WebSocket(location.origin.replace('http', 'ws') + '/ws/' + window.cardroomTable.state.room.code);
      sock.onmessage = (e) => { const m = JSON.parse(e.data); if (m.type === 'error') done(m.reason); };
      sock.onopen = () => sock.send(JSON.stringify({type: 'hello', token: JSON.parse(localStorage.getItem('cardroom.seat.' + window.cardroomTable.state.room.code)).token}));
      setTimeout(() => sock.send(JSON.stringify({type: 'standin', seat: 1, bot: 'rules'})), 300);
      setTimeout(() => done("no refusal within 4 s"), 4000); })""")  # (an answer, not a hang, if taken)
    assert refused == "away_briefly"  # (the server's rule, not only the page's)
    a.refusals.clear()  # (that one was asked for)
    make_my_move(a)
    a.locator("[data-testid=standin-box-1]").wait_for(timeout=6000)
    assert time.monotonic() - gone >= 2.5
    a.click("[data-testid=standin-1-rules]")
    wait_state(a, "s.room.seats[1].standin")
    b.context.set_offline(False)
    told = b.locator("#toast.info", has_text="While you were away, a bot")  # (sat in, or played)
    told.wait_for(timeout=15000)
    wait_state(a, "!s.room.seats[1].standin")
    healthy(a)


def test_open_seat_to_a_bot_then_rematch_same_seats(live, new_page):
    code = create_room(live, "black_maria", ["open", "open", "bot:rules"], {"target": 1})
    page = new_page()
    sit(page, live, code, "Anna", 0)
    # seat 2 (index 1) is free: hand it to the random bot, and the match starts
    offer_bots(page)
    page.click("[data-testid=standin-1-random]")
    page.wait_for_selector("[data-testid=pass-button]")
    first = state(page)
    assert first["room"]["seats"][1]["kind"] == "bot" and first["room"]["seats"][1]["bot"] == "random"
    assert first["room"]["match"]["number"] == 1

    watch = Watch([page], 60, "the match (target 1), played to its end")
    pressed = False
    while not page.locator("[data-testid=match-over]").count():
        watch()
        if not pressed and page.is_enabled("[data-testid=last-trick-button]"):
            page.click("[data-testid=last-trick-button]")  # and left pressed to the end
            pressed = True
        if not pass_or_play(page):
            page.wait_for_timeout(30)
    # the result is shown, with "Last trick" released
    assert pressed and page.locator("[data-testid=result]").is_visible()
    assert page.get_attribute("[data-testid=last-trick-button]", "aria-pressed") == "false"
    shot(page, "black-maria-match-over-laptop")
    # the result panel: the final totals, the winners marked, and the rematch
    over = state(page)["match"]
    for seat, total in enumerate(over["totals"]):
        assert page.text_content(f"[data-testid=result-total-{seat}]") == f"match total\u00a0{total}"
        won = "★" in page.text_content(f"[data-testid=result-side-{seat}] h3")
        assert won == (seat in over["winners"]), (seat, over["winners"])
    winner_names = [["Anna", "Bot 2", "Bot 3"][w] for w in over["winners"]]
    said = "Winner" if len(winner_names) == 1 else "Winners"  # (equal lowest totals share the win)
    assert page.text_content("[data-testid=match-over]") == f"The match is over. {said}: {', '.join(winner_names)}"
    # the match's page is a link away (it had been reached only through the history)
    match_id = state(page)["room"]["match"]["id"]
    assert page.get_attribute("[data-testid=match-link]", "href") == f"/matches/{match_id}"
    assert page.get_attribute("[data-testid=lobby-link]", "href") == "/"  # (a phone has no top bar)
    # "Last trick" shows the deal's last trick, in place of the panel, until pressed again
    released = page.eval_on_selector("[data-testid=last-trick-button]", "b => getComputedStyle(b).backgroundColor")
    page.click("[data-testid=last-trick-button]")
    assert page.locator("[data-testid=result]").is_hidden()
    assert page.eval_on_selector("[data-testid=last-trick-button]",
                                 "b => getComputedStyle(b).backgroundColor") != released  # looks pressed
    last = [card for _, card in over["deal"]["last_trick"]["cards"]]
    assert page.locator("#trick .card").evaluate_all("cs => cs.map(c => c.dataset.card)") == last
    assert all(page.locator(f'#trick .card[data-card="{c}"]').is_visible() for c in last)
    page.click("[data-testid=last-trick-button]")
    page.wait_for_selector("[data-testid=match-over]")
    seats_before = [(s["name"], s["kind"], s["bot"]) for s in state(page)["room"]["seats"]]
    page.click("[data-testid=rematch]")
    wait_state(page, "s.room.match.number === 2 && s.match && !s.match.finished")
    page.wait_for_selector("[data-testid=pass-button]")
    after = state(page)
    assert [(s["name"], s["kind"], s["bot"]) for s in after["room"]["seats"]] == seats_before
    assert after["you"]["seat"] == 0
    assert not any(d.get("over") for d in after["match"]["deals"])  # a new match: no deal scored
    assert after["match"]["totals"] == [0, 0, 0]
    assert page.locator("[data-testid=match-over]").count() == 0
    assert page.locator(".hand-row .card").count() == 17
    healthy(page)


def test_the_last_trick_gives_way_to_the_trick_in_play(live, new_page):
    """"Last trick" shows the trick before until a card is played or Esc is pressed: it had
    stayed, hiding the trick in play through one's own turn, until pressed again."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page()
    sit(page, live, code, "Anna", 0)
    watch = Watch([page], 60, "Anna's turn to play with a trick taken before")
    while not (my_turn(page) and page.locator("#toggle-last:not([disabled])").count()
               and "play" in (state(page)["match"].get("moves") or {})):
        watch()
        if not pass_or_play(page):
            page.wait_for_timeout(30)
    button = page.locator("#toggle-last")
    deal = state(page)["match"]["deal"]
    shown = lambda: page.locator("#trick .card").evaluate_all("cs => cs.map((c) => c.dataset.card)")
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    assert shown() == [card for _, card in deal["last_trick"]["cards"]]
    page.keyboard.press("Escape")
    assert button.get_attribute("aria-pressed") == "false"
    assert shown() == [card for _, card in deal["trick"]]
    button.click()
    play_first_legal(page)
    wait_state(page, "JSON.stringify([s.match.deal.trick, s.match.deal.last_trick]) !== "
               + repr(page.evaluate("(d) => JSON.stringify([d.trick, d.last_trick])", deal)))
    assert button.get_attribute("aria-pressed") == "false"
    # the trick in play on the felt, whatever the bots played after the card
    page.wait_for_function("""() => JSON.stringify([...document.querySelectorAll('#trick .card')]
        .map((c) => c.dataset.card)) === JSON.stringify(window.cardroomTable.state.match.deal.trick.map(([, c]) => c))""")
    healthy(page)


def play_to_the_match_over(anna, boris) -> None:
    """Anna and Boris (and a bot) play a Black Maria match to 1 to its end."""
    watch = Watch([anna, boris], 90, "a two-person match (target 1), played to its end")
    while not all(p.locator("[data-testid=match-over]").count() for p in (anna, boris)):
        watch()
        for page in (anna, boris):
            pass_or_play(page)
        anna.wait_for_timeout(20)


def test_a_rematch_waits_for_everyone_at_the_table(live, new_page):
    code = create_room(live, "black_maria", ["open", "open", "bot:rules"], {"target": 1})
    anna, boris = new_page(), new_page(PHONE, locale="ru-RU", is_mobile=True, has_touch=True)
    sit(anna, live, code, "Anna", 0)
    sit(boris, live, code, "Boris", 1)
    play_to_the_match_over(anna, boris)
    anna.click("[data-testid=rematch]")
    # Anna is told whom the rematch waits for; Boris keeps the result, and is told she asked
    anna.locator("[data-testid=ready-waiting]", has_text="You asked for a rematch. Waiting for Boris").wait_for()
    boris.locator("[data-testid=ready-list]", has_text="Хотят ещё партию: Anna").wait_for()
    assert boris.locator("[data-testid=match-over]").is_visible() and state(boris)["room"]["match"]["number"] == 1
    shot(boris, "rematch-asked-phone-ru")
    boris.click("[data-testid=rematch]")
    for page in (anna, boris):
        wait_state(page, "s.room.match.number === 2 && s.match && !s.match.finished")
        page.wait_for_selector("[data-testid=pass-button]")
    healthy(anna, boris)


def test_a_rematch_without_someone_who_left_waits_for_their_seat_to_be_taken(live, new_page):
    """Boris leaves without asking for the rematch Anna asked for: his seat is freed (he had
    been carried into the rematch "away", a stand-in's match counted as his), her page says the
    rematch waits for the seat and offers bots for it, the result still names him; a bot taken,
    the rematch begins."""
    code = create_room(live, "black_maria", ["open", "open", "bot:rules"], {"target": 1})
    anna, boris = new_page(PHONE), new_page()
    sit(anna, live, code, "Anna", 0)
    sit(boris, live, code, "Boris", 1)
    play_to_the_match_over(anna, boris)
    anna.click("[data-testid=rematch]")
    boris.locator("[data-testid=ready-list]").wait_for()
    boris.close()
    anna.locator("[data-testid=status]", has_text="The rematch begins once every seat is taken: 1 seat is free").wait_for()
    assert "Boris" in anna.locator("[data-testid=result-side-1] h3").inner_text()
    assert state(anna)["room"]["match"]["number"] == 1
    offer_bots(anna)
    act(anna, anna.locator("[data-testid=standin-1-rules]"))
    wait_state(anna, "s.room.match.number === 2 && s.match && !s.match.finished")
    anna.wait_for_selector("[data-testid=pass-button]")
    healthy(anna)


def test_leave_the_table_once_the_match_is_over(live, new_page):
    """"Leave the table" under the match's result: the seat is freed at once (there had been
    no way to leave but to close the page), the page watches with the seats' form back, and the
    others read that the rematch waits for the seat."""
    code = create_room(live, "black_maria", ["open", "open", "bot:rules"], {"target": 1})
    anna, boris = new_page(), new_page(PHONE, locale="ru-RU", is_mobile=True, has_touch=True)
    sit(anna, live, code, "Anna", 0)
    sit(boris, live, code, "Boris", 1)
    assert boris.locator("[data-testid=leave-table]").count() == 0  # (not while it is played)
    play_to_the_match_over(anna, boris)
    boris.get_by_role("button", name="Встать из-за стола").click()
    wait_state(boris, "s.you.seat === null")
    boris.wait_for_selector("[data-testid=take-seat-1]")  # (he may sit again)
    assert boris.evaluate(f"localStorage.getItem('cardroom.seat.{code}')") is None
    anna.locator("[data-testid=status]", has_text="1 seat is free").wait_for()
    healthy(anna, boris)


# -- turn timer ----------------------------------------------------------------------------------

def test_lobby_turn_timer_shown_at_the_table(live, new_page):
    phone = new_page(PHONE, locale="ru-RU")
    for game in ("marjolet", "black_maria", "big_mariage"):
        phone.goto(live.http + "/")
        phone.check(f"input[value={game}]")
        phone.wait_for_selector("#seat-fields select")
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), \
            f"the lobby scrolls sideways on a phone ({game})"
    shot(phone, "lobby-phone-ru")
    page = new_page()
    page.goto(live.http + "/")
    page.check("input[value=marjolet]")
    page.fill("#create-name", fresh_name("Anna"))
    page.select_option("[data-testid=turn-timer-select]", "30")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    code = page.text_content("#created-code")
    assert httpx.get(f"{live.http}/api/rooms/{code}").json()["turn_timer"] == 30
    page.click("#go-table")
    page.wait_for_selector("[data-testid=turn-timer]:not([hidden])")
    assert "30 s" in page.text_content("[data-testid=turn-timer]")


def test_the_turn_timer_counts_on_when_the_table_is_drawn_again(live, new_page):
    """Someone coming or going redraws the table: the count goes on (it had gone back up to
    the seconds of the last state)."""
    r = httpx.post(f"{live.http}/api/rooms", json={"game": "black_maria", "turn_timer": 60,
                                                   "seats": ["open", "open", "bot:rules"]})
    code = r.json()["code"]
    anna, boris = new_page(), new_page(PHONE)
    sit(anna, live, code, "Anna", 0)
    sit(boris, live, code, "Boris", 1)
    anna.wait_for_selector("[data-testid=turn-timer]:not([hidden])")
    seconds = lambda: int(re.search(r"(\d+) s", anna.text_content("[data-testid=turn-timer]")).group(1))  # noqa: E731
    anna.wait_for_timeout(3200)
    before = seconds()
    boris.goto("about:blank")  # he goes: her table is drawn again
    anna.wait_for_selector("[data-testid=presence-1].off")
    assert seconds() <= before, (before, seconds())
    assert seconds() <= 57
    healthy(anna)


def test_one_tap_fills_every_other_seat_with_bots_or_frees_them_for_friends(live, new_page):
    """A newcomer alone had made a table of free seats and sat waiting for nobody."""
    page = new_page()
    page.goto(live.http + "/")
    page.check("input[value=big_mariage]")
    page.wait_for_selector("#seat-fields select")
    seats = page.locator("#seat-fields select")
    page.click("[data-testid=seats-bots]")
    assert seats.evaluate_all("(all) => all.map((s) => s.value)") == ["bot:rules"] * 3
    assert page.get_attribute("[data-testid=seats-bots]", "aria-pressed") == "true"
    page.click("[data-testid=seats-friends]")
    assert page.get_attribute("[data-testid=seats-bots]", "aria-pressed") == "false"
    assert seats.evaluate_all("(all) => all.map((s) => s.value)") == ["open"] * 3
    page.click("[data-testid=seats-bots]")
    page.check("input[value=marjolet]")  # the choice kept from one game to another
    page.check("input[value=big_mariage]")
    assert seats.evaluate_all("(all) => all.map((s) => s.value)") == ["bot:rules"] * 3
    page.fill("#create-name", fresh_name("Anna"))
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}$"))  # (nobody to invite: straight to the table)
    room = httpx.get(f"{live.http}/api/rooms/{page.url.rsplit('/', 1)[1]}").json()
    assert [s["kind"] for s in room["seats"]] == ["human", "bot", "bot", "bot"]
    assert room["status"] == "playing"  # at once: nobody to wait for


def test_the_lobby_offers_the_last_table_made_again(live, new_page):
    """Two couples who meet every week find their table as they made it last time: the game, its
    options, the seats and the turn timer (the form had gone back to Marjolet, target 500 and no
    timer); another game's options are its own."""
    page = new_page()
    page.goto(live.http + "/")
    page.check("input[value=big_mariage]")
    page.wait_for_selector("#seat-fields select")
    page.click("[data-testid=seats-friends]")
    if not page.is_visible("#opt-target"):  # (folded on a narrow window)
        page.click("[data-testid=create-settings] summary")
    page.fill("#opt-target", "200")
    page.select_option("[data-testid=turn-timer-select]", "60")
    page.fill("#create-name", fresh_name("Anna"))
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    page.goto(live.http + "/")
    page.wait_for_selector("#seat-fields select")
    assert page.is_checked("input[value=big_mariage]")
    assert page.input_value("#opt-target") == "200"
    assert page.input_value("[data-testid=turn-timer-select]") == "60"
    seats = page.locator("#seat-fields select")
    assert seats.evaluate_all("(all) => all.map((s) => s.value)") == ["open"] * 3
    assert page.get_attribute("[data-testid=seats-friends]", "aria-pressed") == "true"
    assert "200" in page.text_content("#settings-now")  # (said where the settings are folded)
    page.check("input[value=marjolet]")
    assert page.input_value("#opt-target") == "500"  # (Marjolet's own)
    page.check("input[value=big_mariage]")
    assert page.input_value("#opt-target") == "200"
    healthy(page)


# -- refusals in Russian -------------------------------------------------------------------------

#: A value for each param a reason may name: numbers, cards, suits and seats, as they come
#: on the wire (the pages show them as players write them).
SAMPLE_PARAMS = {"card": "QS", "suit": "H", "seat": 1, "named_seat": 2, "count": 3,
                 "step": 5, "max": 400, "bid": 120, "position": 4, "next_position": 5,
                 "last": 31, "id": 12, "game": "black_maria"}


def every_refusal() -> list[dict]:
    """Every reason the engine and the server can give, as an error frame carries it, its
    params filled in (a param that echoes what someone sent gets a number)."""
    import string

    from app.protocol import REASONS as SERVER
    from engine.errors import REASONS as ENGINE

    refusals = []
    for reason, template in {**ENGINE, **SERVER}.items():
        names = [f.split("!")[0] for _, f, _, _ in string.Formatter().parse(template) if f]
        refusals.append({"reason": reason, "params": {n: SAMPLE_PARAMS.get(n, 7) for n in names},
                         "message": "English"})
    return refusals


def test_refusals_are_translated_in_russian(live, new_page):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page(locale="ru-RU")
    sit(page, live, code, "Анна", 0)
    page.wait_for_selector("[data-testid=pass-button]")
    refusals = every_refusal()
    out = page.evaluate("""async (refusals) => {
        const m = await import('/static/js/common.js');
        return refusals.map((r) => m.refusalText(r));
    }""", refusals)
    said = dict(zip([r["reason"] for r in refusals], out))
    # no English left but the protocol's own words: every reason has its Russian text, and
    # no param is left unfilled
    protocol_words = re.compile(r"\b(hello|JSON|open|bot|rules|random|strong)\b")
    untranslated = {reason: text for reason, text in said.items()
                    if re.search("[a-zA-Z]{3,}", protocol_words.sub("", text)) or "{" in text}
    assert not untranslated, untranslated
    assert said["follow_suit"] == "нужно ходить в масть (червы)"  # a suit by its name
    assert said["not_in_hand"] == "карты Д♠ у вас нет"  # a card as players write it
    assert said["seat_taken"] == "место 2 уже занято"  # seats are counted from 1 on the page
    # A real refusal from the server: passing again once the play has begun.
    for i in range(3):
        page.locator(".hand-row .card.playable").nth(i).click()
    page.click("[data-testid=pass-button]")
    wait_state(page, "s.match.deal.phase === 'play'")
    page.wait_for_selector("[data-testid=status].yours")
    page.evaluate("(cards) => window.cardroomTable.send({type: 'action', id: 'again-1', "
                  "action: {type: 'pass', cards}})", state(page)["match"]["deal"]["hands"][0][:3])
    toast = page.locator("#toast")
    toast.wait_for()
    text = toast.text_content()
    assert text.startswith("Так нельзя — "), text
    assert "передача карт уже закончена" in text, text
    assert not re.search("[a-z]{3,}", text), text
    shot(page, "refusal-ru-laptop")
    assert [(r["code"], r["message"]) for r in page.refusals] == [("illegal", "the passing is over")]
    assert not page.errors


# -- keyboard and screen readers -----------------------------------------------------------------

def test_seating_bots_by_keyboard_keeps_the_focus_on_the_next_seats_bots(live, new_page):
    """A free seat handed to a bot by keyboard: the focus goes on to the same bot for the next
    free seat, then, the table full, to what the deal asks (it had fallen to the page's body,
    seat after seat); never to the bots offered for a friend away, whom one more Enter would
    hand to a bot."""
    code = create_room(live, "big_mariage", ["open"] * 4)
    page, boris = new_page(), new_page()
    sit(page, live, code, "Anna", 0)
    sit(boris, live, code, "Boris", 1)
    boris.goto("about:blank")  # away: his seat's bots come first among the offers
    page.wait_for_selector("[data-testid=standin-box-1]")
    page.click("[data-testid=standin-free-open]")
    page.focus("[data-testid=standin-2-rules]")
    page.keyboard.press("Enter")
    wait_state(page, "s.room.seats[2].bot === 'rules'")
    page.wait_for_function("document.activeElement.dataset.testid === 'standin-3-rules'")
    page.keyboard.press("Enter")
    wait_state(page, "s.match && s.match.deal")
    # the last seat taken, the deal asks for a bid or waits: the focus in the table's controls
    # or the hand, never on the page's body nor on the bots for Boris
    page.wait_for_function("document.activeElement.closest('#actions, #hand') !== null")
    assert not page.evaluate("document.activeElement.closest('.standin-box')")
    assert state(page)["room"]["seats"][1]["kind"] == "human"
    assert not page.errors


RU_CARD = re.compile(r"^(туз|король|дама|валет|десятка|девятка|восьмёрка|семёрка|шестёрка|"
                     r"пятёрка|четвёрка|тройка|двойка) (пик|червей|бубён|треф)")


def focused(page) -> dict:
    return page.evaluate("""() => { const a = document.activeElement; const st = getComputedStyle(a);
        return {card: a.dataset.card || null, testid: a.dataset.testid || null, tag: a.tagName,
                outline: st.outlineStyle, width: parseFloat(st.outlineWidth)}; }""")


def tab_until(page, predicate, key="Tab", limit=80) -> dict:
    for _ in range(limit):
        page.keyboard.press(key)
        now = focused(page)
        if predicate(now):
            return now
    raise AssertionError("not reachable with the keyboard")


def test_keyboard_only_pass_and_play_with_russian_labels(live, new_page):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:random"])
    page = new_page(locale="ru-RU")
    page.goto(f"{live.http}/r/{code}")
    page.fill("#seat-name", fresh_name("Анна"))  # claimed for this browser: a name of its own
    page.focus("[data-testid=take-seat-0]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=pass-button]")
    labels = page.locator(".hand-row .card").evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    assert len(labels) == 17 and all(RU_CARD.match(x) for x in labels), labels
    trick_labels = page.locator(".seat-cards .card").evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    assert set(trick_labels) == {"карта рубашкой вверх"}

    # Seated, the focus is on what the deal asks for: the cards to choose (it had gone to "Copy
    # the invite"); the hand is one stop of the Tab key, the arrows going from card to card.
    page.wait_for_function("!!document.activeElement.dataset.card")
    page.keyboard.press("Tab")
    assert focused(page)["card"] is None, "the Tab key went on to the next card"
    first = tab_until(page, lambda f: f["card"] is not None, key="Shift+Tab", limit=1)
    assert first["outline"] != "none" and first["width"] >= 2, first
    # Enter selects, the arrows move, focus stays put; the third card chosen, it goes on to the
    # button that passes them
    picked = []
    for i in range(3):
        if i:
            page.keyboard.press("ArrowRight")
        picked.append(focused(page)["card"])
        page.keyboard.press("Enter")
        assert page.get_attribute(f".hand-row .card[data-card='{picked[-1]}']", "aria-pressed") == "true"
        if i < 2:
            assert focused(page)["card"] == picked[-1], "focus lost after the hand was redrawn"
    assert focused(page)["testid"] == "pass-button"
    shot(page, "keyboard-pass-ru-laptop")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=received] .cardtext")
    # the received cards carry a word for screen readers, not only the star
    marked = page.locator(".hand-row .card.received").evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    assert len(marked) == 3 and all(x.endswith("получена") for x in marked), marked

    # Play a card with the keyboard alone when it is our turn; the live region speaks.
    page.wait_for_selector("[data-testid=status].yours")
    page.wait_for_function("document.querySelector('[data-testid=announce]').textContent.length > 0")
    before = page.locator(".hand-row .card").count()
    legal = set(state(page)["match"]["moves"]["play"])
    page.focus(".hand-row .card:first-child")
    page.keyboard.press("Home")
    card = focused(page)
    for _ in range(before):
        if card["card"] in legal:
            break
        page.keyboard.press("ArrowRight")
        card = focused(page)
    assert card["card"] in legal
    page.keyboard.press("Enter")
    wait_state(page, f"s.match.deal.hands[0].length === {before - 1}")
    assert page.locator(f".hand-row .card[data-card='{card['card']}']").count() == 0
    # S takes the focus to the score sheet, beside the table on a laptop (it had flipped a
    # hidden tab, and nothing was to be seen or heard)
    page.keyboard.press("s")
    assert page.evaluate("document.activeElement.id") == "sheet"
    healthy(page)


# -- what the tables look like ---------------------------------------------------------------------

OVERLAPS = """() => {
  const felt = document.getElementById('felt').getBoundingClientRect();
  const boxes = [];
  const add = (kind, e) => { const r = e.getBoundingClientRect(); if (r.width && r.height) boxes.push({kind, name: kind + (e.dataset.seat || ''), r}); };
  document.querySelectorAll('#felt .seat').forEach((e) => add('seat', e));
  document.querySelectorAll('#trick .card').forEach((e) => add('trick', e));
  document.querySelectorAll('#info > *').forEach((e) => add('info', e));
  const cut = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const bad = [];
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i];
    if (a.r.left < felt.left - 1 || a.r.right > felt.right + 1) bad.push(a.name + ' leaves the felt');
    for (let j = i + 1; j < boxes.length; j++) {
      const b = boxes[j];
      if (a.kind === b.kind && a.kind !== 'seat') continue;
      if (cut(a.r, b.r)) bad.push(a.name + ' overlaps ' + b.name);
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) bad.push('the page scrolls sideways');
  return bad;
}"""

TABLES = [("marjolet", ["open", "bot:rules"]),
          ("black_maria", ["open", "bot:rules", "bot:random"]),
          ("big_mariage", ["open", "bot:rules", "bot:rules", "bot:rules"])]


def advance_to_a_trick(page, game: str) -> None:
    """Play on until it is our turn with cards in the middle (Black Maria: the first trick,
    while the three received cards are still marked)."""
    watch = Watch([page], 40, f"{game}, on to our turn with a trick on the table")
    while True:
        watch()
        s = state(page)
        deal = (s.get("match") or {}).get("deal") or {}
        moves = (s.get("match") or {}).get("moves") or {}
        if moves.get("play") and deal.get("trick") and (
                game != "black_maria" or not any(deal.get("tricks_won") or [0])):
            return
        if game == "black_maria" and deal.get("phase") == "play" and any(deal.get("tricks_won") or [0]):
            pytest.fail(f"the first Black Maria trick went by: {deal}")
        if page.locator("[data-testid=pass-button]").count() and game == "black_maria":
            cards = page.locator(".hand-row .card.playable")
            for i in range(3):
                cards.nth(i).click()
            act(page, page.locator("[data-testid=pass-button]"))
        elif page.locator("[data-testid=bidbox] [data-testid=pass-button]").count():
            act(page, page.locator("[data-testid=bidbox] [data-testid=pass-button]"))
        elif page.locator("[data-testid=lead-plain]").count():
            act(page, page.locator("[data-testid=lead-plain]"))
        elif page.locator("[data-testid=draw]").count():
            act(page, page.locator("[data-testid=draw]"))
        elif moves.get("play") and not deal.get("trick"):
            if game == "black_maria":  # we lead the first trick: show it as it stands
                return
            play_first_legal(page)
        else:
            page.wait_for_timeout(30)


@pytest.mark.parametrize("game,seats", TABLES, ids=[g for g, _ in TABLES])
def test_table_layout_phone_and_laptop(live, new_page, game, seats):
    code = create_room(live, game, seats)
    page = new_page(LAPTOP_800)
    sit(page, live, code, "Anna", 0)
    advance_to_a_trick(page, game)
    page.mouse.move(0, 0)  # (a card under the pointer is raised: the layout is measured at rest)
    for size, viewport in (("laptop", LAPTOP_800), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(50)  # one layout pass after the resize
        assert page.evaluate(OVERLAPS) == [], size
        if game == "black_maria":
            # the received markers sit fully inside the hand box, above their own card
            clipped = page.evaluate("""() => [...document.querySelectorAll('.hand-row .card.received')].filter((c) => {
                const m = getComputedStyle(c, '::after'); const r = c.getBoundingClientRect();
                return r.top + parseFloat(m.top) < document.getElementById('hand').getBoundingClientRect().top; }).length""")
            assert clipped == 0
        shot(page, f"table-{game}-{size}")
    # and in Russian on the phone (longer words)
    page.goto(f"{live.http}/lang/ru?next=/r/{code}")
    page.wait_for_selector(".seat.me[data-seat='0']")
    assert page.evaluate(OVERLAPS) == []
    shot(page, f"table-{game}-phone-ru")
    healthy(page)


def test_names_are_text_never_markup(live, new_page):
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    name = '</script><b id="x">Eve</b><!--'
    r = httpx.post(f"{live.http}/api/rooms/{code}/join", json={"name": name, "seat": 0})
    assert r.status_code == 200, r.text
    page = new_page(PHONE)
    page.goto(f"{live.http}/r/{code}")  # the room (with the name) is embedded in the page too
    page.wait_for_selector(".seat[data-seat='0'] .name")
    assert page.text_content(".seat[data-seat='0'] .name") == name
    assert page.evaluate("document.getElementById('x')") is None
    healthy(page)


# -- a dropped connection ------------------------------------------------------------------------

def test_a_dropped_connection_comes_back_by_itself_after_a_random_wait(live, new_page):
    """The server closes the page's socket (here: a frame over WS_MAX_SIZE, 1009); the page says
    so, reconnects on its own after a wait drawn at random (pages a server dropped together
    must not all come back at once), and shows the same table."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page()
    sit(page, live, code, "Anna", 0)
    page.wait_for_selector("[data-testid=pass-button]")
    hand = sorted(page.locator(".hand-row .card").evaluate_all("cs => cs.map(c => c.dataset.card)"))
    before = state(page)["seq"]
    page.evaluate("() => window.cardroomTable.send({type: 'chat', text: 'x'.repeat(70000)})")
    page.wait_for_selector("#conn[data-status=reconnecting]")
    page.wait_for_selector("#conn[data-status=online]", timeout=5000)
    assert state(page)["seq"] == before
    assert sorted(page.locator(".hand-row .card").evaluate_all(
        "cs => cs.map(c => c.dataset.card)")) == hand
    waits = page.evaluate("""async () => {
        const m = await import('/static/js/common.js');
        return [1, 2, 3, 4, 5, 6, 7].map((attempt) =>
            Array.from({length: 200}, () => m.reconnectDelay(attempt)));
    }""")
    for attempt, drawn in enumerate(waits, 1):
        ceiling = min(500 * 2 ** (attempt - 1), 8000)
        assert all(ceiling / 2 <= wait <= ceiling for wait in drawn), attempt
        assert max(drawn) - min(drawn) > ceiling / 4, attempt  # spread, not one instant
    healthy(page)


def test_a_card_chosen_for_a_move_no_longer_asked_is_not_left_raised(live, new_page):
    """A card chosen to give (or to call trumps with) lives while that move is asked: the turn
    timer's bot had given the Big Mariage declarer's cards for her, and the card she had chosen
    stayed raised, as if chosen, into the play, where a tap plays it. Here a choice left over
    (as the timer leaves it) when the move it was for is made otherwise, the cards passed."""
    code = create_room(live, "black_maria", ["open", "bot:rules", "bot:rules"])
    page = new_page()
    sit(page, live, code, "Anna", 0)
    page.wait_for_selector("[data-testid=pass-button]")
    cards = page.locator(".hand-row .card").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
    page.evaluate("""async (card) => { const { table } = await import('/static/js/table/state.js');
      table.chosen.give = card; table.chosen.call = card; }""", cards[-1])
    for i in range(3):
        page.locator(".hand-row .card.playable").nth(i).click()
    page.click("[data-testid=pass-button]")
    page.wait_for_selector("[data-testid=received] .cardtext")
    assert page.evaluate("""async () => { const { table } = await import('/static/js/table/state.js');
      return [table.chosen.give, table.chosen.call]; }""") == [None, None]
    assert page.locator(f".hand-row .card[data-card='{cards[-1]}'].selected").count() == 0
    healthy(page)
