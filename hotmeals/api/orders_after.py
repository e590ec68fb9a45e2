"""/api/v1 calls after the purchase (issue 10): order history and details, the cancel cart,
cancel a whole order, cancel one meal, the cancel reasons.

Thin callers of ``hotmeals.services.ordering`` (queries, cancel_cart, cancel_order) (the
order screens call the same functions). Every call needs a parent token (401); another
parent's order, line or cancel-cart line is "No data found". Cancel-cart edits go through
``run_once`` with the ``Idempotency-Key`` header; the cancels themselves (CancelOrder,
CancelMeal, CancelCart) are repeat-safe by their request key: the ``Idempotency-Key`` header
(or ``request_key`` in the body): the same key cancels and refunds once, and a repeat answers
what was done. CancelOrder and CancelMeal sent with neither are repeat-safe by their natural
key (the same lines and quantities of the same order for the same reason, within
``cancel_service.NATURAL_REPEAT_WINDOW`` of the order's last cancel).
"""

from __future__ import annotations

import re
import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from hotmeals.api.account_schemas import FAILURES, Envelope
from hotmeals.api.deps import (
    EnvelopeRoute,
    ParentClient,
    idempotency_key,
    openapi_body,
    parent_context,
    parse_body,
    run,
    run_once,
)
from hotmeals.api.envelope import ok
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.i18n import t
from hotmeals.services.ordering import cancel_cart as cancel_cart_service
from hotmeals.services.ordering import cancel_order as cancel_service
from hotmeals.services.ordering import queries

router = APIRouter(prefix="/api/v1", route_class=EnvelopeRoute, responses=FAILURES)
ORDERS = ["Parent orders: history and cancellations"]

Id = Annotated[int, Field(ge=1, le=2**31 - 1)]
Quantity = Annotated[int, Field(ge=1, le=50)]
KEY = re.compile(r"^[A-Za-z0-9\-_.:]{1,64}$")


def _model(example: dict) -> ConfigDict:
    return ConfigDict(extra="ignore", json_schema_extra={"examples": [example]})


# -- bodies ---------------------------------------------------------------------------------------


class HistoryIn(BaseModel):
    model_config = _model({"tab": "future"})
    tab: Annotated[str, Field(max_length=10)] = Field(
        default="future", description="future (a meal still to come) or past."
    )


class OrderIdIn(BaseModel):
    model_config = _model({"order_id": 7})
    order_id: Id | None = None


class ReasonFields(BaseModel):
    reason_id: Id | None = Field(default=None, description="From GET order/CancelOrderReason.")
    other_text: Annotated[str, Field(max_length=500)] | None = Field(
        default=None, description="Required with the Other reason."
    )
    request_key: Annotated[str, Field(max_length=64)] | None = Field(
        default=None,
        description="Alternative to the Idempotency-Key header: the same key cancels once.",
    )


class CancelOrderIn(ReasonFields):
    model_config = _model({"order_id": 7, "reason_id": 2, "request_key": "c-7-1"})
    order_id: Id | None = None


class CancelMealIn(ReasonFields):
    model_config = _model(
        {"order_line_id": 31, "quantity": 1, "reason_id": 5, "other_text": "Field trip"}
    )
    order_line_id: Id | None = None
    quantity: Quantity | None = Field(default=None, description="Default: all that is left.")


class CancelCartIn(ReasonFields):
    model_config = _model({"reason_id": 2, "request_key": "cc-1"})


class AddToCancelCartIn(BaseModel):
    model_config = _model({"order_line_id": 31, "quantity": 1})
    order_line_id: Id | None = None
    quantity: Quantity = 1


class CancelCartIdIn(BaseModel):
    model_config = _model({"cancel_cart_id": 4})
    cancel_cart_id: Id | None = None


class CancelCartQuantityIn(BaseModel):
    model_config = _model({"cancel_cart_id": 4, "quantity": 2})
    cancel_cart_id: Id | None = None
    quantity: Quantity | None = None


# -- answers --------------------------------------------------------------------------------------


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
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
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
            ]
        }
    )
    tab: str
    orders: list[HistoryOrderOut]
    message: str = Field(description="'No data found' when there is no order.")


class AddOnOut(BaseModel):
    name: str
    price_cents: int
    price: str


class DetailLineOut(BaseModel):
    order_line_id: int
    child_id: int
    child_name: str
    date: str
    day: str
    meal_id: int
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
    state: str = Field(description="active, cancelled or moved.")
    state_label: str
    moved_from: str | None
    can_cancel: bool = Field(description="Before its cut-off and not cancelled.")
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
    kind: str = Field(description="VOID (before settlement) or RETURN.")
    state: str
    state_label: str
    date: str
    date_label: str


class VoidedAttemptOut(BaseModel):
    """A charge that paid for nothing on this order (issue 21): never in its money."""

    payment_id: int
    amount_cents: int
    amount: str
    refunded_cents: int
    state: str = Field(description="Its void or return: SUCCEEDED, PENDING or FAILED.")
    state_label: str
    date: str
    text: str


class DetailOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
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
            ]
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
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
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
                }
            ]
        }
    )
    order_ids: list[int]
    numbers: list[str]
    refund_cents: int = Field(description="What this cancel refunds to the card.")
    refund: str
    refunded_cents: int = Field(description="Confirmed by the card processor already.")
    pending_cents: int = Field(description="Not confirmed yet; finished by the reconciliation.")
    statuses: list[str]
    repeated: bool = Field(description="The same key was used before: nothing more was done.")
    title: str
    notice: str
    cancel_cart_count: int


class CancelCartItemOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"cancel_cart_id": 4, "order_line_id": 31, "quantity": 1, "cancel_cart_count": 1}
            ]
        }
    )
    cancel_cart_id: int
    order_line_id: int
    quantity: int
    cancel_cart_count: int


class CancelCartCountOut(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"cancel_cart_count": 0}]})
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
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "orders": [],
                    "count": 0,
                    "total_refund_cents": 0,
                    "total_refund": "$0.00",
                    "message": "No data found",
                }
            ]
        }
    )
    orders: list[CancelCartOrderOut]
    count: int
    total_refund_cents: int
    total_refund: str
    message: str


class ReasonOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"reason_id": 5, "code": "other", "label": "Other", "is_other": True}]
        }
    )
    reason_id: int
    code: str
    label: str
    is_other: bool


# -- reads ----------------------------------------------------------------------------------------


@router.post(
    "/Parent/order/OrderHistory",
    tags=ORDERS,
    summary="The parent's paid orders, future or past",
    openapi_extra=openapi_body(HistoryIn),
    response_model=Envelope[HistoryOut],
)
async def order_history(request: Request, who: ParentClient = Depends(parent_context)):
    body = await parse_body(request, HistoryIn, who.lang)
    data = await run(queries.order_history, parent_id=who.parent_id, tab=body.tab, lang=who.lang)
    return ok(data, data["message"] or t("success", who.lang))


@router.post(
    "/Parent/order/OrderDetail",
    tags=ORDERS,
    summary="One paid order: lines and their state, charges, total refund and each refund",
    openapi_extra=openapi_body(OrderIdIn),
    response_model=Envelope[DetailOut],
)
async def order_detail(request: Request, who: ParentClient = Depends(parent_context)):
    body = await parse_body(request, OrderIdIn, who.lang)
    if body.order_id is None:
        raise DomainError("order_not_found", field="order_id")
    data = await run(
        queries.order_detail, parent_id=who.parent_id, order_id=body.order_id, lang=who.lang
    )
    return ok(data, t("success", who.lang))


@router.get(
    "/Parent/order/CancelOrderReason",
    tags=ORDERS,
    summary="The cancel reasons, with Other (free text)",
    response_model=Envelope[list[ReasonOut]],
)
async def cancel_order_reason(who: ParentClient = Depends(parent_context)):
    rows = await run(cancel_service.cancel_reasons, lang=who.lang)
    return ok(rows, t("success" if rows else "no_data_found", who.lang))


@router.post(
    "/Parent/cart/CancelCartDetails",
    tags=ORDERS,
    summary="The cancel cart by order, with the refund each order would get",
    response_model=Envelope[CancelCartDetailsOut],
)
async def cancel_cart_details(who: ParentClient = Depends(parent_context)):
    data = await run(
        cancel_cart_service.cancel_cart_details, parent_id=who.parent_id, lang=who.lang
    )
    return ok(data, data["message"] or t("success", who.lang))


# -- cancel-cart edits ----------------------------------------------------------------------------


@router.post(
    "/Parent/cart/AddToCancelCart",
    tags=ORDERS,
    summary="Choose a quantity of a paid meal to cancel (before its cut-off)",
    openapi_extra=openapi_body(AddToCancelCartIn),
    response_model=Envelope[CancelCartItemOut],
)
async def add_to_cancel_cart(
    request: Request,
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, AddToCancelCartIn, who.lang)
    if body.order_line_id is None:
        raise DomainError("order_line_not_found", field="order_line_id")
    done = await run_once(
        who.parent_id,
        key,
        "add_to_cancel_cart",
        cancel_cart_service.add_to_cancel_cart,
        order_line_id=body.order_line_id,
        quantity=body.quantity,
        lang=who.lang,
    )
    return ok(done.result, t("orders_after.added_to_cancel_cart", who.lang))


@router.post(
    "/Parent/cart/UpdateCancelCartQuantity",
    tags=ORDERS,
    summary="Change a cancel-cart line's quantity",
    openapi_extra=openapi_body(CancelCartQuantityIn),
    response_model=Envelope[CancelCartItemOut],
)
async def update_cancel_cart_quantity(
    request: Request,
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, CancelCartQuantityIn, who.lang)
    if body.cancel_cart_id is None:
        raise DomainError("cancel_cart_line_not_found", field="cancel_cart_id")
    done = await run_once(
        who.parent_id,
        key,
        "update_cancel_cart",
        cancel_cart_service.update_cancel_cart_quantity,
        cancel_cart_id=body.cancel_cart_id,
        quantity=body.quantity,
        lang=who.lang,
    )
    return ok(done.result, t("orders_after.cancel_cart_updated", who.lang))


@router.post(
    "/Parent/cart/DeleteCancelCartItem",
    tags=ORDERS,
    summary="Remove a line from the cancel cart",
    openapi_extra=openapi_body(CancelCartIdIn),
    response_model=Envelope[CancelCartCountOut],
)
async def delete_cancel_cart_item(
    request: Request,
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, CancelCartIdIn, who.lang)
    if body.cancel_cart_id is None:
        raise DomainError("cancel_cart_line_not_found", field="cancel_cart_id")
    done = await run_once(
        who.parent_id,
        key,
        "delete_cancel_cart",
        cancel_cart_service.delete_cancel_cart_item,
        cancel_cart_id=body.cancel_cart_id,
    )
    return ok(done.result, t("orders_after.cancel_cart_removed", who.lang))


# -- cancels (refunds) ----------------------------------------------------------------------------


def _request_key(header: str | None, body: ReasonFields) -> str | None:
    """The Idempotency-Key header, else the body's request_key, else None: CancelOrder and
    CancelMeal are then repeat-safe by their natural key (the same lines of the same order
    just cancelled answer that cancel; ``cancel_service.NATURAL_REPEAT_WINDOW``)."""
    for key in (header, body.request_key):
        if key is not None:
            if not KEY.match(key):
                raise DomainError("cancel_request_key_invalid", field="request_key")
            return key
    return None


async def _answer(who: ParentClient, result: cancel_service.CancelResult):
    count = await run(cancel_cart_service.cancel_cart_count, parent_id=who.parent_id)
    data = {
        "order_ids": result.order_ids,
        "numbers": result.numbers,
        "refund_cents": result.refund_cents,
        "refund": format_money(result.refund_cents, who.lang),
        "refunded_cents": result.refunded_cents,
        "pending_cents": result.pending_cents,
        "statuses": result.statuses,
        "repeated": result.repeated,
        "title": result.title,
        "notice": result.message,
        "cancel_cart_count": count,
    }
    return ok(data, f"{result.title}. {result.message}")


@router.post(
    "/Parent/order/CancelOrder",
    tags=ORDERS,
    summary="Cancel every remaining meal of an order (all before their cut-off) and refund",
    openapi_extra=openapi_body(CancelOrderIn),
    response_model=Envelope[CancelOut],
)
async def cancel_order(
    request: Request,
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, CancelOrderIn, who.lang)
    if body.order_id is None:
        raise DomainError("order_not_found", field="order_id")
    result = await cancel_service.cancel_order(
        parent_id=who.parent_id,
        order_id=body.order_id,
        reason_id=body.reason_id,
        other_text=body.other_text,
        request_key=_request_key(key, body),
        lang=who.lang,
    )
    return await _answer(who, result)


@router.post(
    "/Parent/order/CancelMeal",
    tags=ORDERS,
    summary="Cancel one meal (or some of its quantity) before its cut-off and refund",
    openapi_extra=openapi_body(CancelMealIn),
    response_model=Envelope[CancelOut],
)
async def cancel_meal(
    request: Request,
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, CancelMealIn, who.lang)
    if body.order_line_id is None:
        raise DomainError("order_line_not_found", field="order_line_id")
    result = await cancel_service.cancel_meal(
        parent_id=who.parent_id,
        order_line_id=body.order_line_id,
        quantity=body.quantity,
        reason_id=body.reason_id,
        other_text=body.other_text,
        request_key=_request_key(key, body),
        lang=who.lang,
    )
    return await _answer(who, result)


@router.post(
    "/Parent/order/CancelCart",
    tags=ORDERS,
    summary="Confirm the cancel cart with a reason: one cancel and one refund per order",
    openapi_extra=openapi_body(CancelCartIn),
    response_model=Envelope[CancelOut],
)
async def cancel_cart(
    request: Request,
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, CancelCartIn, who.lang)
    result = await cancel_cart_service.confirm_cancel_cart(
        parent_id=who.parent_id,
        reason_id=body.reason_id,
        other_text=body.other_text,
        # No key: a fresh one (the confirmed cancel cart is emptied, so a repeat finds nothing).
        request_key=_request_key(key, body) or f"api-{uuid.uuid4().hex}",
        lang=who.lang,
    )
    return await _answer(who, result)
