"""The application factory: ``create_app(settings)``; ``app`` for ``uvicorn app.main:app``.

The schema is not created here: ``cardroom serve`` applies the Alembic migrations first.
"""

from __future__ import annotations

import importlib
from contextlib import asynccontextmanager

from fastapi import FastAPI

from . import api, ws
from .broadcast import Broadcaster, LocalBroadcaster
from .rooms import RoomManager
from .settings import Settings
from .stalls import StallWatch
from .store import Store


def make_broadcaster(settings: Settings) -> Broadcaster:
    """Redis pub/sub when REDIS_URL is set, else in-process."""
    if settings.redis_url:
        from .redis_broadcast import RedisBroadcaster

        return RedisBroadcaster(settings.redis_url, settings.redis_channel,
                                settings.presence_heartbeat)
    return LocalBroadcaster()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        store = Store(settings.database_url, synchronous=settings.sqlite_synchronous)
        manager = RoomManager(settings, store, make_broadcaster(settings))
        app.state.store, app.state.rooms = store, manager
        await manager.broadcaster.start(manager.remote_event)
        manager.start()
        stalls = StallWatch()
        stalls.start()
        try:
            yield
        finally:
            stalls.stop()
            await manager.close()
            store.close()

    app = FastAPI(title="cardroom", version="0.1.0", lifespan=lifespan,
                  description="Marjolet, Black Maria and Big Mariage in the browser. "
                              "The WebSocket protocol (/ws/{code}) is in docs/protocol.md.")
    app.state.settings = settings
    app.include_router(api.router)
    app.include_router(ws.router)

    @app.get("/api/health")
    async def health():
        """Database and Redis (when configured) reachable: 200, else 503."""
        import asyncio

        from fastapi.responses import JSONResponse

        try:
            await asyncio.wait_for(asyncio.to_thread(app.state.store.ping), timeout=5)
            database = True
        except Exception:
            database = False
        redis = await app.state.rooms.broadcaster.ping()
        ok = database and redis is not False
        body = {"ok": ok, "database": database, "redis": redis,
                "rooms": len(app.state.rooms.rooms)}
        return JSONResponse(body, status_code=200 if ok else 503)

    try:  # the browser pages (app/pages.py: ``install(app)`` or a ``router``), when present
        pages = importlib.import_module("app.pages")
    except ModuleNotFoundError as error:
        if error.name != "app.pages":
            raise
    else:
        if hasattr(pages, "install"):
            pages.install(app)
        else:
            app.include_router(pages.router)
    return app


app = create_app()
