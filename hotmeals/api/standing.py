"""/api/v1/Parent/standing/* (extensions): the parent's standing orders,
"every Monday, pizza for Emma, until the end of term" (``services/standing.py``).

List, create, pause, resume and end; another parent's standing order is 'Standing order not
found', exactly as one that does not exist. The writes take an optional ``Idempotency-Key``.
The booking and the payment of each date are the job's (``services/jobs.py``, ``standing``),
never a call's."""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import Depends

from hotmeals.api.bodies import openapi_body
from hotmeals.api.deps import (
    ParentWrite,
    ParentWriting,
    SignedIn,
    answer_found,
    answered,
    api_router,
    json_body,
    tags,
)
from hotmeals.api.envelope import Envelope
from hotmeals.api.standing_schemas import StandingCreateIn, StandingIdIn, StandingOut
from hotmeals.services import standing, submissions
from hotmeals.services.standing import StandingView
from hotmeals.services.transaction import run_in_transaction

router = api_router()
STANDING = tags("Parent standing orders")


def standing_out(view: StandingView, lang: str) -> dict[str, Any]:
    """A standing order as the calls answer it (``StandingOut``), its words in ``lang``."""
    words = standing.wording(view, lang)
    return {
        "id": view.id,
        "child_id": view.child_id,
        "child_name": view.child_name,
        "meal_id": view.meal_id,
        "meal_name": words.meal_name,
        "portion_id": view.portion_id,
        "size": view.size,
        "size_label": words.size_label,
        "weekday": view.weekday,
        "summary": words.summary,
        "starts_on": view.starts_on.isoformat(),
        "ends_on": view.ends_on.isoformat(),
        "ends_label": words.ends_label,
        "status": view.status,
        "status_label": words.status_label,
        "next_date": view.next_date.isoformat() if view.next_date else None,
        "next_label": words.next_label,
        "last_label": words.last_label,
    }


@router.post(
    "/Parent/standing/ListStandingOrders",
    tags=STANDING,
    summary="The parent's standing orders, active and paused first (extension)",
    response_model=Envelope[list[StandingOut]],
)
async def list_standing_orders(who: SignedIn) -> Any:
    rows = await run_in_transaction(standing.listing, parent_token=who.token)
    return answer_found([standing_out(view, who.lang) for view in rows], who.lang)


@router.post(
    "/Parent/standing/CreateStandingOrder",
    tags=STANDING,
    summary="Repeat a meal every week on one weekday until the end of term, of the school year "
    "or a date (extension)",
    response_model=Envelope[StandingOut],
    openapi_extra=openapi_body(StandingCreateIn),
)
async def create_standing_order(
    who: ParentWriting, body: Annotated[StandingCreateIn, Depends(json_body(StandingCreateIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="standing_create",
        fn=standing.create,
        present=lambda view: standing_out(view, who.lang),
        child_id=body.child_id or 0,
        meal_id=body.meal_id or 0,
        portion_id=body.portion_id or 0,
        size=body.size or "",
        weekday=body.weekday,
        from_date=body.from_date or "",
        until=body.until or "",
        ends_on=body.ends_on or "",
    )
    return answered(done, who.lang, "standing_created")


async def _change(who: ParentWrite, body: StandingIdIn, action: str, message: str) -> Any:
    """Pause, resume or end (``action``) the body's standing order, answered with the
    catalog's ``message``."""
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action=f"standing_{action}",
        fn=partial(standing.change, action=action),  # submit_once has an ``action`` of its own
        present=lambda view: standing_out(view, who.lang),
        standing_id=body.standing_order_id or 0,
    )
    return answered(done, who.lang, message)


@router.post(
    "/Parent/standing/PauseStandingOrder",
    tags=STANDING,
    summary="Pause a standing order: no date is booked until it is resumed (extension)",
    response_model=Envelope[StandingOut],
    openapi_extra=openapi_body(StandingIdIn),
)
async def pause_standing_order(
    who: ParentWriting, body: Annotated[StandingIdIn, Depends(json_body(StandingIdIn))]
) -> Any:
    return await _change(who, body, "pause", "standing_paused")


@router.post(
    "/Parent/standing/ResumeStandingOrder",
    tags=STANDING,
    summary="Resume a paused standing order (extension)",
    response_model=Envelope[StandingOut],
    openapi_extra=openapi_body(StandingIdIn),
)
async def resume_standing_order(
    who: ParentWriting, body: Annotated[StandingIdIn, Depends(json_body(StandingIdIn))]
) -> Any:
    return await _change(who, body, "resume", "standing_resumed")


@router.post(
    "/Parent/standing/EndStandingOrder",
    tags=STANDING,
    summary="End a standing order for good; dates already booked stay booked (extension)",
    response_model=Envelope[StandingOut],
    openapi_extra=openapi_body(StandingIdIn),
)
async def end_standing_order(
    who: ParentWriting, body: Annotated[StandingIdIn, Depends(json_body(StandingIdIn))]
) -> Any:
    return await _change(who, body, "end", "standing_ended_ok")
