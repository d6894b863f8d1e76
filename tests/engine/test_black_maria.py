"""Black Maria: every rule and convention of rules.md section 2."""

import json
import random
import re

import pytest

from engine import (
    EVERYONE,
    GAMES,
    BadOptions,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    new_match,
)
from engine.black_maria import PENALTY, penalty
from engine.bots import bot_for
from engine.bots.random_bot import random_bot
from engine.record import replay, summary, write

GAME = GAMES["black_maria"]
CARD = re.compile(r"\b[AKQJT98765432][SHDC]\b")


def deck_for(hands: dict[int, list[str]], dealer: int) -> list[str]:
    """The pack order that deals ``hands`` (seat -> 17 cards) when ``dealer`` deals."""
    return [hands[(dealer + 1 + i) % 3][i // 3] for i in range(51)]


def suit_hands() -> dict[int, list[str]]:
    """Seat 0 all spades and 4 hearts, seat 1 the rest of the hearts and diamonds, 2 clubs..."""
    pack = list(GAME.pack.cards)
    return {0: pack[0:17], 1: pack[17:34], 2: pack[34:51]}


def start(hands=None, dealer=0, options=None):
    match = new_match("black_maria", options)
    match.start_deal(deck_for(hands or suit_hands(), dealer), dealer)
    return match


def pass_all(match, passes: dict[int, list[str]]):
    for seat in match.to_act():
        match.apply(seat, {"type": "pass", "cards": passes[seat]})


def state_of(match):
    return json.dumps([match.view(EVERYONE), match.totals, [d.actions for d in match.deals]])


def test_pack_is_51_cards_without_two_of_clubs():
    assert len(GAME.pack) == 51 and "2C" not in GAME.pack.cards and "2S" in GAME.pack.cards
    assert GAME.pack.ranks == "AKQJT98765432"


def test_deal_one_at_a_time_from_dealers_left():
    deck = list(GAME.pack.cards)
    match = new_match("black_maria")
    deal = match.start_deal(deck, dealer=1)
    assert deal.hands[2][:2] == [deck[0], deck[3]]
    assert deal.hands[0][:2] == [deck[1], deck[4]]
    assert deal.hands[1][:2] == [deck[2], deck[5]]
    assert [len(h) for h in deal.hands] == [17, 17, 17]


def test_dealer_passes_to_the_left():
    match = start(dealer=2, options={"target": 1000})
    while match.current:
        seat = match.to_act()[0]
        match.apply(seat, random_bot(None, match.moves(seat), random.Random(seat)))
    assert match.next() == {"deal": 1, "seat": 1}
    with pytest.raises(Exception, match="seat 0 must deal"):
        match.start_deal(list(GAME.pack.cards), dealer=1)
    assert match.start_deal(list(GAME.pack.cards), dealer=0).dealer == 0


def test_pass_three_cards_to_the_right_after_all_have_chosen():
    hands = suit_hands()
    match = start(hands)
    deal = match.current
    passes = {0: hands[0][:3], 1: hands[1][:3], 2: hands[2][:3]}
    match.apply(1, {"type": "pass", "cards": passes[1]})
    match.apply(0, {"type": "pass", "cards": passes[0]})
    assert deal.hands[0] == hands[0], "nothing changes hands before the third pass"
    match.apply(2, {"type": "pass", "cards": passes[2]})
    for seat in range(3):
        left = (seat + 1) % 3
        assert sorted(deal.hands[seat]) == sorted(
            [c for c in hands[seat] if c not in passes[seat]] + passes[left])
        assert deal.received[seat] == passes[left]


def test_every_view_says_whom_each_seat_passes_to_and_the_cards_go_there():
    """The pages name the right-hand neighbour from the view (``pass_to``), not by a rule of
    their own: it is public, and it is where the engine sends the cards."""
    hands = suit_hands()
    match = start(hands)
    views = [match.view(seat)["deal"]["pass_to"] for seat in range(3)] + [match.view(EVERYONE)["deal"]["pass_to"]]
    assert views == [[2, 0, 1]] * 4
    for seat in (1, 2, 0):
        match.apply(seat, {"type": "pass", "cards": hands[seat][:3]})
    for seat, to in enumerate(views[0]):
        assert match.current.received[to] == hands[seat][:3]


@pytest.mark.parametrize("cards, reason", [
    (["AS", "KS"], "exactly 3"),
    (["AS", "KS", "QS", "JS"], "exactly 3"),
    (["AS", "KS", "2D"], "not in your hand"),
])
def test_pass_must_be_three_cards_of_your_hand(cards, reason):
    match = start()
    before = state_of(match)
    with pytest.raises(IllegalAction, match=reason):
        match.apply(0, {"type": "pass", "cards": cards})
    assert state_of(match) == before


def test_pass_naming_a_card_twice_is_malformed():
    match = start()
    with pytest.raises(MalformedAction):
        match.apply(0, {"type": "pass", "cards": ["AS", "AS", "KS"]})


def test_no_second_pass_and_no_play_before_the_passing_ends():
    hands = suit_hands()
    match = start(hands)
    match.apply(0, {"type": "pass", "cards": hands[0][:3]})
    with pytest.raises(NotYourTurn):
        match.apply(0, {"type": "pass", "cards": hands[0][3:6]})
    with pytest.raises(IllegalAction, match="must pass three cards first"):
        match.apply(1, {"type": "play", "card": hands[1][5]})
    assert match.to_act() == [1, 2]


def test_next_during_passing_is_first_seat_from_dealers_left_not_yet_passed():
    hands = suit_hands()
    match = start(hands, dealer=0)
    assert match.next() == {"deal": 0, "seat": 1}
    match.apply(1, {"type": "pass", "cards": hands[1][:3]})
    assert match.next() == {"deal": 0, "seat": 2}
    match.apply(0, {"type": "pass", "cards": hands[0][:3]})
    assert match.next() == {"deal": 0, "seat": 2}


def test_passes_stay_secret_until_all_three_are_in():
    hands = suit_hands()
    match = start(hands)
    deal = match.current
    match.apply(0, {"type": "pass", "cards": ["QS", "KS", "AS"]})
    for viewer in (1, 2, None):
        view = match.view(viewer)
        assert view["deal"]["pass"][0] is None
        assert deal.redact({"type": "pass", "cards": ["QS", "KS", "AS"]}, 0, viewer) == {
            "type": "pass"}
    assert match.view(0)["deal"]["pass"][0] == ["QS", "KS", "AS"]
    assert match.view(0)["deal"]["passed"] == [True, False, False]


def test_dealers_left_leads_any_card_even_queen_of_spades():
    hands = suit_hands()
    match = start(hands, dealer=2)  # seat 0 leads
    pass_all(match, {0: ["2S", "3S", "4S"], 1: hands[1][:3], 2: hands[2][:3]})
    assert match.to_act() == [0]
    assert "QS" in match.moves(0)["play"] and "AH" in hands[0] + hands[1]
    match.apply(0, {"type": "play", "card": "QS"})


def test_must_follow_suit_when_able_otherwise_any_card():
    # seat 0: 13 spades + AH KH QH JH; seat 1: TH..2H + AD..7D; seat 2: 6D..2D + all clubs
    hands = suit_hands()
    match = start(hands, dealer=2)
    pass_all(match, {0: ["2S", "3S", "4S"], 1: ["AD", "KD", "QD"], 2: ["AC", "KC", "QC"]})
    match.apply(0, {"type": "play", "card": "AH"})
    assert set(match.moves(1)["play"]) == {c for c in match.current.hands[1] if c[1] == "H"}
    before = state_of(match)
    with pytest.raises(IllegalAction, match=r"must follow suit \(hearts\)"):
        match.apply(1, {"type": "play", "card": "7D"})
    assert state_of(match) == before
    match.apply(1, {"type": "play", "card": "2H"})
    # seat 2 holds diamonds, clubs and the spades 2S 3S 4S: no heart, so any card
    assert set(match.moves(2)["play"]) == set(match.current.hands[2])
    match.apply(2, {"type": "play", "card": "4S"})


def test_highest_card_of_suit_led_wins_and_leads_next():
    hands = suit_hands()
    match = start(hands, dealer=2)
    pass_all(match, {0: ["2S", "3S", "4S"], 1: ["AD", "KD", "QD"], 2: ["AC", "KC", "QC"]})
    match.apply(0, {"type": "play", "card": "JH"})
    match.apply(1, {"type": "play", "card": "TH"})
    match.apply(2, {"type": "play", "card": "6D"})  # off-suit, cannot win
    deal = match.current
    assert deal.last_trick == {"cards": [[0, "JH"], [1, "TH"], [2, "6D"]], "winner": 0}
    assert match.to_act() == [0] and deal.leader == 0
    assert deal.scores() == [2, 0, 0]


def test_penalties_are_hearts_one_and_spade_honours():
    assert [PENALTY.get(c, 0) for c in ("QS", "KS", "AS", "JS", "2H", "AH", "AD")] == [
        13, 10, 7, 0, 1, 1, 0]
    assert sum(PENALTY.get(c, 0) for c in GAME.pack.cards) == 43


def test_seed_example_17_13_13():
    """A seat's score is the penalty of the cards it captured (the deal adds it up trick by
    trick: the random play-outs check it against the captured cards)."""
    hearts = [r + "H" for r in "AKQJT98765432"]
    captured = [["QS", *hearts[:4], "2D"], ["KS", *hearts[4:7]], ["AS", *hearts[7:], "5C"]]
    assert [penalty(pile) for pile in captured] == [17, 13, 13]


def test_taking_all_43_is_no_reward():
    assert [penalty(pile) for pile in (GAME.pack.cards, [], [])] == [43, 0, 0]


@pytest.mark.parametrize("totals, winners", [
    ([99, 40, 60], None),
    ([100, 40, 60], [1]),
    ([120, 40, 40], [1, 2]),
    ([30, 30, 30], None),
    ([100, 100, 101], [0, 1]),
])
def test_match_ends_at_100_lowest_wins_ties_share(totals, winners):
    assert GAME.winners(totals, {"target": 100}) == winners


def test_target_option():
    assert GAME.winners([50, 10, 20], {"target": 50}) == [1]
    assert new_match("black_maria", {"target": 50}).options == {"target": 50}
    with pytest.raises(BadOptions):
        new_match("black_maria", {"target": 0})
    with pytest.raises(BadOptions):
        new_match("black_maria", {"pass_direction": "left"})


def test_views_show_own_hand_only():
    hands = suit_hands()
    match = start(hands)
    for seat in range(3):
        view = match.view(seat)["deal"]
        assert view["hands"][seat] == GAME.pack.sorted(hands[seat])
        assert all(view["hands"][s] is None for s in range(3) if s != seat)
    assert match.view(None)["deal"]["hands"] == [None, None, None]
    assert match.view(None)["moves"] == {}


def play_random_deal(match, rng, check):
    while match.current:
        seat = rng.choice(match.to_act())
        check(match, seat, rng)
        match.apply(seat, random_bot(None, match.moves(seat), rng))


def no_leak_and_refusal_check(match, seat, rng):
    deal = match.current
    for viewer in (0, 1, 2, None):
        text = json.dumps(match.view(viewer)["deal"])
        known = set(deal.passes[viewer] or []) if viewer is not None else set()
        hidden = {c for s in range(3) if s != viewer for c in deal.hands[s]} - known
        assert not hidden & set(CARD.findall(text)), (viewer, hidden & set(CARD.findall(text)))
    # a random wrong action is refused and changes nothing
    wrong = rng.choice([
        {"type": "play", "card": rng.choice(GAME.pack.cards)},
        {"type": "pass", "cards": rng.sample(GAME.pack.cards, 3)},
    ])
    actor = rng.choice([seat, (seat + 1) % 3])  # during the passing, both may be able to act
    if wrong in match.legal_actions(actor) or (
            wrong["type"] == "pass" and "pass" in match.moves(actor)
            and set(wrong["cards"]) <= set(deal.hands[actor])):
        return
    before = state_of(match)
    with pytest.raises((IllegalAction, NotYourTurn)):
        match.apply(actor, wrong)
    assert state_of(match) == before


def test_random_playouts_keep_every_invariant():
    rng = random.Random(20261129)
    deals = 0
    for _ in range(60):
        match = new_match("black_maria")
        while not match.finished:
            deal = match.start_deal(rng=rng)
            checks = deals < 30
            play_random_deal(match, rng, no_leak_and_refusal_check if checks else
                             lambda *_: None)
            assert sum(deal.scores()) == 43
            assert deal.scores() == captured_penalties(deal)
            assert sorted(c for pile in deal.captured for c in pile) == sorted(GAME.pack.cards)
            assert all(not h for h in deal.hands)
            deals += 1
        again = replay(json.loads(json.dumps(write(match, ["a", "b", "c"]))))
        assert summary(again) == summary(match)
        assert match.winners == [s for s, t in enumerate(match.totals) if t == min(match.totals)]
    assert deals > 300


def captured_penalties(deal) -> list[int]:
    """Each seat's penalty, worked out from scratch from the cards it captured."""
    return [sum(PENALTY[card] for card in pile) for pile in deal.captured]


def test_thousands_of_random_deals_sum_to_43():
    rng = random.Random(7)
    match = new_match("black_maria", {"target": 10 ** 9})
    for _ in range(2000):
        deal = match.start_deal(rng=rng)
        while match.current:
            seat = match.to_act()[0]
            match.apply(seat, random_bot(None, match.moves(seat), rng))
            assert deal.scores() == captured_penalties(deal)  # after every trick, as it goes
        assert sum(deal.scores()) == 43
    assert sum(match.totals) == 43 * 2000


def test_rules_bot_passes_dangerous_spades_and_beats_random():
    bot = bot_for("black_maria", "rules")
    mine = ["AS", "KS", "QS", "2S", "AH", "2H", "AD", "KD", "QD", "JD", "TD", "9D",
            "AC", "KC", "QC", "JC", "TC"]
    rest = [c for c in GAME.pack.cards if c not in mine]
    match = start({0: mine, 1: rest[:17], 2: rest[17:]})
    action = bot(match.view(0), match.moves(0), random.Random(1))
    assert action["type"] == "pass" and set(action["cards"]) == {"AS", "KS", "QS"}
    rng = random.Random(3)
    penalty = [0, 0]
    for n in range(150):
        match = new_match("black_maria", {"target": 10 ** 9})
        match.start_deal(rng=rng)
        smart = n % 3
        while match.current:
            seat = match.to_act()[0]
            chooser = bot if seat == smart else random_bot
            match.apply(seat, chooser(match.view(seat), match.moves(seat), rng))
        penalty[0] += match.totals[smart]
        penalty[1] += sum(match.totals) - match.totals[smart]
    assert penalty[0] < penalty[1] / 2 * 0.75, penalty
