"""Request and answer payloads of the give-back and school-year calls (``api/school_year.py``)."""

from __future__ import annotations

from pydantic import BaseModel

from hotmeals.api.account_schemas import ChildOut, Id, In


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


# A child to confirm for the school year: the child, the grade offered and the choices.
class PendingChildOut(ChildOut):
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


class ConfirmedOut(BaseModel):
    child: ChildOut
    school_year: int
    pending_count: int


class ArchivedOut(BaseModel):
    pending_count: int
