"""family credit: a ledger row per movement; the family's refund and closure choices

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-26 07:00:00

``creditentry``: one row per credit movement (refund to credit, spend, restore, an operator's
adjustment); a family's balance is the sum of its rows. ``key`` is unique per parent, so a
movement written again (a retry, a second worker) finds its row. ``familychoice``: where
refunds go by default and what a closed day does to a booked meal (no row: the card, both). See ``hotmeals/services/credit.py``.
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0018'
down_revision: str | Sequence[str] | None = '0017'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'creditentry',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('parent_id', sa.Integer(), nullable=False),
        sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column('amount_cents', sa.Integer(), nullable=False),
        sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=80), nullable=False),
        sa.Column('order_id', sa.Integer(), nullable=True),
        sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(length=255), nullable=True),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['parent_id'], ['parent.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['order_id'], ['order.id'], ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('parent_id', 'key', name='uq_creditentry_parent_key'),
    )
    op.create_index(
        'ix_creditentry_parent_created', 'creditentry', ['parent_id', 'created_at'], unique=False
    )
    op.create_index(op.f('ix_creditentry_order_id'), 'creditentry', ['order_id'], unique=False)
    op.create_table(
        'familychoice',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('parent_id', sa.Integer(), nullable=False),
        sa.Column('refund_to', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
        sa.Column('closure_choice', sqlmodel.sql.sqltypes.AutoString(length=8), nullable=False),
        sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['parent_id'], ['parent.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('parent_id'),
    )


def downgrade() -> None:
    op.drop_table('familychoice')
    op.drop_index(op.f('ix_creditentry_order_id'), table_name='creditentry')
    op.drop_index('ix_creditentry_parent_created', table_name='creditentry')
    op.drop_table('creditentry')
