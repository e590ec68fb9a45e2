"""Shapes of the demo data: plain frozen records that ``seed.py`` turns into rows.

Kept apart from ``seed_vendors.py``, which reads each caterer's menu from its data file
(``menus/<name>.toml``) into these records.
"""

from __future__ import annotations

from dataclasses import dataclass

from hotmeals.domain.diet import Diet

# Order of ``MealSpec.nutrition``; the names are the columns of ``Meal``.
NUTRITION_FIELDS: tuple[str, ...] = (
    "calories",
    "fat_g",
    "saturated_fat_g",
    "trans_fat_g",
    "cholesterol_mg",
    "sodium_mg",
    "carbohydrate_g",
    "potassium_mg",
    "fibre_g",
    "sugars_g",
    "protein_g",
    "vitamin_a_pct",
    "vitamin_c_pct",
    "calcium_pct",
    "iron_pct",
)


@dataclass(frozen=True)
class Option:
    """A drink (menu option) or a variant of the meal (meal option); ``allergens``: keys of
    ``seed_places.ALLERGENS`` this choice brings (the meal as composed); ``diets``: its
    dietary marks (``domain.diet`` codes; a choice that adds nothing, as "on the side",
    carries every mark, so that it takes none away from the meal as composed)."""

    name_en: str
    name_fr: str
    price_cents: int = 0
    allergens: tuple[str, ...] = ()
    diets: tuple[Diet, ...] = ()


@dataclass(frozen=True)
class MealSpec:
    """One meal on a vendor's menu.

    ``slug`` names the picture (``/meals/<slug>.svg``). ``allergens`` are keys of
    ``seed_places.ALLERGENS``; wheat implies gluten and is added by the loader. ``nutrition``
    follows ``NUTRITION_FIELDS`` for the small portion. ``bulk_discount_cents`` adds a price tier
    from ``BULK_MIN_QUANTITY`` meals upward on both portions. ``diets``: the dietary marks its
    ingredients justify (``domain.diet`` codes; the marks they imply are not repeated).
    """

    slug: str
    name_en: str
    name_fr: str
    description_en: str
    description_fr: str
    ingredients_en: str
    ingredients_fr: str
    cooking_en: str
    cooking_fr: str
    nutrition: tuple[float, ...]
    allergens: tuple[str, ...]
    small_cents: int
    large_cents: int
    bulk_discount_cents: int = 0
    drinks: bool = True
    meal_options: tuple[Option, ...] = ()
    diets: tuple[Diet, ...] = ()


@dataclass(frozen=True)
class AddOnSpec:
    slug: str  # picture: /addons/<slug>.svg
    name_en: str
    name_fr: str
    price_cents: int
    allergens: tuple[str, ...] = ()  # keys of seed_places.ALLERGENS (wheat implies gluten)
    diets: tuple[Diet, ...] = ()  # its dietary marks (domain.diet codes)


@dataclass(frozen=True)
class VendorSpec:
    name: str
    cutoff_days_before: int
    cutoff_time: str
    cutoff_skip_weekends: bool
    meals: tuple[MealSpec, ...]
    addons: tuple[AddOnSpec, ...]


BULK_MIN_QUANTITY = 5
