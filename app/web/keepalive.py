"""WebSocket keepalive pings, spread out in time."""

from __future__ import annotations

import random

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

#: Each ping comes this fraction of the interval early or late, at random.
SPREAD = 0.25


class SpreadPings(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets-sansio), whose keepalive ping comes at a random
    moment within a quarter of the interval (``ws_ping_interval``) either side of it, rather
    than exactly one interval after the last pong: connections that opened together (everyone
    back after a restart) would otherwise ping together for as long as they live
    (docs/performance.md#keepalive-spreading). A silent peer is still closed
    ``ws_ping_timeout`` after a ping it did not answer."""

    def schedule_ping(self) -> None:
        delay = self.ping_interval * random.uniform(1 - SPREAD, 1 + SPREAD)
        self.ping_timer = self.loop.call_later(delay, self.send_keepalive_ping)
