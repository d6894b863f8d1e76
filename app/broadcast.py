"""Fan-out between server processes.

A room always delivers its own events to the connections of *this* process. The broadcaster
only tells *other* processes "room CODE has stored event SEQ"; they catch up from the database
(:meth:`app.rooms.RoomManager.remote_event`), which stays the single source of truth. The
in-process broadcaster (the default) has nobody else to tell. A Redis pub/sub broadcaster
(issue 5) implements the same three methods.
"""

from __future__ import annotations

from typing import Awaitable, Callable


class Broadcaster:
    async def start(self, on_remote: Callable[[str, int], Awaitable[None]]) -> None:
        """Begin listening; call ``on_remote(code, seq)`` for events of other processes."""

    def published(self, code: str, seq: int) -> None:
        """This process stored event ``seq`` of room ``code`` (must not block)."""

    async def close(self) -> None:
        pass


class LocalBroadcaster(Broadcaster):
    """One process: nothing to fan out."""
