"""post-match analyses (issue 28): one row a match, its progress and, once done, its result

`status` is queued, running, done or failed. A running analysis is held by one process
(`worker`) that renews `heartbeat`; another process may take it over once the heartbeat is
older than ANALYSIS_STALE (a restart). `deals` holds the entries of the deals analysed so far,
so that a taken-over analysis resumes; `result` is written with `status` done in one
statement, never half.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 21:00:00
"""
import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'match_analyses',
        sa.Column('match_id', sa.Integer(), sa.ForeignKey('matches.id'), primary_key=True),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('simulations', sa.Integer(), nullable=True),
        sa.Column('seed', sa.Integer(), nullable=False),
        sa.Column('done', sa.Integer(), nullable=False),
        sa.Column('total', sa.Integer(), nullable=False),
        sa.Column('deals', sa.JSON(), nullable=False),
        sa.Column('result', sa.JSON(), nullable=True),
        sa.Column('error', sa.String(length=200), nullable=True),
        sa.Column('worker', sa.String(length=64), nullable=True),
        sa.Column('heartbeat', sa.DateTime(timezone=True), nullable=True),
        sa.Column('requested', sa.DateTime(timezone=True), nullable=False),
        sa.Column('finished', sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index('ix_match_analyses_status', 'match_analyses', ['status'])


def downgrade() -> None:
    op.drop_index('ix_match_analyses_status', table_name='match_analyses')
    op.drop_table('match_analyses')
