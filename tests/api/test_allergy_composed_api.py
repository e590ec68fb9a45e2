"""The allergy rule applies to the meal AS COMPOSED (the meal, its menu
option, its meal option and its add-ons, each with its own allergens), through every /api/v1
door that adds a meal to a cart (AddToCart, AddManyToCart, RepeatWeek), in the menu reads
(MenuDetail, GetMenu, AddsOn mark each option and add-on for the child), and again at payment
(OrderSummary / CheckOrderSummary flag a line the child's allergies now refuse). SQLite and
PostgreSQL (``tests/api/conftest.py``). The order-change doors (AddToMyOrder, ModifyMeal) and
start_checkout are in tests/api/test_order_changes_allergy_api.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    AddOn,
    AddOnAllergen,
    CartLine,
    CartLineAddOn,
    ChildAllergy,
    MealOption,
    MealOptionAllergen,
    MenuOption,
    MenuOptionAllergen,
    School,
)
from tests.api.helpers import get, ok, post, quick_token, refused
from tests.factories import (
    get_allergen,
    make_child,
    make_meal,
    make_menu_day,
    make_parent,
    make_school,
    make_vendor,
)
from tests.querycount import count_queries


def _monday_in(weeks: int) -> date:
    today = clock.today()
    return today + timedelta(days=(7 - today.weekday()) % 7 + 7 * weeks)


@dataclass
class Tray:
    school_id: int
    vendor_id: int
    day: date  # a Monday three weeks on
    next_day: date  # the Monday after
    day_id: int
    next_day_id: int
    pasta: int  # Wheat
    bare: int  # another vendor's meal with nothing else
    bare_day_id: int
    milk: int  # menu option "White milk (250 mL)": Milk
    water: int  # menu option: nothing
    cheese_topping: int  # meal option: Milk
    cheese_string: int  # add-on: Milk
    cookie: int  # add-on: Eggs, Wheat
    apple: int  # add-on: nothing


@pytest.fixture(scope="module")
def tray(database) -> Tray:
    day, next_day = _monday_in(3), _monday_in(4)
    with session_scope() as s:
        school = make_school(s)
        vendor = make_vendor(s, cutoff_days_before=2, cutoff_time="17:00")
        other = make_vendor(s)
        pasta = make_meal(
            s,
            vendor,
            name_en="Pasta",
            name_fr="Pâtes",
            allergens=["Wheat and triticale"],
            menu_options={"White milk (250 mL)": 0, "Water": 0},
            meal_options={"Cheese topping": 50},
        )
        bare = make_meal(s, other, name_en="Rice")
        addons = {
            name: AddOn(vendor_id=vendor.id, name_en=name, name_fr=fr, price_cents=100)
            for name, fr in (
                ("Cheese string", "Fromage ficelle"),
                ("Cookie", "Biscuit"),
                ("Apple", "Pomme"),
            )
        }
        s.add_all(addons.values())
        first = make_menu_day(s, school, vendor, day, [pasta])
        second = make_menu_day(s, school, vendor, next_day, [pasta])
        bare_day = make_menu_day(s, make_school(s), other, day, [bare])
        s.flush()
        options = {
            o.name_en: o for o in s.exec(select(MenuOption).where(MenuOption.meal_id == pasta.id))
        }
        topping = s.exec(select(MealOption).where(MealOption.meal_id == pasta.id)).one()
        milk, eggs, wheat = (get_allergen(s, n) for n in ("Milk", "Eggs", "Wheat and triticale"))
        s.add_all(
            [
                MenuOptionAllergen(
                    menu_option_id=options["White milk (250 mL)"].id, ingredient_id=milk.id
                ),
                MealOptionAllergen(meal_option_id=topping.id, ingredient_id=milk.id),
                AddOnAllergen(addon_id=addons["Cheese string"].id, ingredient_id=milk.id),
                AddOnAllergen(addon_id=addons["Cookie"].id, ingredient_id=eggs.id),
                AddOnAllergen(addon_id=addons["Cookie"].id, ingredient_id=wheat.id),
            ]
        )
        return Tray(
            school_id=school.id,
            vendor_id=vendor.id,
            day=day,
            next_day=next_day,
            day_id=first.id,
            next_day_id=second.id,
            pasta=pasta.id,
            bare=bare.id,
            bare_day_id=bare_day.id,
            milk=options["White milk (250 mL)"].id,
            water=options["Water"].id,
            cheese_topping=topping.id,
            cheese_string=addons["Cheese string"].id,
            cookie=addons["Cookie"].id,
            apple=addons["Apple"].id,
        )


@dataclass
class Family:
    token: str
    parent_id: int
    mia: int  # Major milk, High eggs
    leo: int  # no allergies


def _family(tray: Tray) -> Family:
    with session_scope() as s:
        parent = make_parent(s, first_name="Tray", last_name="Tester")
        school = s.get(School, tray.school_id)
        mia = make_child(
            s,
            parent,
            school=school,
            first_name="Mia",
            is_default=True,
            allergies={"Milk": "Major", "Eggs": "High"},
        )
        leo = make_child(s, parent, school=school, first_name="Leo")
        ids = (parent.email, parent.id, mia.id, leo.id)
    return Family(quick_token(ids[0]), ids[1], ids[2], ids[3])


def _allergy(child_id: int, name: str, level: str) -> None:
    """The child's allergy changes after the meal went into the cart."""
    with session_scope() as s:
        ingredient = get_allergen(s, name)
        s.add(ChildAllergy(child_id=child_id, ingredient_id=ingredient.id, alert_level=level))


def _add(client, family: Family, tray: Tray, *, lang="en", **body):
    payload = {"child_id": family.mia, "meal_id": tray.pasta, "menu_day_id": tray.day_id}
    payload.update(body)
    return post(client, "/Parent/cart/AddToCart", payload, family.token, lang=lang)


def _cart(family: Family) -> list[tuple[int, int | None, int | None, list[int]]]:
    with session_scope() as s:
        lines = s.exec(
            select(CartLine).where(CartLine.parent_id == family.parent_id).order_by(CartLine.id)
        ).all()
        extras = s.exec(
            select(CartLineAddOn).where(CartLineAddOn.cart_line_id.in_([x.id for x in lines]))
        ).all()
        return [
            (
                line.child_id,
                line.menu_option_id,
                line.meal_option_id,
                sorted(a.addon_id for a in extras if a.cart_line_id == line.id),
            )
            for line in lines
        ]


def _lines(summary: dict) -> list[dict]:
    return [line for group in summary["groups"] for line in group["lines"]]


# --- the menu reads mark each option and add-on before the tap ----------------------------------


def test_menu_detail_gives_each_option_and_add_on_its_allergens_and_the_child_s_verdict(
    client, tray
):
    family = _family(tray)
    body = {"meal_id": tray.pasta, "child_id": family.mia}
    data = ok(post(client, "/Parent/menu/MenuDetail", body, family.token))["data"]
    assert data["allergens"] == ["Wheat and triticale"]
    assert data["allergy"]["verdict"] == "safe"
    options = {o["name"]: o for o in data["menu_options"]}
    milk = options["White milk (250 mL)"]
    assert milk["allergens"] == ["Milk"] and milk["allergy"]["verdict"] == "refused"
    assert milk["allergy"]["message"].startswith("White milk (250 mL) contains Milk, a Major")
    assert options["Water"]["allergens"] == [] and options["Water"]["allergy"]["verdict"] == "safe"
    (topping,) = data["meal_options"]
    assert topping["allergens"] == ["Milk"] and topping["allergy"]["verdict"] == "refused"
    addons = {a["name"]: a for a in data["addons"]}
    assert addons["Cheese string"]["allergy"]["verdict"] == "refused"
    cookie = addons["Cookie"]
    assert cookie["allergens"] == ["Eggs", "Wheat and triticale"]
    assert cookie["allergy"]["verdict"] == "acknowledge"
    assert cookie["allergy"]["message"] == "I understand this meal contains Eggs (Cookie)"
    assert addons["Apple"]["allergy"] == {
        "verdict": "safe",
        "allergens": [],
        "message": "",
        "levels": [],
    }
    # Leo: the same allergens, every verdict safe; no child: the allergens, no verdict
    body["child_id"] = family.leo
    leo = ok(post(client, "/Parent/menu/MenuDetail", body, family.token))["data"]
    assert {a["allergy"]["verdict"] for a in leo["addons"] + leo["menu_options"]} == {"safe"}
    anyone = ok(post(client, "/Parent/menu/MenuDetail", {"meal_id": tray.pasta}, family.token))
    assert all(o["allergy"] is None for o in anyone["data"]["menu_options"])
    assert [o["allergens"] for o in anyone["data"]["menu_options"]] == [["Milk"], []]
    # French: the allergen and the item in French
    fr = ok(
        post(
            client,
            "/Parent/menu/MenuDetail",
            {"meal_id": tray.pasta, "child_id": family.mia},
            family.token,
            lang="fr",
        )
    )["data"]
    string = next(a for a in fr["addons"] if a["id"] == tray.cheese_string)
    assert string["allergens"] == ["Lait"]
    assert string["allergy"]["message"].startswith("Fromage ficelle contient : Lait")


def test_the_menu_card_shows_its_extras_allergens_and_add_ons_are_marked(client, tray):
    family = _family(tray)
    menu = ok(
        post(
            client,
            "/Parent/menu/GetMenu",
            {"child_id": family.mia, "date": str(tray.day)},
            family.token,
        )
    )["data"]
    (card,) = menu["meals"]
    assert card["allergens"] == ["Wheat and triticale"] and card["allergy"]["verdict"] == "safe"
    assert card["in_cart_quantity"] == 0
    extras = {(e["kind"], e["name"]): e for e in card["extras"]}
    assert set(extras) == {
        ("menu_option", "White milk (250 mL)"),
        ("meal_option", "Cheese topping"),
        ("addon", "Cheese string"),
        ("addon", "Cookie"),
    }
    assert extras[("addon", "Cookie")]["verdict"] == "acknowledge"
    assert extras[("menu_option", "White milk (250 mL)")]["verdict"] == "refused"
    assert card["extras_allergens"] == ["Eggs", "Milk", "Wheat and triticale"]
    path = f"/Parent/menu/AddsOn?vendor_id={tray.vendor_id}&child_id={family.mia}"
    addons = {a["name"]: a for a in ok(get(client, path, family.token))["data"]}
    assert addons["Cheese string"]["allergy"]["verdict"] == "refused"
    assert addons["Apple"]["allergy"]["verdict"] == "safe"
    ok(_add(client, family, tray, quantity=2))
    ok(_add(client, family, tray, menu_option_id=tray.water))
    ok(_add(client, family, tray, child_id=family.leo))  # Leo's is not Mia's
    again = ok(
        post(
            client,
            "/Parent/menu/GetMenu",
            {"child_id": family.mia, "date": str(tray.day)},
            family.token,
        )
    )["data"]
    assert again["meals"][0]["in_cart_quantity"] == 3
    plain = ok(get(client, f"/Parent/menu/AddsOn?vendor_id={tray.vendor_id}", family.token))
    assert {a["name"]: a["allergy"] for a in plain["data"]}["Cookie"] is None
    stranger = _family(tray)
    refused(
        get(client, f"/Parent/menu/AddsOn?child_id={family.mia}", stranger.token),
        "Child not found",
    )


# --- AddToCart ------------------------------------------------------------------------------------


def test_add_to_cart_refuses_a_major_option_or_add_on_naming_the_item_and_the_allergen(
    client, tray
):
    family = _family(tray)
    answer = refused(_add(client, family, tray, menu_option_id=tray.milk))
    assert answer["message"].startswith("White milk (250 mL) contains Milk, a Major allergy")
    answer = refused(_add(client, family, tray, meal_option_id=tray.cheese_topping))
    assert answer["message"].startswith("Cheese topping contains Milk")
    answer = refused(
        _add(client, family, tray, addons=[tray.apple, tray.cheese_string], allergy_ack=True)
    )
    assert answer["message"].startswith("Cheese string contains Milk, a Major allergy")
    fr = refused(_add(client, family, tray, addons=[tray.cheese_string], lang="fr"))
    assert fr["message"].startswith("Fromage ficelle contient : Lait, une allergie majeure")
    assert _cart(family) == []
    # the same choices are fine for Leo, and Mia's meal without them is fine too
    ok(
        _add(
            client,
            family,
            tray,
            child_id=family.leo,
            menu_option_id=tray.milk,
            meal_option_id=tray.cheese_topping,
            addons=[tray.cheese_string],
        )
    )
    ok(_add(client, family, tray, menu_option_id=tray.water, addons=[tray.apple]))
    assert _cart(family) == [
        (family.leo, tray.milk, tray.cheese_topping, [tray.cheese_string]),
        (family.mia, tray.water, None, [tray.apple]),
    ]


def test_add_to_cart_needs_the_acknowledgement_for_a_high_add_on(client, tray):
    family = _family(tray)
    answer = refused(_add(client, family, tray, addons=[tray.cookie]))
    assert answer["message"] == (
        "This meal contains Eggs (Cookie). Please confirm that you understand before adding it"
    )
    added = ok(_add(client, family, tray, addons=[tray.cookie], allergy_ack=True))["data"]
    assert added["allergy_ack"] == "I understand this meal contains Eggs (Cookie)"
    summary = ok(post(client, "/Parent/cart/OrderSummary", {}, family.token))["data"]
    (line,) = _lines(summary)
    assert line["payable"] and line["allergy_ack"] == added["allergy_ack"]
    assert line["allergy"] == {
        "verdict": "acknowledge",
        "allergens": ["Eggs"],
        "message": "I understand this meal contains Eggs (Cookie)",
        "levels": [["Eggs", "High"]],
    }
    assert summary["groups"][0]["child_first_name"] == "Mia"


# --- AddManyToCart and RepeatWeek ----------------------------------------------------------------


def test_add_many_refuses_only_the_line_whose_extra_conflicts(client, tray):
    family = _family(tray)
    items = [
        {
            "child_id": family.mia,
            "date": str(tray.day),
            "meal_id": tray.pasta,
            "addons": [tray.cheese_string],
        },
        {
            "child_id": family.mia,
            "date": str(tray.next_day),
            "meal_id": tray.pasta,
            "menu_option_id": tray.water,
        },
        {
            "child_id": family.leo,
            "date": str(tray.day),
            "meal_id": tray.pasta,
            "addons": [tray.cheese_string],
        },
    ]
    data = ok(post(client, "/Parent/cart/AddManyToCart", {"items": items}, family.token))["data"]
    assert data["added_count"] == 2 and data["refused_count"] == 1
    (no,) = data["refused"]
    assert no["index"] == 0 and no["code"] == "allergy_refused_extra"
    assert no["reason"].startswith("Cheese string contains Milk")
    assert sorted(_cart(family)) == sorted(
        [(family.mia, tray.water, None, []), (family.leo, None, None, [tray.cheese_string])]
    )


def test_repeat_week_never_copies_an_option_or_add_on_that_now_conflicts(client, tray):
    family = _family(tray)
    ok(
        _add(
            client,
            family,
            tray,
            child_id=family.leo,
            menu_option_id=tray.milk,
            addons=[tray.apple, tray.cheese_string, tray.cookie],
        )
    )
    _allergy(family.leo, "Milk", "Major")  # found out since
    _allergy(family.leo, "Eggs", "Medium")
    body = {
        "child_id": family.leo,
        "source_week_start": str(tray.day),
        "target_week_start": str(tray.next_day),
    }
    data = ok(post(client, "/Parent/cart/RepeatWeek", body, family.token))["data"]
    assert data["added_count"] == 1 and data["refused_count"] == 0
    (added,) = data["added"]
    assert added["left_out"] == [
        "White milk (250 mL) left out: it contains Milk",
        "Cheese string left out: it contains Milk",
        "Cookie left out: it contains Eggs",
    ]
    copies = [c for c in _cart(family) if c[1] != tray.milk]
    assert copies == [(family.leo, None, None, [tray.apple])]
    # and the line of the source week, with the milk, can no longer be paid
    summary = ok(post(client, "/Parent/cart/OrderSummary", {}, family.token))["data"]
    old, new = sorted(_lines(summary), key=lambda x: x["cart_id"])
    assert not old["payable"] and new["payable"]
    assert old["problems"][0].startswith("White milk (250 mL) contains Milk")


# --- payment: the composition is checked again with the child's allergies as they are now ---------


def test_a_line_whose_add_on_became_a_major_allergy_is_flagged_and_cannot_be_paid(client, tray):
    family = _family(tray)
    ok(_add(client, family, tray, child_id=family.leo, addons=[tray.cheese_string]))
    before = ok(post(client, "/Parent/cart/CheckOrderSummary", {}, family.token))["data"]
    assert before["payable_count"] == 1
    _allergy(family.leo, "Milk", "Major")
    summary = ok(post(client, "/Parent/cart/OrderSummary", {}, family.token, lang="fr"))["data"]
    (line,) = _lines(summary)
    assert not line["payable"] and summary["payable_count"] == 0
    assert line["allergy"]["verdict"] == "refused"
    assert line["allergy"]["message"] == line["problems"][0]
    assert line["allergy"]["allergens"] == ["Lait"]
    assert line["problems"] == [
        "Fromage ficelle contient : Lait, une allergie majeure de cet enfant : choisissez une "
        "autre option ou retirez-le"
    ]
    assert summary["charges"]["total_pay_cents"] == 0
    refused(post(client, "/Parent/cart/CheckOrderSummary", {}, family.token))


def test_an_acknowledgement_that_does_not_name_a_new_allergy_no_longer_covers_the_line(
    client, tray
):
    family = _family(tray)
    _allergy(family.leo, "Eggs", "High")
    ok(_add(client, family, tray, child_id=family.leo, addons=[tray.cookie], allergy_ack=True))
    assert _lines(ok(post(client, "/Parent/cart/OrderSummary", {}, family.token))["data"])[0][
        "payable"
    ]
    _allergy(family.leo, "Wheat and triticale", "Medium")  # the pasta and the cookie have wheat
    summary = ok(post(client, "/Parent/cart/OrderSummary", {}, family.token))["data"]
    (line,) = _lines(summary)
    assert not line["payable"]
    assert line["problems"] == [
        "This meal contains Wheat and triticale, Eggs (Cookie), Wheat and triticale (Cookie). "
        "Please confirm that you understand before adding it"
    ]


# --- statements: the same whatever the number of options and add-ons -----------------------------


def _count(call) -> tuple[int, str]:
    with count_queries() as queries:
        ok(call())
    return queries.count, queries.report()


def test_composed_reads_and_adds_run_a_fixed_number_of_statements(client, tray):
    family = _family(tray)
    rich, report = _count(
        lambda: post(
            client,
            "/Parent/menu/MenuDetail",
            {"meal_id": tray.pasta, "child_id": family.mia},
            family.token,
        )
    )
    bare, _ = _count(
        lambda: post(
            client,
            "/Parent/menu/MenuDetail",
            {"meal_id": tray.bare, "child_id": family.mia},
            family.token,
        )
    )
    # The meal from the menus' copy (was 8), and the child's dietary needs: one batched query.
    assert rich == bare <= 5, report
    one, _ = _count(lambda: _add(client, family, tray, child_id=family.leo, addons=[tray.apple]))
    three, report = _count(
        lambda: _add(
            client,
            family,
            tray,
            child_id=family.leo,
            menu_option_id=tray.milk,
            meal_option_id=tray.cheese_topping,
            addons=[tray.apple, tray.cheese_string, tray.cookie],
        )
    )
    assert one <= three <= one + 2, report  # + the two option reads the first one skips
    small, _ = _count(lambda: post(client, "/Parent/cart/OrderSummary", {}, family.token))
    for _ in range(4):
        ok(_add(client, family, tray, child_id=family.leo, addons=[tray.cookie, tray.apple]))
    big, report = _count(lambda: post(client, "/Parent/cart/OrderSummary", {}, family.token))
    assert small == big, report
    path = f"/Parent/menu/AddsOn?vendor_id={tray.vendor_id}&child_id={family.mia}"
    marked, report = _count(lambda: get(client, path, family.token))
    assert marked <= 5, report  # with the child's dietary needs: one batched query (was 4)
