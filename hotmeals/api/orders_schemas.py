"""Request and answer payloads of the checkout's order calls (``api/orders.py``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from hotmeals.api.account_schemas import In
from hotmeals.api.deps import (
    Id,
    ShortText,
    examples,
)


class AddOrderIn(In):
    model_config = examples(
        {
            "payment_id": 12,
            "ssl_txn_id": "231126AD3-5B1E3C0A-6F52-4C0E-9A43-3D2D8C5C1F11",
        }
    )
    payment_id: Id | None = Field(default=None, description="From getConvergeSessionToken.")
    ssl_txn_id: ShortText | None = Field(
        default=None, description="From the Lightbox's onApproval."
    )
    ssl_token: ShortText | None = Field(
        default=None, description="From onApproval when the payer ticked 'save this card'."
    )


class OrderDeclinedIn(In):
    model_config = examples({"payment_id": 12, "ssl_result_message": "DECLINED"})
    payment_id: Id | None = None
    ssl_result_message: ShortText | None = Field(
        default=None,
        description="From onDeclined (e.g. 'DECLINED'), or what onError / onCancelled said.",
    )


class OrderIdIn(In):
    model_config = examples({"order_id": 7})
    order_id: Id | None = None


class OrderAddOnOut(BaseModel):
    name: str
    price_cents: int
    price: str


class OrderLineOut(BaseModel):
    line_id: int
    meal_id: int
    name: str
    size: str
    size_label: str
    menu_option: str
    meal_option: str
    addons: list[OrderAddOnOut]
    special_note: str
    allergy_ack: str
    quantity: int
    unit_price_cents: int
    line_total_cents: int
    line_total: str
    status: str


class OrderGroupOut(BaseModel):
    child_id: int
    child_name: str
    date: str = Field(description="YYYY-MM-DD")
    day: str = Field(description="The date in the request's language.")
    lines: list[OrderLineOut]


# The head of a paid order's line in an answer: the line, the child, the day, the meal (a base:
# a docstring here would become the answers' description in the OpenAPI document).
class LineHeadOut(BaseModel):
    order_line_id: int
    child_id: int
    child_name: str
    date: str
    day: str
    meal_id: int


class ChargeLineOut(BaseModel):
    name: str
    label: str
    cents: int = Field(description="Negative for the discount.")
    amount: str


class GivebackOut(BaseModel):
    school_cents: int
    nutrition_cents: int
    message: str


class OrderConfirmationOut(BaseModel):
    order_id: int
    number: str
    status: str = Field(
        description="pending_payment, placed, partially_cancelled, cancelled, delivered or "
        "payment_failed."
    )
    status_label: str
    created_at: str
    placed_at: str | None
    promo_code: str | None
    groups: list[OrderGroupOut] = Field(description="By child, then date.")
    meal_count: int
    charges: dict[str, int] = Field(description="The charges of docs/product.md §3, in cents.")
    charge_lines: list[ChargeLineOut]
    giveback: GivebackOut
    total_pay_cents: int
    total_pay: str
    credit_cents: int = Field(
        default=0,
        description="Of the total, what family credit paid (charge_lines then end with "
        "family_credit and card_pay).",
    )


class AddOrderOut(BaseModel):
    status: str = Field(description="placed, declined, pending or voided.")
    order_id: int
    order_number: str
    payment_id: int
    total_pay_cents: int
    total_pay: str
    order: OrderConfirmationOut | None = Field(
        default=None, description="The confirmation (lines by child and date, charges)."
    )
