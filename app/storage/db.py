"""Database engine and sessions."""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager
from typing import Iterator

import orjson
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import sessionmaker
from sqlalchemy.sql.functions import now

from ..encoding import json_text


@compiles(now, "sqlite")
def _sqlite_now(element, compiler, **kw) -> str:
    """``func.now()`` on SQLite: UTC with milliseconds (CURRENT_TIMESTAMP has whole seconds),
    in the form SQLAlchemy stores and reads back its datetimes."""
    return "STRFTIME('%Y-%m-%d %H:%M:%f', 'now')"


#: How every engine reads and writes JSON columns.
JSON_CODEC = {"json_serializer": json_text, "json_deserializer": orjson.loads}


def make_engine(url: str, autocheckpoint: bool = True, synchronous: str = "NORMAL") -> Engine:
    """An engine for ``url``; SQLite files get their directory, WAL and a busy timeout so that
    several processes (or app instances) can share one file. ``autocheckpoint=False``: commits
    never copy the WAL back into the database themselves (the owner checkpoints elsewhere).
    ``synchronous``: SQLite's ``PRAGMA synchronous``, FULL or NORMAL (Settings)."""
    if synchronous not in ("FULL", "NORMAL"):
        raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = parsed.database
        if path and path != ":memory:":
            directory = os.path.dirname(os.path.abspath(path))
            os.makedirs(directory, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                               **JSON_CODEC)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection, _record):
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA synchronous={synchronous}")
            if not autocheckpoint:
                cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

        return engine
    connect_args = {"connect_timeout": 5} if parsed.get_backend_name() == "postgresql" else {}
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20,
                         connect_args=connect_args, **JSON_CODEC)


def make_sessions(engine: Engine) -> sessionmaker:
    return sessionmaker(engine, expire_on_commit=False)


@contextmanager
def scratch_schema(base_url: str, prefix: str) -> Iterator[str]:
    """A PostgreSQL schema of its own for one test session or benchmark run, dropped after:
    yields ``base_url`` confined to it (empty: migrate it)."""
    schema = f"{prefix}_{secrets.token_hex(4)}"
    engine = create_engine(base_url)
    with engine.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        separator = "&" if "?" in base_url else "?"
        yield f"{base_url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()
