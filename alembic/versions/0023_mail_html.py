"""a mail's HTML part, stored with its text

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-02 17:10:00

``emailoutbox.body_html``: the HTML alternative of a catalog mail (``services/mail_html.py``),
written with the row so any sender delivers the same multipart mail; NULL for a plain-text one.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0023'
down_revision: str | Sequence[str] | None = '0022'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('emailoutbox') as batch:
        batch.add_column(sa.Column('body_html', sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('emailoutbox') as batch:
        batch.drop_column('body_html')
