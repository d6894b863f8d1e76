"""What the endpoints need, as FastAPI dependencies (``Annotated[..., Depends(...)]``)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from ..rooms import RoomRegistry
from ..settings import Settings
from ..storage.store import Store
from .limits import Limits


def _registry(connection: HTTPConnection) -> RoomRegistry:
    return connection.app.state.rooms


def _settings(connection: HTTPConnection) -> Settings:
    return connection.app.state.settings


def _limits(connection: HTTPConnection) -> Limits:
    return connection.app.state.limits


def _store(connection: HTTPConnection) -> Store:
    return connection.app.state.store


async def in_session(store: Store, work):
    """``work(session)`` in a worker thread: the database is never read on the event loop."""
    def run():
        with store.sessions() as session:
            return work(session)

    return await asyncio.to_thread(run)


Registry = Annotated[RoomRegistry, Depends(_registry)]
SettingsDep = Annotated[Settings, Depends(_settings)]
StoreDep = Annotated[Store, Depends(_store)]
LimitsDep = Annotated[Limits, Depends(_limits)]
