"""Fan-out between server processes.

A room always delivers its own events to the connections of *this* process. The broadcaster
tells *other* processes "room CODE has stored event SEQ", with the events themselves when they
can be applied as they are (actions and chat lines); they apply those, or catch up from the
database (:meth:`app.rooms.registry.RoomRegistry.remote_event`), which stays the single
source of truth. The in-process broadcaster (the default) has nobody else to tell; the Redis
pub/sub broadcaster (:mod:`app.fanout.redis`) implements the same methods.
"""

from __future__ import annotations

from typing import Awaitable, Callable

#: Seconds a presence notice of another process stays valid without a heartbeat.
PRESENCE_TTL = 15.0


class Broadcaster:
    #: set by the RoomRegistry: () -> {code: [seats connected to this process]}
    local_presence: Callable[[], dict] = staticmethod(lambda: {})
    #: set by the RoomRegistry: (origin, entries, replace) for presence of other processes
    on_presence: Callable[[str, dict, bool], None] = staticmethod(lambda *a: None)
    #: set by the RoomRegistry: code -> this process holds that room or is loading it (the
    #: others' notices of rooms it does not hold, most of them, need no task)
    holds: Callable[[str], bool] = staticmethod(lambda code: True)

    async def start(self, on_remote: Callable[..., Awaitable[None]]) -> None:
        """Begin listening; call ``on_remote(code, seq, shared)`` for events of other
        processes (``shared``: what they published with it, or None)."""

    def published(self, code: str, seq: int, shared: list | None = None) -> None:
        """This process stored events up to ``seq`` of room ``code``; ``shared``: those events
        (``[seq, kind, data, client id]`` each), if others may apply them as they are. Must
        not block."""

    def presence(self, code: str, seat: int, connected: bool) -> None:
        """The first connection to ``seat`` arrived at this process, or its last one left."""

    async def present_elsewhere(self, code: str, seat: int) -> bool:
        """Is a person connected to ``seat`` on another process? (authoritative check)"""
        return False

    async def ping(self) -> bool | None:
        """True if the fan-out service is reachable, None if there is none configured."""
        return None

    async def close(self) -> None:
        pass


class LocalBroadcaster(Broadcaster):
    """One process: nothing to fan out."""
