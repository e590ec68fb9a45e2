"""a child's away days, stored

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-26 10:35:00

``childaway``: the days a child is away (one row per child and range, written by
``services/away.py``'s ``mark_away`` in the step that cancels its meals); the booking doors
refuse those days and GetDates shows them away (``services/away_days.py``).
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0022'
down_revision: str | Sequence[str] | None = '0021'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'childaway',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('parent_id', sa.Integer(), nullable=False),
        sa.Column('child_id', sa.Integer(), nullable=False),
        sa.Column('first_date', sa.Date(), nullable=False),
        sa.Column('last_date', sa.Date(), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['child_id'], ['child.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['parent_id'], ['parent.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index(
        'ix_childaway_child_days',
        'childaway',
        ['child_id', 'first_date', 'last_date'],
        unique=False,
    )
    op.create_index(op.f('ix_childaway_parent_id'), 'childaway', ['parent_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_childaway_parent_id'), table_name='childaway')
    op.drop_index('ix_childaway_child_days', table_name='childaway')
    op.drop_table('childaway')
