"""The baseline of bench/load_bench.py: a bare FastAPI WebSocket endpoint that only relays
each text frame to the room's other sockets. No game, no database, no JSON decoding.

    .venv/bin/python -m uvicorn bench.bare_relay:app --port 8100
"""

from __future__ import annotations

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

app = FastAPI()
rooms: dict[str, set[WebSocket]] = {}


@app.get("/health")
async def health():
    return {"ok": True}


@app.websocket("/ws/{code}")
async def relay(websocket: WebSocket, code: str):
    await websocket.accept()
    room = rooms.setdefault(code, set())
    room.add(websocket)
    try:
        while True:
            text = await websocket.receive_text()
            for other in list(room):
                if other is not websocket:
                    try:
                        await other.send_text(text)
                    except Exception:
                        room.discard(other)
    except WebSocketDisconnect:
        pass
    finally:
        room.discard(websocket)
        if not room:
            rooms.pop(code, None)
