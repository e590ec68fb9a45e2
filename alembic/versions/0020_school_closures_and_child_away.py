"""school closures, the meals each handled, a child away, meals given to the school

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-26 09:40:00

``schoolclosure``: a school day closed after parents booked it (one row per school and date,
the menu days it closed itself); ``closuremeal``: one row per booked line a closure handled
(unique per closure and line: closing twice, or two workers, handle each meal once);
``awayrequest``: a "child away" applied, unique per parent and key; ``mealdonation``: a meal
past its cut-off given to the school's student-nutrition program (once per line). The family's
closure choice is ``familychoice.closure_choice`` (revision 0018). See
``hotmeals/services/closures.py`` and ``hotmeals/services/away.py``.
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0020'
down_revision: str | Sequence[str] | None = '0019'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'schoolclosure',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('school_id', sa.Integer(), nullable=False),
        sa.Column('closed_date', sa.Date(), nullable=False),
        sa.Column('reason', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
        sa.Column('menu_day_ids', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
        sa.Column('actor', sqlmodel.sql.sqltypes.AutoString(length=40), nullable=False),
        sa.Column('closed_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('reopened_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['school_id'], ['school.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('school_id', 'closed_date', name='uq_schoolclosure_day'),
    )
    op.create_index(
        op.f('ix_schoolclosure_closed_date'), 'schoolclosure', ['closed_date'], unique=False
    )
    op.create_table(
        'closuremeal',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('closure_id', sa.Integer(), nullable=False),
        sa.Column('order_line_id', sa.Integer(), nullable=False),
        sa.Column('parent_id', sa.Integer(), nullable=False),
        sa.Column('outcome', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
        sa.Column('amount_cents', sa.Integer(), nullable=False),
        sa.Column('new_date', sa.Date(), nullable=True),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['closure_id'], ['schoolclosure.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['order_line_id'], ['orderline.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['parent_id'], ['parent.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('closure_id', 'order_line_id', name='uq_closuremeal_line'),
    )
    op.create_index(
        op.f('ix_closuremeal_order_line_id'), 'closuremeal', ['order_line_id'], unique=False
    )
    op.create_index(op.f('ix_closuremeal_parent_id'), 'closuremeal', ['parent_id'], unique=False)
    op.create_table(
        'awayrequest',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('parent_id', sa.Integer(), nullable=False),
        sa.Column('request_key', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('first_date', sa.Date(), nullable=False),
        sa.Column('last_date', sa.Date(), nullable=False),
        sa.Column('child_ids', sqlmodel.sql.sqltypes.AutoString(length=400), nullable=False),
        sa.Column('refund_cents', sa.Integer(), nullable=False),
        sa.Column('result', sqlmodel.sql.sqltypes.AutoString(length=8000), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['parent_id'], ['parent.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('parent_id', 'request_key', name='uq_awayrequest_key'),
    )
    op.create_table(
        'mealdonation',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('order_line_id', sa.Integer(), nullable=False),
        sa.Column('parent_id', sa.Integer(), nullable=False),
        sa.Column('school_id', sa.Integer(), nullable=False),
        sa.Column('quantity', sa.Integer(), nullable=False),
        sa.Column('value_cents', sa.Integer(), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['order_line_id'], ['orderline.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['parent_id'], ['parent.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['school_id'], ['school.id']),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('order_line_id'),
    )
    op.create_index(op.f('ix_mealdonation_parent_id'), 'mealdonation', ['parent_id'], unique=False)
    op.create_index(op.f('ix_mealdonation_school_id'), 'mealdonation', ['school_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_mealdonation_school_id'), table_name='mealdonation')
    op.drop_index(op.f('ix_mealdonation_parent_id'), table_name='mealdonation')
    op.drop_table('mealdonation')
    op.drop_table('awayrequest')
    op.drop_index(op.f('ix_closuremeal_parent_id'), table_name='closuremeal')
    op.drop_index(op.f('ix_closuremeal_order_line_id'), table_name='closuremeal')
    op.drop_table('closuremeal')
    op.drop_index(op.f('ix_schoolclosure_closed_date'), table_name='schoolclosure')
    op.drop_table('schoolclosure')
