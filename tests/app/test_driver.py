"""The driver's planning (app/rooms/driver.py): what a room does by itself next, if nobody acts
first, worked out from its pure state without a running room."""

from __future__ import annotations

from dataclasses import replace

from test_room_state import PEOPLE, played, snapshot

from app.rooms.driver import Step, next_step, ready_for_next
from app.rooms.state import RoomState
from app.settings import Settings
from app.storage.stored import Snapshot, StoredSeat

SETTINGS = Settings(database_url="sqlite://", bot_delay=0.7, deal_pause=15.0)
BOT = 2  # PEOPLE: two people, then a rules bot


def waiting(seats) -> RoomState:
    snap = snapshot([], None)
    return RoomState(Snapshot(room=snap.room, seats=seats, seq=1))


def at_turn(whose: str, turn_timer=None, seats=PEOPLE) -> RoomState:
    """A Black Maria match at the first position where a person (or the bot) alone is to act."""
    for actions in range(60):
        match, deal, events = played(actions)
        actors = match.to_act()
        if len(actors) == 1 and (actors[0] == BOT) == (whose == "bot"):
            snap = snapshot(events, deal)
            return RoomState(replace(snap, room=replace(snap.room, turn_timer=turn_timer),
                                     seats=list(seats)))
    raise AssertionError(f"no position where the {whose} alone is to act")


def between_deals() -> RoomState:
    match, deal, events = played(None, target=1000)
    state = RoomState(snapshot(events, deal, target=1000))
    assert state.between_deals and not match.finished
    return state


def test_a_full_table_without_a_match_starts_one_at_once_and_an_open_seat_waits():
    """The last seat taken starts the match itself; the driver's start is the retry when that
    failed (a database that was down), or for a room loaded full without a match."""
    assert next_step(waiting(PEOPLE), SETTINGS) == Step(0.0, "start")
    assert next_step(waiting(PEOPLE[:2] + [StoredSeat("open")]), SETTINGS) is None


def test_a_bot_or_a_stand_in_acts_after_the_bot_delay_and_a_person_after_the_turn_timer():
    assert next_step(at_turn("bot"), SETTINGS) == Step(SETTINGS.bot_delay, "bot", BOT)
    person = at_turn("person")
    seat = person.match.to_act()[0]
    assert next_step(person, SETTINGS) is None  # no turn timer: the room waits for them
    assert next_step(at_turn("person", turn_timer=30.0), SETTINGS) == Step(30.0, "timer", seat)
    away = list(PEOPLE)
    away[seat] = replace(away[seat], standin=True, bot="rules")
    assert next_step(at_turn("person", seats=away), SETTINGS) == \
        Step(SETTINGS.bot_delay, "bot", seat)


def test_a_finished_match_waits_until_every_person_asked_for_a_rematch():
    match, deal, events = played(None)  # target 1: the first deal ends the match
    state = RoomState(snapshot(events, deal))
    assert match.finished and state.status == "finished"
    assert next_step(state, SETTINGS) is None
    state.ready_said(state.seq + 1, 0)  # one of the two people asked
    assert next_step(state, SETTINGS, {0, 1}.__contains__) is None
    assert next_step(state, SETTINGS, {0}.__contains__) == Step(0.0, "rematch")  # the other left
    state.ready_said(state.seq + 1, 1)
    assert next_step(state, SETTINGS, {0, 1}.__contains__) == Step(0.0, "rematch")


def test_the_next_deal_comes_at_once_when_every_connected_person_asked_for_it():
    state = between_deals()
    connected = {0, 1}.__contains__
    assert not ready_for_next(state, connected)
    assert next_step(state, SETTINGS, connected) == Step(SETTINGS.deal_pause, "deal")
    state.ready_said(state.seq + 1, 0)
    assert not ready_for_next(state, connected)  # seat 1 has not asked
    assert ready_for_next(state, {0}.__contains__)  # seat 1 gone: not waited for
    state.ready_said(state.seq + 1, 1)
    assert ready_for_next(state, connected)
    assert next_step(state, SETTINGS, connected) == Step(0.0, "deal")


def test_a_person_still_reading_the_summary_gets_the_longer_countdown_for_everyone():
    """``wait``: the countdown is deal_wait (the result had closed after 15 s on whoever still
    read it), for the whole summary: the reader's asking for the next deal does not bring back
    the short one (it had dealt at once, on people still reading as they were told); the next
    deal comes at once when every person asked for it; no one can hold the table for ever."""
    state = between_deals()
    connected = {0, 1}.__contains__
    state.ready_said(state.seq + 1, 1, wait=True)
    assert state.waiting == {1} and state.describe({0, 1}, {})["waiting"] == [1]
    assert next_step(state, SETTINGS, connected) == Step(SETTINGS.deal_wait, "deal")
    assert SETTINGS.deal_wait > SETTINGS.deal_pause
    state.ready_said(state.seq + 1, 1)  # done reading: Anna has not asked
    assert next_step(state, SETTINGS, connected) == Step(SETTINGS.deal_wait, "deal")
    state.ready_said(state.seq + 1, 0)
    assert next_step(state, SETTINGS, connected) == Step(0.0, "deal")


def test_a_reader_whose_link_drops_is_still_waited_for_until_the_countdown_ends():
    """Boris asked for time, then reloaded (or his phone blipped): Anna's "next" had dealt at
    once, his result gone. The longer countdown still ends it."""
    state = between_deals()
    state.ready_said(state.seq + 1, 1, wait=True)
    state.ready_said(state.seq + 1, 0)
    assert next_step(state, SETTINGS, {0}.__contains__) == Step(SETTINGS.deal_wait, "deal")


def test_with_nobody_to_wait_for_the_next_deal_comes_after_the_pause():
    """Spectators of a table of bots, or people all away, read the summary for deal_pause."""
    state = between_deals()
    assert not ready_for_next(state, lambda seat: False)
    assert next_step(state, SETTINGS, lambda seat: False) == Step(SETTINGS.deal_pause, "deal")
    state.seats[1] = replace(state.seats[1], standin=True, bot="rules")
    state.ready_said(state.seq + 1, 0)
    assert ready_for_next(state, lambda seat: True)  # a stand-in's seat is not waited for


def test_a_table_of_bots_alone_pauses_while_nobody_watches_it():
    bots = [StoredSeat("bot", bot="rules")] * 3
    state = at_turn("bot", seats=bots)
    assert next_step(state, SETTINGS, unwatched=True) is None
    assert next_step(state, SETTINGS, unwatched=False) == Step(SETTINGS.bot_delay, "bot", BOT)
    # a table with a person plays on, watched or not
    assert next_step(at_turn("bot"), SETTINGS, unwatched=True) == \
        Step(SETTINGS.bot_delay, "bot", BOT)


def test_a_table_whose_people_are_all_gone_pauses_while_nobody_watches_it():
    """The turn timer and the stand-ins play for nobody no longer than a table of bots: a
    table made with a person's seat that nobody opened had played on for ever."""
    gone, here = (lambda seat: False), (lambda seat: seat == 0)
    for state in (at_turn("person", turn_timer=5.0), at_turn("bot"),
                  at_turn("person", seats=[replace(PEOPLE[0], standin=True, bot="rules"),
                                           replace(PEOPLE[1], standin=True, bot="rules"),
                                           PEOPLE[2]])):
        assert next_step(state, SETTINGS, gone, unwatched=True) is None
        assert next_step(state, SETTINGS, gone, unwatched=False) is not None
        assert next_step(state, SETTINGS, here, unwatched=True) is not None
