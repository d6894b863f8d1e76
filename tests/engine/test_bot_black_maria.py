"""The rules bot of Black Maria, decision by decision: what it passes, leads, ducks and sheds.

Each case is a position where one card is clearly the careful player's choice (the strength
order A K Q ... 2 differs from the alphabetical order of the codes, so a choice made by the
wrong key shows)."""

import random

from engine import new_match
from engine.bots.black_maria import black_maria_bot, choose_pass, choose_play

LOW_CLUBS_AND_DIAMONDS = ["AD", "KD", "QD", "JD", "TD", "9D", "AC", "KC", "QC", "JC", "TC"]


def test_pass_gives_the_three_spade_honours_first():
    hand = ["AS", "KS", "QS", "2S", "AH", "2H"] + LOW_CLUBS_AND_DIAMONDS
    assert sorted(choose_pass(hand)) == ["AS", "KS", "QS"]


def test_pass_keeps_the_queen_of_spades_with_four_small_guards():
    hand = ["AS", "KS", "QS", "5S", "4S", "3S", "2S", "AH", "9H"] + LOW_CLUBS_AND_DIAMONDS[:8]
    passed = choose_pass(hand)
    assert "QS" not in passed
    assert {"AS", "KS"} <= set(passed)
    assert set(passed) - {"AS", "KS"} == {"AH"}  # then the highest heart


def test_pass_gives_the_queen_of_spades_with_only_three_small_guards():
    hand = ["AS", "KS", "QS", "4S", "3S", "2S", "AH", "9H", "8H"] + LOW_CLUBS_AND_DIAMONDS[:8]
    assert sorted(choose_pass(hand)) == ["AS", "KS", "QS"]


def test_pass_with_the_queen_alone_among_the_honours_and_four_guards_keeps_it():
    hand = ["QS", "5S", "4S", "3S", "2S", "AH", "KH", "QH"] + LOW_CLUBS_AND_DIAMONDS[:9]
    assert sorted(choose_pass(hand)) == ["AH", "KH", "QH"]


def test_lead_is_the_lowest_card_of_a_suit_without_danger():
    # not a heart (even the lowest), not the queen of spades, and the king is lower than the ace
    assert choose_play([], [], ["2H", "AC", "KD", "QS"]) == "KD"


def test_lead_with_only_hearts_and_spade_honours_left_still_leads_the_lowest():
    assert choose_play([], [], ["AH", "QS", "3H"]) == "3H"


def test_void_throws_the_queen_of_spades_before_the_ace():
    trick = [[0, "9C"]]
    assert choose_play([], trick, ["AS", "QS", "TH", "3D"]) == "QS"


def test_void_without_spade_honours_throws_the_highest_heart():
    trick = [[0, "9C"]]
    assert choose_play([], trick, ["2H", "TH", "AD"]) == "TH"


def test_follow_ducks_under_the_best_card_with_the_highest_card_that_ducks():
    # the ace of clubs is winning (not the queen, which is alphabetically later)
    assert choose_play([], [[0, "QC"], [1, "AC"]], ["KC", "5C"]) == "KC"
    # the jack is higher than the ten, though "T" sorts after "J"
    assert choose_play([], [[0, "QC"]], ["TC", "JC", "KC"]) == "JC"


def test_last_to_play_on_a_clean_trick_takes_it_with_the_highest_card():
    # it cannot duck and the trick holds no penalty: shed the ace rather than keep it
    assert choose_play([], [[0, "5D"], [1, "7D"]], ["KD", "AD"]) == "AD"


def test_last_to_play_on_a_trick_with_penalties_takes_it_with_the_lowest_card():
    assert choose_play([], [[0, "5H"], [1, "7H"]], ["KH", "AH"]) == "KH"


def test_second_to_play_who_cannot_duck_wins_as_low_as_possible():
    assert choose_play([], [[0, "5D"]], ["KD", "AD"]) == "KD"
    # and never with a spade honour when a plain spade wins too
    assert choose_play([], [[0, "5S"]], ["AS", "JS"]) == "JS"


def test_the_bot_in_a_match_follows_suit_and_wins_as_low_as_it_can():
    match = new_match("black_maria", {"target": 100})
    cards = list(match.game.pack.cards)  # spades, hearts, diamonds, clubs; high to low
    hands = {0: cards[0:17], 1: cards[17:34], 2: cards[34:51]}
    match.start_deal([hands[(2 + 1 + i) % 3][i // 3] for i in range(51)], 2)
    for seat in match.to_act():
        match.apply(seat, {"type": "pass", "cards": hands[seat][-3:]})
    match.apply(0, {"type": "play", "card": "7D"})  # received from seat 1
    view = match.view(1)
    diamonds = [c for c in view["deal"]["hands"][1] if c[1] == "D"]
    assert diamonds == ["AD", "KD", "QD", "JD", "TD"]  # every one of them beats the 7
    action = black_maria_bot(view, match.moves(1), random.Random(0))
    assert action == {"type": "play", "card": "TD"}
    match.apply(1, action)
