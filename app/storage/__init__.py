"""Storage: the database (SQLAlchemy 2; the schema only through Alembic), the store's write
path, the rooms' repository and the history's queries."""
