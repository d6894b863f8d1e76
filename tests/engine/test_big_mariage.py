"""Big Mariage: every rule and convention of rules.md section 3, on hand-made packs, plus
seeded random play-outs, record round trips and the conformance records."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine.big_mariage import (
    CARD_POINTS,
    MARRIAGE_POINTS,
    BigMariage,
    BigMariageDeal,
    card_points,
    round_defence,
)
from engine.bots.big_mariage import big_mariage_bot
from engine.bots.random_bot import random_bot
from engine.core import EVERYONE, Match, expand_moves
from engine.errors import (
    BadDeal,
    BadOptions,
    EngineError,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
)

GAME = BigMariage()
PACK = GAME.pack.cards
KITTY = [1, 3, 5, 7]


# -- helpers -----------------------------------------------------------------------------------

def build(hands, kitty_cards=(), dealer=3, kitty=KITTY):
    """deck and kitty indices so that seat s is dealt ``hands[s]`` and the kitty holds
    ``kitty_cards``; the rest (kitty first, from the low clubs) is filled in from the unused
    cards in pack order, round robin over the hands."""
    hands = [list(h) for h in hands] + [[] for _ in range(4 - len(hands))]
    kitty_cards = list(kitty_cards)
    used = {c for h in hands for c in h} | set(kitty_cards)
    assert len(used) == sum(len(h) for h in hands) + len(kitty_cards), "a card named twice"
    spare = [c for c in PACK if c not in used]
    while len(kitty_cards) < 4:
        kitty_cards.append(spare.pop())  # low cards (clubs) to the kitty
    seat = 0
    for card in spare:  # round robin, so that a K and Q of one suit rarely meet in a hand
        while len(hands[seat]) >= 7:
            seat = (seat + 1) % 4
        hands[seat].append(card)
        seat = (seat + 1) % 4
    kitty = sorted(kitty)
    deck = [None] * 32
    for i, c in zip(kitty, kitty_cards, strict=True):
        deck[i] = c
    positions = [i for i in range(32) if i not in kitty]
    for j, i in enumerate(positions):
        deck[i] = hands[(dealer + 1 + j) % 4][j // 4]
    return deck, kitty


def start(hands=(), kitty_cards=(), dealer=3, options=None):
    match = Match(GAME, options)
    deck, kitty = build(hands, kitty_cards, dealer)
    deal = match.start_deal(deck, dealer, kitty)
    return match, deal


def bid_to(match, declarer, value=60):
    """From the start of the bidding: ``declarer`` bids ``value``, everyone else passes."""
    deal = match.current
    while deal.phase == "bidding":
        seat = deal.turn
        if seat == declarer and deal.high_bid is None:
            match.apply(seat, {"type": "bid", "value": value})
        else:
            match.apply(seat, {"type": "pass"})
    assert deal.declarer == declarer


def give(match, gives):
    """``gives``: {seat: card}; unnamed seats get the declarer's lowest non-K/Q card."""
    deal = match.current
    d = deal.declarer
    for seat in [(d + 1) % 4, (d + 2) % 4, (d + 3) % 4]:
        card = gives.get(seat)
        if card is None:  # a kitty card nobody asked for, else a low card
            free = [c for c in deal.hands[d] if c not in gives.values()]
            card = next((c for c in free if c in deal.kitty_cards), None) or \
                next(c for c in free if c[0] in "789")
        match.apply(d, {"type": "give", "card": card, "to": seat})


def to_play(hands=(), kitty_cards=(), declarer=0, gives=None, contract=60, options=None,
            dealer=3, bid=60):
    match, deal = start(hands, kitty_cards, dealer, options)
    bid_to(match, declarer, bid)
    give(match, gives or {})
    match.apply(declarer, {"type": "contract", "value": contract})
    return match, deal


def play(match, seat, card, trump=False):
    action = {"type": "play", "card": card}
    if trump:
        action["trump"] = True
    return match.apply(seat, action)


def snapshot(deal):
    """Everything the deal holds (its whole state), to compare before and after."""
    state = {k: v for k, v in vars(deal).items() if k not in ("actions", "deck", "options")}
    return repr(sorted(state.items())), len(deal.actions), deal.actions[-1:]


def refused(match, seat, action, error=IllegalAction, match_text=None):
    """The action is refused with ``error`` and changes nothing."""
    deal = match.deals[-1]
    before = snapshot(deal)
    totals = list(match.totals)
    with pytest.raises(error) as caught:
        match.apply(seat, action)
    assert snapshot(deal) == before
    assert match.totals == totals
    if match_text:
        assert match_text in caught.value.message
    return caught.value.message


# -- the game and its options ------------------------------------------------------------------

def test_game_constants():
    assert GAME.name == "big_mariage" and GAME.title == "Big Mariage"
    assert GAME.seats == 4 and GAME.teams is True and GAME.score_width == 2
    assert GAME.deal_type is BigMariageDeal
    assert len(PACK) == 32
    assert [c for c in PACK if c[1] == "S"] == ["AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S"]
    assert sum(card_points([c]) for c in PACK) == 120
    assert CARD_POINTS == {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
    assert MARRIAGE_POINTS == {"H": 100, "D": 80, "C": 60, "S": 40}


def test_options_defaults_and_validation():
    assert GAME.check_options({}) == {"target": 1000, "marriages": "declared"}
    assert GAME.check_options({"target": 1500, "marriages": "trump_only"}) == \
        {"target": 1500, "marriages": "trump_only"}
    for bad in ({"target": 0}, {"target": -5}, {"target": True}, {"target": "1000"},
                {"marriages": "none"}, {"marriages": True}, {"bonus": 1}):
        with pytest.raises(BadOptions):
            GAME.check_options(bad)
    for option in GAME.options.values():
        assert option.meaning


# -- pack, kitty, deal -------------------------------------------------------------------------

def test_deal_one_card_at_a_time_from_dealers_left_skipping_the_kitty():
    deck = list(PACK)
    for dealer in range(4):
        deal = Match(GAME).start_deal(deck, dealer, [2, 9, 20, 30])
        rest = [c for i, c in enumerate(deck) if i not in (2, 9, 20, 30)]
        for j in range(4):
            assert deal.hands[(dealer + 1 + j) % 4] == rest[j::4]
        assert sorted(deal.kitty_cards) == sorted([deck[2], deck[9], deck[20], deck[30]])
        assert all(len(h) == 7 for h in deal.hands)


def test_build_helper_gives_the_hands_asked():
    match, deal = start([["AH", "KH"], ["QH"]], ["7S"], dealer=1)
    assert deal.hands[0][:2] == ["AH", "KH"] and deal.hands[1][0] == "QH"
    assert "7S" in deal.kitty_cards


@pytest.mark.parametrize("kitty", [
    None, [1, 3, 5], [1, 3, 5, 7, 9], [0, 3, 5, 7], [1, 3, 5, 31], [1, 2, 5, 7], [1, 3, 5, 5],
    [1, 3, 5, 32], [1, 3, 5, -1], [1, 3, 5, True], [1, 3, 5, "7"], [1.0, 3, 5, 7], (1, 3, 5, 7),
    [30, 29, 10, 20],
])
def test_bad_kitty_refused(kitty):
    with pytest.raises(BadDeal):
        GAME.check_kitty(kitty)
    with pytest.raises(BadDeal):
        Match(GAME).start_deal(list(PACK), 0, kitty)


def test_good_kitty_in_any_order():
    for kitty in ([1, 3, 5, 7], [30, 1, 15, 28], [2, 4, 6, 8], [27, 25, 29, 23]):
        GAME.check_kitty(kitty)


def test_shuffle_gives_valid_random_kitties():
    rng = random.Random(7)
    seen = set()
    for _ in range(3000):
        deck, kitty = GAME.shuffle(rng)
        GAME.check_kitty(kitty)
        assert GAME.pack.is_permutation(deck)
        seen.add(tuple(sorted(kitty)))
    assert len(seen) > 2000  # widely spread
    assert any(k[0] == 1 for k in seen) and any(k[-1] == 30 for k in seen)


def test_dealer_rotates_to_the_left():
    match, deal = start(dealer=2)
    for _ in range(4):
        match.apply(match.current.turn, {"type": "pass"})
    deck, kitty = build([], dealer=0)
    with pytest.raises(BadDeal):
        match.start_deal(deck, 0, kitty)
    with pytest.raises(BadDeal):
        match.start_deal(deck, 3, None)  # a kitty is required
    assert match.start_deal(deck, 3, kitty).dealer == 3


# -- bidding -----------------------------------------------------------------------------------

def test_bidding_starts_left_of_dealer_and_goes_clockwise():
    match, deal = start(dealer=1)
    assert deal.phase == "bidding" and deal.to_act() == [2]
    assert match.next() == {"deal": 0, "seat": 2}
    match.apply(2, {"type": "bid", "value": 60})
    assert deal.to_act() == [3]
    match.apply(3, {"type": "pass"})
    assert deal.to_act() == [0]
    match.apply(0, {"type": "bid", "value": 65})
    assert deal.to_act() == [1]
    match.apply(1, {"type": "bid", "value": 70})
    assert deal.to_act() == [2]  # seat 3 passed: skipped from now on
    match.apply(2, {"type": "pass"})
    assert deal.to_act() == [0]
    match.apply(0, {"type": "bid", "value": 100})
    assert deal.to_act() == [1]
    match.apply(1, {"type": "pass"})
    assert deal.phase == "kitty" and deal.declarer == 0 and deal.high_bid == 100
    assert deal.view(None)["bids"] == [[2, 60], [3, "pass"], [0, 65], [1, 70], [2, "pass"],
                                       [0, 100], [1, "pass"]]


def test_out_of_turn_refused():
    match, deal = start(dealer=3)
    refused(match, 1, {"type": "bid", "value": 60}, NotYourTurn)
    refused(match, 7, {"type": "pass"}, NotYourTurn)


def test_bid_values():
    match, deal = start(dealer=3)
    assert refused(match, 0, {"type": "bid", "value": 67}) == "a bid must be a multiple of 5"
    refused(match, 0, {"type": "bid", "value": 55}, match_text="60")
    refused(match, 0, {"type": "bid", "value": 0})
    refused(match, 0, {"type": "bid", "value": -60})
    refused(match, 0, {"type": "bid", "value": 405}, match_text="400")
    refused(match, 0, {"type": "bid", "value": "60"}, MalformedAction)
    refused(match, 0, {"type": "bid", "value": 60.0}, MalformedAction)
    refused(match, 0, {"type": "bid"}, MalformedAction)
    refused(match, 0, {"type": "bid", "value": 60, "card": "AS"}, MalformedAction)
    refused(match, 0, {"type": "pass", "to": 1}, MalformedAction)
    refused(match, 1, {"type": "pass"}, NotYourTurn)
    moves = match.moves(0)
    assert moves["pass"] == {} and moves["bid"][0] == 60 and moves["bid"][-1] == 400
    assert moves["bid"] == list(range(60, 401, 5))
    match.apply(0, {"type": "bid", "value": 60})
    refused(match, 1, {"type": "bid", "value": 60}, match_text="higher")
    refused(match, 1, {"type": "bid", "value": 55})
    assert match.moves(1)["bid"][0] == 65
    match.apply(1, {"type": "bid", "value": 65})
    match.apply(2, {"type": "bid", "value": 400})  # the convention's cap is a legal bid
    assert match.moves(3) == {"pass": {}}  # nothing above 400
    refused(match, 3, {"type": "bid", "value": 405})
    for seat in (3, 0, 1):
        match.apply(seat, {"type": "pass"})
    assert deal.declarer == 2 and deal.phase == "kitty"


def test_first_three_pass_fourth_may_bid():
    match, deal = start(dealer=0)
    for seat in (1, 2, 3):
        match.apply(seat, {"type": "pass"})
    assert deal.to_act() == [0] and "bid" in match.moves(0)
    match.apply(0, {"type": "bid", "value": 60})
    assert deal.phase == "kitty" and deal.declarer == 0


def test_all_pass_throws_the_deal_in():
    match, deal = start(dealer=0)
    for seat in (1, 2, 3, 0):
        match.apply(seat, {"type": "pass"})
    assert deal.over and deal.phase == "over"
    assert deal.scores() == [0, 0] and match.totals == [0, 0]
    assert match.deal_scores() == [[0, 0]]
    assert match.next() == {"deal": 1, "seat": 2}  # the next dealer (1) deals; 2 bids first
    assert deal.summary()["thrown_in"] is True
    refused(match, 1, {"type": "pass"}, NotYourTurn)
    refused(match, 2, {"type": "play", "card": deal.hands[2][0]}, NotYourTurn)
    with pytest.raises(NotYourTurn):
        deal.apply(1, {"type": "pass"})  # the deal itself refuses too
    assert deal.moves(1) == {} and deal.to_act() == []


def test_passed_player_is_out_of_the_bidding():
    match, deal = start(dealer=3)
    match.apply(0, {"type": "pass"})
    match.apply(1, {"type": "bid", "value": 60})
    match.apply(2, {"type": "pass"})
    match.apply(3, {"type": "bid", "value": 70})
    assert deal.to_act() == [1]  # 0 has passed
    refused(match, 0, {"type": "bid", "value": 80}, NotYourTurn)
    match.apply(1, {"type": "pass"})
    assert deal.declarer == 3


def test_wrong_action_for_the_phase():
    match, deal = start(dealer=3)
    refused(match, 0, {"type": "play", "card": deal.hands[0][0]}, match_text="bid or pass")
    refused(match, 0, {"type": "contract", "value": 60})
    refused(match, 0, {"type": "give", "card": deal.hands[0][0], "to": 1})
    refused(match, 0, {"type": "declare", "cards": ["KH", "QH"]}, MalformedAction)


# -- kitty and gives ---------------------------------------------------------------------------

def test_declarer_takes_the_kitty_and_gives_one_card_to_each_other_seat():
    match, deal = start([["AH"], ["AS"], ["AD"], ["AC"]], ["7S", "8S", "9S", "JS"], dealer=3)
    bid_to(match, 1, 75)
    hand = deal.hands[1]
    assert len(hand) == 11 and {"7S", "8S", "9S", "JS"} <= set(hand)
    assert match.moves(1) == {"give": {"cards": hand, "to": [2, 3, 0]}}
    refused(match, 1, {"type": "give", "card": "AH", "to": 2}, match_text="not in your hand")
    refused(match, 1, {"type": "give", "card": "7S", "to": 1}, match_text="yourself")
    refused(match, 1, {"type": "give", "card": "7S", "to": 4}, match_text="no seat")
    refused(match, 1, {"type": "give", "card": "7S", "to": -1})
    refused(match, 1, {"type": "give", "card": "7S", "to": True}, MalformedAction)
    refused(match, 0, {"type": "give", "card": "AH", "to": 2}, NotYourTurn)
    refused(match, 1, {"type": "contract", "value": 75})
    refused(match, 1, {"type": "play", "card": "7S"})
    match.apply(1, {"type": "give", "card": "7S", "to": 0})  # any order, a kitty card
    assert match.moves(1)["give"]["to"] == [2, 3]
    refused(match, 1, {"type": "give", "card": "8S", "to": 0}, match_text="already")
    match.apply(1, {"type": "give", "card": "AS", "to": 3})  # any card of the hand
    match.apply(1, {"type": "give", "card": "9S", "to": 2})
    assert deal.phase == "contract"
    assert [len(h) for h in deal.hands] == [8, 8, 8, 8]
    assert "7S" in deal.hands[0] and "AS" in deal.hands[3] and "9S" in deal.hands[2]
    assert deal.given == {0: "7S", 3: "AS", 2: "9S"}


# -- contract ----------------------------------------------------------------------------------

def test_contract_at_least_the_bid_multiple_of_5_at_most_400():
    match, deal = start(dealer=3)
    bid_to(match, 0, 85)
    give(match, {})
    assert match.moves(0) == {"contract": list(range(85, 401, 5))}
    refused(match, 0, {"type": "contract", "value": 80}, match_text="lower")
    refused(match, 0, {"type": "contract", "value": 87}, match_text="multiple of 5")
    refused(match, 0, {"type": "contract", "value": 405}, match_text="400")
    refused(match, 1, {"type": "contract", "value": 90}, NotYourTurn)
    refused(match, 0, {"type": "bid", "value": 90})
    assert deal.scores() == [0, 0]  # nothing scored before the contract
    match.apply(0, {"type": "contract", "value": 120})
    assert deal.contract == 120 and deal.phase == "play" and deal.to_act() == [0]


def test_contract_equal_to_bid_and_max():
    match, deal = start(dealer=3)
    bid_to(match, 0, 400)
    give(match, {})
    assert match.moves(0) == {"contract": [400]}
    match.apply(0, {"type": "contract", "value": 400})
    assert deal.contract == 400


# -- marriages ---------------------------------------------------------------------------------

def test_declared_marriages_score_after_contract_including_gives():
    # seat 0 (declarer) holds K+Q hearts; seat 1 holds K+Q clubs; seat 2 gets QD to pair KD;
    # seat 3 holds K spades and the kitty holds the Q spades, kept by the declarer: no marriage.
    hands = [["KH", "QH", "7C"], ["KC", "QC"], ["KD"], ["KS"]]
    match, deal = start(hands, ["QD", "QS"], dealer=3)
    bid_to(match, 0, 60)
    give(match, {2: "QD"})
    assert deal.scores() == [0, 0] and not deal.marriages
    match.apply(0, {"type": "contract", "value": 60})
    got = sorted((m["seat"], m["suit"], m["points"]) for m in deal.marriages)
    assert got == [(0, "H", 100), (1, "C", 60), (2, "D", 80)]
    assert deal.scores() == [180, 60]  # raw points so far: marriages only
    assert match.deal_scores() == [[180, 60]]
    view = deal.view(3)
    assert sorted((m["seat"], m["suit"]) for m in view["marriages"]) == [(0, "H"), (1, "C"), (2, "D")]


def test_declared_marriage_points_stay_after_its_cards_are_played():
    hands = [["KH", "QH", "AH"], ["7H"], ["8H"], ["9H"]]
    match, deal = to_play(hands)
    play(match, 0, "KH")  # led without calling: allowed, no trumps
    assert deal.trump is None and not deal.trump_calls
    for seat, card in ((1, "7H"), (2, "8H"), (3, "9H")):
        play(match, seat, card)
    assert deal.marriage_points == [100, 0]
    assert "trump" not in match.moves(0)  # KH gone: the marriage can no longer call


def test_trump_only_marriage_scores_only_when_calling():
    hands = [["KH", "QH", "KC", "QC"], ["7H", "8H"], ["9H"], ["JH"]]
    match, deal = to_play(hands, options={"marriages": "trump_only"})
    assert not deal.marriages and deal.scores() == [0, 0]
    assert sorted(match.moves(0)["trump"]) == ["KC", "KH", "QC", "QH"]
    play(match, 0, "QH", trump=True)
    assert deal.trump == "H"
    assert list(deal.marriages) == [{"seat": 0, "suit": "H", "points": 100}]
    assert deal.scores()[0] == 100
    for seat, card in ((1, "7H"), (2, "9H"), (3, "JH")):
        play(match, seat, card)
    assert deal.last_trick["winner"] == 0
    # leading the other marriage's king without calling scores nothing and keeps trumps
    play(match, 0, "KC")
    assert deal.trump == "H" and deal.marriage_points == [100, 0]


def test_trump_only_defender_marriage_scores_for_defenders():
    # seat 1 wins the first trick and calls with its marriage
    hands = [["7S"], ["AS", "KD", "QD"], ["8S"], ["9S"]]
    match, deal = to_play(hands, options={"marriages": "trump_only"},
                          gives={1: "8C", 2: "9C", 3: "7C"}, dealer=3)
    play(match, 0, "7S")
    play(match, 1, "AS")
    play(match, 2, "8S")
    play(match, 3, "9S")
    assert deal.turn == 1
    play(match, 1, "KD", trump=True)
    assert deal.marriage_points == [0, 80] and deal.trump == "D"


def test_trump_only_card_points_plus_calls_at_the_end():
    hands = [["KH", "QH"], [], [], []]
    match, deal = to_play(hands, options={"marriages": "trump_only"})
    play(match, 0, "KH", trump=True)
    while not deal.over:
        seat = deal.turn
        play(match, seat, match.moves(seat)["play"][0])
    raw = deal.raw_points()
    assert deal.card_points[0] + deal.card_points[1] == 120
    assert raw[0] == deal.card_points[0] + 100 and raw[1] == deal.card_points[1]


# -- play: leads, follow, trumps ---------------------------------------------------------------

def test_no_trumps_at_start_declarer_leads_highest_of_led_suit_wins():
    hands = [["9S"], ["AS"], ["TS"], ["KS"]]
    match, deal = to_play(hands, declarer=0, dealer=1)
    assert deal.trump is None and deal.leader == 0 and deal.to_act() == [0]
    view = deal.view(2)
    assert view["phase"] == "play" and view["trump"] is None and view["contract"] == 60
    play(match, 0, "9S")
    play(match, 1, "AS")
    play(match, 2, "TS")
    play(match, 3, "KS")
    assert deal.last_trick["winner"] == 1 and deal.turn == 1 and deal.leader == 1
    assert deal.card_points == [0, 25] and deal.tricks_won == [0, 1, 0, 0]


def test_ten_beats_king_and_off_suit_loses_without_trumps():
    hands = [["KD", "7S", "8S", "9S", "JS", "QS", "KS"],
             ["TD", "AS", "TS", "7H", "8H", "9H", "JH"],
             ["AC", "TC", "KC", "QC", "JC", "QH", "KH"],
             ["QD", "AH", "TH", "AD", "9D", "8D", "7D"]]
    match, deal = to_play(hands, ["JD", "9C", "8C", "7C"], declarer=0,
                          gives={1: "9C", 2: "8C", 3: "7C"})
    play(match, 0, "KD")
    play(match, 1, "TD")
    play(match, 2, "AC")  # no diamonds, no trumps: any card, and it cannot win
    play(match, 3, "QD")
    assert deal.last_trick["winner"] == 1
    assert deal.card_points == [0, 4 + 10 + 11 + 3]


def _playing_hands():
    """Hands for follow / trump duty tests: seat 0 declarer with KH QH, seat 1 void in hearts."""
    return [
        ["KH", "QH", "AH", "TH", "JH", "9H", "8H"],
        ["AS", "TS", "KS", "AD", "7D", "AC", "7C"],
        ["7H", "QS", "JS", "TD", "KD", "TC", "KC"],
        ["9S", "8S", "7S", "QD", "JD", "QC", "JC"],
    ], ["9D", "8D", "9C", "8C"]


def test_follow_suit_then_trump_duty_no_duty_to_overtrump():
    hands, kitty = _playing_hands()
    match, deal = to_play(hands, kitty, declarer=0, gives={1: "9D", 2: "8D", 3: "9C"})
    # seat 0 now has KH QH AH TH JH 9H 8H 8C; calls hearts with the queen
    refused(match, 0, {"type": "play", "card": "AH", "trump": True},
            match_text="king or queen of a marriage")
    refused(match, 0, {"type": "play", "card": "8C", "trump": True})
    assert sorted(match.moves(0)["trump"]) == ["KH", "QH"]
    play(match, 0, "QH", trump=True)
    assert deal.trump == "H" and deal.trump_calls[0]["seat"] == 0
    # seat 1: no hearts, no trumps -> any card
    assert sorted(match.moves(1)["play"]) == sorted(deal.hands[1])
    refused(match, 1, {"type": "play", "card": "AS", "trump": True}, match_text="leading")
    play(match, 1, "7C")
    # seat 2 holds 7H: must follow hearts
    assert match.moves(2) == {"play": ["7H"]}
    assert refused(match, 2, {"type": "play", "card": "QS"}) == "you must follow suit (hearts)"
    play(match, 2, "7H")
    play(match, 3, "JC")  # seat 3: no hearts, no trumps
    assert deal.last_trick["winner"] == 0
    # now a plain lead: clubs. seat 1 holds AC, seat 2 TC KC, seat 3 QC
    play(match, 0, "8C")
    play(match, 1, "AC")
    play(match, 2, "TC")
    play(match, 3, "QC")
    assert deal.last_trick["winner"] == 1
    # seat 1 leads diamonds; seat 0 has no diamonds but trumps: must trump, any trump will do
    play(match, 1, "7D")
    assert sorted(match.moves(2)["play"]) == sorted(c for c in deal.hands[2] if c[1] == "D")


def test_must_trump_when_void_and_no_duty_to_overtrump():
    hands = [
        ["KH", "QH", "AS", "7C", "8C", "9C", "JC"],
        ["TH", "7H", "KS", "QS", "JS", "9S", "8S"],
        ["AH", "7S", "AD", "TD", "KD", "QD", "JD"],
        ["9H", "8H", "TS", "9D", "8D", "7D", "AC"],
    ]
    match, deal = to_play(hands, ["TC", "KC", "QC", "JH"], declarer=0,
                          gives={1: "TC", 2: "KC", 3: "QC"})
    play(match, 0, "KH", trump=True)  # hearts trumps
    play(match, 1, "7H")
    play(match, 2, "AH")
    play(match, 3, "8H")
    assert deal.turn == 2
    play(match, 2, "7S")  # seat 2 leads spades
    # seat 3 holds TS: must follow
    play(match, 3, "TS")
    # seat 0 holds AS: must follow
    play(match, 0, "AS")
    play(match, 1, "KS")
    assert deal.turn == 0
    play(match, 0, "7C")  # clubs led; seat 1 holds TC (given)
    play(match, 1, "TC")
    # seat 2: clubs KC given -> follow
    play(match, 2, "KC")
    play(match, 3, "AC")
    assert deal.turn == 3
    play(match, 3, "9D")
    # seat 0: no diamonds, holds QH and JH (trumps): must trump
    assert match.moves(0) == {"play": ["QH", "JH"]}
    assert refused(match, 0, {"type": "play", "card": "8C"}) == "you must play a trump (hearts)"
    play(match, 0, "QH")
    # seat 1: no diamonds; trumps TH: must trump but not overtrump (TH over QH is allowed, and
    # it is the only trump); seat 2 must follow diamonds
    assert match.moves(1) == {"play": ["TH"]}
    play(match, 1, "TH")
    play(match, 2, "AD")
    assert deal.last_trick["winner"] == 1


def test_no_duty_to_head_or_overtrump_with_several_trumps():
    hands = [
        ["KS", "QS", "AS", "TS", "7H", "8H", "9H"],
        ["JS", "9S", "8S", "7S", "AH", "TH", "KH"],
        ["QH", "JH", "AD", "TD", "KD", "QD", "JD"],
        ["AC", "TC", "KC", "QC", "JC", "9C", "8C"],
    ]
    match, deal = to_play(hands, ["9D", "8D", "7D", "7C"], declarer=0,
                          gives={1: "9D", 2: "8D", 3: "7D"})
    play(match, 0, "QS", trump=True)
    play(match, 1, "7S")  # need not head the trick with JS
    # seat 2 has no spades (trumps): any card
    play(match, 2, "QH")
    play(match, 3, "AC")
    assert deal.last_trick["winner"] == 0
    play(match, 0, "7H")
    # seat 1 must follow hearts: any heart, no duty to head
    assert sorted(match.moves(1)["play"]) == ["AH", "KH", "TH"]
    play(match, 1, "KH")
    play(match, 2, "JH")
    # seat 3: no hearts, no trump (spades) -> any card
    assert sorted(match.moves(3)["play"]) == sorted(deal.hands[3])
    play(match, 3, "AC" if "AC" in deal.hands[3] else deal.hands[3][0])
    assert deal.last_trick["winner"] == 1
    # seat 1 leads clubs? it has none; lead hearts: seat 3 void with no trumps plays any
    play(match, 1, "TH")
    play(match, 2, "AD")  # seat 2 void in hearts, no trumps (spades): any card
    # seat 3 void in hearts, no spades: any card
    play(match, 3, deal.hands[3][0])
    # seat 0: holds 8H 9H: must follow hearts
    assert sorted(match.moves(0)["play"]) == ["8H", "9H"]
    play(match, 0, "8H")
    assert deal.last_trick["winner"] == 1


def test_trump_calls_change_several_times_and_led_card_is_already_trump():
    hands = [
        ["KD", "QD", "KC", "QC", "AS", "7H", "8H"],
        ["AD", "TD", "9D", "AC", "TC", "9C", "JS"],
        ["AH", "TH", "KH", "QH", "JH", "9H", "TS"],
        ["KS", "QS", "JD", "8D", "7D", "JC", "8C"],
    ]
    match, deal = to_play(hands, ["7C", "9S", "8S", "7S"], declarer=0,
                          gives={1: "7C", 2: "9S", 3: "8S"})
    # seat 0 calls diamonds with the queen; seat 1's AD must follow and wins
    play(match, 0, "QD", trump=True)
    assert deal.trump == "D"
    play(match, 1, "AD")
    play(match, 2, "9S")  # no diamonds, no trumps -> any
    play(match, 3, "7D")
    assert deal.last_trick["winner"] == 1
    assert "trump" not in match.moves(1)  # seat 1 holds no marriage
    play(match, 1, "JS")
    play(match, 2, "TS")
    play(match, 3, "KS")
    # seat 0: no... seat 0 holds AS: it had to follow
    assert deal.trick[-1] == "KS" and deal.view(None)["trick"][-1] == [3, "KS"]
    play(match, 0, "AS")
    assert deal.last_trick["winner"] == 0
    # the called suit changes: clubs
    play(match, 0, "QC", trump=True)
    assert deal.trump == "C"
    assert [c["suit"] for c in deal.trump_calls] == ["D", "C"]
    play(match, 1, "AC")
    play(match, 2, "AH")  # void in clubs and no clubs: any card
    play(match, 3, "JC")
    assert deal.last_trick["winner"] == 1
    # hearts led by seat 2 later can change again with its marriage
    view = deal.view(None)
    assert view["trump"] == "C" and len(view["trump_calls"]) == 2


def test_call_requires_leading_and_holding_both():
    hands = [["KH", "QD", "AS"], ["QH"], ["KD"], []]
    match, deal = to_play(hands, declarer=0)
    assert "trump" not in match.moves(0)
    refused(match, 0, {"type": "play", "card": "KH", "trump": True},
            match_text="marriage you hold")
    refused(match, 0, {"type": "play", "card": "QD", "trump": True})
    refused(match, 0, {"type": "play", "card": "KH", "trump": "yes"}, MalformedAction)
    play(match, 0, "KH", trump=False)  # "trump": false is the same as leaving it out
    assert deal.actions[-1] == (0, {"type": "play", "card": "KH"})
    assert deal.trump is None


def test_calling_a_marriage_whose_suit_is_already_trump_in_declared_variant():
    hands = [["KH", "QH", "AH", "7S"], ["7H", "8H"], ["9H", "JH"], ["TH"]]
    match, deal = to_play(hands, declarer=0)
    before = list(deal.marriage_points)
    play(match, 0, "QH", trump=True)
    for seat in (1, 2, 3):
        play(match, seat, match.moves(seat)["play"][0])
    assert deal.marriage_points == before  # declared variant: calling adds nothing


def test_card_not_in_hand_and_malformed_play_refused():
    match, deal = to_play([["AS"], ["AH"]], declarer=0)
    refused(match, 0, {"type": "play", "card": "AH"}, match_text="not in your hand")
    refused(match, 0, {"type": "play", "card": "XX"}, match_text="not in your hand")
    refused(match, 0, {"type": "play", "card": "AS1"}, MalformedAction)
    refused(match, 0, {"type": "play"}, MalformedAction)
    refused(match, 0, {"type": "play", "card": "AS", "value": 3}, MalformedAction)
    refused(match, 0, "play AS", MalformedAction)
    refused(match, 0, {"type": "play", "card": 5}, MalformedAction)
    refused(match, 0, {"type": "play", "card": ["AS"]}, MalformedAction)
    refused(match, 0, {"type": "play", "card": "AS", "trump": 1}, MalformedAction)
    refused(match, 0, {"type": "pass"})  # the bidding is over
    refused(match, 0, {"type": "pass", "value": 60}, MalformedAction)
    refused(match, 1, {"type": "play", "card": "AH"}, NotYourTurn)
    refused(match, 0, {"type": "bid", "value": 65})


# -- scoring -----------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, rounded", [
    (0, 0), (1, 0), (2, 0), (3, 5), (4, 5), (5, 5), (70, 70), (71, 70), (72, 70), (73, 75),
    (74, 75), (75, 75), (119, 120), (118, 120), (117, 115), (216, 215), (218, 220),
])
def test_defender_rounding(raw, rounded):
    assert round_defence(raw) == rounded


def _finish(match):
    deal = match.current
    while deal is not None and not deal.over:
        seat = deal.turn
        play(match, seat, match.moves(seat)["play"][0])
    return match.deals[-1]


def _scored_deal(contract, declarer=0, options=None):
    """A deal played out first-legal-card; returns the deal."""
    hands = [["KH", "QH", "AH", "TH"], ["KS", "QS"], [], []]
    match, deal = to_play(hands, declarer=declarer, contract=contract, options=options,
                          dealer=(declarer - 1) % 4)
    _finish(match)
    return match, deal


def test_contract_made_scores_exactly_the_contract_and_defenders_round():
    match, deal = _scored_deal(60)
    raw = deal.raw_points()
    assert raw[0] >= 60  # 100 for the hearts marriage alone
    assert deal.scores() == [60, round_defence(raw[1])]
    assert match.totals == deal.scores()
    with pytest.raises(NotYourTurn):
        deal.apply(0, {"type": "play", "card": "AS"})
    with pytest.raises(NotYourTurn):
        match.apply(0, {"type": "play", "card": "AS"})
    summary = deal.summary()
    assert summary["teams"][0]["made"] is True and summary["teams"][0]["declaring"]
    assert summary["teams"][1]["rounded"] == round_defence(raw[1])
    assert summary["contract"] == 60 and summary["declarer"] == 0
    assert summary["teams"][0]["card_points"] + summary["teams"][1]["card_points"] == 120
    json.dumps(summary)


def test_contract_short_by_one_point_is_subtracted():
    match, deal = _scored_deal(60)
    raw = deal.raw_points()
    # replay the same deal with the contract one step above the raw points
    contract = raw[0] - raw[0] % 5 + 5
    match2, deal2 = _scored_deal(contract)
    assert deal2.raw_points() == raw
    assert deal2.scores() == [-contract, round_defence(raw[1])]
    assert deal2.summary()["teams"][0]["made"] is False


def test_exact_scoring_made_and_lost_hand_built():
    # declarer 0 with every ace and ten: wins everything with no trumps
    hands = [["AS", "TS", "AH", "TH", "AD", "TD", "AC"],
             ["KS", "QS", "JS", "9S", "8S", "7S", "KH"],
             ["QH", "JH", "9H", "8H", "7H", "KD", "QD"],
             ["JD", "9D", "8D", "7D", "KC", "QC", "JC"]]
    kitty = ["TC", "9C", "8C", "7C"]
    match, deal = to_play(hands, kitty, declarer=0, gives={1: "9C", 2: "8C", 3: "7C"},
                          contract=125)
    # marriages: spades (seat 1, 40), diamonds (seat 2, 80), clubs (seat 3, 60)
    assert deal.marriage_points == [80, 100]
    for card in ("AS", "TS", "AH", "TH", "AD", "TD", "AC", "TC"):
        play(match, 0, card)
        for seat in (1, 2, 3):
            play(match, seat, _lowest(match.moves(seat)["play"]))
    assert deal.over and deal.card_points == [120, 0]
    assert deal.raw_points() == [200, 100]
    assert deal.scores() == [125, 100]  # contract exactly; defenders 100 (no last-trick bonus)


@pytest.mark.parametrize("contract, score", [(200, 200), (205, -205), (400, -400)])
def test_contract_reached_exactly_is_made_one_short_is_lost(contract, score):
    hands = [["AS", "TS", "AH", "TH", "AD", "TD", "AC"],
             ["KS", "QS", "JS", "9S", "8S", "7S", "KH"],
             ["QH", "JH", "9H", "8H", "7H", "KD", "QD"],
             ["JD", "9D", "8D", "7D", "KC", "QC", "JC"]]
    match, deal = to_play(hands, ["TC", "9C", "8C", "7C"], declarer=0,
                          gives={1: "9C", 2: "8C", 3: "7C"}, contract=contract)
    for card in ("AS", "TS", "AH", "TH", "AD", "TD", "AC", "TC"):
        play(match, 0, card)
        for seat in (1, 2, 3):
            play(match, seat, _lowest(match.moves(seat)["play"]))
    assert deal.raw_points() == [200, 100]
    assert deal.scores() == [score, 100]


def test_lost_contract_and_no_last_trick_bonus():
    hands = [["AS", "TS", "AH", "TH", "AD", "TD", "AC"],
             ["KS", "QS", "JS", "9S", "8S", "7S", "KH"],
             ["QH", "JH", "9H", "8H", "7H", "KD", "QD"],
             ["JD", "9D", "8D", "7D", "KC", "QC", "JC"]]
    kitty = ["TC", "9C", "8C", "7C"]
    match, deal = to_play(hands, kitty, declarer=0, gives={1: "9C", 2: "8C", 3: "7C"},
                          contract=205)
    for card in ("AS", "TS", "AH", "TH", "AD", "TD", "AC", "TC"):
        play(match, 0, card)
        for seat in (1, 2, 3):
            play(match, seat, _lowest(match.moves(seat)["play"]))
    assert deal.raw_points() == [200, 100]
    assert deal.scores() == [-205, 100]
    assert match.totals == [-205, 100]


def _lowest(cards):
    return min(cards, key=lambda c: (CARD_POINTS[c[0]], c))


def test_defenders_can_be_the_declarers_opponents_of_team_1():
    hands = [["KS", "QS"], ["AS", "TS", "AH", "TH", "AD", "TD", "AC"], [], []]
    match, deal = to_play(hands, declarer=1, dealer=0, contract=60)
    _finish(match)
    raw = deal.raw_points()
    made = raw[1] >= 60
    assert deal.scores() == [round_defence(raw[0]), 60 if made else -60]


def test_scores_in_progress_are_raw_after_contract():
    hands = [["KH", "QH", "AS"], ["TS"], ["7S"], ["JS"]]
    match, deal = start(hands, dealer=3)
    assert deal.scores() == [0, 0]
    bid_to(match, 0, 60)
    assert deal.scores() == [0, 0]
    give(match, {})
    assert deal.scores() == [0, 0]
    match.apply(0, {"type": "contract", "value": 60})
    assert deal.scores() == [100, 0]
    for seat, card in ((0, "AS"), (1, "TS"), (2, "7S"), (3, "JS")):
        play(match, seat, card)
    assert deal.scores() == [123, 0]  # 11 + 10 + 2 to seat 0's team, unrounded
    assert match.totals == [0, 0]
    assert match.next() == {"deal": 0, "seat": 0}
    assert deal.view(1)["team_points"] == [123, 0]


# -- match -------------------------------------------------------------------------------------

def test_winners():
    options = {"target": 1000}
    assert GAME.winners([995, 990], options) is None
    assert GAME.winners([1000, 990], options) == [0]
    assert GAME.winners([1000, 1005], options) == [1]
    assert GAME.winners([1200, 1100], options) == [0]
    assert GAME.winners([1000, 1000], options) is None  # convention: equal totals continue
    assert GAME.winners([-50, 1000], options) == [1]
    assert GAME.winners([1500, 1490], {"target": 1500}) == [0]
    assert GAME.winners([1400, 1490], {"target": 1500}) is None


def test_match_ends_when_a_team_reaches_target_and_ties_continue():
    # target 60: a made contract of 60 ends the match unless the defenders also have 60
    match = Match(GAME, {"target": 60})
    hands = [["AS", "TS", "AH", "TH", "AD", "TD", "AC"],
             ["KS", "QS", "JS", "9S", "8S", "7S", "KH"],
             ["QH", "JH", "9H", "8H", "7H", "KD", "QD"],
             ["JD", "9D", "8D", "7D", "KC", "QC", "JC"]]
    deck, kitty = build(hands, ["TC", "9C", "8C", "7C"], dealer=3)
    match.start_deal(deck, 3, kitty)
    bid_to(match, 0, 60)
    give(match, {1: "9C", 2: "8C", 3: "7C"})
    match.apply(0, {"type": "contract", "value": 100})
    deal = match.current
    _finish(match)
    assert deal.scores() == [100, 100]  # raw [200, 100]: contract 100, defenders 100
    assert match.totals == [100, 100]
    assert not match.finished and match.next() == {"deal": 1, "seat": 1}
    # next deal: team 1 declares and wins points; it then leads and the match ends
    deck, kitty = build([[], ["AS", "TS", "AH", "TH", "AD", "TD", "AC"]], dealer=0)
    match.start_deal(deck, 0, kitty)
    bid_to(match, 1, 60)
    give(match, {})
    match.apply(1, {"type": "contract", "value": 60})
    deal = _finish(match)
    assert match.finished
    assert match.winners == [0 if match.totals[0] > match.totals[1] else 1]
    assert match.next() is None
    deck, kitty = build([], dealer=1)
    with pytest.raises(BadDeal):
        match.start_deal(deck, 1, kitty)


# -- views and redaction -----------------------------------------------------------------------

def _all_cards_in(view_json):
    return {c for c in PACK if f'"{c}"' in view_json}


def test_views_never_leak():
    hands = [["KH", "QH"], ["AS"], ["AD"], ["AC"]]
    match, deal = start(hands, ["7S", "8S", "9S", "JS"], dealer=3)
    # during bidding: own hand only, no kitty for anyone
    for seat in range(4):
        v = deal.view(seat)
        assert v["hands"][seat] == GAME.pack.sorted(deal.hands[seat])
        assert all(h is None for s, h in enumerate(v["hands"]) if s != seat)
        assert v["kitty"] is None and v["phase"] == "bidding"
        visible = _all_cards_in(json.dumps(v))
        assert visible == set(deal.hands[seat])
    spectator = deal.view(None)
    assert spectator["hands"] == [None] * 4 and spectator["kitty"] is None
    assert _all_cards_in(json.dumps(spectator)) == set()
    assert deal.view(EVERYONE)["kitty"] == GAME.pack.sorted(deal.kitty_cards)
    bid_to(match, 0, 60)
    assert deal.view(0)["kitty"] == GAME.pack.sorted(deal.kitty_cards)
    for seat in (1, 2, 3, None):
        assert deal.view(seat)["kitty"] is None
    # the declarer alone is told its marriages while it gives and fixes the contract
    held = [{"suit": s, "points": p} for s, p in zip("HDCS", (100, 80, 60, 40))
            if {"K" + s, "Q" + s} <= set(deal.hands[0])]
    assert {"suit": "H", "points": 100} in held and deal.view(0)["marriages_held"] == held
    assert all("marriages_held" not in deal.view(seat) for seat in (1, 2, 3, None, EVERYONE))
    match.apply(0, {"type": "give", "card": "7S", "to": 1})
    match.apply(0, {"type": "give", "card": "8S", "to": 2})
    gives = {seat: deal.view(seat)["gives"] for seat in (0, 1, 2, 3, None)}
    assert gives[0] == [{"to": 1, "card": "7S"}, {"to": 2, "card": "8S"}]
    assert gives[1] == [{"to": 1, "card": "7S"}, {"to": 2, "card": None}]
    assert gives[2] == [{"to": 1, "card": None}, {"to": 2, "card": "8S"}]
    assert gives[3] == [{"to": 1, "card": None}, {"to": 2, "card": None}]
    assert gives[None] == gives[3]
    for seat in (1, 2, 3, None):
        v = deal.view(seat)
        own = set(deal.hands[seat]) if seat is not None else set()
        assert _all_cards_in(json.dumps(v)) == own
    match.apply(0, {"type": "give", "card": "9S", "to": 3})
    assert deal.view(0)["marriages_held"] == held
    match.apply(0, {"type": "contract", "value": 60})
    assert "marriages_held" not in deal.view(0)  # (the play: the marriages are scored or called)
    v = deal.view(1)
    assert v["marriages"] == [{"seat": 0, "suit": "H", "points": 100}]  # declared: public
    assert _all_cards_in(json.dumps(v)) == set(deal.hands[1])
    # redaction of the give actions in an event stream
    action = {"type": "give", "card": "7S", "to": 1}
    assert deal.redact(action, 0, 0) == action
    assert deal.redact(action, 0, 1) == action
    assert deal.redact(action, 0, 2) == {"type": "give", "to": 1}
    assert deal.redact(action, 0, None) == {"type": "give", "to": 1}
    assert deal.redact(action, 0, EVERYONE) == action
    bid = {"type": "bid", "value": 60}
    assert deal.redact(bid, 0, 3) == bid


def test_view_fields_are_json_ready_and_complete():
    match, deal = start(dealer=3)
    match.apply(0, {"type": "bid", "value": 60})
    match.apply(1, {"type": "pass"})
    v = deal.view(2)
    for key in ("phase", "dealer", "hands", "trick", "leader", "turn", "last_trick",
                "tricks_won", "hand_sizes", "trump", "bids", "high_bid", "declarer", "contract",
                "gives", "kitty", "marriages", "trump_calls", "teams", "team_points", "scores"):
        assert key in v
    assert v["bids"] == [[0, 60], [1, "pass"]] and v["high_bid"] == 60
    assert v["declarer"] is None and v["teams"] == [[0, 2], [1, 3]]
    assert v["turn"] == 2 and v["hand_sizes"] == [7, 7, 7, 7]
    json.dumps(v)
    full = match.view(2)
    assert full["moves"] == match.moves(2) and full["deal"]["phase"] == "bidding"
    json.dumps(full)
    json.dumps(match.view(EVERYONE))


# -- random play-outs --------------------------------------------------------------------------

def _candidates(deal, seat, rng):
    """A few random actions of every type, most of them illegal."""
    cards = list(PACK)
    out = [
        {"type": "play", "card": rng.choice(cards)},
        {"type": "play", "card": rng.choice(cards), "trump": True},
        {"type": "bid", "value": rng.choice([55, 60, 65, 67, 100, 395, 400, 405, 0])},
        {"type": "pass"},
        {"type": "give", "card": rng.choice(cards), "to": rng.randrange(-1, 5)},
        {"type": "contract", "value": rng.choice([55, 60, 62, 85, 120, 400, 405])},
    ]
    if deal.hands[seat]:
        out.append({"type": "play", "card": rng.choice(deal.hands[seat])})
        out.append({"type": "play", "card": rng.choice(deal.hands[seat]), "trump": True})
    return out


def _check_invariants(deal):
    held = [c for h in deal.hands for c in h]
    captured = [c for won in deal.captured for c in won]
    in_trick = list(deal.trick)
    kitty_out = [] if deal.phase != "bidding" and deal.declarer is not None \
        else list(deal.kitty_cards)
    if deal.contract is None and deal.over:
        kitty_out = list(deal.kitty_cards)
    everything = held + captured + in_trick + kitty_out
    assert sorted(everything) == sorted(PACK)
    assert card_points(captured) == deal.card_points[0] + deal.card_points[1]


@pytest.mark.parametrize("variant", ["declared", "trump_only"])
def test_random_playouts_conserve_cards_and_replay(variant):
    from engine.record import load, replay, summary, write

    rng = random.Random(20240601 if variant == "declared" else 7)
    deals = 0
    while deals < 1500:
        match = Match(GAME, {"marriages": variant, "target": 300})
        while not match.finished and deals < 1500:
            deck, kitty = GAME.shuffle(rng)
            deal = match.start_deal(deck, None, kitty)
            deals += 1
            while not deal.over:
                seat = deal.to_act()[0]
                moves = match.moves(seat)
                if rng.random() < 0.05:
                    legal = expand_moves(moves)
                    for action in _candidates(deal, seat, rng):
                        normal = {k: v for k, v in action.items() if v is not False}
                        if normal in legal:
                            continue
                        before = snapshot(deal)
                        with pytest.raises(EngineError):
                            match.apply(seat, action)
                        assert snapshot(deal) == before
                    other = (seat + rng.randrange(1, 4)) % 4
                    assert match.moves(other) == {}
                    with pytest.raises(NotYourTurn):
                        match.apply(other, {"type": "pass"})
                match.apply(seat, random_bot(None, moves, rng))
                _check_invariants(deal)
            if deal.contract is not None:
                assert deal.card_points[0] + deal.card_points[1] == 120
                assert sum(len(w) for w in deal.captured) == 32
                assert deal.tricks_played == 8
                raw = deal.raw_points()
                d = deal.declarer % 2
                assert deal.scores()[d] == (deal.contract if raw[d] >= deal.contract
                                            else -deal.contract)
                assert deal.scores()[1 - d] == round_defence(raw[1 - d])
                assert deal.scores()[1 - d] % 5 == 0
            else:
                assert deal.scores() == [0, 0]
            json.dumps(deal.summary())
        record = write(match)
        again = replay(json.loads(json.dumps(record)))
        assert summary(again) == summary(match)
        assert load(json.dumps(record)).totals == match.totals
        assert match.finished or deals >= 1500
        if match.finished:
            assert match.winners == [0 if match.totals[0] > match.totals[1] else 1]


def test_legal_moves_are_exactly_the_accepted_actions():
    rng = random.Random(99)
    for _ in range(40):
        match = Match(GAME, {"marriages": rng.choice(["declared", "trump_only"])})
        deck, kitty = GAME.shuffle(rng)
        deal = match.start_deal(deck, rng.randrange(4), kitty)
        while not deal.over:
            seat = deal.turn
            moves = match.moves(seat)
            legal = expand_moves(moves)
            for action in legal if len(legal) <= 12 else rng.sample(legal, 12):
                copy.deepcopy(deal).apply(seat, action)  # every listed move is accepted
            for action in _candidates(deal, seat, rng):
                normal = {k: v for k, v in action.items() if v is not False}
                try:
                    copy.deepcopy(deal).apply(seat, action)
                    accepted = True
                except EngineError:
                    accepted = False
                assert accepted == (normal in legal), (action, moves)
            match.apply(seat, rng.choice(legal))


def test_in_progress_record_replays():
    from engine.record import load, summary, write

    rng = random.Random(3)
    match = Match(GAME)
    deck, kitty = GAME.shuffle(rng)
    deal = match.start_deal(deck, 2, kitty)
    for _ in range(20):
        seat = deal.turn
        match.apply(seat, random_bot(None, match.moves(seat), rng))
        if deal.over:
            break
    again = load(json.dumps(write(match, ["a", "b", "c", "d"])))
    assert summary(again) == summary(match)
    assert again.current.view(EVERYONE) == deal.view(EVERYONE)


# -- the bot -----------------------------------------------------------------------------------

def _bot_match(bots, options, rng):
    match = Match(GAME, options)
    while not match.finished:
        deal = match.start_deal(None, None, None, rng)
        while not deal.over:
            seat = deal.turn
            match.apply(seat, bots[seat % 2](match.view(seat), match.moves(seat), rng))
    return match


@pytest.mark.parametrize("variant", ["declared", "trump_only"])
def test_bot_beats_random(variant):
    rng = random.Random(11)
    wins = 0
    for i in range(6):
        bots = [big_mariage_bot, random_bot] if i % 2 == 0 else [random_bot, big_mariage_bot]
        match = _bot_match(bots, {"marriages": variant, "target": 500}, rng)
        wins += match.winners == [i % 2]
    assert wins == 6


def test_bot_plays_only_legal_and_sensible():
    rng = random.Random(5)
    made = lost = 0
    for _ in range(3):
        match = _bot_match([big_mariage_bot, big_mariage_bot], {}, rng)
        for deal in match.deals:
            if deal.contract is not None:
                team = deal.summary()["teams"][deal.declarer % 2]
                made += team["made"]
                lost += not team["made"]
    assert made > 3 * lost  # it bids what it can make


def test_bot_does_not_overtake_partner_and_dumps_points():
    # seat 2 (partner of 0) leads AS; seat 3 follows low; seat 0 holds TS and 7S: it plays TS
    view = {"seat": 0, "options": {"marriages": "declared"}, "deal": {
        "hands": [["TS", "7S", "8H"], None, None, None], "trick": [[2, "AS"], [3, "9S"]],
        "trump": None, "last_trick": None, "played": [], "high_bidder": None}}
    action = big_mariage_bot(view, {"play": ["TS", "7S"]}, random.Random(1))
    assert action == {"type": "play", "card": "TS"}
    # opponent winning with KS after partner's 7S: seat 0 wins cheaply with TS over AS? AS
    # is higher; the cheapest winning card is TS.
    view["deal"]["trick"] = [[1, "KS"], [2, "7S"], [3, "8S"]]
    view["deal"]["hands"][0] = ["AS", "TS", "9S"]
    action = big_mariage_bot(view, {"play": ["AS", "TS", "9S"]}, random.Random(1))
    assert action == {"type": "play", "card": "TS"}


def test_bot_calls_trumps_and_bids_with_strength():
    rng = random.Random(1)
    view = {"seat": 0, "options": {"marriages": "declared"}, "deal": {
        "hands": [["KH", "QH", "AH", "TH", "AS", "7C", "8C", "9D"], None, None, None],
        "trick": [], "trump": None, "last_trick": None, "played": [], "high_bidder": None}}
    moves = {"play": view["deal"]["hands"][0], "trump": ["KH", "QH"]}
    action = big_mariage_bot(view, moves, rng)
    assert action["trump"] is True and action["card"] in ("KH", "QH")
    bidding = {"bid": list(range(60, 401, 5)), "pass": {}}
    assert big_mariage_bot(view, bidding, rng)["type"] == "bid"
    weak = {"seat": 0, "deal": {"hands": [["7C", "8C", "9D", "7D", "8S", "9S", "JH"], None,
                                          None, None], "high_bidder": None}}
    assert big_mariage_bot(weak, bidding, rng) == {"type": "pass"}
