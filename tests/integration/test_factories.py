"""The shared test factories build valid rows on both backends, alone or beside the demo data."""

from __future__ import annotations

from datetime import date

from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import ChildAllergy, MenuDayMeal, PriceTier
from hotmeals.demo.seed import load_demo_data
from hotmeals.security import verify_password
from tests import factories as f


def test_factories_build_a_family_a_menu_and_prices(engine):
    with session_scope(engine) as session:
        load_demo_data(
            session, today=date(2026, 3, 4)
        )  # shared look-ups are reused, not duplicated
        parent = f.make_parent(session, email="Someone@Example.com", password="Secret#2026")
        child = f.make_child(session, parent, grade_code="JK", allergies={"Peanuts": "Major"})
        vendor = f.make_vendor(session, cutoff_days_before=1, cutoff_time="10:00")
        options = {"menu_options": {"Water": 0}, "meal_options": {"Gluten-free bun": 75}}
        meal = f.make_meal(session, vendor, bulk={5: 25}, allergens=["Milk"], **options)
        day = f.make_menu_day(
            session, f.child_school(session, child), vendor, date(2026, 3, 2), [meal]
        )
        closed = f.make_menu_day(
            session, f.make_school(session), vendor, date(2026, 3, 6), closed=True
        )

        assert parent.email == "someone@example.com" and parent.id
        assert verify_password(parent.password_hash, "Secret#2026")
        allergy = session.exec(select(ChildAllergy).where(ChildAllergy.child_id == child.id)).one()
        assert allergy.alert_level == "Major"
        small = f.portion_of(session, meal, "small")
        tiers = session.exec(select(PriceTier).where(PriceTier.portion_id == small.id)).all()
        assert sorted((t.min_quantity, t.unit_price_cents) for t in tiers) == [(1, 550), (5, 525)]
        links = session.exec(select(MenuDayMeal).where(MenuDayMeal.menu_day_id == day.id)).all()
        assert [link.meal_id for link in links] == [meal.id]
        assert closed.is_closed and closed.closed_reason_fr == "Journée pédagogique"
