"""Paid meals for the closure and "child away" tests: a family with children at one school, a
vendor whose cut-off is the day before at 10:00 serving one meal there on Mondays, and orders
paid through the real checkout against the Converge simulator."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import col, select

from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import OrderLine, Refund
from hotmeals.services import closures
from hotmeals.services.ordering import cart
from tests import factories as f
from tests.orders_support import monday_in, pay
from tests.payments_support import SimServer


def family(engine: Engine, children: int = 1, *, served_after: bool = True) -> dict:
    """A parent with ``children`` children at one school, a vendor (cut-off the day before at
    10:00) serving one meal there on a Monday two weeks out and, with ``served_after``, the
    Monday after."""
    day = monday_in(2)
    with session_scope(engine) as s:
        parent = f.make_parent(s)
        school = f.make_school(s)
        kids = [
            f.make_child(s, parent, school=school, first_name=f"Kid{n}", is_default=n == 0)
            for n in range(children)
        ]
        vendor = f.make_vendor(s, cutoff_days_before=1, cutoff_time="10:00")
        meal = f.make_meal(s, vendor, name_en="Pasta", name_fr="Pâtes")
        closed = f.make_menu_day(s, school, vendor, day, [meal])
        later = f.make_menu_day(
            s, school, vendor, day + timedelta(days=7), [meal] if served_after else []
        )
        s.flush()
        return {
            "parent_id": parent.id,
            "school_id": school.id,
            "school": school.name,
            "children": [k.id for k in kids],
            "meal_id": meal.id,
            "day": day,
            "menu_day_id": closed.id,
            "later_id": later.id,
        }


async def book(
    engine: Engine,
    gw: ConvergeClient,
    sim: SimServer,
    fam: dict,
    menu_days: list[int] | None = None,
) -> int:
    """Every child booked on ``menu_days`` (default: the first Monday), paid: the order id."""
    with session_scope(engine) as s:
        for menu_day_id in menu_days or [fam["menu_day_id"]]:
            for child in fam["children"]:
                cart.add_to_cart(
                    session=s,
                    parent_id=fam["parent_id"],
                    child_id=child,
                    meal_id=fam["meal_id"],
                    menu_day_id=menu_day_id,
                )
    return await pay(engine, gw, sim, fam)


def choose(engine: Engine, fam: dict, choice: str) -> None:
    with session_scope(engine) as s:
        closures.choose_closure(session=s, parent_id=fam["parent_id"], closure_choice=choice)


def rows_of(engine: Engine, model: Any, *where: Any) -> list[Any]:
    with session_scope(engine) as s:
        rows = list(s.exec(select(model).where(*where)).all())
        for row in rows:
            s.expunge(row)
        return rows


def lines_of(engine: Engine, order_id: int) -> list[OrderLine]:
    return rows_of(engine, OrderLine, col(OrderLine.order_id) == order_id)


def refunds_of(engine: Engine, order_id: int) -> list[Refund]:
    return rows_of(engine, Refund, col(Refund.order_id) == order_id)
