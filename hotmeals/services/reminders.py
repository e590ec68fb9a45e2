"""The reminders parents switch on in Settings: cut-off reminder, order reminder
(the night before) and menu updates. One round (``run``) sends what is due, through the mail
outbox; the periodic job ``reminders`` (``jobs/periodic.py``) calls it every few minutes.

**When** (America/Toronto, ``REMINDER_TIME``, env ``HOTMEALS_REMINDER_TIME``, default 18:00):
- ``cutoff_reminder``: from that time on the evening before a cut-off day C until the cut-off
  itself, one mail per family listing, per active child, the school days whose cut-off falls on
  C (``domain.cutoff.cutoff_day`` of the vendor's rule, ``menu.cutoff_rule``), that are open
  (not closed, the vendor active, meals on the menu), still before their cut-off and with no
  meal booked (an active line of a paid or delivered order). Nothing when every such day is
  booked. A round after the cut-off sends nothing for it (the moment has passed).
- ``order_reminder``: from that time until midnight on the evening before school day D, one
  mail per family with at least one active child whose school serves meals on D: each child's
  booked meals, "no lunch booked", or the closure's reason.
- ``menu_updates``: a booked meal (active line, paid order, from today on) whose day is now
  closed (or its vendor stopped) or whose meal is no longer on the day: the family is told what
  changed and what happens to the booking (it can be cancelled for a full refund before its
  cut-off; after it, the provider refunds it on request). One mail per family and round, each
  (line, change) told once.

**Once**: each mail is written with a ``ReminderSent`` row per (family, kind, date, subject),
under a unique constraint, in one transaction: a second round (another worker, a retry, a
restart) finds the rows and sends nothing; two rounds racing make one of them fail on the
constraint and roll back (nothing sent by it). A round that did not run at the moment (the
server was down) is made up by the next one while the moment lasts: the rounds are sweeps.

**Switch**: read in the round's transaction (``NotificationPreference``, default on); each mail
has an unsubscribe link for its kind (a random token, stored hashed on the row):
``unsubscribe`` turns that switch off.

Each round runs a fixed number of statements whatever the number of families (one per table,
the writes in one INSERT each).
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import and_, or_
from sqlalchemy import select as select_columns
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import (
    Child,
    Meal,
    MenuDay,
    MenuDayMeal,
    Order,
    OrderLine,
    Parent,
    ReminderSent,
    Vendor,
)
from hotmeals.domain.cutoff import before_cutoff, cutoff_at, cutoff_day
from hotmeals.domain.dates import long_day, long_moment
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import notifications, reminder_rows
from hotmeals.services.booked import booked_meals
from hotmeals.services.ids import saved_id
from hotmeals.services.links import BOOK_MEAL_PATH, ORDERS_PATH, parent_url
from hotmeals.services.ordering.days import cutoff_rule
from hotmeals.services.ordering.labels import size_label
from hotmeals.services.reminder_rows import (  # noqa: F401 - the rounds' vocabulary
    CUTOFF,
    DAY_CLOSED,
    DEFAULT_TIME,
    KINDS,
    MEAL_WITHDRAWN,
    MENU,
    ORDER,
    UNSUBSCRIBE_PATH,
    Family,
    Outgoing,
    reminder_time,
)
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import in_transaction
from hotmeals.settings import get_settings

log = logging.getLogger("hotmeals.reminders")


# --- cut-off reminder ---------------------------------------------------------------------------


def _cutoff_candidates(
    vendors: list[Vendor], *, now: datetime, at: time
) -> dict[tuple[int, date], tuple[date, datetime]]:
    """(vendor id, meal date) -> (cut-off day, cut-off instant) of the meal days whose
    reminder is due now: the cut-off day C is today or tomorrow (Toronto), the evening before
    C at ``at`` has come, and the cut-off has not passed."""
    today = clock.today(now)
    out: dict[tuple[int, date], tuple[date, datetime]] = {}
    for vendor in vendors:
        rule = cutoff_rule(vendor)
        for c in (today, today + timedelta(days=1)):
            if now < reminder_rows.moment(c - timedelta(days=1), at):
                continue
            # The meal dates whose cut-off day is C lie within days_before school days of C.
            for offset in range(0, 2 * rule.days_before + 8):
                day = c + timedelta(days=offset)
                if cutoff_day(rule, day) != c:
                    continue
                closes = cutoff_at(rule, day)
                if before_cutoff(closes, now):
                    out[(vendor.id or 0, day)] = (c, closes)
    return out


def cutoff_round(session: Session, *, now: datetime, at: time) -> int:
    vendors = list(session.exec(select(Vendor).where(Vendor.is_active)).all())
    candidates = _cutoff_candidates(vendors, now=now, at=at)
    if not candidates:
        return 0
    dates = sorted({day for _, day in candidates})
    days = [
        (saved_id(d), d.school_id, d.meal_date, candidates[(d.vendor_id, d.meal_date)])
        for d in session.exec(
            select(MenuDay).where(
                col(MenuDay.meal_date).in_(dates),
                col(MenuDay.vendor_id).in_(sorted({v for v, _ in candidates})),
                MenuDay.is_closed == False,  # noqa: E712 - SQL
            )
        ).all()
        if (d.vendor_id, d.meal_date) in candidates
    ]
    served = reminder_rows.with_meals(session, [d[0] for d in days])
    # school -> meal date -> (cut-off day, cut-off instant): the open days to book
    open_days: dict[int, dict[date, tuple[date, datetime]]] = defaultdict(dict)
    for menu_day_id, school_id, day, due in days:
        if menu_day_id in served:
            known = open_days[school_id].get(day)
            open_days[school_id][day] = min(known, due) if known else due
    if not open_days:
        return 0
    children = reminder_rows.families_children(
        session, kind=CUTOFF, where=col(Child.school_id).in_(sorted(open_days))
    )
    booked = {
        (child_id, day)
        for child_id, day, *_ in reminder_rows.booked(
            session, child_ids=[c[0] for c in children], dates=dates
        )
    }
    sent = reminder_rows.already_sent(
        session, kind=CUTOFF, dates={c for c, _ in candidates.values()}
    )
    # (family, cut-off day) -> [(child name, [(day, closes)])]
    missing: dict[tuple[Family, date], list[tuple[str, list[tuple[date, datetime]]]]] = defaultdict(
        list
    )
    for child_id, name, school_id, family in children:
        per_c: dict[date, list[tuple[date, datetime]]] = defaultdict(list)
        for day, (c, closes) in sorted(open_days[school_id].items()):
            if (child_id, day) not in booked:
                per_c[c].append((day, closes))
        for c, found in per_c.items():
            if (family.parent_id, c, "") not in sent:
                missing[(family, c)].append((name, found))
    outgoing = []
    for (family, c), per_child in sorted(
        missing.items(), key=lambda kv: (kv[0][0].parent_id, kv[0][1])
    ):
        lang = family.lang
        lines = []
        for name, found in per_child:
            lines.append(f"{name}:")
            for day, closes in found:
                lines.append(
                    "  - "
                    + t(
                        "remind.cutoff.day",
                        lang,
                        day=long_day(day, lang),
                        closes=long_moment(closes, lang),
                    )
                )
        first = min(day for _, found in per_child for day, _ in found)
        outgoing.append(
            Outgoing(
                family,
                CUTOFF,
                c,
                "cutoff_reminder",
                {
                    "cutoff_day": long_day(c, lang),
                    "lines": "\n".join(lines),
                    "book_url": parent_url(BOOK_MEAL_PATH, date=first.isoformat()),
                },
            )
        )
    return reminder_rows.write_outgoing(session, outgoing)


# --- order reminder (the night before) ----------------------------------------------------------


def order_round(session: Session, *, now: datetime, at: time) -> int:
    today = clock.today(now)
    if now < reminder_rows.moment(today, at):
        return 0
    day = today + timedelta(days=1)
    rows = session.exec(
        select(MenuDay, Vendor.is_active)
        .join(Vendor, col(Vendor.id) == MenuDay.vendor_id)
        .where(MenuDay.meal_date == day)
    ).all()
    served = reminder_rows.with_meals(
        session, [saved_id(d) for d, active in rows if active and not d.is_closed]
    )
    serving = {d.school_id for d, _ in rows if d.id in served}
    if not serving:
        return 0
    closed: dict[int, MenuDay] = {}
    for d, _ in rows:
        if d.is_closed and d.school_id not in serving:
            closed.setdefault(d.school_id, d)
    families_at = select(Child.parent_id).where(
        Child.is_active, col(Child.school_id).in_(sorted(serving))
    )
    children = reminder_rows.families_children(
        session, kind=ORDER, where=col(Child.parent_id).in_(families_at)
    )
    meals: dict[int, list[tuple]] = defaultdict(list)
    for child_id, _, name_en, name_fr, size, left in reminder_rows.booked(
        session, child_ids=[c[0] for c in children], dates=[day]
    ):
        meals[child_id].append((name_en, name_fr, size, left))
    sent = reminder_rows.already_sent(session, kind=ORDER, dates=[day])
    per_family: dict[Family, list[str]] = defaultdict(list)
    for child_id, name, school_id, family in children:
        if (family.parent_id, day, "") in sent:
            continue
        lang = family.lang
        if school_id in serving:
            booked = [
                t(
                    "remind.order.meal",
                    lang,
                    meal=name_fr if lang == "fr" else name_en,
                    size=size_label(size, lang),
                )
                + (f" × {left}" if left > 1 else "")
                for name_en, name_fr, size, left in meals.get(child_id, [])
            ]
            what = ", ".join(booked) if booked else t("remind.order.none", lang)
        elif school_id in closed:
            d = closed[school_id]
            what = t(
                "remind.order.closed",
                lang,
                reason=(d.closed_reason_fr if lang == "fr" else d.closed_reason_en) or "",
            ).rstrip(" :")
        else:
            continue
        per_family[family].append(f"{name} — {what}")
    outgoing = [
        Outgoing(
            family,
            ORDER,
            day,
            "order_reminder",
            {
                "day": long_day(day, family.lang),
                "summary": " · ".join(lines),
                "lines": "\n".join(f"  - {line}" for line in lines),
                "book_url": parent_url(BOOK_MEAL_PATH, date=day.isoformat()),
            },
        )
        for family, lines in sorted(per_family.items(), key=lambda kv: kv[0].parent_id)
    ]
    return reminder_rows.write_outgoing(session, outgoing)


# --- menu updates -------------------------------------------------------------------------------


def menu_round(session: Session, *, now: datetime) -> int:
    """Booked meals whose day closed or whose meal left the day, each told once."""
    today = clock.today(now)
    on_day = and_(
        col(MenuDayMeal.menu_day_id) == OrderLine.menu_day_id,
        col(MenuDayMeal.meal_id) == OrderLine.meal_id,
    )
    rows = session.execute(
        select_columns(
            col(OrderLine.id),
            col(OrderLine.child_id),
            col(OrderLine.meal_date),
            col(OrderLine.quantity) - OrderLine.cancelled_quantity,
            col(Meal.name_en),
            col(Meal.name_fr),
            col(Meal.is_active),
            MenuDay,
            Vendor,
            col(MenuDayMeal.meal_id),
            col(Order.parent_id),
        )
        .join(Order, col(Order.id) == OrderLine.order_id)
        .join(Meal, col(Meal.id) == OrderLine.meal_id)
        .join(MenuDay, col(MenuDay.id) == OrderLine.menu_day_id)
        .join(Vendor, col(Vendor.id) == OrderLine.vendor_id)
        .outerjoin(MenuDayMeal, on_day)
        .where(
            col(OrderLine.meal_date) >= today,
            *booked_meals(),
            or_(
                col(MenuDay.is_closed),
                ~col(Vendor.is_active),
                ~col(Meal.is_active),
                col(MenuDayMeal.meal_id).is_(None),
            ),
        )
        .order_by(col(Order.parent_id), col(OrderLine.meal_date), col(OrderLine.id))
    ).all()
    if not rows:
        return 0
    children = {
        c[0]: c
        for c in reminder_rows.families_children(
            session, kind=MENU, where=col(Child.id).in_(sorted({r[1] for r in rows}))
        )
    }
    sent = reminder_rows.already_sent(session, kind=MENU, dates={r[2] for r in rows})
    per_family: dict[Family, list[tuple[date, str, str]]] = defaultdict(list)
    for (
        line_id,
        child_id,
        day,
        left,
        name_en,
        name_fr,
        _meal_active,
        menu_day,
        vendor,
        _on,
        _,
    ) in rows:
        found = children.get(child_id)
        if found is None:  # switch off, child or parent gone
            continue
        _, child_name, _, family = found
        change = DAY_CLOSED if (menu_day.is_closed or not vendor.is_active) else MEAL_WITHDRAWN
        subject = f"{line_id}:{change}"
        if (family.parent_id, day, subject) in sent:
            continue
        lang = family.lang
        meal_name = name_fr if lang == "fr" else name_en
        if change == DAY_CLOSED:
            reason = (
                menu_day.closed_reason_fr if lang == "fr" else menu_day.closed_reason_en
            ) or ""
            what = t("remind.menu.closed", lang, reason=reason).rstrip(" :")
        else:
            what = t("remind.menu.withdrawn", lang)
        closes = cutoff_at(cutoff_rule(vendor), day)
        if before_cutoff(closes, now):
            then = t("remind.menu.cancel_before", lang, closes=long_moment(closes, lang))
        else:
            then = t(
                "remind.menu.refund_on_request",
                lang,
                email=get_settings().provider_email,
                phone=get_settings().support_phone,
            )
        text = t(
            "remind.menu.line",
            lang,
            day=long_day(day, lang),
            child=child_name,
            meal=meal_name,
            quantity=left,
            what=what,
            then=then,
        )
        per_family[family].append((day, subject, text))
    outgoing = []
    for family, changes in sorted(per_family.items(), key=lambda kv: kv[0].parent_id):
        # One mail per family and round; one row per (line, change), keyed by the first date.
        by_date: dict[date, list[str]] = defaultdict(list)
        for day, subject, _ in changes:
            by_date[day].append(subject)
        first = min(by_date)
        out = Outgoing(
            family,
            MENU,
            first,
            "menu_updates",
            {
                "lines": "\n\n".join(f"  - {text}" for _, _, text in changes),
                "orders_url": parent_url(ORDERS_PATH),
            },
            subjects=by_date[first],
        )
        outgoing.append(out)
        # The other dates' rows ride on the same mail (same family, same kind).
        for day, subjects in sorted(by_date.items()):
            if day != first:
                outgoing.append(Outgoing(family, MENU, day, "", {}, subjects=subjects))
    return reminder_rows.write_outgoing(session, outgoing)


# --- the round ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Round:
    cutoff: int  # mails written
    order: int
    menu: int


def _guarded(fn: Callable[..., int], *, runtime: Runtime, **kwargs: Any) -> int:
    try:
        return in_transaction(fn, engine=runtime.engine, **kwargs)
    except IntegrityError:
        # Another round wrote the same rows first: it sent them; this one sent nothing.
        log.info("%s: another round sent these first", fn.__name__)
        return 0


def run(*, at: time | None = None, runtime: Runtime = APP) -> Round:
    """One round of the reminders job at ``runtime.now()`` (synchronous: call it from a
    thread). Each kind in its own transaction."""
    current = runtime.now()
    when = at or reminder_time()
    result = Round(
        _guarded(cutoff_round, runtime=runtime, now=current, at=when),
        _guarded(order_round, runtime=runtime, now=current, at=when),
        _guarded(menu_round, runtime=runtime, now=current),
    )
    if any((result.cutoff, result.order, result.menu)):
        log.info("reminders round: %s", result)
    return result


# --- unsubscribe --------------------------------------------------------------------------------


def _row_of(session: Session, token: str) -> ReminderSent | None:
    if not 16 <= len(token) <= 100:
        return None
    digest = hashlib.sha256(token.encode()).hexdigest()
    row = session.exec(select(ReminderSent).where(ReminderSent.token_hash == digest)).first()
    return row if row is not None and row.kind in KINDS else None


def token_kind(*, session: Session, token: str) -> str | None:
    """The kind an unsubscribe token would turn off (None: not a valid token)."""
    row = _row_of(session, token)
    return row.kind if row else None


def unsubscribe(*, session: Session, token: str) -> str:
    """Turn off the switch of the mail whose link carried ``token``; returns its kind. An
    unknown token is ``DomainError("unsubscribe_invalid")``. Repeat-safe."""
    row = _row_of(session, token)
    if row is None:
        raise DomainError("unsubscribe_invalid", field="token")
    notifications.update_preferences(
        session=session, parent_id=row.parent_id, preferences={row.kind: False}
    )
    return row.kind


def unsubscribe_language(*, session: Session, token: str) -> str:
    """The language of the parent a token belongs to ('en' when unknown): for the page."""
    if len(token) > 100:
        return "en"
    digest = hashlib.sha256(token.encode()).hexdigest()
    found = session.exec(
        select(Parent.language)
        .join(ReminderSent, col(ReminderSent.parent_id) == Parent.id)
        .where(ReminderSent.token_hash == digest)
    ).first()
    return normalize_lang(found)
