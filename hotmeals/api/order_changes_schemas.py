"""Request and answer payloads of the calls that change a paid order (``api/order_changes.py``)."""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, BaseModel, Field

from hotmeals.api.credit_schemas import REFUND_TO_HELP, RefundTo
from hotmeals.api.deps import (
    Id,
    RequestKey,
    ShortText,
    example_config,
    examples,
)
from hotmeals.api.menu_schemas import MealChoiceIn
from hotmeals.api.orders_schemas import ChargeLineOut, LineHeadOut


class MealsListIn(BaseModel):
    model_config = example_config({"child_id": 3})
    child_id: Id | None = Field(default=None, description="Only this child's meals.")


class OrderIdIn(BaseModel):
    model_config = example_config({"order_id": 7})
    order_id: Id | None = None


class LineIdIn(BaseModel):
    model_config = example_config({"order_line_id": 31})
    order_line_id: Id | None = None


# After OrderIdIn's order_id (its base first), the meal choice: its date, add-ons and note
# described and bounded as this call has always declared them.
class AddToMyOrderIn(MealChoiceIn, OrderIdIn):
    model_config = example_config(
        {
            "order_id": 7,
            "child_id": 3,
            "meal_id": 12,
            "date": "2026-12-14",
            "size": "small",
            "quantity": 1,
            "addons": [4],
        }
    )
    date: ShortText | None = Field(
        default=None, validation_alias=AliasChoices("date", "meal_date"), description="Or this."
    )
    addons: list[Id] = Field(
        default_factory=list,
        max_length=10,
        validation_alias=AliasChoices("addons", "addon_ids", "adds_on"),
    )
    # No length here: the service's rule and message (at most 120 characters).
    special_note: str | None = Field(
        default=None, validation_alias=AliasChoices("special_note", "special_message")
    )


class DeleteFromModifyOrderIn(BaseModel):
    model_config = example_config({"order_id": 7, "order_line_id": 31, "quantity": 1})
    order_id: Id | None = None
    order_line_id: Id | None = Field(default=None, description="Remove meals of this line.")
    quantity: int | None = Field(default=None, description="Default: all still active.")
    change_line_id: Id | None = Field(
        default=None, description="Or take back this step of the modification (ModifyOrderInfo)."
    )


class ConfirmIn(BaseModel):
    model_config = example_config({"order_id": 7, "card_id": 2, "request_key": "mod-7-1"})
    order_id: Id | None = None
    card_id: Id | None = Field(
        default=None, description="A saved card to pay an increase with; none: the Lightbox."
    )
    save_card: bool = False
    request_key: RequestKey | None = Field(
        default=None, description="Or the Idempotency-Key header: the same key confirms once."
    )
    refund_to: RefundTo | None = Field(default=None, description=REFUND_TO_HELP)


class ModifyMealIn(BaseModel):
    model_config = example_config(
        {"order_line_id": 31, "date": "2026-12-21", "request_key": "mv-31"}
    )
    order_line_id: Id | None = None
    date: ShortText | None = Field(
        default=None,
        validation_alias=AliasChoices("date", "new_date", "meal_date"),
        description="YYYY-MM-DD, one of GetDatesForModifyMeal's dates.",
    )
    card_id: Id | None = None
    save_card: bool = False
    request_key: RequestKey | None = None
    refund_to: RefundTo | None = Field(default=None, description=REFUND_TO_HELP)


class ChangePaidIn(BaseModel):
    model_config = example_config({"payment_id": 12, "ssl_txn_id": "231126AD3-5B1E3C0A"})
    payment_id: Id | None = None
    ssl_txn_id: ShortText | None = None


class ChangeDeclinedIn(BaseModel):
    model_config = example_config({"payment_id": 12, "ssl_result_message": "DECLINED"})
    payment_id: Id | None = None
    ssl_result_message: ShortText | None = None


class MealOut(BaseModel):
    model_config = examples(
        {
            "order_line_id": 31,
            "order_id": 7,
            "order_number": "HM-000007",
            "child_id": 3,
            "child_name": "Sam Martin",
            "date": "2026-12-14",
            "day": "Monday, December 14, 2026",
            "meal_id": 12,
            "name": "Pasta",
            "size": "small",
            "size_label": "1 portion",
            "quantity": 1,
            "price_cents": 550,
            "price": "$5.50",
            "vendor": "Good Food",
            "status": "active",
            "cutoff_at": "2026-12-13T15:00:00+00:00",
            "can_change": True,
        }
    )
    order_line_id: int
    order_id: int
    order_number: str
    child_id: int
    child_name: str
    date: str
    day: str
    meal_id: int
    name: str
    image: str = ""
    size: str
    size_label: str
    menu_option: str = ""
    meal_option: str = ""
    addons: list[str] = []
    special_note: str = ""
    quantity: int
    price_cents: int
    price: str
    vendor: str
    status: str = Field(description="active, or moved (to this date from moved_from_date).")
    moved_from_date: str | None = None
    cutoff_at: str
    can_change: bool


class MealDateOut(BaseModel):
    date: str
    day: str
    menu_day_id: int
    cutoff_at: str
    meal_served: bool = Field(description="The same meal is on that day's menu (a move needs it).")


class MealDatesOut(BaseModel):
    model_config = examples(
        {
            "order_line_id": 31,
            "date": "2026-12-14",
            "cutoff_at": "2026-12-13T15:00:00+00:00",
            "vendor": "Good Food",
            "dates": [
                {
                    "date": "2026-12-21",
                    "day": "Monday, December 21, 2026",
                    "menu_day_id": 40,
                    "cutoff_at": "2026-12-20T15:00:00+00:00",
                    "meal_served": True,
                }
            ],
        }
    )
    order_line_id: int
    date: str
    cutoff_at: str
    vendor: str
    dates: list[MealDateOut]


class ModifyLineOut(LineHeadOut):
    name: str
    size: str
    quantity: int
    active_quantity: int
    remove_quantity: int
    remove_steps: list[int]
    price_cents: int
    price: str
    status: str
    cutoff_at: str
    can_change: bool


class AddedOut(BaseModel):
    change_line_id: int
    child_id: int | None
    menu_day_id: int | None
    meal_id: int | None
    date: str | None
    name: str
    size: str
    quantity: int
    price_cents: int
    price: str
    ok: bool
    problem: str


class ProblemOut(BaseModel):
    change_line_id: int
    message: str


class ModifyInfoOut(BaseModel):
    model_config = examples(
        {
            "order_id": 7,
            "number": "HM-000007",
            "change_id": 3,
            "lines": [],
            "added": [],
            "problems": [],
            "has_changes": True,
            "paid_cents": 622,
            "refunded_cents": 0,
            "new_total_cents": 1244,
            "difference_cents": 622,
            "to_pay_cents": 622,
            "to_refund_cents": 0,
            "to_pay": "$6.22",
            "to_refund": "$0.00",
            "message": "You will pay $6.22 more.",
            "charges": {"meal_net_cents": 1100, "tax_cents": 144, "total_pay_cents": 1244},
        }
    )
    order_id: int
    number: str
    change_id: int | None
    lines: list[ModifyLineOut]
    added: list[AddedOut]
    problems: list[ProblemOut]
    has_changes: bool
    paid_cents: int
    refunded_cents: int
    new_total_cents: int
    difference_cents: int = Field(description="> 0 to pay, < 0 to refund.")
    to_pay_cents: int
    to_refund_cents: int
    to_pay: str
    to_refund: str
    message: str
    charges: dict[str, Any]
    credit_cents: int = Field(0, description="Of to_pay_cents, what family credit would pay")
    card_cents: int = Field(0, description="Of to_pay_cents, what the card would pay")
    credit_lines: list[ChargeLineOut] = Field(
        default_factory=list,
        description="'Family credit −$x.xx' and 'To pay by card $y.yy' when credit pays some",
    )


class HostedOut(BaseModel):
    payment_id: int
    token: str
    lightbox_url: str
    amount_cents: int
    invoice_number: str
    purpose: str
    transaction_type: str = "ccsale"


class ChangeOut(BaseModel):
    model_config = examples(
        {
            "status": "applied",
            "order_id": 7,
            "order_number": "HM-000007",
            "change_id": 3,
            "difference_cents": -622,
            "message": "Your order HM-000007 is updated. $6.22 is being refunded to your card.",
            "payment_id": None,
            "hosted": None,
            "refund_cents": 622,
            "refund_ok": True,
            "credit_cents": 0,
        }
    )
    status: str = Field(description="applied, pay (open the Lightbox), pending, declined, dropped")
    order_id: int
    order_number: str
    change_id: int
    difference_cents: int
    message: str
    payment_id: int | None = None
    hosted: HostedOut | None = None
    refund_cents: int = 0
    refund_ok: bool = True
    credit_cents: int = Field(
        default=0, description="Of refund_cents, what went to family credit at once."
    )
