"""Alembic environment: the URL comes from ``config.attributes["url"]`` (set by
``app.storage.migrate.upgrade``) or else from the server's settings (``DATABASE_URL``)."""

from __future__ import annotations

from alembic import context

from app.storage.db import make_engine
from app.storage.models import Base

config = context.config
target_metadata = Base.metadata


def url() -> str:
    given = config.attributes.get("url")
    if given:
        return given
    from app.settings import Settings

    return Settings().database_url


def run_migrations_offline() -> None:
    context.configure(url=url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = config.attributes.get("engine") or make_engine(url())
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
