"""What search needs from the engine: an independent copy of a deal, the finished tricks in
every view, and a deal built from a seat's view with the hidden cards placed as chosen (a
determinization) that plays on exactly as the deal it stands for."""

import copy
import random

import pytest

from engine import GAMES, new_match
from engine.bots.random_bot import random_bot

GAME_NAMES = sorted(GAMES)


def random_positions(game: str, rng: random.Random, deals: int, every: int = 5):
    """Positions of random play (``every``-th action), each as ``(match, deal)``."""
    for _ in range(deals):
        match = new_match(game, {"target": 10 ** 6})
        deal = match.start_deal(rng=rng)
        step = 0
        while match.current is not None:
            if step % every == 0:
                yield match, deal
            seat = match.to_act()[0]
            match.apply(seat, random_bot(None, match.moves(seat), rng))
            step += 1


def play_to_the_end(deal, rng) -> list:
    """Random actions until ``deal`` is over; the actions taken, as (seat, action)."""
    taken = []
    while not deal.over:
        seat = deal.to_act()[0]
        action = random_bot(None, deal.moves(seat), rng)
        deal.apply(seat, action)
        taken.append((seat, action))
    return taken


def hidden_parts(game: str, deal) -> dict:
    """What a determinization needs besides the hands, as the real deal has it."""
    if game == "marjolet":
        return {"stock": deal.deck[deal.next_card:] if deal.turn_up else []}
    if game == "black_maria":
        return {"passes": deal.passes}
    return {"kitty": list(deal.kitty_cards)}


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_copy_plays_on_without_touching_its_original(game):
    rng = random.Random(1)
    for _, deal in random_positions(game, rng, deals=6, every=7):
        before = copy.deepcopy(deal.__dict__)
        twin = copy.deepcopy(deal)
        clone = deal.copy()
        assert type(clone) is type(deal) and clone.__dict__ == deal.__dict__
        taken = play_to_the_end(clone, rng)
        assert deal.__dict__ == before, "the copy changed its original"
        for seat, action in taken:  # the copy played as the deal itself would have
            twin.apply(seat, action)
        assert clone.scores() == twin.scores() and clone.view(0) == twin.view(0)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_views_list_every_finished_trick_with_its_leader_and_winner(game):
    rng = random.Random(2)
    for _, deal in random_positions(game, rng, deals=3, every=1):
        view = deal.view(None)
        past = view["past_tricks"]
        assert len(past) == sum(view["tricks_won"])
        for (_, winner, cards), following in zip(past, past[1:] + [[view["leader"]]]):
            assert len(cards) == deal.seats and following[0] == winner
        if past:
            leader, winner, cards = past[-1]
            assert view["last_trick"] == {"winner": winner, "cards": deal.plays(cards, leader)}
        captured = [[] for _ in range(deal.seats)]
        for _, winner, cards in past:
            captured[winner] += cards
        assert captured == deal.captured


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_deal_built_from_a_view_and_the_true_hidden_cards_plays_on_as_the_deal(game):
    rng = random.Random(3)
    options = GAMES[game].check_options({"target": 10 ** 6})
    for _, position in random_positions(game, rng, deals=4, every=3):
        deal = copy.deepcopy(position)  # played on below, out of its match
        seat = rng.randrange(deal.seats)
        built = type(deal).from_view(options, deal.view(seat), deal.hands,
                                     **hidden_parts(game, deal))
        assert built.view(seat) == deal.view(seat)
        assert built.scores() == deal.scores()
        actions_rng = random.Random(rng.random())
        while not deal.over:
            actor = deal.to_act()[0]
            assert built.moves(actor) == deal.moves(actor)
            action = random_bot(None, deal.moves(actor), actions_rng)
            deal.apply(actor, action)
            built.apply(actor, action)
            assert built.view(seat) == deal.view(seat)
        assert built.over and built.scores() == deal.scores()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_determinization_must_place_every_card_once(game):
    rng = random.Random(4)
    options = GAMES[game].check_options({})
    _, deal = next(random_positions(game, rng, deals=1, every=1))
    hands = [list(hand) for hand in deal.hands]
    hands[0][0] = hands[1][0]  # one card twice, one lost
    with pytest.raises(ValueError):
        type(deal).from_view(options, deal.view(0), hands, **hidden_parts(game, deal))


def test_a_marjolet_view_names_the_card_turned_up_at_the_deal_all_deal_long():
    rng = random.Random(5)
    for _, deal in random_positions("marjolet", rng, deals=3, every=1):
        assert deal.view(None)["turned_up"] == deal.deck[12]


def test_a_marjolet_stock_can_be_put_in_another_order_by_search_alone():
    rng = random.Random(6)
    match = new_match("marjolet")
    deal = match.start_deal(rng=rng)
    twin = deal.copy()
    stock = deal.deck[deal.next_card:]
    deal.arrange_stock(stock[::-1])
    assert deal.deck[deal.next_card:] == stock[::-1] and twin.deck[twin.next_card:] == stock
    with pytest.raises(ValueError):
        deal.arrange_stock(stock[1:] + [deal.hands[0][0]])
    assert deal.deck[deal.next_card:] == stock[::-1]
