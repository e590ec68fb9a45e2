"""/api/v1 calls after the purchase: order history and details, the cancel cart,
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

import uuid
from collections.abc import Callable
from typing import Any

from fastapi.responses import JSONResponse

from hotmeals.api.calls import Get, Listing, Once, Post, ReadFor, declare_all, handler
from hotmeals.api.deps import (
    ParentClient,
    ParentWrite,
    api_router,
    parent_context,
    request_key,
    required,
    tags,
)
from hotmeals.api.envelope import ok
from hotmeals.api.orders_after_schemas import (
    AddToCancelCartIn,
    CancelCartCountOut,
    CancelCartDetailsOut,
    CancelCartIdIn,
    CancelCartIn,
    CancelCartItemOut,
    CancelCartQuantityIn,
    CancelMealIn,
    CancelOrderIn,
    CancelOut,
    DetailOut,
    HistoryIn,
    HistoryOut,
    OrderIdIn,
    ReasonFields,
    ReasonOut,
)
from hotmeals.domain.money import format_money
from hotmeals.i18n import t
from hotmeals.services.ordering import queries
from hotmeals.services.ordering.cancelling import cancel_cart as cancel_cart_service
from hotmeals.services.ordering.cancelling import cancel_order as cancel_service
from hotmeals.services.transaction import run_in_transaction

router = api_router()
ORDERS = tags("Parent orders: history and cancellations")


def _order_id(body: Any) -> int:
    return required(body.order_id, "order_not_found", "order_id")


def _order_line_id(body: Any) -> int:
    return required(body.order_line_id, "order_line_not_found", "order_line_id")


async def _with_its_message(
    who: ParentClient, fn: Callable[..., Any], /, **kwargs: Any
) -> JSONResponse:
    """``fn`` for the parent, answered with its own message ("success" when it has none)."""
    data = await run_in_transaction(fn, parent_id=who.parent_id, lang=who.lang, **kwargs)
    return ok(data, data["message"] or t("success", who.lang))


def cancel_fields(who: ParentWrite, body: ReasonFields) -> dict[str, Any]:
    """What every cancel sends its service: the parent, the reason, the language, the key and
    where the refund goes (``refund_to``: card or credit; None: the family's choice), checked
    with the cancels' own refusal. Without a key, CancelOrder and CancelMeal are repeat-safe
    by their natural key (the same lines of the same order just cancelled answer that cancel;
    ``cancel_service.NATURAL_REPEAT_WINDOW``)."""
    return {
        "parent_id": who.parent_id,
        "reason_id": body.reason_id,
        "other_text": body.other_text,
        "request_key": request_key(who.key, body.request_key, invalid="cancel_request_key_invalid"),
        "lang": who.lang,
        "refund_to": body.refund_to,
    }


async def _answer(who: ParentClient, result: cancel_service.CancelResult) -> Any:
    count = await run_in_transaction(cancel_cart_service.cancel_cart_count, parent_id=who.parent_id)
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
        "refund_to": "credit" if result.credit_cents > 0 else "card",
        "credit_cents": result.credit_cents,
        "credit": format_money(result.credit_cents, who.lang),
    }
    return ok(data, f"{result.title}. {result.message}")


async def cancel_order(who: ParentWrite, body: CancelOrderIn) -> JSONResponse:
    result = await cancel_service.cancel_order(order_id=_order_id(body), **cancel_fields(who, body))
    return await _answer(who, result)


async def cancel_meal(who: ParentWrite, body: CancelMealIn) -> JSONResponse:
    result = await cancel_service.cancel_meal(
        order_line_id=_order_line_id(body), quantity=body.quantity, **cancel_fields(who, body)
    )
    return await _answer(who, result)


async def cancel_cart(who: ParentWrite, body: CancelCartIn) -> JSONResponse:
    fields = cancel_fields(who, body)
    # No key: a fresh one (the confirmed cancel cart is emptied, so a repeat finds nothing).
    fields["request_key"] = fields["request_key"] or f"api-{uuid.uuid4().hex}"
    result = await cancel_cart_service.confirm_cancel_cart(**fields)
    return await _answer(who, result)


async def order_history(who: ParentClient, body: HistoryIn) -> JSONResponse:
    return await _with_its_message(who, queries.order_history, tab=body.tab)


async def cancel_cart_details(who: ParentClient) -> JSONResponse:
    return await _with_its_message(who, cancel_cart_service.cancel_cart_details)


declare_all(
    router,
    ORDERS,
    [
        # -- reads ---------------------------------------------------------------------------
        Post(
            "/Parent/order/OrderHistory",
            handler(order_history),
            answer=HistoryOut,
            summary="The parent's paid orders, future or past",
        ),
        Post(
            "/Parent/order/OrderDetail",
            ReadFor("order_detail", queries.order_detail, required={"order_id": "order_not_found"}),
            body=OrderIdIn,
            answer=DetailOut,
            summary="One paid order: lines and their state, charges, total refund and each refund",
        ),
        Get(
            "/Parent/order/CancelOrderReason",
            Listing(
                "cancel_order_reason", cancel_service.cancel_reasons, lang=True, who=parent_context
            ),
            answer=list[ReasonOut],
            summary="The cancel reasons, with Other (free text)",
        ),
        Post(
            "/Parent/cart/CancelCartDetails",
            handler(cancel_cart_details),
            answer=CancelCartDetailsOut,
            summary="The cancel cart by order, with the refund each order would get",
        ),
        # -- cancel-cart edits ---------------------------------------------------------------
        Post(
            "/Parent/cart/AddToCancelCart",
            Once(
                "add_to_cancel_cart",
                cancel_cart_service.add_to_cancel_cart,
                message="orders_after.added_to_cancel_cart",
                lang=True,
                required={"order_line_id": "order_line_not_found"},
            ),
            body=AddToCancelCartIn,
            answer=CancelCartItemOut,
            summary="Choose a quantity of a paid meal to cancel (before its cut-off)",
        ),
        Post(
            "/Parent/cart/UpdateCancelCartQuantity",
            Once(
                "update_cancel_cart_quantity",
                cancel_cart_service.update_cancel_cart_quantity,
                action="update_cancel_cart",
                message="orders_after.cancel_cart_updated",
                lang=True,
                required={"cancel_cart_id": "cancel_cart_line_not_found"},
            ),
            body=CancelCartQuantityIn,
            answer=CancelCartItemOut,
            summary="Change a cancel-cart line's quantity",
        ),
        Post(
            "/Parent/cart/DeleteCancelCartItem",
            Once(
                "delete_cancel_cart_item",
                cancel_cart_service.delete_cancel_cart_item,
                action="delete_cancel_cart",
                message="orders_after.cancel_cart_removed",
                required={"cancel_cart_id": "cancel_cart_line_not_found"},
            ),
            body=CancelCartIdIn,
            answer=CancelCartCountOut,
            summary="Remove a line from the cancel cart",
        ),
        # -- cancels (refunds) ---------------------------------------------------------------
        Post(
            "/Parent/order/CancelOrder",
            handler(cancel_order),
            answer=CancelOut,
            summary="Cancel every remaining meal of an order (all before their cut-off) and refund",
        ),
        Post(
            "/Parent/order/CancelMeal",
            handler(cancel_meal),
            answer=CancelOut,
            summary="Cancel one meal (or some of its quantity) before its cut-off and refund",
        ),
        Post(
            "/Parent/order/CancelCart",
            handler(cancel_cart),
            answer=CancelOut,
            summary="Confirm the cancel cart with a reason: one cancel and one refund per order",
        ),
    ],
)
