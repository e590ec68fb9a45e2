"""Dietary needs through /api/v1 (SQLite and PostgreSQL, ``tests/api/conftest.py``): GetMenu,
MenuDetail and OrderSummary answer the marks and the fit for the child under their new keys
(null for a child without needs); AddToCart and AddManyToCart answer the notice for a meal
that does not fit (data.field diet_ack) and add it once the client sets diet_ack. A child's own
needs (AddChild, EditChild, GetChilds) are in test_children_api.py."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import pytest

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import ChildDiet, MealDiet
from tests.api.helpers import ok, post, quick_token, refused
from tests.factories import (
    make_child,
    make_meal,
    make_menu_day,
    make_parent,
    make_school,
    make_vendor,
)


def _monday_in(weeks: int) -> date:
    today = clock.today()
    return today + timedelta(days=(7 - today.weekday()) % 7 + 7 * weeks)


@dataclass
class Shop:
    token: str
    noor: int  # vegetarian, halal
    sam: int  # no needs
    day: date
    day_id: int
    lentils: int  # vegan, halal
    wrap: int  # chicken: no pork, no beef


@pytest.fixture(scope="module")
def shop(database) -> Shop:
    day = _monday_in(3)
    with session_scope() as s:
        school = make_school(s)
        vendor = make_vendor(s, cutoff_days_before=2, cutoff_time="17:00")
        lentils = make_meal(s, vendor, name_en="Lentil curry", name_fr="Cari de lentilles")
        wrap = make_meal(s, vendor, name_en="Chicken wrap", name_fr="Wrap au poulet")
        menu_day = make_menu_day(s, school, vendor, day, [lentils, wrap])
        parent = make_parent(s)
        noor = make_child(s, parent, school=school, first_name="Noor", is_default=True)
        sam = make_child(s, parent, school=school, first_name="Sam")
        s.add_all(
            [
                *(MealDiet(meal_id=lentils.id, diet=d) for d in ("vegan", "halal")),
                *(MealDiet(meal_id=wrap.id, diet=d) for d in ("no_pork", "no_beef")),
                *(ChildDiet(child_id=noor.id, diet=d) for d in ("vegetarian", "halal")),
            ]
        )
        s.flush()
        ids = (parent.email, noor.id, sam.id, menu_day.id, lentils.id, wrap.id)
    email, noor_id, sam_id, day_id, lentils_id, wrap_id = ids
    return Shop(quick_token(email), noor_id, sam_id, day, day_id, lentils_id, wrap_id)


def _menu(client, shop: Shop, child_id: int, lang: str = "en") -> dict:
    body = {"child_id": child_id, "date": shop.day.isoformat()}
    return ok(post(client, "/Parent/menu/GetMenu", body, shop.token, lang=lang))["data"]


def test_get_menu_and_menu_detail_answer_the_marks_and_the_fit_for_the_child(client, shop):
    menu = _menu(client, shop, shop.noor)
    assert menu["needs"] == ["vegetarian", "halal"]
    meals = {m["meal_id"]: m for m in menu["meals"]}
    lentils, wrap = meals[shop.lentils], meals[shop.wrap]
    assert lentils["diets"] == ["vegetarian", "vegan", "halal", "no_pork", "no_beef"]
    assert lentils["diet"] == {"fits": True, "unmet": [], "message": ""}
    assert lentils["safe_for_child"] is True
    assert wrap["diet"] == {
        "fits": False,
        "unmet": ["vegetarian", "halal"],
        "message": "Not vegetarian, not halal",
    }
    assert wrap["safe_for_child"] is False
    fr = {m["meal_id"]: m for m in _menu(client, shop, shop.noor, "fr")["meals"]}
    assert fr[shop.wrap]["diet"]["message"] == "Non végétarien, non halal"
    detail = ok(
        post(
            client,
            "/Parent/menu/MenuDetail",
            {"meal_id": shop.wrap, "child_id": shop.noor},
            shop.token,
        )
    )["data"]
    assert detail["diets"] == ["no_pork", "no_beef"] and detail["needs"] == ["vegetarian", "halal"]
    assert detail["diet"]["unmet"] == ["vegetarian", "halal"]
    # No child: the marks, no fit.
    bare = ok(post(client, "/Parent/menu/MenuDetail", {"meal_id": shop.wrap}, shop.token))
    assert bare["data"]["diet"] is None and bare["data"]["needs"] == []


def test_a_child_without_needs_gets_null_fits_and_the_filter_keeps_allergy_safe_meals(client, shop):
    menu = _menu(client, shop, shop.sam)
    assert menu["needs"] == []
    assert all(m["diet"] is None and m["safe_for_child"] is True for m in menu["meals"])


def test_add_to_cart_answers_the_notice_then_adds_with_diet_ack(client, shop):
    body = {"child_id": shop.noor, "meal_id": shop.wrap, "menu_day_id": shop.day_id}
    notice = refused(post(client, "/Parent/cart/AddToCart", body, shop.token))
    assert notice["message"] == (
        "Chicken wrap does not fit Noor's diet (Not vegetarian, not halal). Confirm that you "
        "want it anyway before adding it"
    )
    assert notice["data"] == {"field": "diet_ack"}
    fr = refused(post(client, "/Parent/cart/AddToCart", body, shop.token, lang="fr"))
    assert fr["message"].startswith("Wrap au poulet ne convient pas au régime de Noor")
    added = ok(post(client, "/Parent/cart/AddToCart", {**body, "diet_ack": True}, shop.token))
    assert added["data"]["cart_count"] >= 1
    # A meal that fits needs nothing more; nor does any meal for a child without needs.
    ok(post(client, "/Parent/cart/AddToCart", {**body, "meal_id": shop.lentils}, shop.token))
    ok(post(client, "/Parent/cart/AddToCart", {**body, "child_id": shop.sam}, shop.token))
    lines = [
        line
        for group in ok(post(client, "/Parent/cart/OrderSummary", {}, shop.token))["data"]["groups"]
        for line in group["lines"]
    ]
    fits = {(line["meal_id"], line["diet"]["fits"] if line["diet"] else None) for line in lines}
    assert fits == {(shop.wrap, False), (shop.lentils, True), (shop.wrap, None)}
    assert all(line["payable"] for line in lines)  # a preference never stops payment


def test_add_many_to_cart_refuses_that_line_until_its_diet_ack(client, shop):
    item = {"child_id": shop.noor, "date": shop.day.isoformat(), "meal_id": shop.wrap}
    first = ok(post(client, "/Parent/cart/AddManyToCart", {"items": [item]}, shop.token))
    [line] = first["data"]["refused"]
    assert line["code"] == "diet_ack_required" and "Noor's diet" in line["reason"]
    again = {"items": [{**item, "diet_ack": True}]}
    second = ok(post(client, "/Parent/cart/AddManyToCart", again, shop.token))
    assert len(second["data"]["added"]) == 1 and second["data"]["refused"] == []
