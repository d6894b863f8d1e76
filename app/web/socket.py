"""The WebSocket endpoint ``/ws/{code}``: frames in, parsed by the protocol, handed to the room's
commands; every refusal goes back to the sender alone (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import logging
import time

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .. import protocol
from ..protocol import (
    Act,
    Chat,
    Hello,
    Leave,
    Limited,
    Next,
    Ping,
    Refusal,
    Rematch,
    Standin,
    Sync,
    Wait,
)
from ..rooms import Connection, Room
from ..storage.store import DATABASE_FAILURES
from .deps import LimitsDep, Registry, SettingsDep
from .keepalive import DROP, PROBE
from .limits import Limits, address

log = logging.getLogger("cardroom.ws")
router = APIRouter()
_NOT_JSON = object()
#: Whole states a connection may ask for a second (``sync``; bursts of two): a page asks at
#: most every 2 s while out of step, and each answer is the whole STATE, the chat's 50 lines
#: with it (up to some 130 KB for a 15-byte request).
SYNC_RATE = 1.0


class Bucket:
    """Token bucket: ``rate`` messages per second, bursts of twice that."""

    def __init__(self, rate: float):
        self.rate, self.capacity = rate, max(2 * rate, 1)
        self.tokens, self.when = self.capacity, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.when) * self.rate)
        self.when = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def frame_text(message: dict, max_message: int) -> str:
    """A received frame's text; Refusal if it is too large or not UTF-8."""
    text = message.get("text")
    if text is None:
        raw = message.get("bytes") or b""
        if len(raw) > max_message:
            raise Refusal("too_large", "too_large", count=max_message)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Refusal("bad_json", "not_text") from None
    if len(text.encode("utf-8")) > max_message:
        raise Refusal("too_large", "too_large", count=max_message)
    return text


def json_object(text: str, allowed: bool) -> dict:
    """The frame as the JSON object it must be; Refusal if it is not one (past the rate
    limit: ``rate_limited``)."""
    try:
        data = orjson.loads(text)
    except ValueError:
        data = _NOT_JSON
    if not isinstance(data, dict):
        if not allowed:
            raise Refusal("rate_limited", "rate_limited")
        raise Refusal("bad_json", "not_json" if data is _NOT_JSON else "not_object")
    return data


def send_now(websocket: WebSocket, message: dict):
    return websocket.send_text(orjson.dumps(message).decode())


@router.websocket("/ws/{code}")
async def table(websocket: WebSocket, code: str, rooms: Registry, settings: SettingsDep,
                limits: LimitsDep):
    await websocket.accept()
    client = address(websocket)
    try:
        await limits.check("sockets", client)
        with limits.socket(client):
            await serve(websocket, code, rooms, settings, limits)
    except Limited as refusal:  # before anything else: said, and the connection closed
        await send_now(websocket, protocol.error(refusal))
        await websocket.close(code=4429)


async def serve(websocket: WebSocket, code: str, rooms, settings, limits: Limits) -> None:
    """One connection's messages, from its first to its last."""
    try:
        room = await rooms.get(code)
    except DATABASE_FAILURES as error:  # said, and closed: the page tries again later
        log.warning("room %s: the database failed: %s", code, str(error)[:200])
        await send_now(websocket, protocol.error(Refusal("storage", "storage_unreachable")))
        await websocket.close(code=1013)  # (try again later)
        return
    if room is None:
        await send_now(websocket, protocol.error(Refusal("no_room", "no_room", code=code[:20])))
        await websocket.close(code=4404)
        return
    extensions = websocket.scope.get("extensions", {})
    conn = Connection(websocket.send_text, extensions.get(PROBE), extensions.get(DROP))
    bucket, syncs = Bucket(settings.rate), Bucket(SYNC_RATE)
    greeted = watched = False
    hello_by = asyncio.get_running_loop().time() + settings.hello_within

    def admit(seat: int | None) -> None:
        nonlocal watched
        limits.watch(code.upper(), seat is not None)
        watched = True

    try:
        while True:
            try:
                async with asyncio.timeout_at(None if greeted else hello_by):
                    message = await websocket.receive()
            except TimeoutError:
                late = Refusal("hello_first", "hello_late",
                               seconds=protocol.js_number(settings.hello_within))
                await send_now(websocket, protocol.error(late))
                await websocket.close(code=4408)
                return
            if message["type"] == "websocket.disconnect":
                break
            id_ = None
            try:
                text = frame_text(message, settings.max_message)
                allowed = bucket.take()
                data = json_object(text, allowed)
                id_ = data.get("id") if isinstance(data.get("id"), (str, int)) else None
                if not allowed:
                    raise Refusal("rate_limited", "rate_limited")
                parsed = protocol.parse(data)
                if isinstance(parsed, Ping):
                    conn.send(protocol.PONG)
                elif isinstance(parsed, Hello):
                    if greeted:
                        raise Refusal("bad_field", "hello_twice")
                    try:
                        room = await greet(rooms, room, code, conn, parsed, admit)
                    except Limited as refusal:  # (the room's most: said, and closed)
                        await send_now(websocket, protocol.error(refusal))
                        await websocket.close(code=4429)
                        return
                    if room is None:
                        await websocket.close(code=4404)
                        return
                    greeted = True
                elif not greeted:
                    raise Refusal("hello_first", "hello_first")
                elif isinstance(parsed, Sync) and not syncs.take():  # (a whole STATE each)
                    raise Refusal("rate_limited", "sync_too_often")
                else:
                    await handle(room, conn, parsed, limits)
            except Refusal as refusal:
                conn.send(protocol.error(refusal, id_))
            except DATABASE_FAILURES as error:  # a read the database failed: try again later
                log.warning("room %s: the database failed: %s", code, str(error)[:200])
                conn.send(protocol.error(Refusal("storage", "storage_unreachable"), id_))
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("room %s: connection failed", code)
    finally:
        if watched:
            limits.unwatch(code.upper())
        if room is not None:
            room.detach(conn)
        await conn.drained(timeout=1)


async def greet(rooms, room: Room, code: str, conn: Connection, hello: Hello,
                admit) -> Room | None:
    """Seat the connection by its seat token or its player key (the room is loaded again if
    it was evicted meanwhile); ``admit(seat)``: see ``Room.attach``."""
    player_id = None
    if hello.player:
        player_id = await asyncio.to_thread(rooms.repository.player_of_key, hello.player)
        if player_id is None:
            conn.send(protocol.error(Refusal("bad_player_key", "bad_player_key")))
    while not await room.attach(conn, hello.token, hello.since, player_id, admit):
        room = await rooms.get(code)
        if room is None:
            return None
    return room


async def handle(room: Room, conn: Connection, message, limits: Limits) -> None:
    """One parsed message of a greeted connection, as the room's command it asks for."""
    if isinstance(message, Act):
        if conn.seat is None:
            raise Refusal("not_seated", "spectators_act")
        result = await room.act(conn.seat, message.action, message.id, by=conn)
        if result.get("duplicate"):  # applied before: no event, so the ack comes alone
            conn.send(protocol.duplicate(message.id, result["seq"], result["action"]))
    elif isinstance(message, Chat):
        if conn.seat is not None:  # per seat, whatever the number of its connections
            await limits.check("chat", room.code, str(conn.seat))
        await room.say(conn.seat, message.text, message.id, by=conn)
    elif isinstance(message, Standin):
        await room.standin(conn.seat, message.seat, message.bot)
    elif isinstance(message, Rematch):
        await room.rematch(conn.seat)
    elif isinstance(message, Leave):
        await room.leave(conn.seat)
    elif isinstance(message, Next):
        await room.ready(conn.seat, read=message.deal)
    elif isinstance(message, Wait):
        await room.ready(conn.seat, wait=True, read=message.deal)
    elif isinstance(message, Sync):
        await room.resync(conn)
