"""Cross-process fan-out over Redis pub/sub (``REDIS_URL``).

Only "room CODE stored event SEQ" travels through Redis; the receiving process catches the
room up from the database, which stays the single source of truth. When the Redis connection
drops (a Redis restart), the listener reconnects by itself and then catches up every room it
holds, so nothing missed meanwhile is lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets

from .broadcast import Broadcaster

log = logging.getLogger("cardroom.redis")


class RedisBroadcaster(Broadcaster):
    def __init__(self, url: str, channel: str = "cardroom:events"):
        self.url, self.channel = url, channel
        self.origin = secrets.token_hex(8)
        self.redis = None
        self.task: asyncio.Task | None = None
        self.ready = asyncio.Event()

    async def start(self, on_remote) -> None:
        import redis.asyncio as redis

        self.redis = redis.from_url(self.url)
        self.task = asyncio.create_task(self._listen(on_remote))
        try:  # do not hold the start-up for long if Redis is down: the listener retries
            await asyncio.wait_for(self.ready.wait(), timeout=3)
        except asyncio.TimeoutError:
            log.warning("Redis at %s not reachable yet; fan-out will start when it is", self.url)

    async def _listen(self, on_remote) -> None:
        delay, first = 0.2, True
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                self.ready.set()
                delay = 0.2
                if not first:  # events may have been missed while disconnected
                    asyncio.create_task(on_remote("*", 0))
                first = False
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        data = json.loads(message["data"])
                    except (ValueError, TypeError):
                        continue
                    if data.get("origin") == self.origin:
                        continue
                    asyncio.create_task(on_remote(str(data["code"]), int(data["seq"])))
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

    def published(self, code: str, seq: int) -> None:
        if self.redis is None:
            return
        message = json.dumps({"origin": self.origin, "code": code, "seq": seq})

        async def send():
            try:
                await self.redis.publish(self.channel, message)
            except Exception as error:  # the others will catch up from the database later
                log.warning("Redis publish failed: %s", error)

        asyncio.get_running_loop().create_task(send())

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass
        if self.redis is not None:
            await self.redis.aclose()
