"""Rooms: each one a serialising actor (:class:`Room`) over a pure state, with its outbox
(connections and frames), its driver (bots, deals, the turn timer) and its catch-up from other
processes; the registry holds the rooms of this process (docs/server.md)."""

from .outbox import Connection
from .registry import RoomRegistry
from .room import Room

__all__ = ["Connection", "Room", "RoomRegistry"]
