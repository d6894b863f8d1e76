"""Actions as in record.md: JSON objects, checked against a per-game schema.

A :class:`Schema` maps each action type to its fields:
``Schema({"play": {"card": CARD, "trump": OPTIONAL_FLAG}})``. ``parse`` returns the action's
normal form (optional flags that are false dropped, so that two spellings of the same action
compare equal) as an :class:`Action`.
"""

from __future__ import annotations

from .cards import ALL_RANKS, SUITS
from .errors import MalformedAction


class Action(dict):
    """An action in normal form: a dict (JSON as it is) whose fields cannot be changed.

    ``Deal.apply`` takes an Action as it is, without checking its form again: only the engine
    builds Actions, from checked parts (``Schema.parse``, the bots' choices among ``moves``).
    That saves the bots a parse of every action they choose, which is most of self-play.
    Being read-only, one Action can be shared (:data:`PLAY`) and kept in a record safely.
    """

    __slots__ = ()

    def _read_only(self, *args, **kwargs):
        raise TypeError("an Action is read-only")

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self):
        return Action, (dict(self),)


#: ``PLAY[card]``: the one Action that plays ``card`` without calling trumps.
PLAY = {r + s: Action(type="play", card=r + s) for s in SUITS for r in ALL_RANKS}


def _card(value) -> str:
    if type(value) is str and len(value) == 2:
        return value
    raise MalformedAction("not_a_card", value=value)


def _cards(value) -> list[str]:
    if not isinstance(value, list) or not value:
        raise MalformedAction("not_a_card_list")
    cards = list(map(_card, value))
    if len(set(cards)) != len(cards):
        raise MalformedAction("card_named_twice")
    return cards


def _integer(value) -> int:
    # bool is an int in Python; a JSON true is not a number.
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise MalformedAction("not_a_number", value=value)


def _flag(value) -> bool:
    if isinstance(value, bool):
        return value
    raise MalformedAction("not_a_flag", value=value)


CARD, CARDS, INTEGER = _card, _cards, _integer
OPTIONAL_FLAG = "optional-flag"  # a bool that may be omitted; false is the same as absent


class Schema:
    """The action types of one game and their fields."""

    def __init__(self, kinds: dict[str, dict]):
        self.kinds = kinds

    def __contains__(self, kind) -> bool:
        return kind in self.kinds

    def parse(self, action) -> Action:
        """Check ``action``; return its normal form or raise MalformedAction."""
        normal = parse(self.kinds, action)
        if len(normal) == 2 and normal["type"] == "play":  # most actions: one shared object
            return PLAY.get(normal["card"]) or Action(normal)
        return Action(normal)


def parse(schema: dict[str, dict], action) -> dict:
    """Check ``action`` against ``schema``; return its normal form or raise MalformedAction."""
    if not isinstance(action, dict):
        raise MalformedAction("action_not_object")
    kind = action.get("type")
    fields = schema.get(kind) if type(kind) is str else None
    if fields is None:
        raise MalformedAction("unknown_action", value=kind)
    parsed = {"type": kind}
    present = 1
    for name, check in fields.items():
        value = action.get(name, _ABSENT)
        if value is _ABSENT:
            if check is not OPTIONAL_FLAG:
                raise MalformedAction("missing_field", type=kind, field=name)
            continue
        present += 1
        if check is CARD and type(value) is str and len(value) == 2:
            parsed[name] = value  # the common case, without a call
        elif check is OPTIONAL_FLAG:
            if _flag(value):
                parsed[name] = True
        else:
            parsed[name] = check(value)
    if present != len(action):
        extra = sorted(set(action) - set(fields) - {"type"})
        raise MalformedAction("extra_field", type=kind, field=extra[0])
    return parsed


_ABSENT = object()


def describe(action: dict) -> str:
    """``play QS``, ``pass AS KS QH``, ``bid 75``, ``give 7C to 2``: the action in a few words."""
    words = [str(action.get("type", "?"))]
    if "card" in action:
        words.append(str(action["card"]))
    if isinstance(action.get("cards"), list):
        words.extend(str(c) for c in action["cards"])
    if "value" in action:
        words.append(str(action["value"]))
    if "to" in action:
        words.append(f"to {action['to']}")
    if action.get("trump") is True:
        words.append("trumps")
    return " ".join(words)
