"""/api/v1/Parent/user/ClosureChoice (what a closed school day does to a booked meal) and the
"child away" calls (Parent/child/AwayPreview, Parent/child/MarkAway). Documented in
docs/api.md."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends

from hotmeals.api.bodies import openapi_body
from hotmeals.api.closures_schemas import (
    AwayIn,
    AwayPreviewOut,
    ClosureChoiceIn,
    ClosureChoiceOut,
    MarkAwayIn,
    MarkAwayOut,
)
from hotmeals.api.deps import (
    PARENT_USER,
    CurrentParent,
    ParentWriting,
    SignedIn,
    answer,
    answered,
    api_router,
    json_body,
    request_key,
    tags,
)
from hotmeals.api.envelope import Envelope, ok
from hotmeals.domain.credit import ClosureChoice
from hotmeals.domain.money import format_money
from hotmeals.i18n import t
from hotmeals.services import away, closures, submissions
from hotmeals.services.away import AwayDone, AwayMeal, AwayPreview
from hotmeals.services.ordering.labels import order_day
from hotmeals.services.transaction import run_in_transaction

router = api_router()
CHILD_AWAY = tags("Parent child away")


def closure_choice_out(chosen: ClosureChoice, lang: str) -> dict[str, Any]:
    """The family's closure choice and the three options in ``lang``."""
    return {
        "closure_choice": chosen.value,
        "options": [
            {"value": c.value, "label": t(f"closures.choice.{c.value}", lang)}
            for c in ClosureChoice
        ],
    }


def away_meal_out(meal: AwayMeal, lang: str) -> dict[str, Any]:
    return {
        "order_line_id": meal.order_line_id,
        "order_id": meal.order_id,
        "child_id": meal.child_id,
        "child_name": meal.child_name,
        "date": meal.day.isoformat(),
        "day": order_day(meal.day, lang),
        "name": meal.name(lang),
        "quantity": meal.quantity,
        "state": meal.state,
        "can_donate": meal.state == "past",
        "label": t(f"away.item.{meal.state}", lang),
    }


def away_preview_out(preview: AwayPreview, lang: str) -> dict[str, Any]:
    return {
        "meals": [away_meal_out(meal, lang) for meal in preview.meals],
        "cancel_count": preview.cancel_count,
        "refund_cents": preview.refund_cents,
        "refund": format_money(preview.refund_cents, lang),
        "refund_to": preview.refund_to.value,
    }


def mark_away_out(done: AwayDone) -> dict[str, Any]:
    """``MarkAwayOut``, in the language of the first answer (``done.lang``)."""
    return {
        "cancelled": done.cancelled,
        "donated": done.donated,
        "refund_cents": done.refund_cents,
        "refund": format_money(done.refund_cents, done.lang),
        "credit_cents": done.credit_cents,
        "card_cents": done.card_cents,
        "message": away.done_message(done, done.lang),
        "repeated": done.repeated,
    }


@router.get(
    "/Parent/user/ClosureChoice",
    tags=PARENT_USER,
    summary="What a school day closed after booking does to a meal: card, credit or makeup",
    response_model=Envelope[ClosureChoiceOut],
)
async def closure_choice(who: SignedIn) -> Any:
    chosen = await run_in_transaction(closures.closure_choice, parent_token=who.token)
    return answer(closure_choice_out(chosen, who.lang), who.lang)


@router.post(
    "/Parent/user/ClosureChoice",
    tags=PARENT_USER,
    summary="Keep a choice for closed days: refund to the card (default), credit or makeup",
    response_model=Envelope[ClosureChoiceOut],
    openapi_extra=openapi_body(ClosureChoiceIn),
)
async def choose_closure(
    who: ParentWriting, body: Annotated[ClosureChoiceIn, Depends(json_body(ClosureChoiceIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="closure_choice",
        fn=closures.choose_closure,
        present=lambda chosen: {"closure_choice": chosen.value},
        closure_choice=body.closure_choice or "",
    )
    return answered(done, who.lang, "success")


@router.post(
    "/Parent/child/AwayPreview",
    tags=CHILD_AWAY,
    summary="What marking children away for some days would cancel and refund (nothing written)",
    response_model=Envelope[AwayPreviewOut],
    openapi_extra=openapi_body(AwayIn),
)
async def away_preview(
    who: CurrentParent, body: Annotated[AwayIn, Depends(json_body(AwayIn))]
) -> Any:
    preview = await run_in_transaction(
        away.away_preview,
        parent_id=who.parent_id,
        child_ids=body.child_ids or [],
        from_date=body.from_date or "",
        to_date=body.to_date or "",
        refund_to=body.refund_to or "",
    )
    return answer(away_preview_out(preview, who.lang), who.lang)


@router.post(
    "/Parent/child/MarkAway",
    tags=CHILD_AWAY,
    summary="Children away: cancel and refund their meals before the cut-off, give others",
    response_model=Envelope[MarkAwayOut],
    openapi_extra=openapi_body(MarkAwayIn),
)
async def mark_away(
    who: ParentWriting, body: Annotated[MarkAwayIn, Depends(json_body(MarkAwayIn))]
) -> Any:
    done = await away.mark_away(
        parent_id=who.parent_id,
        child_ids=body.child_ids or [],
        from_date=body.from_date or "",
        to_date=body.to_date or "",
        refund_to=body.refund_to or "",
        donate_line_ids=body.donate_line_ids or [],
        expected_refund_cents=body.expected_refund_cents,
        request_key=request_key(who.key, body.request_key, invalid="cancel_request_key_invalid"),
        lang=who.lang,
    )
    return ok(mark_away_out(done), away.done_message(done, who.lang))
