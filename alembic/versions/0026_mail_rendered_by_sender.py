"""a mail rendered by its sender

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-04 19:40:00

``emailoutbox.render_id``: set, the mail is rendered when it is sent, from that record of its
kind (an order confirmation: the order's id), and its subject and text are empty until then;
NULL (every row written before): the stored subject and text are the mail.
"""
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = '0026'
down_revision: str | Sequence[str] | None = '0025'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('emailoutbox') as batch:
        batch.add_column(sa.Column('render_id', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('emailoutbox') as batch:
        batch.drop_column('render_id')
