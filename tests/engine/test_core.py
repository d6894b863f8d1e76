"""The shared core: action schemas, packs, dealing, the turn shortcut, views of every game."""

import copy
import json
import pickle
import random

import pytest

from engine import EVERYONE, GAMES, BadDeal, BadOptions, MalformedAction, NotYourTurn, new_match
from engine.actions import CARD, CARDS, INTEGER, OPTIONAL_FLAG, PLAY, Action, Schema, describe
from engine.bots.random_bot import random_bot
from engine.cards import of_suit
from engine.core import expand_moves
from engine.record import replay, write

SCHEMA = Schema({"play": {"card": CARD, "trump": OPTIONAL_FLAG}, "bid": {"value": INTEGER},
                 "pass": {"cards": CARDS}, "draw": {}})


@pytest.mark.parametrize("action, normal", [
    ({"type": "play", "card": "QS"}, {"type": "play", "card": "QS"}),
    ({"type": "play", "card": "QS", "trump": False}, {"type": "play", "card": "QS"}),
    ({"type": "play", "card": "QS", "trump": True}, {"type": "play", "card": "QS", "trump": True}),
    ({"type": "bid", "value": 75}, {"type": "bid", "value": 75}),
    ({"type": "draw"}, {"type": "draw"}),
])
def test_schema_normal_forms(action, normal):
    original = json.dumps(action)
    parsed = SCHEMA.parse(action)
    assert parsed == normal and type(parsed) is Action
    assert json.dumps(action) == original, "the caller's dict is never changed"
    assert parsed is not action


def test_an_action_cannot_be_changed_but_copies_and_serialises():
    action = SCHEMA.parse({"type": "play", "card": "QS", "trump": True})
    for change in (lambda a: a.__setitem__("card", "KS"), lambda a: a.__delitem__("trump"),
                   lambda a: a.update(card="KS"), lambda a: a.pop("card"), Action.clear,
                   Action.popitem, lambda a: a.setdefault("x", 1)):
        with pytest.raises(TypeError, match="read-only"):
            change(action)
    assert action == {"type": "play", "card": "QS", "trump": True}
    for copied in (copy.deepcopy(action), pickle.loads(pickle.dumps(action))):
        assert copied == action and type(copied) is Action
    assert json.dumps(action) == json.dumps(dict(action))
    assert PLAY["QS"] == {"type": "play", "card": "QS"}
    assert SCHEMA.parse({"type": "play", "card": "QS"}) is PLAY["QS"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_bot_actions_are_the_normal_form_of_their_schema(game):
    """``Deal.apply`` takes an Action without parsing it: every one the bot builds must be
    exactly what parsing the same JSON gives."""
    rng, seen = random.Random(8), set()
    for _ in range(30):
        match = new_match(game, {"target": 10 ** 6})
        deal = match.start_deal(rng=rng)
        while match.current is not None:
            seat = match.to_act()[0]
            action = random_bot(None, match.moves(seat), rng)
            assert type(action) is Action
            assert deal.schema.parse(json.loads(json.dumps(action))) == action
            seen.add(action["type"])
            match.apply(seat, action)
    assert seen == set(deal.schema.kinds)


@pytest.mark.parametrize("action, reason", [
    ("play QS", "JSON object"),
    ({"card": "QS"}, "unknown action type"),
    ({"type": "jump"}, "unknown action type"),
    ({"type": ["play"], "card": "QS"}, "unknown action type"),
    ({"type": "play"}, "needs the field 'card'"),
    ({"type": "play", "card": "QS", "extra": 1}, "has no field 'extra'"),
    ({"type": "play", "card": "Q"}, "not a card code"),
    ({"type": "play", "card": 12}, "not a card code"),
    ({"type": "play", "card": "QS", "trump": "yes"}, "true or false"),
    ({"type": "bid", "value": True}, "whole number"),
    ({"type": "bid", "value": 7.5}, "whole number"),
    ({"type": "pass", "cards": []}, "non-empty list"),
    ({"type": "pass", "cards": ["AS", "AS", "KS"]}, "named twice"),
    ({"type": "draw", "card": "QS"}, "has no field 'card'"),
])
def test_schema_refuses_malformed_actions(action, reason):
    with pytest.raises(MalformedAction, match=reason):
        SCHEMA.parse(action)


def test_describe_names_an_action_in_a_few_words():
    assert describe({"type": "play", "card": "QS"}) == "play QS"
    assert describe({"type": "pass", "cards": ["AS", "KS", "QH"]}) == "pass AS KS QH"
    assert describe({"type": "give", "card": "7C", "to": 2}) == "give 7C to 2"
    assert describe({"type": "play", "card": "KH", "trump": True}) == "play KH trumps"


def test_suit_filters_keep_hand_order():
    hand = ["7H", "AS", "KH", "2C", "QH"]
    assert of_suit(hand, "H") == ["7H", "KH", "QH"]
    assert of_suit(hand, "D") == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_start_deal_refuses_bad_packs_and_dealers(game):
    match = new_match(game)
    pack = list(GAMES[game].pack.cards)
    for deck in (pack[:-1], pack[:-1] + pack[:1], [[c] for c in pack], "AS" * 16):
        with pytest.raises(BadDeal):
            match.start_deal(deck, 0)
    with pytest.raises(BadDeal):
        match.start_deal(pack, GAMES[game].seats)
    assert match.deals == [] and match.current is None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_unknown_options_are_refused(game):
    with pytest.raises(BadOptions):
        new_match(game, {"colour": "red"})
    with pytest.raises(BadOptions):
        new_match(game, {"target": -5})
    with pytest.raises(BadOptions):
        new_match("whist")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_secure_shuffle_deals_a_permutation(game):
    match = new_match(game)
    deal = match.start_deal()
    assert GAMES[game].pack.is_permutation(deal.deck)
    assert match.next() == {"deal": 0, "seat": match.to_act()[0]}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_turn_shortcut_agrees_with_to_act_and_moves(game):
    """``Deal.turn``, when set, is the one seat to act; the moves say the same as ``to_act``."""
    rng = random.Random(11)
    for _ in range(40):
        match = new_match(game, {"target": 10 ** 6})
        deal = match.start_deal(rng=rng)
        while match.current is not None:
            to_act = deal.to_act()
            assert deal.turn is None or to_act == [deal.turn]
            for seat in range(deal.seats):
                assert bool(match.moves(seat)) == (seat in to_act)
            seat = rng.choice(to_act)
            match.apply(seat, random_bot(None, match.moves(seat), rng))
        assert deal.turn is None and deal.to_act() == [] and match.moves(0) == {}
        with pytest.raises(NotYourTurn):
            match.apply(0, {"type": "play", "card": deal.deck[0]})


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_views_of_a_whole_table_are_each_seats_own_view(game):
    """``views`` (a table told of an action at once) shares what everyone may know between the
    views, and gives each viewer what its ``view`` alone would: nobody gets another's part."""
    rng = random.Random(3)
    match = new_match(game, {"target": 10 ** 6})
    viewers = [*range(GAMES[game].seats), None]
    for _ in range(3):
        match.start_deal(rng=rng)
        while match.current is not None:
            views = match.views(viewers)
            assert views == [match.view(viewer) for viewer in viewers]
            assert views[0]["deal"]["trick"] is views[-1]["deal"]["trick"]  # shared
            assert views[0]["deals"] == [  # the score sheet, finished deals' lines kept
                {"dealer": d.dealer, "scores": d.scores(), "over": d.over,
                 "summary": d.summary() if d.over else None} for d in match.deals]
            seat = match.to_act()[0]
            match.apply(seat, random_bot(None, match.moves(seat), rng))
    everyone = [*viewers, EVERYONE]
    assert match.views(everyone) == [match.view(viewer) for viewer in everyone]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_listed_move_is_accepted(game):
    """``legal_actions`` (the expansion of ``moves``) lists only actions the engine accepts."""
    rng = random.Random(5)
    match = new_match(game)
    match.start_deal(rng=rng)
    checked = 0
    while match.current is not None and checked < 60:
        seat = match.to_act()[0]
        listed = match.legal_actions(seat)
        assert listed == expand_moves(match.moves(seat))
        record = write(match)
        for action in rng.sample(listed, min(5, len(listed))):
            replay(record).apply(seat, action)
            checked += 1
        match.apply(seat, random_bot(None, match.moves(seat), rng))


def test_each_seat_finds_its_score_where_its_side_is():
    """Game.side: a seat's index in deal scores, totals and winners (its team's in Big
    Mariage, whose teams are seats 0+2 and 1+3; its own elsewhere)."""
    from engine.big_mariage import TEAMS
    from engine.games import GAMES

    for game in GAMES.values():
        sides = [game.side(seat) for seat in range(game.seats)]
        if game.teams:
            assert all(seat in TEAMS[side] for seat, side in enumerate(sides))
        else:
            assert sides == list(range(game.seats))
    assert [g.name for g in GAMES.values() if g.lower_is_better] == ["black_maria"]
    totals = [30, 12, 40]  # Black Maria's penalties: the lowest total wins
    assert GAMES["black_maria"].winners(totals, {"target": 40}) == [1]
