"""The tray reaches the right child, through /api/v1 (SQLite and PostgreSQL, the simulator over
HTTP standing in for Converge): a family books meals with options, add-ons, notes, allergies
and dietary needs for three children at two schools and pays; a meal cancelled before the
cut-off leaves the day; past the cut-off the operator reads each school's production list and
labels (the PDF's text and the CSV) and they match the parent's order details line by line; a
cancellation after the cut-off changes nothing on them; the delivery is confirmed and the
parent reads "Delivered" back. Each rule is tested on its own below these doors
(tests/integration/test_kitchen.py, test_deliveries.py, test_diet.py): this is the journey
through all of them at once."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from pypdf import PdfReader
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    AddOn,
    AddOnDiet,
    CancelReason,
    MealDiet,
    MealOption,
    MealOptionDiet,
    MenuOption,
    MenuOptionDiet,
    OrderLine,
    Parent,
)
from hotmeals.services.parents import start_session
from hotmeals.settings import get_settings
from tests import factories as f
from tests.api.helpers import API_KEY
from tests.payments_support import VISA, SimServer, lightbox_submit

ADMIN_KEY = "kitchen-journey-operator-key-0123456789"


@pytest.fixture
def admin_key(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("HOTMEALS_ADMIN_API_KEY", ADMIN_KEY)
    get_settings.cache_clear()
    yield ADMIN_KEY
    monkeypatch.delenv("HOTMEALS_ADMIN_API_KEY")
    get_settings.cache_clear()


def _call(api: TestClient, path: str, body: dict, *, token: str = "", admin: str = ""):
    headers = {"api-key": API_KEY, "app": "P", "content-type": "text/plain"}
    if token:
        headers["token"] = token
    if admin:
        headers["admin-key"] = admin
    return api.post(f"/api/v1{path}", content=json.dumps(body), headers=headers)


def _ok(response) -> dict:
    answer = response.json()
    assert answer["code"] == 1, answer
    return answer["data"]


def _world(day: date) -> dict:
    """A family of three children at two schools (Emma vegetarian with a Major peanut and a Low
    milk allergy, Noah at her school, Lina halal at the other), a vendor whose cut-off is the
    day before at 10:00 serving a vegetarian pasta (with a vegetarian drink, a vegan
    gluten-free variant and a vegan fruit add-on) and a chicken wrap at both schools on ``day``."""
    with session_scope() as s:
        parent = f.make_parent(s, first_name="Maya")
        north, south = f.make_school(s), f.make_school(s)
        emma = f.make_child(
            s,
            parent,
            school=north,
            first_name="Emma",
            last_name="Tremblay",
            is_default=True,
            allergies={"Peanuts": "Major", "Milk": "Low"},
        )
        noah = f.make_child(s, parent, school=north, first_name="Noah", grade_code="5")
        lina = f.make_child(s, parent, school=south, first_name="Lina", last_name="Haddad")
        vendor = f.make_vendor(s, cutoff_days_before=1, cutoff_time="10:00")
        pasta = f.make_meal(
            s,
            vendor,
            name_en="Baked Pasta",
            allergens=["Milk"],
            menu_options={"White milk": 0},
            meal_options={"Gluten-free pasta": 75},
        )
        wrap = f.make_meal(s, vendor, name_en="Chicken Wrap")
        fruit = AddOn(
            vendor_id=vendor.id, name_en="Fruit cup", name_fr="Coupe de fruits", price_cents=150
        )
        s.add(fruit)
        s.flush()
        s.add(MealDiet(meal_id=pasta.id, diet="vegetarian"))
        s.add(AddOnDiet(addon_id=fruit.id or 0, diet="vegan"))
        for option in s.exec(select(MenuOption).where(MenuOption.meal_id == pasta.id)):
            s.add(MenuOptionDiet(menu_option_id=option.id or 0, diet="vegetarian"))
        for variant in s.exec(select(MealOption).where(MealOption.meal_id == pasta.id)):
            s.add(MealOptionDiet(meal_option_id=variant.id or 0, diet="vegan"))
        days = {
            school.id: f.make_menu_day(s, school, vendor, day, [pasta, wrap]).id
            for school in (north, south)
        }
        reason = s.exec(select(CancelReason)).first()
        if reason is None:
            reason = CancelReason(code="plans", label_en="Plans changed", label_fr="Autres plans")
            s.add(reason)
        s.flush()
        return {
            "token": start_session(s, parent, "pytest"),
            "parent_id": parent.id,
            "north": north.id,
            "south": south.id,
            "north_name": north.name,
            "south_name": south.name,
            "emma": emma.id,
            "noah": noah.id,
            "lina": lina.id,
            "pasta": pasta.id,
            "wrap": wrap.id,
            "fruit": fruit.id,
            "drink": s.exec(select(MenuOption.id).where(MenuOption.meal_id == pasta.id)).one(),
            "gluten_free": s.exec(
                select(MealOption.id).where(MealOption.meal_id == pasta.id)
            ).one(),
            "days": days,
            "reason": reason.id,
        }


def _set_diets(api: TestClient, w: dict, child: str, diets: list[str]) -> None:
    shown = _ok(
        _call(api, "/Parent/user/GetOneChildInfo", {"child_id": w[child]}, token=w["token"])
    )
    body = {
        key: shown[key]
        for key in ("first_name", "last_name", "city_id", "school_id", "teacher_id", "grade_id")
    }
    edited = _ok(
        _call(
            api,
            "/Parent/user/EditChild",
            {**body, "child_id": w[child], "diets": diets},
            token=w["token"],
        )
    )
    assert edited["diets"] == diets


def _labels_pdf_text(api: TestClient, school: int, day: date, admin: str) -> str:
    response = _call(
        api, "/Admin/Labels", {"school": str(school), "date": day.isoformat()}, admin=admin
    )
    assert response.headers["content-type"] == "application/pdf"
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)


def _labels_csv(api: TestClient, school: int, day: date, admin: str) -> list[dict]:
    body = {"school": str(school), "date": day.isoformat(), "format": "csv"}
    response = _call(api, "/Admin/Labels", body, admin=admin)
    assert response.headers["content-type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8"))))


def test_booked_paid_labelled_and_delivered_through_the_api(
    api: TestClient, sim: SimServer, admin_key: str
) -> None:
    sim.control("config", decline_by_cents="0")
    now = clock.now()
    day = (now + timedelta(days=14 - now.weekday())).date()  # a Monday two weeks ahead
    w = _world(day)
    _set_diets(api, w, "emma", ["vegetarian"])
    _set_diets(api, w, "lina", ["halal"])
    token = w["token"]

    def add(child: str, meal: str, **extra) -> dict:
        school = "south" if child == "lina" else "north"
        body = {"child_id": w[child], "meal_id": w[meal], "menu_day_id": w["days"][w[school]]}
        return _call(api, "/Parent/cart/AddToCart", {**body, **extra}, token=token).json()

    # Emma: the vegetarian pasta, large, with the drink, the gluten-free variant, the fruit
    # and a note, twice (her Low milk allergy adds it with a notice).
    emma = add(
        "emma",
        "pasta",
        size="large",
        quantity=2,
        menu_option_id=w["drink"],
        meal_option_id=w["gluten_free"],
        addons=[w["fruit"]],
        special_note="Cut in small pieces",
    )
    assert emma["code"] == 1 and emma["data"]["allergy_notice"], emma
    # The wrap does not fit Emma's diet: refused until the parent confirms, then added.
    refused = add("emma", "wrap")
    assert refused["code"] == 0 and refused["data"] == {"field": "diet_ack"}, refused
    assert "Emma" in refused["message"] and "vegetarian" in refused["message"].lower()
    assert add("emma", "wrap", diet_ack=True)["code"] == 1
    assert add("noah", "wrap")["code"] == 1  # no needs, no notice
    assert add("lina", "wrap", diet_ack=True)["code"] == 1  # not marked halal
    summary = _ok(_call(api, "/Parent/cart/OrderSummary", {}, token=token))
    assert summary

    started = _ok(
        _call(api, "/Parent/order/getConvergeSessionToken", {"purpose": "order"}, token=token)
    )
    paid = lightbox_submit(sim, started["ssl_txn_auth_token"], number=VISA)["response"]
    placed = _ok(
        _call(
            api,
            "/Parent/order/AddOrder",
            {"payment_id": started["payment_id"], "ssl_txn_id": paid["ssl_txn_id"]},
            token=token,
        )
    )
    order_id, number = placed["order_id"], placed["order_number"]
    with session_scope() as s:
        lines = {
            (line.child_id, line.meal_id): line.id
            for line in s.exec(select(OrderLine).where(OrderLine.order_id == order_id)).all()
        }
    # Before the cut-off the parent cancels Emma's wrap: it will not be on the labels.
    cancel = {"order_line_id": lines[(w["emma"], w["wrap"])], "reason_id": w["reason"]}
    _ok(_call(api, "/Parent/order/CancelMeal", cancel, token=token))

    # Before the cut-off the kitchen's day is refused; just past it, it is ready.
    early = _call(
        api,
        "/Admin/ProductionList",
        {"school": str(w["north"]), "date": day.isoformat()},
        admin=admin_key,
    ).json()
    assert early["code"] == 0 and early["data"] == {"field": "date"}, early
    cutoff = datetime(day.year, day.month, day.day, 16, 0, tzinfo=UTC) - timedelta(days=1)
    clock.set_now(cutoff)

    north = _labels_csv(api, w["north"], day, admin_key)
    assert sorted((r["child"], r["meal"], r["meal_no"]) for r in north) == [
        ("Emma T.", "Baked Pasta", "1/2"),
        ("Emma T.", "Baked Pasta", "2/2"),
        ("Noah M.", "Chicken Wrap", "1/1"),
    ]
    emma_label = next(r for r in north if r["child"] == "Emma T.")
    assert emma_label["order"] == number
    assert emma_label["size"] == "large"
    assert emma_label["menu_option"] == "White milk"
    assert emma_label["meal_option"] == "Gluten-free pasta"
    assert emma_label["add_ons"] == "Fruit cup"
    assert emma_label["special_message"] == "Cut in small pieces"
    assert emma_label["allergies"] == "Peanuts:Major; Milk:Low"
    assert emma_label["allergens_in_meal"] == "Milk"
    assert emma_label["diets"] == "vegetarian" and emma_label["diet_fits"] == "yes"
    south = _labels_csv(api, w["south"], day, admin_key)
    assert [(r["child"], r["meal"], r["diets"], r["diet_fits"]) for r in south] == [
        ("Lina H.", "Chicken Wrap", "halal", "no")
    ]
    text = _labels_pdf_text(api, w["north"], day, admin_key)
    assert "Emma T." in text and "Cut in small pieces" in text and "MAJOR ALLERGY" in text
    assert "Noah M." in text and "Lina H." not in text

    # The production list counts what the labels hold, Emma's row first.
    listed = _ok(
        _call(
            api,
            "/Admin/ProductionList",
            {"school": str(w["north"]), "date": day.isoformat()},
            admin=admin_key,
        )
    )
    (kitchen,) = listed["lists"]
    assert [row["child"] for row in kitchen["attention"]] == ["Emma T."]
    assert Counter({m["meal"]: m["count"] for m in kitchen["meals"]}) == Counter(
        {"Baked Pasta": 2, "Chicken Wrap": 1}
    )
    assert kitchen["add_ons"] == [{"name": "Fruit cup", "count": 2}]
    assert kitchen["total"] == 3

    # The labels match the parent's order details meal for meal (Emma's cancelled wrap aside).
    with session_scope() as s:
        token = start_session(s, s.get(Parent, w["parent_id"]), "pytest")  # a week later
    detail = _ok(_call(api, "/Parent/order/OrderDetail", {"order_id": order_id}, token=token))
    ordered = Counter(
        (
            f"{line['child_name'].split()[0]} {line['child_name'].split()[1][0]}.",
            line["meal_name"],
            line["menu_option"],
            line["meal_option"],
            "; ".join(a["name"] for a in line["addons"]),
            line["special_note"],
        )
        for line in detail["lines"]
        if line["state"] == "active"
        for _ in range(line["active_quantity"])
    )
    labelled = Counter(
        (
            r["child"],
            r["meal"],
            r["menu_option"],
            r["meal_option"],
            r["add_ons"],
            r["special_message"],
        )
        for r in north + south
    )
    assert labelled == ordered
    # A cancellation after the cut-off is refused; the labels stay those of the cut-off.
    late = {"order_line_id": lines[(w["noah"], w["wrap"])], "reason_id": w["reason"]}
    assert _call(api, "/Parent/order/CancelMeal", late, token=token).json()["code"] == 0

    # The delivery on the day, read back by the parent.
    clock.set_now(datetime(day.year, day.month, day.day, 17, 0, tzinfo=UTC))
    for school in ("north", "south"):
        done = _ok(
            _call(
                api,
                "/Admin/ConfirmDelivery",
                {"school": str(w[school]), "date": day.isoformat()},
                admin=admin_key,
            )
        )
        assert done["meals"] == (3 if school == "north" else 1)
    detail = _ok(_call(api, "/Parent/order/OrderDetail", {"order_id": order_id}, token=token))
    assert detail["status"] == "delivered"
    # Frozen: the labels read again after the delivery are those of the cut-off.
    assert _labels_csv(api, w["north"], day, admin_key) == north
