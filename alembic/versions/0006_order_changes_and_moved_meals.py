"""order changes: a paid order's pending modification or meal move, and moved lines

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 14:10:00

Modify an order, move a meal: ``orderchange`` and ``orderchangeline`` hold a change
before it is confirmed and while its price difference is being paid
(``services/order_changes.py``); ``orderline.moved_from_date`` is the date a moved meal was
first ordered for.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel  # noqa: F401


# revision identifiers, used by Alembic.
revision: str = '0006'
down_revision: Union[str, Sequence[str], None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'orderchange',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('order_id', sa.Integer(), nullable=False),
        sa.Column('parent_id', sa.Integer(), nullable=False),
        sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
        sa.Column('state', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
        sa.Column('payment_id', sa.Integer(), nullable=True),
        sa.Column('request_key', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column('amount_cents', sa.Integer(), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['order_id'], ['order.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['parent_id'], ['parent.id']),
        sa.ForeignKeyConstraint(['payment_id'], ['payment.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('order_id', 'request_key', name='uq_orderchange_request'),
    )
    op.create_index(op.f('ix_orderchange_order_id'), 'orderchange', ['order_id'], unique=False)
    op.create_index(
        op.f('ix_orderchange_payment_id'), 'orderchange', ['payment_id'], unique=False
    )
    op.create_table(
        'orderchangeline',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('change_id', sa.Integer(), nullable=False),
        sa.Column('action', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
        sa.Column('order_line_id', sa.Integer(), nullable=True),
        sa.Column('quantity', sa.Integer(), nullable=False),
        sa.Column('child_id', sa.Integer(), nullable=True),
        sa.Column('menu_day_id', sa.Integer(), nullable=True),
        sa.Column('meal_id', sa.Integer(), nullable=True),
        sa.Column('portion_id', sa.Integer(), nullable=True),
        sa.Column('menu_option_id', sa.Integer(), nullable=True),
        sa.Column('meal_option_id', sa.Integer(), nullable=True),
        sa.Column('addon_ids', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
        sa.Column('special_note', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=True),
        sa.Column('allergy_ack', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True),
        sa.Column('allergy_ack_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.CheckConstraint(
            'quantity >= 1 AND quantity <= 50', name='ck_orderchangeline_quantity'
        ),
        sa.ForeignKeyConstraint(['change_id'], ['orderchange.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['order_line_id'], ['orderline.id']),
        sa.ForeignKeyConstraint(['child_id'], ['child.id']),
        sa.ForeignKeyConstraint(['menu_day_id'], ['menuday.id']),
        sa.ForeignKeyConstraint(['meal_id'], ['meal.id']),
        sa.ForeignKeyConstraint(['portion_id'], ['portion.id']),
        sa.ForeignKeyConstraint(['menu_option_id'], ['menuoption.id']),
        sa.ForeignKeyConstraint(['meal_option_id'], ['mealoption.id']),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(
        op.f('ix_orderchangeline_change_id'), 'orderchangeline', ['change_id'], unique=False
    )
    with op.batch_alter_table('orderline', schema=None) as batch_op:
        batch_op.add_column(sa.Column('moved_from_date', sa.Date(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('orderline', schema=None) as batch_op:
        batch_op.drop_column('moved_from_date')
    op.drop_index(op.f('ix_orderchangeline_change_id'), table_name='orderchangeline')
    op.drop_table('orderchangeline')
    op.drop_index(op.f('ix_orderchange_payment_id'), table_name='orderchange')
    op.drop_index(op.f('ix_orderchange_order_id'), table_name='orderchange')
    op.drop_table('orderchange')
