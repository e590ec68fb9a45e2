"""calendar feed: one private iCal address per family

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-26 01:50:00

``calendarfeed``: one row per parent; ``nonce`` makes the feed's token with the server's feed
secret (the token itself is never stored), ``token_hash`` finds the feed from its address.
See ``hotmeals/services/calendar_feed.py``.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel  # noqa: F401


# revision identifiers, used by Alembic.
revision: str = '0015'
down_revision: Union[str, Sequence[str], None] = '0014'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'calendarfeed',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('parent_id', sa.Integer(), nullable=False),
        sa.Column('nonce', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('token_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
        sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(['parent_id'], ['parent.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('parent_id'),
    )
    op.create_index(
        op.f('ix_calendarfeed_token_hash'), 'calendarfeed', ['token_hash'], unique=True
    )


def downgrade() -> None:
    op.drop_index(op.f('ix_calendarfeed_token_hash'), table_name='calendarfeed')
    op.drop_table('calendarfeed')
