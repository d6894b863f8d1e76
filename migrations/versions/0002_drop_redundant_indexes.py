"""drop the indexes that a unique constraint already provides

Each of room_events (room_id, seq), actions (match_id, seq) and deals (match_id, index) is
unique, and the index behind that constraint serves every lookup by its first column; the
separate single-column indexes only cost every stored action two more index writes.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 00:15:00
"""
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None

REDUNDANT = [('room_events', 'room_id'), ('actions', 'match_id'), ('deals', 'match_id')]


def upgrade() -> None:
    for table, column in REDUNDANT:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_index(batch_op.f(f'ix_{table}_{column}'))


def downgrade() -> None:
    for table, column in REDUNDANT:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.create_index(batch_op.f(f'ix_{table}_{column}'), [column], unique=False)
