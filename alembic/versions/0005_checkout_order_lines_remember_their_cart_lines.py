"""the checkout: an order line remembers its cart line, an order its cart's fingerprint

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 13:40:00

Checkout: the approval of an order's payment deletes exactly the cart lines the order
was made from (``OrderLine.cart_line_id``; no foreign key: cart lines are deleted), and a
second checkout of the same cart (two tabs, a double tap) finds the pending order made from
the same content (``Order.cart_fingerprint``) instead of writing another.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel  # noqa: F401


# revision identifiers, used by Alembic.
revision: str = '0005'
down_revision: Union[str, Sequence[str], None] = '0004'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('orderline', schema=None) as batch_op:
        batch_op.add_column(sa.Column('cart_line_id', sa.Integer(), nullable=True))
    with op.batch_alter_table('order', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                'cart_fingerprint', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True
            )
        )


def downgrade() -> None:
    with op.batch_alter_table('order', schema=None) as batch_op:
        batch_op.drop_column('cart_fingerprint')
    with op.batch_alter_table('orderline', schema=None) as batch_op:
        batch_op.drop_column('cart_line_id')
