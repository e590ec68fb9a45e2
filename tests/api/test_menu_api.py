"""/api/v1/Parent/menu/*: GetDates, GetMenu, MenuDetail, AddsOn, on SQLite and
PostgreSQL: ownership, closed and unserved dates, cut-offs, the allergy marking per child, and a
fixed number of SQL statements whatever the number of days and meals."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import AddOn, CartLine, MenuDay
from tests.api.helpers import get, login, ok, post, quick_token, refused
from tests.factories import (
    make_child,
    make_meal,
    make_menu_day,
    make_parent,
    make_school,
    make_vendor,
    portion_of,
)
from tests.querycount import count_queries


def _weekday_after(days: int) -> date:
    day = clock.today() + timedelta(days=days)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


@dataclass
class World:
    token: str
    big_token: str
    single_day: date
    child_id: int
    sibling_id: int
    big_child_id: int
    open_day: date
    closed_day: date
    past_cutoff_day: date
    unserved_day: date
    menu_day_id: int
    vendor_id: int
    peanut_meal: int
    milk_meal: int
    sesame_meal: int
    plain_meal: int
    addon_id: int
    first_big_day: date


@pytest.fixture(scope="module")
def world(database) -> World:
    open_day = _weekday_after(21)
    closed_day = _weekday_after((open_day - clock.today()).days + 1)  # the school day after
    unserved_day = _weekday_after(40)
    past_cutoff_day = clock.today() + timedelta(days=1)
    with session_scope() as s:
        parent = make_parent(s, first_name="Menu", last_name="Tester")
        school = make_school(s)
        vendor = make_vendor(s, cutoff_days_before=2, cutoff_time="17:00")
        addon = AddOn(vendor_id=vendor.id, name_en="Apple", name_fr="Pomme", price_cents=125)
        s.add(addon)
        child = make_child(
            s,
            parent,
            school=school,
            first_name="Ava",
            is_default=True,
            allergies={"Peanuts": "Major", "Milk": "Medium", "Sesame": "Low"},
        )
        sibling = make_child(s, parent, school=school, first_name="Ben")
        peanut = make_meal(s, vendor, name_en="Satay bowl", allergens=["Peanuts"])
        milk = make_meal(
            s,
            vendor,
            name_en="Mac and cheese",
            allergens=["Milk", "Wheat and triticale"],
            menu_options={"Juice": 50},
            meal_options={"Gluten-free": 75},
            bulk={10: 25},
        )
        sesame = make_meal(s, vendor, name_en="Sesame noodles", allergens=["Sesame"])
        plain = make_meal(s, vendor, name_en="Rice and beans")
        meals = [peanut, milk, sesame, plain]
        day = make_menu_day(s, school, vendor, open_day, meals)
        make_menu_day(s, school, vendor, closed_day, closed=True)
        make_menu_day(s, school, vendor, past_cutoff_day, meals)
        single_day = _weekday_after(28)
        make_menu_day(s, school, vendor, single_day, [plain])
        # A second family whose school serves 12 days of 12 meals (the query-count twin).
        big_parent = make_parent(s, first_name="Big", last_name="Family")
        big_school = make_school(s)
        big_child = make_child(s, big_parent, school=big_school, allergies={"Peanuts": "High"})
        big_meals = [make_meal(s, vendor, allergens=["Peanuts", "Milk"]) for _ in range(12)]
        first_big = _weekday_after(21)
        for n in range(12):
            make_menu_day(s, big_school, vendor, first_big + timedelta(days=n), big_meals)
        # the big child has lines in the cart on several days
        for n in range(3):
            big_day = s.exec(
                select(MenuDay).where(
                    MenuDay.school_id == big_school.id,
                    MenuDay.meal_date == first_big + timedelta(days=n),
                )
            ).one()
            s.add(
                CartLine(
                    parent_id=big_parent.id,
                    child_id=big_child.id,
                    menu_day_id=big_day.id,
                    meal_id=big_meals[n].id,
                    portion_id=portion_of(s, big_meals[n]).id,
                    quantity=1,
                )
            )
        s.flush()
        world = World(
            token="",
            big_token="",
            single_day=single_day,
            child_id=child.id,
            sibling_id=sibling.id,
            big_child_id=big_child.id,
            open_day=open_day,
            closed_day=closed_day,
            past_cutoff_day=past_cutoff_day,
            unserved_day=unserved_day,
            menu_day_id=day.id,
            vendor_id=vendor.id,
            peanut_meal=peanut.id,
            milk_meal=milk.id,
            sesame_meal=sesame.id,
            plain_meal=plain.id,
            addon_id=addon.id,
            first_big_day=first_big,
        )
        email, big_email = parent.email, big_parent.email
    world.token, world.big_token = quick_token(email), quick_token(big_email)
    return world


# --- GetDates -----------------------------------------------------------------------------------


def test_get_dates_lists_open_closed_and_past_cutoff_days(client, world):
    body = ok(post(client, "/Parent/menu/GetDates", {"child_id": world.child_id}, world.token))
    days = {d["date"]: d for d in body["data"]["days"]}
    open_day = days[world.open_day.isoformat()]
    assert open_day["is_open"] is True and open_day["is_closed"] is False
    assert open_day["menu_day_id"] == world.menu_day_id
    assert open_day["cutoff_at"] < f"{world.open_day.isoformat()}T23:59"
    closed = days[world.closed_day.isoformat()]
    assert closed["is_closed"] is True and closed["is_open"] is False
    assert closed["closed_reason"] == "PA Day – no school"
    past = days[world.past_cutoff_day.isoformat()]
    assert past["is_closed"] is False and past["is_open"] is False  # cut-off two days before
    fr = ok(
        post(client, "/Parent/menu/GetDates", {"child_id": world.child_id}, world.token, lang="fr")
    )
    closed_fr = next(d for d in fr["data"]["days"] if d["date"] == world.closed_day.isoformat())
    assert closed_fr["closed_reason"] == "Journée pédagogique"


def test_get_dates_takes_a_range_in_either_date_form(client, world):
    day = world.open_day
    body = ok(
        post(
            client,
            "/Parent/menu/GetDates",
            {
                "child_id": str(world.child_id),
                "from_date": f"{day.month}/{day.day}/{day.year}",
                "to_date": day.isoformat(),
            },
            world.token,
        )
    )
    assert [d["date"] for d in body["data"]["days"]] == [day.isoformat()]
    empty = ok(
        post(
            client,
            "/Parent/menu/GetDates",
            {"child_id": world.child_id, "from_date": "2020-01-06", "to_date": "2020-01-10"},
            world.token,
        )
    )
    assert empty["data"]["days"] == [] and empty["message"] == "No data found"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"from_date": "2026-02-30"}, "Please enter a valid date"),
        ({"from_date": "tomorrow"}, "Please enter a valid date"),
        ({"from_date": "2026-03-10", "to_date": "2026-03-01"}, None),
        ({"from_date": "2026-01-01", "to_date": "2027-12-31"}, None),
    ],
)
def test_get_dates_refuses_bad_dates(client, world, changes, message):
    refused(
        post(client, "/Parent/menu/GetDates", {"child_id": world.child_id, **changes}, world.token),
        message,
    )


def test_menu_calls_refuse_another_parents_child(client, world):
    demo_token = login(client)
    for path, body in (
        ("/Parent/menu/GetDates", {"child_id": world.child_id}),
        ("/Parent/menu/GetMenu", {"child_id": world.child_id, "date": world.open_day.isoformat()}),
        ("/Parent/menu/MenuDetail", {"child_id": world.child_id, "meal_id": world.plain_meal}),
    ):
        refused(post(client, path, body, demo_token), "Child not found")
    refused(post(client, "/Parent/menu/GetDates", {}, world.token), "Child not found")


def test_menu_calls_need_a_session(client, world):
    body = {"child_id": world.child_id, "date": world.open_day.isoformat()}
    refused(post(client, "/Parent/menu/GetMenu", body), status=401)
    refused(post(client, "/Parent/menu/GetDates", body), status=401)


# --- GetMenu ------------------------------------------------------------------------------------


def test_get_menu_marks_each_meal_for_the_child(client, world):
    body = ok(
        post(
            client,
            "/Parent/menu/GetMenu",
            {"child_id": world.child_id, "date": world.open_day.isoformat()},
            world.token,
        )
    )
    meals = {m["meal_id"]: m for m in body["data"]["meals"]}
    assert set(meals) == {world.peanut_meal, world.milk_meal, world.sesame_meal, world.plain_meal}
    peanut = meals[world.peanut_meal]["allergy"]
    assert peanut["verdict"] == "refused" and peanut["allergens"] == ["Peanuts"]
    assert "Peanuts" in peanut["message"] and "cannot be added" in peanut["message"]
    milk = meals[world.milk_meal]
    assert milk["allergy"]["verdict"] == "acknowledge" and milk["allergy"]["allergens"] == ["Milk"]
    assert milk["allergy"]["message"] == "I understand this meal contains Milk"
    assert milk["allergens"] == ["Milk", "Wheat and triticale"]
    assert meals[world.sesame_meal]["allergy"]["verdict"] == "notice"
    assert meals[world.plain_meal]["allergy"] == {
        "verdict": "safe",
        "allergens": [],
        "message": "",
        "levels": [],
    }
    # sizes with tiers, cheapest first
    assert milk["price_from_cents"] == 550 and milk["price_from"] == "$5.50"
    small, large = milk["portions"]
    assert (small["size"], small["label"], large["label"]) == (
        "small",
        "1 portion",
        "1 portion + upgrade",
    )
    assert [t["min_quantity"] for t in small["tiers"]] == [1, 10]
    assert milk["is_open"] is True
    # the sibling has no allergies: every meal is safe for him
    sibling = ok(
        post(
            client,
            "/Parent/menu/GetMenu",
            {"child_id": world.sibling_id, "date": world.open_day.isoformat()},
            world.token,
        )
    )
    assert {m["allergy"]["verdict"] for m in sibling["data"]["meals"]} == {"safe"}


def test_get_menu_in_french(client, world):
    body = ok(
        post(
            client,
            "/Parent/menu/GetMenu",
            {"child_id": world.child_id, "date": world.open_day.isoformat()},
            world.token,
            lang="fr",
        )
    )
    peanut = next(m for m in body["data"]["meals"] if m["meal_id"] == world.peanut_meal)
    assert "Arachides" in peanut["allergy"]["message"]
    assert peanut["price_from"] == "5,50\u00a0$"


def test_get_menu_refuses_closed_unserved_and_bad_dates(client, world):
    def menu(day, lang="en"):
        body = {"child_id": world.child_id, "date": day}
        return post(client, "/Parent/menu/GetMenu", body, world.token, lang=lang)

    refused(
        menu(world.closed_day.isoformat()), f"No meals on {world.closed_day}: PA Day – no school"
    )
    refused(
        menu(world.closed_day.isoformat(), "fr"),
        f"Aucun repas le {world.closed_day} : Journée pédagogique",
    )
    refused(
        menu(world.unserved_day.isoformat()),
        f"Your child's school has no meals on {world.unserved_day}",
    )
    refused(menu(""), "Please choose a date")
    refused(menu("13/45/2026"), "Please enter a valid date")


def test_get_menu_past_cutoff_is_listed_but_not_open(client, world):
    body = ok(
        post(
            client,
            "/Parent/menu/GetMenu",
            {"child_id": world.child_id, "date": world.past_cutoff_day.isoformat()},
            world.token,
        )
    )
    assert body["data"]["meals"] and not any(m["is_open"] for m in body["data"]["meals"])


# --- MenuDetail and AddsOn ----------------------------------------------------------------------


def test_menu_detail_has_nutrition_options_addons_and_allergy(client, world):
    body = ok(
        post(
            client,
            "/Parent/menu/MenuDetail",
            {"meal_id": world.milk_meal, "child_id": world.child_id},
            world.token,
        )
    )["data"]
    assert [n["key"] for n in body["nutrition"]][:3] == ["calories", "fat", "saturated_fat"]
    assert len(body["nutrition"]) == 15
    assert body["nutrition"][0]["value"] == 450
    assert body["allergy"]["verdict"] == "acknowledge"
    assert [o["name"] for o in body["menu_options"]] == ["Juice"]
    assert body["meal_options"][0]["price_cents"] == 75
    assert [a["id"] for a in body["addons"]] == [world.addon_id]
    assert body["ingredients"] is not None
    # without a child: no marking
    plain = ok(post(client, "/Parent/menu/MenuDetail", {"meal_id": world.milk_meal}, world.token))
    assert plain["data"]["allergy"] is None
    fr = ok(
        post(
            client, "/Parent/menu/MenuDetail", {"meal_id": world.milk_meal}, world.token, lang="fr"
        )
    )
    assert fr["data"]["nutrition"][1]["label"] == "Lipides"
    refused(
        post(client, "/Parent/menu/MenuDetail", {"meal_id": 999999}, world.token), "Meal not found"
    )
    refused(post(client, "/Parent/menu/MenuDetail", {}, world.token), "Meal not found")


def test_adds_on_lists_a_vendors_addons(client, world):
    body = ok(get(client, f"/Parent/menu/AddsOn?vendor_id={world.vendor_id}", world.token))
    assert [(a["name"], a["price"]) for a in body["data"]] == [("Apple", "$1.25")]
    assert ok(get(client, "/Parent/menu/AddsOn", world.token))["data"]
    refused(get(client, "/Parent/menu/AddsOn?vendor_id=abc", world.token), "Vendor not found")
    none = ok(get(client, "/Parent/menu/AddsOn?vendor_id=999999", world.token))
    assert none["data"] == [] and none["message"] == "No data found"


# --- statements: fixed whatever the number of days and meals -----------------------------------


def _count(call) -> tuple[int, str]:
    with count_queries() as queries:
        ok(call())
    return queries.count, queries.report()


def test_menu_reads_run_a_fixed_number_of_statements(client, world):
    big = world.big_token
    first = world.first_big_day
    small_dates, _ = _count(
        lambda: post(
            client,
            "/Parent/menu/GetDates",
            {
                "child_id": world.child_id,
                "from_date": str(world.open_day),
                "to_date": str(world.open_day),
            },
            world.token,
        )
    )
    big_dates, report = _count(
        lambda: post(
            client,
            "/Parent/menu/GetDates",
            {
                "child_id": world.big_child_id,
                "from_date": str(first),
                "to_date": str(first + timedelta(days=20)),
            },
            big,
        )
    )
    # the token, the child, the menus' version, its days ordered, in the cart, and away
    assert small_dates == big_dates <= 6, report
    small_menu, _ = _count(
        lambda: post(
            client,
            "/Parent/menu/GetMenu",
            {"child_id": world.child_id, "date": str(world.single_day)},
            world.token,
        )
    )
    big_menu, report = _count(
        lambda: post(
            client,
            "/Parent/menu/GetMenu",
            {"child_id": world.big_child_id, "date": str(first)},
            big,
        )
    )
    # The menu from its copy (was 7), and the child's dietary needs: one batched query (was 5).
    assert small_menu == big_menu <= 6, report


def test_get_dates_counts_paid_meals_and_the_cart_for_the_child(client, world):
    from hotmeals.db.models import Child, Meal, Order, OrderLine

    with session_scope() as s:
        child = s.get(Child, world.child_id)
        parent_id = child.parent_id
        meal = s.get(Meal, world.plain_meal)
        orders = []
        for n, status in enumerate(("placed", "pending_payment", "cancelled")):
            order = Order(
                number=f"HM-D{world.child_id}{n}",
                parent_id=parent_id,
                status=status,
                tax_bps=1300,
                processing_fee_bps=0,
                processing_fee_fixed_cents=0,
            )
            s.add(order)
            orders.append(order)
        s.flush()
        for order in orders:
            s.add(
                OrderLine(
                    order_id=order.id,
                    child_id=child.id,
                    menu_day_id=world.menu_day_id,
                    vendor_id=world.vendor_id,
                    meal_id=meal.id,
                    portion_id=portion_of(s, meal).id,
                    meal_date=world.open_day,
                    meal_name=meal.name_en,
                    size="small",
                    quantity=3,
                    cancelled_quantity=1,
                    price_tiers="1:550",
                    unit_price_cents=550,
                    line_total_cents=1650,
                )
            )
        s.add(
            CartLine(
                parent_id=parent_id,
                child_id=child.id,
                menu_day_id=world.menu_day_id,
                meal_id=meal.id,
                portion_id=portion_of(s, meal).id,
                quantity=2,
            )
        )
    body = ok(post(client, "/Parent/menu/GetDates", {"child_id": world.child_id}, world.token))
    day = next(d for d in body["data"]["days"] if d["date"] == world.open_day.isoformat())
    # only the paid order counts, net of its cancelled meal
    assert (day["ordered_quantity"], day["cart_quantity"]) == (2, 2)
    sibling = ok(post(client, "/Parent/menu/GetDates", {"child_id": world.sibling_id}, world.token))
    other = next(d for d in sibling["data"]["days"] if d["date"] == world.open_day.isoformat())
    assert (other["ordered_quantity"], other["cart_quantity"]) == (0, 0)
