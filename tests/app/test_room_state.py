"""The pure room state (app/rooms/state.py): built from a snapshot, moved on by stored events,
without a database, sockets or an event loop."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.rooms.state import CHAT_KEEP, RoomState, SeatState, token_hash
from app.storage.stored import (
    Snapshot,
    StoredDeal,
    StoredEvent,
    StoredMatch,
    StoredRoom,
    StoredSeat,
    Tail,
)
from engine import EVERYONE, new_match
from engine.bots.random_bot import random_bot

PEOPLE = [StoredSeat("human", name="anna", player_id=1, token_hash=token_hash("t0"), by_key=True),
          StoredSeat("human", name="boris", player_id=2, token_hash=token_hash("t1"), by_key=True),
          StoredSeat("bot", bot="rules")]


def played(actions: int | None, seed: int = 1, target: int = 1):
    """A Black Maria match dealt from a known pack, ``actions`` random actions in (None: its
    first deal to the end): the match, its deal as stored, and its actions as stored events
    from event 3 on (1 was the match, 2 the deal), with client ids for seat 0's."""
    rng = random.Random(seed)
    match = new_match("black_maria", {"target": target})
    deal = match.start_deal(rng=rng)
    stored = StoredDeal(0, deal.dealer, list(deal.deck), None)
    events = []
    for n in range(10 ** 3 if actions is None else actions):
        if deal.over:
            break
        seat = match.to_act()[0]
        action = match.apply(seat, random_bot(match.view(seat), match.moves(seat), rng))
        events.append(StoredEvent(3 + n, "action", {
            "match": 7, "deal": 0, "seat": seat, "action": action, "deal_over": deal.over,
            "match_over": match.finished, "n": n}, f"c{n}" if seat == 0 else None))
    return match, stored, events


def snapshot(actions: list[StoredEvent], deal: StoredDeal | None, chat=(),
             target: int = 1) -> Snapshot:
    seq = max([2] + [e.seq for e in actions] + [e.seq for e in chat])
    return Snapshot(room=StoredRoom(5, "ABCDEF", "black_maria", {"target": target}, None,
                                    "2026-12-01T00:00:00+00:00"),
                    seats=list(PEOPLE), match=StoredMatch(7, 1, {"target": target}),
                    deals=[deal] if deal else [], actions=actions, seq=seq,
                    match_event_seq=1, chat=list(chat))


def test_a_snapshot_rebuilds_the_match_and_the_ids_of_its_actions():
    match, deal, events = played(20)
    state = RoomState(snapshot(events, deal))
    assert state.match.view(EVERYONE) == match.view(EVERYONE)
    assert state.seq == 22 and state.action_count == 20 and state.status == "playing"
    assert state.client_ids[0] == {e.client_id: e.seq for e in events if e.client_id}
    assert state.client_ids[1] == {} == state.client_ids[2]
    assert [s.name for s in state.seats] == ["anna", "boris", None]


def test_a_match_without_its_first_deal_yet_is_an_empty_match():
    state = RoomState(snapshot([], None))
    assert state.match is not None and state.match.deals == [] and state.action_count == 0


def test_stored_events_that_follow_on_move_the_state_as_the_engine_plays():
    match, deal, events = played(12)
    state = RoomState(snapshot(events[:5], deal))
    chat = StoredEvent(15, "chat", {"seat": 1, "name": "boris", "text": "hi", "time": "t"})
    assert state.apply_tail(Tail(events=events[5:] + [chat]))
    assert state.match.view(EVERYONE) == match.view(EVERYONE)
    assert state.seq == 15 and state.action_count == 12
    assert state.chat == [{"seq": 15, **chat.data}]
    assert state.client_ids[0] == {e.client_id: e.seq for e in events if e.client_id}


@pytest.mark.parametrize("broken", ["gap", "renumbered", "illegal", "other match"])
def test_an_event_that_does_not_follow_on_is_refused(broken):
    _, deal, events = played(6)
    state = RoomState(snapshot(events[:3], deal))
    nxt = events[3]
    if broken == "gap":
        nxt = events[4]
    elif broken == "renumbered":
        nxt = StoredEvent(nxt.seq, nxt.kind, {**nxt.data, "n": 7})
    elif broken == "illegal":  # seat 0 passes the same cards again
        nxt = StoredEvent(nxt.seq, "action", {**events[0].data, "n": 3})
    else:
        nxt = StoredEvent(nxt.seq, nxt.kind, {**nxt.data, "match": 8})
    assert not state.apply_tail(Tail(events=[nxt]))


def test_a_new_match_a_new_deal_and_a_seat_from_another_process():
    played_match, deal, _ = played(0)
    state = RoomState(Snapshot(room=StoredRoom(5, "ABCDEF", "black_maria", {"target": 1}, None,
                                               "t"), seats=list(PEOPLE), seq=4))
    assert state.match is None and state.status == "waiting"
    boris_left = [PEOPLE[0], StoredSeat("human", "rules", True, "boris", 2,
                                        PEOPLE[1].token_hash), PEOPLE[2]]
    tail = Tail(events=[StoredEvent(5, "match", {"match": 7, "number": 1}),
                        StoredEvent(6, "deal", {"match": 7, "deal": 0, "dealer": deal.dealer}),
                        StoredEvent(7, "seat", {"seat": 1})],
                deals={(7, 0): deal}, seats=boris_left)
    assert state.apply_tail(tail)
    assert state.match_id == 7 and state.match_event_seq == 5 and state.seq == 7
    assert state.match.current.view(EVERYONE) == played_match.current.view(EVERYONE)
    assert state.seats[1].standin and state.seats[1].played_by_bot
    # a deal event whose pack was not read, or of a deal already dealt, does not fit
    assert not state.apply_tail(Tail(events=[StoredEvent(8, "deal", {"match": 7, "deal": 1,
                                                                       "dealer": 1})]))


def test_what_a_seat_sees_of_an_action_and_of_the_room():
    _, deal, events = played(3)
    state = RoomState(snapshot(events, deal))
    first = events[0].data
    own = state.event_view("action", first, first["seat"])
    other = state.event_view("action", first, (first["seat"] + 1) % 3)
    assert own["action"] == first["action"] and "cards" in own["action"]
    assert other["action"] == {"type": "pass"}  # a Black Maria pass is its author's alone
    stale = state.event_view("action", {**first, "match": 6}, first["seat"])
    assert stale["action"] == {"type": "pass"}  # another match's: nothing that may be hidden
    room = state.describe({0}, {"turn_left": None, "turn_seat": None})
    assert [s["connected"] for s in room["seats"]] == [True, False, True]  # a bot always is
    assert room["seats"][2]["name"] == "Bot 3" and room["match"] == {"id": 7, "number": 1}
    # the kind of bot that plays a seat: a bot's, a stand-in's for a person away
    state.seat_changed(state.seq + 1, 1, standin=True, bot="random")
    assert [s["bot"] for s in state.describe(set(), {})["seats"]] == [None, "random", "rules"]
    assert state.seat_of_token("t1") == 1 and state.seat_of_token("t9") is None


def test_the_chat_keeps_its_last_lines():
    state = RoomState(snapshot([], None))
    for seq in range(3, 3 + CHAT_KEEP + 5):
        state.chat_said(seq, {"seat": 0, "text": str(seq)})
    assert len(state.chat) == CHAT_KEEP and state.chat[-1]["seq"] == state.seq


def test_a_seat_event_names_the_bot_and_the_stand_in():
    assert SeatState("bot", bot="random").event(2) == {
        "seat": 2, "name": "Bot 3", "seat_kind": "bot", "bot": "random", "standin": False}
    away = SeatState("human", bot="rules", standin=True, name="boris")
    assert away.event(1)["bot"] == "rules" and away.event(1)["name"] == "boris"
    assert SeatState("human", bot="rules", name="boris").event(1)["bot"] is None


def test_between_deals_the_people_who_asked_for_the_next_deal_are_kept_until_it_comes():
    _, deal, events = played(None, target=1000)
    state = RoomState(snapshot(events[:-1], deal, target=1000))
    assert not state.between_deals  # a deal in progress: nobody can ask for the next
    assert state.apply_tail(Tail(events=events[-1:]))  # its last card
    assert state.between_deals and state.ready == set()
    ready = StoredEvent(state.seq + 1, "ready", {"seat": 1, "deal": 0})
    assert state.apply_tail(Tail(events=[ready]))
    assert state.ready == {1} and state.describe(set(), {})["ready"] == [1]
    stale = StoredEvent(state.seq + 1, "ready", {"seat": 0, "deal": 3})
    assert not state.apply_tail(Tail(events=[stale]))  # not the deal that just ended
    state.deal_started(state.seq + 1, StoredDeal(1, 1, list(deal.deck), None))
    assert state.ready == set() and not state.between_deals


def test_a_match_dealt_and_not_yet_played_rebuilds_and_a_match_without_deals_keeps_its_options():
    match, deal, _ = played(0)
    state = RoomState(snapshot([], deal))  # the deal stored, no action yet
    assert state.match.view(EVERYONE) == match.view(EVERYONE) and state.action_count == 0
    assert RoomState(snapshot([], None, target=1000)).match.options == {"target": 1000}


def test_a_match_event_from_another_process_numbers_the_match():
    state = RoomState(Snapshot(room=StoredRoom(5, "ABCDEF", "black_maria", {"target": 1}, None,
                                               "t"), seats=list(PEOPLE), seq=4))
    assert state.apply_tail(Tail(events=[StoredEvent(5, "match", {"match": 9, "number": 2})]))
    assert (state.match_id, state.match_number) == (9, 2)
    assert state.describe(set(), {})["match"] == {"id": 9, "number": 2}


@pytest.mark.parametrize("broken", ["deal of another match", "deal out of turn",
                                    "deal the engine refuses", "seat without the seats",
                                    "seats of another table", "unknown kind"])
def test_an_event_of_another_process_that_does_not_fit_is_refused(broken):
    """The caller rebuilds the state from the database when a tail does not fit."""
    _, deal, _ = played(0)
    state = RoomState(snapshot([], None))  # match 7, not dealt yet, event 2 last
    event, deals, seats = StoredEvent(3, "deal", {"match": 7, "deal": 0, "dealer": 0}), {}, None
    if broken == "deal of another match":
        event.data["match"], deals = 8, {(8, 0): deal}
    elif broken == "deal out of turn":  # deal 1 before deal 0
        event.data["deal"], deals = 1, {(7, 1): StoredDeal(1, deal.dealer, deal.deck, None)}
    elif broken == "deal the engine refuses":  # a card short
        deals = {(7, 0): StoredDeal(0, deal.dealer, deal.deck[:-1], None)}
    elif broken == "seat without the seats":
        event = StoredEvent(3, "seat", {"seat": 1})
    elif broken == "seats of another table":
        event, seats = StoredEvent(3, "seat", {"seat": 1}), PEOPLE[:2]
    else:
        event = StoredEvent(3, "dance", {"seat": 1})
    assert not state.apply_tail(Tail(events=[event], deals=deals, seats=seats))
    assert state.match.deals == [] and len(state.seats) == 3


def test_a_rooms_think_time_outlives_a_rebuild():
    """The strong bots' think time chosen for the room, not the server's default, after the
    state is rebuilt from the database."""
    snap = snapshot([], None)
    state = RoomState(replace(snap, room=replace(snap.room, think_time=2.5)))
    assert state.think_time == 2.5 and state.describe(set(), {})["think_time"] == 2.5


def test_a_player_is_found_at_their_own_seat_only():
    state = RoomState(snapshot([], None))
    assert [state.seat_of_player(p) for p in (1, 2, 3)] == [0, 1, None]


def test_a_seat_taken_as_a_guest_is_no_players_who_claims_the_name_later():
    guest = StoredSeat("human", name="gena", player_id=3, token_hash=token_hash("t2"))
    snap = snapshot([], None)
    state = RoomState(replace(snap, seats=PEOPLE[:2] + [guest]))
    assert state.seat_of_player(3) is None and state.seat_of_token("t2") == 2


def test_a_rematch_stored_by_another_process_is_followed_from_its_first_action():
    """A new match numbers its actions from 0 again (another process checks each action's
    number against its own count)."""
    first, deal, events = played(None)
    assert first.finished  # target 1: one deal ends it
    state = RoomState(snapshot(events, deal))
    rematch, rematch_deal, rematch_events = played(4, seed=2)
    seq = state.seq
    tail = [StoredEvent(seq + 1, "match", {"match": 8, "number": 2}),
            StoredEvent(seq + 2, "deal", {"match": 8, "deal": 0, "dealer": rematch_deal.dealer})]
    tail += [StoredEvent(seq + 3 + i, "action", {**e.data, "match": 8}, e.client_id)
             for i, e in enumerate(rematch_events)]
    assert state.apply_tail(Tail(events=tail, deals={(8, 0): rematch_deal}))
    assert (state.match_id, state.action_count, state.seq) == (8, 4, seq + 6)
    assert state.status == "playing" and state.match.view(EVERYONE) == rematch.view(EVERYONE)


def test_a_big_mariage_deal_of_another_process_is_dealt_with_its_kitty():
    match = new_match("big_mariage", {})
    deal = match.start_deal(rng=random.Random(3))
    seats = PEOPLE + [StoredSeat("bot", bot="rules")]
    state = RoomState(Snapshot(room=StoredRoom(5, "ABCDEF", "big_mariage", {}, None, "t"),
                               seats=seats, match=StoredMatch(7, 1, {}), seq=2,
                               match_event_seq=1))
    stored = StoredDeal(0, deal.dealer, list(deal.deck), list(deal.kitty))
    event = StoredEvent(3, "deal", {"match": 7, "deal": 0, "dealer": deal.dealer})
    assert state.apply_tail(Tail(events=[event], deals={(7, 0): stored}))
    assert state.match.view(EVERYONE) == match.view(EVERYONE)
    # ROOM tells the partnerships: seats 0 and 2 against 1 and 3 (Black Maria has none)
    assert [seat["team"] for seat in state.describe(set(), {})["seats"]] == [0, 1, 0, 1]
    assert {seat["team"] for seat in RoomState(snapshot([], None)).describe(
        set(), {})["seats"]} == {None}
