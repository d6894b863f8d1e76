"""Cross-process fan-out over Redis pub/sub (``REDIS_URL``).

"Room CODE stored event SEQ" travels through Redis, with the stored events themselves when
they are actions or chat lines: the receiving process applies those through the engine as they
are, and catches the room up from the database, which stays the single source of truth, for
anything else or when a notice is missing (a gap in the numbers). Redis is trusted as the
database is: the events hold what they hold there (a Black Maria pass, say). When the Redis
connection drops (a Redis restart), the listener reconnects by itself and then catches up
every room it holds, so nothing missed meanwhile is lost. The notices a process has ready
together (those of one group commit, say) travel as one message; each process skips its own
messages unread.

Presence crosses processes too, so that a seat whose person is connected to another process
is never handed to a bot and every process shows it as connected:

- a notice on the channel when the first connection to a seat arrives at a process or its
  last one leaves, and a heartbeat every ``heartbeat`` seconds listing every seat connected
  to this process (receivers forget a process's seats ``PRESENCE_TTL`` seconds after its
  last word, so a killed process's seats free themselves);
- a registry for the authoritative check: one sorted set per (room, seat) whose members are
  process ids scored by the time their presence expires (refreshed by the heartbeat).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

import orjson

from . import PRESENCE_TTL, Broadcaster

log = logging.getLogger("cardroom.redis")

#: Shortest time from one send to Redis to the next while notices come together (see
#: RedisBroadcaster._sender): a little latency for the other processes, which with the rooms
#: routed to one process each only spectators and failover see, traded for CPU.
SEND_INTERVAL = 0.016
#: The heartbeat's refresh of this process's seats in the presence registry, in one command:
#: two commands a seat (1,500 seats a process at 1,000 tables) had cost more to send than the
#: notices between heartbeats. KEYS: the seats' sorted sets; ARGV: origin, until, key TTL.
_REFRESH = """
for _, key in ipairs(KEYS) do
    redis.call('ZADD', key, ARGV[2], ARGV[1])
    redis.call('EXPIRE', key, ARGV[3])
end
"""


class RedisBroadcaster(Broadcaster):
    def __init__(self, url: str, channel: str = "cardroom:events", heartbeat: float = 5.0):
        self.url, self.channel, self.heartbeat = url, channel, heartbeat
        self.origin = secrets.token_hex(8)
        self.redis = None
        self.task: asyncio.Task | None = None
        self.beat: asyncio.Task | None = None
        self.sending: asyncio.Task | None = None
        self.outbox: asyncio.Queue = asyncio.Queue()
        self._last_send = float("-inf")  # when the sender last sent (the loop's clock)
        self.ready = asyncio.Event()

    def _key(self, code: str, seat: int) -> str:
        return f"{self.channel}:presence:{code}:{seat}"

    async def start(self, on_remote) -> None:
        import redis.asyncio as redis

        self.redis = redis.from_url(self.url, socket_connect_timeout=2, socket_timeout=5,
                                    health_check_interval=10)
        self._refresh = self.redis.register_script(_REFRESH)
        self.task = asyncio.create_task(self._listen(on_remote))
        self.beat = asyncio.create_task(self._heartbeat())
        self.sending = asyncio.create_task(self._sender())
        try:  # do not hold the start-up for long if Redis is down: the listener retries
            await asyncio.wait_for(self.ready.wait(), timeout=3)
        except asyncio.TimeoutError:
            log.warning("Redis at %s not reachable yet; fan-out will start when it is", self.url)

    async def _listen(self, on_remote) -> None:
        delay, first = 0.2, True
        own = orjson.dumps({"origin": self.origin})[:-1]  # how this process's messages begin
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                self.ready.set()
                delay = 0.2
                if not first:  # events may have been missed while disconnected
                    log.warning("Redis fan-out restored; catching up every room")
                    asyncio.create_task(on_remote("*", 0))
                    asyncio.create_task(self._send_heartbeat())
                first = False
                async for message in pubsub.listen():
                    if message.get("type") != "message" or message["data"].startswith(own):
                        continue  # this process's own notices come back too: not read
                    try:
                        data = orjson.loads(message["data"])
                        origin = str(data["origin"])
                        # a message of a process of the version before is a notice alone
                        notices = data["notices"] if "notices" in data else [data]
                    except Exception as error:  # a malformed message is only logged
                        log.warning("bad fan-out message %r: %s", message.get("data"), error)
                        continue
                    for notice in notices:
                        try:
                            self._heard(origin, notice, on_remote)
                        except Exception as error:  # ... and a malformed notice
                            log.warning("bad fan-out notice %r: %s", notice, error)
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except Exception as error:  # connection lost: retry with backoff
                self.ready.clear()
                log.warning("Redis fan-out interrupted (%s); retrying in %.1fs", error, delay)
                try:
                    await pubsub.aclose()
                except Exception:
                    pass
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    def _heard(self, origin: str, notice: dict, on_remote) -> None:
        if "seq" in notice:
            code = str(notice["code"])
            if self.holds(code):
                asyncio.create_task(on_remote(code, int(notice["seq"]), notice.get("events")))
        elif "hb" in notice:
            self.on_presence(origin, notice["hb"], True)
        elif "p" in notice:
            self.on_presence(origin, notice["p"], False)

    def _publish(self, notice: dict) -> None:
        """Queue ``notice`` for the sender, which publishes those that wait together as one
        message. It is encoded here, so that one that cannot be is refused to its caller
        rather than lost with the others."""
        if self.redis is not None:
            self.outbox.put_nowait(orjson.Fragment(orjson.dumps(notice)))

    def _send(self, command) -> None:
        """Queue ``command(pipeline)`` for the sender: one task, one connection, in order."""
        if self.redis is not None:
            self.outbox.put_nowait(command)

    async def _sender(self) -> None:
        """Send what is queued, all that waits together at once: the notices as one message
        (``{"origin", "notices"}``), then the commands, in one pipeline. A command per task
        would race for the pool's connections (refused beyond its size) and could reorder
        notices; a message per notice cost each process a publish and every process a
        receipt per action, about half of what Redis cost (docs/performance.md). Sends come
        at most every :data:`SEND_INTERVAL`: what is queued once one has been sent waits for
        the interval from its start, with all that comes meanwhile (a send had carried one
        group commit's notices: docs/performance.md#redis-sends-spaced). A failed send is
        only logged (the others catch up from the database)."""
        loop = asyncio.get_running_loop()
        while True:
            queued = [await self.outbox.get()]
            wait = self._last_send + SEND_INTERVAL - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            self._last_send = loop.time()
            while not self.outbox.empty():
                queued.append(self.outbox.get_nowait())
            notices = [item for item in queued if type(item) is orjson.Fragment]
            commands = [item for item in queued if type(item) is not orjson.Fragment]
            try:
                message = orjson.dumps({"origin": self.origin, "notices": notices})
                if not commands:
                    await self.redis.publish(self.channel, message)
                    continue
                async with self.redis.pipeline(transaction=False) as pipe:
                    if notices:
                        pipe.publish(self.channel, message)
                    for command in commands:
                        command(pipe)
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("Redis send failed (%d notices, %d commands): %s", len(notices),
                            len(commands), error)

    def published(self, code: str, seq: int, shared: list | None = None) -> None:
        notice = {"code": code, "seq": seq}
        if shared is not None:
            notice["events"] = shared
        self._publish(notice)

    def presence(self, code: str, seat: int, connected: bool) -> None:
        self._publish({"p": {code: [[seat, connected]]}})
        key = self._key(code, seat)
        if connected:
            until = time.time() + PRESENCE_TTL
            self._send(lambda pipe: pipe.zadd(key, {self.origin: until}))
            self._send(lambda pipe: pipe.expire(key, int(PRESENCE_TTL * 2)))
        else:
            self._send(lambda pipe: pipe.zrem(key, self.origin))

    async def present_elsewhere(self, code: str, seat: int) -> bool:
        members = await self.redis.zrangebyscore(self._key(code, seat), time.time(), "+inf")
        return any(m.decode() != self.origin for m in members)

    async def _send_heartbeat(self) -> None:
        present = self.local_presence()
        self._publish({"hb": present})
        if not present:
            return
        keys = [self._key(code, seat) for code, seats in present.items() for seat in seats]
        await self._refresh(keys=keys, args=[self.origin, time.time() + PRESENCE_TTL,
                                             int(PRESENCE_TTL * 2)])

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                await self._send_heartbeat()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("Redis presence heartbeat failed: %s", error)

    async def ping(self) -> bool:
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), timeout=2))
        except Exception:
            return False

    async def close(self) -> None:
        for task in (self.task, self.beat, self.sending):
            if task is not None:
                task.cancel()
                try:
                    await task
                except (asyncio.CancelledError, Exception):
                    pass
        if self.redis is not None:
            await self.redis.aclose()
