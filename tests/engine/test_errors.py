"""Coded refusals: every reason the engine registers is one it can give, with its parameters,
and every refusal it makes is a registered reason whose sentence is its template filled in."""

import ast
import json
import pathlib
import random
import string

import pytest

from engine import (
    GAMES,
    BadDeal,
    BadOptions,
    EngineError,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    new_match,
)
from engine.bots.random_bot import random_bot
from engine.errors import PARAMS, REASONS, english

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "engine"
ERRORS = {"EngineError", "MalformedAction", "NotYourTurn", "IllegalAction", "BadDeal",
          "BadOptions"}


# -- the registry and the sentence ---------------------------------------------------------------

def test_a_refusal_is_its_id_params_and_the_template_filled_in():
    error = IllegalAction("follow_suit", suit="H")
    assert (error.reason, error.params) == ("follow_suit", {"suit": "H"})
    assert error.message == str(error) == "you must follow suit (hearts)"
    error = BadDeal("wrong_dealer", seat=1, named_seat=2)
    assert error.message == "seat 1 must deal, not seat 2"
    assert MalformedAction("extra_field", type="play", field="x").message == \
        "play has no field 'x'"


def test_an_unregistered_reason_or_other_params_cannot_be_built():
    with pytest.raises(ValueError, match="unknown refusal reason"):
        IllegalAction("you must follow suit (hearts)")
    with pytest.raises(TypeError):
        IllegalAction("follow_suit")
    with pytest.raises(TypeError):
        IllegalAction("follow_suit", suit="H", card="QS")


def test_params_are_the_templates_fields():
    for reason, template in REASONS.items():
        fields = [f for _, f, _, _ in string.Formatter().parse(template) if f]
        assert PARAMS[reason] == tuple(fields)
        assert all(f.isidentifier() and not f[0].isdigit() for f in fields), reason


def raise_sites() -> list[tuple[str, ast.Call]]:
    """Every construction of an engine error in engine/ (name of the file, the call)."""
    sites = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ERRORS:
                sites.append((path.name, node))
    return sites


def literal_reasons(node) -> list[str]:
    """The reason ids a call's first argument can take: a string, or a choice of strings."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return literal_reasons(node.body) + literal_reasons(node.orelse)
    raise AssertionError(f"a reason id must be written out: {ast.unparse(node)}")


def test_every_raise_site_names_a_registered_reason_with_its_params():
    used = set()
    sites = raise_sites()
    assert len(sites) > 50
    for name, call in sites:
        where = f"{name}:{call.lineno}"
        assert call.args and len(call.args) == 1, where
        assert not any(k.arg is None for k in call.keywords), where  # no **params
        given = {k.arg for k in call.keywords}
        for reason in literal_reasons(call.args[0]):
            assert reason in REASONS, where
            assert given == set(PARAMS[reason]), where
            used.add(reason)
    assert used == set(REASONS), "registered but never given"


# -- every reason, given by the engine -----------------------------------------------------------

def started(game, options=None, dealer=0, kitty=None):
    """A match of ``game`` whose first deal is the unshuffled pack."""
    match = new_match(game, options)
    match.start_deal(list(match.game.pack.cards), dealer, kitty)
    return match


def finished_deal(game="black_maria", options=None):
    """A match of ``game`` after one deal of seeded random play, dealt by seat 0."""
    rng = random.Random(3)
    match = new_match(game, options)
    match.start_deal(dealer=0, rng=rng)
    while match.current is not None:
        seat = match.to_act()[0]
        match.apply(seat, random_bot(None, match.moves(seat), rng))
    return match


def search(game, want, options=None):
    """The first position of seeded random self-play where ``want(deal, seat, moves)`` names
    an action to try and the params expected of its refusal: (match, seat, action, params)."""
    rng = random.Random(0)
    match = new_match(game, {"target": 10 ** 6, **(options or {})})
    for _ in range(300):
        match.start_deal(rng=rng)
        while match.current is not None:
            seat = match.to_act()[0]
            moves = match.moves(seat)
            found = want(match.current, seat, moves)
            if found is not None:
                return match, seat, *found
            match.apply(seat, random_bot(None, moves, rng))
    raise AssertionError("no such position")


def refused_play(game, want, options=None):
    """The refusal of the play ``want`` finds (see :func:`search`) and the params expected."""
    match, seat, action, params = search(game, want, options)
    with pytest.raises(EngineError) as caught:
        match.apply(seat, action)
    return caught.value, params


def unplayable(deal, seat, moves, suit_of_card, phase="play"):
    """A card of ``seat``'s hand the moves leave out, following a trick, of a suit that
    ``suit_of_card(led, card, allowed)`` accepts."""
    if deal.phase != phase or not deal.trick or "play" not in moves:
        return None
    led, allowed = deal.trick[0], moves["play"]
    for card in deal.hands[seat]:
        if card not in allowed and suit_of_card(led, card, allowed):
            return {"type": "play", "card": card}
    return None


def revoke(game, phase="play"):
    def want(deal, seat, moves):
        action = unplayable(deal, seat, moves,
                            lambda led, card, allowed: allowed[0][1] == led[1] != card[1], phase)
        return action and (action, {"suit": deal.trick[0][1]})
    return want


def not_trumping(deal, seat, moves):
    action = unplayable(deal, seat, moves,
                        lambda led, card, allowed: allowed[0][1] != led[1], "end")
    return action and (action, {"suit": deal.trump})


def not_heading(deal, seat, moves):
    action = unplayable(deal, seat, moves,
                        lambda led, card, allowed: card[1] == led[1], "end")
    return action and (action, {})


def not_playing_trump(deal, seat, moves):
    action = unplayable(deal, seat, moves,
                        lambda led, card, allowed: allowed[0][1] not in (led[1], card[1]))
    return action and (action, {"suit": deal.trump})


def in_phase(phase, action):
    def want(deal, seat, moves):
        return (action(deal, seat), {}) if deal.phase == phase else None
    return want


def a_card_of(deal, seat, count=2):
    return deal.hands[seat][:count]


def marjolet_window(options=None):
    """Marjolet, seat 0 in the window after winning the first trick: it holds JS JH JD JC QD
    (trumps are diamonds: the turn-up is 8D) and not the 7D."""
    hands = [["AS", "JS", "JH"], ["7S", "8S", "9S"], ["JD", "JC", "QD"], ["7H", "8H", "9H"]]
    used = [c for h in hands for c in h] + ["8D"]
    rest = [c for c in GAMES["marjolet"].pack.cards if c not in used]
    match = new_match("marjolet", options)
    match.start_deal(hands[0] + hands[1] + hands[2] + hands[3] + ["8D"] + rest, 1)
    match.apply(0, {"type": "play", "card": "AS"})
    match.apply(1, {"type": "play", "card": "7S"})
    return match


def big_mariage_at(phase):
    """Big Mariage from the unshuffled pack, seat 0 dealing, brought to ``phase``: seat 1 bids
    60 and wins the bidding, takes the kitty (TS QS 9S 7S), gives 7S to seat 2 (in the kitty
    phase: only that), QS and TS to seats 3 and 0, and fixes the contract at 60."""
    match = started("big_mariage", kitty=[1, 3, 5, 7])
    if phase == "bidding":
        return match
    match.apply(1, {"type": "bid", "value": 60})
    for seat in (2, 3, 0):
        match.apply(seat, {"type": "pass"})
    match.apply(1, {"type": "give", "card": "7S", "to": 2})
    if phase == "kitty":
        return match
    match.apply(1, {"type": "give", "card": "QS", "to": 3})
    match.apply(1, {"type": "give", "card": "TS", "to": 0})
    if phase == "contract":
        return match
    match.apply(1, {"type": "contract", "value": 60})
    return match


def declared_twice():
    match = marjolet_window()
    match.apply(0, {"type": "declare", "cards": ["QD", "JD"]})
    return match.apply(0, {"type": "declare", "cards": ["JD", "QD"]})


def outbid_by_the_same():
    match = big_mariage_at("bidding")
    match.apply(1, {"type": "bid", "value": 65})
    return match.apply(2, {"type": "bid", "value": 65})


def card_of_another_seat():
    match = black_maria_passed()
    card = match.current.hands[2][0]
    return refusal(play(match, 1, card)), {"card": card}


def refusal(call):
    with pytest.raises(EngineError) as caught:
        call()
    return caught.value


def black_maria_passed():
    """Black Maria from the unshuffled pack, seat 0 dealing, every seat's pass made: seat 1
    leads."""
    match = started("black_maria")
    for seat in (1, 2, 0):
        match.apply(seat, {"type": "pass", "cards": match.current.hands[seat][:3]})
    return match


def play(match, seat, card, **fields):
    return lambda: match.apply(seat, {"type": "play", "card": card, **fields})


def act(match, seat, **action):
    return lambda: match.apply(seat, action)


def by_seat_to_act(match, make):
    seat = match.to_act()[0]
    return lambda: match.apply(seat, make(match.current, seat))


# Each reason -> (its class, how to make the engine give it, the params it must carry). A
# callable of two values returns (error, params) itself (positions found by random play).
SCENARIOS = {
    "action_not_object": (MalformedAction, lambda: started("black_maria").apply(1, []), {}),
    "unknown_action": (MalformedAction, lambda: started("marjolet").apply(0, {"type": "jump"}),
                       {"value": "jump"}),
    "missing_field": (MalformedAction, lambda: started("marjolet").apply(0, {"type": "play"}),
                      {"type": "play", "field": "card"}),
    "extra_field": (MalformedAction,
                    lambda: started("marjolet").apply(0, {"type": "draw", "card": "AS"}),
                    {"type": "draw", "field": "card"}),
    "not_a_card": (MalformedAction, lambda: play(started("marjolet"), 0, "ASS")(),
                   {"value": "ASS"}),
    "not_a_card_list": (MalformedAction,
                        lambda: act(started("black_maria"), 1, type="pass", cards=[])(), {}),
    "card_named_twice": (MalformedAction,
                         lambda: act(started("black_maria"), 1, type="pass",
                                     cards=["AS", "AS", "JS"])(), {}),
    "not_a_number": (MalformedAction,
                     lambda: act(big_mariage_at("bidding"), 1, type="bid", value="60")(),
                     {"value": "60"}),
    "not_a_flag": (MalformedAction,
                   lambda: play(big_mariage_at("play"), 1, "AS", trump="yes")(),
                   {"value": "yes"}),
    "not_your_turn": (NotYourTurn, lambda: act(started("marjolet"), 0, type="draw")(), {}),
    "deal_over": (NotYourTurn, lambda: finished_deal().deals[0].apply(0, {"type": "play",
                                                                          "card": "AS"}), {}),
    "match_over": (NotYourTurn,
                   lambda: play(finished_deal(options={"target": 1}), 1, "AS")(), {}),
    "no_deal": (NotYourTurn, lambda: play(new_match("marjolet"), 0, "AS")(), {}),
    "unknown_game": (BadOptions, lambda: new_match("whist"), {"game": "whist"}),
    "options_not_object": (BadOptions, lambda: new_match("marjolet", [500]), {}),
    "unknown_option": (BadOptions, lambda: new_match("marjolet", {"speed": 2}),
                       {"game": "marjolet", "option": "speed"}),
    "bad_option_value": (BadOptions, lambda: new_match("marjolet", {"target": 0}),
                         {"option": "target", "value": 0}),
    "deal_in_progress": (BadDeal, lambda: started("marjolet").start_deal(), {}),
    "no_dealer_seat": (BadDeal, lambda: new_match("marjolet").start_deal(dealer=2),
                       {"value": 2}),
    "wrong_dealer": (BadDeal, lambda: finished_deal().start_deal(dealer=2),
                     {"seat": 1, "named_seat": 2}),
    "bad_pack": (BadDeal, lambda: new_match("marjolet").start_deal(["AS"], 0), {}),
    "no_kitty": (BadDeal, lambda: started("black_maria", kitty=[1, 3, 5, 7]),
                 {"game": "black_maria"}),
    "kitty_shape": (BadDeal, lambda: started("big_mariage", kitty=[1, 3]), {"count": 4}),
    "kitty_repeats": (BadDeal, lambda: started("big_mariage", kitty=[1, 1, 3, 5]), {}),
    "kitty_position": (BadDeal, lambda: started("big_mariage", kitty=[1, 3, 5, 31]),
                       {"position": 31, "last": 31}),
    "kitty_consecutive": (BadDeal, lambda: started("big_mariage", kitty=[1, 3, 4, 7]),
                          {"position": 3, "next_position": 4}),
    "not_in_hand": (IllegalAction, card_of_another_seat),
    "follow_suit": (IllegalAction, lambda: refused_play("black_maria", revoke("black_maria"))),
    "passing_over": (IllegalAction,
                     lambda: by_seat_to_act(black_maria_passed(), lambda deal, seat: {
                         "type": "pass", "cards": deal.hands[seat][:3]})(), {}),
    "pass_exactly": (IllegalAction,
                     lambda: act(started("black_maria"), 1, type="pass",
                                 cards=["AS", "JS"])(), {"count": 3}),
    "pass_first": (IllegalAction, lambda: play(started("black_maria"), 1, "AS")(), {}),
    "must_trump": (IllegalAction, lambda: refused_play("marjolet", not_trumping)),
    "head_trick": (IllegalAction, lambda: refused_play("marjolet", not_heading)),
    "draw_first": (IllegalAction, lambda: play(marjolet_window(), 0, "JS")(), {}),
    "after_trick_declare": (IllegalAction,
                            lambda: act(started("marjolet"), 1, type="declare",
                                        cards=["KS", "QS"])(), {}),
    "after_trick_exchange": (IllegalAction,
                             lambda: act(started("marjolet"), 1, type="exchange")(), {}),
    "after_trick_draw": (IllegalAction, lambda: act(started("marjolet"), 1, type="draw")(), {}),
    "stock_out_declare": (IllegalAction, lambda: refused_play("marjolet", in_phase(
        "end", lambda deal, seat: {"type": "declare", "cards": a_card_of(deal, seat)}))),
    "stock_out_exchange": (IllegalAction, lambda: refused_play("marjolet", in_phase(
        "end", lambda deal, seat: {"type": "exchange"}))),
    "stock_out_draw": (IllegalAction, lambda: refused_play("marjolet", in_phase(
        "end", lambda deal, seat: {"type": "draw"}))),
    "four_jacks": (IllegalAction, lambda: act(marjolet_window(), 0, type="declare",
                                              cards=["JS", "JH", "JD", "JC"])(), {}),
    "jack_same_suit": (IllegalAction,
                       lambda: act(marjolet_window({"jack_queen": "same_suit"}), 0,
                                   type="declare", cards=["JS", "QD"])(), {}),
    "no_combination": (IllegalAction, lambda: act(marjolet_window(), 0, type="declare",
                                                  cards=["JS", "JH"])(), {}),
    "scored_already": (IllegalAction, declared_twice, {}),
    "no_dix": (IllegalAction, lambda: act(marjolet_window(), 0, type="exchange")(),
               {"card": "7D"}),
    "time_bid": (IllegalAction, lambda: play(big_mariage_at("bidding"), 1, "AS")(), {}),
    "time_give": (IllegalAction,
                  lambda: act(big_mariage_at("kitty"), 1, type="bid", value=80)(), {}),
    "time_contract": (IllegalAction,
                      lambda: act(big_mariage_at("contract"), 1, type="pass")(), {}),
    "time_play": (IllegalAction,
                  lambda: act(big_mariage_at("play"), 1, type="contract", value=60)(), {}),
    "bid_multiple": (IllegalAction,
                     lambda: act(big_mariage_at("bidding"), 1, type="bid", value=62)(),
                     {"step": 5}),
    "contract_multiple": (IllegalAction,
                          lambda: act(big_mariage_at("contract"), 1, type="contract",
                                      value=62)(), {"step": 5}),
    "bid_max": (IllegalAction, lambda: act(big_mariage_at("bidding"), 1, type="bid",
                                           value=405)(), {"max": 400}),
    "contract_max": (IllegalAction, lambda: act(big_mariage_at("contract"), 1, type="contract",
                                                value=405)(), {"max": 400}),
    "lowest_bid": (IllegalAction, lambda: act(big_mariage_at("bidding"), 1, type="bid",
                                              value=55)(), {"bid": 60}),
    "bid_higher": (IllegalAction, outbid_by_the_same, {"bid": 65}),
    "contract_low": (IllegalAction, lambda: act(big_mariage_at("contract"), 1, type="contract",
                                                value=55)(), {"bid": 60}),
    "no_seat": (IllegalAction, lambda: act(big_mariage_at("kitty"), 1, type="give", card="9S",
                                           to=4)(), {"seat": 4}),
    "give_self": (IllegalAction, lambda: act(big_mariage_at("kitty"), 1, type="give",
                                             card="9S", to=1)(), {}),
    "given_already": (IllegalAction, lambda: act(big_mariage_at("kitty"), 1, type="give",
                                                 card="9S", to=2)(), {"seat": 2}),
    "call_trumps": (IllegalAction, lambda: play(big_mariage_at("play"), 1, "AS", trump=True)(),
                    {}),
    "must_play_trump": (IllegalAction, lambda: refused_play("big_mariage", not_playing_trump)),
}


def test_every_reason_has_a_scenario():
    assert set(SCENARIOS) == set(REASONS)


@pytest.mark.parametrize("reason", sorted(SCENARIOS))
def test_the_engine_gives_every_reason(reason):
    kind, make, *expected = SCENARIOS[reason]
    if expected:
        error, params = refusal(make), expected[0]
    else:
        error, params = make()
    assert type(error) is kind
    assert (error.reason, error.params) == (reason, params)
    assert error.message == str(error) == english(reason, params)
    assert json.loads(json.dumps(error.params)) == error.params
