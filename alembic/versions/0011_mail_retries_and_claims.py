"""mail retries and claims; job rounds once per cluster: an outbox row is claimed before it is sent, retried with backoff

Revision ID: 0011
Revises: 0009
Create Date: 2026-11-25 19:00:00

``emailoutbox.next_attempt_at`` (when the mail job may try again), ``claimed_until`` (a
sender holds the row: one delivery however many workers) and ``expires_at`` (a one-time
code's mail is not sent once the code has expired); see ``hotmeals/services/mail.py``.
``joblease.last_started_at``: a periodic round is due again only an interval after the last
one started on any worker (``hotmeals/services/jobs.py``).
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel  # noqa: F401


# revision identifiers, used by Alembic.
revision: str = '0011'
down_revision: Union[str, Sequence[str], None] = '0009'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('emailoutbox') as batch:
        batch.add_column(
            sa.Column('next_attempt_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch.add_column(
            sa.Column('claimed_until', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
        batch.add_column(sa.Column('expires_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
    with op.batch_alter_table('joblease') as batch:
        batch.add_column(
            sa.Column('last_started_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True)
        )
    op.create_index(
        'ix_emailoutbox_status_next_attempt_at',
        'emailoutbox',
        ['status', 'next_attempt_at'],
        unique=False,
    )
    # Rows a crash left PENDING are due now; rows that failed once are retried from now on.
    op.execute(
        "UPDATE emailoutbox SET next_attempt_at = created_at, status = 'PENDING' "
        "WHERE status IN ('PENDING', 'FAILED')"
    )


def downgrade() -> None:
    with op.batch_alter_table('joblease') as batch:
        batch.drop_column('last_started_at')
    op.drop_index('ix_emailoutbox_status_next_attempt_at', table_name='emailoutbox')
    with op.batch_alter_table('emailoutbox') as batch:
        batch.drop_column('expires_at')
        batch.drop_column('claimed_until')
        batch.drop_column('next_attempt_at')
