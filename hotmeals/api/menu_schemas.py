"""Request and answer payloads of the menu and cart calls. Request fields are
optional in the schema, as in ``account_schemas``: the service answers a missing one with its
own message. Ids are numbers or digit strings; dates ``YYYY-MM-DD`` or ``M/D/YYYY``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AliasChoices, BaseModel, Field

from hotmeals.api.account_schemas import Id, In, Text
from hotmeals.api.orders_schemas import ChargeLineOut

Verdict = Literal["safe", "notice", "acknowledge", "refused"]
DietCode = Literal["vegetarian", "vegan", "halal", "no_pork", "no_beef", "gluten_free"]


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
    is_open: bool = Field(description="Not closed, not away and before the cut-off.")
    is_away: bool = Field(
        default=False, description="The child is marked away that day (MarkAway): not bookable."
    )
    away_label: str = Field(default="", description="'Emma is away' on such a day, else ''.")
    ordered_quantity: int = Field(description="Meals already ordered (paid) for the child.")
    cart_quantity: int = Field(description="Meals for the child in the cart.")
    moved_to: str = Field(
        default="",
        description="A closed day whose booked meal the closure moved: the make-up day (ISO).",
    )


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
    allergens: list[str] = Field(description="The child's allergens this item contains.")
    message: str
    levels: list[list[str]] = Field(
        default_factory=list,
        description="[allergen, the child's alert level] of each of the child's allergens "
        "this item contains (Non-allergic included).",
    )


class DietFitOut(BaseModel):
    fits: bool = Field(description="The item meets every dietary need of the child.")
    unmet: list[DietCode] = Field(description="The child's needs it does not meet.")
    message: str = Field(description="What it misses, in the request's language ('' when it fits).")


Marks = Annotated[
    list[DietCode],
    Field(description="Its dietary marks, with the ones they imply (vegan: vegetarian, ...)."),
]
Fit = Annotated[
    DietFitOut | None,
    Field(description="Its fit for the child's dietary needs (null: no child, or no needs)."),
]
Needs = Annotated[list[DietCode], Field(description="The child's dietary needs (may be empty).")]


ExtraKind = Literal["menu_option", "meal_option", "addon"]


class ExtraOut(BaseModel):
    kind: ExtraKind
    id: int
    name: str
    allergens: list[str]
    verdict: Verdict = Field(description="This option's or add-on's verdict for the child.")


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
    allergens: list[str] = Field(description="The meal's own allergens.")
    allergy: AllergyMarkOut = Field(description="The meal's own verdict for the child.")
    extras: list[ExtraOut] = Field(
        description="The meal's options and its vendor's add-ons that carry an allergen."
    )
    extras_allergens: list[str] = Field(description="Every allergen of those extras.")
    in_cart_quantity: int = Field(
        default=0, description="How many of this meal are in the cart for the child that day."
    )
    cutoff_at: str
    is_open: bool
    diets: Marks
    diet: Fit
    safe_for_child: bool = Field(
        description="It fits the child's diet (or the child has none) and contains none of "
        "the child's allergens."
    )


class MenuOut(BaseModel):
    child_id: int
    date: str
    meals: list[MenuMealOut]
    needs: Needs


class NutritionOut(BaseModel):
    key: str
    label: str
    value: float
    unit: str


# An option's or add-on's verdict for the child the request names.
ExtraAllergyOut = Annotated[
    AllergyMarkOut | None,
    Field(description="Its verdict for the child (null when no child_id is given)."),
]


class OptionOut(BaseModel):
    id: int
    name: str
    price_cents: int
    price: str
    allergens: list[str] = Field(description="Every allergen of this option.")
    allergy: ExtraAllergyOut
    diets: Marks
    diet: Fit


class AddOnOut(BaseModel):
    id: int
    vendor_id: int
    name: str
    price_cents: int
    price: str
    image: str
    allergens: list[str] = Field(description="Every allergen of this add-on.")
    allergy: ExtraAllergyOut
    diets: Marks
    diet: Fit


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
    diets: Marks
    diet: Fit = Field(description="The meal alone for the child's needs (null: none).")
    needs: Needs


# --- cart ---------------------------------------------------------------------------------------


class MealChoiceIn(BaseModel):
    """A meal chosen for a child on a day (``bodies.meal_choice`` reads it): AddToCart's body,
    and AddToMyOrder's with the order it goes into."""

    child_id: Id | None = None
    meal_id: Id | None = None
    menu_day_id: Id | None = Field(default=None, description="From GetMenu; or give date.")
    date: Text | None = Field(
        default=None, validation_alias=AliasChoices("date", "meal_date"), description="Or this."
    )
    portion_id: Id | None = Field(default=None, description="Or give size.")
    size: Literal["small", "large"] | None = None
    quantity: int | None = Field(default=None, description="1 to 50 (default 1).")
    menu_option_id: Id | None = None
    meal_option_id: Id | None = None
    addons: list[Id] = Field(
        default_factory=list,
        max_length=10,
        validation_alias=AliasChoices("addons", "addon_ids", "adds_on"),
        description="Add-on ids of the meal's vendor.",
    )
    # No length here: the service refuses a note over 120 characters with its own message
    # ("Special note should not exceed 120 characters"), for this line only in a batch.
    special_note: str | None = Field(
        default=None,
        validation_alias=AliasChoices("special_note", "special_message"),
        description="At most 120 characters; $1 per line, printed on the label.",
    )
    allergy_ack: bool = Field(
        default=False,
        description="The parent acknowledges a High or Medium allergen of the child.",
    )
    diet_ack: bool = Field(
        default=False,
        description="The parent was told the meal as composed does not fit the child's "
        "dietary needs (the refusal's data.field is diet_ack) and wants it anyway.",
    )


# The meal choice, a number sent for a text taken as that text (``In``).
class AddToCartIn(MealChoiceIn, In):
    pass


class PortionIdIn(In):
    portion_id: Id | None = None


class CartIdIn(In):
    cart_id: Id | None = Field(
        default=None, validation_alias=AliasChoices("cart_id", "cart_line_id", "id")
    )


class QuantityIn(CartIdIn):
    quantity: int | None = Field(default=None, description="1 to 50.")


class AddedOut(BaseModel):
    cart_id: int
    child_id: int
    menu_day_id: int
    date: str
    meal_id: int
    portion_id: int
    quantity: int
    unit_price_cents: int
    line_total_cents: int
    line_total: str
    allergy_ack: str | None = Field(description="What the parent acknowledged, if anything.")
    allergy_notice: str = Field(description="A Low allergen's notice, else empty.")
    cart_count: int


class PriceTiersOut(PortionOut):
    meal_id: int


class CartCountOut(BaseModel):
    cart_count: int


class CartAddOnOut(BaseModel):
    id: int
    name: str
    price_cents: int
    price: str


class CartLineAllergyOut(BaseModel):
    verdict: Verdict
    allergens: list[str] = Field(description="The child's allergens in the meal as composed.")
    message: str = Field(
        description="The refusal, the acknowledgement needed or given, the Low notice, or ''."
    )
    levels: list[list[str]] = Field(default_factory=list)


class CartLineOut(BaseModel):
    cart_id: int
    meal_id: int
    menu_day_id: int
    vendor: str
    name: str
    image: str
    portion_id: int
    size: str
    size_label: str
    quantity: int
    menu_option: str
    meal_option: str
    addons: list[CartAddOnOut]
    special_note: str
    allergy_ack: str
    allergy: CartLineAllergyOut | None = Field(
        default=None,
        description="The line's allergy mark for its child now (the meal as composed).",
    )
    unit_price_cents: int
    special_note_fee_cents: int
    line_total_cents: int
    line_total: str
    cutoff_at: str
    payable: bool = Field(
        description="False: flagged (problems say why) and left out of the total."
    )
    problems: list[str]
    diet: Fit = Field(
        description="The line's meal as composed for the child's dietary needs (null: the "
        "child has none); never a problem: it does not stop payment."
    )


class CartGroupOut(BaseModel):
    child_id: int
    child_name: str
    child_first_name: str = ""
    date: str
    lines: list[CartLineOut]


class ChargesOut(BaseModel):
    meal_net_cents: int
    special_note_fees_cents: int
    processing_fee_cents: int
    tax_cents: int
    discount_cents: int
    school_donation_cents: int
    additional_charge_cents: int
    total_pay_cents: int
    total_refund_cents: int


class GivebackOut(BaseModel):
    school_cents: int
    nutrition_cents: int
    message: str


class CartSummaryOut(BaseModel):
    groups: list[CartGroupOut] = Field(description="By child (default first), then date.")
    cart_count: int
    payable_count: int
    meal_count: int
    charges: ChargesOut
    total_pay: str
    giveback: GivebackOut
    promo_code: str | None


class OrderSummaryOut(CartSummaryOut):
    """OrderSummary, CheckOrderSummary and check_promocode: the cart summary with how family
    credit and the card would share its total (credit first)."""

    credit_cents: int = Field(description="What the family's credit would pay of the total.")
    card_cents: int = Field(description="What the card would pay of the total.")
    credit_lines: list[ChargeLineOut] = Field(
        description='"Family credit −$x.xx" and "To pay by card $y.yy" when credit pays some; '
        "empty otherwise."
    )


class SummaryIn(In):
    promo_code: Text | None = Field(
        default=None, validation_alias=AliasChoices("promo_code", "promocode", "code")
    )
    donation_cents: int | None = Field(
        default=None,
        validation_alias=AliasChoices("donation_cents", "school_donation_cents"),
        description="Optional gift with the order, 100 to 50000 cents.",
    )


class PromoIn(In):
    promo_code: Text | None = Field(
        default=None, validation_alias=AliasChoices("promo_code", "promocode", "code")
    )


class PromoOut(BaseModel):
    code: str
    description: str
    kind: Literal["percent", "fixed"]
    percent_bps: int = Field(description="1000 = 10 % off the meal net.")
    amount_off_cents: int
    min_order_cents: int
    min_order: str
    valid_until: str | None
    personal: bool = Field(description="Given to this parent only.")
