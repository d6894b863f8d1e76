"""Apply the Alembic migrations programmatically (``cardroom serve`` and the tests)."""

from __future__ import annotations

import os

from alembic import command
from alembic.config import Config

#: The checkout (alembic.ini, migrations/ and seeds/ are there).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def alembic_config(url: str) -> Config:
    config = Config(os.path.join(ROOT, "alembic.ini"))
    config.set_main_option("script_location", os.path.join(ROOT, "migrations"))
    config.attributes["url"] = url
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)
