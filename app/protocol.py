"""The wire protocol in one place (docs/protocol.md is written from it): the messages a client
may send, as typed models; the frames the server sends; and every refusal, with its error
code, its HTTP status and its reason.

A refusal carries a ``code`` (what kind of refusal, stable since the first protocol), a
``reason`` id with ``params`` (what exactly, for the page to say in the reader's language:
``reason.<id>`` in app/web/locales) and an English ``message`` for logs and scripts. The
engine's refusals bring their own reason ids (:data:`engine.errors.REASONS`); the server's
are in :data:`REASONS`."""

from __future__ import annotations

import math
import unicodedata
import zlib
from typing import Annotated, Any, Literal

import orjson
import regex
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from engine import BadDeal, BadOptions, EngineError, MalformedAction, NotYourTurn

# -- refusals -------------------------------------------------------------------------------

#: HTTP status of each error code, where the REST side gives it (the socket's are the same
#: codes in an ``error`` frame).
HTTP_STATUS = {
    "bad_json": 400, "too_large": 413, "unknown_type": 400, "bad_field": 422,
    "hello_first": 400, "bad_token": 403, "not_seated": 403, "malformed": 422,
    "not_your_turn": 409, "illegal": 409, "rate_limited": 429, "not_available": 409,
    "storage": 503, "conflict": 409, "no_room": 404, "no_match": 404, "no_player": 404,
    "running": 409, "name_claimed": 409, "bad_player_key": 403,
}

#: The server's own refusal reasons: id -> the English sentence, ``{param}`` filled in.
REASONS = {
    # the socket
    "not_text": "messages are JSON text",
    "not_json": "not JSON",
    "not_object": "a message is a JSON object",
    "too_large": "a message may hold at most {count} bytes",
    "body_too_large": "a request's body may hold at most {count} bytes",
    "rate_limited": "too many messages; slow down",
    "sync_too_often": "the whole state was asked for too often; slow down",
    "unknown_type": "unknown message type {type!r}",
    "hello_twice": "hello was already said",
    "hello_first": "say hello first",
    "hello_late": "no hello within {seconds} s of connecting",
    "bad_field": "the field {field!r} is missing or of the wrong type",
    "bad_id": "id must be a string of at most 64 characters",
    "no_action": "an action message needs an action",
    "no_room": "there is no room {code!r}",
    # seats
    "bad_token": "this seat token is not valid for this room; you are watching as a "
                 "spectator",
    "spectators_act": "spectators cannot act",
    "spectators_chat": "spectators cannot chat",
    "only_seated_standin": "only seated players may hand a seat to a bot",
    "only_seated_rematch": "only seated players may start a rematch",
    "only_seated_leave": "only a seated player may leave a seat",
    "leave_in_play": "a seat may be left once the match is over (a bot may play it meanwhile)",
    "no_such_seat": "there is no seat {seat}",
    "seat_taken": "seat {seat} is taken",
    "all_seats_taken": "every seat is taken",
    "take_over_between_deals": "seat {seat} is played by a bot for someone away: it may be "
                               "taken once this deal ends",
    "seat_busy": "seat {seat} is played by someone who is here (or a bot)",
    "away_briefly": "{name} has only just gone: a bot may play for them in {seconds} s",
    "standin_not_random": "{name} is away: only the rules bot or the strong one may play for them, not the random one",
    "already_seated": "{name} already sits at this table (seat {seat}): one seat each",
    "no_bot_kind": "no bot kind {bot!r} (rules, random or strong)",
    "need_name": "a name is needed",
    "name_too_long": "a name has at most {count} characters",
    "bad_name": "a name cannot hold invisible, control or text-direction characters, nor "
                "marks piled on a letter",
    "name_mixes_alphabets": "a word of a name keeps to one alphabet: Latin, Cyrillic and Greek "
                            "letters look alike",
    "name_like_a_bot": "a name cannot read as a bot's: a table calls its bots \"Bot 2\", \"Bot 3\"",
    "name_claimed": "the name {name!r} is taken; choose another, e.g. {suggestion!r}",
    "bad_player_key": "this player key is not known here; it changes nothing",
    "no_player_key": "this needs your player key (the X-Player-Key header)",
    # the match
    "not_started": "the match has not started: seats are free",
    "match_not_over": "the match is not over",
    "only_seated_next": "only seated players say they are ready for the next deal",
    "no_deal_to_close": "no deal is waiting for the next one",
    "chat_not_text": "text must be a string",
    "chat_empty": "the message is empty",
    "chat_too_long": "at most {count} characters",
    # storage
    "acted_first": "someone acted first; the table was refreshed, try again",
    "storage_refused": "the database refused the change; nothing was applied, try again",
    "storage_unreachable": "the database is unreachable; nothing was applied, try again",
    # the REST side
    "room_not_stored": "the room could not be stored; try again",
    "seat_spec": 'a seat is "open", "bot:rules", "bot:random" or "bot:strong", not {spec!r}',
    "think_time": "the strong bot thinks from {min} to {max} seconds a move",
    "think_time_timer": "the strong bot may not think longer than the turn timer ({timer} s)",
    "seat_count": "{game} has {count} seats",
    "target_too_high": "a match of {game} is played to {count} at most",
    # limits (docs/security.md#limits)
    "limit_rooms": "too many rooms were created from your address; try again in {seconds} s",
    "limit_joins": "too many seats were taken from your address; try again in {seconds} s",
    "limit_names": "too many names were claimed or changed from your address; try again in "
                   "{seconds} s",
    "limit_analyses": "too many analyses were asked for from your address; try again in "
                      "{seconds} s",
    "limit_sockets": "too many connections were opened from your address; try again in "
                     "{seconds} s",
    "limit_open_sockets": "{count} connections are open from your address already, the most "
                          "there may be",
    "limit_room_sockets": "{count} connections are open to this table already, the most there "
                          "may be",
    "limit_chat": "too many messages in the chat; try again in {seconds} s",
    "bot_tables": "{count} tables of bots alone are playing already, the most this server "
                  "runs; try again later",
    "no_match": "no match {id}",
    "no_player": "no player {name!r}",
    "running": "the match is still running: its record, replay and pack order are available "
               "once it is finished",
}


def _json_safe(params: dict) -> dict:
    """The params as JSON holds them: a number that is not finite (an option typed as 1e400),
    which JSON cannot hold, as its text ("inf")."""
    return {name: str(value) if isinstance(value, float) and not math.isfinite(value) else value
            for name, value in params.items()}


class Refusal(Exception):
    """A refusal for the one who asked (nothing changed): see the module's docstring."""

    def __init__(self, code: str, reason: str, /, **params):
        self.code, self.reason, self.params = code, reason, _json_safe(params)
        self.message = REASONS[reason].format(**params)
        super().__init__(self.message)

    @classmethod
    def of_engine(cls, error: EngineError) -> "Refusal":
        """The engine's refusal as the protocol tells it: its own reason id and params."""
        refusal = cls.__new__(cls)
        Exception.__init__(refusal, error.message)
        refusal.code = ("malformed" if isinstance(error, MalformedAction) else
                        "not_your_turn" if isinstance(error, NotYourTurn) else
                        "bad_field" if isinstance(error, (BadOptions, BadDeal)) else "illegal")
        refusal.reason, refusal.params = error.reason, _json_safe(error.params)
        refusal.message = error.message
        return refusal

    @property
    def http_status(self) -> int:
        return HTTP_STATUS.get(self.code, 400)

    def body(self) -> dict:
        """The REST error body: ``detail`` is the English message, as FastAPI's own errors."""
        return {"detail": self.message, "code": self.code, "reason": self.reason,
                "params": self.params}


class Limited(Refusal):
    """Over a limit: ``rate_limited`` (429), and after how many seconds it is worth trying
    again (``Retry-After``; ``seconds`` in the params)."""

    def __init__(self, reason: str, retry_after: int, **params):
        super().__init__("rate_limited", reason, seconds=retry_after, **params)
        self.retry_after = retry_after


# -- names people type ------------------------------------------------------------------------

#: Longest name a person may take, in characters a person sees (grapheme clusters: an accented
#: letter or a flag is one), and in code points (what the database's columns count).
NAME_MAX = 32
NAME_CODE_POINTS = 64
#: Characters that change how text around them reads (left-to-right and right-to-left marks,
#: embeddings, overrides and isolates): one name could pose as another.
_TEXT_DIRECTION = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
#: What shows as nothing: controls, line and paragraph separators, and the characters a font
#: draws as nothing (zero-width space, soft hyphen, fillers, joiners, selectors...). "P1" and
#: "P1" with a zero-width space had been two names that read as one.
_UNSEEN = f"[\\p{{Cc}}\\p{{Zl}}\\p{{Zp}}\\p{{Default_Ignorable_Code_Point}}{_TEXT_DIRECTION}]"
#: The scripts whose words take a joiner or a non-joiner between their letters.
_JOINING = (r"\p{sc=Arab}\p{sc=Syrc}\p{sc=Deva}\p{sc=Beng}\p{sc=Guru}\p{sc=Gujr}\p{sc=Orya}"
            r"\p{sc=Taml}\p{sc=Telu}\p{sc=Knda}\p{sc=Mlym}\p{sc=Sinh}")
#: Of those, the ones in the place where they do show something: the joiner of an emoji
#: sequence (a family), the joiners of the scripts above, a variation selector after an emoji
#: (❤️) or an ideograph, Mongolian's variation selectors, a subdivision flag's tags. Anywhere
#: else they would make another name of one that reads the same.
_IN_PLACE = (
    r"(?<=\p{Extended_Pictographic}[\U0001f3fb-\U0001f3ff\ufe0f]?)\u200d"
    r"(?=\p{Extended_Pictographic})"
    rf"|(?<=[{_JOINING}]\p{{M}}*)[\u200c\u200d](?=[{_JOINING}])"
    r"|(?<=\p{Emoji})[\ufe0e\ufe0f]"
    r"|(?<=\p{Ideographic})[\ufe00-\ufe0f\U000e0100-\U000e01ef]"
    r"|(?<=\p{sc=Mong})[\u180b-\u180f]"
    r"|(?<=\U0001f3f4[\U000e0020-\U000e007e]*)[\U000e0020-\U000e007f]")
#: An unseen character, as group 1 where it is in its place. A name takes no grapheme joiner
#: (it draws nothing after a letter: "Anna" and "Anna" with one had been two people), nor a
#: private-use, unassigned or lone surrogate code point (a box, or nothing, by the font), but
#: for those kept for emoji to come.
_UNSEEN_IN_NAME = regex.compile(
    f"({_IN_PLACE})|{_UNSEEN}|[\\p{{Co}}\\p{{Cs}}[\\p{{Cn}}--\\p{{Extended_Pictographic}}]]", regex.V1)
#: In a chat line, line breaks and tabs are kept, and the grapheme joiner after a letter.
_UNSEEN_IN_CHAT = regex.compile(f"({_IN_PLACE}|(?<=[\\p{{L}}\\p{{M}}])\\u034f)|[{_UNSEEN}--[\\t\\n]]",
                                regex.V1)
#: Spaces of every width, and the braille pattern without dots, which reads as one: a name's
#: are plain spaces, one between words ("Zorr o" with a hair space had posed as "Zorro").
_SPACES = regex.compile(r"[\p{Zs}\u2800]+")
#: What a table calls its bots, in either language (``bot_name``, the pages' "bot.name"), and
#: its look-alikes in other alphabets ("ВОТ 2", "ΒΟΤ 2") or with a zero for its o; what the
#: pages call the strong one, and "Bot" alone (a person called "Strong bot" had read as a bot
#: in the history's list of players).
_BOT_NAME = regex.compile(r"((strong|сильный) ?)?([bвβ][oо0ο][tтτ]|бот)( ?\d+)?")
#: A character that shows something: not a space, a mark on another, nor blank (the braille
#: pattern without dots).
_SEEN = regex.compile(r"[^\p{Z}\p{M}\p{Default_Ignorable_Code_Point}\s\u2800]")
#: Marks piled on one letter past what a script needs (Vietnamese takes two, Devanagari three):
#: they spill over the lines around it.
_PILED = regex.compile(r"\p{M}{5,}")
#: Alphabets whose letters look alike (Latin a, Cyrillic а, Greek α): a word mixing them is how
#: one name poses as another ("victіm" with a Cyrillic і). As UTS #39's "highly restrictive"
#: level, which browsers apply to a domain's labels, a word keeps to one of them.
_ALPHABETS = [regex.compile(rf"\p{{sc={script}}}") for script in ("Latn", "Cyrl", "Grek")]


def visible_length(text: str) -> int:
    """How many characters a person sees in ``text``."""
    return len(regex.findall(r"\X", text))


def person_name(value: str) -> str:
    """A name as people see it: NFC, its spaces plain and single, none around it; Refusal if
    nothing of it shows, if it is too long, holds characters that show as nothing, change the
    direction of the text, or marks piled on a letter, or reads as a bot's."""
    name = _SPACES.sub(" ", unicodedata.normalize("NFC", value)).strip()
    if any(not found[1] for found in _UNSEEN_IN_NAME.finditer(name)) or _PILED.search(name):
        raise Refusal("bad_field", "bad_name")
    if not _SEEN.search(name):
        raise Refusal("bad_field", "need_name")
    if visible_length(name) > NAME_MAX or len(name) > NAME_CODE_POINTS:
        raise Refusal("bad_field", "name_too_long", count=NAME_MAX)
    if any(sum(bool(alphabet.search(word)) for alphabet in _ALPHABETS) > 1
           for word in name.split()):
        raise Refusal("bad_field", "name_mixes_alphabets")
    if _BOT_NAME.fullmatch(name_key(name)):
        raise Refusal("bad_field", "name_like_a_bot")
    return name


def name_key(name: str) -> str:
    """What names that read alike share, one name's alone among the players: case, width and
    compatibility forms folded (NFKC_Casefold: "Anna", "anna" and the full-width "Ａｎｎａ"),
    a run of spaces as one (a page shows it so)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def chat_line(text, max_length: int) -> str:
    """A chat line as it is kept: NFC, without what shows as nothing (but line breaks and tabs),
    text-direction characters, marks piled past four on a letter or surrounding spaces;
    Refusal if it is not text, shows nothing or is too long."""
    if not isinstance(text, str):
        raise Refusal("bad_field", "chat_not_text")
    text = _UNSEEN_IN_CHAT.sub(lambda found: found[1] or "", unicodedata.normalize("NFC", text))
    text = _PILED.sub(lambda piled: piled[0][:4], text).strip()
    if not _SEEN.search(text):
        raise Refusal("bad_field", "chat_empty")
    if visible_length(text) > max_length:
        raise Refusal("bad_field", "chat_too_long", count=max_length)
    return text


# -- client -> server -----------------------------------------------------------------------

def _str_or_nothing(value):
    """A token that is not a string is no seat's token (the hello goes on as a spectator's)."""
    return value if value is None or isinstance(value, str) else ""


def _event_number_or_nothing(value):
    """A ``since`` that is not an event number asks for no missed events."""
    return value if type(value) is int else None


class _Message(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


class Hello(_Message):
    type: Literal["hello"]
    token: Annotated[str | None, BeforeValidator(_str_or_nothing)] = None
    #: a player key: the player's seats are theirs on any device
    player: Annotated[str | None, BeforeValidator(_str_or_nothing)] = None
    since: Annotated[int | None, BeforeValidator(_event_number_or_nothing)] = None


class Act(_Message):
    type: Literal["action"]
    id: str | None = Field(None, max_length=64)
    action: Any  # the engine reads it (a malformed action is its refusal)


class Chat(_Message):
    type: Literal["chat"]
    #: the client's own id for the line: its event, on the connection that sent it, carries it
    id: str | None = Field(None, max_length=64)
    text: str


class Standin(_Message):
    type: Literal["standin"]
    seat: int
    bot: str | None = None


class Rematch(_Message):
    type: Literal["rematch"]


class Leave(_Message):
    """Give up one's seat while no match is in play (before the first, or once it is over)."""

    type: Literal["leave"]


class Next(_Message):
    """Ready for the next deal (its summary read). ``deal``: the deal whose summary was read,
    if the client says (one sent as the next deal was dealt then changes nothing)."""

    type: Literal["next"]
    deal: int | None = None


class Wait(_Message):
    """Still reading the deal's summary: no countdown to the next deal, which comes once every
    person at the table has asked for it (``deal``: as for :class:`Next`)."""

    type: Literal["wait"]
    deal: int | None = None


class Ping(_Message):
    type: Literal["ping"]


class Sync(_Message):
    """The client's state went wrong (an event missing, or a checksum that does not match):
    send the whole state again."""

    type: Literal["sync"]


Message = Annotated[Hello | Act | Chat | Standin | Rematch | Leave | Next | Wait | Ping | Sync,
                    Field(discriminator="type")]
_MESSAGE = TypeAdapter(Message)
TYPES = {"hello", "action", "chat", "standin", "rematch", "leave", "next", "wait", "ping",
         "sync"}
#: The refusal for a field of the wrong type or missing, by message type and field.
_FIELD_REASONS = {("action", "id"): "bad_id", ("action", "action"): "no_action",
                  ("chat", "id"): "bad_id", ("chat", "text"): "chat_not_text",
                  ("standin", "seat"): "no_such_seat"}


def parse(data: dict) -> Hello | Act | Chat | Standin | Rematch | Leave | Next | Wait | Ping | Sync:
    """A decoded JSON object as the message it is; Refusal if it is not one."""
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in TYPES:
        raise Refusal("unknown_type", "unknown_type", type=str(kind)[:40])
    try:
        return _MESSAGE.validate_python(data)
    except ValidationError as error:
        field = str(error.errors()[0]["loc"][1]) if len(error.errors()[0]["loc"]) > 1 else "?"
        reason = _FIELD_REASONS.get((kind, field))
        if reason == "no_such_seat":
            raise Refusal("bad_field", reason, seat=repr(data.get("seat"))[:20]) from None
        if reason is not None:
            raise Refusal("bad_field", reason) from None
        raise Refusal("bad_field", "bad_field", field=field) from None


# -- the shapes both sides show (REST responses; ROOM and SEAT are in every STATE too) ----------

class Seat(BaseModel):
    """SEAT: ``kind`` human with ``standin`` true is a person away, played by a bot meanwhile;
    ``team`` is set in Big Mariage (seats 0+2 team 0, 1+3 team 1)."""

    seat: int
    name: str | None
    kind: Literal["open", "human", "bot"]
    bot: str | None
    standin: bool
    connected: bool
    team: int | None


class MatchRef(BaseModel):
    id: int
    number: int


class RoomInfo(BaseModel):
    """ROOM: ``turn_left`` is the seconds left to ``turn_seat``, whose turn timer runs; while
    a deal's summary is on the table, ``ready`` holds the seats that asked for the next deal
    (once the match is over, for a rematch), ``waiting`` those that asked for time to read it
    (``wait``), and ``deal_left`` the seconds until it comes anyway; ``think_time``, the seconds a strong bot thinks per decision (null: the server's
    default)."""

    code: str
    game: str
    options: dict
    seats: list[Seat]
    status: Literal["waiting", "playing", "finished"]
    match: MatchRef | None
    turn_timer: float | None
    think_time: float | None
    turn_left: float | None
    turn_seat: int | None
    ready: list[int]
    waiting: list[int]
    deal_left: float | None
    created: str
    to_act: list[int] | None = Field(None, description="the seats whose move it is (the REST "
                                     "side's ROOM only: the socket's STATE says it in the match)")


class MatchPlayer(BaseModel):
    """A match's seat: a person by the name they have now (``guest``: no player key holds
    it), a bot by its seat's name and ``bot`` kind."""

    seat: int
    name: str
    bot: str | None
    guest: bool


class MatchSummary(BaseModel):
    """MATCH_SUMMARY: times in ISO 8601 UTC; ``deals``, the deals played to their end;
    ``abandoned``: running, but nothing happened in it for 12 hours."""

    id: int
    room: str
    number: int
    game: str
    options: dict
    status: Literal["running", "finished"]
    started: str | None
    ended: str | None
    players: list[MatchPlayer]
    totals: list[int]
    winners: list[int]
    deals: int
    last_activity: str | None
    abandoned: bool


class DealLine(BaseModel):
    index: int
    dealer: int
    over: bool
    scores: list[int] | None
    summary: dict | None
    actions: int
    started: str | None
    ended: str | None


class MatchDetail(MatchSummary):
    """MATCH_DETAIL: every deal's dealer, scores and summary (never a running match's pack)."""

    teams: bool
    deal_list: list[DealLine]


# -- server -> client -----------------------------------------------------------------------

#: ``event()``'s ``ack`` when the event answers nobody's action (None is an action sent
#: without an id).
NO_ACK = object()


def state(room, seat: int | None, name: str | None, seq: int, view, chat) -> dict:
    """STATE: the room, who you are, the last event number, your view of the match, the chat.
    ``room`` and ``chat`` may be encoded already (orjson fragments shared by all seats)."""
    return {"room": room, "you": {"seat": seat, "name": name}, "seq": seq, "match": view,
            "chat": chat}


def event(seq: int, event: dict, changes: dict | None = None, digest: int | None = None,
          ack=NO_ACK) -> dict:
    """An event; the last of those sent together carries the ``changes`` that make the
    receiver's STATE the new one, and that STATE's ``hash`` (:func:`state_hash`)."""
    message = {"type": "event", "seq": seq, "event": event}
    if changes is not None:
        message["changes"] = changes
        message["hash"] = digest
    if ack is not NO_ACK:
        message["ack"] = ack
    return message


def welcome(seq: int, state: dict, missed: list | None, digest: int) -> dict:
    return {"type": "welcome", "seq": seq, "state": state, "hash": digest, "missed": missed}


# -- the changes an event makes to a STATE ------------------------------------------------------

def changes(old, new) -> dict:
    """What turns STATE ``old`` into ``new``, as an object shaped like the STATE: under
    ``"="`` the keys whose value is now another, under ``"+"`` the lists that only grew (the
    items added at their end), under ``"-"`` the keys gone, and under any other key the
    changes inside that object, or inside a list of objects of the same length (its indexes
    as keys). Other lists are replaced whole. ``old`` is not changed."""
    patch: dict = {}
    if type(new) is dict:
        entries = new.items()
        for key in old:
            if key not in new:
                patch.setdefault("-", []).append(key)
    else:
        entries = enumerate(new)
    for key, value in entries:
        if type(key) is int:
            before, key = old[key], str(key)
        elif key in old:
            before = old[key]
        else:
            patch.setdefault("=", {})[key] = value
            continue
        if before is value or (before == value and type(before) is type(value)):
            continue  # (1 == True, and 1 == 1.0, but not in JSON)
        kind = type(value)
        if kind is dict and type(before) is dict:
            patch[key] = changes(before, value)
        elif kind is list and type(before) is list and len(before) < len(value) \
                and value[:len(before)] == before:
            patch.setdefault("+", {})[key] = value[len(before):]
        elif kind is list and type(before) is list and len(before) == len(value) \
                and type(value[0]) is dict:
            patch[key] = changes(before, value)
        else:
            patch.setdefault("=", {})[key] = value
    return patch


def state_changes(old: dict, new: dict) -> dict:
    """The changes an event brings to a STATE: :func:`changes` but the event number, which the
    event carries itself (``seq``)."""
    patch = changes(old, new)
    set_ = patch.get("=")
    if set_ is not None:
        set_.pop("seq", None)
        if not set_:
            del patch["="]
    return patch


def follow_event(state: dict, seq: int, patch: dict) -> dict:
    """STATE after event ``seq`` and its changes ``patch`` (:func:`state_changes`)."""
    state = apply_changes(state, patch)
    state["seq"] = seq  # a copy already: the changes left out the event number
    return state


def apply_changes(state, patch: dict):
    """STATE after the changes ``patch`` (see :func:`changes`): a new object along each changed
    path, ``state`` itself untouched, as the table page does it (static/js/table/sync.js)."""
    node = state.copy()
    index = int if type(node) is list else str
    for key, inner in patch.items():
        if key == "=":
            for k, value in inner.items():
                node[index(k)] = value
        elif key == "+":
            for k, items in inner.items():
                node[index(k)] = node[index(k)] + items
        elif key == "-":
            for k in inner:
                del node[k]
        else:
            node[index(key)] = apply_changes(node[index(key)], inner)
    return node


class OutOfStep(Exception):
    """A client's STATE no longer follows the server's: an event number skipped, or changes
    that do not give the state of the hash sent. A client then sends ``sync``."""


def with_presence(state: dict, seat: int, connected: bool) -> dict:
    """STATE after a ``presence`` frame: the seat's ``connected`` (a copy, as every change)."""
    if not 0 <= seat < len(state["room"]["seats"]):
        return state
    return apply_changes(state, {"room": {"seats": {str(seat): {"=": {"connected": connected}}}}})


class Follower:
    """A client's side of STATE, as the table page keeps it: the welcome's, then each event's
    changes applied, checked against the event numbers and the hashes. Once out of step it
    raises OutOfStep, then ignores events until the next welcome (the answer to ``sync``)."""

    def __init__(self):
        self.state: dict | None = None
        self.seq: int | None = None
        self.lost = False

    def follow(self, message: dict) -> dict | None:
        """The new STATE when ``message`` brings one; OutOfStep when it does not fit."""
        kind = message.get("type")
        if kind == "welcome":
            self.lost = False
            state = message["state"]
        elif kind == "presence" and self.state is not None:
            self.state = with_presence(self.state, message["seat"], message["connected"])
            return self.state
        elif kind == "event" and self.seq is not None and not self.lost:
            if message["seq"] != self.seq + 1:
                self._lose(f"event {message['seq']} after {self.seq}")
            self.seq = message["seq"]
            if "changes" not in message:
                return None
            state = follow_event(self.state, message["seq"], message["changes"])
        else:
            return None
        if state_hash(canonical(state)) != message["hash"]:
            self._lose(f"not the state of event {message['seq']}'s hash")
        self.state, self.seq = state, message["seq"]
        return state

    def _lose(self, why: str):
        self.lost = True
        raise OutOfStep(why)


def canonical(value) -> bytes:
    """The JSON text a STATE's hash is taken of: keys sorted, no spaces; the table page writes
    it the same way (JSON.stringify, keys sorted). A STATE holds no float with a whole value
    (:func:`js_number`), which the two would write differently."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def state_hash(text: bytes) -> int:
    """The checksum of a STATE's canonical text: CRC-32, as zlib computes it."""
    return zlib.crc32(text)


def js_number(value: float | None) -> float | int | None:
    """A number as JavaScript writes it: a whole float as an integer (1.0 is "1")."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def missed_event(seq: int, event: dict) -> dict:
    return {"seq": seq, "event": event}


def duplicate(client_id: str, seq: int, action: dict | None) -> dict:
    """The answer to a retry of an action stored already: nothing changed."""
    return {"type": "ack", "id": client_id, "seq": seq, "action": action, "duplicate": True}


def error(refusal: Refusal, id_=None) -> dict:
    message = {"type": "error", "code": refusal.code, "reason": refusal.reason,
               "params": refusal.params, "message": refusal.message}
    if id_ is not None:
        message["id"] = id_
    return message


def presence(seat: int, connected: bool) -> dict:
    return {"type": "presence", "seat": seat, "connected": connected}


PONG = {"type": "pong"}
