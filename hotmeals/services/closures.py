"""School closures: the family's standing choice for a closed day's meals, and closing and
reopening a school day (docs/product.md "Closures"). Closing records the closure
(``SchoolClosure``, one row per school and date) and closes the school's open menu days of that
date with the reason, so the calendar, the menus and every booking door show the day closed and
refuse it (they read ``MenuDay.is_closed``); what then happens to the booked meals is
``services/closure_apply.py``. Reopening opens the menu days the closure closed (never one a
vendor closed); meals already handled stay as they were handled.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from sqlalchemy import func
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import (
    FamilyChoice,
    MenuDay,
    School,
    SchoolClosure,
)
from hotmeals.domain.credit import ClosureChoice
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t
from hotmeals.services.ordering.days import meal_date
from hotmeals.services.parents import hold_parent
from hotmeals.services.payments.records import audit, lock_row
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

KNOWN_REASONS = ("storm", "strike", "pa_day", "emergency", "power", "heat")
REASON_MAX = 120


# --- the family's standing choice ----------------------------------------------------------


def closure_choice(session: Session, parent_id: int) -> ClosureChoice:
    """The family's choice for a closed day's meals (the card unless they chose otherwise);
    ``GET /Parent/user/ClosureChoice``."""
    return _choices_of(session, [parent_id]).get(parent_id, ClosureChoice.CARD)


def _choices_of(session: Session, parent_ids: Iterable[int]) -> dict[int, ClosureChoice]:
    """The stored choices of ``parent_ids`` (one statement); a family without a row or with
    an unknown value is left out (the card)."""
    rows = session.exec(
        select(col(FamilyChoice.parent_id), col(FamilyChoice.closure_choice)).where(
            col(FamilyChoice.parent_id).in_(sorted(set(parent_ids)) or [0])
        )
    ).all()
    return {pid: ClosureChoice(v) for pid, v in rows if v in set(ClosureChoice)}


def choose_closure(*, session: Session, parent_id: int, closure_choice: str) -> ClosureChoice:
    """``POST /Parent/user/ClosureChoice``: card, credit or makeup, kept for every closure."""
    try:
        wanted = ClosureChoice(closure_choice)
    except ValueError:
        raise DomainError("closure_choice_invalid", field="closure_choice") from None
    hold_parent(session, parent_id)
    row = session.exec(
        select(FamilyChoice).where(col(FamilyChoice.parent_id) == parent_id)
    ).first() or FamilyChoice(parent_id=parent_id)
    row.closure_choice = wanted.value
    row.updated_at = clock.now()
    session.add(row)
    return wanted


# --- closing and reopening a day -------------------------------------------------------------


def reason_text(reason: str, lang: str) -> str:
    """A known reason code in ``lang`` ("storm" → "Storm"), other text as the operator wrote it."""
    return t(f"closures.reason.{reason}", lang) if reason in KNOWN_REASONS else reason


def checked_reason(reason: str) -> str:
    text = " ".join(reason.split())
    if not text:
        raise DomainError("closure_reason_required", field="reason")
    if len(text) > REASON_MAX:
        raise DomainError("closure_reason_too_long", field="reason", max=REASON_MAX)
    return text


def find_school(session: Session, school: str) -> School:
    """A school by id (digit text) or by its exact name, case aside."""
    text = school.strip()
    row = None
    if text.isdigit():
        row = session.get(School, int(text))
    elif text:
        matches = session.exec(
            select(School).where(func.lower(col(School.name)) == text.lower())
        ).all()
        row = matches[0] if len(matches) == 1 else None
    if row is None:
        raise DomainError("closure_school_not_found", field="school", school=text)
    return row


def _day_ids(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip().isdigit()]


def _closure(session: Session, school_id: int, day: date) -> SchoolClosure | None:
    return session.exec(
        select(SchoolClosure).where(
            col(SchoolClosure.school_id) == school_id, col(SchoolClosure.closed_date) == day
        )
    ).first()


def _save_closure(
    session: Session, closure: SchoolClosure, *, actor: str, kind: str, **data: object
) -> None:
    """The closure written and the school's audit event of it (``kind``: ``school.closed``,
    ``school.reopened``), whose data is the day and ``data``."""
    session.add(closure)
    audit(
        session,
        actor=actor,
        kind=kind,
        entity="school",
        entity_id=closure.school_id,
        data={"date": closure.closed_date.isoformat(), **data},
    )


def close_school_day(session: Session, *, school: str, day: str, reason: str, actor: str) -> int:
    """Step 1: the closure recorded (or found, and closed again after a reopen) and the
    school's open menu days of ``day`` closed with the reason. Returns the closure id."""
    found = find_school(session, school)
    when = meal_date(day, "date")
    text = checked_reason(reason)
    now = clock.now()
    closure = _closure(session, found.id or 0, when)
    if closure is None:
        closure = SchoolClosure(
            school_id=found.id or 0, closed_date=when, reason=text, actor=actor[:40]
        )
        session.add(closure)
        session.flush()
    else:
        closure = lock_row(session, SchoolClosure, closure.id or 0) or closure
        if closure.reopened_at is not None:
            closure.reopened_at = None
            closure.closed_at = now
        closure.reason = text
    days = session.exec(
        select(MenuDay).where(col(MenuDay.school_id) == found.id, col(MenuDay.meal_date) == when)
    ).all()
    closed = set(_day_ids(closure.menu_day_ids))
    for menu_day in days:
        if not menu_day.is_closed:
            closed.add(menu_day.id or 0)
        if (menu_day.id or 0) in closed:
            menu_day.is_closed = True
            menu_day.closed_reason_en = reason_text(text, "en")[:120]
            menu_day.closed_reason_fr = reason_text(text, "fr")[:120]
            session.add(menu_day)
    closure.menu_day_ids = ",".join(str(x) for x in sorted(closed))
    closure.updated_at = now
    _save_closure(
        session,
        closure,
        actor=actor,
        kind="school.closed",
        reason=text,
        menu_days=sorted(closed),
    )
    session.flush()
    return closure.id or 0


@dataclass(frozen=True)
class ReopenedDay:
    closure_id: int
    school: str  # its name
    day: date


def reopen_school_day(session: Session, *, school: str, day: str, actor: str) -> ReopenedDay:
    """The day bookable again: the menu days the closure closed are open again. Meals the
    closure handled stay as they were handled."""
    found = find_school(session, school)
    when = meal_date(day, "date")
    closure = _closure(session, found.id or 0, when)
    if closure is None or closure.reopened_at is not None:
        raise DomainError("closure_not_found", field="date", date=when.isoformat())
    closure = lock_row(session, SchoolClosure, closure.id or 0) or closure
    ids = _day_ids(closure.menu_day_ids)
    for menu_day in session.exec(select(MenuDay).where(col(MenuDay.id).in_(ids or [0]))).all():
        menu_day.is_closed = False
        menu_day.closed_reason_en = ""
        menu_day.closed_reason_fr = ""
        session.add(menu_day)
    closure.reopened_at = clock.now()
    closure.updated_at = closure.reopened_at
    _save_closure(session, closure, actor=actor, kind="school.reopened", menu_days=ids)
    return ReopenedDay(closure_id=closure.id or 0, school=found.name, day=when)


async def reopen_day(
    *, school: str, day: str, actor: str = "operator", runtime: Runtime = APP
) -> ReopenedDay:
    return await run_in_transaction(
        reopen_school_day, engine=runtime.engine, school=school, day=day, actor=actor
    )
