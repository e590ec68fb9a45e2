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
from hotmeals.i18n import t
from hotmeals.services import away, closures, submissions
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
        lang=who.lang,
        child_ids=body.child_ids,
        from_date=body.from_date,
        to_date=body.to_date,
        refund_to=body.refund_to,
    )
    return answer(preview, who.lang)


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
        child_ids=body.child_ids,
        from_date=body.from_date,
        to_date=body.to_date,
        refund_to=body.refund_to,
        donate_line_ids=body.donate_line_ids,
        expected_refund_cents=body.expected_refund_cents,
        request_key=request_key(who.key, body.request_key, invalid="cancel_request_key_invalid"),
        lang=who.lang,
    )
    return ok(done, away.done_message(done, who.lang))
