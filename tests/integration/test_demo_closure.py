"""The demo data of a closure: the demo parent's closed day (a storm) whose meal was made up on the
next day the same vendor serves the same meal, written by the closure service; on each backend,
and once however often the seed runs."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func
from sqlmodel import SQLModel, select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    Child,
    ClosureMeal,
    MenuDay,
    Order,
    OrderLine,
    Parent,
    Payment,
    Refund,
    SchoolClosure,
)
from hotmeals.demo.closure import CLOSED_AFTER_DAYS, DEMO_CLOSURE_MARK
from hotmeals.demo.seed import load_demo_data
from hotmeals.services.closures import closure_choice
from hotmeals.services.ordering.days import get_dates
from tests.databases import SEED_TODAY


def test_the_demo_parent_has_a_closed_day_with_a_make_up_meal(seeded_engine):
    with session_scope(seeded_engine) as s:
        parent = s.exec(select(Parent).where(Parent.email == "parent@example.com")).one()
        order = s.exec(select(Order).where(Order.cart_fingerprint == DEMO_CLOSURE_MARK)).one()
        assert order.parent_id == parent.id and order.status == "placed"
        (line,) = s.exec(select(OrderLine).where(OrderLine.order_id == order.id)).all()
        closed = line.moved_from_date
        assert closed is not None and closed >= SEED_TODAY + timedelta(days=CLOSED_AFTER_DAYS)
        assert line.status == "active" and line.meal_date > closed
        child = s.get(Child, line.child_id)
        assert child is not None and child.parent_id == parent.id
        # The make-up day: the same vendor, serving the meal, open.
        made_up = s.get(MenuDay, line.menu_day_id)
        assert made_up is not None and made_up.meal_date == line.meal_date
        assert not made_up.is_closed and made_up.vendor_id == line.vendor_id
        # The closed day of the child's school, with its reason, and its closure.
        day = s.exec(
            select(MenuDay).where(MenuDay.school_id == child.school_id, MenuDay.meal_date == closed)
        ).one()
        assert day.is_closed
        assert (day.closed_reason_en, day.closed_reason_fr) == ("Storm", "Tempête")
        closure = s.exec(select(SchoolClosure).where(SchoolClosure.closed_date == closed)).one()
        assert closure.school_id == child.school_id and closure.reason == "storm"
        assert closure.reopened_at is None and str(day.id) in closure.menu_day_ids.split(",")
        (handled,) = s.exec(select(ClosureMeal).where(ClosureMeal.closure_id == closure.id)).all()
        assert (handled.order_line_id, handled.outcome) == (line.id, "makeup")
        assert handled.new_date == line.meal_date and handled.amount_cents == 0
        # No money moved: paid once by card, nothing refunded, and the family chose make-up.
        (payment,) = s.exec(select(Payment).where(Payment.order_id == order.id)).all()
        assert payment.state == "APPROVED" and payment.amount_cents == order.total_pay_cents
        assert not s.exec(select(Refund).where(Refund.order_id == order.id)).all()
        assert closure_choice(s, parent.id or 0).value == "makeup"
        # The calendar: the day closed with its reason, the meal on its new day.
        days = get_dates(
            session=s,
            parent_id=parent.id or 0,
            child_id=child.id,
            from_date=closed.isoformat(),
            to_date=line.meal_date.isoformat(),
            lang="fr",
        ).days
        by_date = {d.day: d for d in days}
        assert by_date[closed].is_closed
        assert by_date[closed].closed_reason == "Tempête"
        # the closed day names where its meal went; the make-up day names none
        assert by_date[closed].moved_to == line.meal_date
        assert by_date[line.meal_date].moved_to is None
        assert by_date[line.meal_date].ordered_quantity >= 1


def _counts(session) -> dict[str, int]:
    return {
        name: session.exec(select(func.count()).select_from(table)).one()
        for name, table in SQLModel.metadata.tables.items()
    }


def test_seeding_again_adds_no_second_closure(engine):
    with session_scope(engine) as s:
        load_demo_data(s, today=SEED_TODAY)
    with session_scope(engine) as s:
        before = _counts(s)
        report = load_demo_data(s, today=SEED_TODAY + timedelta(days=1))
        s.flush()
        assert report.created["order"] == 0
        assert _counts(s) == {
            **before,
            "menuday": before["menuday"] + report.created["menu_day"],
            "menudaymeal": before["menudaymeal"] + report.created["menu_day_meal"],
        }
        assert len(s.exec(select(SchoolClosure)).all()) == 1
