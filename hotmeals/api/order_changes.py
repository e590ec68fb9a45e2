"""/api/v1 calls that change a paid order: modify an order (AddToMyOrder,
DeleteFromModifyOrder, ModifyOrderInfo, ModifyConfirmOrder) and manage one meal (GetMealsList,
MealOrderDetail, GetDatesForModifyMeal, ModifyMeal), plus two extensions for a change paid
through the Lightbox (ModifyChangePaid after ``onApproval``, ModifyChangeDeclined after
``onDeclined`` / ``onError`` / ``onCancelled``).

Thin callers of ``hotmeals.services.ordering`` (modify, move) (the screens call the same functions).
Every call needs a parent token (401); another parent's order or line is "not found". Draft
edits go through ``services.submissions.submit_once`` with the ``Idempotency-Key`` header;
ModifyConfirmOrder and ModifyMeal are repeat-safe by their request key (the ``Idempotency-Key``
header, or ``request_key`` in the body): the same key changes, charges or refunds once, and a
repeat answers what was done.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends

from hotmeals.api.bodies import meal_choice, openapi_body
from hotmeals.api.deps import (
    CurrentParent,
    ParentWriting,
    answer,
    answered,
    api_router,
    json_body,
    payment_of,
    request_key,
    required,
    tags,
)
from hotmeals.api.envelope import Envelope, ok
from hotmeals.api.order_changes_present import (
    change_out,
    meal_out,
    modify_info_out,
    move_dates_out,
)
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
from hotmeals.services import submissions
from hotmeals.services.ordering.changing import modify, move
from hotmeals.services.ordering.changing.change_result import ChangeResult
from hotmeals.services.transaction import run_in_transaction

router = api_router()
CHANGES = tags("Parent orders: modify an order, move a meal")


def _changed(result: ChangeResult, lang: str) -> dict[str, Any]:
    """A change's answer, with its own message."""
    data = change_out(result, lang)
    return ok(data, data["message"])


def _line_id(body: Any) -> int:
    """The body's order line, or the refusal of a body without it."""
    return required(body.order_line_id, "order_change_line_not_found", "order_line_id")


def _order_id(body: Any) -> int:
    """The body's order, or the refusal of a body without it."""
    return required(body.order_id, "order_change_order_not_found", "order_id")


# -- manage one meal ------------------------------------------------------------------------


@router.post(
    "/Parent/order/GetMealsList",
    tags=CHANGES,
    summary="The parent's upcoming meals, one per active order line",
    response_model=Envelope[list[MealOut]],
    openapi_extra=openapi_body(MealsListIn),
)
async def get_meals_list(
    who: CurrentParent, body: Annotated[MealsListIn, Depends(json_body(MealsListIn))]
) -> Any:
    meals = await run_in_transaction(
        move.get_meals_list, parent_id=who.parent_id, lang=who.lang, child_id=body.child_id
    )
    return answer([meal_out(meal, who.lang) for meal in meals], who.lang)


@router.post(
    "/Parent/order/MealOrderDetail",
    tags=CHANGES,
    summary="One of the parent's meals",
    response_model=Envelope[MealOut],
    openapi_extra=openapi_body(LineIdIn),
)
async def meal_order_detail(
    who: CurrentParent, body: Annotated[LineIdIn, Depends(json_body(LineIdIn))]
) -> Any:
    meal = await run_in_transaction(
        move.meal_order_detail,
        parent_id=who.parent_id,
        lang=who.lang,
        order_line_id=_line_id(body),
    )
    return answer(meal_out(meal, who.lang), who.lang)


@router.post(
    "/Parent/order/GetDatesForModifyMeal",
    tags=CHANGES,
    summary="The dates a meal can move to (same vendor, open, both cut-offs ahead)",
    response_model=Envelope[MealDatesOut],
    openapi_extra=openapi_body(LineIdIn),
)
async def get_dates_for_modify_meal(
    who: CurrentParent, body: Annotated[LineIdIn, Depends(json_body(LineIdIn))]
) -> Any:
    found = await run_in_transaction(
        move.get_dates_for_modify_meal,
        parent_id=who.parent_id,
        lang=who.lang,
        order_line_id=_line_id(body),
    )
    return answer(move_dates_out(found, who.lang), who.lang)


@router.post(
    "/Parent/order/ModifyMeal",
    tags=CHANGES,
    summary="Move one meal to another date; a price difference is refunded or paid",
    response_model=Envelope[ChangeOut],
    openapi_extra=openapi_body(ModifyMealIn),
)
async def modify_meal(
    who: ParentWriting, body: Annotated[ModifyMealIn, Depends(json_body(ModifyMealIn))]
) -> Any:
    result = await move.modify_meal(
        parent_id=who.parent_id,
        order_line_id=_line_id(body),
        new_date=body.date or "",
        request_key=request_key(who.key, body.request_key),
        card_id=body.card_id,
        save_card=body.save_card,
        refund_to=body.refund_to or "",
        lang=who.lang,
    )
    return _changed(result, who.lang)


# -- modify an order ------------------------------------------------------------------------


@router.post(
    "/Parent/order/ModifyOrderInfo",
    tags=CHANGES,
    summary="The order, the meals the modification adds and removes, and the difference",
    response_model=Envelope[ModifyInfoOut],
    openapi_extra=openapi_body(OrderIdIn),
)
async def modify_order_info(
    who: CurrentParent, body: Annotated[OrderIdIn, Depends(json_body(OrderIdIn))]
) -> Any:
    info = await run_in_transaction(
        modify.modify_order_info,
        parent_id=who.parent_id,
        order_id=_order_id(body),
        lang=who.lang,
    )
    data = modify_info_out(info, who.lang)
    return ok(data, data["message"])


@router.post(
    "/Parent/order/AddToMyOrder",
    tags=CHANGES,
    summary="Add a meal to the order's modification (the booking's rules); answers the difference",
    response_model=Envelope[ModifyInfoOut],
    openapi_extra=openapi_body(AddToMyOrderIn),
)
async def add_to_my_order(
    who: ParentWriting, body: Annotated[AddToMyOrderIn, Depends(json_body(AddToMyOrderIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="add_to_my_order",
        fn=modify.add_to_my_order,
        present=lambda info: modify_info_out(info, who.lang),
        order_id=_order_id(body),
        quantity=1 if body.quantity is None else body.quantity,
        lang=who.lang,
        **meal_choice(body),
    )
    return answered(done, who.lang)


@router.post(
    "/Parent/order/DeleteFromModifyOrder",
    tags=CHANGES,
    summary="Remove meals of an order line (before its cut-off), or take back a step",
    response_model=Envelope[ModifyInfoOut],
    openapi_extra=openapi_body(DeleteFromModifyOrderIn),
)
async def delete_from_modify_order(
    who: ParentWriting,
    body: Annotated[DeleteFromModifyOrderIn, Depends(json_body(DeleteFromModifyOrderIn))],
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="delete_from_modify_order",
        fn=modify.delete_from_modify_order,
        present=lambda info: modify_info_out(info, who.lang),
        order_id=_order_id(body),
        order_line_id=body.order_line_id or 0,
        quantity=body.quantity,
        change_line_id=body.change_line_id,
        lang=who.lang,
    )
    return answered(done, who.lang)


@router.post(
    "/Parent/order/ModifyConfirmOrder",
    tags=CHANGES,
    summary="Confirm the modification: a decrease is refunded, an increase paid first",
    response_model=Envelope[ChangeOut],
    openapi_extra=openapi_body(ConfirmIn),
)
async def modify_confirm_order(
    who: ParentWriting, body: Annotated[ConfirmIn, Depends(json_body(ConfirmIn))]
) -> Any:
    result = await modify.modify_confirm_order(
        parent_id=who.parent_id,
        order_id=_order_id(body),
        request_key=request_key(who.key, body.request_key),
        card_id=body.card_id,
        save_card=body.save_card,
        refund_to=body.refund_to or "",
        lang=who.lang,
    )
    return _changed(result, who.lang)


@router.post(
    "/Parent/order/ModifyChangePaid",
    tags=CHANGES,
    summary="(extension) After the Lightbox's onApproval for a change: confirm and apply it",
    response_model=Envelope[ChangeOut],
    openapi_extra=openapi_body(ChangePaidIn),
)
async def modify_change_paid(
    who: CurrentParent, body: Annotated[ChangePaidIn, Depends(json_body(ChangePaidIn))]
) -> Any:
    result = await modify.complete_change_payment(
        parent_id=who.parent_id,
        payment_id=payment_of(body),
        txn_id=required(body.ssl_txn_id, "payment_not_found", "ssl_txn_id"),
    )
    return _changed(result, who.lang)


@router.post(
    "/Parent/order/ModifyChangeDeclined",
    tags=CHANGES,
    summary="(extension) The Lightbox declined or was closed: nothing changes",
    response_model=Envelope[ChangeOut],
    openapi_extra=openapi_body(ChangeDeclinedIn),
)
async def modify_change_declined(
    who: CurrentParent, body: Annotated[ChangeDeclinedIn, Depends(json_body(ChangeDeclinedIn))]
) -> Any:
    result = await modify.change_payment_declined(
        parent_id=who.parent_id,
        payment_id=payment_of(body),
        message=body.ssl_result_message or "DECLINED",
    )
    return _changed(result, who.lang)
