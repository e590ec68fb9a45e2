"""/api/v1/Parent/user/*: the give-back figures (GiveBack), the start of the
school year (SchoolYear, ConfirmSchoolYear, ArchiveChild). Documented in docs/api.md."""

from __future__ import annotations

from fastapi import Depends

from hotmeals.api.account_schemas import ChildIdIn
from hotmeals.api.calls import Once, ParentRead, declare
from hotmeals.api.deps import (
    PARENT_USER,
    ParentWrite,
    api_router,
    parent_write,
    route,
)
from hotmeals.api.envelope import ok
from hotmeals.api.school_year_schemas import (
    ArchivedOut,
    ConfirmedOut,
    ConfirmSchoolYearIn,
    GiveBackOut,
    SchoolYearOut,
)
from hotmeals.i18n import t
from hotmeals.services import giveback, school_year

router = api_router()


declare(
    router.get,
    "/Parent/user/GiveBack",
    ParentRead("give_back", giveback.family_giveback),
    answer=GiveBackOut,
    tags=PARENT_USER,
    summary="What the family's meals and donations gave this school year, per school",
)


declare(
    router.get,
    "/Parent/user/SchoolYear",
    ParentRead("get_school_year", school_year.status),
    answer=SchoolYearOut,
    tags=PARENT_USER,
    summary="The school year and the children to confirm for it before booking",
)


@route(
    router.post,
    "/Parent/user/ConfirmSchoolYear",
    body=ConfirmSchoolYearIn,
    answer=ConfirmedOut,
    tags=PARENT_USER,
    summary="Confirm a child's grade, teacher, school and allergies for this school year",
)
async def confirm_school_year(ctx: ParentWrite = Depends(parent_write)):
    body = await ctx.body(ConfirmSchoolYearIn)
    done = await ctx.run_once(
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


declare(
    router.post,
    "/Parent/user/ArchiveChild",
    Once("archive_child", school_year.archive_child, message="child_archived"),
    body=ChildIdIn,
    answer=ArchivedOut,
    tags=PARENT_USER,
    summary="Archive a child who left (hidden from booking; order history kept)",
)
