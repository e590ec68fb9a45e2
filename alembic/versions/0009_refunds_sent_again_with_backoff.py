"""refunds Converge refused are sent again with a backoff and a cap, then flagged

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 19:00:00

Refunds sent again: ``refund.attempt`` counts the tries of one refund, ``refund.retry_of_id`` is the
FAILED row a try sends again, a FAILED row's ``refund.retry_at`` is when the periodic job
sends it again, and ``refund.attention_at`` flags a refund whose last try failed for an
operator. A refund that had already failed is due again at once (its resend is capped by what
the order still owes, so nothing is refunded twice).
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel  # noqa: F401


# revision identifiers, used by Alembic.
revision: str = '0009'
down_revision: Union[str, Sequence[str], None] = '0008'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('refund', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('attempt', sa.Integer(), server_default='1', nullable=False)
        )
        batch_op.add_column(sa.Column('retry_of_id', sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column('retry_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch_op.add_column(
            sa.Column('attention_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch_op.create_index('ix_refund_retry_at', ['retry_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_refund_retry_of_id'), ['retry_of_id'], unique=False)
    # Refunds that failed before: due again now (the old job's own resends, which failed,
    # are not: the first row of each stands for what is owed).
    op.execute(
        "UPDATE refund SET retry_at = updated_at WHERE state = 'FAILED' "
        "AND reason <> 'resend of a cancel refund Converge refused'"
    )


def downgrade() -> None:
    with op.batch_alter_table('refund', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_refund_retry_of_id'))
        batch_op.drop_index('ix_refund_retry_at')
        batch_op.drop_column('attention_at')
        batch_op.drop_column('retry_at')
        batch_op.drop_column('retry_of_id')
        batch_op.drop_column('attempt')
