"""players.name_key: names that read alike ("Anna", "anna", the full-width "Ａｎｎａ") are one
player's

Each stored name gets its key (NFKC_Casefold, runs of spaces as one). Of names stored before
that share a key, the first player keeps theirs; each later one is renamed "NAME 2",
"NAME 3"... as a name taken is answered (their matches stay theirs).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 17:00:00
"""
import unicodedata

import regex
import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def _key(name: str) -> str:
    # app.protocol.name_key as of this revision (a migration must not change with the app)
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def _numbered(name: str, n: int) -> str:
    """``name`` with " n", shortened to stay a name people may type: 32 characters seen, 64 code
    points (as app.storage.players._with_suffix)."""
    suffix = f" {n}"
    letters = regex.findall(r"\X", name)[:32 - len(suffix)]
    while len("".join(letters) + suffix) > 64:
        letters.pop()
    return "".join(letters).rstrip() + suffix


def upgrade() -> None:
    op.add_column('players', sa.Column('name_key', sa.Text(), nullable=True))
    connection = op.get_bind()
    players = connection.execute(sa.text("SELECT id, name FROM players ORDER BY id")).all()
    keys = {_key(name) for _, name in players}
    seen = set()
    for player_id, name in players:
        key = _key(name)
        if key in seen:
            name = next(free for free in (_numbered(name, n) for n in range(2, 10**6))
                        if _key(free) not in keys)
            key = _key(name)
            keys.add(key)
        seen.add(key)
        connection.execute(sa.text("UPDATE players SET name = :name, name_key = :key "
                                   "WHERE id = :id"), {"name": name, "key": key, "id": player_id})
    with op.batch_alter_table('players') as batch:
        batch.alter_column('name_key', existing_type=sa.Text(), nullable=False)
        batch.create_unique_constraint('uq_players_name_key', ['name_key'])


def downgrade() -> None:
    with op.batch_alter_table('players') as batch:
        batch.drop_constraint('uq_players_name_key', type_='unique')
        batch.drop_column('name_key')
