"""options and add-ons carry allergens

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 18:50:00

Allergy safety: every menu option, meal option and add-on has its own allergens
(``menuoptionallergen``, ``mealoptionallergen``, ``addonallergen``, like ``mealallergen``);
the allergy rule applies to the meal as composed (``services/cart.py`` ``check_line``).
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel  # noqa: F401


# revision identifiers, used by Alembic.
revision: str = '0007'
down_revision: Union[str, Sequence[str], None] = '0006'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'menuoptionallergen',
        sa.Column('menu_option_id', sa.Integer(), nullable=False),
        sa.Column('ingredient_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['ingredient_id'], ['allergeningredient.id']),
        sa.ForeignKeyConstraint(['menu_option_id'], ['menuoption.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('menu_option_id', 'ingredient_id'),
    )
    op.create_table(
        'mealoptionallergen',
        sa.Column('meal_option_id', sa.Integer(), nullable=False),
        sa.Column('ingredient_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['ingredient_id'], ['allergeningredient.id']),
        sa.ForeignKeyConstraint(['meal_option_id'], ['mealoption.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('meal_option_id', 'ingredient_id'),
    )
    op.create_table(
        'addonallergen',
        sa.Column('addon_id', sa.Integer(), nullable=False),
        sa.Column('ingredient_id', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['addon_id'], ['addon.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['ingredient_id'], ['allergeningredient.id']),
        sa.PrimaryKeyConstraint('addon_id', 'ingredient_id'),
    )


def downgrade() -> None:
    op.drop_table('addonallergen')
    op.drop_table('mealoptionallergen')
    op.drop_table('menuoptionallergen')
