"""The doors of a paid order that add a meal (AddToMyOrder, the add-item path
of modify order and manage meal) or copy one to another day (ModifyMeal) check the meal AS
COMPOSED, its add-ons' own allergens included, against the child's allergies as they are now;
and paying the cart (getConvergeSessionToken -> ``checkout.start_checkout``) leaves out a line
whose add-on became a Major allergy. Through HTTP on migrated SQLite and PostgreSQL with the
simulator standing in for Converge (as tests/api/test_order_changes_api.py)."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from sqlmodel import select

from hotmeals.db.engine import get_engine, session_scope
from hotmeals.db.models import (
    AddOn,
    AddOnAllergen,
    ChildAllergy,
    Meal,
    OrderLine,
    Payment,
)
from tests.api.helpers import API_KEY
from tests.factories import get_allergen
from tests.orders_support import add, monday_in
from tests.payments_support import VISA, SimServer, lightbox_submit


@pytest.fixture
def family(shop_family: dict) -> dict:
    """``shop_family`` with a cheese string (milk) among its meal's add-ons."""
    shop = dict(shop_family)
    with session_scope() as s:
        meal = s.get(Meal, shop["meal_id"])
        cheese = AddOn(
            vendor_id=meal.vendor_id,
            name_en="Cheese string",
            name_fr="Fromage ficelle",
            price_cents=100,
        )
        s.add(cheese)
        s.flush()
        s.add(
            AddOnAllergen(
                addon_id=cheese.id, ingredient_id=get_allergen(s, "Milk", name_fr="Lait").id
            )
        )
        shop["cheese"] = cheese.id
    return shop


def call(api: TestClient, path: str, body=None, token=None, lang="en"):
    headers = {"api-key": API_KEY, "app": "P", "accept-language": lang, "token": token or ""}
    return api.post(f"/api/v1{path}", content=json.dumps(body or {}), headers=headers)


def ok(answer) -> dict:
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["code"] == 1, body
    return body["data"]


def refused(answer) -> str:
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["code"] == 0, body
    return body["message"]


def milk_allergy(child_id: int, level: str = "Major") -> None:
    with session_scope() as s:
        milk = get_allergen(s, "Milk")
        s.add(ChildAllergy(child_id=child_id, ingredient_id=milk.id, alert_level=level))


def pay(api: TestClient, sim: SimServer, fam: dict) -> int:
    data = ok(
        call(api, "/Parent/order/getConvergeSessionToken", {"purpose": "order"}, fam["token"])
    )
    txn = lightbox_submit(sim, data["ssl_txn_auth_token"], number=VISA)["response"]
    placed = ok(
        call(
            api,
            "/Parent/order/AddOrder",
            {"payment_id": data["payment_id"], "ssl_txn_id": txn["ssl_txn_id"]},
            fam["token"],
        )
    )
    return placed["order_id"]


def test_add_to_my_order_and_modify_meal_refuse_an_add_on_the_child_cannot_have(
    api: TestClient, family: dict, sim: SimServer
) -> None:
    tok, (emma, noah) = family["token"], family["children"]
    add(get_engine(), family, 0, 2, addons=[family["cheese"]])  # no milk allergy yet
    order_id = pay(api, sim, family)
    with session_scope() as s:
        (line_id,) = s.exec(select(OrderLine.id).where(OrderLine.order_id == order_id)).all()
    milk_allergy(emma)  # found out since

    # ModifyMeal: the same meal with its cheese string on another day is refused
    moved = refused(
        call(
            api,
            "/Parent/order/ModifyMeal",
            {"order_line_id": line_id, "date": str(monday_in(3))},
            tok,
        )
    )
    assert moved.startswith("Cheese string contains Milk, a Major allergy of this child")
    with session_scope() as s:
        assert s.get(OrderLine, line_id).meal_date == monday_in(2)

    # AddToMyOrder (the add-item path of modify order and manage meal)
    body = {
        "order_id": order_id,
        "child_id": emma,
        "meal_id": family["meal_id"],
        "date": str(monday_in(4)),
        "addons": [family["cheese"]],
    }
    french = refused(call(api, "/Parent/order/AddToMyOrder", body, tok, "fr"))
    assert french.startswith("Fromage ficelle contient : Lait, une allergie majeure")
    info = ok(call(api, "/Parent/order/AddToMyOrder", {**body, "addons": []}, tok))
    assert info["to_pay_cents"] > 0
    ok(call(api, "/Parent/order/AddToMyOrder", {**body, "child_id": noah}, tok))
    # a High milk allergy: the add-on needs the acknowledgement, which names it
    milk_allergy(noah, "High")
    need = refused(call(api, "/Parent/order/AddToMyOrder", {**body, "child_id": noah}, tok))
    assert need == (
        "This meal contains Milk (Cheese string). Please confirm that you understand before "
        "adding it"
    )
    ok(
        call(
            api, "/Parent/order/AddToMyOrder", {**body, "child_id": noah, "allergy_ack": True}, tok
        )
    )


def test_checkout_leaves_out_a_line_whose_add_on_became_a_major_allergy(
    api: TestClient, family: dict, sim: SimServer
) -> None:
    tok, (emma, noah) = family["token"], family["children"]
    add(get_engine(), family, 0, 2, addons=[family["cheese"]])
    milk_allergy(emma)
    message = refused(call(api, "/Parent/order/getConvergeSessionToken", {"purpose": "order"}, tok))
    assert message == "Your cart has no meal that can be paid"
    with session_scope() as s:
        assert s.exec(select(Payment).where(Payment.parent_id == family["parent_id"])).all() == []
    # with a payable line beside it, only that line is paid for
    add(get_engine(), family, 1, 2, addons=[family["cheese"]])
    order_id = pay(api, sim, family)
    with session_scope() as s:
        children = s.exec(select(OrderLine.child_id).where(OrderLine.order_id == order_id)).all()
    assert children == [noah]


def test_a_moved_meal_needs_its_acknowledgement_to_name_an_allergy_raised_since(
    api: TestClient, family: dict, sim: SimServer
) -> None:
    tok, (emma, noah) = family["token"], family["children"]
    add(get_engine(), family, 1, 2, addons=[family["cheese"]])  # Noah: no allergy yet
    milk_allergy(emma, "High")
    add(get_engine(), family, 0, 2, addons=[family["cheese"]], allergy_ack=True)
    order_id = pay(api, sim, family)
    with session_scope() as s:
        lines = dict(
            s.exec(
                select(OrderLine.child_id, OrderLine.id).where(OrderLine.order_id == order_id)
            ).all()
        )
    milk_allergy(noah, "Medium")  # found out since: his line was never acknowledged
    target = str(monday_in(3))
    body = {"order_line_id": lines[noah], "date": target}
    need = refused(call(api, "/Parent/order/ModifyMeal", body, tok))
    assert need.startswith("This meal contains Milk (Cheese string). Please confirm")
    # Emma's line acknowledged the milk when it was booked: it moves
    moved = ok(call(api, "/Parent/order/ModifyMeal", {**body, "order_line_id": lines[emma]}, tok))
    assert moved["status"] == "applied"
