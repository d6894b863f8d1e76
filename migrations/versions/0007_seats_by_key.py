"""a seat taken with the player's key: only such a seat is the player's on their other devices

A guest's seat is its token's alone: whoever claims the guest's name later (the name is free to
claim) may not be the guest. The seats stored before were the player's whenever the player's
name is claimed now: they stay so.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04 15:00:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column('seats', sa.Column('by_key', sa.Boolean(), nullable=False,
                                     server_default=sa.false()))
    op.execute("UPDATE seats SET by_key = TRUE WHERE player_id IN "
               "(SELECT id FROM players WHERE key_hash IS NOT NULL)")


def downgrade() -> None:
    op.drop_column('seats', 'by_key')
