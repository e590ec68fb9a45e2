"""/api/v1/Parent/standing/* (extensions): the parent's standing orders,
"every Monday, pizza for Emma, until the end of term" (``services/standing.py``).

List, create, pause, resume and end; another parent's standing order is 'Standing order not
found', exactly as one that does not exist. The writes take an optional ``Idempotency-Key``.
The booking and the payment of each date are the job's (``services/jobs.py``, ``standing``),
never a call's."""

from __future__ import annotations

from functools import partial

from fastapi import Depends

from hotmeals.api.calls import Once, ParentListing, declare
from hotmeals.api.deps import (
    ParentWrite,
    answer,
    api_router,
    parent_write,
    route,
    tags,
)
from hotmeals.api.standing_schemas import StandingCreateIn, StandingIdIn, StandingOut
from hotmeals.services import standing

router = api_router()
STANDING = tags("Parent standing orders")
DONE = {"pause": "standing_paused", "resume": "standing_resumed", "end": "standing_ended_ok"}


declare(
    router.post,
    "/Parent/standing/ListStandingOrders",
    ParentListing("list_standing_orders", standing.listing),
    answer=list[StandingOut],
    tags=STANDING,
    summary="The parent's standing orders, active and paused first (extension)",
)


declare(
    router.post,
    "/Parent/standing/CreateStandingOrder",
    Once(
        "create_standing_order",
        standing.create,
        action="standing_create",
        message="standing_created",
        lang=True,
    ),
    body=StandingCreateIn,
    answer=StandingOut,
    tags=STANDING,
    summary="Repeat a meal every week on one weekday until the end of term, of the school "
    "year or a date (extension)",
)


async def _change(ctx: ParentWrite, action: str):
    body = await ctx.body(StandingIdIn)
    done = await ctx.run_once(
        f"standing_{action}",
        partial(standing.change, action=action),  # run_once has an ``action`` of its own
        standing_id=body.standing_order_id,
        lang=ctx.lang,
    )
    return answer(done.result, ctx.lang, DONE[action])


@route(
    router.post,
    "/Parent/standing/PauseStandingOrder",
    body=StandingIdIn,
    answer=StandingOut,
    tags=STANDING,
    summary="Pause a standing order: no date is booked until it is resumed (extension)",
)
async def pause_standing_order(ctx: ParentWrite = Depends(parent_write)):
    return await _change(ctx, "pause")


@route(
    router.post,
    "/Parent/standing/ResumeStandingOrder",
    body=StandingIdIn,
    answer=StandingOut,
    tags=STANDING,
    summary="Resume a paused standing order (extension)",
)
async def resume_standing_order(ctx: ParentWrite = Depends(parent_write)):
    return await _change(ctx, "resume")


@route(
    router.post,
    "/Parent/standing/EndStandingOrder",
    body=StandingIdIn,
    answer=StandingOut,
    tags=STANDING,
    summary="End a standing order for good; dates already booked stay booked (extension)",
)
async def end_standing_order(ctx: ParentWrite = Depends(parent_write)):
    return await _change(ctx, "end")
