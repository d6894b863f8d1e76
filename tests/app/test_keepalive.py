"""Keepalive pings (app/keepalive.py): each one scheduled at a random moment within a quarter
of the interval either side of it, and a silent peer still closed.

When the pings come is not timed here (a busy machine moves every one of them): the delays
SpreadPings asks the event loop for are read off the loop, and a live server shows that its
pings are the ones SpreadPings schedules."""

from __future__ import annotations

import asyncio
import logging
import random
import socket
import sys
from types import SimpleNamespace

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.uri import parse_uri

from app.cli import websocket_options
from app.settings import Settings
from tests.app.cardroom_client import create_room
from tests.conftest import LiveServer, fresh_sqlite

INTERVAL = 0.2
#: The WebSocket protocol the server runs, and its module.
SpreadPings = websocket_options(Settings())["ws"]
keepalive = sys.modules[SpreadPings.__module__]


def live_server(tmp_path_factory, ping_timeout: float):
    options = {"ws_ping_interval": INTERVAL, "ws_ping_timeout": ping_timeout}
    live = LiveServer(fresh_sqlite(tmp_path_factory, "keepalive"), uvicorn_options=options)
    return live.start()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Pings every INTERVAL; a pong may take as long as a loaded machine makes it."""
    live = live_server(tmp_path_factory, ping_timeout=60)
    yield live
    live.stop()


@pytest.fixture(scope="module")
def impatient_server(tmp_path_factory):
    """Closes a connection whose pong has not come 0.5 s after its ping."""
    live = live_server(tmp_path_factory, ping_timeout=0.5)
    yield live
    live.stop()


def watch(live: LiveServer, code: str, pings: int, answer: bool) -> tuple[int, Close | None]:
    """Open the room's WebSocket (no hello needed) and read until ``pings`` pings came or the
    server closed the connection: how many pings came, and the server's close frame if it
    closed. ``answer``: pong as peers do."""
    client = ClientProtocol(parse_uri(f"{live.ws}/ws/{code}"))
    client.send_request(client.connect())
    seen = 0
    with socket.create_connection(("127.0.0.1", live.port), timeout=60) as sock:
        sock.sendall(b"".join(client.data_to_send()))
        while seen < pings:
            data = sock.recv(65536)
            assert data, "the connection dropped without a close frame"
            client.receive_data(data)
            for event in client.events_received():
                if isinstance(event, Frame) and event.opcode is Opcode.PING:
                    seen += 1
                if isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                    return seen, Close.parse(event.data)
            pending = b"".join(client.data_to_send())  # the pongs, queued by the protocol
            if answer and pending:
                sock.sendall(pending)
    return seen, None


class Loop:
    """The event loop as SpreadPings.schedule_ping sees it: what it is asked to call later."""

    def __init__(self):
        self.later: list[tuple[float, object]] = []

    def call_later(self, delay, callback, *args):
        self.later.append((delay, callback))
        return ("timer", len(self.later))


def test_each_ping_is_scheduled_within_a_quarter_of_the_interval_either_side(monkeypatch):
    """uvicorn schedules each ping one interval (less the last round trip) after the last pong,
    so that connections that opened together ping together for ever; SpreadPings draws the
    delay from 0.75 to 1.25 intervals each time."""
    monkeypatch.setattr(keepalive, "random", random.Random(30))
    loop = Loop()
    protocol = SimpleNamespace(ping_interval=20.0, last_ping_rtt=0.5, loop=loop,
                               send_keepalive_ping=object(), ping_timer=None)
    for _ in range(1000):
        SpreadPings.schedule_ping(protocol)
    delays = [delay for delay, _ in loop.later]
    assert all(15.0 <= delay <= 25.0 for delay in delays)
    assert min(delays) < 15.5 and max(delays) > 24.5  # over the whole range
    assert len({round(delay, 3) for delay in delays}) > 900  # each drawn anew
    assert all(callback is protocol.send_keepalive_ping for _, callback in loop.later)
    assert protocol.ping_timer == ("timer", 1000)  # the next ping's timer, as uvicorn keeps it


class Draws:
    """keepalive's ``random``, counting the draws (one per ping SpreadPings schedules)."""

    def __init__(self):
        self.ranges: list[tuple[float, float]] = []

    def uniform(self, low: float, high: float) -> float:
        self.ranges.append((low, high))
        return random.uniform(low, high)


def test_the_server_pings_on_spread_pings_schedule_and_keeps_the_connection(server,
                                                                              monkeypatch):
    draws = Draws()
    monkeypatch.setattr(keepalive, "random", draws)
    code = asyncio.run(create_room(server.http, "black_maria", ["open"] * 3))
    pings, closed = watch(server, code, pings=9, answer=True)
    assert pings == 9 and closed is None
    # each ping was scheduled by SpreadPings: one draw when the connection opened, then one
    # at each pong (uvicorn's own schedule draws nothing)
    assert len(draws.ranges) >= 9
    assert set(draws.ranges) == {(1 - keepalive.SPREAD, 1 + keepalive.SPREAD)}


def test_a_peer_that_does_not_answer_pings_is_closed(impatient_server):
    code = asyncio.run(create_room(impatient_server.http, "black_maria", ["open"] * 3))
    pings, closed = watch(impatient_server, code, pings=3, answer=False)
    # closed after its first ping, for not answering it
    assert pings == 1 and closed is not None
    assert (closed.code, closed.reason) == (1011, "keepalive ping timeout")


def test_a_refused_handshake_is_answered_and_breaks_nothing(server, caplog):
    """A WebSocket handshake uvicorn refuses (no key) gets its 400 and no error: the probe is
    published only on a connection that was accepted (there is no scope before)."""
    request = (b"GET /ws/NOSUCH HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
               b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n")
    with caplog.at_level(logging.ERROR):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(request)
            reply = sock.recv(4096)
    assert reply.startswith(b"HTTP/1.1 400"), reply[:80]
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
