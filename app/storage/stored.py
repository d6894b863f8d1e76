"""What the repository hands the rooms: plain data, read in one go, with nothing of SQLAlchemy
in it (the rooms never see a session, a row or a statement)."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Chat lines a room keeps (and sends in every state), as many as a snapshot brings back.
CHAT_KEEP = 50


class StorageError(Exception):
    """The database refused or failed a write: nothing of it was stored."""


class Conflict(StorageError):
    """Another writer stored the same sequence number first (a race lost)."""


class Refused(Exception):
    """A write's own refusal, raised by its work inside the transaction (nothing stored): the
    store passes it on as it is, not as a storage failure."""


@dataclass(slots=True)
class StoredSeat:
    kind: str  # open | human | bot
    bot: str | None = None
    standin: bool = False
    name: str | None = None
    player_id: int | None = None
    token_hash: str | None = None
    by_key: bool = False


@dataclass(slots=True)
class StoredEvent:
    """One numbered room event: an action's ``data`` is ``{"match", "deal", "seat", "action",
    "deal_over", "match_over", "n"}``; ``client_id`` is the id its sender gave an action."""

    seq: int
    kind: str
    data: dict
    client_id: str | None = None


@dataclass(slots=True)
class StoredDeal:
    """A deal as it was dealt: the pack order is secret while its match runs."""

    index: int
    dealer: int
    deck: list[str]
    kitty: list[str] | None


@dataclass(slots=True)
class DealEnd:
    """What an action that ends a deal stores besides itself: the deal's scores and
    summary, the match's totals and winners (finished: the match ended with it), and each
    seat's share: its side's score of the deal (``gains``) and whether its side has won the
    match (``won``)."""

    match_id: int
    deal: int
    scores: list[int]
    summary: dict
    totals: list[int]
    winners: list[int]
    finished: bool
    gains: list[int]
    won: list[bool]


@dataclass(slots=True)
class StoredRoom:
    id: int
    code: str
    game: str
    options: dict
    turn_timer: float | None
    created: str  # ISO 8601, UTC
    think_time: float | None = None


@dataclass(slots=True)
class StoredMatch:
    id: int
    number: int
    options: dict


@dataclass
class Snapshot:
    """A room as stored, enough to rebuild it exactly: its seats, its last match with that
    match's deals and actions, its last event number and its latest chat lines."""

    room: StoredRoom
    seats: list[StoredSeat]
    match: StoredMatch | None = None
    deals: list[StoredDeal] = field(default_factory=list)
    actions: list[StoredEvent] = field(default_factory=list)  # the match's, in order
    seq: int = 0
    match_event_seq: int = 0  # the event that started the last match
    chat: list[StoredEvent] = field(default_factory=list)
    #: the seats that asked for what follows the last deal (the next deal, or a rematch)
    ready: list[int] = field(default_factory=list)
    #: the seats that asked for time to read the last deal's summary
    waiting: list[int] = field(default_factory=list)


@dataclass
class Tail:
    """Events stored after a given number, with what applying them needs: the packs of the
    deals they deal, and the seats if one of them changed a seat."""

    events: list[StoredEvent]
    deals: dict[tuple[int, int], StoredDeal] = field(default_factory=dict)  # (match, index)
    seats: list[StoredSeat] | None = None
