"""Events that carry only what changed (docs/protocol.md#state-changes): the changes between
two STATEs, applied by a client, give the new STATE exactly, and a client notices when its
STATE no longer follows the server's."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import protocol
from app.protocol import Follower, OutOfStep
from engine import GAMES, new_match
from engine.bots import bot_for

KEYS = st.sampled_from(["a", "b", "deal", "hands", "moves", "seats", "trick"])
SCALARS = st.none() | st.booleans() | st.integers(-5, 5) | st.text("xyz♠", max_size=3)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(KEYS, inner, max_size=4), max_leaves=12)
STATES = st.dictionaries(KEYS, VALUES, max_size=6)


@settings(max_examples=400, deadline=None)
@given(STATES, STATES)
def test_the_changes_turn_the_old_state_into_the_new_and_leave_the_old_alone(old, new):
    before = copy.deepcopy(old)
    patch = protocol.changes(old, new)
    assert protocol.apply_changes(old, patch) == new
    assert old == before


@settings(max_examples=200, deadline=None)
@given(STATES, st.lists(VALUES, max_size=3), st.lists(st.dictionaries(KEYS, SCALARS, max_size=3),
                                                       min_size=1, max_size=3))
def test_grown_lists_send_only_their_new_items_and_lists_of_objects_only_what_changed(
        base, grown, objects):
    old = {**base, "log": [1, 2], "seats": objects}
    edited = [dict(o) for o in objects]
    edited[-1]["connected"] = "yes"
    new = {**base, "log": [1, 2, *grown], "seats": edited}
    patch = protocol.changes(old, new)
    if grown:
        assert patch["+"]["log"] == grown
    assert patch["seats"] == {str(len(objects) - 1): {"=": {"connected": "yes"}}}
    assert protocol.apply_changes(old, patch) == new


def a_match_played(game: str, seed: int):
    """Every seat's view after each action of a match of rules bots, with spectators'."""
    rng, bot = random.Random(seed), bot_for(game, "rules")
    match = new_match(game, {"target": 1})
    viewers = [None, *range(GAMES[game].seats)]
    while not match.finished:
        match.start_deal(rng=rng)
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, bot(match.view(seat), match.moves(seat), rng))
            yield match.views(viewers)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_follower_keeps_every_seats_state_through_a_match(game):
    """The states of a real match, sent as welcome then changes, as the outbox sends them."""
    viewers = [None, *range(GAMES[game].seats)]
    followers = [Follower() for _ in viewers]
    sent = [None] * len(viewers)
    sizes = []
    for seq, views in enumerate(a_match_played(game, 3), start=1):
        for i, view in enumerate(views):
            state = protocol.state({"code": "C"}, viewers[i], "n", seq, view, [])
            digest = protocol.state_hash(protocol.canonical(state))
            if sent[i] is None:
                message = protocol.welcome(seq, state, None, digest)
            else:
                message = protocol.event(seq, {"kind": "action"},
                                         protocol.state_changes(sent[i], state), digest)
                sizes.append(len(protocol.canonical(message)))
            assert followers[i].follow(message) == state
            sent[i] = state
    assert sum(sizes) / len(sizes) < 0.3 * len(protocol.canonical(state))


def two_states():
    first = protocol.state({"seats": [{"seat": 0, "connected": True}]}, 0, "Anna", 1,
                           {"hand": ["QS", "9H"]}, [])
    second = {**first, "seq": 2, "match": {"hand": ["9H"]}}
    return first, second


def digest(state) -> int:
    return protocol.state_hash(protocol.canonical(state))


def test_a_follower_notices_an_event_number_skipped_then_waits_for_the_welcome():
    first, second = two_states()
    follower = Follower()
    follower.follow(protocol.welcome(1, first, None, digest(first)))
    with pytest.raises(OutOfStep, match="event 3 after 1"):
        follower.follow(protocol.event(3, {"kind": "chat"}, protocol.state_changes(first, second),
                                       digest(second)))
    # lost: the events that follow are ignored (a client sends sync once), until a welcome
    assert follower.follow(protocol.event(4, {"kind": "chat"}, {}, digest(first))) is None
    assert follower.follow(protocol.welcome(4, second, None, digest(second))) == second
    third = {**second, "seq": 5}
    assert follower.follow(protocol.event(5, {"kind": "chat"}, {}, digest(third))) == third


def test_a_true_for_a_one_is_a_change():
    """1 == True in Python, but not in JSON (nor in the hash)."""
    assert protocol.changes({"a": 1, "b": [0]}, {"a": True, "b": [0]}) == {"=": {"a": True}}


def test_a_follower_notices_changes_that_do_not_give_the_state_of_the_hash():
    first, second = two_states()
    follower = Follower()
    follower.follow(protocol.welcome(1, first, None, digest(first)))
    other = {**second, "match": {"hand": ["QS"]}}  # another seat's changes, say
    with pytest.raises(OutOfStep, match="hash"):
        follower.follow(protocol.event(2, {"kind": "action"},
                                       protocol.state_changes(first, other), digest(second)))


def test_an_earlier_event_of_a_batch_brings_no_state_and_the_last_one_the_changes():
    first, second = two_states()
    third = {**second, "seq": 3, "chat": [{"text": "hi"}]}
    follower = Follower()
    follower.follow(protocol.welcome(1, first, None, digest(first)))
    assert follower.follow(protocol.event(2, {"kind": "action"})) is None
    assert follower.follow(protocol.event(3, {"kind": "chat"}, protocol.state_changes(first, third),
                                          digest(third))) == third


def test_presence_sets_the_seats_connected_in_the_state():
    first, _ = two_states()
    follower = Follower()
    follower.follow(protocol.welcome(1, first, None, digest(first)))
    state = follower.follow(protocol.presence(0, False))
    assert state["room"]["seats"][0]["connected"] is False
    assert first["room"]["seats"][0]["connected"] is True


def test_the_event_number_is_left_out_of_the_changes():
    first, second = two_states()
    assert protocol.state_changes(first, second) == {"match": {"=": {"hand": ["9H"]}}}


@pytest.mark.parametrize("value, written", [(1.0, "1"), (0.0, "0"), (14.3, "14.3"), (None, "null"),
                                            (600, "600")])
def test_numbers_in_a_state_are_written_as_javascript_writes_them(value, written):
    assert protocol.canonical(protocol.js_number(value)).decode() == written
