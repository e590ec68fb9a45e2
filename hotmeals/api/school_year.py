"""/api/v1/Parent/user/*: the give-back figures (GiveBack), the start of the
school year (SchoolYear, ConfirmSchoolYear, ArchiveChild). Documented in docs/api.md."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends

from hotmeals.api.account_schemas import ChildIdIn
from hotmeals.api.bodies import openapi_body
from hotmeals.api.children import child_out, grade_out
from hotmeals.api.deps import (
    PARENT_USER,
    ParentWriting,
    SignedIn,
    answer,
    answered,
    api_router,
    json_body,
)
from hotmeals.api.envelope import Envelope
from hotmeals.api.school_year_schemas import (
    ArchivedOut,
    ConfirmedOut,
    ConfirmSchoolYearIn,
    GiveBackOut,
    SchoolYearOut,
)
from hotmeals.domain.money import format_money
from hotmeals.services import giveback, school_year, submissions
from hotmeals.services.transaction import run_in_transaction

router = api_router()


def giveback_school_out(school: giveback.SchoolGiveBack, lang: str) -> dict[str, Any]:
    return {
        "school_id": school.school_id,
        "school": school.school,
        "children": list(school.children),
        "meals": school.meals,
        "school_cents": school.school_cents,
        "nutrition_cents": school.nutrition_cents,
        "donation_cents": school.donation_cents,
        "total_cents": school.total_cents,
        "given_cents": school.given_cents,
        "school_meals": school.school_meals,
        "school_total_cents": school.school_total_cents,
        "school_nutrition_cents": school.school_nutrition_cents,
        "school_community": format_money(school.school_cents, lang),
        "nutrition": format_money(school.nutrition_cents, lang),
        "donations": format_money(school.donation_cents, lang),
        "total": format_money(school.total_cents, lang),
        "given": format_money(school.given_cents, lang),
        "school_total": format_money(school.school_total_cents, lang),
    }


def giveback_out(figures: giveback.FamilyGiveBack, lang: str) -> dict[str, Any]:
    """The give-back figures, with their amounts as money text in ``lang``."""
    return {
        "school_year": figures.year.year,
        "school_year_label": figures.year.label,
        "meals": figures.meals,
        "school_cents": figures.school_cents,
        "nutrition_cents": figures.nutrition_cents,
        "donation_cents": figures.donation_cents,
        "total_cents": figures.total_cents,
        "school_community": format_money(figures.school_cents, lang),
        "nutrition": format_money(figures.nutrition_cents, lang),
        "donations": format_money(figures.donation_cents, lang),
        "total": format_money(figures.total_cents, lang),
        "schools": [giveback_school_out(school, lang) for school in figures.schools],
    }


def pending_child_out(pending: school_year.PendingChild, lang: str) -> dict[str, Any]:
    """A child to confirm, with the grade offered, the schools of its city and their
    teachers."""
    offered = pending.offered_grade
    return {
        **child_out(pending.child, lang),
        "offered_grade_id": offered.id if offered else None,
        "offered_grade": offered.label(lang) if offered else "",
        "graduating": pending.graduating,
        "schools": [{"id": s.id, "name": s.name} for s in pending.schools],
        "teachers": [
            {"id": t.id, "name": t.name, "school_id": t.school_id} for t in pending.teachers
        ],
    }


def year_status_out(status: school_year.YearStatus, lang: str) -> dict[str, Any]:
    """SchoolYear's answer: the school year and the children to confirm for it."""
    return {
        "school_year": status.year.year,
        "school_year_label": status.year.label,
        "starts_on": status.year.first_day.isoformat(),
        "pending": [pending_child_out(pending, lang) for pending in status.pending],
        "pending_count": len(status.pending),
        "grades": [grade_out(grade, lang) for grade in status.grades],
    }


def confirmed_out(done: school_year.Confirmed, lang: str) -> dict[str, Any]:
    """ConfirmSchoolYear's answer: the child as confirmed and how many are left."""
    return {
        "child": child_out(done.child, lang),
        "school_year": done.year.year,
        "pending_count": done.pending_count,
    }


@router.get(
    "/Parent/user/GiveBack",
    tags=PARENT_USER,
    summary="What the family's meals and donations gave this school year, per school",
    response_model=Envelope[GiveBackOut],
)
async def give_back(who: SignedIn) -> Any:
    figures = await run_in_transaction(giveback.family_giveback, parent_token=who.token)
    return answer(giveback_out(figures, who.lang), who.lang)


@router.get(
    "/Parent/user/SchoolYear",
    tags=PARENT_USER,
    summary="The school year and the children to confirm for it before booking",
    response_model=Envelope[SchoolYearOut],
)
async def get_school_year(who: SignedIn) -> Any:
    status = await run_in_transaction(school_year.status, parent_token=who.token)
    return answer(year_status_out(status, who.lang), who.lang)


@router.post(
    "/Parent/user/ConfirmSchoolYear",
    tags=PARENT_USER,
    summary="Confirm a child's grade, teacher, school and allergies for this school year",
    response_model=Envelope[ConfirmedOut],
    openapi_extra=openapi_body(ConfirmSchoolYearIn),
)
async def confirm_school_year(
    who: ParentWriting,
    body: Annotated[ConfirmSchoolYearIn, Depends(json_body(ConfirmSchoolYearIn))],
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="confirm_school_year",
        fn=school_year.confirm_child,
        present=lambda confirmed: confirmed_out(confirmed, who.lang),
        child_id=body.child_id or 0,
        # left out: 0, which the service refuses as "required" after the child and the review
        school_id=body.school_id or 0,
        teacher_id=body.teacher_id or 0,
        grade_id=body.grade_id or 0,
        allergies_reviewed=body.allergies_reviewed is True,
    )
    result = done.result
    return answer(result, who.lang, "sy.confirmed", name=result["child"]["first_name"])


@router.post(
    "/Parent/user/ArchiveChild",
    tags=PARENT_USER,
    summary="Archive a child who left (hidden from booking; order history kept)",
    response_model=Envelope[ArchivedOut],
    openapi_extra=openapi_body(ChildIdIn),
)
async def archive_child(
    who: ParentWriting, body: Annotated[ChildIdIn, Depends(json_body(ChildIdIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="archive_child",
        fn=school_year.archive_child,
        present=lambda left: {"pending_count": left},
        child_id=body.child_id or 0,
    )
    return answered(done, who.lang, "child_archived")
