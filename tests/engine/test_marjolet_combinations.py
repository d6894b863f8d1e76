"""Marjolet's table of combinations (rules.md section 1), built afresh for every trump suit and
both variants, against the table of the rules written out here."""

import pytest

from engine import marjolet
from engine.cards import SUIT_NAMES, SUITS

FOURS = {"A": (100, "four aces"), "T": (80, "four tens"), "K": (60, "four kings"),
         "Q": (40, "four queens")}


def rules_table(trump, jack_queen):
    """card set -> (points, name), as rules.md's table and options say."""
    table = {frozenset(rank + s for s in SUITS): found for rank, found in FOURS.items()}
    for s in SUITS:
        table[frozenset({"K" + s, "Q" + s})] = \
            (40, "king and queen of trumps") if s == trump else (20, f"marriage in {SUIT_NAMES[s]}")
    table[frozenset({"J" + trump, "Q" + trump})] = (40, "marjolet and queen of trumps")
    for s in SUITS:
        if s == trump:
            continue
        if jack_queen == "marjolet":
            table[frozenset({"J" + trump, "Q" + s})] = (20, f"marjolet and queen of {SUIT_NAMES[s]}")
        else:
            table[frozenset({"J" + s, "Q" + s})] = (20, f"jack and queen of {SUIT_NAMES[s]}")
    return table


@pytest.mark.parametrize("jack_queen", ["marjolet", "same_suit"])
@pytest.mark.parametrize("trump", list(SUITS))
def test_the_combinations_built_afresh_are_the_rules(monkeypatch, trump, jack_queen):
    monkeypatch.setattr(marjolet, "_TABLES", {})  # not the table cached by earlier deals
    table = marjolet.combination_table(trump, jack_queen)
    assert {key: (points, name) for key, (_, name, points) in table.items()} == \
        rules_table(trump, jack_queen)
    for key, (cards, _, _) in table.items():
        assert cards == marjolet.PACK.sorted(key)
    assert marjolet.combination_table(trump, jack_queen) is table, "built once, then cached"
