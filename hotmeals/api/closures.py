"""/api/v1/Parent/user/ClosureChoice (what a closed school day does to a booked meal) and the
"child away" calls (Parent/child/AwayPreview, Parent/child/MarkAway). Documented in
docs/api.md."""

from __future__ import annotations

from fastapi import Depends

from hotmeals.api.closures_schemas import ClosureChoiceIn, ClosureChoiceOut
from hotmeals.api.deps import (
    PARENT_USER,
    Client,
    ParentWrite,
    api_router,
    client_context,
    parent_write,
    read_as_parent,
    route,
)
from hotmeals.services import closures

router = api_router()


@route(
    router.get,
    "/Parent/user/ClosureChoice",
    answer=ClosureChoiceOut,
    tags=PARENT_USER,
    summary="What a school day closed after booking does to a meal: card, credit or makeup",
)
async def closure_choice(client: Client = Depends(client_context)):
    return await read_as_parent(client, closures.closure_choice_of)


@route(
    router.post,
    "/Parent/user/ClosureChoice",
    body=ClosureChoiceIn,
    answer=ClosureChoiceOut,
    tags=PARENT_USER,
    summary="Keep a choice for closed days: refund to the card (default), credit or makeup",
)
async def choose_closure(who: ParentWrite = Depends(parent_write)):
    body = await who.body(ClosureChoiceIn)
    return await who.answer_once(
        "closure_choice",
        closures.choose_closure,
        message="success",
        closure_choice=body.closure_choice,
    )
