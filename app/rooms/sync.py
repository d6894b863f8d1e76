"""A room held by several processes: the events another process stored are applied here too,
and the seats a person holds on another process count as connected.

Another process's notice of stored events brings them along when they can be applied as they
are (actions and chat lines); otherwise the room reads them from the database, which stays the
single source of truth, and rebuilds itself from it when they do not follow on."""

from __future__ import annotations

import asyncio
import logging
import time

from ..fanout import PRESENCE_TTL
from ..ops import logs
from ..storage.stored import StoredEvent, Tail


class Presence:
    """Who is connected to a room's seats: here (the outbox's connections) or, as their
    notices tell, on other processes (``remote``: seat -> {process origin: valid until})."""

    def __init__(self, code: str, outbox, broadcaster):
        self.code, self.outbox, self.broadcaster = code, outbox, broadcaster
        self.remote: dict[int, dict[str, float]] = {}
        #: seat -> when (monotonic) its person was last seen going: since then, away
        self.gone_at: dict[int, float] = {}
        self.since = time.monotonic()

    def gone(self, seat: int) -> None:
        """``seat``'s person is connected nowhere now: the connections are told."""
        self.gone_at[seat] = time.monotonic()
        self.outbox.presence(seat, False)

    def away_for(self, seat: int) -> float:
        """Seconds ``seat`` has been away, at most: if its going was not seen here (it went
        before the room was loaded on this process: a restart, whose people all come back at
        once), since the room was loaded."""
        return time.monotonic() - self.gone_at.get(seat, self.since)

    def __bool__(self) -> bool:
        return bool(self.remote)

    def connected(self, seat: int) -> bool:
        """A person is connected to ``seat`` here or on another process."""
        return self.outbox.connected_here(seat) or self.elsewhere(seat)

    async def anywhere(self, seat: int) -> bool:
        """The authoritative check before a seat is handed to a bot: this process, then the
        shared presence registry of the broadcaster (Redis), then the notices we got."""
        if self.outbox.connected_here(seat):
            return True
        try:
            elsewhere = await self.broadcaster.present_elsewhere(self.code, seat)
        except Exception as error:  # Redis down: fall back on the notices received
            logs.event("error", self.code, logging.WARNING, what="presence", error=str(error))
            elsewhere = None
        return bool(elsewhere) or self.elsewhere(seat)

    def elsewhere(self, seat: int) -> bool:
        origins = self.remote.get(seat)
        if not origins:
            return False
        now = time.monotonic()
        return any(until > now for until in origins.values())

    def heard(self, origin: str, seats, replace: bool, count: int) -> bool:
        """``origin`` says which seats are connected to it (``replace``: all of them, from its
        heartbeat) or that one seat came or went (``[[seat, connected], ...]``): the
        connections are told of each of the room's ``count`` seats whose presence changed.
        Whether any did."""
        before = [self.connected(seat) for seat in range(count)]
        until = time.monotonic() + PRESENCE_TTL
        if replace:
            for origins in self.remote.values():
                origins.pop(origin, None)
            for seat in seats:
                self.remote.setdefault(seat, {})[origin] = until
        else:
            for seat, present in seats:
                if present:
                    self.remote.setdefault(seat, {})[origin] = until
                else:
                    self.remote.get(seat, {}).pop(origin, None)
        changed = False
        for seat, was in enumerate(before):
            if self.connected(seat) != was:
                if was:
                    self.gone(seat)
                else:
                    self.outbox.presence(seat, True)
                changed = True
        return changed


class CatchUp:
    """Applies what other processes stored. Notices that arrive while one catch-up waits for
    the room are folded into it."""

    def __init__(self, room):
        self.room = room
        self._notices: list | None = None  # a catch-up waits: what notices brought so far
        self._complete = True  # ... and every one of them brought its events

    async def notice(self, shared: list | None = None) -> None:
        """Another process stored events: ``shared`` (``[seq, kind, data, client id]`` each)
        if it sent them along."""
        folded = self._notices is not None
        if not folded:
            self._notices = []
        if shared is None:
            self._complete = False
        else:
            self._notices += shared
        if folded:
            return
        async with self.room.lock:
            notices = self._notices if self._complete else None
            self._notices, self._complete = None, True
            await self.locked(notices)

    async def locked(self, shared: list | None = None) -> None:
        """Catch up (the caller holds the room's lock)."""
        room = self.room
        if room.broken:
            await room.reload()
            return
        old = room.state.seq
        tail = self._shared_tail(shared) if shared else None
        if tail is None:
            tail = await asyncio.to_thread(room.repository.tail, room.state.id, old)
        if not tail.events:
            return
        if room.state.apply_tail(tail):
            if any(_moves_the_clocks(event) for event in tail.events):
                room.driver.progressed()
            room.told([(e.seq, e.kind, e.data) for e in tail.events])
            logs.event("caught_up", room.code, logging.DEBUG, events=len(tail.events),
                       seq=room.state.seq)
        else:
            logs.event("rebuilt", room.code, after=old)
            await room.reload(deliver_since=old)

    def _shared_tail(self, shared: list) -> Tail | None:
        """The events of notices as a tail, if they follow on from the replica without a
        gap (else None: the database has what is missing)."""
        seq = self.room.state.seq
        events = sorted((StoredEvent(*entry) for entry in shared if entry[0] > seq),
                        key=lambda event: event.seq)
        if [event.seq for event in events] != list(range(seq + 1, seq + 1 + len(events))):
            return None
        return Tail(events=events)


def _moves_the_clocks(event: StoredEvent) -> bool:
    """Whether the process that stored ``event`` counts its clocks (the turn timer, the next
    deal's countdown) from it (room.py): an action, a deal, a wait asked for. A chat line or a
    ready elsewhere had started them again here alone, so that two processes' pages differed."""
    return event.kind in ("action", "deal") or (event.kind == "ready"
                                                and bool(event.data.get("wait")))
