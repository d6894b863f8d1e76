"""Keepalive pings (app/keepalive.py), seen from a raw WebSocket peer: spread out in time, and a
silent peer still closed."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from tests.app.cardroom_client import create_room
from tests.conftest import LiveServer, fresh_sqlite

INTERVAL = 0.2


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    options = {"ws_ping_interval": INTERVAL, "ws_ping_timeout": 0.5}
    live = LiveServer(fresh_sqlite(tmp_path_factory, "keepalive"), uvicorn_options=options)
    live.start()
    yield live
    live.stop()


def watch(live: LiveServer, code: str, pings: int, answer: bool) -> tuple[list[float], bool]:
    """Open the room's WebSocket (no hello needed), and return when each of ``pings`` pings
    came and whether the server closed the connection first. ``answer``: pong as peers do."""
    client = ClientProtocol(parse_uri(f"{live.ws}/ws/{code}"))
    client.send_request(client.connect())
    times: list[float] = []
    with socket.create_connection(("127.0.0.1", live.port), timeout=5) as sock:
        sock.sendall(b"".join(client.data_to_send()))
        while len(times) < pings:
            data = sock.recv(65536)
            if not data:
                return times, True
            client.receive_data(data)
            for event in client.events_received():
                if isinstance(event, Frame) and event.opcode is Opcode.PING:
                    times.append(time.monotonic())
                if isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                    return times, True
            pending = b"".join(client.data_to_send())  # the pongs, queued by the protocol
            if answer and pending:
                sock.sendall(pending)
    return times, False


def test_pings_come_at_spread_intervals_and_keep_the_connection(server):
    code = asyncio.run(create_room(server.http, "black_maria", ["open"] * 3))
    times, closed = watch(server, code, pings=9, answer=True)
    assert not closed
    gaps = [b - a for a, b in zip(times, times[1:])]
    # Within a quarter of the interval either side (and what a loaded machine may add).
    assert all(0.75 * INTERVAL - 0.01 < gap < 1.25 * INTERVAL + 0.3 for gap in gaps), gaps
    # uvicorn's own pings come every interval to the millisecond; these are spread over 0.1 s.
    assert max(gaps) - min(gaps) > 0.02, gaps


def test_a_peer_that_does_not_answer_pings_is_closed(server):
    code = asyncio.run(create_room(server.http, "black_maria", ["open"] * 3))
    started = time.monotonic()
    times, closed = watch(server, code, pings=3, answer=False)
    assert closed and len(times) == 1
    assert time.monotonic() - started < 3
