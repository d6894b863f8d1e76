"""a room's think time: the seconds its strong bots search per decision

Rooms stored before have none: their strong bots (which they cannot have had) would think for
the server's default, THINK_TIME.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 20:00:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('rooms', sa.Column('think_time', sa.Float(), nullable=True))


def downgrade() -> None:
    # dropped in place (SQLite 3.35+): a rebuilt table would break the keys that refer to it
    op.drop_column('rooms', 'think_time')
