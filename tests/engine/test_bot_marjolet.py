"""The rules bot of Marjolet, decision by decision (its module docstring is the plan).

Stock phase: positions where one card is clearly the careful choice (strength A T K Q J 9 8 7
differs from the alphabetical order of the codes, so a choice made with the wrong key shows).
End phase: every unseen card is in the opponent's hand, so the bot plays exactly; its card is
checked against every line of play tried out with the engine itself."""

import copy
import functools
import random

import pytest

from engine.bots.marjolet import marjolet_bot
from engine.bots.random_bot import random_bot
from engine.core import Match
from engine.games import GAMES


def stock_view(hand, trick=(), trump="H", turn_up="9H", seat=0):
    """The parts of a stock-phase ``Match.view(seat)`` the bot reads."""
    hands = [None, None]
    hands[seat] = list(hand)
    return {"seat": seat, "deal": {"hands": hands, "trick": [[1 - seat, c] for c in trick],
                                   "trump": trump, "turn_up": turn_up, "end_phase": False,
                                   "played": [], "end_tricks_won": [0, 0]}}


def stock_play(hand, trick=(), trump="H", turn_up="9H"):
    action = marjolet_bot(stock_view(hand, trick, trump, turn_up), {"play": list(hand)}, None)
    assert action["type"] == "play" and action["card"] in hand
    return action["card"]


# -- the window ------------------------------------------------------------------------------

def test_in_the_window_it_exchanges_the_dix_then_declares_then_draws():
    declare = {"declare": [["KS", "QS"], ["JH", "QS"]], "draw": {}}
    assert marjolet_bot({}, {"exchange": {}, **declare}, None) == {"type": "exchange"}
    assert marjolet_bot({}, declare, None) == {"type": "declare", "cards": ["KS", "QS"]}
    assert marjolet_bot({}, {"draw": {}}, None) == {"type": "draw"}


def test_a_single_legal_card_is_played_without_thinking():
    assert marjolet_bot({"deal": None}, {"play": ["7C"]}, None) == {"type": "play", "card": "7C"}


# -- stock phase: leading ------------------------------------------------------------------------

def test_the_lead_is_the_card_it_needs_least_never_an_ace_or_ten_if_avoidable():
    # not a trump, not a king or queen with its partner, not an ace or ten: the jack of spades
    assert stock_play(["9H", "QS", "KS", "JS", "AD", "TC"]) == "JS"
    # a plain nine rather than the nine of trumps
    assert stock_play(["9H", "9S", "AD"]) == "9S"
    # a lone king rather than one of a marriage
    assert stock_play(["KS", "KD", "QD", "AC"]) == "KS"
    # a lone queen rather than a lone king
    assert stock_play(["QD", "KC", "AS"]) == "QD"


def test_with_only_trumps_besides_an_ace_it_leads_a_trump_not_the_ace():
    assert stock_play(["KH", "QH", "JH", "AD"]) == "JH"


def test_the_dix_is_kept_for_the_exchange_while_the_turn_up_lies_on_the_table():
    assert stock_play(["7H", "8S", "KS", "QS"], turn_up="KH") == "8S"
    assert stock_play(["7H", "KS", "QS"], turn_up="KH") == "QS"
    assert stock_play(["7H", "KS", "QS"], turn_up=None) == "7H"


def test_a_queen_is_kept_with_the_marjolet_and_the_marjolet_itself():
    # trumps are hearts: the jack of hearts is the marjolet
    assert stock_play(["QS", "KD", "JH"]) == "KD"
    assert stock_play(["QS", "KD"]) == "QS"
    assert stock_play(["JH", "KH"]) == "KH"  # the marjolet is worth more than the king


def test_with_only_aces_and_tens_it_leads_a_ten_rather_than_an_ace():
    assert stock_play(["AS", "TD"]) == "TD"


# -- stock phase: following ------------------------------------------------------------------------

def test_a_led_ten_is_taken_with_the_ace_of_its_suit_rather_than_a_trump():
    assert stock_play(["AS", "9H", "KD"], trick=["TS"]) == "AS"


def test_a_led_ace_is_trumped():
    assert stock_play(["9H", "KD"], trick=["AS"]) == "9H"


def test_a_low_lead_is_won_by_banking_its_own_ace_of_that_suit():
    assert stock_play(["AS", "TS", "9C"], trick=["KS"]) == "AS"
    assert stock_play(["TS", "8S", "9C"], trick=["KS"]) == "TS"


def test_a_low_lead_is_not_trumped_with_a_valuable_trump():
    assert stock_play(["AH", "9C"], trick=["KS"]) == "9C"


def test_a_low_lead_is_won_cheaply_when_a_cheap_card_wins():
    assert stock_play(["KS", "9H", "8C"], trick=["9S"]) == "KS"
    assert stock_play(["JS", "KS", "9H", "8C"], trick=["9S"]) == "JS"


def test_no_cheap_winner_means_it_ducks_with_its_cheapest_card():
    assert stock_play(["KS", "QS", "8C"], trick=["9S"]) == "8C"  # keeps the marriage
    assert stock_play(["QS", "QD", "8C"], trick=["9S"]) == "8C"  # keeps the two queens
    assert stock_play(["7S", "TC", "9D"], trick=["KS"]) == "7S"  # never a ten to lose
    assert stock_play(["JS", "9H"], trick=["QS"]) == "JS"


def test_with_only_valuable_trumps_and_a_ten_it_ducks_with_a_trump_rather_than_the_ten():
    assert stock_play(["KH", "QH", "TC"], trick=["KS"]) == "QH"


# -- end phase: exact play ---------------------------------------------------------------------

def _best_difference(match, deal, me):
    """The final score of ``me`` less the other's, both playing perfectly from here."""
    seat = deal.turn
    results = []
    for card in match.moves(seat)["play"]:
        trial = copy.deepcopy((match, deal))
        trial[0].apply(seat, {"type": "play", "card": card})
        if trial[1].over:
            scores = trial[1].scores()
            results.append(scores[me] - scores[1 - me])
        else:
            results.append(_best_difference(*trial, me))
    return max(results) if seat == me else min(results)


def _card_value(match, deal, me, card):
    trial = copy.deepcopy((match, deal))
    trial[0].apply(me, {"type": "play", "card": card})
    if trial[1].over:
        scores = trial[1].scores()
        return scores[me] - scores[1 - me]
    return _best_difference(*trial, me)


@functools.cache
def _end_positions(count, cards_left):
    """Positions of the end phase with ``cards_left`` or fewer cards in the hand to play, from
    random deals (the bot to move, leading or following)."""
    rng = random.Random(11)
    positions = []
    while len(positions) < count:
        match = Match(GAMES["marjolet"], {"target": 10 ** 6})
        deal = match.start_deal(rng=rng)
        while not deal.over:
            seat = deal.turn
            if deal.phase == "end" and len(deal.hands[seat]) <= cards_left \
                    and len(match.moves(seat)["play"]) > 1:
                positions.append(copy.deepcopy((match, deal, seat)))
                break
            match.apply(seat, random_bot(None, match.moves(seat), rng))
    return positions


@pytest.mark.parametrize("position", range(24))
def test_in_the_end_phase_the_bot_plays_a_best_card(position):
    match, deal, seat = _end_positions(24, 4)[position]
    moves = match.moves(seat)
    card = marjolet_bot(match.view(seat), moves, random.Random(0))["card"]
    values = {c: _card_value(match, deal, seat, c) for c in moves["play"]}
    assert values[card] == max(values.values()), (deal.hands, deal.trick, values, card)
    # among equally good cards, it gives up the lowest
    best = [c for c in moves["play"] if values[c] == values[card]]
    assert deal.pack.strength[card] == min(deal.pack.strength[c] for c in best)
