"""/api/v1 calls that change a paid order (issue 10): modify an order (AddToMyOrder,
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

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import AliasChoices, BaseModel, ConfigDict, Field

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
from hotmeals.i18n import t
from hotmeals.services.ordering import modify, move

router = APIRouter(prefix="/api/v1", route_class=EnvelopeRoute, responses=FAILURES)
TAGS = ["Parent orders: modify an order, move a meal"]

Id = Annotated[int, Field(ge=1, le=2**31 - 1)]
Text = Annotated[str, Field(max_length=200)]
Key = Annotated[str, Field(max_length=64)]


def _model(example: dict) -> ConfigDict:
    return ConfigDict(extra="ignore", json_schema_extra={"examples": [example]})


# -- bodies ---------------------------------------------------------------------------------------


class MealsListIn(BaseModel):
    model_config = _model({"child_id": 3})
    child_id: Id | None = Field(default=None, description="Only this child's meals.")


class OrderIdIn(BaseModel):
    model_config = _model({"order_id": 7})
    order_id: Id | None = None


class LineIdIn(BaseModel):
    model_config = _model({"order_line_id": 31})
    order_line_id: Id | None = None


class AddToMyOrderIn(BaseModel):
    model_config = _model(
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
    order_id: Id | None = None
    child_id: Id | None = None
    meal_id: Id | None = None
    menu_day_id: Id | None = Field(default=None, description="From GetMenu; or give date.")
    date: Text | None = Field(
        default=None, validation_alias=AliasChoices("date", "meal_date"), description="Or this."
    )
    portion_id: Id | None = Field(default=None, description="Or give size.")
    size: Literal["small", "large"] | None = None
    quantity: int | None = Field(default=None, description="1 to 50 (default 1).")
    menu_option_id: Id | None = None
    meal_option_id: Id | None = None
    addons: list[Id] = Field(
        default_factory=list,
        max_length=10,
        validation_alias=AliasChoices("addons", "addon_ids", "adds_on"),
    )
    # No length here: the service's rule and message (at most 120 characters).
    special_note: str | None = Field(
        default=None, validation_alias=AliasChoices("special_note", "special_message")
    )
    allergy_ack: bool = Field(
        default=False,
        description="The parent acknowledges a High or Medium allergen of the child.",
    )


class DeleteFromModifyOrderIn(BaseModel):
    model_config = _model({"order_id": 7, "order_line_id": 31, "quantity": 1})
    order_id: Id | None = None
    order_line_id: Id | None = Field(default=None, description="Remove meals of this line.")
    quantity: int | None = Field(default=None, description="Default: all still active.")
    change_line_id: Id | None = Field(
        default=None, description="Or take back this step of the modification (ModifyOrderInfo)."
    )


class ConfirmIn(BaseModel):
    model_config = _model({"order_id": 7, "card_id": 2, "request_key": "mod-7-1"})
    order_id: Id | None = None
    card_id: Id | None = Field(
        default=None, description="A saved card to pay an increase with; none: the Lightbox."
    )
    save_card: bool = False
    request_key: Key | None = Field(
        default=None, description="Or the Idempotency-Key header: the same key confirms once."
    )


class ModifyMealIn(BaseModel):
    model_config = _model({"order_line_id": 31, "date": "2026-12-21", "request_key": "mv-31"})
    order_line_id: Id | None = None
    date: Text | None = Field(
        default=None,
        validation_alias=AliasChoices("date", "new_date", "meal_date"),
        description="YYYY-MM-DD, one of GetDatesForModifyMeal's dates.",
    )
    card_id: Id | None = None
    save_card: bool = False
    request_key: Key | None = None


class ChangePaidIn(BaseModel):
    model_config = _model({"payment_id": 12, "ssl_txn_id": "231126AD3-5B1E3C0A"})
    payment_id: Id | None = None
    ssl_txn_id: Text | None = None


class ChangeDeclinedIn(BaseModel):
    model_config = _model({"payment_id": 12, "ssl_result_message": "DECLINED"})
    payment_id: Id | None = None
    ssl_result_message: Text | None = None


# -- answers --------------------------------------------------------------------------------------


class MealOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
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
            ]
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
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
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
            ]
        }
    )
    order_line_id: int
    date: str
    cutoff_at: str
    vendor: str
    dates: list[MealDateOut]


class ModifyLineOut(BaseModel):
    order_line_id: int
    child_id: int
    child_name: str
    date: str
    day: str
    meal_id: int
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
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
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
            ]
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


class HostedOut(BaseModel):
    payment_id: int
    token: str
    lightbox_url: str
    amount_cents: int
    invoice_number: str
    purpose: str
    transaction_type: str = "ccsale"


class ChangeOut(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "status": "applied",
                    "order_id": 7,
                    "order_number": "HM-000007",
                    "change_id": 3,
                    "difference_cents": -622,
                    "message": "Your order HM-000007 is updated. $6.22 is being refunded to "
                    "your card.",
                    "payment_id": None,
                    "hosted": None,
                    "refund_cents": 622,
                    "refund_ok": True,
                }
            ]
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


def _change(result: modify.ChangeResult) -> dict:
    return {
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
    }


def _key(header: str | None, body: Any) -> str | None:
    return header or getattr(body, "request_key", None) or None


def _required(value: Any, code: str, field: str) -> Any:
    if value is None:
        raise DomainError(code, field=field)
    return value


# -- manage one meal ------------------------------------------------------------------------------


@router.post(
    "/Parent/order/GetMealsList",
    tags=TAGS,
    summary="The parent's upcoming meals, one per active order line",
    openapi_extra=openapi_body(MealsListIn),
    response_model=Envelope[list[MealOut]],
)
async def get_meals_list(request: Request, who: ParentClient = Depends(parent_context)):
    body = await parse_body(request, MealsListIn, who.lang)
    data = await run(
        move.get_meals_list, parent_id=who.parent_id, child_id=body.child_id, lang=who.lang
    )
    return ok(data, t("success", who.lang))


@router.post(
    "/Parent/order/MealOrderDetail",
    tags=TAGS,
    summary="One of the parent's meals",
    openapi_extra=openapi_body(LineIdIn),
    response_model=Envelope[MealOut],
)
async def meal_order_detail(request: Request, who: ParentClient = Depends(parent_context)):
    body = await parse_body(request, LineIdIn, who.lang)
    data = await run(
        move.meal_order_detail,
        parent_id=who.parent_id,
        order_line_id=_required(body.order_line_id, "order_change_line_not_found", "order_line_id"),
        lang=who.lang,
    )
    return ok(data, t("success", who.lang))


@router.post(
    "/Parent/order/GetDatesForModifyMeal",
    tags=TAGS,
    summary="The dates a meal can move to (same vendor, open, both cut-offs ahead)",
    openapi_extra=openapi_body(LineIdIn),
    response_model=Envelope[MealDatesOut],
)
async def get_dates_for_modify_meal(request: Request, who: ParentClient = Depends(parent_context)):
    body = await parse_body(request, LineIdIn, who.lang)
    data = await run(
        move.get_dates_for_modify_meal,
        parent_id=who.parent_id,
        order_line_id=_required(body.order_line_id, "order_change_line_not_found", "order_line_id"),
        lang=who.lang,
    )
    return ok(data, t("success", who.lang))


@router.post(
    "/Parent/order/ModifyMeal",
    tags=TAGS,
    summary="Move one meal to another date; a price difference is refunded or paid",
    openapi_extra=openapi_body(ModifyMealIn),
    response_model=Envelope[ChangeOut],
)
async def modify_meal(
    request: Request,
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, ModifyMealIn, who.lang)
    result = await move.modify_meal(
        parent_id=who.parent_id,
        order_line_id=_required(body.order_line_id, "order_change_line_not_found", "order_line_id"),
        new_date=body.date,
        request_key=_key(key, body),
        card_id=body.card_id,
        save_card=body.save_card,
        lang=who.lang,
    )
    return ok(_change(result), result.message)


# -- modify an order ------------------------------------------------------------------------------


@router.post(
    "/Parent/order/ModifyOrderInfo",
    tags=TAGS,
    summary="The order, the meals the modification adds and removes, and the difference",
    openapi_extra=openapi_body(OrderIdIn),
    response_model=Envelope[ModifyInfoOut],
)
async def modify_order_info(request: Request, who: ParentClient = Depends(parent_context)):
    body = await parse_body(request, OrderIdIn, who.lang)
    data = await run(
        modify.modify_order_info,
        parent_id=who.parent_id,
        order_id=_required(body.order_id, "order_change_order_not_found", "order_id"),
        lang=who.lang,
    )
    return ok(data, data["message"])


@router.post(
    "/Parent/order/AddToMyOrder",
    tags=TAGS,
    summary="Add a meal to the order's modification (the booking's rules); answers the difference",
    openapi_extra=openapi_body(AddToMyOrderIn),
    response_model=Envelope[ModifyInfoOut],
)
async def add_to_my_order(
    request: Request,
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, AddToMyOrderIn, who.lang)
    done = await run_once(
        who.parent_id,
        key,
        "add_to_my_order",
        modify.add_to_my_order,
        order_id=_required(body.order_id, "order_change_order_not_found", "order_id"),
        child_id=body.child_id,
        meal_id=body.meal_id,
        menu_day_id=body.menu_day_id,
        date=body.date,
        portion_id=body.portion_id,
        size=body.size,
        quantity=1 if body.quantity is None else body.quantity,
        menu_option_id=body.menu_option_id,
        meal_option_id=body.meal_option_id,
        addons=body.addons,
        special_note_text=body.special_note,
        allergy_ack=body.allergy_ack,
        lang=who.lang,
    )
    return ok(done.result, done.result["message"])


@router.post(
    "/Parent/order/DeleteFromModifyOrder",
    tags=TAGS,
    summary="Remove meals of an order line (before its cut-off), or take back a step",
    openapi_extra=openapi_body(DeleteFromModifyOrderIn),
    response_model=Envelope[ModifyInfoOut],
)
async def delete_from_modify_order(
    request: Request,
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, DeleteFromModifyOrderIn, who.lang)
    done = await run_once(
        who.parent_id,
        key,
        "delete_from_modify_order",
        modify.delete_from_modify_order,
        order_id=_required(body.order_id, "order_change_order_not_found", "order_id"),
        order_line_id=body.order_line_id,
        quantity=body.quantity,
        change_line_id=body.change_line_id,
        lang=who.lang,
    )
    return ok(done.result, done.result["message"])


@router.post(
    "/Parent/order/ModifyConfirmOrder",
    tags=TAGS,
    summary="Confirm the modification: a decrease is refunded, an increase paid first",
    openapi_extra=openapi_body(ConfirmIn),
    response_model=Envelope[ChangeOut],
)
async def modify_confirm_order(
    request: Request,
    who: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, ConfirmIn, who.lang)
    result = await modify.modify_confirm_order(
        parent_id=who.parent_id,
        order_id=_required(body.order_id, "order_change_order_not_found", "order_id"),
        request_key=_key(key, body),
        card_id=body.card_id,
        save_card=body.save_card,
        lang=who.lang,
    )
    return ok(_change(result), result.message)


@router.post(
    "/Parent/order/ModifyChangePaid",
    tags=TAGS,
    summary="(extension) After the Lightbox's onApproval for a change: confirm and apply it",
    openapi_extra=openapi_body(ChangePaidIn),
    response_model=Envelope[ChangeOut],
)
async def modify_change_paid(request: Request, who: ParentClient = Depends(parent_context)):
    body = await parse_body(request, ChangePaidIn, who.lang)
    result = await modify.complete_change_payment(
        parent_id=who.parent_id,
        payment_id=_required(body.payment_id, "payment_not_found", "payment_id"),
        txn_id=_required(body.ssl_txn_id, "payment_not_found", "ssl_txn_id"),
        lang=who.lang,
    )
    return ok(_change(result), result.message)


@router.post(
    "/Parent/order/ModifyChangeDeclined",
    tags=TAGS,
    summary="(extension) The Lightbox declined or was closed: nothing changes",
    openapi_extra=openapi_body(ChangeDeclinedIn),
    response_model=Envelope[ChangeOut],
)
async def modify_change_declined(request: Request, who: ParentClient = Depends(parent_context)):
    body = await parse_body(request, ChangeDeclinedIn, who.lang)
    # Only a hint: the service asks Converge before believing it (issue 21).
    result = await modify.change_payment_declined(
        parent_id=who.parent_id,
        payment_id=_required(body.payment_id, "payment_not_found", "payment_id"),
        message=body.ssl_result_message or "DECLINED",
        lang=who.lang,
    )
    return ok(_change(result), result.message)
