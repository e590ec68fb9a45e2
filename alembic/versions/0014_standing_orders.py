"""standing orders: what the parent set up, and one row per (standing order, date) booked

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-26 01:40:00

``standingorder``: every <weekday>, one meal for one child, from a date to a date, active,
paused or ended. ``standingorderrun``: each (standing order, date) the job dealt with, unique,
claimed in the transaction that books the date (several workers, retries and restarts book it
once). See ``hotmeals/services/standing.py``.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel  # noqa: F401


# revision identifiers, used by Alembic.
revision: str = '0014'
down_revision: Union[str, Sequence[str], None] = '0013'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'standingorder',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('parent_id', sa.Integer(), nullable=False),
        sa.Column('child_id', sa.Integer(), nullable=False),
        sa.Column('meal_id', sa.Integer(), nullable=False),
        sa.Column('portion_id', sa.Integer(), nullable=False),
        sa.Column('weekday', sa.Integer(), nullable=False),
        sa.Column('starts_on', sa.Date(), nullable=False),
        sa.Column('ends_on', sa.Date(), nullable=False),
        sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['parent_id'], ['parent.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['child_id'], ['child.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['meal_id'], ['meal.id']),
        sa.ForeignKeyConstraint(['portion_id'], ['portion.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(
        op.f('ix_standingorder_parent_id'), 'standingorder', ['parent_id'], unique=False
    )
    op.create_table(
        'standingorderrun',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('standing_order_id', sa.Integer(), nullable=False),
        sa.Column('meal_date', sa.Date(), nullable=False),
        sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('order_id', sa.Integer(), nullable=True),
        sa.Column('payment_id', sa.Integer(), nullable=True),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ['standing_order_id'], ['standingorder.id'], ondelete='CASCADE'
        ),
        sa.ForeignKeyConstraint(['order_id'], ['order.id']),
        sa.ForeignKeyConstraint(['payment_id'], ['payment.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint(
            'standing_order_id', 'meal_date', name='uq_standingorderrun_once'
        ),
    )


def downgrade() -> None:
    op.drop_table('standingorderrun')
    op.drop_index(op.f('ix_standingorder_parent_id'), table_name='standingorder')
    op.drop_table('standingorder')
