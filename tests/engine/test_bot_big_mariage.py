"""The rules bot of Big Mariage, decision by decision (its module docstring is the plan): how
it bids, gives, fixes the contract, calls trumps, leads and follows.

Each position is one where a careful player's choice is clear. The bot falls back to a random
legal move when its heuristics break; :class:`NoDice` turns that fallback into a failure, so a
test also checks that the bot decided by itself. Strength order A T K Q J 9 8 7 differs from
the alphabetical order of the codes, so a choice made with the wrong key shows."""

import pytest

from engine.bots.big_mariage import big_mariage_bot, hand_value
from engine.bots.strong.big_mariage import _bids_likelihood

BIDS_FROM_60 = list(range(60, 401, 5))


class NoDice:
    """An rng that refuses to be used: the bot must not leave the choice to chance."""

    def choice(self, seq):
        raise AssertionError("the bot fell back to a random move")

    def random(self):
        raise AssertionError("the bot fell back to a random move")


def view(seat, hand, *, trick=(), trump=None, played=(), last_trick=None, high_bidder=None,
         marriages="declared"):
    """The parts of ``Match.view(seat)`` the bot reads."""
    hands = [None] * 4
    hands[seat] = list(hand)
    return {"seat": seat, "options": {"target": 1000, "marriages": marriages},
            "deal": {"hands": hands, "trick": [list(p) for p in trick], "trump": trump,
                     "played": sorted(played), "last_trick": last_trick,
                     "high_bidder": high_bidder}}


def legal(hand, trick, trump):
    """rules.md: follow suit if able, else play a trump if holding one, else any card."""
    if not trick:
        return list(hand)
    led = trick[0][1][1]
    return ([c for c in hand if c[1] == led] or [c for c in hand if c[1] == trump]
            or list(hand))


def decide(seat, hand, trick=(), trump=None, **kwargs):
    moves = {"play": legal(hand, trick, trump)}
    if not trick:
        calls = [c for c in hand if c[0] == "K" and "Q" + c[1] in hand]
        if calls:
            moves["trump"] = calls + ["Q" + c[1] for c in calls]
    action = big_mariage_bot(view(seat, hand, trick=trick, trump=trump, **kwargs), moves,
                             NoDice())
    assert action["card"] in moves["play"]
    return action


def card_led(seat, hand, **kwargs):
    action = decide(seat, hand, **kwargs)
    assert "trump" not in action
    return action["card"]


# -- bidding ---------------------------------------------------------------------------------

def bid(seat, hand, bids, high_bidder=None, marriages="declared"):
    moves = {"bid": bids, "pass": {}} if bids else {"pass": {}}
    return big_mariage_bot(view(seat, hand, high_bidder=high_bidder, marriages=marriages), moves,
                           NoDice())


def test_with_trump_only_marriages_the_bot_counts_on_less_than_their_points():
    """In ``trump_only`` a marriage scores only when it calls trumps: the declarer's first lead
    calls one, a second needs a trick won first. 150 is under this hand's worth when marriages
    are declared (hearts' 100 and spades' 40), over it when they must be called."""
    hand = ["KH", "QH", "9H", "KS", "QS", "8S", "7D"]
    assert bid(0, hand, BIDS_FROM_60[18:]) == {"type": "bid", "value": 150}
    assert bid(0, hand, BIDS_FROM_60[18:], marriages="trump_only") == {"type": "pass"}
    assert bid(0, hand, BIDS_FROM_60[10:], marriages="trump_only") == {"type": "bid", "value": 110}
    # the contract fixed on the same worth
    contracts = {"contract": BIDS_FROM_60[10:]}
    fixed = {variant: big_mariage_bot(view(0, hand, marriages=variant), contracts, NoDice())["value"]
             for variant in ("declared", "trump_only")}
    assert fixed == {"declared": 170, "trump_only": 125}
    # and the strong bot, reading a bid of 145 over 140 as the rules bot's, finds the hand likely
    # with declared marriages, unlikely when they must be called
    bids, placement = [(1, 140), (0, 145)], {0: hand}
    assert _bids_likelihood(bids, placement, {"marriages": "declared"}) == 1.0
    assert _bids_likelihood(bids, placement, {"marriages": "trump_only"}) < 1.0


def test_a_strong_hand_bids_the_lowest_bid_and_a_weak_one_passes():
    strong = ["KH", "QH", "AH", "TH", "AD", "9S", "8C"]
    assert bid(0, strong, BIDS_FROM_60) == {"type": "bid", "value": 60}
    assert bid(1, strong, BIDS_FROM_60[3:], high_bidder=0) == {"type": "bid", "value": 75}
    weak = ["9S", "8S", "7S", "JD", "9D", "8C", "7C"]
    assert bid(0, weak, BIDS_FROM_60) == {"type": "pass"}


def test_only_pass_is_left_after_a_bid_of_400():
    assert bid(0, ["KH", "QH", "AH", "TH", "AD", "AS", "AC"], []) == {"type": "pass"}


def test_the_bot_bids_up_to_its_hands_value_and_no_further():
    hand = ["KS", "QS", "JS", "9S", "8S", "9D", "8D"]  # a long spade marriage, nothing else
    value = hand_value(hand)
    at, above = [v for v in BIDS_FROM_60 if v <= value][-1], [v for v in BIDS_FROM_60 if v > value]
    assert bid(1, hand, BIDS_FROM_60[BIDS_FROM_60.index(at):], high_bidder=0) == \
        {"type": "bid", "value": at}
    assert bid(1, hand, above, high_bidder=0) == {"type": "pass"}


def test_the_bot_does_not_outbid_its_partner_without_a_much_stronger_hand():
    fair = ["KS", "QS", "9S", "AD", "8D", "9C", "8C"]  # worth bidding over an opponent
    assert bid(3, fair, BIDS_FROM_60[1:], high_bidder=0)["type"] == "bid"
    assert bid(3, fair, BIDS_FROM_60[1:], high_bidder=1) == {"type": "pass"}
    assert bid(0, fair, BIDS_FROM_60[1:], high_bidder=2) == {"type": "pass"}
    huge = ["KH", "QH", "AH", "TH", "9H", "KD", "QD", "AD"]
    assert bid(3, huge, BIDS_FROM_60[1:], high_bidder=1) == {"type": "bid", "value": 65}


def test_the_hands_value_counts_aces_guarded_tens_marriages_and_the_partner():
    junk = ["9S", "8S", "7C", "8C"]
    base = hand_value(junk)
    assert hand_value(junk, with_partner=False) < base
    assert hand_value(["AD", *junk]) > base
    assert hand_value(["AD", "TD", *junk]) > hand_value(["AD", "9D", *junk])
    assert hand_value(["TD", "9D", "8D", *junk]) > hand_value(["TD", "9D", *junk]) == base
    assert hand_value(["KH", "QH", *junk]) > hand_value(["KD", "QD", *junk]) \
        > hand_value(["KC", "QC", *junk]) > hand_value(["KS", "QS", *junk]) > base
    assert hand_value(["KC", "QC", "9C", *junk]) > hand_value(["KC", "QC", *junk])
    assert hand_value(["KH", "QH", "KS", "QS", *junk]) > hand_value(["KH", "QH", *junk])
    assert hand_value(["KH", "QH", "TD", "9D", "8D", *junk]) > hand_value(["KH", "QH", *junk])


# -- the kitty and the contract ----------------------------------------------------------------

def give(seat, hand, to):
    moves = {"give": {"cards": list(hand), "to": list(to)}}
    return big_mariage_bot(view(seat, hand), moves, NoDice())


DECLARER = ["AS", "KH", "QH", "KD", "QC", "JS", "9S", "8S", "7D", "TD", "9C"]


def test_an_opponent_gets_a_worthless_card_of_a_short_suit_never_a_king_or_queen():
    assert give(0, DECLARER, [1, 2, 3]) == {"type": "give", "card": "9C", "to": 1}
    assert give(0, DECLARER, [2, 3]) == {"type": "give", "card": "9C", "to": 3}


def test_with_only_point_cards_to_spare_an_opponent_gets_a_ten_rather_than_a_queen():
    hand = ["AS", "KH", "QH", "TD", "TC", "QS"]
    assert give(0, hand, [1, 2, 3]) == {"type": "give", "card": "TD", "to": 1}


def test_the_partner_gets_the_king_or_queen_of_the_best_marriage_suit():
    assert give(0, DECLARER, [2]) == {"type": "give", "card": "KD", "to": 2}
    assert give(2, DECLARER, [0]) == {"type": "give", "card": "KD", "to": 0}
    assert give(3, DECLARER, [1, 2]) == {"type": "give", "card": "9C", "to": 2}


def test_without_a_spare_king_or_queen_the_partner_gets_the_best_point_card():
    hand = ["9S", "AS", "KH", "QH", "TD", "TS", "JC", "8C"]  # the ace and marriage are kept
    assert give(1, hand, [3]) == {"type": "give", "card": "TD", "to": 3}


def test_the_contract_is_the_winning_bid_unless_the_hand_is_clearly_worth_more():
    def contract(hand, values):
        return big_mariage_bot(view(0, hand), {"contract": values}, NoDice())

    weak = ["9S", "8S", "7S", "JD", "9D", "8C", "7C", "8D"]
    assert contract(weak, BIDS_FROM_60) == {"type": "contract", "value": 60}
    strong = ["KH", "QH", "9H", "AD", "TD", "9S", "8C", "7C"]
    raised = contract(strong, BIDS_FROM_60[2:])["value"]
    assert 70 < raised <= hand_value(strong) - 10


# -- leading -------------------------------------------------------------------------------

def test_a_marriage_calls_trumps_with_its_queen_keeping_the_king():
    assert decide(0, ["KH", "QH", "9H", "8H", "AS", "7D", "8C"]) == \
        {"type": "play", "card": "QH", "trump": True}


def test_of_two_marriages_the_longer_suit_then_the_richer_one_calls():
    assert decide(0, ["KH", "QH", "9H", "8H", "7H", "KS", "QS", "AD"])["card"] == "QH"
    assert decide(0, ["KC", "QC", "KD", "QD", "9S", "8H"])["card"] == "QD"


def test_a_marriage_does_not_call_over_a_longer_trump_suit_in_the_declared_variant():
    hand = ["KS", "QS", "9S", "9D", "8D", "7D", "TD"]
    assert card_led(0, hand, trump="D") == "TD"  # draws trumps instead
    even = ["KS", "QS", "9S", "9D", "8D", "7D", "8C"]
    assert decide(0, even, trump="D") == {"type": "play", "card": "QS", "trump": True}


def test_in_the_trump_only_variant_every_call_scores_so_the_bot_always_calls():
    hand = ["KS", "QS", "9S", "9D", "8D", "7D", "TD"]
    assert decide(0, hand, trump="D", marriages="trump_only") == \
        {"type": "play", "card": "QS", "trump": True}


def test_a_marriage_in_the_suit_already_trumps_is_not_called_again():
    assert card_led(0, ["KS", "QS", "9S", "8D", "7C"], trump="S") == "KS"


def test_plain_aces_are_cashed_the_longest_suit_first_never_the_ace_of_trumps():
    assert card_led(0, ["AD", "9D", "8D", "AS", "7S", "9C", "8C"]) == "AD"
    assert card_led(0, ["AD", "9D", "8D", "AS", "7S"], trump="D") == "AS"


def test_with_three_trumps_or_the_ace_of_trumps_it_draws_trumps_with_the_highest():
    assert card_led(0, ["AH", "KH", "9H", "9S", "8C", "7D"], trump="H") == "AH"
    assert card_led(0, ["AH", "9H", "9S", "8C", "7D"], trump="H") == "AH"
    assert card_led(0, ["KH", "9H", "8H", "9S", "8C", "7D"], trump="H") == "KH"


def test_with_two_small_trumps_it_does_not_draw_trumps():
    assert card_led(0, ["KH", "9H", "9S", "8S", "7S", "8C"], trump="H") == "7S"


def test_a_ten_whose_ace_has_gone_is_led():
    hand = ["TS", "9D", "8D", "7D", "9C"]
    assert card_led(0, hand, played=["AS", "7S", "8S", "9S"]) == "TS"
    ace_in_last_trick = {"cards": [[1, "AS"], [2, "7S"], [3, "8S"], [0, "9S"]], "winner": 1}
    assert card_led(0, hand, last_trick=ace_in_last_trick) == "TS"
    assert card_led(0, hand) == "7D"  # the ace is still out: a low card instead


def test_otherwise_the_lowest_card_of_the_longest_plain_suit_is_led():
    assert card_led(0, ["9S", "8S", "7S", "KD", "8D", "QC"]) == "7S"
    assert card_led(0, ["QD", "JD", "9D", "KS", "QC"]) == "9D"
    # small trumps are kept: the longest plain suit, not the trump suit, gives the lead
    assert card_led(0, ["JC", "TC", "9S", "8D"], trump="C") == "8D"


# -- following -------------------------------------------------------------------------------

def play(seat, hand, trick, trump=None, **kwargs):
    return decide(seat, hand, trick, trump, **kwargs)["card"]


def test_last_to_play_on_the_partners_trick_dumps_points_but_keeps_the_ace():
    trick = [[0, "7S"], [1, "KS"], [2, "8S"]]  # seat 1, the partner of 3, wins
    assert play(3, ["TS", "9S", "AS"], trick) == "TS"
    assert play(3, ["AS", "QS", "JS"], trick) == "QS"


def test_a_partner_winning_with_the_best_card_left_gets_points_too():
    trick = [[3, "9D"], [0, "AD"]]  # seat 0, the partner of 2, holds the trick with the ace
    assert play(2, ["8D", "TD", "7D"], trick) == "TD"


def test_a_partner_winning_with_a_trump_gets_points_too():
    trick = [[3, "AC"], [0, "7H"]]  # seat 0 trumped the ace
    assert play(2, ["8C", "TC", "9C"], trick, trump="H") == "TC"


def test_points_go_on_a_void_in_plain_suits_when_the_partner_wins_safely():
    trick = [[3, "9D"], [0, "AD"]]
    assert play(2, ["AS", "TS", "8C"], trick) == "TS"
    assert play(2, ["AS", "8C", "9C"], trick, trump="H") == "8C"  # the ace is kept


def test_a_partner_whose_card_can_still_be_beaten_is_not_helped_for_nothing():
    trick = [[3, "8D"], [0, "9D"]]  # partner's 9 is winning, the ace and others are still out
    assert play(2, ["KD", "7D"], trick) == "7D"


def test_last_to_play_against_an_opponent_wins_as_cheaply_as_possible():
    trick = [[2, "9C"], [3, "8C"], [0, "KC"]]
    assert play(1, ["AC", "TC", "7C"], trick) == "TC"
    assert play(1, ["8H", "9S"], [[2, "9C"], [3, "8C"], [0, "KC"]], trump="S") == "9S"


def test_not_last_it_wins_with_a_card_nobody_can_beat_as_low_as_possible():
    # the ace is gone: the ten is master, the queen could still lose to the king
    assert play(1, ["QC", "TC", "7C"], [[0, "JC"]], played=["AC", "7S", "8S", "9S"]) == "TC"
    # with the ace and ten gone and the king in hand, the queen is master too, and lower
    assert play(1, ["KC", "QC", "7C"], [[0, "JC"]], played=["AC", "TC", "7S", "8S"]) == "QC"
    assert play(1, ["AC", "TC", "7C"], [[0, "KC"]]) == "TC"  # the ace in hand guards the ten


def test_not_last_with_points_on_the_table_it_wins_with_its_highest_card():
    assert play(2, ["QC", "JC"], [[0, "9C"], [1, "AH"]]) == "QC"
    assert play(2, ["QC", "JC"], [[0, "9C"], [1, "TH"]]) == "QC"
    assert play(2, ["QC", "KC"], [[0, "9C"], [1, "AH"]]) == "KC"


def test_not_last_against_an_opponent_it_takes_a_trick_with_a_sure_winner():
    assert play(1, ["AC", "7C"], [[0, "9C"]]) == "AC"


def test_a_partner_winning_for_nothing_is_not_overtaken_even_with_a_sure_winner():
    assert play(2, ["AD", "7D"], [[3, "8D"], [0, "9D"]]) == "7D"


def test_a_trick_it_cannot_win_gets_its_cheapest_card():
    assert play(1, ["KC", "7C"], [[2, "9C"], [3, "8C"], [0, "AC"]]) == "7C"


def test_not_last_without_points_and_no_sure_winner_it_plays_its_cheapest_card():
    assert play(2, ["QC", "JC", "8C"], [[0, "9C"], [1, "7H"]]) == "8C"


def test_a_void_without_trumps_discards_its_cheapest_card():
    assert play(1, ["AS", "KH", "9D", "JD"], [[0, "7C"]]) == "9D"
    assert play(1, ["QS", "KC"], [[0, "7H"]]) == "QS"


def test_a_void_holding_only_aces_gives_one_to_a_partner_winning_safely():
    assert play(2, ["AS", "AC"], [[3, "9D"], [0, "AD"]]) in ("AS", "AC")


def test_a_view_the_heuristics_cannot_read_still_gets_a_legal_move():
    import random

    broken = view(0, ["AS", "KS", "7D"])
    del broken["deal"]["trick"]
    action = big_mariage_bot(broken, {"play": ["AS", "KS", "7D"]}, random.Random(1))
    assert action["type"] == "play" and action["card"] in ("AS", "KS", "7D")


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_spectators_view_or_a_missing_hand_leaves_the_move_to_chance(seat):
    import random

    moves = {"bid": BIDS_FROM_60, "pass": {}}
    spectator = view(seat, [])
    spectator["seat"] = None
    action = big_mariage_bot(spectator, moves, random.Random(seat))
    assert action["type"] in ("bid", "pass")
