"""/api/v1 calls that change a paid order: modify an order (AddToMyOrder,
DeleteFromModifyOrder, ModifyOrderInfo, ModifyConfirmOrder) and manage one meal (GetMealsList,
MealOrderDetail, GetDatesForModifyMeal, ModifyMeal), plus two extensions for a change paid
through the Lightbox (ModifyChangePaid after ``onApproval``, ModifyChangeDeclined after
``onDeclined`` / ``onError`` / ``onCancelled``).

Thin callers of ``hotmeals.services.ordering`` (modify, move) (the screens call the same functions).
Every call needs a parent token (401); another parent's order or line is "not found". Draft
edits go through ``run_once`` with the ``Idempotency-Key`` header; ModifyConfirmOrder and
ModifyMeal are repeat-safe by their request key (the ``Idempotency-Key`` header, or
``request_key`` in the body): the same key changes, charges or refunds once, and a repeat
answers what was done.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from hotmeals.api.bodies import meal_choice
from hotmeals.api.calls import Once, Post, ReadFor, declare_all, handler
from hotmeals.api.deps import (
    ParentClient,
    ParentWrite,
    api_router,
    lightbox_declined,
    payment_of,
    request_key,
    required,
    tags,
)
from hotmeals.api.envelope import ok
from hotmeals.api.order_changes_schemas import (
    AddToMyOrderIn,
    ChangeDeclinedIn,
    ChangeOut,
    ChangePaidIn,
    ConfirmIn,
    DeleteFromModifyOrderIn,
    LineIdIn,
    MealDatesOut,
    MealOut,
    MealsListIn,
    ModifyInfoOut,
    ModifyMealIn,
    OrderIdIn,
)
from hotmeals.services.ordering.changing import modify, move
from hotmeals.services.transaction import run_in_transaction

router = api_router()


def _changed(result: modify.ChangeResult) -> JSONResponse:
    """A change's answer, with its own message."""
    data = {
        "status": result.status,
        "order_id": result.order_id,
        "order_number": result.order_number,
        "change_id": result.change_id,
        "difference_cents": result.difference_cents,
        "message": result.message,
        "payment_id": result.payment_id,
        "hosted": result.hosted.to_dict() if result.hosted else None,
        "refund_cents": result.refund_cents,
        "refund_ok": result.refund_ok,
        "credit_cents": result.credit_cents,
    }
    return ok(data, result.message)


def _paid_by(who: ParentWrite, body: ConfirmIn | ModifyMealIn) -> dict[str, Any]:
    """What a change that may refund or charge sends its service: the parent, the request's key,
    the card that pays (saved or not), where a refund goes and the language."""
    return {
        "parent_id": who.parent_id,
        "request_key": request_key(who.key, body.request_key),
        "card_id": body.card_id,
        "save_card": body.save_card,
        "refund_to": body.refund_to,
        "lang": who.lang,
    }


# The refusal of a body without its order line, or without its order (``Call.required``).
LINE = {"order_line_id": "order_change_line_not_found"}
ORDER = {"order_id": "order_change_order_not_found"}


def _line_id(body: Any) -> int:
    return required(body.order_line_id, LINE["order_line_id"], "order_line_id")


def _order_id(body: Any) -> int:
    return required(body.order_id, ORDER["order_id"], "order_id")


def _added(body: AddToMyOrderIn) -> dict[str, Any]:
    return {
        "order_id": body.order_id,
        **meal_choice(body),
        "quantity": 1 if body.quantity is None else body.quantity,
    }


async def modify_meal(who: ParentWrite, body: ModifyMealIn) -> JSONResponse:
    result = await move.modify_meal(
        order_line_id=_line_id(body), new_date=body.date, **_paid_by(who, body)
    )
    return _changed(result)


async def modify_order_info(who: ParentClient, body: OrderIdIn) -> JSONResponse:
    data = await run_in_transaction(
        modify.modify_order_info,
        parent_id=who.parent_id,
        order_id=_order_id(body),
        lang=who.lang,
    )
    return ok(data, data["message"])


async def modify_confirm_order(who: ParentWrite, body: ConfirmIn) -> JSONResponse:
    result = await modify.modify_confirm_order(order_id=_order_id(body), **_paid_by(who, body))
    return _changed(result)


async def modify_change_paid(who: ParentClient, body: ChangePaidIn) -> JSONResponse:
    result = await modify.complete_change_payment(
        parent_id=who.parent_id,
        payment_id=payment_of(body),
        txn_id=required(body.ssl_txn_id, "payment_not_found", "ssl_txn_id"),
        lang=who.lang,
    )
    return _changed(result)


async def modify_change_declined(who: ParentClient, body: ChangeDeclinedIn) -> JSONResponse:
    return _changed(await modify.change_payment_declined(**lightbox_declined(who, body)))


declare_all(
    router,
    tags("Parent orders: modify an order, move a meal"),
    [
        # -- manage one meal -----------------------------------------------------------------
        Post(
            "/Parent/order/GetMealsList",
            ReadFor("get_meals_list", move.get_meals_list),
            body=MealsListIn,
            answer=list[MealOut],
            summary="The parent's upcoming meals, one per active order line",
        ),
        Post(
            "/Parent/order/MealOrderDetail",
            ReadFor("meal_order_detail", move.meal_order_detail, required=LINE),
            body=LineIdIn,
            answer=MealOut,
            summary="One of the parent's meals",
        ),
        Post(
            "/Parent/order/GetDatesForModifyMeal",
            ReadFor("get_dates_for_modify_meal", move.get_dates_for_modify_meal, required=LINE),
            body=LineIdIn,
            answer=MealDatesOut,
            summary="The dates a meal can move to (same vendor, open, both cut-offs ahead)",
        ),
        Post(
            "/Parent/order/ModifyMeal",
            handler(modify_meal),
            answer=ChangeOut,
            summary="Move one meal to another date; a price difference is refunded or paid",
        ),
        # -- modify an order -----------------------------------------------------------------
        Post(
            "/Parent/order/ModifyOrderInfo",
            handler(modify_order_info),
            answer=ModifyInfoOut,
            summary="The order, the meals the modification adds and removes, and the difference",
        ),
        Post(
            "/Parent/order/AddToMyOrder",
            Once(
                "add_to_my_order",
                modify.add_to_my_order,
                lang=True,
                required=ORDER,
                fields=_added,
            ),
            body=AddToMyOrderIn,
            answer=ModifyInfoOut,
            summary="Add a meal to the order's modification (the booking's rules); "
            "answers the difference",
        ),
        Post(
            "/Parent/order/DeleteFromModifyOrder",
            Once(
                "delete_from_modify_order",
                modify.delete_from_modify_order,
                lang=True,
                required=ORDER,
            ),
            body=DeleteFromModifyOrderIn,
            answer=ModifyInfoOut,
            summary="Remove meals of an order line (before its cut-off), or take back a step",
        ),
        Post(
            "/Parent/order/ModifyConfirmOrder",
            handler(modify_confirm_order),
            answer=ChangeOut,
            summary="Confirm the modification: a decrease is refunded, an increase paid first",
        ),
        Post(
            "/Parent/order/ModifyChangePaid",
            handler(modify_change_paid),
            answer=ChangeOut,
            summary="(extension) After the Lightbox's onApproval for a change: "
            "confirm and apply it",
        ),
        Post(
            "/Parent/order/ModifyChangeDeclined",
            handler(modify_change_declined),
            answer=ChangeOut,
            summary="(extension) The Lightbox declined or was closed: nothing changes",
        ),
    ],
)
