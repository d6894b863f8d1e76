"""The fields the pages and bots read from views and score sheets (render.js, sheet.js, the
Big Mariage bot): present under their names, and holding what rules.md says they hold."""

import random

from engine import EVERYONE, new_match
from engine.bots.big_mariage import big_mariage_bot
from engine.bots.random_bot import random_bot

SPADE_HONOURS = ("QS", "KS", "AS")


def _captured_by_trick(match, seat, action, captured):
    """Apply ``action``; when it completes a trick, add the trick's cards to its winner's."""
    before = sum(match.current.view(None)["tricks_won"])
    deal = match.current
    match.apply(seat, action)
    view = deal.view(None)
    if sum(view["tricks_won"]) > before:
        last = view["last_trick"]
        captured[last["winner"]] += [card for _, card in last["cards"]]


def test_black_maria_score_sheet_counts_each_seats_hearts_and_spade_honours():
    rng = random.Random(5)
    for _ in range(5):
        match = new_match("black_maria", {"target": 10 ** 6})
        deal = match.start_deal(rng=rng)
        captured = [[], [], []]
        while match.current:
            seat = match.to_act()[0]
            _captured_by_trick(match, seat, random_bot(None, match.moves(seat), rng), captured)
        sheet = match.score_sheet()[-1]["summary"]
        assert set(sheet) == {"hearts", "spades", "spade_penalties", "tricks", "penalties"}
        assert sheet["hearts"] == [sum(c[1] == "H" for c in won) for won in captured]
        assert sum(sheet["hearts"]) == 13
        assert sheet["spades"] == [[c for c in SPADE_HONOURS if c in won] for won in captured]
        assert sorted(c for held in sheet["spades"] for c in held) == sorted(SPADE_HONOURS)
        assert [hearts + sum(points) for hearts, points in
                zip(sheet["hearts"], sheet["spade_penalties"])] == sheet["penalties"]
        assert sheet["tricks"] == [len(won) // 3 for won in captured]
        assert sheet["penalties"] == deal.scores() == match.totals


def _black_maria_at_passing():
    match = new_match("black_maria")
    deck = list(match.game.pack.cards)
    match.start_deal(deck, 2)
    return match, {seat: [deck[i] for i in range(51) if (2 + 1 + i) % 3 == seat][:3]
                   for seat in range(3)}


def test_black_maria_view_names_the_phase_the_dealer_and_the_scores():
    match, _ = _black_maria_at_passing()
    view = match.view(0)["deal"]
    assert (view["phase"], view["dealer"], view["scores"]) == ("pass", 2, [0, 0, 0])


def test_black_maria_passes_are_seen_by_their_owner_and_by_an_open_view_only():
    match, passes = _black_maria_at_passing()
    match.apply(0, {"type": "pass", "cards": passes[0]})
    match.apply(1, {"type": "pass", "cards": passes[1]})
    assert match.current.view(EVERYONE)["pass"] == [passes[0], passes[1], None]
    assert match.current.view(0)["pass"] == [passes[0], None, None]
    assert match.current.view(2)["pass"] == [None, None, None]


def test_black_maria_hides_a_pass_from_the_others_but_never_a_play():
    match, passes = _black_maria_at_passing()
    deal = match.current
    passing = {"type": "pass", "cards": passes[0]}
    assert deal.redact(passing, 0, 1) == {"type": "pass"}
    assert deal.redact(passing, 0, 0) == passing
    assert deal.redact(passing, 0, EVERYONE) == passing
    play = {"type": "play", "card": "QS"}
    for viewer in (0, 1, None, EVERYONE):
        assert deal.redact(play, 0, viewer) == play


def test_big_mariage_view_names_the_high_bidder_the_variant_and_the_cards_played():
    rng = random.Random(2)
    match = new_match("big_mariage", {"marriages": "trump_only"})
    deal = match.start_deal(rng=rng)
    first = match.to_act()[0]
    match.apply(first, {"type": "bid", "value": 65})
    view = match.view(first)["deal"]
    assert view["high_bidder"] == first and view["high_bid"] == 65
    assert view["variant"] == "trump_only"
    assert view["played"] == []
    captured = [[], [], [], []]
    while match.current and len(deal.view(None)["played"]) < 8:  # two tricks
        seat = match.to_act()[0]
        _captured_by_trick(match, seat, random_bot(None, match.moves(seat), rng), captured)
    played = deal.view(None)["played"]
    assert sorted(played) == sorted(c for won in captured for c in won) and len(played) == 8
    tricks = deal.view(None)["past_tricks"]  # in the order played
    assert played == [card for _, _, cards in tricks for card in cards]


# -- the match view (protocol.md's VIEW) ------------------------------------------------------

MATCH_VIEW = {"game", "options", "seats", "teams", "totals", "deals", "finished", "winners",
              "to_act", "seat", "moves", "deal"}


def test_a_match_view_before_any_deal_has_no_deal():
    match = new_match("marjolet")
    view = match.view(0)
    assert set(view) == MATCH_VIEW
    assert view["deal"] is None and view["deals"] == [] and view["to_act"] == []


def test_a_match_view_names_the_game_its_seats_teams_and_totals():
    for game, seats, teams in (("marjolet", 2, False), ("black_maria", 3, False),
                               ("big_mariage", 4, True)):
        match = new_match(game, {"target": 300})
        match.start_deal(rng=random.Random(1))
        view = match.view(1)
        assert set(view) == MATCH_VIEW
        assert (view["game"], view["seats"], view["teams"]) == (game, seats, teams)
        assert view["options"]["target"] == 300
        assert view["totals"] == [0] * (2 if teams else seats)
        assert (view["finished"], view["winners"]) == (False, [])
        assert view["to_act"] == match.to_act() and view["seat"] == 1
        assert view["deal"]["dealer"] == match.current.dealer


def test_an_open_view_is_nobodys_seat():
    match = new_match("black_maria")
    match.start_deal(rng=random.Random(1))
    view = match.view(EVERYONE)
    assert view["seat"] is None and view["moves"] == {}
    assert all(hand is not None for hand in view["deal"]["hands"])


def test_a_finished_match_view_names_its_winners():
    rng = random.Random(4)
    match = new_match("black_maria", {"target": 1})
    while not match.finished:
        match.start_deal(rng=rng)
        while match.current:
            seat = match.to_act()[0]
            match.apply(seat, random_bot(None, match.moves(seat), rng))
    view = match.view(None)
    assert view["finished"] is True and view["winners"] == match.winners != []
    assert view["totals"] == match.totals and view["deal"]["phase"] == "over"


# -- Black Maria: what each seat received -----------------------------------------------------

def test_black_maria_received_cards_are_seen_by_their_receiver_and_an_open_view_only():
    match, passes = _black_maria_at_passing()
    for seat in range(3):
        match.apply(seat, {"type": "pass", "cards": passes[seat]})
    received = [passes[(seat + 1) % 3] for seat in range(3)]  # from the left-hand neighbour
    assert match.current.view(EVERYONE)["received"] == received
    for seat in range(3):
        assert match.current.view(seat)["received"] == [
            received[s] if s == seat else None for s in range(3)]
    assert match.current.view(None)["received"] == [None, None, None]


# -- Marjolet ---------------------------------------------------------------------------------

def _marjolet_deal_with_a_marriage(rng):
    """A random Marjolet deal in which seat 0 declares a marriage after its first win."""
    match = new_match("marjolet", {"target": 10 ** 6})
    while True:
        deal = match.start_deal(rng=rng)
        declared = False
        while match.current:
            seat = match.to_act()[0]
            moves = match.moves(seat)
            if not declared and seat == 0 and moves.get("declare"):
                match.apply(0, {"type": "declare", "cards": moves["declare"][0]})
                declared = True
                continue
            match.apply(seat, random_bot(None, moves, rng))
        if declared:
            return match, deal


def test_marjolet_score_sheet_lists_each_seats_combinations_and_bonuses():
    match, deal = _marjolet_deal_with_a_marriage(random.Random(3))
    sheet = match.score_sheet()[-1]["summary"]
    assert set(sheet) == {"trump", "dix", "seats"} and sheet["trump"] == deal.trump
    combination = deal.view(None)["scored_combinations"][0][0]
    assert set(combination) == {"cards", "name", "points"}
    assert sheet["seats"][0]["combinations"][0] == combination
    taker = deal.view(None)["turn_up_taken_by"]
    for seat, line in enumerate(sheet["seats"]):
        assert line["combination_points"] == sum(c["points"] for c in line["combinations"])
        assert line["total"] == deal.scores()[seat]
        assert line["turn_up_bonus"] == (10 if seat == taker else 0)


def test_marjolet_turned_up_dix_scores_the_dealer_at_once_and_says_how():
    match = new_match("marjolet")
    cards = list(match.game.pack.cards)
    cards.remove("7S")
    match.start_deal(cards[:12] + ["7S"] + cards[12:], 1)  # the 7 of spades turned up
    view = match.view(None)["deal"]
    assert view["scores"] == [0, 10] and view["dix_live"] is False
    assert (view["exchanged_by"], view["turn_up_taken_by"]) == (None, None)
    assert match.current.summary()["dix"] == [{"seat": 1, "how": "turn-up", "points": 10}]


def test_marjolet_view_counts_tricks_and_says_when_the_end_phase_has_come():
    match, deal = _marjolet_deal_with_a_marriage(random.Random(3))
    view = deal.view(None)
    assert view["tricks_played"] == 16 and sum(view["end_tricks_won"]) == 6
    assert view["phase"] == "over" and view["end_phase"] is True
    assert view["stock_count"] == 0 and view["turn_up"] is None


# -- Big Mariage's score sheet ------------------------------------------------------------------

def _big_mariage_deals(count, rng):
    """Finished Big Mariage deals of random play (thrown-in ones included)."""
    deals = []
    while len(deals) < count:
        match = new_match("big_mariage", {"target": 10 ** 6, "marriages": rng.choice(
            ["declared", "trump_only"])})
        deal = match.start_deal(rng=rng)
        bot = (random_bot, big_mariage_bot, _always_pass)[len(deals) % 3]
        while match.current:
            seat = match.to_act()[0]
            match.apply(seat, bot(match.view(seat), match.moves(seat), rng))
        deals.append((match, deal))
    return deals


def _always_pass(view, moves, rng):
    """Passes while bidding (all four passing throw the deal in), then plays at random."""
    return {"type": "pass"} if "pass" in moves else random_bot(view, moves, rng)


def test_big_mariage_score_sheet_gives_each_team_its_points_and_the_contracts_fate():
    for match, deal in _big_mariage_deals(12, random.Random(6)):
        sheet = match.score_sheet()[-1]["summary"]
        assert sheet["thrown_in"] == (deal.contract is None)
        assert (sheet["declarer"], sheet["contract"]) == (deal.declarer, deal.contract)
        assert sheet["high_bid"] == deal.view(None)["high_bid"]
        assert sheet["trump_calls"] == deal.view(None)["trump_calls"]
        assert deal.view(None)["phase"] == "over"
        scores = deal.scores()
        if sheet["thrown_in"]:
            assert scores == [0, 0]
        else:
            assert sum(team["card_points"] for team in sheet["teams"]) == 120
        for index, team in enumerate(sheet["teams"]):
            assert team["team"] == index and team["seats"] == [index, index + 2]
            assert all(m["seat"] % 2 == index for m in team["marriages"])
            assert team["marriage_points"] == sum(m["points"] for m in team["marriages"])
            assert team["points"] == team["card_points"] + team["marriage_points"]
            assert team["score"] == scores[index]
            declaring = deal.declarer is not None and deal.contract is not None \
                and deal.declarer % 2 == index
            assert team["declaring"] is declaring
            if sheet["thrown_in"]:
                assert team["made"] is None
            elif declaring:
                assert team["made"] is (team["points"] >= deal.contract)
                assert team["score"] == (deal.contract if team["made"] else -deal.contract)
            else:
                assert team["made"] is None
                assert team["rounded"] == team["score"] and team["rounded"] % 5 == 0
                assert abs(team["rounded"] - team["points"]) <= 2
