"""Request and answer payloads of the order history and cancel calls (``api/orders_after.py``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from hotmeals.api.credit_schemas import REFUND_TO_HELP, RefundTo
from hotmeals.api.deps import (
    Id,
    RequestKey,
    example_config,
    examples,
)
from hotmeals.api.orders_schemas import LineHeadOut

Quantity = Annotated[int, Field(ge=1, le=50)]


class HistoryIn(BaseModel):
    model_config = example_config({"tab": "future"})
    tab: Annotated[str, Field(max_length=10)] = Field(
        default="future", description="future (a meal still to come) or past."
    )


class OrderIdIn(BaseModel):
    model_config = example_config({"order_id": 7})
    order_id: Id | None = None


class ReasonFields(BaseModel):
    reason_id: Id | None = Field(default=None, description="From GET order/CancelOrderReason.")
    other_text: Annotated[str, Field(max_length=500)] | None = Field(
        default=None, description="Required with the Other reason."
    )
    request_key: RequestKey | None = Field(
        default=None,
        description="Alternative to the Idempotency-Key header: the same key cancels once.",
    )
    refund_to: RefundTo | None = Field(default=None, description=REFUND_TO_HELP)


class CancelOrderIn(ReasonFields):
    model_config = example_config({"order_id": 7, "reason_id": 2, "request_key": "c-7-1"})
    order_id: Id | None = None


class CancelMealIn(ReasonFields):
    model_config = example_config(
        {"order_line_id": 31, "quantity": 1, "reason_id": 5, "other_text": "Field trip"}
    )
    order_line_id: Id | None = None
    quantity: Quantity | None = Field(default=None, description="Default: all that is left.")


class CancelCartIn(ReasonFields):
    model_config = example_config({"reason_id": 2, "request_key": "cc-1"})


class AddToCancelCartIn(BaseModel):
    model_config = example_config({"order_line_id": 31, "quantity": 1})
    order_line_id: Id | None = None
    quantity: Quantity = 1


class CancelCartIdIn(BaseModel):
    model_config = example_config({"cancel_cart_id": 4})
    cancel_cart_id: Id | None = None


class CancelCartQuantityIn(BaseModel):
    model_config = example_config({"cancel_cart_id": 4, "quantity": 2})
    cancel_cart_id: Id | None = None
    quantity: Quantity | None = None


class HistoryOrderOut(BaseModel):
    order_id: int
    number: str
    status: str
    status_label: str
    delivery_dates: list[str] = Field(description="YYYY-MM-DD, each meal day of the order.")
    delivery_dates_label: list[str]
    ordered_on: str
    ordered_on_label: str
    total_items: int = Field(description="Meals ordered.")
    active_items: int = Field(description="Meals not cancelled.")
    total_pay_cents: int
    total_pay: str
    total_refund_cents: int
    total_refund: str


class HistoryOut(BaseModel):
    model_config = examples(
        {
            "tab": "future",
            "orders": [
                {
                    "order_id": 7,
                    "number": "HM-000007",
                    "status": "placed",
                    "status_label": "Placed",
                    "delivery_dates": ["2026-12-07"],
                    "delivery_dates_label": ["Monday, December 7, 2026"],
                    "ordered_on": "2026-11-23",
                    "ordered_on_label": "Monday, November 23, 2026",
                    "total_items": 2,
                    "active_items": 2,
                    "total_pay_cents": 1243,
                    "total_pay": "$12.43",
                    "total_refund_cents": 0,
                    "total_refund": "$0.00",
                }
            ],
            "message": "",
        }
    )
    tab: str
    orders: list[HistoryOrderOut]
    message: str = Field(description="'No data found' when there is no order.")


class AddOnOut(BaseModel):
    name: str
    price_cents: int
    price: str


class DetailLineOut(LineHeadOut):
    meal_name: str
    size: str
    size_label: str
    menu_option: str
    meal_option: str
    addons: list[AddOnOut]
    special_note: str
    quantity: int
    cancelled_quantity: int
    active_quantity: int
    unit_price_cents: int
    line_total_cents: int
    line_total: str
    state: str = Field(
        description="active, cancelled, moved or delivered (its school's delivery confirmed)."
    )
    state_label: str
    moved_from: str | None
    can_cancel: bool = Field(description="Before its cut-off, not cancelled, not delivered.")
    cutoff_at: str


class ChargeOut(BaseModel):
    name: str
    label: str
    cents: int
    amount: str


class RefundOut(BaseModel):
    refund_id: int
    amount_cents: int
    amount: str
    kind: str = Field(
        description="VOID (before settlement), RETURN, or CREDIT (to family credit, at once)."
    )
    state: str
    state_label: str
    date: str
    date_label: str


class VoidedAttemptOut(BaseModel):
    """A charge that paid for nothing on this order: never in its money."""

    payment_id: int
    amount_cents: int
    amount: str
    refunded_cents: int
    state: str = Field(description="Its void or return: SUCCEEDED, PENDING or FAILED.")
    state_label: str
    date: str
    text: str


class DetailOut(BaseModel):
    model_config = examples(
        {
            "order_id": 7,
            "number": "HM-000007",
            "status": "partially_cancelled",
            "status_label": "Partially cancelled",
            "ordered_on": "2026-11-23",
            "promo_code": None,
            "lines": [],
            "charges": [
                {
                    "name": "total_refund_cents",
                    "label": "Total refund",
                    "cents": 621,
                    "amount": "$6.21",
                }
            ],
            "total_pay_cents": 1243,
            "total_refund_cents": 621,
            "total_refund": "$6.21",
            "refunds": [],
            "voided_attempts": [],
            "can_cancel": True,
        }
    )
    order_id: int
    number: str
    status: str
    status_label: str
    ordered_on: str
    promo_code: str | None
    lines: list[DetailLineOut]
    charges: list[ChargeOut] = Field(description="docs/product.md §3, with the total refund.")
    total_pay_cents: int
    total_refund_cents: int
    total_refund: str
    refunds: list[RefundOut]
    voided_attempts: list[VoidedAttemptOut] = Field(
        default_factory=list,
        description="Charges that did not pay for this order (a second attempt, a duplicate "
        "sale), each with its void: listed apart, never in the total refund.",
    )
    can_cancel: bool


class CancelOut(BaseModel):
    model_config = examples(
        {
            "order_ids": [7],
            "numbers": ["HM-000007"],
            "refund_cents": 621,
            "refund": "$6.21",
            "refunded_cents": 621,
            "pending_cents": 0,
            "statuses": ["partially_cancelled"],
            "repeated": False,
            "title": "Order Cancelled",
            "notice": "A refund of $6.21 will go back to your card. ...",
            "cancel_cart_count": 0,
            "refund_to": "card",
            "credit_cents": 0,
            "credit": "$0.00",
        }
    )
    order_ids: list[int]
    numbers: list[str]
    refund_cents: int = Field(
        description="What this cancel refunds (to the card, or credit_cents of it to credit)."
    )
    refund: str
    refunded_cents: int = Field(description="Confirmed by the card processor already.")
    pending_cents: int = Field(description="Not confirmed yet; finished by the reconciliation.")
    statuses: list[str]
    repeated: bool = Field(description="The same key was used before: nothing more was done.")
    title: str
    notice: str
    cancel_cart_count: int
    refund_to: str = Field(
        description="card, or credit when some of the refund went to family credit."
    )
    credit_cents: int = Field(
        description="Of refund_cents, what went to family credit at once (in refunded_cents)."
    )
    credit: str


class CancelCartItemOut(BaseModel):
    model_config = examples(
        {"cancel_cart_id": 4, "order_line_id": 31, "quantity": 1, "cancel_cart_count": 1}
    )
    cancel_cart_id: int
    order_line_id: int
    quantity: int
    cancel_cart_count: int


class CancelCartCountOut(BaseModel):
    model_config = examples({"cancel_cart_count": 0})
    cancel_cart_count: int


class CancelCartLineOut(BaseModel):
    cancel_cart_id: int
    order_line_id: int
    child_name: str
    date: str
    day: str
    meal_name: str
    size_label: str
    quantity: int
    max_quantity: int
    line_total: str
    cancellable: bool
    reason: str = Field(description="Why it cannot be cancelled (cut-off passed...).")


class CancelCartOrderOut(BaseModel):
    order_id: int
    number: str
    lines: list[CancelCartLineOut]
    refund_cents: int
    refund: str


class CancelCartDetailsOut(BaseModel):
    model_config = examples(
        {
            "orders": [],
            "count": 0,
            "total_refund_cents": 0,
            "total_refund": "$0.00",
            "message": "No data found",
        }
    )
    orders: list[CancelCartOrderOut]
    count: int
    total_refund_cents: int
    total_refund: str
    message: str


class ReasonOut(BaseModel):
    model_config = examples({"reason_id": 5, "code": "other", "label": "Other", "is_other": True})
    reason_id: int
    code: str
    label: str
    is_other: bool
