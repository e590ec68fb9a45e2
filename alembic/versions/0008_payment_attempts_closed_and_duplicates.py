"""payment attempts: closed at Converge's word, and duplicate sales as rows of their own

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 19:00:00

Money under failure: ``payment.closed_at`` is when Converge's
word on an attempt was taken (its sale confirmed, its own answer recorded, or no sale found
once the hosted session could no longer be used); a decline, error or cancel reported by a
browser leaves it empty, so the reconciliation asks Converge about that attempt once.
``payment.duplicate_of_id``: a second approved sale Converge made under another attempt's
invoice is a payment row of its own (with its void or return), pointing at that attempt.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel  # noqa: F401


# revision identifiers, used by Alembic.
revision: str = '0008'
down_revision: Union[str, Sequence[str], None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('closed_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch_op.add_column(sa.Column('duplicate_of_id', sa.Integer(), nullable=True))
        batch_op.create_index(
            batch_op.f('ix_payment_duplicate_of_id'), ['duplicate_of_id'], unique=False
        )
        batch_op.create_foreign_key(
            'fk_payment_duplicate_of_id_payment', 'payment', ['duplicate_of_id'], ['id']
        )
    # Approved and expired attempts had Converge's word. Declined and errored ones may have
    # failed on a browser's word only: the first rounds ask Converge about each once (a sale
    # it kept is then recorded and, if it paid for nothing, voided).
    op.execute(
        "UPDATE payment SET closed_at = updated_at WHERE state IN ('APPROVED', 'EXPIRED')"
    )


def downgrade() -> None:
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.drop_constraint('fk_payment_duplicate_of_id_payment', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_payment_duplicate_of_id'))
        batch_op.drop_column('duplicate_of_id')
        batch_op.drop_column('closed_at')
