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


def test_a_kitty_for_a_game_without_one_is_refused_by_name():
    from engine import BadDeal

    match = new_match("black_maria")
    with pytest.raises(BadDeal, match=r"^black_maria has no kitty$"):
        match.start_deal(list(match.game.pack.cards), 0, [1, 3, 5, 7])


def _marjolet_with_the_dix():
    """Seat 1 deals; seat 0 holds the 7 of hearts, hearts are trumps (the king turned up)."""
    match = new_match("marjolet")
    mine, theirs = ["AS", "7H", "9S", "8S", "7S", "TS"], ["8C", "9C", "TC", "JC", "QC", "KC"]
    used = mine + theirs + ["KH"]
    rest = [c for c in match.game.pack.cards if c not in used]
    match.start_deal(mine[:3] + theirs[:3] + mine[3:] + theirs[3:] + ["KH"] + rest, 1)
    return match


def test_marjolet_exchange_outside_the_window_is_refused_saying_when_it_may_be_done():
    match = _marjolet_with_the_dix()
    assert refusal(match, 0, {"type": "exchange"}) == \
        "you can only exchange just after winning a trick, before drawing"


def test_marjolet_view_after_an_exchange_of_the_dix():
    match = _marjolet_with_the_dix()
    deal = match.current
    match.apply(0, {"type": "play", "card": "AS"})
    match.apply(1, {"type": "play", "card": "8C"})  # neither follows nor trumps: seat 0 wins
    assert deal.view(None)["dix_live"] is True
    match.apply(0, {"type": "exchange"})
    view = deal.view(None)
    assert view["dix_live"] is False and view["turn_up"] == "7H"
    assert view["card_points"] == [10, 0] and view["played"] == ["AS", "8C"]
    assert view["scores"] == [20, 0]  # the ace and the exchange


def test_marjolet_play_in_the_window_is_refused_saying_draw_first():
    match = _marjolet_with_the_dix()
    match.apply(0, {"type": "play", "card": "AS"})
    match.apply(1, {"type": "play", "card": "8C"})
    assert refusal(match, 0, {"type": "play", "card": "9S"}) == \
        "declare, exchange or draw: you must draw before the next trick"


def test_marjolet_dix_played_scores_once_and_is_no_longer_live():
    match = _marjolet_with_the_dix()
    deal = match.current
    match.apply(0, {"type": "play", "card": "7H"})
    view = deal.view(None)
    assert view["dix_live"] is False and view["scores"] == [10, 0]


def test_a_record_that_is_not_json_says_so_on_its_line():
    from engine.record import RecordError, load

    with pytest.raises(RecordError) as raised:
        load("{not json")
    assert str(raised.value).startswith("deal -, action -, seat -, -: not JSON: ")


@pytest.mark.parametrize("cards, sentence", [
    ([], "cards must be a non-empty list of card codes"),
    (["AS", "AS", "KS"], "the same card is named twice"),
])
def test_a_malformed_list_of_cards_is_named(cards, sentence):
    from engine import MalformedAction

    match, _ = _black_maria()
    with pytest.raises(MalformedAction) as raised:
        match.apply(1, {"type": "pass", "cards": cards})
    assert str(raised.value) == sentence


@pytest.mark.parametrize("kitty, sentence", [
    ([1, 3, 5], "the kitty must be a list of 4 card positions in the pack"),
    ([1, 3, 3, 7], "the kitty names the same position twice"),
    ([0, 3, 5, 7], "the kitty cannot take position 0 (neither the first nor the last card, "
                   "0 to 31)"),
    ([1, 3, 4, 7], "the kitty cannot take two consecutive cards (3 and 4)"),
])
def test_a_big_mariage_kitty_that_cannot_be_is_named(kitty, sentence):
    from engine import BadDeal

    match = new_match("big_mariage")
    with pytest.raises(BadDeal) as raised:
        match.start_deal(list(match.game.pack.cards), 0, kitty)
    assert str(raised.value) == sentence


def test_big_mariage_trump_call_on_a_card_that_cannot_call_is_refused_with_the_rule():
    import random

    rng = random.Random(9)
    while True:  # a deal whose declarer leads holding a king without its queen
        match = new_match("big_mariage")
        deal = match.start_deal(rng=rng)
        first = match.to_act()[0]
        match.apply(first, {"type": "bid", "value": 60})
        for _ in range(3):
            match.apply(match.to_act()[0], {"type": "pass"})
        for to in [s for s in range(4) if s != first]:
            match.apply(first, {"type": "give", "card": deal.hands[first][0], "to": to})
        match.apply(first, {"type": "contract", "value": 60})
        lone = [c for c in deal.hands[first] if c[0] == "K" and "Q" + c[1] not in deal.hands[first]]
        if lone:
            break
    assert refusal(match, first, {"type": "play", "card": lone[0], "trump": True}) == \
        "you can only call trumps when leading a king or queen of a marriage you hold"


def _big_mariage_at_the_kitty(rng):
    """A Big Mariage deal whose first bidder won the bidding at 60: (match, deal, declarer)."""
    match = new_match("big_mariage")
    deal = match.start_deal(rng=rng)
    first = match.to_act()[0]
    match.apply(first, {"type": "bid", "value": 60})
    for _ in range(3):
        match.apply(match.to_act()[0], {"type": "pass"})
    return match, deal, first


def test_big_mariage_give_and_contract_refusals():
    import random

    match, deal, declarer = _big_mariage_at_the_kitty(random.Random(3))
    card = deal.hands[declarer][0]
    assert refusal(match, declarer, {"type": "give", "card": card, "to": declarer}) == \
        "you give your cards to the other three players, not to yourself"
    for to in [s for s in range(4) if s != declarer]:
        match.apply(declarer, {"type": "give", "card": deal.hands[declarer][0], "to": to})
    assert refusal(match, declarer, {"type": "contract", "value": 62}) == \
        "a contract must be a multiple of 5"
    assert refusal(match, declarer, {"type": "contract", "value": 405}) == \
        "a contract cannot be higher than 400"


def test_big_mariage_trump_call_is_listed_with_its_seat_card_suit_and_trick():
    import random

    rng = random.Random(5)
    while True:
        match, deal, declarer = _big_mariage_at_the_kitty(rng)
        for to in [s for s in range(4) if s != declarer]:
            match.apply(declarer, {"type": "give", "card": deal.hands[declarer][0], "to": to})
        match.apply(declarer, {"type": "contract", "value": 60})
        hand = deal.hands[declarer]
        suits = [c[1] for c in hand if c[0] == "K" and "Q" + c[1] in hand]
        if suits:
            break
    match.apply(declarer, {"type": "play", "card": "Q" + suits[0], "trump": True})
    assert deal.view(None)["trump_calls"] == [
        {"seat": declarer, "card": "Q" + suits[0], "suit": suits[0], "trick": 0}]
    follower = match.to_act()[0]  # a trump call is for the lead only
    card = match.moves(follower)["play"][0]
    assert refusal(match, follower, {"type": "play", "card": card, "trump": True}) == \
        "you can only call trumps when leading a king or queen of a marriage you hold"
