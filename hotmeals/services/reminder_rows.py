"""What every reminder round shares (``services/reminders.py``): the families whose switch is
on, what was sent already, the booked meals, and writing the ``ReminderSent`` rows with their
mails in one transaction (each with its unsubscribe token). A fixed number of statements
whatever the number of families."""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from sqlalchemy import insert
from sqlalchemy import select as select_columns
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import (
    Child,
    Meal,
    MenuDayMeal,
    NotificationPreference,
    Order,
    OrderLine,
    Parent,
    ReminderSent,
)
from hotmeals.domain.cutoff import TORONTO
from hotmeals.i18n import normalize_lang
from hotmeals.services import mail
from hotmeals.services.booked import ordered_meals
from hotmeals.services.notifications import DEFAULTS
from hotmeals.settings import get_settings

CUTOFF, ORDER, MENU = "cutoff_reminder", "order_reminder", "menu_updates"
KINDS = (CUTOFF, ORDER, MENU)
DEFAULT_TIME = time(18, 0)
UNSUBSCRIBE_PATH = "/api/v1/mail/unsubscribe"
DAY_CLOSED, MEAL_WITHDRAWN = "day_closed", "meal_withdrawn"


def reminder_time(env: dict[str, str] | None = None) -> time:
    """``HOTMEALS_REMINDER_TIME`` (``HH:MM`` or ``HH``, Toronto time); 18:00 by default."""
    raw = (env if env is not None else os.environ).get("HOTMEALS_REMINDER_TIME", "").strip()
    if not raw:
        return DEFAULT_TIME
    hours, _, minutes = raw.partition(":")
    try:
        return time(int(hours), int(minutes or 0))
    except ValueError:
        raise ValueError(f"HOTMEALS_REMINDER_TIME must be HH:MM, not {raw!r}") from None


def moment(day: date, at: time) -> datetime:
    """``at`` on local ``day`` (Toronto), as an aware datetime."""
    return datetime.combine(day, at, tzinfo=TORONTO)


def new_token() -> tuple[str, str]:
    token = secrets.token_urlsafe(24)
    return token, hashlib.sha256(token.encode()).hexdigest()


def unsubscribe_url(token: str) -> str:
    return f"{get_settings().public_base_url}{UNSUBSCRIBE_PATH}?token={token}"


@dataclass(frozen=True)
class Family:
    parent_id: int
    email: str
    first_name: str
    lang: str


@dataclass
class Outgoing:
    family: Family
    kind: str
    for_date: date
    template: str
    params: dict[str, Any]
    subjects: list[str] = field(default_factory=lambda: [""])


def enabled(kind: str, stored: bool | None) -> bool:
    return DEFAULTS[kind] if stored is None else bool(stored)


def families_children(session: Session, *, kind: str, where: Any) -> list[tuple]:
    """(child id, child first name, school id, Family) of active children of active parents
    whose ``kind`` switch is on, matching ``where``: one statement."""
    rows = session.execute(
        select_columns(
            col(Child.id),
            col(Child.first_name),
            col(Child.school_id),
            col(Parent.id),
            col(Parent.email),
            col(Parent.first_name),
            col(Parent.language),
            col(NotificationPreference.enabled),
        )
        .join(Parent, col(Parent.id) == Child.parent_id)
        .outerjoin(
            NotificationPreference,
            (col(NotificationPreference.parent_id) == Parent.id)
            & (col(NotificationPreference.kind) == kind),
        )
        .where(col(Child.is_active), col(Parent.is_active), where)
        .order_by(
            col(Parent.id), col(Child.is_default).desc(), col(Child.first_name), col(Child.id)
        )
    ).all()
    return [
        (child_id, name, school_id, Family(pid, email, first, normalize_lang(lang)))
        for child_id, name, school_id, pid, email, first, lang, on in rows
        if enabled(kind, on)
    ]


def already_sent(
    session: Session, *, kind: str, dates: Iterable[date]
) -> set[tuple[int, date, str]]:
    wanted = sorted(set(dates))
    if not wanted:
        return set()
    rows = session.exec(
        select(ReminderSent.parent_id, col(ReminderSent.for_date), ReminderSent.subject).where(
            ReminderSent.kind == kind, col(ReminderSent.for_date).in_(wanted)
        )
    ).all()
    return {(p, d, s) for p, d, s in rows}


def with_meals(session: Session, menu_day_ids: Iterable[int]) -> set[int]:
    """The menu days that offer at least one active meal: one statement."""
    ids = sorted(set(menu_day_ids))
    if not ids:
        return set()
    return set(
        session.exec(
            select(MenuDayMeal.menu_day_id)
            .join(Meal, col(Meal.id) == MenuDayMeal.meal_id)
            .where(col(MenuDayMeal.menu_day_id).in_(ids), Meal.is_active)
            .distinct()
        ).all()
    )


def booked(session: Session, *, child_ids: Iterable[int], dates: Iterable[date]) -> list[tuple]:
    """(child id, date, meal names en/fr, size, quantity left) of the booked meals: one
    statement."""
    kids, days = sorted(set(child_ids)), sorted(set(dates))
    if not kids or not days:
        return []
    return list(
        session.execute(
            select_columns(
                col(OrderLine.child_id),
                col(OrderLine.meal_date),
                col(Meal.name_en),
                col(Meal.name_fr),
                col(OrderLine.size),
                col(OrderLine.quantity) - OrderLine.cancelled_quantity,
            )
            .join(Order, col(Order.id) == OrderLine.order_id)
            .join(Meal, col(Meal.id) == OrderLine.meal_id)
            .where(
                col(OrderLine.child_id).in_(kids),
                col(OrderLine.meal_date).in_(days),
                *ordered_meals(),
            )
            .order_by(col(OrderLine.meal_date), col(OrderLine.id))
        ).all()
    )


def _sent_row(out: Outgoing, subject: str, digest: str, now: datetime) -> dict[str, Any]:
    return {
        "parent_id": out.family.parent_id,
        "kind": out.kind,
        "for_date": out.for_date,
        "subject": subject,
        "token_hash": digest,
        "created_at": now,
    }


def write_outgoing(session: Session, outgoing: list[Outgoing]) -> int:
    """The ``ReminderSent`` rows (one INSERT) and the mails (one INSERT), in the caller's
    transaction. An entry without a template only adds rows (they ride on the family's mail
    before it). A concurrent round that wrote the same rows first makes the INSERT fail on
    the unique constraint: the caller's transaction rolls back and sends nothing."""
    if not outgoing:
        return 0
    rows: list[dict[str, Any]] = []
    mails: list[mail.Templated] = []
    now = utcnow()
    for out in outgoing:
        token, digest = new_token()
        for n, subject in enumerate(out.subjects):
            rows.append(_sent_row(out, subject, digest if n == 0 else new_token()[1], now))
        if not out.template:
            continue
        mails.append(
            mail.Templated(
                to=out.family.email,
                template=out.template,
                language=out.family.lang,
                kind=out.kind,
                params={
                    "first_name": out.family.first_name,
                    "unsubscribe_url": unsubscribe_url(token),
                    **out.params,
                },
            )
        )
    session.execute(insert(ReminderSent), rows)  # one executemany
    mail.queue_templated_many(session=session, mails=mails)
    return len(mails)
