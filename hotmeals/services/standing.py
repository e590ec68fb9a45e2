"""Standing orders: "every Monday, pizza for Emma, until the end of term".

The parent sets one up from Book meal (a meal on a day: "Repeat every <weekday>") or from a
booked meal, and lists, pauses, resumes and ends them on one screen (``create``, ``listing``,
``change``). The periodic job ``standing`` (``services/jobs.py``) calls ``run`` every few
minutes: a sweep over the active standing orders' dates whose day is within ``BOOK_AHEAD``
days and whose cut-off has not passed, so a missed round is made up while the cut-off lasts.

**One date, once.** Each date is dealt with in one transaction that first locks the parent's
row (a checkout of the same parent waits), then inserts the ``StandingOrderRun`` row of
(standing order, date) under a unique constraint, and books in that same transaction: two
workers, a retry or a restart find the row (or fail on the constraint and roll back
everything they wrote) and book nothing more.

**Booking** a date uses the rules of adding a meal (``lines.load_batch`` / ``lines.check_line``,
with no allergy acknowledgement): a closed day, a day the meal is not on the menu, a child
whose allergies refuse the meal or need an acknowledgement, a child no longer active are
skipped, each with an e-mail in the parent's language (the mail outbox, in the same
transaction). A child who already has a meal booked that day (or waiting in the cart) is
skipped quietly. The project has no "away" days (the children have no absence calendar), so
none is checked.

**Paying**: the line is put in the parent's cart and an order of that line ALONE is written
(nothing else in the cart is ever charged) with its payment, whose invoice number is derived
from (standing order, date) (``HMS-<id>-<yymmdd>``, unique: a second payment for the same
date cannot even be written), and the family's latest saved card's charge is begun in that
transaction (``steps.begin_card_sale``: the payment is UNKNOWN from then on, so nobody charges
it again). The charge itself runs after the commit (``charge_begun_card``) and its outcome is
settled as a checkout's is (``ordering.settle.settle_approved``: the order placed and its cart
line removed, or an approval that came too late voided). With no saved card, or when the card
is declined, the line stays in the cart and the parent is e-mailed. A round that died
mid-charge leaves the run "charging": the payment reconciliation settles the payment, and the
next sweep finishes the run from the payment's outcome (``standing_job``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from hotmeals import clock
from hotmeals.db.models import (
    Child,
    Meal,
    Order,
    OrderLine,
    Portion,
    StandingOrder,
    StandingOrderRun,
    Vendor,
)
from hotmeals.domain.allergy import ensure_can_add_composed
from hotmeals.domain.cutoff import CutoffRule, before_cutoff, cutoff_at
from hotmeals.domain.dates import long_day
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import ORDERED_STATUSES, LineStatus
from hotmeals.i18n import normalize_lang, t
from hotmeals.services.ordering.allergens import Dish, components, item_allergies
from hotmeals.services.ordering.days import cutoff_rule
from hotmeals.services.ordering.labels import size_label

log = logging.getLogger("hotmeals.standing")

ACTIVE, PAUSED, ENDED = "active", "paused", "ended"
STATUSES = (ACTIVE, PAUSED, ENDED)
CHARGING, BOOKED, IN_CART, SKIPPED = "charging", "booked", "in_cart", "skipped"
# A date is booked once its day is at most this many days ahead (and before its cut-off).
BOOK_AHEAD = 7
MAX_SPAN_DAYS = 400
MAX_PER_PARENT = 30
UNTIL_TERM, UNTIL_YEAR, UNTIL_DATE = "term", "year", "date"
SKIP_REASONS = ("closed", "not_served", "allergy", "diet", "child")


# --- the school calendar's terms ----------------------------------------------------------------


def term_end(today: date) -> date:
    """The last day of the term ``today`` is in (or, in the summer, the next one) of the
    Ontario school year: January 31 for the fall term (July to January), June 30 for the
    spring term."""
    if today.month >= 7:
        return date(today.year + 1, 1, 31)
    if today.month == 1:
        return date(today.year, 1, 31)
    return date(today.year, 6, 30)


def year_end(today: date) -> date:
    """The last day of the school year ``today`` is in (June 30; from July on, next June's)."""
    return date(today.year + 1 if today.month >= 7 else today.year, 6, 30)


def next_weekday(day: date, weekday: int) -> date:
    return day + timedelta(days=(weekday - day.weekday()) % 7)


def last_weekday(day: date, weekday: int) -> date:
    """The last ``weekday`` on or before ``day``: a standing order ends on its own day."""
    return day - timedelta(days=(day.weekday() - weekday) % 7)


# --- the parent's side: create, list, pause, resume, end --------------------------------------


def _until(value: str, ends_on: str, first: date, today: date) -> date:
    """The last day the parent chose: the end of the term or of the school year of the
    standing order's ``first`` date, or a date of their own (from ``today`` on)."""
    if value in ("", UNTIL_TERM):
        return term_end(first)
    if value == UNTIL_YEAR:
        return year_end(first)
    if value == UNTIL_DATE:
        try:
            day = date.fromisoformat(ends_on)
        except ValueError:
            raise DomainError("standing_bad_end", field="ends_on") from None
        if day < today or day > today + timedelta(days=MAX_SPAN_DAYS):
            raise DomainError("standing_bad_end", field="ends_on")
        return day
    raise DomainError("standing_bad_end", field="until")


def create(
    *,
    session: Session,
    parent_id: int,
    child_id: int,
    meal_id: int,
    portion_id: int = 0,
    size: str = "",
    weekday: int | None = None,
    from_date: str = "",
    until: str = UNTIL_TERM,
    ends_on: str = "",
) -> StandingView:
    """A new ACTIVE standing order: every ``weekday`` (0 Monday .. 4 Friday; or the weekday of
    ``from_date``, the day the parent picked in Book meal), ``meal_id`` in ``portion_id`` (or
    ``size``; 0 and "": the small one) for ``child_id``, from today (or ``from_date``) until
    the end of term, of the school year, or ``ends_on``. The child must be the parent's and
    active, the meal active and the portion the meal's; the child's allergies must allow the
    meal without an acknowledgement (the job never acknowledges for the parent). Answers the
    listing's row."""
    now = clock.now()
    today = clock.today(now)
    child = session.get(Child, child_id)
    if child is None or child.parent_id != parent_id or not child.is_active:
        raise DomainError("child_not_found", field="child_id")
    meal = session.get(Meal, meal_id)
    if meal is None or not meal.is_active:
        raise DomainError("meal_not_found", field="meal_id")
    start = today
    if from_date:
        try:
            start = max(today, date.fromisoformat(from_date))
        except ValueError:
            raise DomainError("standing_bad_day", field="from_date") from None
    day_of_week = start.weekday() if weekday is None else weekday
    if not 0 <= day_of_week <= 4:
        raise DomainError("standing_bad_day", field="weekday")
    portions = session.exec(select(Portion).where(Portion.meal_id == meal.id)).all()
    portion = None
    if portion_id:
        portion = next((p for p in portions if p.id == portion_id), None)
    elif size:
        portion = next((p for p in portions if p.size == size), None)
    elif portions:
        portion = sorted(portions, key=lambda p: (p.size != "small", p.id))[0]
    if portion is None:
        raise DomainError("portion_not_found", field="portion_id")
    # the term and the year are those of its first date it can still book (the first of its
    # weekday whose cut-off is open): created on June 30, next term's end, not today's
    first = next_weekday(start, day_of_week)
    vendor = session.get(Vendor, meal.vendor_id)
    if vendor is not None:
        while not before_cutoff(cutoff_at(cutoff_rule(vendor), first), now):
            first += timedelta(days=7)
    last = last_weekday(_until(until, ends_on, first, today), day_of_week)
    if last < start:
        raise DomainError("standing_bad_end", field="ends_on")
    allergy_allows(session, parent_id=parent_id, child=child, meal=meal)
    count = len(
        session.exec(
            select(col(StandingOrder.id)).where(
                StandingOrder.parent_id == parent_id, StandingOrder.status != ENDED
            )
        ).all()
    )
    if count >= MAX_PER_PARENT:
        raise DomainError("standing_too_many", max=MAX_PER_PARENT)
    row = StandingOrder(
        parent_id=parent_id,
        child_id=child.id or 0,
        meal_id=meal.id or 0,
        portion_id=portion.id or 0,
        weekday=day_of_week,
        starts_on=start,
        ends_on=last,
        status=ACTIVE,
        created_at=now,
        updated_at=now,
    )
    session.add(row)
    session.flush()
    return rows_at(session, parent_id=parent_id, now=now, only=row.id)[0]


def booked_line(session: Session, *, parent_id: int, order_line_id: int) -> OrderLine:
    """A booked meal of the parent's (an order line, not cancelled, of a paid order) that a
    standing order can repeat: the ids a browser sends are checked here, and the child, meal,
    portion and weekday are the line's, never the browser's."""
    found = session.exec(
        select(OrderLine)
        .join(Order, col(Order.id) == OrderLine.order_id)
        .where(
            OrderLine.id == order_line_id,
            Order.parent_id == parent_id,
            col(Order.status).in_([str(s) for s in ORDERED_STATUSES]),
            OrderLine.status != LineStatus.CANCELLED,
        )
    ).first()
    if found is None:
        raise DomainError("order_change_line_not_found", field="order_line_id")
    return found


def create_from_line(
    *,
    session: Session,
    parent_id: int,
    order_line_id: int,
    until: str = UNTIL_TERM,
    ends_on: str = "",
) -> StandingView:
    """ "Repeat every <weekday>" on a booked meal: ``create`` for the line's child, meal and
    portion, on the weekday of its date, from the day after it (or today, if later)."""
    line = booked_line(session, parent_id=parent_id, order_line_id=order_line_id)
    return create(
        session=session,
        parent_id=parent_id,
        child_id=line.child_id,
        meal_id=line.meal_id,
        portion_id=line.portion_id,
        weekday=line.meal_date.weekday(),
        from_date=(line.meal_date + timedelta(days=1)).isoformat(),
        until=until,
        ends_on=ends_on,
    )


def allergy_allows(session: Session, *, parent_id: int, child: Child, meal: Meal) -> None:
    """The allergy rule on the meal alone (``domain.allergy`` through ``allergens.components``):
    refused, or needing an acknowledgement, is refused here with the rule's own error."""
    assert child.id is not None and meal.id is not None
    items = item_allergies(
        session,
        lang="en",
        child_ids=[child.id],
        meal_ids=[meal.id],
        menu_option_ids=set(),
        meal_option_ids=set(),
        addon_ids=set(),
    )
    parts = components(items, child_id=child.id, dish=Dish(meal), lang="en")
    ensure_can_add_composed(parts, acknowledged=False, lang="en")


def _weekday_name(weekday: int, lang: str) -> str:
    from babel.dates import get_day_names

    locale = "fr_CA" if lang == "fr" else "en_CA"
    return str(get_day_names("wide", locale=locale)[weekday])


def _next_date(
    row: StandingOrder, now: datetime, handled: set[date], rule: CutoffRule
) -> date | None:
    """The next date the standing order can still book: its weekday from today on, within its
    span, whose cut-off (``rule``: the meal's vendor's) has not passed and that the job has not
    handled yet (``handled``: the dates with a run, booked or skipped)."""
    if row.status != ACTIVE:
        return None
    day = next_weekday(max(clock.today(now), row.starts_on), row.weekday)
    while day <= row.ends_on:
        if day not in handled and before_cutoff(cutoff_at(rule, day), now):
            return day
        day += timedelta(days=7)
    return None


@dataclass(frozen=True)
class StandingView:
    """A standing order as the screen lists it (``wording`` says it in the parent's words)."""

    id: int
    child_id: int
    child_name: str
    meal_id: int
    meal_name_en: str
    meal_name_fr: str
    portion_id: int
    size: str
    weekday: int  # 0 Monday .. 4 Friday
    starts_on: date
    ends_on: date
    status: str  # ACTIVE, PAUSED or ENDED (ended too once past its last day)
    next_date: date | None  # the next date the job can still book
    last_status: str | None  # what the job did for the latest date it dealt with (None: none)
    last_date: date | None
    last_reason: str | None  # why it skipped it (SKIP_REASONS)


def listing(*, session: Session, parent_id: int) -> list[StandingView]:
    """The parent's standing orders now (ended ones last): two statements."""
    return rows_at(session, parent_id=parent_id, now=clock.now())


def rows_at(
    session: Session, *, parent_id: int, now: datetime, only: int | None = None
) -> list[StandingView]:
    """The parent's standing orders (``only``: that one) at ``now``, the calling request's one
    instant (ended ones last): two statements."""
    today = clock.today(now)
    # six columns: sqlmodel's ``select`` is typed for four at most
    query = (
        Select[StandingOrder, str, str, str, str, Vendor](
            StandingOrder,
            col(Child.first_name),
            col(Meal.name_en),
            col(Meal.name_fr),
            col(Portion.size),
            Vendor,
        )
        .join(Child, col(Child.id) == StandingOrder.child_id)
        .join(Meal, col(Meal.id) == StandingOrder.meal_id)
        .join(Vendor, col(Vendor.id) == Meal.vendor_id)
        .join(Portion, col(Portion.id) == StandingOrder.portion_id)
        .where(StandingOrder.parent_id == parent_id)
        .order_by(col(StandingOrder.id))
    )
    if only is not None:
        query = query.where(StandingOrder.id == only)
    rows = session.exec(query).all()
    ids = [r[0].id for r in rows]
    last: dict[int, StandingOrderRun] = {}
    handled: dict[int, set[date]] = {}
    if ids:
        for found in session.exec(
            select(StandingOrderRun)
            .where(col(StandingOrderRun.standing_order_id).in_(ids))
            .order_by(col(StandingOrderRun.meal_date))
        ).all():
            last[found.standing_order_id] = found
            handled.setdefault(found.standing_order_id, set()).add(found.meal_date)
    out = []
    for row, child_name, meal_en, meal_fr, size, vendor in rows:
        ended = row.status == ENDED or row.ends_on < today
        upcoming = (
            None
            if ended
            else _next_date(row, now, handled.get(row.id or 0, set()), cutoff_rule(vendor))
        )
        run = last.get(row.id or 0)
        out.append(
            StandingView(
                id=row.id or 0,
                child_id=row.child_id,
                child_name=child_name,
                meal_id=row.meal_id,
                meal_name_en=meal_en,
                meal_name_fr=meal_fr,
                portion_id=row.portion_id,
                size=size,
                weekday=row.weekday,
                starts_on=row.starts_on,
                ends_on=row.ends_on,
                status=ENDED if ended else row.status,
                next_date=upcoming,
                last_status=run.status if run is not None else None,
                last_date=run.meal_date if run is not None else None,
                last_reason=run.reason if run is not None else None,
            )
        )
    out.sort(key=lambda r: (r.status == ENDED, r.id))
    return out


@dataclass(frozen=True)
class StandingWording:
    """A standing order in the parent's words: what both doors show."""

    meal_name: str
    size_label: str
    summary: str  # "Every Monday: Pizza (1 portion) for Emma"
    ends_label: str
    status_label: str
    next_label: str
    last_label: str


def wording(view: StandingView, lang: str) -> StandingWording:
    """``view`` said in ``lang`` (the listing's words: the screen's and the API's)."""
    lang = normalize_lang(lang)
    meal = view.meal_name_fr if lang == "fr" else view.meal_name_en
    size = size_label(view.size, lang)
    return StandingWording(
        meal_name=meal,
        size_label=size,
        summary=t(
            "standing.summary",
            lang,
            weekday=_weekday_name(view.weekday, lang),
            meal=meal,
            size=size,
            child=view.child_name,
        ),
        ends_label=t("standing.until", lang, day=long_day(view.ends_on, lang)),
        status_label=t(f"standing.status.{view.status}", lang),
        next_label=(
            t("standing.next", lang, day=long_day(view.next_date, lang))
            if view.next_date
            else t("standing.paused_note", lang)
            if view.status == PAUSED
            else ""
        ),
        last_label=(
            t(
                f"standing.last.{view.last_status}",
                lang,
                day=long_day(view.last_date, lang),
                reason=t(f"standing.reason.{view.last_reason}", lang) if view.last_reason else "",
            )
            if view.last_status is not None and view.last_date is not None
            else ""
        ),
    )


ACTIONS = {"pause": (ACTIVE,), "resume": (PAUSED,), "end": (ACTIVE, PAUSED)}
TARGET = {"pause": PAUSED, "resume": ACTIVE, "end": ENDED}


def change(
    *,
    session: Session,
    parent_id: int,
    standing_id: int,
    action: str,
) -> StandingView:
    """Pause, resume or end one of the parent's standing orders (another parent's, or an
    unknown id: ``standing_not_found``). Pausing or ending stops the job from booking any date
    not booked yet; a date already booked stays booked (it can be cancelled in the orders).
    The same action twice is harmless. Answers the listing's row."""
    now = clock.now()
    if action not in ACTIONS:
        raise DomainError("standing_bad_action", field="action")
    key = standing_id
    row = session.get(StandingOrder, key)
    if row is None or row.parent_id != parent_id:
        raise DomainError("standing_not_found", field="id")
    target = TARGET[action]
    if row.status != target:
        if row.status not in ACTIONS[action] or row.ends_on < clock.today(now):
            raise DomainError("standing_ended", field="id")
        table: Any = StandingOrder
        session.execute(
            update(StandingOrder)
            .where(table.id == key, table.status == row.status)
            .values(status=target, updated_at=now)
            .execution_options(synchronize_session=False)
        )
        session.refresh(row)
    return rows_at(session, parent_id=parent_id, now=now, only=key)[0]
