"""The Alembic migrations build exactly the schema of the models (no drift)."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from app.storage.db import make_engine
from app.storage.models import Base


def test_migrations_match_the_models(database_url):
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection)
            diff = compare_metadata(context, Base.metadata)
    finally:
        engine.dispose()
    assert diff == []
