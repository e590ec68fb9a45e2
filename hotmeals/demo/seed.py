"""The demo family's orders, written by the services' own code: a standing order, a paid order
with its receipt, the school year confirmed, some family credit, and a closed school day whose
meal was made up on a later day (``closure.py``). Above the services (the database seed,
``hotmeals/db/seed.py``, writes the rows they build on and imports no service).

``load_demo_data`` is idempotent, as the seed is: each order is looked up by its natural key.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db import seed_vendors
from hotmeals.db.models import (
    Child,
    Meal,
    MenuDay,
    MenuDayMeal,
    Order,
    Parent,
    Portion,
    School,
    StandingOrder,
    Vendor,
    utcnow,
)
from hotmeals.db.seed import SeedReport, SeedTable, TableFactory, load_rows
from hotmeals.db.seed_calendar import plan_day
from hotmeals.db.seed_types import MealSpec
from hotmeals.demo.closure import demo_closure
from hotmeals.demo.orders import paid_item, write_paid_order
from hotmeals.domain.credit import CreditKind
from hotmeals.domain.errors import DomainError
from hotmeals.services import credit, school_year, standing
from hotmeals.services.ordering.place import OrderItem


def load_demo_data(session: Session, *, today: date | None = None) -> SeedReport:
    """Add whatever demo rows are missing; returns what was created. Flushes, does not commit."""
    today = today or clock.today()
    rows = load_rows(session, today=today)
    _demo_standing_order(session, rows.table, rows.parent, rows.children[0], today)
    _demo_paid_order(
        session,
        rows.report,
        rows.parent,
        rows.children,
        rows.school,
        rows.vendors,
        rows.vendor_meals,
        today,
    )
    _confirm_school_year(session, rows.parent)
    _demo_credit(session, rows.parent)
    if rows.children:
        demo_closure(session, rows.report, rows.parent, rows.children[0], today)
    session.flush()
    return rows.report


DEMO_CREDIT_CENTS = 500


def _demo_credit(session: Session, parent: Parent) -> None:
    """Some family credit for the demo parent: one operator adjustment that says so (written
    once: its key finds it on the next seed)."""
    assert parent.id is not None
    credit.record(
        session,
        parent.id,
        CreditKind.ADJUST,
        DEMO_CREDIT_CENTS,
        key="adjust:demo-credit",
        reason="demo",  # said in the parent's language (credit.ADJUST_REASONS)
    )


def _confirm_school_year(session: Session, parent: Parent) -> None:
    """The demo family is confirmed for the current school year, so `make run` is never stopped
    at the start-of-year screen (``python -m hotmeals.cli school-year-due`` shows it)."""
    assert parent.id is not None
    school_year.confirm_all_current(session, parent_id=parent.id)


def _demo_standing_order(
    session: Session, table: TableFactory, parent: Parent, child: Child, today: date
) -> None:
    """The demo parent's standing order: every Monday, for the first demo child, until the end
    of term, of a meal served on the first Monday after today at the child's school that the
    child's allergies allow (a pizza when there is one): so the job books that Monday once it
    is 7 days ahead or less (the rotation serves other meals on later Mondays, which it skips
    with an e-mail)."""
    rows = table("standing_order", StandingOrder, lambda r: (r.parent_id, r.child_id, r.weekday))
    if (parent.id, child.id, 0) in rows.rows:
        return
    meals = session.exec(
        select(col(MenuDay.meal_date), Meal)
        .join(MenuDayMeal, col(MenuDayMeal.menu_day_id) == MenuDay.id)
        .join(Meal, col(Meal.id) == MenuDayMeal.meal_id)
        .where(MenuDay.school_id == child.school_id, MenuDay.meal_date > today)
        .where(col(MenuDay.is_closed).is_(False))
        .order_by(col(MenuDay.meal_date), col(Meal.id))
    ).all()
    # the Mondays' meals in date order, a pizza first within a day (sort is stable)
    mondays = [(day, meal) for day, meal in meals if day.weekday() == 0]
    mondays.sort(key=lambda dm: (dm[0], "pizza" not in dm[1].name_en.lower()))
    for monday, meal in mondays:
        try:
            standing.allergy_allows(session, parent_id=parent.id or 0, child=child, meal=meal)
        except DomainError:
            continue
        portion = session.exec(
            select(Portion).where(Portion.meal_id == meal.id, Portion.size == "small")
        ).first()
        if portion is None:
            continue
        now = utcnow()
        rows.ensure(
            StandingOrder(
                parent_id=parent.id or 0,
                child_id=child.id or 0,
                meal_id=meal.id or 0,
                portion_id=portion.id or 0,
                weekday=0,
                starts_on=today,
                ends_on=standing.last_weekday(standing.term_end(monday), 0),
                status=standing.ACTIVE,
                created_at=now,
                updated_at=now,
            )
        )
        return


DEMO_ORDER_MARK = "demo-receipt"  # the demo order's ``cart_fingerprint``: its natural key


PAID_ORDER_WEEKS_BACK = 4  # the winter break is two weeks: the school week before it is found


def _demo_paid_order(
    session: Session,
    report: SeedReport,
    parent: Parent,
    children: list[Child],
    school: School,
    vendors: SeedTable[Vendor],
    vendor_meals: list[list[tuple[MealSpec, Meal]]],
    today: date,
) -> None:
    """The demo parent's paid order (a receipt to open): one small meal per demo
    child on the first open school day of last week, or of the last school week before it when
    last week was a break (its menu day added when the window never held it), so it sits in
    the history's past tab and blocks no bookable day. Priced, written and paid as
    ``orders.write_paid_order`` says. Added once: its mark is the order's fingerprint."""
    found = session.exec(
        select(Order.id).where(
            Order.parent_id == parent.id, Order.cart_fingerprint == DEMO_ORDER_MARK
        )
    ).first()
    if found is not None or not children:
        return
    picked: tuple[MenuDay, list[Meal]] | None = None
    this_monday = today - timedelta(days=today.weekday())
    past_days = (
        this_monday - timedelta(weeks=weeks) + timedelta(days=n)
        for weeks in range(1, PAID_ORDER_WEEKS_BACK + 1)
        for n in range(5)
    )
    for day in past_days:
        menu_day = session.exec(
            select(MenuDay).where(MenuDay.school_id == school.id, MenuDay.meal_date == day)
        ).first()
        if menu_day is None:
            plan = plan_day(
                day,
                school_index=0,
                city_index=0,
                vendor_count=len(vendor_meals),
                meal_count=min(len(pairs) for pairs in vendor_meals),
            )
            if plan.is_closed:
                continue
            vendor = vendors[seed_vendors.VENDORS[plan.vendor_index].name]
            menu_day = MenuDay(school_id=school.id or 0, vendor_id=vendor.id or 0, meal_date=day)
            session.add(menu_day)
            session.flush()
            report.created["menu_day"] += 1
            pool = vendor_meals[plan.vendor_index]
            day_meals = [pool[i][1] for i in plan.meal_indexes]
            session.add_all(
                MenuDayMeal(menu_day_id=menu_day.id or 0, meal_id=m.id or 0) for m in day_meals
            )
            report.created["menu_day_meal"] += len(day_meals)
            session.flush()
        elif menu_day.is_closed:
            continue
        meals = session.exec(
            select(Meal)
            .join(MenuDayMeal, col(MenuDayMeal.meal_id) == Meal.id)
            .where(MenuDayMeal.menu_day_id == menu_day.id)
            .order_by(col(Meal.id))
        ).all()
        if meals:
            picked = (menu_day, list(meals))
            break
    if picked is None:
        return
    menu_day, meals = picked
    items: list[OrderItem] = []
    for child in children:
        found_item = next(
            (i for i in (paid_item(session, parent, child, menu_day, m) for m in meals) if i),
            None,
        )
        if found_item is not None:
            items.append(found_item)
    if not items:
        return
    # Placed at noon (Toronto) three days before the meal, well before its cut-off.
    when = datetime.combine(menu_day.meal_date - timedelta(days=3), time(17, 0), tzinfo=UTC)
    write_paid_order(session, parent, items, mark=DEMO_ORDER_MARK, when=when)
    report.created["order"] += 1
