"""Refusals carry a sentence the player who caused them understands (README, docs/protocol.md's
Refusals): the ones the other tests reach only by their type."""

import pytest

from engine import BadOptions, IllegalAction, new_match


def refusal(match, seat, action):
    with pytest.raises(IllegalAction) as raised:
        match.apply(seat, action)
    return str(raised.value)


def test_an_unknown_game_is_named():
    with pytest.raises(BadOptions, match=r"^unknown game 'whist'$"):
        new_match("whist")


def _black_maria():
    match = new_match("black_maria")
    deck = list(match.game.pack.cards)
    match.start_deal(deck, 0)
    hands = {seat: [deck[i] for i in range(51) if (1 + i) % 3 == seat] for seat in range(3)}
    return match, hands


def test_black_maria_refusals():
    match, hands = _black_maria()
    assert refusal(match, 1, {"type": "play", "card": hands[1][0]}) == \
        "everyone must pass three cards first"
    for seat in (1, 2, 0):
        match.apply(seat, {"type": "pass", "cards": hands[seat][:3]})
    leader = match.to_act()[0]
    assert refusal(match, leader, {"type": "pass", "cards": hands[leader][3:6]}) == \
        "the passing is over"
    assert refusal(match, leader, {"type": "play", "card": "2C"}) == "2C is not in your hand"


def test_marjolet_refuses_a_window_action_outside_the_window_saying_when_it_may_be_done():
    match = new_match("marjolet")
    match.start_deal(list(match.game.pack.cards), 1)
    assert refusal(match, 0, {"type": "draw"}) == \
        "you can only draw just after winning a trick, before drawing"
    assert refusal(match, 0, {"type": "declare", "cards": ["AS", "TS"]}) == \
        "you can only declare just after winning a trick, before drawing"
