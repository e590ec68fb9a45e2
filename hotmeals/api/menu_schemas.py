"""Request and answer payloads of the menu and cart calls (issue 9). Request fields are
optional in the schema, as in ``account_schemas``: the service answers a missing one with its
own message. Ids are numbers or digit strings; dates ``YYYY-MM-DD`` or ``M/D/YYYY``."""

from __future__ import annotations

from typing import Literal

from pydantic import AliasChoices, BaseModel, Field

from hotmeals.api.account_schemas import Id, In, Text

Verdict = Literal["safe", "notice", "acknowledge", "refused"]


# --- requests -----------------------------------------------------------------------------------


class DatesIn(In):
    child_id: Id | None = None
    from_date: Text | None = Field(default=None, description="Default: today (Toronto).")
    to_date: Text | None = Field(default=None, description="Default: eight weeks on.")


class MenuIn(In):
    child_id: Id | None = None
    date: Text | None = Field(
        default=None,
        validation_alias=AliasChoices("date", "meal_date"),
        description="YYYY-MM-DD or M/D/YYYY.",
    )


class MenuDetailIn(In):
    meal_id: Id | None = None
    child_id: Id | None = Field(default=None, description="Marks the allergens for this child.")


# --- answers ------------------------------------------------------------------------------------


class MealDayOut(BaseModel):
    date: str
    menu_day_id: int
    vendor_id: int
    vendor: str
    is_closed: bool
    closed_reason: str
    cutoff_at: str = Field(description="When the day stops taking orders (ISO, UTC).")
    is_open: bool = Field(description="Not closed and before the cut-off.")
    ordered_quantity: int = Field(description="Meals already ordered (paid) for the child.")
    cart_quantity: int = Field(description="Meals for the child in the cart.")


class DatesOut(BaseModel):
    child_id: int
    from_date: str
    to_date: str
    days: list[MealDayOut]


class TierOut(BaseModel):
    min_quantity: int
    unit_price_cents: int
    price: str


class PortionOut(BaseModel):
    id: int
    size: str = Field(description="small ('1 portion') or large ('1 portion + upgrade').")
    label: str
    unit_price_cents: int
    price: str
    tiers: list[TierOut]


class AllergyMarkOut(BaseModel):
    verdict: Verdict = Field(
        description="refused (Major: cannot be added), acknowledge (High/Medium: AddToCart "
        "needs allergy_ack), notice (Low), safe."
    )
    allergens: list[str] = Field(description="The child's allergens this meal contains.")
    message: str


class MenuMealOut(BaseModel):
    menu_day_id: int
    vendor_id: int
    vendor: str
    meal_id: int
    name: str
    description: str
    image: str
    price_from_cents: int
    price_from: str
    portions: list[PortionOut]
    allergens: list[str]
    allergy: AllergyMarkOut
    cutoff_at: str
    is_open: bool


class MenuOut(BaseModel):
    child_id: int
    date: str
    meals: list[MenuMealOut]


class NutritionOut(BaseModel):
    key: str
    label: str
    value: float
    unit: str


class OptionOut(BaseModel):
    id: int
    name: str
    price_cents: int
    price: str


class AddOnOut(BaseModel):
    id: int
    vendor_id: int
    name: str
    price_cents: int
    price: str
    image: str


class MenuDetailOut(BaseModel):
    meal_id: int
    vendor_id: int
    vendor: str
    name: str
    description: str
    image: str
    ingredients: str
    cooking_method: str
    nutrition: list[NutritionOut]
    allergens: list[str]
    allergy: AllergyMarkOut | None
    portions: list[PortionOut]
    menu_options: list[OptionOut]
    meal_options: list[OptionOut]
    addons: list[AddOnOut]
