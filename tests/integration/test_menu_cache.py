"""The menus' per-process copy (services/menu_cache.py) against a migrated database, on SQLite
and PostgreSQL, with two engines standing for two backend workers on one database: a write
through one is seen by the very next read through the other (the version lives in the
database), a cut-off passing is seen at once (``hotmeals.clock``), the allergy rule stays
exact, and nothing is read again while nothing changed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import text, update
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import (
    AddOn,
    AddOnAllergen,
    ChildAllergy,
    Meal,
    MealAllergen,
    MenuDay,
    PriceTier,
)
from hotmeals.domain.errors import DomainError
from hotmeals.services import menu_cache
from hotmeals.services.ordering import cart, days, menu
from hotmeals.services.transaction import in_transaction
from tests import factories as f

MONDAY = date(2026, 3, 2)
# The vendor closes a day 1 day before at 10:00 Toronto (EST, UTC-5): Sunday 15:00 UTC.
CUTOFF = datetime(2026, 3, 1, 15, 0, tzinfo=UTC)
BEFORE = CUTOFF - timedelta(hours=1)


@dataclass
class Shop:
    parent_id: int
    child_id: int
    meal_id: int
    addon_id: int
    menu_day_id: int


@pytest.fixture
def workers(migrated_url: str) -> Iterator[tuple[Engine, Engine]]:
    """Two engines on one database: what two backend workers hold."""
    first, second = make_engine(migrated_url), make_engine(migrated_url)
    try:
        yield first, second
    finally:
        first.dispose()
        second.dispose()


@pytest.fixture
def shop(workers, monkeypatch) -> Shop:
    clock.set_now(BEFORE)
    with session_scope(workers[0]) as session:
        parent = f.make_parent(session)
        child = f.make_child(session, parent)
        vendor = f.make_vendor(session, cutoff_days_before=1, cutoff_time="10:00")
        meal = f.make_meal(session, vendor, name_en="Rice bowl")
        addon = AddOn(vendor_id=vendor.id, name_en="Apple", name_fr="Pomme", price_cents=125)
        session.add(addon)
        day = f.make_menu_day(session, f.child_school(session, child), vendor, MONDAY, [meal])
        session.flush()
        peanuts = f.get_allergen(session, "Peanuts")
        session.add(ChildAllergy(child_id=child.id, ingredient_id=peanuts.id, alert_level="Major"))
        return Shop(parent.id, child.id, meal.id, addon.id, day.id)


def _menu(engine: Engine, shop: Shop) -> menu.DayMenu:
    return in_transaction(
        menu.get_menu,
        engine=engine,
        parent_id=shop.parent_id,
        child_id=shop.child_id,
        date=MONDAY.isoformat(),
    )


def _add(engine: Engine, shop: Shop, **extra) -> cart.AddedLine:
    return in_transaction(
        cart.add_to_cart,
        engine=engine,
        parent_id=shop.parent_id,
        child_id=shop.child_id,
        meal_id=shop.meal_id,
        menu_day_id=shop.menu_day_id,
        **extra,
    )


def _refused(code: str, call, *args, **kwargs) -> None:
    with pytest.raises(DomainError) as err:
        call(*args, **kwargs)
    assert err.value.code == code


def _write(engine: Engine, *statements) -> None:
    with session_scope(engine) as session:
        for statement in statements:
            session.execute(statement)


def test_nothing_is_read_again_while_nothing_changes(workers, shop):
    a, b = workers
    _menu(b, shop)
    loads = menu_cache.loads
    for _ in range(3):
        assert [m.name for m in _menu(b, shop).meals] == ["Rice bowl"]
        _add(b, shop)
    assert menu_cache.loads == loads


def test_a_meal_changed_on_one_worker_is_seen_by_the_next_read_on_the_other(workers, shop):
    a, b = workers
    before = _menu(b, shop).meals[0]
    assert (before.name, before.price_from_cents) == ("Rice bowl", 550)
    _write(
        a,
        update(Meal).where(Meal.id == shop.meal_id).values(name_en="Noodle bowl"),
        update(PriceTier).where(PriceTier.unit_price_cents == 550).values(unit_price_cents=600),
    )
    after = _menu(b, shop).meals[0]
    assert (after.name, after.price_from_cents) == ("Noodle bowl", 600)
    assert _add(b, shop).unit_price_cents == 600


def test_a_day_closed_on_one_worker_is_refused_at_once_on_the_other(workers, shop):
    a, b = workers
    assert _menu(b, shop).meals
    with session_scope(a) as session:  # the ORM way an operator closes a day
        day = session.get(MenuDay, shop.menu_day_id)
        day.is_closed, day.closed_reason_en = True, "Snow day"
    _refused("menu_day_closed", _menu, b, shop)
    _refused("menu_day_closed", _add, b, shop)
    listed = in_transaction(
        days.get_dates,
        engine=b,
        parent_id=shop.parent_id,
        child_id=shop.child_id,
        from_date=MONDAY.isoformat(),
        to_date=MONDAY.isoformat(),
    ).days
    assert [(d.is_closed, d.closed_reason) for d in listed] == [(True, "Snow day")]


def test_an_allergen_added_on_one_worker_is_checked_at_once_on_the_other(workers, shop):
    a, b = workers
    assert _menu(b, shop).meals[0].allergy.verdict.value == "safe"
    _add(b, shop, addons=[shop.addon_id])
    with session_scope(a) as session:
        peanuts = f.get_allergen(session, "Peanuts")
        session.add(AddOnAllergen(addon_id=shop.addon_id, ingredient_id=peanuts.id))
    _refused("allergy_refused_extra", _add, b, shop, addons=[shop.addon_id])
    with session_scope(a) as session:
        session.add(MealAllergen(meal_id=shop.meal_id, ingredient_id=peanuts.id))
    assert _menu(b, shop).meals[0].allergy.verdict.value == "refused"
    _refused("allergy_refused", _add, b, shop)
    summary = in_transaction(cart.cart_summary, engine=b, parent_id=shop.parent_id)
    assert [line.payable for g in summary.groups for line in g.lines] == [False]


def test_the_cutoff_passing_is_seen_by_the_next_call(workers, shop, monkeypatch):
    _, b = workers
    assert _menu(b, shop).meals[0].is_open is True
    _add(b, shop)
    clock.set_now(CUTOFF)
    assert _menu(b, shop).meals[0].is_open is False
    _refused("meal_day_closed", _add, b, shop)


def test_a_rolled_back_edit_never_reaches_the_copy(workers, shop):
    a, b = workers
    with pytest.raises(RuntimeError):
        with session_scope(a) as session:
            session.get(Meal, shop.meal_id).name_en = "Never sold"
            seen = [
                m.name
                for m in menu.get_menu(
                    session=session,
                    parent_id=shop.parent_id,
                    child_id=shop.child_id,
                    date=MONDAY.isoformat(),
                ).meals
            ]
            assert seen == ["Never sold"]  # its own transaction reads its own edit
            raise RuntimeError("rolled back")
    for engine in (a, b):
        assert [m.name for m in _menu(engine, shop).meals] == ["Rice bowl"]


def test_a_write_the_orm_cannot_see_is_reported_by_bump(workers, shop):
    a, b = workers
    assert _menu(b, shop).meals[0].name == "Rice bowl"
    with session_scope(a) as session:
        session.execute(
            text("UPDATE meal SET name_en = 'Raw bowl' WHERE id = :id"), {"id": shop.meal_id}
        )
        menu_cache.bump(session)
    assert _menu(b, shop).meals[0].name == "Raw bowl"


def test_the_version_is_counted_in_the_database(workers, shop):
    a, b = workers
    with session_scope(b) as session:
        before = menu_cache.version(session)
    with session_scope(a) as session:
        session.get(Meal, shop.meal_id).name_fr = "Bol de riz"
    with session_scope(b) as session:
        assert menu_cache.version(session) == before + 1
        stored = session.exec(select(Meal.name_fr).where(Meal.id == shop.meal_id)).one()
        assert stored == "Bol de riz"
