"""player keys, and each match seat's points, deals and win kept with it

A name becomes claimable: `players.key_hash` holds the sha256 of the player key that claimed it
(every stored name starts unclaimed, as a guest's). Statistics and standings add up
`match_players.points`, `deals` and `won` (filled here from every stored deal and match, then
kept as each deal ends), tell partners from opponents by `side`, and count matches against bots
apart (`matches.bot_seats`).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 17:00:00
"""
import sqlalchemy as sa
from alembic import op

from app.storage.db import JSON_CODEC

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None

_json = sa.JSON()
_matches = sa.table('matches', sa.column('id', sa.Integer), sa.column('game', sa.String),
                    sa.column('status', sa.String), sa.column('winners', _json),
                    sa.column('bot_seats', sa.Integer))
_seats = sa.table('match_players', sa.column('id', sa.Integer),
                  sa.column('match_id', sa.Integer), sa.column('seat', sa.Integer),
                  sa.column('bot', sa.String), sa.column('side', sa.Integer),
                  sa.column('points', sa.Integer),
                  sa.column('deals', sa.Integer), sa.column('won', sa.Boolean))
_deals = sa.table('deals', sa.column('match_id', sa.Integer), sa.column('over', sa.Boolean),
                  sa.column('scores', _json))


def _json_value(value):
    """A JSON column as read here: parsed already (PostgreSQL) or text (SQLite)."""
    return JSON_CODEC['json_deserializer'](value) if isinstance(value, str) else value


def upgrade() -> None:
    # a unique index, not a constraint: SQLite would rebuild the table (which others refer to)
    op.add_column('players', sa.Column('key_hash', sa.String(length=64), nullable=True))
    op.create_index(op.f('ix_players_key_hash'), 'players', ['key_hash'], unique=True)
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bot_seats', sa.Integer(), server_default='0',
                                      nullable=False))
    with op.batch_alter_table('match_players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('side', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('points', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('deals', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('won', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    bind = op.get_bind()
    for match_id, game, status, winners in bind.execute(
            sa.select(_matches.c.id, _matches.c.game, _matches.c.status, _matches.c.winners)):
        _fill_match(bind, match_id, game == 'big_mariage', status == 'finished',
                    _json_value(winners) or [])


def _fill_match(bind, match_id: int, teams: bool, finished: bool, winners: list) -> None:
    scores = [_json_value(s) for s, in bind.execute(sa.select(_deals.c.scores).where(
        _deals.c.match_id == match_id, _deals.c.over.is_(True)))]
    seats = bind.execute(sa.select(_seats.c.id, _seats.c.seat, _seats.c.bot)
                         .where(_seats.c.match_id == match_id)).all()
    for row_id, seat, _ in seats:
        side = seat % 2 if teams else seat  # engine.core.Game.side, as of this migration
        bind.execute(_seats.update().where(_seats.c.id == row_id).values(
            side=side, points=sum(s[side] for s in scores if s), deals=len(scores),
            won=finished and side in winners))
    bind.execute(_matches.update().where(_matches.c.id == match_id).values(
        bot_seats=sum(1 for _, _, bot in seats if bot is not None)))


def downgrade() -> None:
    # dropped in place (SQLite 3.35+): a rebuilt table would break the keys that refer to it
    op.drop_index(op.f('ix_players_key_hash'), table_name='players')
    for table, column in (('match_players', 'won'), ('match_players', 'deals'),
                          ('match_players', 'points'), ('match_players', 'side'),
                          ('matches', 'bot_seats'),
                          ('players', 'key_hash')):
        op.drop_column(table, column)
