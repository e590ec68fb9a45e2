"""The database itself refuses what no code path may write (0002's constraints), on SQLite
and PostgreSQL: two default children for one parent, a cart quantity outside 1..50."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from hotmeals.db.models import CartLine, Child
from hotmeals.services import children
from tests.factories import (
    child_school,
    make_child,
    make_meal,
    make_menu_day,
    make_parent,
    make_vendor,
    portion_of,
)


def test_a_parent_has_at_most_one_default_child(engine):
    with Session(engine) as session:
        parent = make_parent(session)
        make_child(session, parent, is_default=True)
        session.commit()
        with pytest.raises(IntegrityError):
            make_child(session, parent, is_default=True)  # the factory flushes


def test_setting_an_older_child_as_default_moves_the_flag(engine):
    with Session(engine) as session:
        parent = make_parent(session)
        older = make_child(session, parent)
        younger = make_child(session, parent, is_default=True)
        session.commit()
        children.set_default_child(session=session, parent_id=parent.id, child_id=older.id)
        session.commit()
        rows = session.exec(select(Child).where(Child.parent_id == parent.id)).all()
        assert {c.id: c.is_default for c in rows} == {older.id: True, younger.id: False}


@pytest.mark.parametrize("quantity", [0, -1, 51])
def test_cart_quantities_stay_within_one_to_fifty(engine, quantity):
    with Session(engine) as session:
        parent = make_parent(session)
        child = make_child(session, parent, is_default=True)
        vendor = make_vendor(session)
        meal = make_meal(session, vendor)
        day = make_menu_day(session, child_school(session, child), vendor, date(2026, 3, 4), [meal])
        line = dict(
            parent_id=parent.id,
            child_id=child.id,
            menu_day_id=day.id,
            meal_id=meal.id,
            portion_id=portion_of(session, meal).id,
        )
        session.add(CartLine(**line, quantity=50))
        session.commit()
        session.add(CartLine(**line, quantity=quantity))
        with pytest.raises(IntegrityError):
            session.commit()
