"""What the three games are built from: packs, action schemas, which card beats which, and the
contract every Deal class must keep (its handlers and schema name the same actions)."""

import pytest

from engine import new_match
from engine.actions import CARD, Action, Schema
from engine.bots import bot_for
from engine.bots.heuristic import HEURISTIC_BOTS
from engine.bots.random_bot import random_bot
from engine.cards import SUITS, Pack
from engine.core import Deal, beats


def test_a_pack_lists_its_cards_suit_by_suit_high_to_low_without_the_removed_ones():
    pack = Pack("AKQ", without=("KH",))
    assert pack.ranks == "AKQ"
    assert pack.cards == ("AS", "KS", "QS", "AH", "QH", "AD", "KD", "QD", "AC", "KC", "QC")
    assert len(pack) == 11 and "KH" not in pack.card_set
    assert pack.is_permutation(list(reversed(pack.cards)))
    assert not pack.is_permutation([*pack.cards[:-1], "KH"])


def test_a_packs_strength_ranks_each_suit_in_the_order_of_its_ranks():
    ranks = "ATKQJ987"  # Marjolet's and Big Mariage's order: the ten above the king
    pack = Pack(ranks)
    for suit in SUITS:
        by_strength = sorted((r + suit for r in ranks), key=pack.strength.__getitem__,
                             reverse=True)
        assert by_strength == [r + suit for r in ranks]


def test_a_pack_sorts_a_hand_suit_by_suit_high_to_low():
    pack = Pack("ATKQJ987")
    assert pack.sorted(["QD", "7C", "KH", "TH", "AS"]) == ["AS", "TH", "KH", "QD", "7C"]


def test_a_schema_knows_its_action_types():
    schema = Schema({"play": {"card": CARD}, "draw": {}})
    assert "play" in schema and "draw" in schema and "bid" not in schema
    assert schema.parse({"type": "draw"}) == {"type": "draw"}


def test_changing_an_action_is_refused_with_a_type_error_that_says_so():
    action = Action(type="play", card="QS")
    with pytest.raises(TypeError, match=r"^an Action is read-only$"):
        action["card"] = "KS"


def test_which_card_beats_the_best_so_far():
    strength = Pack("ATKQJ987").strength
    assert beats("TH", "KH", None, strength) and not beats("KH", "TH", None, strength)
    assert not beats("AS", "7H", "D", strength), "a card of another plain suit never wins"
    assert not beats("AS", "7H", None, strength)
    assert beats("7D", "AH", "D", strength), "the lowest trump beats a plain ace"
    assert not beats("7D", "8D", "D", strength)


def _no_op(deal, seat, action):
    pass


class _Playing(Deal):
    schema = Schema({"play": {"card": CARD}})
    handlers = {"play": _no_op}


def test_a_deal_class_whose_handlers_and_schema_differ_is_refused_when_defined():
    with pytest.raises(TypeError, match=r"^Lopsided: handlers and schema name different actions$"):
        class Lopsided(Deal):
            schema = Schema({"play": {"card": CARD}, "draw": {}})
            handlers = {"play": _no_op}


def test_a_subclass_changing_only_its_schema_or_only_its_handlers_is_checked_too():
    with pytest.raises(TypeError):
        class NewSchema(_Playing):
            schema = Schema({"draw": {}})
    with pytest.raises(TypeError):
        class NewHandlers(_Playing):
            handlers = {"draw": _no_op}

    class Same(_Playing):  # inherits both: nothing to check
        seats = 2

    class Abstract(Deal):  # defines neither (a base for games): nothing to check
        seats = 2

    assert set(Same.handlers) == set(Same.schema.kinds) == {"play"}


@pytest.mark.parametrize("game", ["marjolet", "black_maria", "big_mariage"])
def test_a_deals_legal_actions_are_its_matchs(game):
    match = new_match(game)
    deal = match.start_deal()
    for seat in range(match.game.seats):
        assert deal.legal_actions(seat) == match.legal_actions(seat)
    assert any(deal.legal_actions(seat) for seat in range(match.game.seats))


def test_bots_by_kind():
    for game in ("marjolet", "black_maria", "big_mariage"):
        assert bot_for(game, "random") is random_bot
        assert bot_for(game, "rules") is HEURISTIC_BOTS[game]
    with pytest.raises(ValueError, match=r"^unknown bot kind 'smart'$"):
        bot_for("marjolet", "smart")
