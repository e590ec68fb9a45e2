"""reminders sent once: a row per (family, kind, date, subject) written with the mail

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-25 19:30:00

``remindersent``: what the reminder job has mailed (cut-off reminder, order reminder, menu
updates), unique per (parent, kind, date, subject) so that several workers, retries and
restarts send each once; ``token_hash`` is the unsubscribe link's token (hashed).
See ``hotmeals/services/reminders.py``.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel  # noqa: F401


# revision identifiers, used by Alembic.
revision: str = '0013'
down_revision: Union[str, Sequence[str], None] = '0012'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'remindersent',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('parent_id', sa.Integer(), nullable=False),
        sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column('for_date', sa.Date(), nullable=False),
        sa.Column('subject', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('token_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['parent_id'], ['parent.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint(
            'parent_id', 'kind', 'for_date', 'subject', name='uq_remindersent_once'
        ),
    )
    op.create_index(
        op.f('ix_remindersent_token_hash'), 'remindersent', ['token_hash'], unique=True
    )


def downgrade() -> None:
    op.drop_index(op.f('ix_remindersent_token_hash'), table_name='remindersent')
    op.drop_table('remindersent')
