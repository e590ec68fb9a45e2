"""The demo's closed school day: the demo parent booked and paid one meal for the
first demo child on a school day at least three weeks ahead, chose make-up meals for closed days,
and that day of the child's school was then closed for a storm. The closure service did the
rest, as for any closure (``services/closures.py``, ``services/closure_apply.py``): the day shows
closed with its reason in the calendar, and the meal moved to the next day the same vendor serves
the same meal (the order's details say where it moved from), at no cost, so no card is refunded.

The day is picked so that nothing else is booked on it (no other family's meal to refund) and
the vendor's next open day serves the same meal; neither day a Monday (the demo standing
order's day).
Added once: its mark is the order's fingerprint, found on every later seed.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from sqlmodel import Session, col, select

from hotmeals.db.models import (
    Child,
    Meal,
    MenuDay,
    MenuDayMeal,
    Order,
    OrderLine,
    Parent,
    Vendor,
)
from hotmeals.db.seed import SeedReport
from hotmeals.demo.orders import paid_item, write_paid_order
from hotmeals.domain.credit import ClosureChoice
from hotmeals.domain.cutoff import before_cutoff, cutoff_at
from hotmeals.services.closure_apply import families_to_handle, handle_family
from hotmeals.services.closures import choose_closure, close_school_day
from hotmeals.services.ordering.days import DATES_DEFAULT_DAYS, cutoff_rule

DEMO_CLOSURE_MARK = "demo-closure"  # the closed day's order's ``cart_fingerprint``
DEMO_CLOSURE_REASON = "storm"
DEMO_CLOSURE_ACTOR = "demo"
# The closed day: three weeks ahead at least, so neither it nor its make-up day is a day the
# e2e tests book a week on, or the make-up day of one they close.
CLOSED_AFTER_DAYS = 21


def demo_closure(
    session: Session, report: SeedReport, parent: Parent, child: Child, today: date
) -> None:
    """Book, close and make up the demo's closed day (once)."""
    found = session.exec(
        select(Order.id).where(
            Order.parent_id == parent.id, Order.cart_fingerprint == DEMO_CLOSURE_MARK
        )
    ).first()
    if found is not None or parent.id is None:
        return
    # Yesterday at noon (Toronto): the order's moment, and the closure's (the make-up day's
    # cut-off is measured from it, so the seed of any ``today`` makes the same choice).
    when = datetime.combine(today - timedelta(days=1), time(17, 0), tzinfo=UTC)
    picked = _closed_day(session, parent, child, today, when)
    if picked is None:
        return
    menu_day, meal = picked
    item = paid_item(session, parent, child, menu_day, meal)
    assert item is not None  # _closed_day checked the child's allergies
    write_paid_order(session, parent, [item], mark=DEMO_CLOSURE_MARK, when=when)
    report.created["order"] += 1
    session.flush()
    choose_closure(session=session, parent_id=parent.id, closure_choice=ClosureChoice.MAKEUP)
    closure_id = close_school_day(
        session,
        school=str(child.school_id),
        day=menu_day.meal_date.isoformat(),
        reason=DEMO_CLOSURE_REASON,
        actor=DEMO_CLOSURE_ACTOR,
    )
    for parent_id in families_to_handle(session, closure_id=closure_id):
        handle_family(session, closure_id=closure_id, parent_id=parent_id, now=when)


def _closed_day(
    session: Session, parent: Parent, child: Child, today: date, now: datetime
) -> tuple[MenuDay, Meal] | None:
    """The first open school day of ``child``'s school from ``CLOSED_AFTER_DAYS`` on that
    nobody booked, with a meal the child may eat that the same vendor's next open day (before
    its cut-off at ``now``: the make-up day the closure will find) serves too; neither of them
    a Monday (the demo standing order's day).
    Four statements, whatever the number of days."""
    days = session.exec(
        select(MenuDay)
        .where(
            col(MenuDay.school_id) == child.school_id,
            col(MenuDay.meal_date) >= today + timedelta(days=CLOSED_AFTER_DAYS),
            col(MenuDay.is_closed) == False,  # noqa: E712 - SQL
        )
        .order_by(col(MenuDay.meal_date))
    ).all()
    ids = [d.id for d in days] or [0]
    booked = set(
        session.exec(
            select(col(OrderLine.menu_day_id)).where(col(OrderLine.menu_day_id).in_(ids))
        ).all()
    )
    served: dict[int, list[Meal]] = {}
    for day_id, meal in session.exec(
        select(col(MenuDayMeal.menu_day_id), Meal)
        .join(Meal, col(Meal.id) == MenuDayMeal.meal_id)
        .where(col(MenuDayMeal.menu_day_id).in_(ids))
        .order_by(col(Meal.id))
    ).all():
        served.setdefault(day_id, []).append(meal)
    vendors = {
        v.id: v
        for v in session.exec(
            select(Vendor).where(col(Vendor.id).in_(sorted({d.vendor_id for d in days}) or [0]))
        ).all()
    }
    for n, day in enumerate(days):
        vendor = vendors[day.vendor_id]
        if day.meal_date.weekday() == 0 or day.id in booked or not vendor.is_active:
            continue
        makeup = next(
            (
                d
                for d in days[n + 1 :]
                if d.vendor_id == day.vendor_id
                and d.meal_date > day.meal_date
                and d.meal_date <= day.meal_date + timedelta(days=DATES_DEFAULT_DAYS)
                and before_cutoff(cutoff_at(cutoff_rule(vendor), d.meal_date), now)
            ),
            None,
        )
        if makeup is None or makeup.meal_date.weekday() == 0:
            continue
        again = {m.id for m in served.get(makeup.id or 0, [])}
        for meal in served.get(day.id or 0, []):
            if meal.id in again and paid_item(session, parent, child, day, meal) is not None:
                return day, meal
    return None
