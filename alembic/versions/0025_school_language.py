"""a school's language

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-03 12:00:00

``schoollanguage``: the language a school reads its kitchen labels and production list in
('en' or 'fr'), one row per school that has one; a school without a row reads English.
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0025'
down_revision: str | Sequence[str] | None = '0024'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'schoollanguage',
        sa.Column('school_id', sa.Integer(), nullable=False),
        sa.Column('lang', sqlmodel.sql.sqltypes.AutoString(length=2), nullable=False),
        sa.ForeignKeyConstraint(['school_id'], ['school.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('school_id'),
        sa.CheckConstraint("lang IN ('en', 'fr')", name='ck_schoollanguage_lang'),
    )


def downgrade() -> None:
    op.drop_table('schoollanguage')
