"""The start of the school year: after the year rolls over (``settings.
school_year_start``, 1 August by default, in Toronto), each child added before it is confirmed
once for the new year - grade (one up offered; the last grade graduates and archiving is
suggested), teacher, school, allergies reviewed - or archived (a child who left).

Booking refuses a child not confirmed yet (``require_confirmed``, called by the cart, Book
meal and the checkout) with a message that points to the confirmation screen; the UI sends the
parent there first. Archiving is the existing soft delete: the child is hidden from booking,
its orders stay in the history.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, insert, update
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import Child, ChildSchoolYear
from hotmeals.domain.errors import DomainError
from hotmeals.domain.school_year import (
    SchoolYear,
    needs_confirmation,
    next_grade_index,
    school_year_at,
)
from hotmeals.services import children as children_service
from hotmeals.services import reference
from hotmeals.services.children import ChildView
from hotmeals.services.ids import known_id, saved_id
from hotmeals.services.reference import GradeRef, SchoolRef, TeacherRef
from hotmeals.settings import get_settings

CONFIRM_PATH = "/edit-profile/school-year"
"""The confirmation screen (under the parent path prefix)."""


def current() -> SchoolYear:
    """The school year now (the one clock)."""
    return year_at(clock.now())


def year_at(now: datetime) -> SchoolYear:
    """The school year at ``now`` (one call's instant, handed down)."""
    return school_year_at(now, get_settings().school_year_start)


def _unconfirmed(
    session: Session, *, parent_id: int, year: SchoolYear, child_ids: Iterable[int] | None = None
) -> list[tuple[int, str]]:
    """(id, first name) of the parent's active children to confirm for ``year``: one query."""
    statement = (
        select(Child.id, Child.first_name, Child.created_at, ChildSchoolYear.school_year)
        .outerjoin(
            ChildSchoolYear,
            and_(
                col(ChildSchoolYear.child_id) == Child.id,
                col(ChildSchoolYear.school_year) == year.year,
            ),
        )
        .where(Child.parent_id == parent_id, Child.is_active)
        .order_by(col(Child.is_default).desc(), col(Child.first_name), col(Child.id))
    )
    if child_ids is not None:
        statement = statement.where(col(Child.id).in_(sorted(set(child_ids))))
    return [
        (known_id(child_id), first_name)
        for child_id, first_name, created_at, confirmed in session.exec(statement).all()
        if needs_confirmation(created_at=created_at, confirmed_year=confirmed, current=year)
    ]


def pending_count(*, session: Session, parent_id: int) -> int:
    """How many children wait for the start-of-year confirmation (the booking screens' gate)."""
    return len(_unconfirmed(session, parent_id=parent_id, year=current()))


def _ids(values: Iterable[int]) -> list[int]:
    """The ids among ``values`` that a row can have; the callers' own checks refuse the others."""
    return [v for v in values if 1 <= v <= 2**31 - 1]


def require_confirmed(
    session: Session, *, parent_id: int, child_ids: Iterable[int], now: datetime
) -> None:
    """Booking's rule: ``school_year_unconfirmed`` for a child not confirmed for the school
    year at ``now`` (the booking call's one instant; one query; ids that are not the parent's
    active children are left to the caller)."""
    ids = _ids(child_ids)
    if not ids:
        return
    year = year_at(now)
    waiting = _unconfirmed(session, parent_id=parent_id, year=year, child_ids=ids)
    if waiting:
        _refuse(waiting[0][1], year)


def refuse_unconfirmed(children: Iterable[tuple[Child, int | None]], year: SchoolYear) -> None:
    """``require_confirmed``'s rule on children already read, each with the school year it
    was confirmed for (``year``'s, or None): the first to confirm (the default child first,
    then by first name) is named."""
    waiting = sorted(
        (not child.is_default, child.first_name, child.id or 0)
        for child, confirmed in children
        if needs_confirmation(created_at=child.created_at, confirmed_year=confirmed, current=year)
    )
    if waiting:
        _refuse(waiting[0][1], year)


def _refuse(first_name: str, year: SchoolYear) -> None:
    raise DomainError(
        "school_year_unconfirmed",
        field="child_id",
        child=first_name,
        year=year.label,
        path=CONFIRM_PATH,
    )


@dataclass(frozen=True)
class PendingChild:
    """A child to confirm for the school year, with what the screen offers: the grade one up
    (None when there are no grades; ``graduating`` for the last grade, which stays offered:
    archiving suggested), the active schools of the child's city and their teachers."""

    child: ChildView
    offered_grade: GradeRef | None
    graduating: bool
    schools: tuple[SchoolRef, ...]
    teachers: tuple[TeacherRef, ...]  # of those schools, school by school


@dataclass(frozen=True)
class YearStatus:
    """The school year and the children to confirm for it; the grades to choose from (none
    when no child waits)."""

    year: SchoolYear
    pending: tuple[PendingChild, ...]
    grades: tuple[GradeRef, ...]


def status(*, session: Session, parent_id: int) -> YearStatus:
    """The school year and the children to confirm for it, each with what the screen offers:
    the grade one up (``graduating`` for the last grade: archiving suggested), the schools of
    the child's city and their teachers, the allergies to review. Three queries."""
    year = current()
    waiting = {cid for cid, _ in _unconfirmed(session, parent_id=parent_id, year=year)}
    pending = []
    if waiting:
        places = reference.places(session)
        grades = places.grades
        for child in children_service.list_children(session=session, parent_id=parent_id):
            if child.id not in waiting:
                continue
            index = next(
                (i for i, g in enumerate(grades) if g.id == child.grade_id), len(grades) - 1
            )
            offered, graduating = next_grade_index(index, len(grades))
            schools = places.schools_of_city.get(child.city_id, ())
            pending.append(
                PendingChild(
                    child=child,
                    offered_grade=grades[offered] if grades else None,
                    graduating=graduating,
                    schools=tuple(schools),
                    teachers=tuple(
                        t for s in schools for t in places.teachers_of_school.get(s.id, ())
                    ),
                )
            )
    return YearStatus(
        year=year,
        pending=tuple(pending),
        grades=reference.places(session).grades if pending else (),
    )


def _record(session: Session, *, child_id: int, year: SchoolYear, now: datetime) -> None:
    exists = session.exec(
        select(ChildSchoolYear.id).where(
            ChildSchoolYear.child_id == child_id, ChildSchoolYear.school_year == year.year
        )
    ).first()
    if exists is None:
        session.add(ChildSchoolYear(child_id=child_id, school_year=year.year, confirmed_at=now))
        session.flush()


@dataclass(frozen=True)
class Confirmed:
    """A child confirmed for the school year, and how many of the family's are left."""

    child: ChildView
    year: SchoolYear
    pending_count: int


def confirm_child(
    *,
    session: Session,
    parent_id: int,
    child_id: int,
    allergies_reviewed: bool,
    school_id: int,
    teacher_id: int,
    grade_id: int,
) -> Confirmed:
    """Confirm one child for the current school year: school (of the child's city), teacher
    (of that school) and grade checked as when adding a child (0: left blank, "required"; a
    number that is no row's, such as -1: "not found"); the allergies must have been reviewed
    (``allergies_review_required``), checked after the child and before the places."""
    now = clock.now()
    child = children_service.own_child(session, parent_id=parent_id, child_id=child_id)
    if not allergies_reviewed:
        raise DomainError("allergies_review_required", field="allergies_reviewed")
    _city, school, teacher, grade = children_service._placement(
        session, child.city_id, school_id, teacher_id, grade_id
    )
    child.school_id = saved_id(school)
    child.teacher_id, child.grade_id = saved_id(teacher), saved_id(grade)
    session.add(child)
    year = year_at(now)
    assert child.id is not None
    _record(session, child_id=child.id, year=year, now=now)
    return Confirmed(
        child=children_service.child_view(session, child),
        year=year,
        pending_count=len(_unconfirmed(session, parent_id=parent_id, year=year)),
    )


def archive_child(*, session: Session, parent_id: int, child_id: int) -> int:
    """A child who left: archived (hidden from booking, orders kept in the history; the
    existing soft delete). Answers how many children are left to confirm."""
    children_service.delete_child(session=session, parent_id=parent_id, child_id=child_id)
    return pending_count(session=session, parent_id=parent_id)


def confirm_all_current(session: Session, *, parent_id: int) -> int:
    """Mark every active child of the parent confirmed for the current school year, changing
    nothing else (demo data: `make run` is never stopped at the confirmation screen)."""
    now = clock.now()
    year = year_at(now)
    ids = session.exec(
        select(Child.id)
        .outerjoin(
            ChildSchoolYear,
            and_(
                col(ChildSchoolYear.child_id) == Child.id,
                col(ChildSchoolYear.school_year) == year.year,
            ),
        )
        .where(
            col(Child.parent_id) == parent_id,
            col(Child.is_active),
            col(ChildSchoolYear.id).is_(None),
        )
    ).all()
    if ids:
        session.execute(
            insert(ChildSchoolYear),
            [{"child_id": i, "school_year": year.year, "confirmed_at": now} for i in ids],
        )
    return len(ids)


def reopen_for_demo(session: Session, *, parent_id: int) -> int:
    """Demo and tests only (``python -m hotmeals.cli school-year-due EMAIL``): the parent's
    active children as if added last school year and not confirmed for this one, so the next
    visit shows the confirmation screen. Answers how many children are due."""
    year = current()
    ids = list(
        session.exec(select(Child.id).where(Child.parent_id == parent_id, Child.is_active)).all()
    )
    if ids:
        session.execute(
            delete(ChildSchoolYear).where(
                col(ChildSchoolYear.child_id).in_(ids),
                col(ChildSchoolYear.school_year) >= year.year,
            )
        )
        session.execute(
            update(Child)
            .where(col(Child.id).in_(ids))
            .values(created_at=year.starts_at - timedelta(days=30))
        )
    return len(ids)
