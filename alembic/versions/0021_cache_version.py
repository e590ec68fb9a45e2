"""the versions of the per-process caches (menu): a row per cached kind, bumped by each write

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-26 09:40:00

``cacheversion``: one row per cached kind of data (``menu``). Every worker keeps its own copy
of the menus (meals, options, add-ons, allergens, portions, prices) and reads this row before
using it; a write to that data bumps the row in its own transaction
(``hotmeals/services/menu_cache.py``).
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0021'
down_revision: str | Sequence[str] | None = '0020'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    table = op.create_table(
        'cacheversion',
        sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint('name'),
    )
    op.bulk_insert(table, [{'name': 'menu', 'version': 0}])


def downgrade() -> None:
    op.drop_table('cacheversion')
