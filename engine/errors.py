"""The engine's typed errors, each a coded refusal.

A refusal carries a stable reason id (a key of :data:`REASONS`), its parameters and an English
sentence for logs::

    >>> error = IllegalAction("follow_suit", suit="H")
    >>> error.reason, error.params, error.message
    ('follow_suit', {'suit': 'H'}, 'you must follow suit (hearts)')

Parameters are JSON-ready, so that a page can tell the refusal in its own language without
reading the English: ``card`` is a card code (``"QS"``), ``suit`` a suit letter (``S H D C``),
``seat`` and names ending in ``_seat`` a seat index from 0, ``value``, ``game``, ``option``,
``type`` and ``field`` what the sender named (shown with ``!r``: a value the engine could not
use), and the others whole numbers. The English sentence is the reason's template filled with
the parameters, a ``suit`` by its English name.
"""

from __future__ import annotations

import string

from .cards import SUIT_NAMES

#: Every reason the engine gives, by id: its English template (``str.format`` fields are the
#: parameters). The ids are stable: pages and their language catalogues key on them.
REASONS: dict[str, str] = {
    # the action's form (MalformedAction)
    "action_not_object": "an action is a JSON object",
    "unknown_action": "unknown action type: {value!r}",
    "missing_field": "{type} needs the field {field!r}",
    "extra_field": "{type} has no field {field!r}",
    "not_a_card": "not a card code: {value!r}",
    "not_a_card_list": "cards must be a non-empty list of card codes",
    "card_named_twice": "the same card is named twice",
    "not_a_number": "not a whole number: {value!r}",
    "not_a_flag": "not true or false: {value!r}",
    # whose turn (NotYourTurn; match_over is also a BadDeal)
    "not_your_turn": "it is not your turn",
    "deal_over": "the deal is over",
    "match_over": "the match is over",
    "no_deal": "no deal in progress",
    # options (BadOptions)
    "unknown_game": "unknown game {game!r}",
    "options_not_object": "options must be a JSON object",
    "unknown_option": "{game} has no option {option!r}",
    "bad_option_value": "option {option!r} does not take {value!r}",
    # dealing (BadDeal)
    "deal_in_progress": "the deal in progress is not finished",
    "no_dealer_seat": "no seat {value!r} to deal",
    "wrong_dealer": "seat {seat} must deal, not seat {named_seat}",
    "bad_pack": "the pack must hold every card of the game exactly once",
    "no_kitty": "{game} has no kitty",
    "kitty_shape": "the kitty must be a list of {count} card positions in the pack",
    "kitty_repeats": "the kitty names the same position twice",
    "kitty_position": "the kitty cannot take position {position} (neither the first nor the "
                      "last card, 0 to {last})",
    "kitty_consecutive": "the kitty cannot take two consecutive cards ({position} and "
                         "{next_position})",
    # the rules (IllegalAction): every game
    "not_in_hand": "{card} is not in your hand",
    "follow_suit": "you must follow suit ({suit})",
    # Black Maria
    "passing_over": "the passing is over",
    "pass_exactly": "you must pass exactly {count} cards",
    "pass_first": "everyone must pass three cards first",
    # Marjolet
    "must_trump": "you must trump ({suit})",
    "head_trick": "you must play higher than the card led",
    "draw_first": "declare, exchange or draw: you must draw before the next trick",
    "after_trick_declare": "you can only declare just after winning a trick, before drawing",
    "after_trick_exchange": "you can only exchange just after winning a trick, before drawing",
    "after_trick_draw": "you can only draw just after winning a trick, before drawing",
    "stock_out_declare": "you cannot declare once the stock is exhausted",
    "stock_out_exchange": "you cannot exchange once the stock is exhausted",
    "stock_out_draw": "you cannot draw once the stock is exhausted",
    "four_jacks": "four jacks score nothing",
    "jack_same_suit": "in this variant a jack pairs only with the queen of its suit",
    "no_combination": "these cards form no combination",
    "scored_already": "that combination has already been scored",
    "no_dix": "you do not hold the 7 of trumps ({card})",
    # Big Mariage
    "time_bid": "it is time to bid or pass",
    "time_give": "it is time to give one card to each other player",
    "time_contract": "it is time to fix the contract",
    "time_play": "it is time to play a card",
    "bid_multiple": "a bid must be a multiple of {step}",
    "contract_multiple": "a contract must be a multiple of {step}",
    "bid_max": "a bid cannot be higher than {max}",
    "contract_max": "a contract cannot be higher than {max}",
    "lowest_bid": "the lowest bid is {bid}",
    "bid_higher": "a bid must be higher than the current bid ({bid})",
    "contract_low": "the contract cannot be lower than the winning bid ({bid})",
    "no_seat": "there is no seat {seat}",
    "give_self": "you give your cards to the other three players, not to yourself",
    "given_already": "you have already given a card to seat {seat}",
    "call_trumps": "you can only call trumps when leading a king or queen of a marriage you hold",
    "must_play_trump": "you must play a trump ({suit})",
}

#: Each reason's parameter names, in the order its template shows them.
PARAMS: dict[str, tuple[str, ...]] = {
    reason: tuple(field for _, field, _, _ in string.Formatter().parse(template) if field)
    for reason, template in REASONS.items()
}


def english(reason: str, params: dict) -> str:
    """The English sentence of a refusal: its template filled with ``params``."""
    shown = {name: SUIT_NAMES[value] if name == "suit" else value
             for name, value in params.items()}
    return REASONS[reason].format(**shown)


class EngineError(Exception):
    """Base of everything the engine refuses: ``reason`` (an id of :data:`REASONS`),
    ``params`` (a dict of the reason's parameters) and ``message`` (the English sentence, also
    ``str(error)``)."""

    def __init__(self, reason: str, **params):
        # A reason outside the registry, or other parameters than its template's, is a bug in
        # the engine: it fails here, whatever was refused.
        if reason not in REASONS:
            raise ValueError(f"unknown refusal reason {reason!r}")
        if set(params) != set(PARAMS[reason]):
            raise TypeError(f"{reason} takes the parameters {PARAMS[reason]}, not "
                            f"{tuple(params)}")
        self.reason = reason
        self.params = params
        self.message = english(reason, params)
        super().__init__(self.message)


class MalformedAction(EngineError):
    """The action is not of the schema of record.md (unknown type, missing or extra field)."""


class NotYourTurn(EngineError):
    """The seat has nothing to do now."""


class IllegalAction(EngineError):
    """Well-formed and in turn, but the rules forbid it (a card not in hand, a revoke, ...)."""


class BadDeal(EngineError):
    """A pack, kitty or dealer that cannot start a deal."""


class BadOptions(EngineError):
    """Unknown option, or a value the option does not take."""
