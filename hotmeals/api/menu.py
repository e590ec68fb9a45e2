"""/api/v1/Parent/menu/*: a child's meal days, the day's menu, one meal, the add-ons.

These are the lunch rush's reads: each checks the token and runs its service in one
transaction on one worker thread (``run_as_parent``). A child of another parent is 'Child not
found', like one that does not exist.
"""

from __future__ import annotations

from typing import Any

from fastapi import Depends, Query

from hotmeals.api.calls import ParentListing, ParentRead, Post, declare_all
from hotmeals.api.deps import (
    Client,
    api_router,
    client_context,
    list_as_parent,
    list_of,
    route,
    tags,
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
from hotmeals.services.ordering import days, menu

router = api_router()
MENU = tags("Parent menu")


declare_all(
    router,
    MENU,
    [
        Post(
            "/Parent/menu/GetDates",
            ParentListing("get_dates", days.get_dates, found_in="days"),
            body=DatesIn,
            answer=DatesOut,
            summary="A child's school meal days: open or closed (reason), cut-off, ordered, in "
            "cart",
        ),
        Post(
            "/Parent/menu/GetMenu",
            ParentListing("get_menu", menu.get_menu, found_in="meals"),
            body=MenuIn,
            answer=MenuOut,
            summary="The day's meals for a child's school, each marked for the child's allergies",
        ),
        Post(
            "/Parent/menu/MenuDetail",
            ParentRead("menu_detail", menu.menu_detail),
            body=MenuDetailIn,
            answer=MenuDetailOut,
            summary="One meal: nutrition facts, ingredients, allergens, sizes, options, add-ons",
        ),
    ],
)


@route(
    router.get,
    "/Parent/menu/AddsOn",
    answer=list[AddOnOut],
    tags=MENU,
    summary="The active add-ons, of one vendor when vendor_id is given",
)
async def adds_on(
    client: Client = Depends(client_context),
    vendor_id: str | None = Query(default=None, max_length=12, description="A vendor's id."),
    child_id: str | None = Query(
        default=None, max_length=12, description="Marks each add-on's allergens for this child."
    ),
) -> Any:
    if child_id not in (None, ""):
        return await list_as_parent(
            client, menu.list_addons, vendor_id=vendor_id, child_id=child_id
        )
    return await list_of(client.lang, menu.list_addons, vendor_id=vendor_id, lang=client.lang)
