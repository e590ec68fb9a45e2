"""/api/v1 order calls of the checkout (docs/product.md §7 ``order/AddOrder``, plus
the extensions ``OrderDeclined`` and ``OrderConfirmation`` documented in docs/api.md "Orders").

The order and its payment are written by ``order/getConvergeSessionToken`` with
``"purpose": "order"`` (``api/payments.py``); after the Lightbox closes, ``AddOrder``
(onApproval) or ``OrderDeclined`` (onDeclined, onError, onCancelled). Every rule is in
``services.ordering.checkout``, which the `/payment` screen calls too. Every call needs a parent
token (401); another parent's payment or order is "not found".
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from hotmeals.api.calls import Post, ReadFor, declare_all, handler
from hotmeals.api.deps import (
    ParentClient,
    ParentWrite,
    api_router,
    lightbox_declined,
    payment_of,
    tags,
)
from hotmeals.api.envelope import ok_or_fail
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


async def _answer(who: ParentClient, result: settle.CheckoutResult) -> Any:
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
        "order": order,
    }
    return ok_or_fail(result.status == settle.PLACED, data, result.message)


async def add_order(who: ParentWrite, body: AddOrderIn) -> JSONResponse:
    payment_id = payment_of(body)

    async def place() -> Any:
        result = await checkout.complete_checkout(
            parent_id=who.parent_id,
            payment_id=payment_id,
            txn_id=body.ssl_txn_id or "",
            card_token=body.ssl_token or None,
            lang=who.lang,
        )
        return await _answer(who, result)

    # Repeat-safe by the payment and its sale already; with an Idempotency-Key a repeat
    # also gets the first answer word for word.
    return await who.charge_once("add_order", place)


async def order_declined(who: ParentClient, body: OrderDeclinedIn) -> JSONResponse:
    return await _answer(who, await checkout.checkout_declined(**lightbox_declined(who, body)))


declare_all(
    router,
    tags("Parent orders"),
    [
        Post(
            "/Parent/order/AddOrder",
            handler(add_order),
            answer=AddOrderOut,
            summary="After onApproval: Converge confirms the sale and the cart becomes the order",
        ),
        Post(
            "/Parent/order/OrderDeclined",
            handler(order_declined),
            answer=AddOrderOut,
            summary="After onDeclined / onError / onCancelled: the attempt fails, the cart stays",
        ),
        Post(
            "/Parent/order/OrderConfirmation",
            ReadFor(
                "order_confirmation",
                confirmation.order_confirmation,
                required={"order_id": "payment_order_not_found"},
            ),
            body=OrderIdIn,
            answer=OrderConfirmationOut,
            summary="One of the parent's orders as the confirmation screen shows it",
        ),
    ],
)
