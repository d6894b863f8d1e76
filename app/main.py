"""The application factory: ``create_app(settings)``; ``app`` for ``uvicorn app.main:app``.

The schema is not created here: ``cardroom serve`` applies the Alembic migrations first.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from .fanout import Broadcaster, LocalBroadcaster
from .ops.analyst import Analyst
from .ops.stalls import StallWatch
from .protocol import Limited, Refusal
from .rooms import RoomRegistry
from .settings import Settings
from .storage.repository import RoomRepository
from .storage.store import DATABASE_FAILURES, Store
from .web import api, apidocs, pages, people, security, socket
from .web.deps import Registry, StoreDep
from .web.limits import Limits

log = logging.getLogger("cardroom.web")


def make_broadcaster(settings: Settings) -> Broadcaster:
    """Redis pub/sub when REDIS_URL is set, else in-process."""
    if settings.redis_url:
        from .fanout.redis import RedisBroadcaster

        return RedisBroadcaster(settings.redis_url, settings.redis_channel,
                                settings.presence_heartbeat)
    return LocalBroadcaster()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        store = Store(settings.database_url, synchronous=settings.sqlite_synchronous)
        rooms = RoomRegistry(settings, RoomRepository(store), make_broadcaster(settings))
        app.state.store, app.state.rooms = store, rooms
        await rooms.broadcaster.start(rooms.remote_event)
        rooms.start()
        stalls = StallWatch()
        stalls.start()
        analyst = app.state.analyst = Analyst(settings, store) if settings.analysis else None
        if analyst is not None:
            analyst.start()
        try:
            yield
        finally:
            if analyst is not None:
                await analyst.close()
            stalls.stop()
            await rooms.close()
            store.close()

    app = FastAPI(title="cardroom", version="0.1.0", lifespan=lifespan,
                  docs_url=None, redoc_url=None,  # apidocs: served without a CDN
                  description="Marjolet, Black Maria and Big Mariage in the browser. "
                              "The WebSocket protocol (/ws/{code}) is in docs/protocol.md.")
    app.state.settings = settings
    app.state.limits = Limits(settings)
    app.include_router(api.router)
    app.include_router(people.router)
    app.include_router(socket.router)
    pages.install(app)
    apidocs.install(app)
    security.install(app)

    @app.exception_handler(Refusal)
    async def refused(request: Request, refusal: Refusal):
        headers = {"Retry-After": str(refusal.retry_after)} if isinstance(refusal, Limited) \
            else None
        return JSONResponse(refusal.body(), status_code=refusal.http_status, headers=headers)

    async def unreachable(request: Request, error: Exception):
        """A read or a write the database failed, outside a room's commands (which refuse
        it themselves): 503, a page in the site's layout for a browser. (A socket's are
        answered by the socket itself: socket.py.)"""
        log.warning("%s: the database failed", request.url.path, exc_info=error)
        page = pages.unavailable(request)
        return page if page is not None else \
            await refused(request, Refusal("storage", "storage_unreachable"))

    for failure in DATABASE_FAILURES:
        app.add_exception_handler(failure, unreachable)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError):
        """FastAPI's 422, without the input echoed back: an input JSON cannot hold (a number
        past 1e308 is infinity) made FastAPI's own answer fail with a 500."""
        detail = [{"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]}
                  for e in error.errors()]
        return JSONResponse({"detail": detail}, status_code=422)

    @app.get("/api/health")
    async def health(store: StoreDep, rooms: Registry):
        """Database and Redis (when configured) reachable: 200, else 503."""
        try:
            await asyncio.wait_for(asyncio.to_thread(store.ping), timeout=5)
            database = True
        except Exception:
            database = False
        redis = await rooms.broadcaster.ping()
        ok = database and redis is not False
        body = {"ok": ok, "database": database, "redis": redis, "rooms": len(rooms.rooms)}
        return JSONResponse(body, status_code=200 if ok else 503)

    return app


app = create_app()
