"""Dietary needs against a migrated database (SQLite and PostgreSQL): a child's needs saved
and read, the menus' fit for a child (the meal as composed), the notice before a meal that
does not fit, and the skips of standing orders and repeat-a-week."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    AddOn,
    AddOnDiet,
    ChildDiet,
    MealDiet,
    MealOption,
    MenuOption,
    MenuOptionDiet,
)
from hotmeals.domain.diet import Diet
from hotmeals.domain.errors import DomainError
from hotmeals.services import children, menu_cache
from hotmeals.services.ordering import cart, menu, repeat
from tests import factories as f


def _placement(session, child) -> dict:
    return {
        "first_name": child.first_name,
        "last_name": child.last_name,
        "city_id": child.city_id,
        "school_id": child.school_id,
        "teacher_id": child.teacher_id,
        "grade_id": child.grade_id,
    }


def test_a_childs_needs_are_saved_read_and_replaced(engine):
    with session_scope(engine) as session:
        parent = f.make_parent(session)
        model = f.make_child(session, parent, first_name="Emma")
        placement = {**_placement(session, model), "first_name": "Noor"}
        added = children.add_child(
            session=session,
            parent_id=parent.id,
            **placement,
            diets=frozenset({Diet.HALAL, Diet.VEGETARIAN}),
        )
        assert added.diets == (Diet.VEGETARIAN, Diet.HALAL)
        kept = children.edit_child(
            session=session, parent_id=parent.id, child_id=added.id, **placement
        )
        assert kept.diets == (Diet.VEGETARIAN, Diet.HALAL)  # not given: unchanged
        changed = children.edit_child(
            session=session,
            parent_id=parent.id,
            child_id=added.id,
            **placement,
            diets=frozenset({Diet.NO_PORK}),
        )
        assert changed.diets == (Diet.NO_PORK,)
        listed = {
            c.first_name: c.diets
            for c in children.list_children(session=session, parent_id=parent.id)
        }
        assert listed == {"Emma": (), "Noor": (Diet.NO_PORK,)}
        assert children.child_diets(session, [model.id, added.id]) == {
            added.id: frozenset({Diet.NO_PORK})
        }


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_whose_diet_reads_in_both_languages(lang):
    from hotmeals.domain import diet

    expected = {"en": ("Emma's", "Noah's"), "fr": ("d'Emma", "de Noah")}[lang]
    assert (diet.whose("Emma", lang), diet.whose("Noah", lang)) == expected


# --- the menus, the add, the cart and repeat-a-week for a vegetarian child ------------------

MONDAY = date(2026, 3, 2)
# Monday's cut-off is the day before at 10:00 Toronto (15:00 UTC): three days before that.
NOW = datetime(2026, 2, 26, 15, 0, tzinfo=UTC)


@dataclass
class Tray:
    parent_id: int
    emma: int  # vegetarian; Major peanuts
    pasta: int  # vegetarian
    wrap: int  # chicken: no pork, no beef
    satay: int  # peanuts, chicken
    milk: int  # menu option of the pasta: vegetarian, halal, gluten-free
    ham: int  # meal option of the pasta: no mark
    apple: int  # add-on: vegan
    jerky: int  # add-on: no mark
    day: int  # MONDAY's menu day
    next_day: int  # the Monday after


def _tray(session) -> Tray:
    clock.set_now(NOW)
    parent = f.make_parent(session)
    emma = f.make_child(session, parent, first_name="Emma", allergies={"Peanuts": "Major"})
    session.add(ChildDiet(child_id=emma.id, diet="vegetarian"))
    vendor = f.make_vendor(session, cutoff_days_before=1, cutoff_time="10:00")
    pasta = f.make_meal(
        session,
        vendor,
        name_en="Veggie pasta",
        name_fr="Pâtes végé",
        menu_options={"Milk": 0},
        meal_options={"Ham": 50},
    )
    wrap = f.make_meal(session, vendor, name_en="Chicken wrap", name_fr="Wrap au poulet")
    satay = f.make_meal(session, vendor, name_en="Satay", allergens=["Peanuts"])
    apple = AddOn(vendor_id=vendor.id, name_en="Apple", name_fr="Pomme", price_cents=100)
    jerky = AddOn(vendor_id=vendor.id, name_en="Jerky", name_fr="Bœuf séché", price_cents=150)
    session.add_all([apple, jerky])
    session.flush()
    milk = session.exec(select(MenuOption).where(MenuOption.meal_id == pasta.id)).one()
    ham = session.exec(select(MealOption).where(MealOption.meal_id == pasta.id)).one()
    session.add_all(
        [
            MealDiet(meal_id=pasta.id, diet="vegetarian"),
            *(MealDiet(meal_id=wrap.id, diet=d) for d in ("no_pork", "no_beef")),
            *(MenuOptionDiet(menu_option_id=milk.id, diet=d) for d in ("vegetarian", "halal")),
            AddOnDiet(addon_id=apple.id, diet="vegan"),
        ]
    )
    school = f.child_school(session, emma)
    day = f.make_menu_day(session, school, vendor, MONDAY, [pasta, wrap, satay])
    later = f.make_menu_day(session, school, vendor, MONDAY + timedelta(days=7), [pasta, wrap])
    session.flush()
    return Tray(
        parent.id,
        emma.id,
        pasta.id,
        wrap.id,
        satay.id,
        milk.id,
        ham.id,
        apple.id,
        jerky.id,
        day.id,
        later.id,
    )


def _add(session, tray: Tray, meal_id: int, **extra):
    return cart.add_to_cart(
        session=session,
        parent_id=tray.parent_id,
        child_id=tray.emma,
        meal_id=meal_id,
        menu_day_id=tray.day,
        **extra,
    )


def test_the_menus_say_what_fits_the_child_on_the_meal_as_composed(engine):
    with session_scope(engine) as session:
        tray = _tray(session)
        day = menu.get_menu(
            session=session, parent_id=tray.parent_id, child_id=tray.emma, date=str(MONDAY)
        )
        assert day.needs == (Diet.VEGETARIAN,)
        meals = {m.meal_id: m for m in day.meals}
        pasta, wrap, satay = meals[tray.pasta], meals[tray.wrap], meals[tray.satay]
        # The marks shown with the ones they imply; the fit for Emma, and what misses.
        assert pasta.diets == (Diet.VEGETARIAN, Diet.NO_PORK, Diet.NO_BEEF)
        assert pasta.diet is not None and pasta.diet.fits and pasta.safe_for_child
        assert wrap.diet is not None and wrap.diet.unmet == (Diet.VEGETARIAN,)
        assert not wrap.safe_for_child  # safe from allergies, but not her diet
        assert not satay.safe_for_child  # neither
        detail = menu.menu_detail(
            session=session, parent_id=tray.parent_id, meal_id=tray.pasta, child_id=tray.emma
        )
        assert detail.needs == (Diet.VEGETARIAN,) and detail.diet is not None
        assert [o.diet.fits for o in detail.menu_options if o.diet] == [True]  # the milk
        assert [o.diet.unmet for o in detail.meal_options if o.diet] == [(Diet.VEGETARIAN,)]
        addons = {a.id: a.diet for a in detail.addons}
        assert addons[tray.apple] is not None and addons[tray.apple].fits
        assert addons[tray.jerky] is not None and not addons[tray.jerky].fits
        # The meal as composed: only what every part carries.
        fits = menu.composed_diet(detail, menu_option_id=tray.milk, addon_ids=[tray.apple])
        assert fits is not None and fits.fits
        with_ham = menu.composed_diet(detail, meal_option_id=tray.ham)
        assert with_ham is not None and with_ham.unmet == (Diet.VEGETARIAN,)
        with_jerky = menu.composed_diet(detail, addon_ids=[tray.apple, tray.jerky])
        assert with_jerky is not None and not with_jerky.fits
        # Without a child, nothing to say; a child without needs: None too.
        bare = menu.menu_detail(session=session, parent_id=tray.parent_id, meal_id=tray.pasta)
        assert bare.diet is None and bare.needs == () and menu.composed_diet(bare) is None
        assert bare.diets == (Diet.VEGETARIAN, Diet.NO_PORK, Diet.NO_BEEF)


def test_a_meal_that_does_not_fit_is_added_after_the_notice_and_allergies_come_first(engine):
    with session_scope(engine) as session:
        tray = _tray(session)
        with pytest.raises(DomainError) as err:
            _add(session, tray, tray.wrap)
        assert err.value.code == "diet_ack_required" and err.value.field == "diet_ack"
        assert err.value.message("en") == (
            "Chicken wrap does not fit Emma's diet (Not vegetarian). Confirm that you want it "
            "anyway before adding it"
        )
        with pytest.raises(DomainError) as err:
            _add(session, tray, tray.wrap, lang="fr")
        assert err.value.message("fr").startswith(
            "Wrap au poulet ne convient pas au régime d'Emma (Non végétarien)."
        )
        added = _add(session, tray, tray.wrap, diet_ack=True)
        assert added.cart_count == 1
        # The meal as composed: a vegetarian meal with ham needs the notice too; with milk
        # and an apple it fits.
        with pytest.raises(DomainError) as err:
            _add(session, tray, tray.pasta, meal_option_id=tray.ham)
        assert err.value.code == "diet_ack_required"
        _add(session, tray, tray.pasta, menu_option_id=tray.milk, addons=[tray.apple])
        # The allergy rule is unchanged and first: a Major allergen refuses, ack or not.
        with pytest.raises(DomainError) as err:
            _add(session, tray, tray.satay, diet_ack=True)
        assert err.value.code == "allergy_refused"
        # The cart says it: the wrap misses her diet, the pasta fits; both can be paid.
        summary = cart.cart_summary(session=session, parent_id=tray.parent_id)
        lines = {line.meal_id: line for g in summary.groups for line in g.lines}
        wrap, pasta = lines[tray.wrap], lines[tray.pasta]
        assert wrap.diet is not None and wrap.diet.unmet == (Diet.VEGETARIAN,) and wrap.payable
        assert pasta.diet is not None and pasta.diet.fits


def test_repeat_week_skips_a_meal_that_does_not_fit_and_says_what_it_misses(engine):
    with session_scope(engine) as session:
        tray = _tray(session)
        _add(session, tray, tray.wrap, diet_ack=True)
        _add(session, tray, tray.pasta)
        done = repeat.repeat_week(
            session=session,
            parent_id=tray.parent_id,
            child_id=tray.emma,
            source_week_start=str(MONDAY),
            target_week_start=str(MONDAY + timedelta(days=7)),
            lang="fr",
        )
        assert [a.meal_id for a in done.outcome.added] == [tray.pasta]
        [skip] = done.skipped
        assert (skip.code, skip.meal_id) == ("diet", tray.wrap)
        assert skip.reason == "Wrap au poulet ne convient pas au régime d'Emma (Non végétarien)"


def test_a_mark_written_reaches_the_menus_copy_at_the_next_read(engine):
    with session_scope(engine) as session:
        tray = _tray(session)
    with session_scope(engine) as session:
        assert menu_cache.catalog(session).diets[("meal", tray.wrap)] == {
            Diet.NO_PORK,
            Diet.NO_BEEF,
        }
    with session_scope(engine) as session:  # an operator marks the wrap halal
        session.add(MealDiet(meal_id=tray.wrap, diet="halal"))
    with session_scope(engine) as session:
        assert Diet.HALAL in menu_cache.catalog(session).diets[("meal", tray.wrap)]
