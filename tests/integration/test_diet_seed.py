"""The demo menus' dietary marks: every meal, option and add-on carries what its ingredients
justify, written by the seed and read through the menus' cached copy."""

from __future__ import annotations

from datetime import date

from sqlmodel import select

from hotmeals.db import seed_vendors
from hotmeals.db.engine import session_scope
from hotmeals.db.models import AddOn, Meal, MealDiet
from hotmeals.demo.seed import load_demo_data
from hotmeals.domain import diet
from hotmeals.domain.diet import Diet
from hotmeals.services import menu_cache
from hotmeals.services.menu_cache import ADDON, MEAL, MENU_OPTION

TODAY = date(2026, 3, 4)


def test_the_seed_writes_the_marks_the_menu_files_give(engine):
    with session_scope(engine) as session:
        load_demo_data(session, today=TODAY)
    with session_scope(engine) as session:
        menus = menu_cache.catalog(session)
        meals = {m.name_en: m for m in session.exec(select(Meal)).all()}
        addons = {a.name_en: a for a in session.exec(select(AddOn)).all()}
        chicken = meals["Mild Butter Chicken with Rice"]
        assert "Halal chicken" in chicken.ingredients_en and "halal" in chicken.ingredients_fr
        assert menus.diets[(MEAL, chicken.id)] == {
            Diet.HALAL,
            Diet.NO_PORK,
            Diet.NO_BEEF,
            Diet.GLUTEN_FREE,
        }
        assert (MEAL, meals["Sweet and Sour Meatballs with Rice"].id) not in menus.diets
        water = next(
            o for o in menus.options_of_meal[("menu_option", chicken.id)] if o.name_en == "Water"
        )
        # Water takes nothing away from the meal as composed: still halal and gluten-free.
        marks = diet.composed(menus.diets[(MEAL, chicken.id)], menus.diets[(MENU_OPTION, water.id)])
        assert {Diet.HALAL, Diet.GLUTEN_FREE} <= marks
        cookie = addons["Chocolate chip cookie"]
        assert menus.diets[(ADDON, cookie.id)] == {Diet.VEGETARIAN}
        # Every meal of every menu file has its rows (none but the two mixed-meat meals
        # is without a mark).
        rows = session.exec(select(MealDiet)).all()
        specs = [m for v in seed_vendors.VENDORS for m in v.meals]
        assert len(rows) == sum(len(m.diets) for m in specs) * (len(meals) // len(specs))
        assert sum(1 for m in specs if not m.diets) == 2
