"""Allergy safety on the screens, through the Reflex states without a browser: the sign-up's
"No allergies, continue" never drops allergies already picked; adding another child leaves
Book meal's chosen child as it was (its allergy step names the new one by address); the menu
cards say what a meal contains, its price from the small size, its cut-off, and "Safe for Emma"
hides what she cannot have; the meal dialog says whom the meal is for with her allergies."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime

import pytest
import reflex as rx
from reflex.istate.data import ReflexURL
from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import AllergenIngredient, CartLine, Child, ChildAllergy, Parent
from hotmeals.domain.pricing import PriceTier
from hotmeals.services.menu_cache import PortionPrices
from hotmeals.services.ordering.allergens import SAFE_MARK
from hotmeals.services.ordering.menu import MenuMeal
from hotmeals.services.parents import start_session
from hotmeals.ui.screens.allergy_profile.state import AllergyState
from hotmeals.ui.screens.book_meal.state import BookingState
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.children import ChildChoiceState, ChildFormState
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.menu_views import child_marks, cutoff_text, meal_card, small_price
from tests.factories import make_child, make_parent
from tests.unit.test_ui_booking import _demo, _run

BASE = "http://localhost/parent"


async def _root(parent_id: int, path: str = "/edit-profile") -> rx.State:
    with session_scope() as session:
        token = start_session(session, session.get(Parent, parent_id), "tests")
    root = rx.State(_reflex_internal_init=True)
    root.router = dataclasses.replace(root.router, url=ReflexURL(BASE + path))
    auth = await root.get_state(AuthState)
    auth.token = token
    await _run(auth.require_session())
    return root


def _go(root: rx.State, path: str) -> None:
    root.router = dataclasses.replace(root.router, url=ReflexURL(BASE + path))


def _peanuts_id() -> str:
    with session_scope() as session:
        found = session.exec(
            select(AllergenIngredient.id).where(AllergenIngredient.name_en == "Peanuts")
        ).one()
        return str(found)


def _step(parent_id: int) -> str:
    with session_scope() as session:
        return session.get(Parent, parent_id).signup_step


def _allergies(child_id: int) -> list[tuple[int, str]]:
    with session_scope() as session:
        rows = session.exec(select(ChildAllergy).where(ChildAllergy.child_id == child_id)).all()
        return [(r.ingredient_id, r.alert_level) for r in rows]


# --- pure helpers ------------------------------------------------------------------------------


def _meal(**fields) -> MenuMeal:
    """A meal of GetMenu as ``ordering.menu.get_menu`` answers it."""
    base = MenuMeal(
        menu_day_id=2,
        vendor_id=1,
        vendor="",
        meal_id=1,
        name="Soup",
        description="",
        image="",
        price_from_cents=500,
        portions=(),
        allergens=(),
        allergy=SAFE_MARK,
        extras=(),
        extras_allergens=(),
        in_cart_quantity=0,
        cutoff_at=datetime(2026, 11, 26, 23, 0, tzinfo=UTC),
        is_open=True,
    )
    return dataclasses.replace(base, **fields)


def _portion(size: str, cents: int) -> PortionPrices:
    return PortionPrices(portion_id=1, meal_id=1, size=size, tiers=(PriceTier(1, cents),))


def test_the_card_price_is_the_small_sizes_and_says_from():
    meal = _meal(portions=(_portion("large", 800), _portion("small", 650)))
    assert small_price(meal, "en") == "$6.50"
    assert small_price(_meal(portions=()), "en") == "$5.00"


def test_the_cutoff_is_short_in_the_parents_language_at_torontos_time():
    # 23:00 UTC on Thursday, November 26, 2026 is 18:00 in Toronto.
    assert cutoff_text("2026-11-26T23:00:00+00:00", True, "en") == (
        "Order by Thu, Nov 26, 6:00\u202fp.m."
    )
    assert cutoff_text("2026-11-26T23:00:00+00:00", True, "fr") == (
        "Commandez avant le jeu. 26 nov., 18 h 00"
    )
    assert cutoff_text("2026-11-26T23:00:00+00:00", False, "en").startswith("Ordering closed")
    assert cutoff_text("", True, "en") == ""


def test_a_card_shows_its_cutoff_only_when_it_is_not_the_days():
    meal = _meal(in_cart_quantity=2)
    same = meal_card(
        meal, "en", datetime.fromisoformat("2026-11-26T18:00:00-05:00")
    )  # the same moment
    other = meal_card(
        meal, "en", datetime.fromisoformat("2026-11-25T23:00:00+00:00")
    )  # a second vendor's day
    assert same["cutoff"] == "" and other["cutoff"] == "Order by Thu, Nov 26, 6:00\u202fp.m."
    assert same["in_cart"] == "In cart (2)" and same["contains"] == "No listed allergens"
    assert same["price_from"] == "from $5.00"


def test_the_childs_marks_name_each_allergy_with_its_level():
    allergies = [
        {"name": "Peanuts", "alert_level": "Major", "alert_level_label": "Major"},
        {"name": "Kiwi", "alert_level": "Non-allergic"},
        {"name": "Lait", "alert_level": "Medium", "alert_level_label": "Moyen"},
    ]
    assert child_marks(allergies, "Emma", "en") == "Emma's allergies: Peanuts (Major), Lait (Moyen)"
    assert child_marks([], "Lucas", "fr") == "Aucune allergie indiquée pour Lucas"


# --- the sign-up's allergy step ------------------------------------------------------------------


@pytest.mark.usefixtures("database")
def test_no_allergies_continue_never_drops_the_picked_allergies():
    async def scenario():
        with session_scope() as session:
            parent = make_parent(session, first_name="Nora", signup_step="ALLERGY")
            child = make_child(session, parent, first_name="Zoe", is_default=True)
            parent_id, child_id = parent.id, child.id
        root = await _root(parent_id, "/allergy-profile")
        allergy = await root.get_state(AllergyState)
        await _run(allergy.start())
        assert allergy.in_signup and allergy.child_id == child_id
        await _run(allergy.add(_peanuts_id(), "Peanuts"))
        await _run(allergy.set_level(_peanuts_id(), "Major"))
        # The page no longer offers the button; a call that still comes is refused, says what
        # to do, and completes nothing.
        events = await _run(allergy.skip())
        assert any("You picked 1 allergy: save it" in str(e) for e in events)
        assert _step(parent_id) == "ALLERGY" and allergy.items and not allergy.busy
        assert _allergies(child_id) == []
        # Saving keeps them and completes the sign-up.
        await _run(allergy.save())
        assert _allergies(child_id) == [(int(_peanuts_id()), "Major")]
        assert _step(parent_id) == "COMPLETE"

    asyncio.run(scenario())


@pytest.mark.usefixtures("database")
def test_no_allergies_continue_still_completes_when_none_is_picked():
    async def scenario():
        with session_scope() as session:
            parent = make_parent(session, first_name="Omar", signup_step="ALLERGY")
            child = make_child(session, parent, first_name="Ines", is_default=True)
            parent_id, child_id = parent.id, child.id
        root = await _root(parent_id, "/allergy-profile")
        allergy = await root.get_state(AllergyState)
        await _run(allergy.start())
        await _run(allergy.skip())
        assert _step(parent_id) == "COMPLETE" and _allergies(child_id) == []

    asyncio.run(scenario())


# --- adding another child ------------------------------------------------------------------------


@pytest.mark.usefixtures("database")
def test_adding_another_child_keeps_book_meals_chosen_child():
    async def scenario():
        with session_scope() as session:
            parent = make_parent(session, first_name="Paula")
            emma = make_child(
                session, parent, first_name="Emma", is_default=True, allergies={"Peanuts": "Major"}
            )
            parent_id, emma_id = parent.id, emma.id
            place = (emma.city_id, emma.school_id, emma.teacher_id, emma.grade_id)
        root = await _root(parent_id, "/edit-profile/meal-detailed")
        booking = await root.get_state(BookingState)
        await _run(booking.load())
        choice = await root.get_state(ChildChoiceState)
        assert choice.child_id == str(emma_id) and booking.for_child == "For Emma"

        _go(root, "/add-another-child")
        form = await root.get_state(ChildFormState)
        await _run(form.start_add())
        assert form.mode == "another"
        form.city_id, form.school_id, form.teacher_id, form.grade_id = (str(v) for v in place)
        events = await _run(form.save({"first_name": "Noah", "last_name": "Roy"}))
        with session_scope() as session:
            noah_id = session.exec(select(Child.id).where(Child.first_name == "Noah")).one()
        # The chosen child is still Emma; the allergy step names Noah by its address.
        assert choice.child_id == str(emma_id)
        assert any(f"/allergy-profile?child={noah_id}" in str(e) for e in events)
        _go(root, f"/allergy-profile?child={noah_id}")
        allergy = await root.get_state(AllergyState)
        await _run(allergy.start())
        assert allergy.child_id == noah_id and allergy.child_name == "Noah"
        # Another parent's child in the address is not shown: the chosen child is.
        _go(root, f"/allergy-profile?child={_demo()[1][0]}")
        await _run(allergy.start())
        assert allergy.child_id == emma_id

        _go(root, "/edit-profile/meal-detailed")
        await _run(booking.load())
        assert choice.child_id == str(emma_id)
        assert booking.for_child == "For Emma"
        assert booking.child_marks == "Emma's allergies: Peanuts (Major)"

    asyncio.run(scenario())


# --- the menu and the dialog -------------------------------------------------------------------


@pytest.mark.usefixtures("database")
def test_menu_cards_and_safe_for_emma():
    async def scenario():
        parent_id, kids = _demo()
        with session_scope() as session:  # the demo schools are nut-free: milk, then
            emma = session.exec(
                select(Child).where(Child.id.in_(kids), Child.first_name == "Emma")
            ).one()
            milk = session.exec(
                select(AllergenIngredient).where(AllergenIngredient.name_en == "Milk")
            ).one()
            session.add(ChildAllergy(child_id=emma.id, ingredient_id=milk.id, alert_level="Major"))
        root = await _root(parent_id, "/edit-profile/meal-detailed")
        booking = await root.get_state(BookingState)
        await _run(booking.load())
        emma = next(k["id"] for k in booking.kids if k["name"] == "Emma")
        await _run(booking.choose_child(emma))
        assert booking.for_child == "For Emma"
        assert booking.safe_label == "Safe for Emma"
        assert booking.child_marks == "Emma's allergies: Milk (Major), Peanuts (Major)"
        days = [c["date"] for c in booking.cells if c["kind"] == "open"]
        for day in days:  # a day whose menu has a meal with milk
            await _run(booking.choose_day(day))
            if any(m["verdict"] == "refused" for m in booking.meals):
                break
        else:
            pytest.fail("no open day with a meal Emma cannot have")
        refused = [m for m in booking.meals if m["verdict"] == "refused"]
        assert booking.shown_meals == booking.meals and booking.hidden_note == ""
        card = refused[0]
        assert "Milk" in card["contains"] and card["contains"].startswith("Contains: ")
        assert all(m["price_from"].startswith("from $") for m in booking.meals)
        # One vendor a day here: the day note says the cut-off, the cards do not repeat it.
        assert booking.selected_note.startswith("Order by ")
        assert all(m["cutoff"] == "" for m in booking.meals)

        await _run(booking.set_safe_only(True))
        assert booking.shown_meals == [m for m in booking.meals if m["verdict"] != "refused"]
        assert booking.hidden_note == f"{len(refused)} hidden: Emma cannot have them."
        # Another day keeps the switch, and the cards follow it.
        await _run(booking.choose_day(days[-1]))
        assert all(m["verdict"] != "refused" for m in booking.shown_meals)
        await _run(booking.set_safe_only(False))
        assert booking.shown_meals == booking.meals and booking.hidden_note == ""

        # The dialog names the child, in French too.
        meal = booking.meals[0]
        await _run(booking.open_meal(meal["meal_id"]))
        assert booking.detail_open and booking.for_child == "For Emma"
        (await root.get_state(I18nState)).lang = "fr"
        await _run(booking.relang())
        assert booking.for_child == "Pour Emma"
        assert booking.child_marks.startswith("Emma est allergique à : Lait (Majeur)")
        assert all(m["price_from"].startswith("à partir de ") for m in booking.meals)
        (await root.get_state(I18nState)).lang = "en"
        await _run(booking.relang())

    asyncio.run(scenario())


def test_each_cart_line_says_whom_it_is_for_with_the_childs_mark():
    from hotmeals.ui.screens.cart.state import group_views

    line = {"cart_id": 7, "name": "Mac and cheese", "quantity": 1, "line_total": "$6.50"}
    summary = {
        "groups": [
            {
                "child_id": 3,
                "child_name": "Emma Tremblay",
                "child_first_name": "Emma",
                "date": "2026-12-07",
                "lines": [
                    {
                        **line,
                        "allergy": {"verdict": "acknowledge", "allergens": ["Milk"]},
                        "cutoff_at": "2026-12-04T23:00:00+00:00",
                    },
                    {**line, "cart_id": 8},
                ],
            }
        ]
    }
    first, second = group_views(summary, "en")[0].lines
    assert first.for_child == "For Emma" and first.allergy_text == "Allergy: Milk"
    assert second.allergy_verdict == "safe" and second.allergy_text == ""
    assert first.cutoff == "Order by Fri, Dec 4, 6:00\u202fp.m." and second.cutoff == ""
    (fr,) = group_views(summary, "fr")
    assert fr.lines[0].for_child == "Pour Emma"


# --- options and add-ons in the dialog (with the allergy branch's data) -------------------------


def _extras_family() -> dict:
    """A parent at the demo school with Milo (Major) and Ivy (Medium) allergic to an allergen
    no meal contains, carried by one menu option and one add-on of the first open day's first
    meal (its vendor's)."""
    from hotmeals.db.models import AddOn, MenuOption, School

    with session_scope() as session:
        school = session.exec(
            select(School)
            .join(Child, Child.school_id == School.id)
            .join(Parent, Parent.id == Child.parent_id)
            .where(Parent.email == "parent@example.com")
        ).first()
        testnut = AllergenIngredient(name_en="Testnut", name_fr="Noix d'essai", is_priority=False)
        session.add(testnut)
        session.flush()
        parent = make_parent(session, first_name="Rita")
        milo = make_child(session, parent, school=school, first_name="Milo", is_default=True)
        ivy = make_child(session, parent, school=school, first_name="Ivy")
        session.add(ChildAllergy(child_id=milo.id, ingredient_id=testnut.id, alert_level="Major"))
        session.add(ChildAllergy(child_id=ivy.id, ingredient_id=testnut.id, alert_level="Medium"))
        session.flush()
        ids = {"parent": parent.id, "milo": str(milo.id), "ivy": str(ivy.id), "nut": testnut.id}
        options = session.exec(select(MenuOption)).all()
        addons = session.exec(select(AddOn).where(AddOn.is_active)).all()
        ids["options"] = {o.meal_id: o.id for o in options}
        ids["addons"] = {a.vendor_id: a.id for a in addons}
    return ids


def _mark_extras(ids: dict, meal_id: int, vendor_id: int) -> tuple[str, str]:
    from hotmeals.db.models import AddOnAllergen, MenuOptionAllergen

    option, addon = ids["options"][meal_id], ids["addons"][vendor_id]
    with session_scope() as session:
        session.add(MenuOptionAllergen(menu_option_id=option, ingredient_id=ids["nut"]))
        session.add(AddOnAllergen(addon_id=addon, ingredient_id=ids["nut"]))
    return str(option), str(addon)


@pytest.mark.usefixtures("database")
def test_the_dialog_marks_each_option_and_add_on_before_the_tap():
    async def scenario():
        from hotmeals.db.models import Meal

        ids = _extras_family()
        root = await _root(ids["parent"], "/edit-profile/meal-detailed")
        booking = await root.get_state(BookingState)
        await _run(booking.load())
        assert booking.for_child == "For Milo"
        days = [c["date"] for c in booking.cells if c["kind"] == "open"]
        for day in days:  # a meal with a menu option, whose vendor has an add-on
            await _run(booking.choose_day(day))
            with session_scope() as session:
                meals = {
                    m.id: m.vendor_id
                    for m in session.exec(
                        select(Meal).where(Meal.id.in_([int(r["meal_id"]) for r in booking.meals]))
                    )
                }
            found = [(m, v) for m, v in meals.items() if m in ids["options"] and v in ids["addons"]]
            if found:
                break
        else:
            pytest.fail("no meal with a menu option and an add-on")
        meal_id, vendor_id = found[0]
        option, addon = _mark_extras(ids, meal_id, vendor_id)
        await _run(booking.choose_day(booking.selected_date))  # the cards read again
        card = next(m for m in booking.meals if m["meal_id"] == str(meal_id))
        assert card["verdict"] == "safe"  # the meal itself: fine without its extras
        assert card["extras"].startswith("Options and add-ons: ")
        assert "Testnut" in card["extras"]

        # Milo (Major): the option and the add-on are listed, not offered, with the reason.
        await _run(booking.open_meal(str(meal_id)))
        row = next(o for o in booking.menu_options if o["id"] == option)
        assert row["disabled"] == "1" and row["verdict"] == "refused"
        assert row["mark"] == "Not available for Milo: Testnut (Major allergy)"
        assert row["label"].endswith("— not for Milo (Testnut)")
        extra = next(a for a in booking.addons if a["id"] == addon)
        assert extra["disabled"] == "1" and "Not available for Milo" in extra["mark"]
        await _run(booking.set_menu_option(option))
        await _run(booking.toggle_addon(addon, True))
        assert booking.menu_option_id == "" and addon not in booking.chosen_addons
        assert booking.detail["verdict"] == "safe" and booking.can_add
        # A forged add (the state's choices set past the handlers) is the server's to refuse;
        # its message stays in the dialog.
        booking.chosen_addons = [addon]
        events = await _run(booking.add())
        assert "Testnut" in booking.add_error and booking.detail_open
        assert any("Testnut" in str(e) for e in events)
        with session_scope() as session:
            assert not session.exec(
                select(CartLine).where(CartLine.parent_id == ids["parent"])
            ).all()
        booking.chosen_addons = []

        # Ivy (Medium): choosing the add-on asks for the acknowledgement naming it.
        await _run(booking.set_detail_open(False))
        await _run(booking.choose_child(ids["ivy"]))
        await _run(booking.choose_day(booking.selected_date))
        await _run(booking.open_meal(str(meal_id)))
        assert booking.for_child == "For Ivy"
        extra = next(a for a in booking.addons if a["id"] == addon)
        assert extra["disabled"] == "" and extra["mark"] == (
            "Testnut: you will be asked to confirm"
        )
        assert booking.can_add
        await _run(booking.toggle_addon(addon, True))
        assert booking.chosen_addons == [addon]
        assert booking.detail["verdict"] == "acknowledge" and not booking.can_add
        assert "Testnut" in booking.detail["allergy_message"]
        await _run(booking.set_acknowledged(True))
        assert booking.can_add
        # Taking the add-on off again: nothing left to acknowledge.
        await _run(booking.toggle_addon(addon, False))
        assert booking.detail["verdict"] == "safe" and booking.can_add

    asyncio.run(scenario())
