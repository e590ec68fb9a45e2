"""a cart line and an order line keep the parent's allergy acknowledgement

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 12:10:00

A meal with a High or Medium allergen of the child is added only when the parent
acknowledges it ("I understand this meal contains Milk"); the text and the time are kept on
the cart line and copied to the order line (``domain.allergy.ensure_can_add``).
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel  # noqa: F401


# revision identifiers, used by Alembic.
revision: str = '0004'
down_revision: Union[str, Sequence[str], None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    for table in ('cartline', 'orderline'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(
                sa.Column(
                    'allergy_ack', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True
                )
            )
            batch_op.add_column(
                sa.Column('allergy_ack_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
            )


def downgrade() -> None:
    for table in ('orderline', 'cartline'):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column('allergy_ack_at')
            batch_op.drop_column('allergy_ack')
