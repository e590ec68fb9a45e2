"""Where meals go and what they are: cities, schools, teachers, grades, vendors, meals with their
nutrition facts, portions with price tiers, options, add-ons and the per-school menu days."""

from __future__ import annotations

from datetime import date

from sqlalchemy import CheckConstraint, UniqueConstraint
from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import fk


class City(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=80, unique=True)
    province: str = Field(default="ON", max_length=2)


class School(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    city_id: int = fk("city.id")
    name: str = Field(max_length=120)
    address: str = Field(default="", max_length=200)
    is_active: bool = True


class SchoolLanguage(SQLModel, table=True):
    """The language a school reads its kitchen labels and production list in (``en`` or
    ``fr``); a school without a row reads English."""

    __table_args__ = (CheckConstraint("lang IN ('en', 'fr')", name="ck_schoollanguage_lang"),)
    school_id: int = Field(foreign_key="school.id", primary_key=True, ondelete="CASCADE")
    lang: str = Field(default="en", max_length=2)


class Grade(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(max_length=4, unique=True)  # JK, SK, 1 .. 8
    label_en: str = Field(max_length=40)
    label_fr: str = Field(max_length=40)
    sort: int = 0


class Teacher(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    school_id: int = fk("school.id")
    name: str = Field(max_length=80)
    grade_id: int | None = fk("grade.id", nullable=True)


class AllergenIngredient(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name_en: str = Field(max_length=80, unique=True)
    name_fr: str = Field(max_length=80)
    is_priority: bool = False  # one of Canada's priority food allergens


class Vendor(SQLModel, table=True):
    """A caterer. Its cut-off rule: a meal day closes ``cutoff_days_before`` days (school days
    when ``cutoff_skip_weekends``) before the date, at ``cutoff_time`` in America/Toronto."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=120, unique=True)
    cutoff_days_before: int = 2
    cutoff_time: str = Field(default="17:00", max_length=5)  # HH:MM local time
    cutoff_skip_weekends: bool = False
    is_active: bool = True


class Meal(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    vendor_id: int = fk("vendor.id")
    name_en: str = Field(max_length=120)
    name_fr: str = Field(max_length=120)
    description_en: str = Field(default="", max_length=500)
    description_fr: str = Field(default="", max_length=500)
    image: str = Field(default="", max_length=200)  # path under assets/, e.g. /meals/pasta.svg
    ingredients_en: str = Field(default="", max_length=1000)
    ingredients_fr: str = Field(default="", max_length=1000)
    cooking_method_en: str = Field(default="", max_length=300)
    cooking_method_fr: str = Field(default="", max_length=300)
    # Nutrition facts per serving (docs/product.md §3): grams, milligrams, or % daily value.
    calories: int = 0
    fat_g: float = 0
    saturated_fat_g: float = 0
    trans_fat_g: float = 0
    cholesterol_mg: int = 0
    sodium_mg: int = 0
    carbohydrate_g: float = 0
    potassium_mg: int = 0
    fibre_g: float = 0
    sugars_g: float = 0
    protein_g: float = 0
    vitamin_a_pct: int = 0
    vitamin_c_pct: int = 0
    calcium_pct: int = 0
    iron_pct: int = 0
    is_active: bool = True


class MealAllergen(SQLModel, table=True):
    meal_id: int = Field(foreign_key="meal.id", primary_key=True, ondelete="CASCADE")
    ingredient_id: int = Field(foreign_key="allergeningredient.id", primary_key=True)


class Portion(SQLModel, table=True):
    """Small ('1 portion') or large ('1 portion + upgrade')."""

    __table_args__ = (UniqueConstraint("meal_id", "size"),)
    id: int | None = Field(default=None, primary_key=True)
    meal_id: int = fk("meal.id", ondelete="CASCADE")
    size: str = Field(max_length=8)  # small, large


class PriceTier(SQLModel, table=True):
    """Unit price of a portion from ``min_quantity`` meals in one cart line upward."""

    __table_args__ = (UniqueConstraint("portion_id", "min_quantity"),)
    id: int | None = Field(default=None, primary_key=True)
    portion_id: int = fk("portion.id", ondelete="CASCADE")
    min_quantity: int = 1
    unit_price_cents: int


class _MealChoice(SQLModel):
    """The columns of a choice that belongs to one meal and may add to its price."""

    id: int | None = Field(default=None, primary_key=True)
    meal_id: int = fk("meal.id", ondelete="CASCADE")
    name_en: str = Field(max_length=80)
    name_fr: str = Field(max_length=80)
    price_cents: int = 0


class MenuOption(_MealChoice, table=True):
    """A choice offered with a meal (e.g. the drink); may add to the price."""


class MealOption(_MealChoice, table=True):
    """A variant of the meal itself (e.g. gluten-free bun); may add to the price."""


class AddOn(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    vendor_id: int = fk("vendor.id")
    name_en: str = Field(max_length=80)
    name_fr: str = Field(max_length=80)
    price_cents: int
    image: str = Field(default="", max_length=200)
    is_active: bool = True


class MenuOptionAllergen(SQLModel, table=True):
    """An allergen of a menu option: the rule applies to the meal as composed."""

    menu_option_id: int = Field(foreign_key="menuoption.id", primary_key=True, ondelete="CASCADE")
    ingredient_id: int = Field(foreign_key="allergeningredient.id", primary_key=True)


class MealOptionAllergen(SQLModel, table=True):
    meal_option_id: int = Field(foreign_key="mealoption.id", primary_key=True, ondelete="CASCADE")
    ingredient_id: int = Field(foreign_key="allergeningredient.id", primary_key=True)


class AddOnAllergen(SQLModel, table=True):
    addon_id: int = Field(foreign_key="addon.id", primary_key=True, ondelete="CASCADE")
    ingredient_id: int = Field(foreign_key="allergeningredient.id", primary_key=True)


class _DietMark(SQLModel):
    """One dietary mark (``domain.diet.Diet``) of a menu item: what it is as served."""

    diet: str = Field(max_length=16, primary_key=True)


class MealDiet(_DietMark, table=True):
    meal_id: int = Field(foreign_key="meal.id", primary_key=True, ondelete="CASCADE")


class MenuOptionDiet(_DietMark, table=True):
    menu_option_id: int = Field(foreign_key="menuoption.id", primary_key=True, ondelete="CASCADE")


class MealOptionDiet(_DietMark, table=True):
    meal_option_id: int = Field(foreign_key="mealoption.id", primary_key=True, ondelete="CASCADE")


class AddOnDiet(_DietMark, table=True):
    addon_id: int = Field(foreign_key="addon.id", primary_key=True, ondelete="CASCADE")


class MenuDay(SQLModel, table=True):
    """What one vendor serves at one school on one date; ``is_closed`` for PA days and
    holidays (the reason is shown to parents)."""

    __table_args__ = (UniqueConstraint("school_id", "meal_date", "vendor_id"),)
    id: int | None = Field(default=None, primary_key=True)
    school_id: int = fk("school.id")
    vendor_id: int = fk("vendor.id")
    meal_date: date = Field(index=True)
    is_closed: bool = False
    closed_reason_en: str = Field(default="", max_length=120)
    closed_reason_fr: str = Field(default="", max_length=120)


class MenuDayMeal(SQLModel, table=True):
    menu_day_id: int = Field(foreign_key="menuday.id", primary_key=True, ondelete="CASCADE")
    meal_id: int = Field(foreign_key="meal.id", primary_key=True)
