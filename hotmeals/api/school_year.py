"""/api/v1/Parent/user/*: the give-back figures (GiveBack), the start of the
school year (SchoolYear, ConfirmSchoolYear, ArchiveChild). Documented in docs/api.md."""

from __future__ import annotations

from fastapi.responses import JSONResponse

from hotmeals.api.account_schemas import ChildIdIn
from hotmeals.api.calls import Get, Once, ParentRead, Post, declare_all, handler
from hotmeals.api.deps import (
    PARENT_USER,
    ParentWrite,
    api_router,
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


async def confirm_school_year(who: ParentWrite, body: ConfirmSchoolYearIn) -> JSONResponse:
    done = await who.run_once(
        "confirm_school_year", school_year.confirm_child, **body.model_dump(), lang=who.lang
    )
    result = done.result
    return ok(result, t("sy.confirmed", who.lang, name=result["child"]["first_name"]))


declare_all(
    router,
    PARENT_USER,
    [
        Get(
            "/Parent/user/GiveBack",
            ParentRead("give_back", giveback.family_giveback),
            answer=GiveBackOut,
            summary="What the family's meals and donations gave this school year, per school",
        ),
        Get(
            "/Parent/user/SchoolYear",
            ParentRead("get_school_year", school_year.status),
            answer=SchoolYearOut,
            summary="The school year and the children to confirm for it before booking",
        ),
        Post(
            "/Parent/user/ConfirmSchoolYear",
            handler(confirm_school_year),
            answer=ConfirmedOut,
            summary="Confirm a child's grade, teacher, school and allergies for this school year",
        ),
        Post(
            "/Parent/user/ArchiveChild",
            Once("archive_child", school_year.archive_child, message="child_archived"),
            body=ChildIdIn,
            answer=ArchivedOut,
            summary="Archive a child who left (hidden from booking; order history kept)",
        ),
    ],
)
