"""/api/v1 order calls of the checkout (issue 9; docs/product.md §7 ``order/AddOrder``, plus
the extensions ``OrderDeclined`` and ``OrderConfirmation`` documented in docs/api.md "Orders").

The order and its payment are written by ``order/getConvergeSessionToken`` with
``"purpose": "order"`` (``api/payments.py``); after the Lightbox closes, ``AddOrder``
(onApproval) or ``OrderDeclined`` (onDeclined, onError, onCancelled). Every rule is in
``services.ordering.checkout``, which the `/payment` screen calls too. Every call needs a parent
token (401); another parent's payment or order is "not found".
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from hotmeals.api.account_schemas import FAILURES, Envelope
from hotmeals.api.deps import (
    EnvelopeRoute,
    ParentClient,
    charge_once,
    idempotency_key,
    openapi_body,
    parent_context,
    parse_body,
    run,
)
from hotmeals.api.envelope import fail, ok
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.i18n import t
from hotmeals.services.ordering import checkout, confirmation, settle

router = APIRouter(prefix="/api/v1", route_class=EnvelopeRoute, responses=FAILURES)
ORDERS = ["Parent orders"]

Id = Annotated[int, Field(ge=1, le=2**31 - 1)]
Text = Annotated[str, Field(max_length=200)]


class In(BaseModel):
    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True)


class AddOrderIn(In):
    model_config = ConfigDict(
        extra="ignore",
        coerce_numbers_to_str=True,
        json_schema_extra={
            "examples": [
                {
                    "payment_id": 12,
                    "ssl_txn_id": "231126AD3-5B1E3C0A-6F52-4C0E-9A43-3D2D8C5C1F11",
                }
            ]
        },
    )
    payment_id: Id | None = Field(default=None, description="From getConvergeSessionToken.")
    ssl_txn_id: Text | None = Field(default=None, description="From the Lightbox's onApproval.")
    ssl_token: Text | None = Field(
        default=None, description="From onApproval when the payer ticked 'save this card'."
    )


class OrderDeclinedIn(In):
    model_config = ConfigDict(
        extra="ignore",
        coerce_numbers_to_str=True,
        json_schema_extra={"examples": [{"payment_id": 12, "ssl_result_message": "DECLINED"}]},
    )
    payment_id: Id | None = None
    ssl_result_message: Text | None = Field(
        default=None,
        description="From onDeclined (e.g. 'DECLINED'), or what onError / onCancelled said.",
    )


class OrderIdIn(In):
    model_config = ConfigDict(
        extra="ignore",
        coerce_numbers_to_str=True,
        json_schema_extra={"examples": [{"order_id": 7}]},
    )
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


async def _answer(who: ParentClient, result: settle.CheckoutResult):
    order = await run(
        confirmation.order_confirmation,
        parent_id=who.parent_id,
        order_id=result.order_id,
        lang=who.lang,
    )
    data = {
        "status": result.status,
        "order_id": result.order_id,
        "order_number": result.order_number,
        "payment_id": result.payment_id,
        "total_pay_cents": result.total_pay_cents,
        "total_pay": format_money(result.total_pay_cents, who.lang),
        "order": order,
    }
    if result.status == settle.PLACED:
        return ok(data, result.message)
    return fail(result.message, data=data)


@router.post(
    "/Parent/order/AddOrder",
    tags=ORDERS,
    summary="After onApproval: Converge confirms the sale and the cart becomes the order",
    openapi_extra=openapi_body(AddOrderIn),
    response_model=Envelope[AddOrderOut],
)
async def add_order(
    request: Request,
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, AddOrderIn, who.lang)
    if body.payment_id is None:
        raise DomainError("payment_not_found", field="payment_id")

    async def place():
        result = await checkout.complete_checkout(
            parent_id=who.parent_id,
            payment_id=body.payment_id,
            txn_id=body.ssl_txn_id or "",
            card_token=body.ssl_token or None,
            lang=who.lang,
        )
        return await _answer(who, result)

    # Repeat-safe by the payment and its sale already; with an Idempotency-Key a repeat
    # also gets the first answer word for word (issue 21).
    return await charge_once(who, key, "add_order", place)


@router.post(
    "/Parent/order/OrderDeclined",
    tags=ORDERS,
    summary="After onDeclined / onError / onCancelled: the attempt fails, the cart stays",
    openapi_extra=openapi_body(OrderDeclinedIn),
    response_model=Envelope[AddOrderOut],
)
async def order_declined(request: Request, who: ParentClient = Depends(parent_context)):
    body = await parse_body(request, OrderDeclinedIn, who.lang)
    if body.payment_id is None:
        raise DomainError("payment_not_found", field="payment_id")
    # Only a hint: the service asks Converge before believing it (issue 21).
    result = await checkout.checkout_declined(
        parent_id=who.parent_id,
        payment_id=body.payment_id,
        message=body.ssl_result_message or "DECLINED",
        lang=who.lang,
    )
    return await _answer(who, result)


@router.post(
    "/Parent/order/OrderConfirmation",
    tags=ORDERS,
    summary="One of the parent's orders as the confirmation screen shows it",
    openapi_extra=openapi_body(OrderIdIn),
    response_model=Envelope[OrderConfirmationOut],
)
async def order_confirmation(request: Request, who: ParentClient = Depends(parent_context)):
    body = await parse_body(request, OrderIdIn, who.lang)
    if body.order_id is None:
        raise DomainError("payment_order_not_found", field="order_id")
    order = await run(
        confirmation.order_confirmation,
        parent_id=who.parent_id,
        order_id=body.order_id,
        lang=who.lang,
    )
    return ok(order, t("success", who.lang))
