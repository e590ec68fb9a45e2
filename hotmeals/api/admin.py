"""/api/v1/Admin/CloseDay and ReopenDay: the operator closes a school day after parents booked
it (the same as ``python -m hotmeals.admin``). Documented in docs/api.md "Admin".

Guarded by its own secret, the ``admin-key`` header, which must equal
``HOTMEALS_ADMIN_API_KEY``. The admin API is off (every call refused, HTTP 403) while that
setting is unset, shorter than 24 characters or equal to the parents' ``HOTMEALS_API_KEY``: the
parents' key, which ships in every parent app, never closes a school.
"""

from __future__ import annotations

import hmac
from typing import Annotated, Any

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader

from hotmeals.api.admin_schemas import CloseDayIn, CloseDayOut, ReopenDayIn, ReopenDayOut
from hotmeals.api.bodies import openapi_body
from hotmeals.api.deps import (
    Client,
    answer,
    api_router,
    json_body,
    request_lang,
    required,
    tags,
)
from hotmeals.api.envelope import ApiError, Envelope
from hotmeals.i18n import t
from hotmeals.services import closure_apply, closures
from hotmeals.services.closure_apply import ClosureResult
from hotmeals.services.closures import ReopenedDay
from hotmeals.settings import get_settings

router = api_router()
ADMIN = tags("Admin")
ADMIN_KEY_MIN_LENGTH = 24

ADMIN_KEY = APIKeyHeader(
    name="admin-key",
    scheme_name="AdminKey",
    auto_error=False,
    description="The operator's key (HOTMEALS_ADMIN_API_KEY); never the parents' api-key.",
)


async def admin_client(request: Request, admin_key: str | None = Security(ADMIN_KEY)) -> Client:
    """The operator's call once the admin key is checked; refused (403) otherwise."""
    lang = request_lang(request)
    settings = get_settings()
    expected = settings.admin_api_key
    if len(expected) < ADMIN_KEY_MIN_LENGTH or hmac.compare_digest(
        expected.encode(), settings.api_key.encode()
    ):
        raise ApiError(t("admin.api_off", lang), status_code=403)
    if not admin_key or not hmac.compare_digest(admin_key.encode(), expected.encode()):
        raise ApiError(t("admin.bad_key", lang), status_code=403)
    return Client.of(request, lang)


def _school_day(body: CloseDayIn | ReopenDayIn) -> dict[str, Any]:
    """The school (required) and the day a body names, acted on by the operator's API."""
    school = required(body.school, "closure_school_required", "school")
    return {"school": school, "day": body.date or "", "actor": "operator:api"}


def closed_day_out(result: ClosureResult) -> dict[str, Any]:
    return {
        "closure_id": result.closure_id,
        "school": result.school,
        "date": result.date,
        "reason": result.reason,
        "families": result.families,
        "meals": result.meals,
        "made_up": result.made_up,
        "refunded_cents": result.refunded_cents,
        "credited_cents": result.credited_cents,
        "refund_failures": result.refund_failures,
        "outcomes": result.outcomes,
    }


def reopened_day_out(done: ReopenedDay) -> dict[str, Any]:
    return {"closure_id": done.closure_id, "school": done.school, "date": done.day.isoformat()}


@router.post(
    "/Admin/CloseDay",
    tags=ADMIN,
    summary="Close a school day: every booked meal handled at once by its family's choice",
    response_model=Envelope[CloseDayOut],
    openapi_extra=openapi_body(CloseDayIn),
)
async def close_day(
    admin: Annotated[Client, Depends(admin_client)],
    body: Annotated[CloseDayIn, Depends(json_body(CloseDayIn))],
) -> Any:
    result = await closure_apply.close_day(**_school_day(body), reason=body.reason or "")
    return answer(closed_day_out(result), admin.lang)


@router.post(
    "/Admin/ReopenDay",
    tags=ADMIN,
    summary="Make a closed school day bookable again (handled meals stay as they are)",
    response_model=Envelope[ReopenDayOut],
    openapi_extra=openapi_body(ReopenDayIn),
)
async def reopen_day(
    admin: Annotated[Client, Depends(admin_client)],
    body: Annotated[ReopenDayIn, Depends(json_body(ReopenDayIn))],
) -> Any:
    done = await closures.reopen_day(**_school_day(body))
    return answer(reopened_day_out(done), admin.lang)
