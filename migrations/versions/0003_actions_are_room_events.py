"""store each action once: as its room event, which gains the action's match and client id

Every action was stored twice, as a row of `actions` and as an `action` room event in the same
transaction, each row with a unique index to write. The room event already holds all of it
but the client's id; it now holds that too (and its match's id, to select a match's actions),
and `actions` goes.

Actions stored without an event (the demo matches of `cardroom seed`) become events at the end
of their room's stream, in their order.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 23:30:00
"""
import sqlalchemy as sa
from alembic import op

from app.storage.db import JSON_CODEC

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None

_json = sa.JSON()
_events = sa.table('room_events', sa.column('id', sa.Integer), sa.column('room_id', sa.Integer),
                   sa.column('seq', sa.Integer), sa.column('kind', sa.String),
                   sa.column('data', _json), sa.column('created', sa.DateTime),
                   sa.column('match_id', sa.Integer), sa.column('client_id', sa.String))
_actions = sa.table('actions', sa.column('match_id', sa.Integer), sa.column('seq', sa.Integer),
                    sa.column('deal_index', sa.Integer), sa.column('seat', sa.Integer),
                    sa.column('action', _json), sa.column('client_id', sa.String),
                    sa.column('created', sa.DateTime))
_matches = sa.table('matches', sa.column('id', sa.Integer), sa.column('room_id', sa.Integer),
                    sa.column('status', sa.String))
_deals = sa.table('deals', sa.column('match_id', sa.Integer), sa.column('index', sa.Integer),
                  sa.column('over', sa.Boolean))


def upgrade() -> None:
    with op.batch_alter_table('room_events', schema=None) as batch_op:
        batch_op.add_column(sa.Column('match_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('client_id', sa.String(length=80), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_room_events_match_id_matches'), 'matches',
                                    ['match_id'], ['id'])
    bind = op.get_bind()
    for match_id, room_id, status in bind.execute(
            sa.select(_matches.c.id, _matches.c.room_id, _matches.c.status)
            .order_by(_matches.c.id)).all():
        _move_actions(bind, match_id, room_id, status == 'finished')
    op.drop_table('actions')


def _move_actions(bind, match_id: int, room_id: int, finished: bool) -> None:
    """Give each of the match's actions its event: the one stored with it, or a new one."""
    actions = bind.execute(sa.select(_actions).where(_actions.c.match_id == match_id)
                           .order_by(_actions.c.seq)).all()
    if not actions:
        return
    events = {}
    for event_id, data in bind.execute(sa.select(_events.c.id, _events.c.data).where(
            _events.c.room_id == room_id, _events.c.kind == 'action')):
        data = _loaded(data)
        if data.get('match') == match_id:
            events[data.get('n')] = event_id
    deals_over = {index for index, over in bind.execute(
        sa.select(_deals.c.index, _deals.c.over).where(_deals.c.match_id == match_id)) if over}
    last_seq = bind.execute(sa.select(sa.func.max(_events.c.seq))
                            .where(_events.c.room_id == room_id)).scalar() or 0
    for i, action in enumerate(actions):
        if action.seq in events:
            bind.execute(_events.update().where(_events.c.id == events[action.seq])
                         .values(match_id=match_id, client_id=action.client_id))
            continue
        last_of_deal = i + 1 == len(actions) or actions[i + 1].deal_index != action.deal_index
        last_seq += 1
        bind.execute(_events.insert().values(
            room_id=room_id, seq=last_seq, kind='action', created=action.created,
            match_id=match_id, client_id=action.client_id,
            data={'match': match_id, 'deal': action.deal_index, 'seat': action.seat,
                  'action': _loaded(action.action),
                  'deal_over': last_of_deal and action.deal_index in deals_over,
                  'match_over': finished and i + 1 == len(actions), 'n': action.seq}))


def _loaded(value):
    """A JSON column's value: decoded by the driver (PostgreSQL), or still text (SQLite)."""
    return JSON_CODEC['json_deserializer'](value) if isinstance(value, str) else value


def downgrade() -> None:
    op.create_table(
        'actions',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('match_id', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('deal_index', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('action', sa.JSON(), nullable=False),
        sa.Column('client_id', sa.String(length=80), nullable=True),
        sa.Column('created', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('match_id', 'seq'))
    bind = op.get_bind()
    rows = []
    for data, client_id, created in bind.execute(
            sa.select(_events.c.data, _events.c.client_id, _events.c.created)
            .where(_events.c.kind == 'action').order_by(_events.c.id)):
        data = _loaded(data)
        rows.append({'match_id': data['match'], 'seq': data['n'], 'deal_index': data['deal'],
                     'seat': data['seat'], 'action': data['action'], 'client_id': client_id,
                     'created': created})
    if rows:
        bind.execute(_actions.insert(), rows)
    with op.batch_alter_table('room_events', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_room_events_match_id_matches'),
                                 type_='foreignkey')
        batch_op.drop_column('client_id')
        batch_op.drop_column('match_id')
