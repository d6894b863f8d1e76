"""What the endpoints need, as FastAPI dependencies (``Annotated[..., Depends(...)]``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from ..rooms import RoomRegistry
from ..settings import Settings
from ..storage.store import Store


def _registry(connection: HTTPConnection) -> RoomRegistry:
    return connection.app.state.rooms


def _settings(connection: HTTPConnection) -> Settings:
    return connection.app.state.settings


def _store(connection: HTTPConnection) -> Store:
    return connection.app.state.store


Registry = Annotated[RoomRegistry, Depends(_registry)]
SettingsDep = Annotated[Settings, Depends(_settings)]
StoreDep = Annotated[Store, Depends(_store)]
