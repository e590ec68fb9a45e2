"""/api/v1/Parent/menu/*: a child's meal days, the day's menu, one meal, the add-ons.

These are the lunch rush's reads: each checks the token and runs its service in one
transaction on one worker thread (``run_in_transaction(..., parent_token=...)``). A child of
another parent is 'Child not found', like one that does not exist.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Query

from hotmeals.api.bodies import openapi_body
from hotmeals.api.deps import (
    ID_MAX,
    Caller,
    SignedIn,
    answer,
    answer_found,
    api_router,
    json_body,
    tags,
)
from hotmeals.api.envelope import Envelope
from hotmeals.api.menu_present import (
    addon_out,
    child_dates_out,
    day_menu_out,
    meal_detail_out,
)
from hotmeals.api.menu_schemas import (
    AddOnOut,
    DatesIn,
    DatesOut,
    MenuDetailIn,
    MenuDetailOut,
    MenuIn,
    MenuOut,
)
from hotmeals.services import accounts
from hotmeals.services.ordering import days, menu
from hotmeals.services.transaction import run_in_transaction

router = api_router()
MENU = tags("Parent menu")


@router.post(
    "/Parent/menu/GetDates",
    tags=MENU,
    summary="A child's school meal days: open or closed (reason), cut-off, ordered, in cart",
    response_model=Envelope[DatesOut],
    openapi_extra=openapi_body(DatesIn),
)
async def get_dates(who: SignedIn, body: Annotated[DatesIn, Depends(json_body(DatesIn))]) -> Any:
    dates = await run_in_transaction(
        days.get_dates,
        parent_token=who.token,
        lang=who.lang,
        child_id=body.child_id or 0,
        from_date=body.from_date or "",
        to_date=body.to_date or "",
    )
    return answer_found(child_dates_out(dates), who.lang, found=bool(dates.days))


@router.post(
    "/Parent/menu/GetMenu",
    tags=MENU,
    summary="The day's meals for a child's school, each marked for the child's allergies",
    response_model=Envelope[MenuOut],
    openapi_extra=openapi_body(MenuIn),
)
async def get_menu(who: SignedIn, body: Annotated[MenuIn, Depends(json_body(MenuIn))]) -> Any:
    found = await run_in_transaction(
        menu.get_menu,
        parent_token=who.token,
        lang=who.lang,
        child_id=body.child_id or 0,
        date=body.date or "",
    )
    return answer_found(day_menu_out(found, who.lang), who.lang, found=bool(found.meals))


@router.post(
    "/Parent/menu/MenuDetail",
    tags=MENU,
    summary="One meal: nutrition facts, ingredients, allergens, sizes, options, add-ons",
    response_model=Envelope[MenuDetailOut],
    openapi_extra=openapi_body(MenuDetailIn),
)
async def menu_detail(
    who: SignedIn, body: Annotated[MenuDetailIn, Depends(json_body(MenuDetailIn))]
) -> Any:
    meal = await run_in_transaction(
        menu.menu_detail,
        parent_token=who.token,
        lang=who.lang,
        meal_id=body.meal_id or 0,
        child_id=body.child_id,
    )
    return answer(meal_detail_out(meal, who.lang), who.lang)


@router.get(
    "/Parent/menu/AddsOn",
    tags=MENU,
    summary="The active add-ons, of one vendor when vendor_id is given",
    response_model=Envelope[list[AddOnOut]],
)
async def adds_on(
    who: Caller,
    vendor_id: str | None = Query(default=None, max_length=12, description="A vendor's id."),
    child_id: str | None = Query(
        default=None, max_length=12, description="Marks each add-on's allergens for this child."
    ),
) -> Any:
    # Blank: every vendor's; not an id: 0, which the service refuses.
    vendor = _query_id(vendor_id) if vendor_id is not None and vendor_id.strip() else None
    if child_id not in (None, ""):
        # Marked for a child: the parent's own (the token checked in the same transaction);
        # "0" is no child, anything else not an id none of the parent's (0).
        if not who.token:
            raise accounts.Unauthorized()
        addons = await run_in_transaction(
            menu.list_addons,
            parent_token=who.token,
            lang=who.lang,
            vendor_id=vendor,
            child_id=None if child_id == "0" else _query_id(child_id),
        )
    else:
        addons = await run_in_transaction(menu.list_addons, vendor_id=vendor, lang=who.lang)
    return answer_found([addon_out(a, who.lang) for a in addons], who.lang)


def _query_id(text: str) -> int:
    """An id of the query string (digits, spaces around allowed) as a number; 0 when it is
    not one of a row (the services answer 'not found' for 0)."""
    text = text.strip()
    number = int(text) if text.isascii() and text.isdigit() else 0
    return number if number <= ID_MAX else 0
