"""/api/v1 calls after the purchase: order history and details, the cancel cart,
cancel a whole order, cancel one meal, the cancel reasons.

Thin callers of ``hotmeals.services.ordering`` (queries, cancel_cart, cancel_order) (the
order screens call the same functions). Every call needs a parent token (401); another
parent's order, line or cancel-cart line is "No data found". Cancel-cart edits go through
``services.submissions.submit_once`` with the ``Idempotency-Key`` header; the cancels themselves
(CancelOrder, CancelMeal, CancelCart) are repeat-safe by their request key: the
``Idempotency-Key`` header (or ``request_key`` in the body): the same key cancels and refunds
once, and a repeat answers what was done. CancelOrder and CancelMeal sent with neither are
repeat-safe by their natural key (the same lines and quantities of the same order for the same
reason, within ``cancel_service.NATURAL_REPEAT_WINDOW`` of the order's last cancel).
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import Depends

from hotmeals.api.bodies import openapi_body
from hotmeals.api.deps import (
    CurrentParent,
    ParentClient,
    ParentWrite,
    ParentWriting,
    answer,
    answer_found,
    answered,
    api_router,
    json_body,
    request_key,
    required,
    tags,
)
from hotmeals.api.envelope import Envelope, ok
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
from hotmeals.api.orders_present import (
    cancel_cart_details_out,
    cancel_cart_item_out,
    detail_out,
    history_out,
    reason_out,
)
from hotmeals.domain.money import format_money
from hotmeals.i18n import t
from hotmeals.services import submissions
from hotmeals.services.ordering import queries
from hotmeals.services.ordering.cancelling import cancel_cart as cancel_cart_service
from hotmeals.services.ordering.cancelling import cancel_order as cancel_service
from hotmeals.services.ordering.mails import cancel_notice
from hotmeals.services.transaction import run_in_transaction

router = api_router()
ORDERS = tags("Parent orders: history and cancellations")


def _order_id(body: Any) -> int:
    return required(body.order_id, "order_not_found", "order_id")


def _order_line_id(body: Any) -> int:
    return required(body.order_line_id, "order_line_not_found", "order_line_id")


def cancel_fields(who: ParentWrite, body: ReasonFields) -> dict[str, Any]:
    """What every cancel sends its service: the parent, the reason, the language, the key and
    where the refund goes (``refund_to``: card or credit; None: the family's choice), checked
    with the cancels' own refusal. Without a key, CancelOrder and CancelMeal are repeat-safe
    by their natural key (the same lines of the same order just cancelled answer that cancel;
    ``cancel_service.NATURAL_REPEAT_WINDOW``)."""
    return {
        "parent_id": who.parent_id,
        "reason_id": body.reason_id,
        "other_text": body.other_text or "",
        "request_key": request_key(who.key, body.request_key, invalid="cancel_request_key_invalid"),
        "lang": who.lang,
        "refund_to": body.refund_to or "",
    }


async def _answer(who: ParentClient, result: cancel_service.CancelResult) -> dict[str, Any]:
    count = await run_in_transaction(cancel_cart_service.cancel_cart_count, parent_id=who.parent_id)
    title = t("orders_after.cancelled", who.lang)
    notice = cancel_notice(
        result.refund_cents,
        who.lang,
        credit_cents=result.credit_cents,
        failed_cents=result.failed_cents,
    )
    data = {
        "order_ids": result.order_ids,
        "numbers": result.numbers,
        "refund_cents": result.refund_cents,
        "refund": format_money(result.refund_cents, who.lang),
        "refunded_cents": result.refunded_cents,
        "pending_cents": result.pending_cents,
        "statuses": result.statuses,
        "repeated": result.repeated,
        "title": title,
        "notice": notice,
        "cancel_cart_count": count,
        "refund_to": "credit" if result.credit_cents > 0 else "card",
        "credit_cents": result.credit_cents,
        "credit": format_money(result.credit_cents, who.lang),
    }
    return ok(data, f"{title}. {notice}")


# -- reads ----------------------------------------------------------------------------------


@router.post(
    "/Parent/order/OrderHistory",
    tags=ORDERS,
    summary="The parent's paid orders, future or past",
    response_model=Envelope[HistoryOut],
    openapi_extra=openapi_body(HistoryIn),
)
async def order_history(
    who: CurrentParent, body: Annotated[HistoryIn, Depends(json_body(HistoryIn))]
) -> Any:
    history = await run_in_transaction(
        queries.order_history, parent_id=who.parent_id, lang=who.lang, tab=body.tab
    )
    return answer_found(history_out(history, who.lang), who.lang, found=bool(history.orders))


@router.post(
    "/Parent/order/OrderDetail",
    tags=ORDERS,
    summary="One paid order: lines and their state, charges, total refund and each refund",
    response_model=Envelope[DetailOut],
    openapi_extra=openapi_body(OrderIdIn),
)
async def order_detail(
    who: CurrentParent, body: Annotated[OrderIdIn, Depends(json_body(OrderIdIn))]
) -> Any:
    order = await run_in_transaction(
        queries.order_detail, parent_id=who.parent_id, lang=who.lang, order_id=_order_id(body)
    )
    return answer(detail_out(order, who.lang), who.lang)


@router.get(
    "/Parent/order/CancelOrderReason",
    tags=ORDERS,
    summary="The cancel reasons, with Other (free text)",
    response_model=Envelope[list[ReasonOut]],
)
async def cancel_order_reason(who: CurrentParent) -> Any:
    rows = await run_in_transaction(cancel_service.cancel_reasons)
    return answer_found([reason_out(r, who.lang) for r in rows], who.lang)


@router.post(
    "/Parent/cart/CancelCartDetails",
    tags=ORDERS,
    summary="The cancel cart by order, with the refund each order would get",
    response_model=Envelope[CancelCartDetailsOut],
)
async def cancel_cart_details(who: CurrentParent) -> Any:
    cart = await run_in_transaction(
        cancel_cart_service.cancel_cart_details, parent_id=who.parent_id, lang=who.lang
    )
    return answer_found(cancel_cart_details_out(cart, who.lang), who.lang, found=bool(cart.count))


# -- cancel-cart edits ----------------------------------------------------------------------


@router.post(
    "/Parent/cart/AddToCancelCart",
    tags=ORDERS,
    summary="Choose a quantity of a paid meal to cancel (before its cut-off)",
    response_model=Envelope[CancelCartItemOut],
    openapi_extra=openapi_body(AddToCancelCartIn),
)
async def add_to_cancel_cart(
    who: ParentWriting, body: Annotated[AddToCancelCartIn, Depends(json_body(AddToCancelCartIn))]
) -> Any:
    order_line_id = _order_line_id(body)
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="add_to_cancel_cart",
        fn=cancel_cart_service.add_to_cancel_cart,
        present=cancel_cart_item_out,
        order_line_id=order_line_id,
        quantity=body.quantity,
        lang=who.lang,
    )
    return answered(done, who.lang, "orders_after.added_to_cancel_cart")


@router.post(
    "/Parent/cart/UpdateCancelCartQuantity",
    tags=ORDERS,
    summary="Change a cancel-cart line's quantity",
    response_model=Envelope[CancelCartItemOut],
    openapi_extra=openapi_body(CancelCartQuantityIn),
)
async def update_cancel_cart_quantity(
    who: ParentWriting,
    body: Annotated[CancelCartQuantityIn, Depends(json_body(CancelCartQuantityIn))],
) -> Any:
    cancel_cart_id = required(body.cancel_cart_id, "cancel_cart_line_not_found", "cancel_cart_id")
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="update_cancel_cart",
        fn=cancel_cart_service.update_cancel_cart_quantity,
        present=cancel_cart_item_out,
        cancel_cart_id=cancel_cart_id,
        # none given: 0, refused by the service as any quantity out of range
        quantity=body.quantity or 0,
        lang=who.lang,
    )
    return answered(done, who.lang, "orders_after.cancel_cart_updated")


@router.post(
    "/Parent/cart/DeleteCancelCartItem",
    tags=ORDERS,
    summary="Remove a line from the cancel cart",
    response_model=Envelope[CancelCartCountOut],
    openapi_extra=openapi_body(CancelCartIdIn),
)
async def delete_cancel_cart_item(
    who: ParentWriting, body: Annotated[CancelCartIdIn, Depends(json_body(CancelCartIdIn))]
) -> Any:
    cancel_cart_id = required(body.cancel_cart_id, "cancel_cart_line_not_found", "cancel_cart_id")
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="delete_cancel_cart",
        fn=cancel_cart_service.delete_cancel_cart_item,
        present=lambda count: {"cancel_cart_count": count},
        cancel_cart_id=cancel_cart_id,
    )
    return answered(done, who.lang, "orders_after.cancel_cart_removed")


# -- cancels (refunds) ----------------------------------------------------------------------


@router.post(
    "/Parent/order/CancelOrder",
    tags=ORDERS,
    summary="Cancel every remaining meal of an order (all before their cut-off) and refund",
    response_model=Envelope[CancelOut],
    openapi_extra=openapi_body(CancelOrderIn),
)
async def cancel_order(
    who: ParentWriting, body: Annotated[CancelOrderIn, Depends(json_body(CancelOrderIn))]
) -> Any:
    result = await cancel_service.cancel_order(order_id=_order_id(body), **cancel_fields(who, body))
    return await _answer(who, result)


@router.post(
    "/Parent/order/CancelMeal",
    tags=ORDERS,
    summary="Cancel one meal (or some of its quantity) before its cut-off and refund",
    response_model=Envelope[CancelOut],
    openapi_extra=openapi_body(CancelMealIn),
)
async def cancel_meal(
    who: ParentWriting, body: Annotated[CancelMealIn, Depends(json_body(CancelMealIn))]
) -> Any:
    result = await cancel_service.cancel_meal(
        order_line_id=_order_line_id(body), quantity=body.quantity, **cancel_fields(who, body)
    )
    return await _answer(who, result)


@router.post(
    "/Parent/order/CancelCart",
    tags=ORDERS,
    summary="Confirm the cancel cart with a reason: one cancel and one refund per order",
    response_model=Envelope[CancelOut],
    openapi_extra=openapi_body(CancelCartIn),
)
async def cancel_cart(
    who: ParentWriting, body: Annotated[CancelCartIn, Depends(json_body(CancelCartIn))]
) -> Any:
    fields = cancel_fields(who, body)
    # No key: a fresh one (the confirmed cancel cart is emptied, so a repeat finds nothing).
    fields["request_key"] = fields["request_key"] or f"api-{uuid.uuid4().hex}"
    result = await cancel_cart_service.confirm_cancel_cart(**fields)
    return await _answer(who, result)
