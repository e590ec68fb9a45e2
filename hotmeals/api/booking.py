"""/api/v1/Parent/cart/AddManyToCart and /api/v1/Parent/cart/RepeatWeek (extensions): many
days at once and 'Repeat last week' (``services/ordering/booking.py``, ``repeat.py``).

Each line goes through AddToCart's rules; the good lines are added and each refused one comes
back with its day and the reason (code 1 as long as the request itself is sound). Another
parent's child refuses the whole request ('Child not found'). Both take an optional
``Idempotency-Key``: a repeat changes nothing and gets the first answer."""

from __future__ import annotations

from collections.abc import Sequence
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
from hotmeals.api.menu_schemas import AddToCartIn
from hotmeals.domain.dates import long_day
from hotmeals.domain.money import format_money
from hotmeals.i18n import t
from hotmeals.services import submissions
from hotmeals.services.ordering import booking, repeat
from hotmeals.services.ordering.booking import Booked, Outcome, Refused
from hotmeals.services.ordering.lines import LineRequest
from hotmeals.services.ordering.repeat import Repeated, Skipped
from hotmeals.services.transaction import run_in_transaction

router = api_router()


def line_request(item: AddToCartIn) -> LineRequest:
    """One line of AddManyToCart's body as the cart's rules take it (a quantity left out
    is 1)."""
    return LineRequest(
        child_id=item.child_id or 0,  # none: not found
        meal_id=item.meal_id or 0,
        portion_id=item.portion_id,
        size=item.size,
        menu_day_id=item.menu_day_id,
        date=item.date,
        quantity=1 if item.quantity is None else item.quantity,
        menu_option_id=item.menu_option_id,
        meal_option_id=item.meal_option_id,
        addons=item.addons,
        special_note=item.special_note,
        allergy_ack=item.allergy_ack is True,
        diet_ack=item.diet_ack is True,
    )


def booked_out(line: Booked, lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "index": line.index,
        "cart_id": line.cart_id,
        "child_id": line.child_id,
        "child_name": line.child_name,
        "date": line.date.isoformat(),
        "date_label": long_day(line.date, lang),
        "meal_id": line.meal_id,
        "meal": line.meal,
        "size": line.size,
        "quantity": line.quantity,
        "line_total_cents": line.line_total_cents,
        "line_total": format_money(line.line_total_cents, lang),
        "allergy_ack": line.allergy_ack,
        "allergy_notice": line.allergy_notice,
        "left_out": list(line.left_out),
    }
    if line.source_date is not None:
        out["source_date"] = line.source_date.isoformat()
    return out


def refused_out(line: Refused, lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "index": line.index,
        "child_id": line.child_id,
        "child_name": line.child_name,
        "date": line.date.isoformat() if line.date else "",
        "date_label": long_day(line.date, lang) if line.date else "",
        "meal_id": line.meal_id,
        "meal": line.meal,
        "code": line.code,
        "reason": line.reason,
        "left_out": list(line.left_out),
    }
    if line.source_date is not None:
        out["source_date"] = line.source_date.isoformat()
    return out


def skipped_out(line: Skipped, lang: str) -> dict[str, Any]:
    return {
        "child_id": line.child_id,
        "child_name": line.child_name,
        "date": line.date.isoformat(),
        "date_label": long_day(line.date, lang),
        "meal_id": line.meal_id,
        "meal": line.meal,
        "code": line.code,
        "reason": line.reason,
        "source_date": line.source_date.isoformat(),
    }


def outcome_out(
    outcome: Outcome, message_key: str, lang: str, skipped: Sequence[Skipped] = ()
) -> dict[str, Any]:
    """What was added, what could not be (and, RepeatWeek, what was skipped), with the
    sentence counting them."""
    added, refused = len(outcome.added), len(outcome.refused)
    return {
        "added": [booked_out(line, lang) for line in outcome.added],
        "refused": [refused_out(line, lang) for line in outcome.refused],
        "skipped": [skipped_out(line, lang) for line in skipped],
        "added_count": added,
        "refused_count": refused,
        "cart_count": outcome.cart_count,
        "message": t(message_key, lang, added=added, refused=refused),
    }


def repeated_out(done: Repeated, lang: str) -> dict[str, Any]:
    return {
        **outcome_out(done.outcome, "repeat_result", lang, done.skipped),
        "child_id": done.child_id,
        "source_week_start": done.source_week_start.isoformat(),
        "target_week_start": done.target_week_start.isoformat(),
        "skipped_count": len(done.skipped),
    }


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
        present=lambda outcome: outcome_out(outcome, "booking_result", who.lang),
        lang=who.lang,
        items=[line_request(item) for item in body.items],
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
        present=lambda done: repeated_out(done, who.lang),
        child_id=body.child_id or 0,  # none: not found, as another parent's child
        source_week_start=body.source_week_start or "",
        target_week_start=body.target_week_start or "",
        lang=who.lang,
    )
    return answered(done, who.lang)
