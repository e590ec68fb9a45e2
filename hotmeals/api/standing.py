"""/api/v1/Parent/standing/* (extensions): the parent's standing orders,
"every Monday, pizza for Emma, until the end of term" (``services/standing.py``).

List, create, pause, resume and end; another parent's standing order is 'Standing order not
found', exactly as one that does not exist. The writes take an optional ``Idempotency-Key``.
The booking and the payment of each date are the job's (``services/jobs.py``, ``standing``),
never a call's."""

from __future__ import annotations

from functools import partial
from typing import Any

from hotmeals.api.calls import Once, ParentListing, Post, declare_all
from hotmeals.api.deps import api_router, tags
from hotmeals.api.standing_schemas import StandingCreateIn, StandingIdIn, StandingOut
from hotmeals.services import standing

router = api_router()


def _standing_id(body: StandingIdIn) -> dict[str, Any]:
    return {"standing_id": body.standing_order_id}


def _change(action: str, message: str, summary: str) -> Post:
    """The route that pauses, resumes or ends (``action``) the body's standing order, answered
    with the catalog's ``message``: POST /Parent/standing/PauseStandingOrder (endpoint
    ``pause_standing_order``), ResumeStandingOrder or EndStandingOrder."""
    return Post(
        f"/Parent/standing/{action.title()}StandingOrder",
        Once(
            f"{action}_standing_order",
            partial(standing.change, action=action),  # run_once has an ``action`` of its own
            action=f"standing_{action}",
            message=message,
            lang=True,
            fields=_standing_id,
        ),
        body=StandingIdIn,
        answer=StandingOut,
        summary=summary,
    )


declare_all(
    router,
    tags("Parent standing orders"),
    [
        Post(
            "/Parent/standing/ListStandingOrders",
            ParentListing("list_standing_orders", standing.listing),
            answer=list[StandingOut],
            summary="The parent's standing orders, active and paused first (extension)",
        ),
        Post(
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
            summary="Repeat a meal every week on one weekday until the end of term, of the "
            "school year or a date (extension)",
        ),
        _change(
            "pause",
            "standing_paused",
            "Pause a standing order: no date is booked until it is resumed (extension)",
        ),
        _change("resume", "standing_resumed", "Resume a paused standing order (extension)"),
        _change(
            "end",
            "standing_ended_ok",
            "End a standing order for good; dates already booked stay booked (extension)",
        ),
    ],
)
