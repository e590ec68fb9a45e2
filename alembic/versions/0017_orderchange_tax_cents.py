"""an order change records the HST within its amount

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-26 02:45:00

``orderchange.tax_cents``: the HST part of what a change charged or refunded (a
change's receipt shows every charge line). Nullable: changes confirmed before it was recorded
keep a single line "HST included".
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0017'
down_revision: Union[str, Sequence[str], None] = '0016'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('orderchange') as batch_op:
        batch_op.add_column(sa.Column('tax_cents', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('orderchange') as batch_op:
        batch_op.drop_column('tax_cents')
