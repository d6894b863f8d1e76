"""The rooms this process holds in memory: each loaded from the database on first use,
forgotten when idle, and told of what other processes stored."""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from engine import GAMES

from ..fanout import Broadcaster, LocalBroadcaster
from ..ops import logs
from ..protocol import Limited, Refusal
from ..settings import Settings
from ..storage.stored import StorageError
from .room import Room
from .thinking import Thinkers

log = logging.getLogger("cardroom.rooms")

#: The highest target a room may set, per game (ten times the default): a match must end.
TARGET_MAX = {game.name: 10 * game.options["target"].default for game in GAMES.values()}

#: Seconds a room asked for here (a page, a request) is kept up to date by what other processes
#: store though nobody here watches it. Past that, their next notice drops it instead: the proxy
#: sends a room's people to one process, and a replica elsewhere would apply every action again.
KEEP_ASKED = 30.0

if TYPE_CHECKING:
    from ..storage.repository import RoomRepository


#: A renamed player's tables are those that stored an event this recently (a match may be left
#: running for ever), the :data:`RENAMED_ROOMS` newest.
IN_PLAY = timedelta(days=2)
RENAMED_ROOMS = 20


class RoomRegistry:
    def __init__(self, settings: Settings, repository: RoomRepository,
                 broadcaster: Broadcaster | None = None):
        self.settings = settings
        self.repository = repository
        self.broadcaster = broadcaster or LocalBroadcaster()
        #: the process pool the strong bots of these rooms think in (made on first use)
        self.thinkers = Thinkers(settings)
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        #: rooms being loaded: the last event number another process announced meanwhile
        self._loading_heard: dict[str, int] = {}
        self._sweeper: asyncio.Task | None = None
        self._prober: asyncio.Task | None = None
        self.broadcaster.local_presence = self.local_presence
        self.broadcaster.on_presence = self.remote_presence
        self.broadcaster.holds = lambda code: code in self.rooms or code in self._loading_heard

    def start(self) -> None:
        """Background upkeep: evict idle rooms, probe the links of people who take long."""
        loop = asyncio.get_running_loop()
        if self.settings.room_idle > 0:
            self._sweeper = loop.create_task(self._sweep())
        if self.settings.probe_after > 0:
            self._prober = loop.create_task(self._probe_slow_turns())

    async def close(self) -> None:
        for task in (self._sweeper, self._prober):
            if task is not None:
                task.cancel()
        for room in self.rooms.values():
            room.driver.cancel()
        self.thinkers.close()
        await self.broadcaster.close()

    async def get(self, code: str, asked: bool = True) -> Room | None:
        """The room of ``code`` (None: there is none), loaded if this process does not hold it.
        ``asked``: for someone who will use it here (a page, a request, a socket), so that it is
        kept up to date here a while (see :data:`KEEP_ASKED`), not only looked at."""
        code = (code or "").upper()
        room = self.rooms.get(code)
        if room is None:
            room = await self._load(code)
        if room is not None and asked:
            room.last_asked = time.monotonic()
        return room

    async def renamed(self, player_id: int) -> None:
        """A player renamed: their seats at the tables still in play (see :data:`IN_PLAY`) say
        their name. A room that fails to is logged and left: the name stands, the player's
        pages and the history read it."""
        since = datetime.now(timezone.utc) - IN_PLAY
        for code in await asyncio.to_thread(self.repository.codes_seating, player_id, since, RENAMED_ROOMS):
            try:
                room = await self.get(code, asked=False)
                if room is not None:
                    await room.rename(player_id)
            except (Refusal, StorageError) as error:
                logs.event("error", code, logging.WARNING, what="rename", error=str(error))

    async def _load(self, code: str) -> Room | None:
        async with self._loading:
            room = self.rooms.get(code)
            if room is None:
                self._loading_heard[code] = 0
                try:
                    snap = await asyncio.to_thread(self.repository.load, code)
                finally:
                    heard = self._loading_heard.pop(code)
                if snap is None:
                    return None
                room = self.rooms[code] = Room(snap, self.settings, self.repository,
                                               self.broadcaster, self.thinkers)
                room.driver.ensure()
                logs.event("room_loaded", code, seq=room.state.seq, match=room.state.match_id)
                if heard > room.state.seq:  # stored by another process after the snapshot
                    await room.catch_up.notice()
        return room

    async def create(self, game: str, options: dict, seats: list[tuple[str, str | None]],
                     turn_timer: float | None, think_time: float | None = None) -> Room:
        """A new room of ``game``; ``seats`` ((kind, bot kind) each). BadOptions for options
        the game does not take; a room of bots only starts its match at once."""
        checked = GAMES[game].check_options(options)
        if checked["target"] > TARGET_MAX[game]:
            raise Refusal("bad_field", "target_too_high", game=GAMES[game].title,
                          count=TARGET_MAX[game])
        if self.settings.limits and all(kind == "bot" for kind, _ in seats):
            await self._bot_table_free()
        try:
            code = await self.repository.create_room(game, checked, seats, turn_timer,
                                                     think_time)
        except StorageError:
            raise Refusal("storage", "room_not_stored") from None
        logs.event("room_created", code, game=game,
                   seats=[kind if bot is None else f"{kind}:{bot}" for kind, bot in seats])
        room = await self.get(code, asked=False)  # its people come next, to its own process
        room.last_watched = time.monotonic()  # (a room of bots plays while they come)
        try:
            await room.start()
        except Refusal:  # the room is stored: its driver starts the match
            pass
        return room

    async def _bot_table_free(self) -> None:
        """Limited when ``bot_tables`` rooms of bots alone are playing already (those
        nobody watches pause: they do not count once their last event is that old)."""
        since = datetime.now(timezone.utc) - timedelta(seconds=self.settings.bot_table_idle + 60)
        playing = await asyncio.to_thread(self.repository.playing_bot_rooms, since)
        if playing >= self.settings.bot_tables:
            raise Limited("bot_tables", 60, count=self.settings.bot_tables)

    # -- other processes ----------------------------------------------------------------------

    async def remote_event(self, code: str, seq: int, shared: list | None = None) -> None:
        """Another process stored event ``seq`` of room ``code`` (``"*"``: maybe any room),
        and maybe shared those events (see :class:`app.rooms.sync.CatchUp`)."""
        if code in self._loading_heard:
            self._loading_heard[code] = max(self._loading_heard[code], seq)
        rooms = list(self.rooms.values()) if code == "*" else [self.rooms.get(code)]
        for room in rooms:
            if room is not None and (code == "*" or seq > room.state.seq):
                if self._unneeded(room):
                    self.evict(room)  # rebuilt from the database if it is asked for again
                    continue
                try:
                    await room.catch_up.notice(shared)
                except Exception as error:  # the database is away: try again in a second
                    logs.event("error", room.code, logging.WARNING, what="catch_up",
                               error=str(error)[:200])
                    if not room.evicted:
                        asyncio.get_running_loop().call_later(
                            1.0, lambda c=room.code, s=seq: asyncio.ensure_future(
                                self.remote_event(c, s)))

    @staticmethod
    def _unneeded(room: Room) -> bool:
        """Nobody here watches the room, nothing here is under way in it, and nothing here
        asked for it lately: another process serves it."""
        return (not room.outbox.conns and not room.lock.locked()
                and time.monotonic() - room.last_asked > KEEP_ASKED)

    def local_presence(self) -> dict[str, list[int]]:
        """The seats connected to this process, by room (the presence heartbeat)."""
        out = {}
        for code, room in self.rooms.items():
            seats = room.outbox.local_seats()
            if seats:
                out[code] = sorted(seats)
        return out

    def remote_presence(self, origin: str, entries: dict, replace: bool) -> None:
        """Presence of another process: ``entries`` = {code: seats} (heartbeat, ``replace``)
        or {code: [[seat, connected], ...]} (a change)."""
        # (a room waits for the people at it: the next deal, a rematch)
        if replace:
            for code, room in self.rooms.items():
                if room.presence.heard(origin, entries.get(code, []), True, len(room.state.seats)):
                    room.driver.poke()
        else:
            for code, changes in entries.items():
                room = self.rooms.get(code)
                if room is not None and room.presence.heard(origin, changes, False,
                                                            len(room.state.seats)):
                    room.driver.poke()

    # -- slow turns -----------------------------------------------------------------------------

    async def _probe_slow_turns(self) -> None:
        """Every quarter of ``probe_after``, the rooms whose people to act have taken that long
        have their connections here probed (once a turn). A sweep
        rather than a timer a turn: the turns of people who act in time, nearly all of them,
        cost nothing (a timer armed on each action would)."""
        period = max(0.25, self.settings.probe_after / 4)
        while True:
            await asyncio.sleep(period)
            now = time.monotonic()
            for room in list(self.rooms.values()):
                try:
                    room.probe_if_slow(now)
                except Exception:
                    log.exception("room %s: probing a slow turn failed", room.code)

    # -- idle rooms -----------------------------------------------------------------------------

    async def _sweep(self) -> None:
        """Forget rooms nobody watches and nothing drives for ``room_idle`` seconds: they
        are rebuilt from the database on next use."""
        period = max(1.0, min(60.0, self.settings.room_idle / 4))
        while True:
            await asyncio.sleep(period)
            try:
                now = time.monotonic()
                for room in list(self.rooms.values()):
                    if room.idle(now, self.settings.room_idle):
                        self.evict(room)
            except Exception:
                log.exception("sweeping idle rooms failed")

    def evict(self, room: Room) -> None:
        room.evicted = True
        room.driver.cancel()
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        logs.event("room_evicted", room.code, seq=room.state.seq)
