"""dietary marks, the kitchen's frozen day and confirmed deliveries

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-03 12:00:00

The dietary marks (``domain.diet``) of meals, menu options, meal options and add-ons, and a
child's dietary needs, one row per mark; ``kitchenday`` (a school's day as the kitchen labels
it, frozen after the cut-off) and ``daydelivery`` (a school's day confirmed delivered).
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0024'
down_revision: str | Sequence[str] | None = '0023'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The dietary marks' tables: (table, owner column, owner table).
DIET_TABLES = (
    ('mealdiet', 'meal_id', 'meal'),
    ('menuoptiondiet', 'menu_option_id', 'menuoption'),
    ('mealoptiondiet', 'meal_option_id', 'mealoption'),
    ('addondiet', 'addon_id', 'addon'),
    ('childdiet', 'child_id', 'child'),
)


def upgrade() -> None:
    for table, owner, owner_table in DIET_TABLES:
        op.create_table(
            table,
            sa.Column('diet', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
            sa.Column(owner, sa.Integer(), nullable=False),
            sa.ForeignKeyConstraint([owner], [f'{owner_table}.id'], ondelete='CASCADE'),
            sa.PrimaryKeyConstraint(owner, 'diet'),
        )
    when = sqlmodel.sql.sqltypes.UTCDateTime
    text = sqlmodel.sql.sqltypes.AutoString
    tables = {
        'kitchenday': [
            sa.Column('labels', sa.Text(), nullable=False),
            sa.Column('frozen_at', when(), nullable=False),
        ],
        'daydelivery': [
            sa.Column('meals', sa.Integer(), nullable=False),
            sa.Column('confirmed_by', text(length=40), nullable=False),
            sa.Column('confirmed_at', when(), nullable=False),
        ],
    }
    for table, extra in tables.items():
        op.create_table(
            table,
            sa.Column('id', sa.Integer(), nullable=False),
            sa.Column('school_id', sa.Integer(), nullable=False),
            sa.Column('vendor_id', sa.Integer(), nullable=False),
            sa.Column('meal_date', sa.Date(), nullable=False),
            *extra,
            sa.ForeignKeyConstraint(['school_id'], ['school.id']),
            sa.ForeignKeyConstraint(['vendor_id'], ['vendor.id']),
            sa.PrimaryKeyConstraint('id'),
            sa.UniqueConstraint('school_id', 'vendor_id', 'meal_date', name=f'uq_{table}_day'),
        )
        op.create_index(f'ix_{table}_meal_date', table, ['meal_date'], unique=False)
        op.create_index(f'ix_{table}_vendor_id', table, ['vendor_id'], unique=False)


def downgrade() -> None:
    for table in ('daydelivery', 'kitchenday'):
        op.drop_index(f'ix_{table}_vendor_id', table_name=table)
        op.drop_index(f'ix_{table}_meal_date', table_name=table)
        op.drop_table(table)
    for table, _owner, _owner_table in DIET_TABLES:
        op.drop_table(table)
