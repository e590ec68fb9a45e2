"""/api/v1/Parent/cart/AddManyToCart and /api/v1/Parent/cart/RepeatWeek (extensions): many
days at once and 'Repeat last week' (``services/ordering/booking.py``, ``repeat.py``).

Each line goes through AddToCart's rules; the good lines are added and each refused one comes
back with its day and the reason (code 1 as long as the request itself is sound). Another
parent's child refuses the whole request ('Child not found'). Both take an optional
``Idempotency-Key``: a repeat changes nothing and gets the first answer."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends

from hotmeals.api.bodies import openapi_body
from hotmeals.api.booking_schemas import AddManyIn, AddManyOut, RepeatWeekIn, RepeatWeekOut
from hotmeals.api.deps import (
    PARENT_CART,
    ParentWriting,
    answered,
    api_router,
    json_body,
)
from hotmeals.api.envelope import Envelope
from hotmeals.services import submissions
from hotmeals.services.ordering import booking, repeat
from hotmeals.services.transaction import run_in_transaction

router = api_router()


@router.post(
    "/Parent/cart/AddManyToCart",
    tags=PARENT_CART,
    summary="Add meals on several days, for one child or siblings (extension): the good "
    "lines are added, each refused one says its day and why",
    response_model=Envelope[AddManyOut],
    openapi_extra=openapi_body(AddManyIn),
)
async def add_many_to_cart(
    who: ParentWriting, body: Annotated[AddManyIn, Depends(json_body(AddManyIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="add_many_to_cart",
        fn=booking.add_many,
        lang=who.lang,
        **body.model_dump(),  # the lines as dicts, as the service takes them
    )
    return answered(done, who.lang)


@router.post(
    "/Parent/cart/RepeatWeek",
    tags=PARENT_CART,
    summary="Copy a child's meals of one week into the cart for another week "
    "(extension); says which days could not be copied and why",
    response_model=Envelope[RepeatWeekOut],
    openapi_extra=openapi_body(RepeatWeekIn),
)
async def repeat_week(
    who: ParentWriting, body: Annotated[RepeatWeekIn, Depends(json_body(RepeatWeekIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="repeat_week",
        fn=repeat.repeat_week,
        child_id=body.child_id,
        source_week_start=body.source_week_start,
        target_week_start=body.target_week_start,
        lang=who.lang,
    )
    return answered(done, who.lang)
