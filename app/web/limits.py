"""Limits per client address (docs/security.md#limits): rooms created, seats taken, WebSocket
connections opened and chat lines said, each a rate counted by the ``limits`` library (in this
process's memory, or in Redis when ``REDIS_URL`` is set, shared by every process); and the
WebSocket connections open at once from one address and to one room, counted by each process.

The client's address is the connection's: uvicorn puts the forwarded one there when the
request came through a proxy of ``FORWARDED_ALLOW_IPS``, and only then. An IPv6 client is
counted by its /64, the network one home or one host is given: an address of its own for each
connection costs it nothing, as a household behind one IPv4 address shares that."""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections import Counter
from contextlib import contextmanager

from limits import RateLimitItem, parse_many
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.requests import HTTPConnection

from ..protocol import Limited
from ..settings import Settings

log = logging.getLogger("cardroom.limits")

#: What is limited: the setting that holds its rate.
RATES = {"rooms": "limit_rooms", "joins": "limit_joins", "sockets": "limit_sockets",
         "chat": "limit_chat", "analyses": "limit_analyses", "names": "limit_names"}


def address(connection: HTTPConnection) -> str:
    host = connection.client.host if connection.client else "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:  # (a test client's name)
        return host
    if ip.version == 4:
        return host
    if ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, 64), strict=False))


class Limits:
    def __init__(self, settings: Settings):
        if settings.redis_url:
            # the keys named after the deployment's channel: deployments may share a Redis
            storage = storage_from_string("async+" + settings.redis_url, implementation="redispy",
                                          key_prefix=f"{settings.redis_channel}:limits",
                                          socket_connect_timeout=1, socket_timeout=1)
        else:
            storage = storage_from_string("async+memory://")
        self.limiter = MovingWindowRateLimiter(storage)
        on = settings.limits
        self.rates: dict[str, list[RateLimitItem]] = {
            what: parse_many(getattr(settings, name)) if on and getattr(settings, name).strip()
            else [] for what, name in RATES.items()}
        self.open_max = settings.limit_open_sockets if on else math.inf
        self.room_max = settings.limit_room_sockets if on else math.inf
        self.open_by_address: Counter[str] = Counter()
        self.open_by_room: Counter[str] = Counter()

    async def check(self, what: str, *keys: str) -> None:
        """Count one more ``what`` for ``keys`` (an address, a room and seat); Limited if one
        of its rates is spent (and then it is not counted). A counter that cannot be reached
        (Redis away) limits nothing: the tables play on."""
        for item in self.rates[what]:
            try:
                if await self.limiter.hit(item, what, *keys):
                    continue
                stats = await self.limiter.get_window_stats(item, what, *keys)
            except Exception as error:
                log.warning("limit %s not counted: %s", what, error)
                return
            raise Limited(f"limit_{what}", max(1, math.ceil(stats.reset_time - time.time())))

    @contextmanager
    def socket(self, address: str):
        """A WebSocket open from ``address`` for the ``with`` block; Limited before it starts
        if the address already has its most."""
        if self.open_by_address[address] >= self.open_max:
            raise Limited("limit_open_sockets", 60, count=self.open_max)
        self.open_by_address[address] += 1
        try:
            yield
        finally:
            _less(self.open_by_address, address)

    def watch(self, room: str, seated: bool) -> None:
        """A connection that said hello to ``room``, counted until :meth:`unwatch`; Limited for
        one not seated there once the room has its most. The table's own people always come
        in: sockets that said nothing had kept them out of their table."""
        if not seated and self.open_by_room[room] >= self.room_max:
            raise Limited("limit_room_sockets", 60, count=self.room_max)
        self.open_by_room[room] += 1

    def unwatch(self, room: str) -> None:
        _less(self.open_by_room, room)


def _less(counter: Counter, key: str) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]
