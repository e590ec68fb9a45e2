"""/api/v1 order calls of the checkout (docs/product.md §7 ``order/AddOrder``, plus
the extensions ``OrderDeclined`` and ``OrderConfirmation`` documented in docs/api.md "Orders").

The order and its payment are written by ``order/getConvergeSessionToken`` with
``"purpose": "order"`` (``api/payments.py``); after the Lightbox closes, ``AddOrder``
(onApproval) or ``OrderDeclined`` (onDeclined, onError, onCancelled). Every rule is in
``services.ordering.checkout``, which the `/payment` screen calls too. Every call needs a parent
token (401); another parent's payment or order is "not found".
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends

from hotmeals.api.bodies import openapi_body
from hotmeals.api.deps import (
    CurrentParent,
    ParentClient,
    ParentWriting,
    answer,
    api_router,
    charge_once,
    json_body,
    lightbox_declined,
    payment_of,
    required,
    tags,
)
from hotmeals.api.envelope import Envelope, ok_or_fail
from hotmeals.api.orders_present import confirmation_out
from hotmeals.api.orders_schemas import (
    AddOrderIn,
    AddOrderOut,
    OrderConfirmationOut,
    OrderDeclinedIn,
    OrderIdIn,
)
from hotmeals.domain.money import format_money
from hotmeals.services.ordering import checkout, confirmation, settle
from hotmeals.services.transaction import run_in_transaction

router = api_router()
ORDERS = tags("Parent orders")


async def _answer(who: ParentClient, result: settle.CheckoutResult) -> Any:
    order = result.confirmation
    if order is None:  # not read with the outcome (a voided charge, OrderDeclined)
        order = await run_in_transaction(
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
        "order": confirmation_out(order, who.lang),
    }
    return ok_or_fail(result.status == settle.PLACED, data, result.message)


@router.post(
    "/Parent/order/AddOrder",
    tags=ORDERS,
    summary="After onApproval: Converge confirms the sale and the cart becomes the order",
    response_model=Envelope[AddOrderOut],
    openapi_extra=openapi_body(AddOrderIn),
)
async def add_order(
    who: ParentWriting, body: Annotated[AddOrderIn, Depends(json_body(AddOrderIn))]
) -> Any:
    payment_id = payment_of(body)

    async def place() -> Any:
        result = await checkout.complete_checkout(
            parent_id=who.parent_id,
            payment_id=payment_id,
            txn_id=body.ssl_txn_id or "",
            card_token=body.ssl_token or None,
            lang=who.lang,
            confirm=True,  # the answer's confirmation, read with the outcome
        )
        return await _answer(who, result)

    # Repeat-safe by the payment and its sale already; with an Idempotency-Key a repeat
    # also gets the first answer word for word.
    return await charge_once(who, "add_order", place)


@router.post(
    "/Parent/order/OrderDeclined",
    tags=ORDERS,
    summary="After onDeclined / onError / onCancelled: the attempt fails, the cart stays",
    response_model=Envelope[AddOrderOut],
    openapi_extra=openapi_body(OrderDeclinedIn),
)
async def order_declined(
    who: CurrentParent, body: Annotated[OrderDeclinedIn, Depends(json_body(OrderDeclinedIn))]
) -> Any:
    return await _answer(who, await checkout.checkout_declined(**lightbox_declined(who, body)))


@router.post(
    "/Parent/order/OrderConfirmation",
    tags=ORDERS,
    summary="One of the parent's orders as the confirmation screen shows it",
    response_model=Envelope[OrderConfirmationOut],
    openapi_extra=openapi_body(OrderIdIn),
)
async def order_confirmation(
    who: CurrentParent, body: Annotated[OrderIdIn, Depends(json_body(OrderIdIn))]
) -> Any:
    order_id = required(body.order_id, "payment_order_not_found", "order_id")
    order = await run_in_transaction(
        confirmation.order_confirmation, parent_id=who.parent_id, lang=who.lang, order_id=order_id
    )
    return answer(confirmation_out(order, who.lang), who.lang)
