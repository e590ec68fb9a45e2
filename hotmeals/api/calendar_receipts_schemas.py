"""Request and answer payloads of the calendar feed and receipt calls
(``api/calendar_receipts.py``)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from hotmeals.api.deps import examples


class FeedOut(BaseModel):
    model_config = examples(
        {
            "url": "https://meals.example.org/api/v1/calendar/3q2-…-Xw.ics",
            "webcal_url": "webcal://meals.example.org/api/v1/calendar/3q2-…-Xw.ics",
            "created_at": "2026-11-26T01:50:00+00:00",
        }
    )
    url: str
    webcal_url: str
    created_at: str


class RevokedOut(BaseModel):
    revoked: bool


class AmountOut(BaseModel):
    cents: int
    amount: str


class ItemOut(AmountOut):
    label: str


class ChargeOut(AmountOut):
    name: str
    label: str


class LineOut(AmountOut):
    order_line_id: int | None
    meal: str
    size_label: str
    quantity: int
    cancelled_quantity: int
    status: str
    moved_from: str | None
    moved_from_day: str
    special_note: str
    items: list[ItemOut]
    action: str | None = None
    action_label: str | None = None


class DayOut(BaseModel):
    date: str
    day: str
    lines: list[LineOut]


class GroupOut(BaseModel):
    child_id: int
    child_name: str
    days: list[DayOut]


class PaymentOut(AmountOut):
    date: str
    day: str
    card: str
    paid_by: str = Field(
        description="The payment as the receipt prints it: the card with its approval code, "
        "or 'Family credit'."
    )
    approval_code: str
    invoice_number: str


class RefundOut(AmountOut):
    refund_id: int | None
    date: str
    day: str
    state: str
    state_label: str


class ChangeLinkOut(BaseModel):
    change_id: int | None
    label: str


class ReceiptOut(BaseModel):
    model_config = examples(
        {
            "kind": "order",
            "number": "HM-000123",
            "title": "Receipt",
            "date": "2026-11-24",
            "day": "Tuesday, November 24",
            "parent_name": "Sam Parent",
            "parent_email": "parent@example.com",
            "seller": "Hot Meals",
            "seller_email": "support@hotmeals.example",
            "hst_number": "123456789 RT0001",
            "hst_label": "HST registration no. 123456789 RT0001",
            "lang": "en",
            "order_number": "HM-000123",
            "groups": [],
            "charges": [
                {
                    "name": "meal_net_cents",
                    "label": "Meal net amount",
                    "cents": 1450,
                    "amount": "$14.50",
                },
                {
                    "name": "tax_cents",
                    "label": "Tax (HST 13%)",
                    "cents": 189,
                    "amount": "$1.89",
                },
                {
                    "name": "total_pay_cents",
                    "label": "Total paid",
                    "cents": 1639,
                    "amount": "$16.39",
                },
            ],
            "total_cents": 1639,
            "tax_bps": 1300,
            "payments": [],
            "refunds": [],
            "refunded_cents": 0,
            "refunded": "$0.00",
            "net_cents": 1639,
            "net": "$16.39",
            "giveback": [],
            "changes": [],
        }
    )
    kind: str
    number: str
    title: str
    date: str
    day: str
    parent_name: str
    parent_email: str
    seller: str
    seller_email: str
    hst_number: str
    hst_label: str
    lang: str
    order_number: str
    order_id: int | None = None
    status_label: str | None = None
    promo_code: str | None = None
    school: str | None = None
    change_id: int | None = None
    groups: list[GroupOut]
    charges: list[ChargeOut]
    total_cents: int
    tax_bps: int
    payments: list[PaymentOut]
    refunds: list[RefundOut]
    refunded_cents: int
    refunded: str
    net_cents: int
    net: str
    giveback: list[ChargeOut]
    changes: list[ChangeLinkOut]
