"""The school meal days a parent books on: a meal date read from the client, today in
Toronto, a vendor's cut-off rule, which days of a school are served and open, and the child's
calendar (GetDates: each day open or closed, its cut-off, what is ordered or in the cart).

Every call that takes a child id goes through ``children.own_child`` (another parent's child
is 'Child not found'). The cut-off is ``domain.cutoff``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from sqlalchemy import bindparam, func
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import (
    CartLine,
    ClosureMeal,
    MenuDay,
    Order,
    OrderLine,
    SchoolClosure,
    Vendor,
)
from hotmeals.domain.cutoff import CutoffRule, before_cutoff, cutoff_at
from hotmeals.domain.dates import parse_iso, parse_mdy
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import KEPT_LINE_STATUSES, ORDERED_STATUSES
from hotmeals.i18n import t
from hotmeals.services import menu_cache
from hotmeals.services.away_days import away_days
from hotmeals.services.children import own_child
from hotmeals.services.ordering.labels import closed_reason

DATES_DEFAULT_DAYS = 56  # the calendar shows eight weeks from today
DATES_MAX_DAYS = 186  # a school term at most per call


def meal_date(value: str, field: str = "date") -> date:
    """A meal date as ``YYYY-MM-DD`` or the old client's ``M/D/YYYY``."""
    text = value.strip()
    if not text:
        raise DomainError("meal_date_required", field=field)
    try:
        return parse_mdy(text) if "/" in text else parse_iso(text)
    except DomainError:
        raise DomainError("invalid_date", field=field) from None


def cutoff_rule(vendor: Vendor) -> CutoffRule:
    """The vendor's stored rule (``cutoff_time`` is local HH:MM)."""
    hours, _, minutes = (vendor.cutoff_time or "17:00").partition(":")
    return CutoffRule(
        days_before=vendor.cutoff_days_before,
        at=time(int(hours), int(minutes or 0)),
        skip_weekends=vendor.cutoff_skip_weekends,
    )


def week_start(day: date) -> date:
    """The Monday of ``day``'s week."""
    return day - timedelta(days=day.weekday())


def cutoff_state(vendor: Vendor, day: date, now: datetime) -> tuple[datetime, bool]:
    """When the vendor stops taking orders for ``day``, and whether ``now`` is before."""
    closes = cutoff_at(cutoff_rule(vendor), day)
    return closes, before_cutoff(closes, now)


# Built once (statements built per call cost more CPU than SQLite takes to run them): a
# child's paid meals, and its meals in the parent's cart, by day of a window.
_ORDERED_BY_DAY = (
    select(
        col(OrderLine.meal_date),
        func.sum(col(OrderLine.quantity) - col(OrderLine.cancelled_quantity)),
    )
    .join(Order, col(Order.id) == OrderLine.order_id)
    .where(
        col(OrderLine.child_id) == bindparam("child_id"),
        col(OrderLine.meal_date) >= bindparam("start"),
        col(OrderLine.meal_date) <= bindparam("end"),
        col(OrderLine.status).in_([str(s) for s in KEPT_LINE_STATUSES]),
        col(Order.status).in_([str(s) for s in ORDERED_STATUSES]),
    )
    .group_by(col(OrderLine.meal_date))
)
_IN_CART_BY_DAY = (
    select(col(MenuDay.meal_date), func.sum(col(CartLine.quantity)))
    .join(MenuDay, col(MenuDay.id) == CartLine.menu_day_id)
    .where(
        col(CartLine.parent_id) == bindparam("parent_id"),
        col(CartLine.child_id) == bindparam("child_id"),
        col(MenuDay.meal_date) >= bindparam("start"),
        col(MenuDay.meal_date) <= bindparam("end"),
    )
    .group_by(col(MenuDay.meal_date))
)

# The child's meals a school closure moved to a make-up day, by the day closed (the first
# make-up day when there are several): Book meal's closed day says where the meal went.
_MOVED_BY_DAY = (
    select(col(SchoolClosure.closed_date), func.min(col(ClosureMeal.new_date)))
    .join(ClosureMeal, col(ClosureMeal.closure_id) == SchoolClosure.id)
    .join(OrderLine, col(OrderLine.id) == ClosureMeal.order_line_id)
    .where(
        col(OrderLine.child_id) == bindparam("child_id"),
        col(SchoolClosure.closed_date) >= bindparam("start"),
        col(SchoolClosure.closed_date) <= bindparam("end"),
        col(SchoolClosure.reopened_at).is_(None),
        col(ClosureMeal.new_date).is_not(None),
    )
    .group_by(col(SchoolClosure.closed_date))
)


def asked_days(
    from_date: str, to_date: str, now: datetime, default_end: Callable[[date], date]
) -> tuple[date, date]:
    """The first and last day asked (the client's text, "" when left out): from
    ``from_date`` (default: today in Toronto) to ``to_date`` (default: ``default_end`` of the
    first); one ending before it starts or longer than ``DATES_MAX_DAYS`` is refused
    (``date_range_invalid``)."""
    start = meal_date(from_date, "from_date") if from_date else clock.today(now)
    end = meal_date(to_date, "to_date") if to_date else default_end(start)
    if end < start or (end - start).days > DATES_MAX_DAYS:
        raise DomainError("date_range_invalid", field="to_date", max=DATES_MAX_DAYS)
    return start, end


@dataclass(frozen=True)
class MealDay:
    """A school meal day of a child (``get_dates``): open or closed with its reason, the
    vendor's cut-off and whether it is still open (and the child not away), the meals already
    ordered or in the cart for the child, and where a closure moved the child's meal."""

    day: date
    menu_day_id: int
    vendor_id: int
    vendor: str
    is_closed: bool
    closed_reason: str  # in the parent's language, "" when open
    cutoff_at: datetime
    is_open: bool  # not closed, the vendor serving, before the cut-off, the child not away
    ordered_quantity: int
    cart_quantity: int
    moved_to: date | None  # a closed day whose booked meal a closure moved: the make-up day
    is_away: bool  # the child is marked away (``away_days``)
    away_label: str  # 'Emma is away' on such a day, else ""


@dataclass(frozen=True)
class ChildDates:
    child_id: int
    first: date
    last: date
    days: tuple[MealDay, ...]  # by date, then vendor name


def get_dates(
    *,
    session: Session,
    parent_id: int,
    child_id: int,
    from_date: str = "",
    to_date: str = "",
    lang: str = "en",
) -> ChildDates:
    """The child's school meal days from ``from_date`` (the client's text; default: today in
    Toronto) to ``to_date`` (default: eight weeks on): open or closed with the reason, each
    day's cut-off and whether it is still open, and the meals already ordered or in the cart
    for the child; a day the child is away (``away_days``) is not open. Five statements
    whatever the number of days (the days themselves from the menus' cached copy,
    ``services/menu_cache``); a closed day whose meal a closure moved names the make-up day
    (``moved_to``: one statement more when the days hold a closed one)."""
    child = own_child(session, parent_id=parent_id, child_id=child_id)
    assert child.id is not None  # read from the database
    now = clock.now()
    start, end = asked_days(
        from_date, to_date, now, lambda first: first + timedelta(days=DATES_DEFAULT_DAYS)
    )
    school = menu_cache.catalog(session).school_days(session, child.school_id)
    days = [pair for day, pairs in school.at.items() if start <= day <= end for pair in pairs]
    window = {"child_id": child.id, "start": start, "end": end}
    ordered: dict[date, int] = {
        day: int(n or 0) for day, n in session.execute(_ORDERED_BY_DAY, window).all()
    }
    in_cart: dict[date, int] = {
        day: int(n or 0)
        for day, n in session.execute(_IN_CART_BY_DAY, {**window, "parent_id": parent_id}).all()
    }
    moved: dict[date, date] = {}
    if any(day.is_closed for day, _vendor in days):  # only then can a closure have moved one
        moved = dict(session.execute(_MOVED_BY_DAY, window).all())
    away = away_days(session, child.id, start, end)  # one statement
    away_label = t("away.day", lang, child=child.first_name) if away else ""
    out = []
    for day, vendor in days:
        assert day.id is not None and vendor.id is not None  # read from the database
        closes, before_cutoff = cutoff_state(vendor, day.meal_date, now)
        is_away = day.meal_date in away
        out.append(
            MealDay(
                day=day.meal_date,
                menu_day_id=day.id,
                vendor_id=vendor.id,
                vendor=vendor.name,
                is_closed=day.is_closed,
                closed_reason=closed_reason(day, lang) if day.is_closed else "",
                cutoff_at=closes,
                is_open=before_cutoff and not day.is_closed and vendor.is_active and not is_away,
                ordered_quantity=ordered.get(day.meal_date, 0),
                cart_quantity=in_cart.get(day.meal_date, 0),
                moved_to=moved.get(day.meal_date),
                is_away=is_away,
                away_label=away_label if is_away else "",
            )
        )
    return ChildDates(child_id=child.id, first=start, last=end, days=tuple(out))


def served_days(session: Session, *, school_id: int, day: date) -> list[tuple[MenuDay, Vendor]]:
    """The (menu day, vendor) pairs serving the school on ``day``, by vendor name: from the
    menus' cached copy (``services/menu_cache``, as current as the database)."""
    return list(menu_cache.catalog(session).school_days(session, school_id).at.get(day, ()))


def open_days_or_refuse(
    session: Session, *, school_id: int, day: date, lang: str
) -> list[tuple[MenuDay, Vendor]]:
    """The vendors serving the school on ``day``; a day the school does not serve, or a closed
    one (with its reason), is refused (``open_or_refuse``)."""
    return open_or_refuse(served_days(session, school_id=school_id, day=day), day=day, lang=lang)


def open_or_refuse(
    served: Sequence[tuple[MenuDay, Vendor]], *, day: date, lang: str
) -> list[tuple[MenuDay, Vendor]]:
    """Of the (menu day, vendor) pairs serving a school on ``day`` (by vendor name), the open
    ones; none at all is 'no meals on that date', none open is 'closed' with the first one's
    reason."""
    if not served:
        raise DomainError("menu_date_not_served", field="date", date=day.isoformat())
    open_days = [(d, v) for d, v in served if not d.is_closed and v.is_active]
    if not open_days:
        raise closed_day(served[0][0], day=day, lang=lang)
    return open_days


def closed_day(menu_day: MenuDay, *, day: date, lang: str) -> DomainError:
    """``menu_day_closed`` for ``day`` with the menu day's reason in the parent's language (a
    closed day, or its vendor no longer serving)."""
    reason = closed_reason(menu_day, lang)
    return DomainError("menu_day_closed", field="date", date=day.isoformat(), reason=reason)
