"""Marjolet (rules.md section 1): every rule and convention, on hand-made packs, plus
seeded random play-outs (conservation, replay, refusals that change nothing)."""

from __future__ import annotations

import copy
import json
import pickle
import random
import re

import pytest

from engine.bots.marjolet import marjolet_bot
from engine.bots.random_bot import random_bot
from engine.core import EVERYONE, Match, expand_moves
from engine.errors import EngineError, IllegalAction, NotYourTurn
from engine.games import GAMES
from engine.marjolet import Marjolet, MarjoletDeal
from engine.record import replay, summary, write

GAME = GAMES["marjolet"]
PACK = MarjoletDeal.pack


# -- helpers -------------------------------------------------------------------------------------

def make_deck(nondealer, dealer, turn_up, stock=()):
    """A pack dealing ``nondealer`` and ``dealer`` (6 cards each), with ``turn_up``; ``stock``
    gives the first face-down cards in draw order, the rest follow in pack order."""
    nondealer, dealer, stock = list(nondealer), list(dealer), list(stock)
    assert len(nondealer) == 6 and len(dealer) == 6
    used = nondealer + dealer + [turn_up] + stock
    assert len(set(used)) == len(used)
    rest = [c for c in PACK.cards if c not in used]
    deck = nondealer[:3] + dealer[:3] + nondealer[3:] + dealer[3:] + [turn_up] + stock + rest
    assert PACK.is_permutation(deck)
    return deck


def start(nondealer, dealer, turn_up, stock=(), options=None, dealer_seat=1):
    """A match whose first deal is the hand-made one; seat ``1 - dealer_seat`` leads."""
    match = Match(GAME, options)
    match.start_deal(make_deck(nondealer, dealer, turn_up, stock), dealer_seat)
    return match, match.current


def act(match, seat, kind, **fields):
    return match.apply(seat, {"type": kind, **fields})


def play(match, seat, card):
    return act(match, seat, "play", card=card)


def trick(match, lead_seat, lead, follow):
    play(match, lead_seat, lead)
    play(match, 1 - lead_seat, follow)


def snapshot(deal):
    """Everything the deal holds, frozen (pickle: cheap and exact)."""
    return pickle.dumps({k: v for k, v in vars(deal).items() if k != "table"})


def refused(match, seat, action, error=IllegalAction, message=None):
    """``action`` is refused with ``error`` (and ``message``) and changes nothing."""
    deal = match.current
    before = snapshot(deal)
    totals = list(match.totals)
    with pytest.raises(error) as raised:
        match.apply(seat, action)
    assert snapshot(deal) == before
    assert match.totals == totals
    if message is not None:
        assert raised.value.message == message
    return raised.value.message


def end_phase_match(end0, end1, options=None, last_draw=True):
    """A deal brought to trick 11 with seat 0 holding ``end0`` and seat 1 ``end1``.

    Seat 1 deals; ``end1[5]`` is the turn-up (it fixes trumps and seat 1 takes it after trick
    10), ``end0[5]`` is the last face-down card. The other 20 cards are played in the stock
    phase, paired so that seat 0 (the leader) wins all ten stock tricks; nothing is declared.
    With ``last_draw=False`` it stops in the window of trick 10 (seat 0 holding ``end0[:5]``).
    """
    end0, end1 = list(end0), list(end1)
    trump = end1[5][1]
    rest = [c for c in PACK.cards if c not in end0 + end1]
    pairs = []
    for a, b in zip(rest[0::2], rest[1::2], strict=True):
        # The leader wins when the follower neither beats it in suit nor trumps it.
        lead, follow = (a, b)
        if (b[1] == a[1] and PACK.strength[b] > PACK.strength[a]) or \
                (b[1] == trump and a[1] != trump):
            lead, follow = b, a
        pairs.append((lead, follow))
    leads = [p[0] for p in pairs]
    follows = [p[1] for p in pairs]
    draws0 = leads[6:] + end0[:5]
    draws1 = follows[6:] + end1[:5]
    stock = [c for pair in zip(draws0, draws1, strict=True) for c in pair] + [end0[5]]
    deck = leads[:3] + follows[:3] + leads[3:6] + follows[3:6] + [end1[5]] + stock
    match = Match(GAME, options)
    match.start_deal(deck, 1)
    for n, (lead, follow) in enumerate(pairs):
        trick(match, 0, lead, follow)
        if n == 9 and not last_draw:
            return match, match.current
        act(match, 0, "draw")
    deal = match.current
    assert deal.phase == "end"
    assert sorted(deal.hands[0]) == sorted(end0) and sorted(deal.hands[1]) == sorted(end1)
    return match, deal


# -- pack, deal, turns ---------------------------------------------------------------------------

def test_game_registration_and_options():
    assert isinstance(GAME, Marjolet)
    assert (GAME.name, GAME.title, GAME.seats) == ("marjolet", "Marjolet", 2)
    assert GAME.deal_type is MarjoletDeal
    assert GAME.check_options(None) == {"target": 500, "jack_queen": "marjolet"}
    assert GAME.check_options({"jack_queen": "same_suit"})["jack_queen"] == "same_suit"
    for bad in ({"target": 0}, {"target": True}, {"jack_queen": "bezique"}, {"closing": True}):
        with pytest.raises(EngineError):
            GAME.check_options(bad)
    for option in GAME.options.values():
        assert option.meaning


def test_pack_is_32_cards_ranked_a_t_k_q_j_9_8_7():
    assert len(PACK) == 32
    order = ["AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S"]
    assert sorted(order, key=PACK.strength.get, reverse=True) == order


def test_deal_follows_record_order_and_non_dealer_leads():
    deck = list(PACK.cards)
    match = Match(GAME)
    deal = match.start_deal(deck, 0)
    assert deal.hands[1] == deck[0:3] + deck[6:9]
    assert deal.hands[0] == deck[3:6] + deck[9:12]
    assert deal.turn_up == deck[12] and deal.trump == deck[12][1]
    view = deal.view(None)
    assert view["stock_count"] == 19 and view["turn_up"] == deck[12]
    assert deal.to_act() == [1] and view["phase"] == "play"
    assert match.moves(0) == {}
    assert sorted(match.moves(1)["play"]) == sorted(deck[0:3] + deck[6:9])


def test_dealer_alternates():
    match = Match(GAME, {"target": 10**6})
    rng = random.Random(3)
    dealers = []
    for _ in range(4):
        deal = match.start_deal(rng=rng)
        dealers.append(deal.dealer)
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, random_bot(None, match.moves(seat), rng))
        assert match.next()["seat"] == deal.dealer  # the next non-dealer leads
    assert dealers[1:] == [1 - d for d in dealers[:-1]]


# -- stock phase ---------------------------------------------------------------------------------

def test_stock_phase_follower_may_play_anything_and_leader_wins_unbeaten():
    # trumps hearts; seat 0 leads the ace of spades, seat 1 discards a club: leader wins.
    m, d = start(["AS", "KS", "8D", "9D", "7C", "8C"], ["7S", "9C", "TC", "JD", "QD", "KD"], "9H")
    assert m.moves(1) == {}
    play(m, 0, "8D")
    assert sorted(m.moves(1)["play"]) == sorted(d.hands[1])  # no duty at all
    play(m, 1, "9C")
    assert d.last_trick == {"cards": [[0, "8D"], [1, "9C"]], "winner": 0}
    assert d.view(0)["phase"] == "window" and d.to_act() == [0]


def test_stock_phase_higher_of_suit_led_and_trump_win():
    m, d = start(["AS", "KS", "8D", "9D", "7C", "8C"], ["7S", "9C", "TC", "JD", "JH", "KD"], "9H",
                 stock=["QC", "TD", "AC", "8H"])
    trick(m, 0, "8D", "JD")  # higher diamond
    assert d.last_trick["winner"] == 1
    act(m, 1, "draw")
    trick(m, 1, "TC", "AS")  # off-suit, not trump: leader wins, captures the ten
    assert d.last_trick["winner"] == 1 and d.scores() == [0, 20]
    act(m, 1, "draw")
    assert "AC" in d.hands[1] and "8H" in d.hands[0]
    play(m, 1, "7S")
    play(m, 0, "8H")  # a trump wins
    assert d.last_trick["winner"] == 0


def test_window_only_winner_acts_then_draws_in_order():
    stock = ["QC", "TD", "AC", "8H"]
    m, d = start(["AS", "KS", "8D", "9D", "7C", "8C"], ["7S", "9C", "TC", "JD", "QD", "KD"], "9H",
                 stock=stock)
    trick(m, 0, "AS", "7S")
    assert m.moves(1) == {} and d.to_act() == [0]
    refused(m, 1, {"type": "draw"}, NotYourTurn)
    refused(m, 1, {"type": "play", "card": "9C"}, NotYourTurn)
    reason = refused(m, 0, {"type": "play", "card": "KS"})
    assert "draw" in reason
    assert m.moves(0) == {"draw": {}}
    act(m, 0, "draw")
    assert "QC" in d.hands[0] and "TD" in d.hands[1]
    assert len(d.hands[0]) == len(d.hands[1]) == 6
    assert d.view(0)["stock_count"] == 17
    assert d.to_act() == [0] and d.phase == "play"
    # Outside the window: no declaring, exchanging or drawing.
    refused(m, 0, {"type": "draw"})
    refused(m, 0, {"type": "declare", "cards": ["KS", "QS"]})
    refused(m, 0, {"type": "exchange"})


def test_card_not_in_hand_refused():
    m, d = start(["AS", "KS", "8D", "9D", "7C", "8C"], ["7S", "9C", "TC", "JD", "QD", "KD"], "9H")
    assert refused(m, 0, {"type": "play", "card": "7S"}) == "7S is not in your hand"
    refused(m, 0, {"type": "play", "card": "XX"}, EngineError)
    refused(m, 0, {"type": "play", "card": "AS", "trump": True}, EngineError)


# -- combinations --------------------------------------------------------------------------------

@pytest.mark.parametrize("cards,points", [
    (["AS", "AH", "AD", "AC"], 100),
    (["TS", "TH", "TD", "TC"], 80),
    (["KS", "KH", "KD", "KC"], 60),
    (["QS", "QH", "QD", "QC"], 40),
    (["KS", "QS"], 20),     # marriage in a plain suit
    (["KD", "QD"], 40),     # king and queen of trumps
    (["JD", "QD"], 40),     # the marjolet with the queen of trumps
    (["JD", "QC"], 20),     # the marjolet with a plain queen
])
def test_combination_values(cards, points):
    # Diamonds are trumps (turn-up 8D); seat 0 wins trick 1 with a low spade (seat 1 discards a
    # club) and declares.
    hand = cards + ["7S", "8S", "9S", "JS"][:6 - len(cards)]
    m, d = start(hand, ["7C", "8C", "9C", "7H", "8H", "9H"], "8D")
    trick(m, 0, "7S", "7C")
    assert d.last_trick["winner"] == 0 and d.scores() == [0, 0]
    assert sorted(cards) in [sorted(c) for c in m.moves(0)["declare"]]
    act(m, 0, "declare", cards=cards)
    assert d.scores() == [points, 0]
    assert d.view(1)["declared"][0] == PACK.sorted(cards)
    assert d.view(1)["scored_combinations"][0] == [
        {"cards": sorted(cards, key=PACK.cards.index), "name": d.combinations[0][0]["name"],
         "points": points}]


def test_the_window_view_says_what_each_declaration_scores():
    # Hearts trumps: after a won trick, seat 0's view names each combination its moves offer,
    # with its points (the page's Declare buttons say them); nobody else's view has them.
    m, d = start(["KS", "QS", "QH", "QD", "QC", "JH"], ["7S", "8S", "9S", "7C", "8C", "9C"], "8H")
    assert "declarable" not in d.view(0)
    trick(m, 0, "QC", "7C")
    offered = d.view(0)["declarable"]
    assert [o["cards"] for o in offered] == m.moves(0)["declare"]
    assert sorted((sorted(o["cards"]), o["name"], o["points"]) for o in offered) == [
        (["JH", "QD"], "marjolet and queen of diamonds", 20),
        (["JH", "QH"], "marjolet and queen of trumps", 40),
        (["JH", "QS"], "marjolet and queen of spades", 20),
        (["KS", "QS"], "marriage in spades", 20)]
    for viewer in (1, None, EVERYONE):
        assert "declarable" not in d.view(viewer)
    act(m, 0, "declare", cards=["JH", "QH"])
    assert ["JH", "QH"] not in [o["cards"] for o in d.view(0)["declarable"]]
    act(m, 0, "draw")
    assert "declarable" not in d.view(0)


def test_worked_example_of_the_rules():
    """Diamonds trumps: K♠–Q♠ 20; next win Q♠–J♦ 20 (40 in all); later Q♦–J♦ 40; Q♠–J♦ again
    is refused."""
    m, d = start(["KS", "QS", "JD", "AH", "AC", "7S"], ["7H", "8H", "9H", "7C", "8C", "9C"], "8D",
                 stock=["QD", "8S", "TH", "9S"])
    trick(m, 0, "AH", "9C")
    assert sorted(sorted(c) for c in m.moves(0)["declare"]) == [["JD", "QS"], ["KS", "QS"]]
    act(m, 0, "declare", cards=["KS", "QS"])
    assert d.scores()[0] == 10 + 20
    act(m, 0, "draw")
    trick(m, 0, "AC", "8C")
    act(m, 0, "declare", cards=["QS", "JD"])
    assert d.scores()[0] == 20 + 40
    refused(m, 0, {"type": "declare", "cards": ["KS", "QS"]},
            message="that combination has already been scored")
    act(m, 0, "draw")  # seat 0 draws TH
    trick(m, 0, "TH", "9H")
    assert sorted(sorted(c) for c in m.moves(0)["declare"]) == [["JD", "QD"]]
    act(m, 0, "declare", cards=["QD", "JD"])
    assert d.scores()[0] == 30 + 80
    refused(m, 0, {"type": "declare", "cards": ["QS", "JD"]},
            message="that combination has already been scored")
    refused(m, 0, {"type": "declare", "cards": ["JD", "QS"]},
            message="that combination has already been scored")
    names = [c["name"] for c in d.view(1)["scored_combinations"][0]]
    assert names == ["marriage in spades", "marjolet and queen of spades",
                     "marjolet and queen of trumps"]
    assert d.view(1)["declared"][0] == PACK.sorted(["KS", "QS", "JD", "QD"])


def test_four_jacks_and_non_combinations_refused():
    m, d = start(["JS", "JH", "JD", "JC", "AS", "8S"], ["7H", "8H", "9H", "7C", "8C", "9C"], "8D")
    trick(m, 0, "AS", "7C")
    assert "declare" not in m.moves(0)
    refused(m, 0, {"type": "declare", "cards": ["JS", "JH", "JD", "JC"]},
            message="four jacks score nothing")
    refused(m, 0, {"type": "declare", "cards": ["JS", "8S"]},
            message="these cards form no combination")
    refused(m, 0, {"type": "declare", "cards": ["JD"]}, message="these cards form no combination")
    refused(m, 0, {"type": "declare", "cards": ["KS", "QS"]}, message="KS is not in your hand")
    refused(m, 0, {"type": "declare", "cards": ["JD", "JD"]}, EngineError)
    refused(m, 0, {"type": "declare", "cards": []}, EngineError)


def test_declared_cards_must_be_in_hand_not_played():
    m, d = start(["KS", "QS", "AH", "AC", "7S", "8S"], ["7H", "8H", "9H", "7C", "8C", "9C"], "8D")
    trick(m, 0, "AH", "9C")
    act(m, 0, "draw")
    trick(m, 0, "QS", "7C")  # the queen is played (and won)
    assert "declare" not in m.moves(0)
    refused(m, 0, {"type": "declare", "cards": ["KS", "QS"]}, message="QS is not in your hand")


def test_one_card_in_several_combinations_listed():
    # Hearts trumps. The queen of spades may score in a marriage, in four queens and with the
    # marjolet: all are listed in the window.
    m, d = start(["KS", "QS", "QH", "QD", "QC", "JH"], ["7S", "8S", "9S", "7C", "8C", "9C"], "8H",
                 stock=["AS", "TS"])
    trick(m, 0, "JH", "7C")
    # The marjolet itself was just played: only the combinations without it remain.
    assert sorted(sorted(c) for c in m.moves(0)["declare"]) == [["KS", "QS"],
                                                                 ["QC", "QD", "QH", "QS"]]
    # With the marjolet still in hand, the same queen is listed in three combinations.
    m, d = start(["KS", "QS", "QH", "QD", "QC", "JH"], ["7S", "8S", "9S", "7C", "8C", "9C"], "8H")
    trick(m, 0, "QC", "7C")
    listed = sorted(sorted(c) for c in m.moves(0)["declare"])
    assert listed == [["JH", "QD"], ["JH", "QH"], ["JH", "QS"], ["KS", "QS"]]


def test_several_combinations_in_one_window():
    m, d = start(["KS", "QS", "QH", "QD", "QC", "JH"], ["7S", "8S", "9S", "7C", "8C", "9C"], "8H",
                 stock=["AS", "TS"])
    trick(m, 0, "JH", "7C")  # the marjolet wins with a trump
    assert d.last_trick["winner"] == 0
    act(m, 0, "declare", cards=["KS", "QS"])
    act(m, 0, "declare", cards=["QS", "QH", "QD", "QC"])
    assert d.scores()[0] == 60
    assert "declare" not in m.moves(0)
    act(m, 0, "draw")
    assert d.view(1)["declared"][0] == PACK.sorted(["KS", "QS", "QH", "QD", "QC"])
    # A displayed card may be played like any other; it leaves the display.
    trick(m, 0, "QC", "7S")
    assert "QC" not in d.view(1)["declared"][0]
    # Re-showing a scored set is refused even though the cards are still displayed.
    act(m, 0, "draw")
    trick(m, 0, "AS", "8S")
    refused(m, 0, {"type": "declare", "cards": ["KS", "QS"]},
            message="that combination has already been scored")


def test_only_the_winner_declares_and_only_in_the_window():
    m, d = start(["AS", "8S", "9S", "7C", "8C", "9C"], ["KD", "QD", "7H", "8H", "9H", "JH"], "8D")
    trick(m, 0, "AS", "7H")
    refused(m, 1, {"type": "declare", "cards": ["KD", "QD"]}, NotYourTurn)
    act(m, 0, "draw")
    refused(m, 0, {"type": "declare", "cards": ["KD", "QD"]})


def test_displayed_cards_return_to_hand_and_declaring_ends_with_the_stock():
    end0 = ["KS", "QS", "AS", "TS", "9S", "8S"]
    end1 = ["7H", "8H", "9H", "JH", "7C", "KD"]
    m, d = end_phase_match(end0, end1)
    assert d.view(0)["declared"] == [[], []]
    assert d.view(0)["end_phase"] is True and d.view(0)["phase"] == "end"
    refused(m, 0, {"type": "declare", "cards": ["KS", "QS"]},
            message="you cannot declare once the stock is exhausted")


def test_displayed_cards_cleared_when_stock_is_exhausted_points_kept():
    m, d = start(["KS", "QS", "AH", "AC", "7S", "8S"], ["7H", "8H", "9H", "7C", "8C", "9C"], "8D")
    trick(m, 0, "AH", "9C")
    act(m, 0, "declare", cards=["KS", "QS"])
    act(m, 0, "draw")
    for _ in range(9):
        hand0, hand1 = d.hands[0], d.hands[1]
        lead = next(c for c in hand0 if c not in ("KS", "QS"))
        play(m, 0, lead)
        play(m, 1, hand1[0])
        winner = d.last_trick["winner"]
        act(m, winner, "draw")
    assert d.phase == "end"
    assert d.view(1)["declared"] == [[], []]
    assert d.combinations[0][0]["points"] == 20
    assert d.summary()["seats"][0]["combination_points"] == 20


# -- the dix -------------------------------------------------------------------------------------

def test_exchange_the_dix():
    m, d = start(["7D", "AS", "8S", "9S", "7C", "8C"], ["7H", "8H", "9H", "JH", "9C", "TC"], "KD",
                 stock=["QD", "JS"])
    refused(m, 0, {"type": "exchange"})  # not in a window
    trick(m, 0, "AS", "7H")
    assert m.moves(0) == {"exchange": {}, "draw": {}}
    act(m, 0, "exchange")
    assert "KD" in d.hands[0] and "7D" not in d.hands[0]
    assert d.turn_up == "7D" and d.scores() == [20, 0]
    assert d.view(1)["turn_up"] == "7D" and d.view(1)["exchanged_by"] == 0
    refused(m, 0, {"type": "exchange"}, message="you do not hold the 7 of trumps (7D)")
    act(m, 0, "draw")
    trick(m, 0, "8S", "JS")  # seat 1 wins this one
    act(m, 1, "draw")
    assert d.scores() == [20, 0]
    assert d.summary()["seats"][0]["dix"] == 10


def test_exchanged_turn_up_may_be_declared_in_the_same_window():
    m, d = start(["7D", "AS", "QD", "9S", "7C", "8C"], ["7H", "8H", "9H", "JH", "9C", "TC"], "KD")
    trick(m, 0, "AS", "7H")
    assert "declare" not in m.moves(0)
    act(m, 0, "exchange")
    assert [sorted(c) for c in m.moves(0)["declare"]] == [["KD", "QD"]]
    act(m, 0, "declare", cards=["KD", "QD"])
    assert d.scores()[0] == 10 + 10 + 40


def test_turn_up_seven_scores_dealer_ten_and_cannot_be_exchanged():
    m, d = start(["AS", "8S", "9S", "7C", "8C", "9C"], ["7H", "8H", "9H", "JH", "QC", "TC"], "7D")
    assert d.scores() == [0, 10]  # seat 1 deals
    # (and every seat's view says why, for a page to tell a newcomer)
    assert d.view(0)["dix"] == d.view(None)["dix"] == [{"seat": 1, "how": "turn-up", "points": 10}]
    trick(m, 0, "AS", "7H")
    assert "exchange" not in m.moves(0)
    refused(m, 0, {"type": "exchange"})
    m2, d2 = start(["AS", "8S", "9S", "7C", "8C", "9C"], ["7H", "8H", "9H", "JH", "QC", "TC"], "7D",
                   dealer_seat=0)
    assert d2.scores() == [10, 0]


def test_dix_played_scores_ten_win_or_lose():
    # Seat 1 plays the dix on a trick it loses: still 10 for seat 1.
    m, d = start(["AD", "8S", "9S", "7C", "8C", "9C"], ["7D", "8H", "9H", "JH", "QC", "TC"], "KD")
    trick(m, 0, "AD", "7D")
    assert d.last_trick["winner"] == 0
    assert d.scores() == [10, 10]
    assert d.summary()["dix"] == [{"seat": 1, "how": "played", "points": 10}]


def test_exchanged_dix_gives_nothing_when_played_later():
    # Seat 0 holds the dix of diamonds and exchanges it at the first window.
    m, d = start(["7D", "AC", "8C", "9C", "JC", "QC"], ["7H", "8H", "9H", "JH", "TC", "KC"], "QD")
    trick(m, 0, "AC", "7H")
    act(m, 0, "exchange")
    assert d.scores() == [20, 0]
    act(m, 0, "draw")
    # Play out: the 7 of diamonds, as the turn-up, goes to the loser of trick 10 with 10 points.
    while d.phase != "end":
        if d.phase == "window":
            act(m, d.turn, "draw")
            continue
        seat = d.turn
        play(m, seat, d.hands[seat][0])
    taker = d.turn_up_taker
    assert "7D" in d.hands[taker] and d.turn_up_bonus[taker] == 10
    while not d.over:
        seat = d.turn
        play(m, seat, m.moves(seat)["play"][0])
    assert d.dix_points == [10, 0]
    assert d.summary()["dix"] == [{"seat": 0, "how": "exchanged", "points": 10}]


def test_turn_up_bonus_after_trick_ten():
    end0 = ["AS", "TS", "KS", "QS", "JS", "9S"]
    end1 = ["8S", "7S", "AH", "TH", "KH", "QD"]
    m, d = end_phase_match(end0, end1)
    assert d.turn_up is None and d.turn_up_taker == 1
    assert "QD" in d.hands[1] and d.turn_up_bonus == [0, 10]
    view = d.view(0)
    assert view["turn_up"] is None and view["stock_count"] == 0
    assert view["turn_up_taken_by"] == 1
    assert d.summary()["seats"][1]["turn_up_bonus"] == 10


def test_turn_up_bonus_before_draw_after_trick_ten_and_stock_count():
    m, d = start(["AS", "8S", "9S", "7C", "8C", "9C"], ["7H", "8H", "9H", "JH", "QC", "TC"], "KD")
    counts = []
    for n in range(10):
        seat = d.turn
        play(m, seat, d.hands[seat][0])
        play(m, 1 - seat, d.hands[1 - seat][0])
        counts.append(d.view(None)["stock_count"])
        winner = d.last_trick["winner"]
        if n == 9:
            last = d.deck[31]
            act(m, winner, "draw")
            assert last in d.hands[winner] and "KD" in d.hands[1 - winner]
            assert d.turn_up_bonus[1 - winner] == 10
        else:
            act(m, winner, "draw")
    assert counts == [19 - 2 * i for i in range(10)]
    assert d.view(None)["stock_count"] == 0


# -- end phase -----------------------------------------------------------------------------------

END0 = ["AS", "8S", "KH", "9D", "8D", "JC"]
END1 = ["TS", "7S", "QH", "7D", "AC", "9H"]  # turn-up 9H: hearts trumps


def test_end_phase_must_head_the_trick():
    m, d = end_phase_match(END0, END1)
    play(m, 0, "8S")
    assert m.moves(1) == {"play": ["TS"]}  # only the ten heads the eight
    play(m, 1, "TS")
    assert d.last_trick["winner"] == 1
    m, d = end_phase_match(END0, END1)
    play(m, 0, "AS")
    assert sorted(m.moves(1)["play"]) == ["7S", "TS"]  # cannot head: any spade
    play(m, 1, "7S")
    assert d.last_trick["winner"] == 0


def test_end_phase_refusals_are_readable_and_change_nothing():
    m, d = end_phase_match(END0, END1)
    play(m, 0, "8S")
    refused(m, 1, {"type": "play", "card": "7S"}, message="you must play higher than the card led")
    refused(m, 1, {"type": "play", "card": "QH"}, message="you must follow suit (spades)")
    play(m, 1, "TS")
    # Seat 1 leads a diamond; seat 0 has 9D 8D: must head with 9D? 7D led: both head.
    play(m, 1, "7D")
    refused(m, 0, {"type": "play", "card": "KH"}, message="you must follow suit (diamonds)")
    play(m, 0, "8D")
    # Seat 0 leads the jack of clubs; seat 1 holds AC: must head.
    play(m, 0, "JC")
    refused(m, 1, {"type": "play", "card": "9H"}, message="you must follow suit (clubs)")
    play(m, 1, "AC")
    # Seat 1 leads the queen of hearts (trumps): seat 0 must head with the king.
    play(m, 1, "QH")
    assert m.moves(0) == {"play": ["KH"]}
    play(m, 0, "KH")
    # Seat 0 leads 9D; seat 1 has no diamond, holds the 9 of trumps: must trump.
    play(m, 0, "9D")
    refused(m, 1, {"type": "play", "card": "7S"}, message="you must trump (hearts)")
    play(m, 1, "9H")
    # Last trick: seat 1 leads 7S, seat 0 must head with the ace.
    play(m, 1, "7S")
    assert m.moves(0) == {"play": ["AS"]}
    play(m, 0, "AS")
    assert d.over and m.current is None


def test_end_phase_any_card_without_suit_or_trump():
    end0 = ["AS", "KS", "QS", "JS", "9S", "8S"]
    end1 = ["AC", "TC", "KC", "QC", "JC", "9H"]
    m, d = end_phase_match(end0, end1)
    play(m, 0, "8S")
    assert m.moves(1) == {"play": ["9H"]}  # must trump
    play(m, 1, "9H")
    play(m, 1, "JC")
    assert sorted(m.moves(0)["play"]) == sorted(["AS", "KS", "QS", "JS", "9S"])
    play(m, 0, "9S")
    assert d.last_trick["winner"] == 1


def test_last_trick_without_all_six():
    # Diamonds trumps (turn-up TD). Seat 0 wins five tricks, seat 1 heads the last one.
    m, d = end_phase_match(["AS", "KS", "QS", "AH", "TH", "7D"],
                           ["7S", "8S", "9S", "8H", "9H", "TD"])
    before = d.scores()
    for card in ["AS", "KS", "QS", "AH", "TH", "7D"]:
        play(m, 0, card)
        play(m, 1, m.moves(1)["play"][0])
    assert d.over and d.end_tricks == [5, 1]
    after = d.scores()
    assert after[0] - before[0] == 30 + 10  # AS, AH, TH; and it plays the dix (7D)
    assert after[1] - before[1] == 10 + 10  # TD, last trick
    s = d.summary()["seats"]
    assert s[0]["all_six"] == 0 and s[1]["all_six"] == 0
    assert (s[0]["last_trick"], s[1]["last_trick"]) == (0, 10)


def test_all_six_bonus():
    # Clubs trumps (turn-up 9C): seat 0 leads the ace of clubs, then its spades; seat 1 follows.
    m, d = end_phase_match(["AS", "TS", "KS", "QS", "JS", "AC"],
                           ["7S", "8S", "9S", "7D", "8D", "9C"])
    before = d.scores()
    for card in ["AC", "AS", "TS", "KS", "QS", "JS"]:
        play(m, 0, card)
        play(m, 1, m.moves(1)["play"][0])
    assert d.over and d.end_tricks == [6, 0]
    after = d.scores()
    assert after[0] - before[0] == 30 + 10 + 50  # AC, AS, TS; last trick; all six
    assert after[1] == before[1]
    s = d.summary()["seats"][0]
    assert s["all_six"] == 50 and s["last_trick"] == 10
    assert s["total"] == after[0]


# -- scores --------------------------------------------------------------------------------------

def test_scores_in_progress_and_final():
    m, d = start(["AS", "TS", "9S", "7C", "8C", "9C"], ["7H", "8H", "9H", "JH", "QC", "TC"], "KD")
    assert d.scores() == [0, 0]
    trick(m, 0, "AS", "TC")
    assert d.scores() == [20, 0]
    assert m.deal_scores() == [[20, 0]]
    total = 0
    rng = random.Random(5)
    while m.current is not None:
        seat = m.to_act()[0]
        m.apply(seat, random_bot(None, m.moves(seat), rng))
    s = d.summary()["seats"]
    for seat in (0, 1):
        parts = s[seat]
        assert parts["total"] == (parts["card_points"] + parts["combination_points"] + parts["dix"]
                                  + parts["turn_up_bonus"] + parts["last_trick"] + parts["all_six"])
        total += parts["card_points"]
    assert total == 80
    assert m.totals == d.scores()
    json.dumps(d.summary())


# -- match ---------------------------------------------------------------------------------------

def test_winners_rule():
    options = {"target": 500, "jack_queen": "marjolet"}
    assert GAME.winners([490, 499], options) is None
    assert GAME.winners([499, 499], options) is None
    assert GAME.winners([500, 499], options) == [0]
    assert GAME.winners([480, 620], options) == [1]
    assert GAME.winners([510, 510], options) is None  # tie at or above the target: play on
    assert GAME.winners([520, 510], options) == [0]
    assert GAME.winners([100, 90], {"target": 100, "jack_queen": "marjolet"}) == [0]


def _finish_deal(match, rng):
    while match.current is not None:
        seat = match.to_act()[0]
        match.apply(seat, random_bot(None, match.moves(seat), rng))


def test_match_ends_after_the_deal_and_ties_continue():
    rng = random.Random(11)
    # Play one deal to learn its scores on a fixed pack, then replay it with preset totals.
    deck = list(PACK.cards)
    rng.shuffle(deck)
    probe = Match(GAME)
    probe.start_deal(deck, 0)
    _finish_deal(probe, random.Random(1))
    s0, s1 = probe.deals[0].scores()

    tie = Match(GAME)
    tie.totals = [600 - s0, 600 - s1]
    tie.start_deal(deck, 0)
    _finish_deal(tie, random.Random(1))
    assert tie.totals == [600, 600] and not tie.finished
    assert tie.next() == {"deal": 1, "seat": 0}  # seat 1 deals next, seat 0 leads
    deal = tie.start_deal(rng=rng)
    assert deal.dealer == 1

    win = Match(GAME)
    win.totals = [500 - s0, 499 - s1]
    win.start_deal(deck, 0)
    _finish_deal(win, random.Random(1))
    assert win.finished and win.winners == [0] and win.next() is None
    with pytest.raises(EngineError):
        win.start_deal(rng=rng)

    below = Match(GAME)
    below.totals = [100 - s0, 100 - s1]
    below.start_deal(deck, 0)
    _finish_deal(below, random.Random(1))
    assert not below.finished


def test_small_target_option():
    match = Match(GAME, {"target": 1})
    rng = random.Random(2)
    while not match.finished:
        match.start_deal(rng=rng)
        _finish_deal(match, rng)
    assert match.totals[match.winners[0]] > match.totals[1 - match.winners[0]]


# -- the same_suit variant -----------------------------------------------------------------------

def test_same_suit_variant():
    options = {"jack_queen": "same_suit"}
    m, d = start(["JS", "QS", "JD", "QC", "AH", "QD"], ["7H", "8H", "9H", "7C", "8C", "9C"], "8D",
                 options=options)
    trick(m, 0, "AH", "9C")
    listed = sorted(sorted(c) for c in m.moves(0)["declare"])
    assert listed == [["JD", "QD"], ["JS", "QS"]]
    refused(m, 0, {"type": "declare", "cards": ["JD", "QC"]},
            message="in this variant a jack pairs only with the queen of its suit")
    act(m, 0, "declare", cards=["JS", "QS"])
    act(m, 0, "declare", cards=["JD", "QD"])
    assert d.scores()[0] == 10 + 20 + 40
    names = [c["name"] for c in d.combinations[0]]
    assert names == ["jack and queen of spades", "marjolet and queen of trumps"]


def test_default_variant_refuses_plain_jack_with_queen():
    m, d = start(["JS", "QS", "JD", "QC", "AH", "QD"], ["7H", "8H", "9H", "7C", "8C", "9C"], "8D")
    trick(m, 0, "AH", "9C")
    listed = sorted(sorted(c) for c in m.moves(0)["declare"])
    assert listed == [["JD", "QC"], ["JD", "QD"], ["JD", "QS"]]
    refused(m, 0, {"type": "declare", "cards": ["JS", "QS"]},
            message="these cards form no combination")


# -- views ---------------------------------------------------------------------------------------

CARD_RE = re.compile(r'"([AKQJT987][SHDC])"')


def _known_to(deal, seat):
    """Cards ``seat`` may legitimately know of."""
    known = set(deal.captured[0]) | set(deal.captured[1]) | set(deal.trick)
    if seat in (0, 1):
        known |= set(deal.hands[seat])
    for combos in deal.combinations:
        for c in combos:
            known |= set(c["cards"])
    if deal.turn_up is not None:
        known.add(deal.turn_up)
    known.add(deal.deck[12])  # the card turned up at the deal lay face up: public all deal
    return known


def test_view_fields_and_no_leak_on_a_hand_made_deal():
    m, d = start(["7D", "AS", "8S", "9S", "7C", "8C"], ["7H", "8H", "9H", "JH", "9C", "TC"], "KD",
                 stock=["QD", "JS"])
    view = d.view(0)
    for key in ("phase", "dealer", "hands", "trick", "leader", "turn", "last_trick", "tricks_won",
                "hand_sizes", "trump", "turn_up", "stock_count", "declared",
                "scored_combinations", "end_phase", "scores"):
        assert key in view
    assert view["hands"][1] is None and view["hands"][0] == PACK.sorted(d.hands[0])
    assert d.view(None)["hands"] == [None, None]
    assert d.view(EVERYONE)["hands"] == [PACK.sorted(h) for h in d.hands]
    text = json.dumps(d.view(0))
    for hidden in ["7H", "8H", "9H", "JH", "9C", "TC", "QD", "JS"]:
        assert hidden not in text
    assert "deck" not in view and "stock" not in view


def test_match_view_for_a_seat_hides_the_opponent():
    m, d = start(["7D", "AS", "8S", "9S", "7C", "8C"], ["7H", "8H", "9H", "JH", "9C", "TC"], "KD")
    text = json.dumps(m.view(1))
    for hidden in ["7D", "AS", "8S", "9S", "7C", "8C"]:
        assert f'"{hidden}"' not in text


# -- random play-outs ----------------------------------------------------------------------------

def _conserved(deal):
    cards = deal.hands[0] + deal.hands[1] + deal.captured[0] + deal.captured[1]
    cards += deal.trick
    if deal.turn_up is not None:
        cards.append(deal.turn_up)
        cards += deal.deck[deal.next_card:]
    return len(cards) == 32 and set(cards) == PACK.card_set


def test_random_playouts_conserve_cards_and_replay_identically():
    rng = random.Random(2024)
    for _ in range(150):
        match = Match(GAME, {"jack_queen": rng.choice(["marjolet", "same_suit"])})
        while not match.finished:
            match.start_deal(rng=rng)
            deal = match.current
            while match.current is not None:
                assert _conserved(deal)
                seat = match.to_act()[0]
                if not deal.view(None)["end_phase"]:
                    assert len(deal.hands[0]) + len(deal.hands[1]) in (10, 11, 12)
                match.apply(seat, random_bot(None, match.moves(seat), rng))
            assert _conserved(deal) and deal.over
            assert sum(deal.summary()["seats"][s]["card_points"] for s in (0, 1)) == 80
            assert deal.tricks_won[0] + deal.tricks_won[1] == 16
        record = json.loads(json.dumps(write(match, ["A", "B"])))
        again = replay(record)
        assert summary(again) == summary(match)
        assert again.winners == match.winners and max(match.totals) >= 500


def test_thousands_of_random_deals():
    rng = random.Random(7)
    match = Match(GAME, {"target": 10**9})
    for _ in range(2000):
        match.start_deal(rng=rng)
        deal = match.current
        while match.current is not None:
            seat = match.to_act()[0]
            match.apply(seat, random_bot(None, match.moves(seat), rng))
        assert _conserved(deal)
        s = deal.scores()
        assert s[0] >= 0 and s[1] >= 0
        assert len(deal.actions) >= 16 + 10
    assert sum(match.totals) == sum(sum(d.scores()) for d in match.deals)
    again = replay(json.loads(json.dumps(write(match))))
    assert again.deal_scores() == match.deal_scores()


def _candidate_actions(deal, rng):
    cards = list(PACK.cards)
    yield {"type": "play", "card": rng.choice(cards)}
    yield {"type": "draw"}
    yield {"type": "exchange"}
    for size in (2, 4):
        yield {"type": "declare", "cards": rng.sample(cards, size)}
    hand = deal.hands[deal.turn] if deal.turn is not None else []
    if len(hand) >= 2:
        yield {"type": "declare", "cards": rng.sample(hand, 2)}
    if len(hand) >= 4:
        yield {"type": "declare", "cards": rng.sample(hand, 4)}
    for card in hand:
        yield {"type": "play", "card": card}


def test_random_actions_accepted_exactly_when_listed_and_refusals_change_nothing():
    rng = random.Random(99)
    for n in range(30):
        match = Match(GAME, {"target": 10**9,
                             "jack_queen": "same_suit" if n % 3 == 0 else "marjolet"})
        match.start_deal(rng=rng)
        deal = match.current
        while match.current is not None:
            seat = match.to_act()[0]
            legal = expand_moves(match.moves(seat))
            legal_keys = {json.dumps({**a, "cards": sorted(a["cards"])} if "cards" in a else a,
                                     sort_keys=True) for a in legal}
            for action in _candidate_actions(deal, rng):
                key = json.dumps({**action, "cards": sorted(action["cards"])}
                                 if "cards" in action else action, sort_keys=True)
                if key in legal_keys:
                    trial = copy.deepcopy(deal)
                    trial.apply(seat, action)  # accepted
                else:
                    before = snapshot(deal)
                    with pytest.raises(EngineError):
                        match.apply(seat, action)
                    assert snapshot(deal) == before
            # The other seat can never act.
            before = snapshot(deal)
            with pytest.raises(NotYourTurn):
                match.apply(1 - seat, legal[0])
            assert snapshot(deal) == before
            match.apply(seat, rng.choice(legal))


def test_views_never_leak_during_random_play():
    rng = random.Random(31)
    for _ in range(80):
        match = Match(GAME, {"target": 10**9})
        match.start_deal(rng=rng)
        deal = match.current
        while match.current is not None:
            for viewer in (0, 1, None):
                text = json.dumps(match.view(viewer))
                seen = set(CARD_RE.findall(text))
                assert seen <= _known_to(deal, viewer), seen - _known_to(deal, viewer)
            seat = match.to_act()[0]
            match.apply(seat, random_bot(None, match.moves(seat), rng))


# -- the bot -------------------------------------------------------------------------------------

def test_rules_bot_plays_legally_and_beats_random():
    rng = random.Random(8)
    won = 0
    for n in range(20):
        match = Match(GAME)
        bots = [marjolet_bot, random_bot] if n % 2 == 0 else [random_bot, marjolet_bot]
        while not match.finished:
            match.start_deal(rng=rng)
            while match.current is not None:
                seat = match.to_act()[0]
                moves = match.moves(seat)
                action = bots[seat](match.view(seat), moves, rng)
                match.apply(seat, action)
        won += (n % 2) in match.winners
    assert won >= 17


def test_exchange_allowed_in_the_tenth_window_then_the_seven_goes_to_the_loser():
    # Spades trumps (turn-up KS); seat 0 wins trick 10 holding the dix.
    m, d = end_phase_match(["7S", "AH", "TH", "AD", "TD", "AC"],
                           ["8S", "9S", "7H", "8H", "7D", "KS"], last_draw=False)
    assert d.phase == "window" and d.tricks_played == 10 and d.turn == 0
    assert m.moves(0)["exchange"] == {}
    scores = d.scores()
    act(m, 0, "exchange")
    assert d.turn_up == "7S" and "KS" in d.hands[0]
    act(m, 0, "draw")
    assert "AC" in d.hands[0] and "7S" in d.hands[1]
    assert d.scores() == [scores[0] + 10, scores[1] + 10]  # the exchange; the turn-up bonus
    assert d.dix_points == [10, 0] and d.turn_up_bonus == [0, 10]
    # Seat 1 later plays the 7 of spades: nothing more.
    while not d.over:
        seat = d.turn
        play(m, seat, m.moves(seat)["play"][0])
    assert d.dix_points == [10, 0]
