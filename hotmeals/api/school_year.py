"""/api/v1/Parent/user/*: the give-back figures (GiveBack), the start of the
school year (SchoolYear, ConfirmSchoolYear, ArchiveChild). Documented in docs/api.md."""

from __future__ import annotations

from fastapi import Depends, Request

from hotmeals.api.deps import (
    Client,
    ParentClient,
    answer_once,
    api_router,
    client_context,
    idempotency_key,
    openapi_body,
    parent_context,
    parse_body,
    run_as_parent,
    run_once,
    tags,
)
from hotmeals.api.envelope import Envelope, ok
from hotmeals.api.school_year_schemas import (
    ArchivedOut,
    ChildIdOnlyIn,
    ConfirmedOut,
    ConfirmSchoolYearIn,
    GiveBackOut,
    SchoolYearOut,
)
from hotmeals.i18n import t
from hotmeals.services import giveback, school_year

router = api_router()
USER = tags("Parent user")


@router.get(
    "/Parent/user/GiveBack",
    tags=USER,
    summary="What the family's meals and donations gave this school year, per school",
    response_model=Envelope[GiveBackOut],
)
async def give_back(client: Client = Depends(client_context)):
    data = await run_as_parent(client, giveback.family_giveback, lang=client.lang)
    return ok(data, t("success", client.lang))


@router.get(
    "/Parent/user/SchoolYear",
    tags=USER,
    summary="The school year and the children to confirm for it before booking",
    response_model=Envelope[SchoolYearOut],
)
async def get_school_year(client: Client = Depends(client_context)):
    data = await run_as_parent(client, school_year.status, lang=client.lang)
    return ok(data, t("success", client.lang))


@router.post(
    "/Parent/user/ConfirmSchoolYear",
    tags=USER,
    summary="Confirm a child's grade, teacher, school and allergies for this school year",
    openapi_extra=openapi_body(ConfirmSchoolYearIn),
    response_model=Envelope[ConfirmedOut],
)
async def confirm_school_year(
    request: Request,
    ctx: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, ConfirmSchoolYearIn, ctx.lang)
    done = await run_once(
        ctx.parent_id,
        key,
        "confirm_school_year",
        school_year.confirm_child,
        child_id=body.child_id,
        school_id=body.school_id,
        teacher_id=body.teacher_id,
        grade_id=body.grade_id,
        allergies_reviewed=body.allergies_reviewed,
        lang=ctx.lang,
    )
    result = done.result
    return ok(result, t("sy.confirmed", ctx.lang, name=result["child"]["first_name"]))


@router.post(
    "/Parent/user/ArchiveChild",
    tags=USER,
    summary="Archive a child who left (hidden from booking; order history kept)",
    openapi_extra=openapi_body(ChildIdOnlyIn),
    response_model=Envelope[ArchivedOut],
)
async def archive_child(
    request: Request,
    ctx: ParentClient = Depends(parent_context),
    key: str | None = Depends(idempotency_key),
):
    body = await parse_body(request, ChildIdOnlyIn, ctx.lang)
    return await answer_once(
        ctx,
        key,
        "archive_child",
        school_year.archive_child,
        message="child_archived",
        child_id=body.child_id,
    )
