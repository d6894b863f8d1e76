"""The wire protocol's own rules (app/protocol.py): what a client may send, what a refusal
carries, and that every reason a person can be refused for reads in Russian and English."""

from __future__ import annotations

import json
import string

import pytest

from app import protocol
from app.protocol import Act, Chat, Hello, Refusal, Standin
from app.web.i18n import LANGUAGES, strings
from engine import EngineError, new_match
from engine.errors import REASONS as ENGINE_REASONS


def placeholders(template: str) -> set[str]:
    return {field.split("!")[0] for _, field, _, _ in string.Formatter().parse(template)
            if field}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_reads_in_each_language_with_its_params(lang):
    """The pages say a refusal with ``reason.<id>`` from the catalogue: each of the engine's
    and the server's reasons has its text, naming exactly the reason's params."""
    catalogue = strings(lang)
    reasons = {**ENGINE_REASONS, **protocol.REASONS}
    assert len(reasons) == len(ENGINE_REASONS) + len(protocol.REASONS)  # no id in both
    for reason, english in reasons.items():
        text = catalogue.get("reason." + reason)
        assert text, f"{lang}: no text for reason {reason!r}"
        assert placeholders(text) == placeholders(english), (lang, reason, text)


def test_messages_parse_into_their_types_and_keep_leniency_where_the_protocol_has_it():
    assert protocol.parse({"type": "hello", "token": "t", "since": 4}) == \
        Hello(type="hello", token="t", since=4)
    # a since that is no event number asks for no missed events; a token that is no string
    # is no seat's (the hello goes on as a spectator's)
    assert protocol.parse({"type": "hello", "since": "4", "token": 5}) == \
        Hello(type="hello", token="", since=None)
    assert protocol.parse({"type": "hello", "since": True}).since is None
    act = protocol.parse({"type": "action", "id": "a1", "action": {"type": "play"}})
    assert act == Act(type="action", id="a1", action={"type": "play"})
    assert protocol.parse({"type": "chat", "text": "hi"}) == Chat(type="chat", text="hi")
    assert protocol.parse({"type": "standin", "seat": 2}) == \
        Standin(type="standin", seat=2, bot=None)


@pytest.mark.parametrize("message, code, reason", [
    ({"type": "dance"}, "unknown_type", "unknown_type"),
    ({"type": ["action"]}, "unknown_type", "unknown_type"),
    ({}, "unknown_type", "unknown_type"),
    ({"type": "action", "id": "a"}, "bad_field", "no_action"),
    ({"type": "action", "id": 7, "action": {}}, "bad_field", "bad_id"),
    ({"type": "action", "id": "x" * 65, "action": {}}, "bad_field", "bad_id"),
    ({"type": "chat", "text": ["hi"]}, "bad_field", "chat_not_text"),
    ({"type": "standin", "seat": "1"}, "bad_field", "no_such_seat"),
    ({"type": "standin", "seat": True}, "bad_field", "no_such_seat"),
    ({"type": "standin", "seat": 1, "bot": 3}, "bad_field", "bad_field"),
])
def test_a_message_that_is_not_what_its_type_says_is_refused_with_a_reason(message, code,
                                                                           reason):
    with pytest.raises(Refusal) as refused:
        protocol.parse(message)
    assert (refused.value.code, refused.value.reason) == (code, reason)
    assert refused.value.message == protocol.REASONS[reason].format(**refused.value.params)


@pytest.mark.parametrize("message, params", [
    ({"type": "dance"}, {"type": "dance"}),
    ({}, {"type": "None"}),
    ({"type": "d" * 100}, {"type": "d" * 40}),
    ({"type": "standin", "seat": "1"}, {"seat": "'1'"}),
    ({"type": "standin", "seat": "s" * 100}, {"seat": repr("s" * 100)[:20]}),
    ({"type": "standin", "seat": 1, "bot": 3}, {"field": "bot"}),
])
def test_a_refusal_names_what_was_sent_cut_short(message, params):
    """The person reads which type, seat or field was wrong; a long value sent is not echoed
    back whole (40 characters of a type, 20 of a seat)."""
    with pytest.raises(Refusal) as refused:
        protocol.parse(message)
    assert refused.value.params == params
    assert str(refused.value) == refused.value.message  # what a log or a traceback shows


def test_an_engine_refusal_keeps_its_reason_and_params_under_its_protocol_code():
    match = new_match("black_maria", {"target": 1})
    match.start_deal(list(match.game.pack.cards), dealer=0)
    refusals = {}
    for action in ({"type": "fly"}, {"type": "play", "card": "AS"}):
        try:
            match.apply(1, action)
        except Exception as error:  # noqa: BLE001 - the engine's typed refusal
            refusals[action["type"]] = Refusal.of_engine(error)
    try:
        match.apply(1, {"type": "pass", "cards": ["AS", "KS"]})
    except Exception as error:  # noqa: BLE001
        refusals["pass"] = Refusal.of_engine(error)
    assert refusals["fly"].code == "malformed" and refusals["fly"].reason == "unknown_action"
    assert refusals["play"].code == "illegal" and refusals["play"].reason == "pass_first"
    assert (refusals["pass"].reason, refusals["pass"].params) == ("pass_exactly", {"count": 3})
    frame = protocol.error(refusals["pass"], "id-1")
    assert frame == {"type": "error", "code": "illegal", "reason": "pass_exactly",
                     "params": {"count": 3}, "message": "you must pass exactly 3 cards",
                     "id": "id-1"}
    json.dumps(frame)  # JSON-ready as it is


def test_each_kind_of_engine_refusal_has_its_protocol_code_and_status():
    """What a page says and which HTTP status a REST call gets follow the code: a move out of
    turn is not_your_turn (409), options or a pack the engine cannot use are bad_field (422)."""
    refusals = {}
    match = new_match("marjolet", {})
    match.start_deal(list(match.game.pack.cards), dealer=0)
    waiting = 1 - match.current.leader
    attempts = {
        "out of turn": lambda: match.apply(waiting, {"type": "play",
                                                     "card": match.current.hands[waiting][0]}),
        "options": lambda: new_match("marjolet", {"dance": 1}),
        "pack": lambda: new_match("marjolet", {}).start_deal(
            list(match.game.pack.cards)[:-1], dealer=0),
    }
    for what, attempt in attempts.items():
        with pytest.raises(EngineError) as refused:
            attempt()
        refusals[what] = Refusal.of_engine(refused.value)
    assert [(r.code, r.reason, r.http_status) for r in refusals.values()] == [
        ("not_your_turn", "not_your_turn", 409), ("bad_field", "unknown_option", 422),
        ("bad_field", "bad_pack", 422)]
    # raised on, or logged, it reads as its message, as any refusal does
    assert [str(r) for r in refusals.values()] == [r.message for r in refusals.values()]
    assert refusals["options"].message == "marjolet has no option 'dance'"


def test_refusals_map_to_http_statuses():
    assert Refusal("no_room", "no_room", code="X").http_status == 404
    assert Refusal("not_available", "seat_taken", seat=0).http_status == 409
    assert Refusal("storage", "storage_refused").http_status == 503
    body = Refusal("not_available", "seat_taken", seat=0).body()
    assert body == {"detail": "seat 0 is taken", "code": "not_available",
                    "reason": "seat_taken", "params": {"seat": 0}}


def test_the_protocol_document_names_every_error_code_and_message_type():
    """docs/protocol.md is written from this module: nothing here goes undocumented."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    for code in protocol.HTTP_STATUS:
        assert f"`{code}`" in doc, code
    for kind in protocol.TYPES | {"welcome", "event", "ack", "error", "presence", "pong"}:
        assert f"| `{kind}` |" in doc, kind


@pytest.mark.parametrize("name", ["Ana\u202eanA", "Boris\u200f", "\u2066Vera", "Gleb\x00",
                                  "Dasha\x1b[31m", "Egor\u061c", "line\nbreak",
                                  # what shows as nothing: "P1" had posed as "P1"
                                  "P1\u200b", "\u200b\u200b", "\u3164", "Ve\u00adra",
                                  "\ufeffZoe", "a\u2060b", "a\u2028b", "\U000e0041",
                                  # joiners, selectors and tags out of their place
                                  "P\u200d1", "P\u200c1", "P\ufe0f1", "P\U000e0041 1", "A\u200dB",
                                  "Y" + "\u0336\u0337\u0338" * 5,  # marks spilling over
                                  # a grapheme joiner, drawn as nothing after a letter; a
                                  # private-use or lone surrogate code point
                                  "Anna\u034f", "An\u034fna", "Anna\ue000", "\ud800Anna"])
def test_a_name_with_control_invisible_or_text_direction_characters_is_refused(name):
    with pytest.raises(Refusal) as refused:
        protocol.person_name(name)
    assert (refused.value.code, refused.value.reason) == ("bad_field", "bad_name")


@pytest.mark.parametrize("name", ["  ", "\u2800", "\u0301"])
def test_a_name_of_which_nothing_shows_is_no_name(name):
    with pytest.raises(Refusal) as refused:
        protocol.person_name(name)
    assert refused.value.reason == "need_name"


@pytest.mark.parametrize("name", ["\U0001F468\u200d\U0001F469\u200d\U0001F467 family",
                                  "\u2764\ufe0f Vera", "Ti\u1ebfn", "\u0928\u092e\u0938\u094d\u0924\u0947",
                                  "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
                                  "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F",
                                  "\u2764\ufe0f\u200d\U0001F525 Vera", "1\ufe0f\u20e3 one",
                                  "\u0915\u094d\u200d\u0937", "\u1820\u180b\u1820",
                                  "\u6f22\U000e0100\u5b57"])
def test_emoji_sequences_and_the_marks_and_joiners_of_scripts_stay_in_a_name(name):
    assert protocol.person_name(name) == name


def test_a_names_spaces_are_plain_and_single():
    """A hair space had made "Zorr o" another person than "Zorro", a blank braille pattern
    "Anna⠀" than "Anna": both read the same."""
    assert protocol.person_name("Zorr\u200ao") == "Zorr o"
    assert protocol.person_name("Anna\u2800") == "Anna"
    assert protocol.person_name("Anna\u00a0\u3000 Maria") == "Anna Maria"
    # (a code point kept for emoji to come is no unassigned box: a newer phone draws it)
    assert protocol.person_name("Vera \U0001FA5C") == "Vera \U0001FA5C"


@pytest.mark.parametrize("name", ["Bot 2", "bot 3", "Бот 4", "БОТ1", "\uff22\uff4f\uff54 2",
                                  "ВОТ 2", "\u0392\u039f\u03a4 2", "B0t 2",  # (look-alikes)
                                  "Strong bot", "Сильный бот", "Bot", "бот"])
def test_a_name_that_reads_as_a_bots_is_refused(name):
    with pytest.raises(Refusal) as refused:
        protocol.person_name(name)
    assert refused.value.reason == "name_like_a_bot"
    assert protocol.person_name("Mr " + name) == "Mr " + name  # (one that only holds one)


def test_a_name_is_normalised_and_its_length_counted_in_characters_a_person_sees():
    assert protocol.person_name("  Zoe\u0301 ") == "Zo\u00e9"  # NFC: one code point
    flags = "\U0001F1EB\U0001F1F7" * protocol.NAME_MAX  # 32 flags, 64 code points
    assert protocol.person_name(flags) == flags
    accented = "e\u0301\u0302\u0303" * protocol.NAME_MAX  # 32 letters seen, 96 code points
    for too_long in (flags + "A", "x" * (protocol.NAME_MAX + 1), accented):
        with pytest.raises(Refusal) as refused:
            protocol.person_name(too_long)
        assert refused.value.reason == "name_too_long"
        assert refused.value.params == {"count": protocol.NAME_MAX}  # the page says the most


def test_a_chat_line_loses_control_and_text_direction_characters_but_its_line_breaks():
    assert protocol.chat_line(" hi\u202e there\u2066\x1b\x00\n\tbye\u200f ", 300) == \
        "hi there\n\tbye"
    assert protocol.chat_line("Zoe\u0301", 3) == "Zo\u00e9"
    assert protocol.chat_line("hi\u200b there", 300) == "hi there"  # (zero-width: nothing)
    assert protocol.chat_line("Y" + "\u0336" * 30, 300) == "Y" + "\u0336" * 4  # no spill
    for text, reason, params in [("\u202e\x00 ", "chat_empty", {}), ("\u200b", "chat_empty", {}),
                                 ("\u2800\n\u3164", "chat_empty", {}),
                                 ("\U0001F1EB\U0001F1F7" * 4, "chat_too_long", {"count": 3}),
                                 (["text"], "chat_not_text", {})]:
        with pytest.raises(Refusal) as refused:
            protocol.chat_line(text, 3 if reason == "chat_too_long" else 300)  # 4 flags: long
        assert (refused.value.code, refused.value.reason, refused.value.params) == \
            ("bad_field", reason, params)


def test_a_limit_reached_is_refused_with_429_and_when_to_try_again():
    limited = protocol.Limited("limit_chat", 7)
    assert (limited.code, limited.reason, limited.http_status) == ("rate_limited", "limit_chat",
                                                                     429)
    assert limited.retry_after == 7 and limited.params == {"seconds": 7}
    assert str(limited) == limited.message == "too many messages in the chat; try again in 7 s"
    assert protocol.Limited("limit_room_sockets", 2, count=5).params == {"seconds": 2,
                                                                         "count": 5}
