"""Connection: frames go out in order, at once when the socket takes them, through a task only
when a send has to wait."""

from __future__ import annotations

import asyncio

from app.rooms import Connection, outbox


class Socket:
    """A fake WebSocket whose ``send_text`` waits while ``open`` is clear."""

    def __init__(self, fail_on: str | None = None):
        self.sent: list[str] = []
        self.open = asyncio.Event()
        self.open.set()
        self.fail_on = fail_on

    async def send_text(self, text: str) -> None:
        await self.open.wait()
        if text == self.fail_on:
            raise RuntimeError("the peer went away")
        self.sent.append(text)


async def test_frames_go_out_within_the_call_when_the_socket_takes_them():
    socket = Socket()
    conn = Connection(socket.send_text)
    conn.send_text("a")
    conn.send({"type": "pong"})
    assert socket.sent == ["a", '{"type":"pong"}']  # no turn of the event loop needed
    assert conn._sending is None


async def test_a_send_that_waits_keeps_the_order_of_what_follows():
    socket = Socket()
    conn = Connection(socket.send_text)
    socket.open.clear()
    for text in "abc":
        conn.send_text(text)
    for _ in range(10):  # turns of the event loop: nothing goes while the socket waits
        await asyncio.sleep(0)
    assert socket.sent == []
    socket.open.set()
    await conn.drained(timeout=60)  # (the timeout only keeps a broken send from hanging)
    assert socket.sent == ["a", "b", "c"]
    conn.send_text("d")  # and at once again once the backlog is gone
    assert socket.sent == ["a", "b", "c", "d"]


async def test_a_failed_send_closes_the_connection_to_further_frames():
    socket = Socket(fail_on="b")
    conn = Connection(socket.send_text)
    for text in "abc":
        conn.send_text(text)
    assert conn.closed and socket.sent == ["a"]

    socket = Socket(fail_on="b")
    conn = Connection(socket.send_text)
    socket.open.clear()
    for text in "abc":
        conn.send_text(text)
    socket.open.set()
    await conn.drained(timeout=60)
    assert conn.closed and socket.sent == ["a"]


async def test_drained_gives_up_on_a_send_that_never_ends():
    socket = Socket()
    conn = Connection(socket.send_text)
    socket.open.clear()
    conn.send_text("a")
    conn.send_text("b")
    await conn.drained(timeout=0.05)
    await asyncio.sleep(0)
    assert socket.sent == [] and conn._sending is None


async def test_a_reader_too_slow_for_what_it_is_sent_is_dropped(monkeypatch):
    """What waits for a socket that does not take it is bounded: past MAX_BACKLOG characters
    the connection is dropped (once) and what waited is let go; a backlog that drains counts
    nothing against the next one."""
    monkeypatch.setattr(outbox, "MAX_BACKLOG", 100)
    socket, dropped = Socket(), []
    conn = Connection(socket.send_text, drop=lambda: dropped.append(1))
    socket.open.clear()
    conn.send_text("x" * 10)  # (the send that waits)
    for _ in range(10):
        conn.send_text("y" * 10)  # 100 waiting: kept
    assert not conn.closed and not dropped
    socket.open.set()
    await conn.drained(timeout=60)
    assert len(socket.sent) == 11
    socket.open.clear()
    conn.send_text("x" * 10)
    for _ in range(10):
        conn.send_text("y" * 10)
    assert not conn.closed and not dropped  # (the drained backlog not counted again)
    conn.send_text("z")  # 101
    assert conn.closed and dropped == [1] and not conn._backlog
    conn.send_text("more")
    assert dropped == [1]
