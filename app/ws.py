"""The WebSocket endpoint: ``/ws/{code}`` (docs/protocol.md)."""

from __future__ import annotations

import logging
import time

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .rooms import Connection, RoomError

log = logging.getLogger("cardroom.ws")
router = APIRouter()

TYPES = {"hello", "action", "chat", "standin", "rematch", "ping"}


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


def error(code: str, message: str, id_=None) -> dict:
    out = {"type": "error", "code": code, "message": message}
    if id_ is not None:
        out["id"] = id_
    return out


@router.websocket("/ws/{code}")
async def table(websocket: WebSocket, code: str):
    manager = websocket.app.state.rooms
    settings = websocket.app.state.settings
    await websocket.accept()
    room = await manager.get(code)
    if room is None:
        await websocket.send_json(error("no_room", f"there is no room {code!r}"))
        await websocket.close(code=4404)
        return
    conn = Connection(websocket.send_text)
    bucket = Bucket(settings.rate)
    greeted = False
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                raw = message.get("bytes") or b""
                if len(raw) > settings.max_message:
                    conn.send(error("too_large", f"a message may hold at most "
                                                 f"{settings.max_message} bytes"))
                    continue
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    conn.send(error("bad_json", "messages are JSON text"))
                    continue
            if len(text.encode("utf-8")) > settings.max_message:
                conn.send(error("too_large",
                                f"a message may hold at most {settings.max_message} bytes"))
                continue
            allowed = bucket.take()
            try:
                data = orjson.loads(text)
            except ValueError:
                conn.send(error("bad_json" if allowed else "rate_limited",
                                "not JSON" if allowed else "too many messages; slow down"))
                continue
            if not isinstance(data, dict):
                conn.send(error("bad_json" if allowed else "rate_limited",
                                "a message is a JSON object" if allowed
                                else "too many messages; slow down"))
                continue
            kind = data.get("type")
            id_ = data.get("id") if isinstance(data.get("id"), (str, int)) else None
            if not allowed:
                conn.send(error("rate_limited", "too many messages; slow down", id_))
                continue
            if kind not in TYPES:
                conn.send(error("unknown_type", f"unknown message type {str(kind)[:40]!r}", id_))
                continue
            if kind == "ping":
                conn.send({"type": "pong"})
                continue
            if kind == "hello":
                if greeted:
                    conn.send(error("bad_field", "hello was already said"))
                    continue
                token = data.get("token")
                while not await room.attach(conn, token, data.get("since")):
                    room = await manager.get(code)  # it was evicted meanwhile: load it again
                    if room is None:
                        break
                if room is None:
                    await websocket.close(code=4404)
                    return
                greeted = True
                continue
            if not greeted:
                conn.send(error("hello_first", "say hello first", id_))
                continue
            try:
                await handle(room, conn, kind, data, id_)
            except RoomError as refusal:
                conn.send(error(refusal.code, refusal.message, id_))
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("room %s: connection failed", code)
    finally:
        if room is not None:
            room.detach(conn)
        await conn.drained(timeout=1)


async def handle(room, conn: Connection, kind: str, data: dict, id_) -> None:
    if kind == "action":
        if conn.seat is None:
            raise RoomError("not_seated", "spectators cannot act")
        client_id = data.get("id")
        if client_id is not None and (not isinstance(client_id, str) or len(client_id) > 64):
            raise RoomError("bad_field", "id must be a string of at most 64 characters")
        if "action" not in data:
            raise RoomError("bad_field", "an action message needs an action")
        result = await room.act(conn.seat, data["action"], client_id, by=conn)
        if result.get("duplicate"):  # applied before: no event, so the ack comes alone
            conn.send({"type": "ack", "id": client_id, "seq": result["seq"],
                       "action": result["action"], "duplicate": True})
    elif kind == "chat":
        await room.say(conn.seat, data.get("text"))
    elif kind == "standin":
        await room.standin(conn.seat, data.get("seat"), data.get("bot"))
    elif kind == "rematch":
        await room.rematch(conn.seat)
