"""WebSocket keepalive pings, spread out in time."""

from __future__ import annotations

import random

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

#: Each ping comes this fraction of the interval early or late, at random.
SPREAD = 0.25


class SpreadPings(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets-sansio), whose keepalive ping comes at a random
    moment within a quarter of the interval either side of it (``ws_ping_interval``, 20 s), rather
    than exactly one interval after the last pong.

    uvicorn pings every connection exactly one interval after the pong of its last ping, so
    connections that opened together ping together for as long as they live: everyone coming
    back after a restart, or the load bench's 3,000 seats. At 1,000 tables that was 3,000 pings
    and pongs within 3 s of every 20, on top of 1,000 actions a second; in the load bench each
    such burst sent 100-300 actions over the p99 (the worst second of most runs). Spread, they
    drift apart within a few pings. A silent peer is still closed ``ws_ping_timeout`` after a
    ping it did not answer."""

    def schedule_ping(self) -> None:
        delay = self.ping_interval * random.uniform(1 - SPREAD, 1 + SPREAD)
        self.ping_timer = self.loop.call_later(delay, self.send_keepalive_ping)
