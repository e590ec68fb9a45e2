"""family credit pays: payment.method (card or credit)

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-26 09:30:00

``payment.method``: what a payment row was paid with, ``card`` (Converge; every row so far) or
``credit`` (family credit: approved when written, with its ``creditentry`` spend, in the
transaction that places the order; never sent to Converge). A refund to credit needs no column:
it is a ``refund`` row of kind ``CREDIT`` written SUCCEEDED (see ``services/payments/refunds.py``).
"""
from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel  # noqa: F401
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0019'
down_revision: str | Sequence[str] | None = '0018'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('payment') as batch:
        batch.add_column(
            sa.Column(
                'method',
                sqlmodel.sql.sqltypes.AutoString(length=8),
                nullable=False,
                server_default='card',
            )
        )


def downgrade() -> None:
    with op.batch_alter_table('payment') as batch:
        batch.drop_column('method')
