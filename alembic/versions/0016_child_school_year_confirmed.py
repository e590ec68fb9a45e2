"""start of the school year: which school year each child was confirmed for

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-26 02:00:00

``childschoolyear``: one row per (child, school year) the parent confirmed the child's grade,
teacher, school and allergies for. See ``hotmeals/services/school_year.py``.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel  # noqa: F401


# revision identifiers, used by Alembic.
revision: str = '0016'
down_revision: Union[str, Sequence[str], None] = '0015'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'childschoolyear',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('child_id', sa.Integer(), nullable=False),
        sa.Column('school_year', sa.Integer(), nullable=False),
        sa.Column('confirmed_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['child_id'], ['child.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('child_id', 'school_year', name='uq_childschoolyear'),
    )


def downgrade() -> None:
    op.drop_table('childschoolyear')
