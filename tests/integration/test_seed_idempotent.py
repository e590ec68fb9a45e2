"""load_demo_data adds only what is missing: a second run creates and changes nothing, and a
later ``today`` only adds the meal days that came into the window."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import select as sa_select
from sqlmodel import SQLModel, select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import MenuDay, MenuDayMeal, Order, OrderLine, School
from hotmeals.db.seed_calendar import school_days
from hotmeals.demo.seed import DEMO_ORDER_MARK, load_demo_data

TODAY = date(2026, 3, 4)


def snapshot(engine) -> dict[str, set[tuple]]:
    """Every row of every table, as tuples."""
    with engine.connect() as conn:
        return {
            name: {tuple(row) for row in conn.execute(sa_select(table))}
            for name, table in SQLModel.metadata.tables.items()
        }


def seed(engine, today: date):
    with session_scope(engine) as session:
        return load_demo_data(session, today=today)


def demo_order_day(session) -> date:
    """The meal date of the demo parent's paid order (the seed's receipt)."""
    return session.exec(
        select(OrderLine.meal_date)
        .join(Order, Order.id == OrderLine.order_id)
        .where(Order.cart_fingerprint == DEMO_ORDER_MARK)
    ).first()


def test_second_run_creates_and_changes_nothing(engine):
    first = seed(engine, TODAY)
    assert first.total > 1000
    assert all(n > 0 for n in first.created.values()), first.created
    before = snapshot(engine)

    second = seed(engine, TODAY)

    assert second.total == 0
    assert set(second.created.values()) == {0}
    assert snapshot(engine) == before


def test_a_later_today_only_adds_the_new_days(engine):
    seed(engine, TODAY)
    before = snapshot(engine)
    later = TODAY + timedelta(days=16)  # a Friday, two weeks on

    report = seed(engine, later)

    added = {kind for kind, n in report.created.items() if n}
    assert added == {"menu_day", "menu_day_meal"}
    after = snapshot(engine)
    # The menus' version (services/menu_cache.py) counts the write: every worker's copy of
    # the menus is stale now. Every other row stays as it was.
    assert max(v for _, v in after.pop("cacheversion")) > max(
        v for _, v in before.pop("cacheversion")
    )
    for name, rows in before.items():
        assert rows <= after[name], f"{name}: existing rows changed or vanished"
    with session_scope(engine) as session:
        schools = session.exec(select(School)).all()
        days = session.exec(select(MenuDay)).all()
        first_window, second_window = school_days(TODAY), school_days(later)
        # Before the window: only the demo order's day (last week), added by the first run.
        (past,) = [d for d in days if d.meal_date < TODAY]
        assert past.meal_date == demo_order_day(session)
        days = [d for d in days if d.meal_date >= TODAY]
        for school in schools:
            dates = {d.meal_date for d in days if d.school_id == school.id}
            assert dates == set(first_window) | set(second_window)
        new_dates = {d.meal_date for d in days} - set(first_window)
        assert new_dates and min(new_dates) > max(first_window)
        assert report.created["menu_day"] == len(new_dates) * len(schools)
        links = session.exec(select(MenuDayMeal)).all()
        assert len(links) == len(before["menudaymeal"]) + report.created["menu_day_meal"]

    assert seed(engine, later).total == 0


def test_a_run_on_a_weekend_starts_with_the_next_monday(engine):
    saturday = date(2026, 3, 7)
    seed(engine, saturday)
    with session_scope(engine) as session:
        days = session.exec(select(MenuDay).where(MenuDay.meal_date >= saturday)).all()
        dates = sorted({d.meal_date for d in days})
    assert dates[0] == date(2026, 3, 9)
    assert dates[-1] == date(2026, 4, 17)
    assert len(dates) == 30
