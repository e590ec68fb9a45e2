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


def _change(name: str, action: str, message: str) -> Once:
    """Pause, resume or end (``action``) the body's standing order, answered with the catalog's
    ``message``."""
    return Once(
        name,
        partial(standing.change, action=action),  # run_once has an ``action`` of its own
        action=f"standing_{action}",
        message=message,
        lang=True,
        fields=_standing_id,
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
        Post(
            "/Parent/standing/PauseStandingOrder",
            _change("pause_standing_order", "pause", "standing_paused"),
            body=StandingIdIn,
            answer=StandingOut,
            summary="Pause a standing order: no date is booked until it is resumed (extension)",
        ),
        Post(
            "/Parent/standing/ResumeStandingOrder",
            _change("resume_standing_order", "resume", "standing_resumed"),
            body=StandingIdIn,
            answer=StandingOut,
            summary="Resume a paused standing order (extension)",
        ),
        Post(
            "/Parent/standing/EndStandingOrder",
            _change("end_standing_order", "end", "standing_ended_ok"),
            body=StandingIdIn,
            answer=StandingOut,
            summary="End a standing order for good; dates already booked stay booked (extension)",
        ),
    ],
)
