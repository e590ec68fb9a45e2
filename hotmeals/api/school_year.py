"""/api/v1/Parent/user/* for issue 26: the give-back figures (GiveBack), the start of the
school year (SchoolYear, ConfirmSchoolYear, ArchiveChild). Documented in docs/api.md."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel

from hotmeals.api.account_schemas import FAILURES, ChildAllergyOut, ChildOut, Envelope, Id, In
from hotmeals.api.deps import (
    Client,
    EnvelopeRoute,
    ParentClient,
    client_context,
    idempotency_key,
    openapi_body,
    parent_context,
    parse_body,
    run_as_parent,
    run_once,
)
from hotmeals.api.envelope import ok
from hotmeals.i18n import t
from hotmeals.services import giveback, school_year

router = APIRouter(prefix="/api/v1", route_class=EnvelopeRoute, responses=FAILURES)
USER = ["Parent user"]


class GiveBackSchoolOut(BaseModel):
    school_id: int
    school: str
    children: list[str]
    meals: int
    school_cents: int
    nutrition_cents: int
    donation_cents: int
    total_cents: int
    given_cents: int
    school_meals: int
    school_total_cents: int
    school_nutrition_cents: int
    school_community: str
    nutrition: str
    donations: str
    total: str
    given: str
    school_total: str


class GiveBackOut(BaseModel):
    school_year: int
    school_year_label: str
    meals: int
    school_cents: int
    nutrition_cents: int
    donation_cents: int
    total_cents: int
    school_community: str
    nutrition: str
    donations: str
    total: str
    schools: list[GiveBackSchoolOut]


class OptionOut(BaseModel):
    id: int
    name: str


class TeacherOptionOut(BaseModel):
    id: int
    name: str
    school_id: int


class GradeOptionOut(BaseModel):
    id: int
    code: str
    label: str


class PendingChildOut(BaseModel):
    id: int
    first_name: str
    last_name: str
    is_default: bool
    city_id: int
    city: str
    school_id: int
    school: str
    teacher_id: int
    teacher: str
    grade_id: int
    grade: str
    allergies: list[ChildAllergyOut]
    offered_grade_id: int | None
    offered_grade: str
    graduating: bool
    schools: list[OptionOut]
    teachers: list[TeacherOptionOut]


class SchoolYearOut(BaseModel):
    school_year: int
    school_year_label: str
    starts_on: str
    pending_count: int
    pending: list[PendingChildOut]
    grades: list[GradeOptionOut]


class ConfirmSchoolYearIn(In):
    child_id: Id | None = None
    school_id: Id | None = None
    teacher_id: Id | None = None
    grade_id: Id | None = None
    allergies_reviewed: bool | None = None


class ChildIdOnlyIn(In):
    child_id: Id | None = None


class ConfirmedOut(BaseModel):
    child: ChildOut
    school_year: int
    pending_count: int


class ArchivedOut(BaseModel):
    pending_count: int


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
    done = await run_once(
        ctx.parent_id,
        key,
        "archive_child",
        school_year.archive_child,
        child_id=body.child_id,
    )
    return ok(done.result, t("child_archived", ctx.lang))
