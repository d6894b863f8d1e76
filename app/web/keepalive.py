"""WebSocket keepalive pings, spread out in time, and a ping on demand (a probe)."""

from __future__ import annotations

import random

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

#: Each ping comes this fraction of the interval early or late, at random.
SPREAD = 0.25
#: The ASGI scope's extensions through which the app probes its connection (``probe(timeout)``)
#: and drops it at once (``drop()``: a reader too slow for what it is sent).
PROBE, DROP = "cardroom.probe", "cardroom.drop"


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

    def handle_connect(self, event) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # (none: the handshake was refused)
        if scope is not None:
            scope["extensions"][DROP] = self.drop
        if scope is not None and self.ping_interval and self.ping_timeout:  # (rides on the keepalive)
            scope["extensions"][PROBE] = self.probe

    def drop(self) -> None:
        """Close the connection now, what waits to be written with it: a close frame would
        wait behind the frames the peer is not reading."""
        self.transport.abort()

    def probe(self, timeout: float) -> None:
        """Ping now, and close the connection as a silent peer unless its pong comes within
        ``timeout`` seconds: a link that died without a word is found in seconds rather than
        at the next keepalive (docs/protocol.md, "presence"). A ping already out keeps the sooner
        of its deadline and this one."""
        if self.close_sent or self.transport.is_closing():
            return
        if self.pending_ping_payload is None:
            if self.ping_timer is not None:
                self.ping_timer.cancel()
                self.ping_timer = None
            self.send_keepalive_ping()
        if self.pong_timer is not None and self.pong_timer.when() > self.loop.time() + timeout:
            self.pong_timer.cancel()
            self.pong_timer = self.loop.call_later(timeout, self._probe_unanswered, timeout)

    def _probe_unanswered(self, waited: float) -> None:
        """No pong in the probe's time: a silent peer, unless this side stopped reading (the
        app still busy with the connection's last message), which gets the keepalive's time."""
        if self.read_paused:
            self.pong_timer = self.loop.call_later(max(0.0, self.ping_timeout - waited),
                                                   self.keepalive_timeout)
        else:
            self.keepalive_timeout()
