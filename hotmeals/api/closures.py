"""/api/v1/Parent/user/ClosureChoice (what a closed school day does to a booked meal) and the
"child away" calls (Parent/child/AwayPreview, Parent/child/MarkAway). Documented in
docs/api.md."""

from __future__ import annotations

from fastapi.responses import JSONResponse

from hotmeals.api.calls import Get, Once, ParentRead, Post, ReadFor, declare_all, handler
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
    ParentWrite,
    api_router,
    ok,
    request_key,
    tags,
)
from hotmeals.services import away, closures

router = api_router()


async def mark_away(who: ParentWrite, body: MarkAwayIn) -> JSONResponse:
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


declare_all(
    router,
    PARENT_USER,
    [
        Get(
            "/Parent/user/ClosureChoice",
            ParentRead("closure_choice", closures.closure_choice_of),
            answer=ClosureChoiceOut,
            summary="What a school day closed after booking does to a meal: card, credit or makeup",
        ),
        Post(
            "/Parent/user/ClosureChoice",
            Once(
                "choose_closure",
                closures.choose_closure,
                action="closure_choice",
                message="success",
            ),
            body=ClosureChoiceIn,
            answer=ClosureChoiceOut,
            summary="Keep a choice for closed days: refund to the card (default), credit or makeup",
        ),
    ],
)


declare_all(
    router,
    tags("Parent child away"),
    [
        Post(
            "/Parent/child/AwayPreview",
            ReadFor("away_preview", away.away_preview),
            body=AwayIn,
            answer=AwayPreviewOut,
            summary="What marking children away for some days would cancel and refund (nothing "
            "written)",
        ),
        Post(
            "/Parent/child/MarkAway",
            handler(mark_away),
            answer=MarkAwayOut,
            summary="Children away: cancel and refund their meals before the cut-off, give others",
        ),
    ],
)
