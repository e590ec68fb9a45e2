"""The bench's floor (``bench/floor_app.py``: GetMenu by hand, plain ASGI and SQLAlchemy Core)
answers what the app's GetMenu answers, on the demo database: the same status and the same JSON
for a child with allergies and one without (with meals in the cart), in English and French, on
a served open day, a day past its cut-off, a day not served and a closed day, for another
parent's child, a bad or missing token, a wrong api-key and bad bodies. The floor is called in
process (``httpx.ASGITransport``), the app through the API tests' client."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from datetime import date, timedelta

import httpx
import pytest
from sqlmodel import select

from bench import floor_app
from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import Child, MenuDay, Parent, School
from tests.api.helpers import DEMO_EMAIL, headers, login, ok, post
from tests.factories import make_child, make_parent

GET_MENU = "/Parent/menu/GetMenu"


@dataclass
class Demo:
    token: str
    children: dict[str, int]  # Emma (peanuts, Major), Lucas (strawberries, Low), Noa (none),
    # Zoe (another parent's child at the same school)
    days: dict[str, date]  # open, past_cutoff, unserved, closed


def _floor(body: object, token: str | None, lang: str, **extra: str) -> httpx.Response:
    async def call() -> httpx.Response:
        transport = httpx.ASGITransport(app=floor_app.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://floor") as floor:
            content = body if isinstance(body, (str, bytes)) else json.dumps(body)
            return await floor.post(
                floor_app.PATH, content=content, headers=headers(token, lang=lang, **extra)
            )

    return asyncio.run(call())


def both(client, body: object, token: str | None, *, lang: str = "en", **extra: str) -> dict:
    """The app's answer, once the floor answered the same status and JSON."""
    real = post(client, GET_MENU, body, token, lang=lang, **extra)
    floor = _floor(body, token, lang, **extra)
    assert floor.status_code == real.status_code, (floor.text, real.text)
    assert floor.json() == real.json()
    return real.json()


@pytest.fixture(scope="module")
def demo(client) -> Demo:
    token = login(client)
    with session_scope() as s:
        parent = s.exec(select(Parent).where(Parent.email == DEMO_EMAIL)).one()
        kids = {c.first_name: c for c in s.exec(select(Child).where(Child.parent_id == parent.id))}
        school = s.get(School, kids["Emma"].school_id)
        assert school is not None
        kids["Noa"] = make_child(s, parent, school=school, first_name="Noa")
        kids["Zoe"] = make_child(s, make_parent(s), school=school, first_name="Zoe")
        children = {name: child.id for name, child in kids.items()}
        school_id = school.id
        served = set(s.exec(select(MenuDay.meal_date).where(MenuDay.school_id == school.id)))
    dates = ok(post(client, "/Parent/menu/GetDates", {"child_id": children["Emma"]}, token))
    calendar = dates["data"]["days"]
    days = {"open": next(date.fromisoformat(d["date"]) for d in calendar if d["is_open"])}
    past = [d for d in calendar if not d["is_open"] and not d["is_closed"]]
    if past:
        days["past_cutoff"] = date.fromisoformat(past[0]["date"])
    closed = [d for d in calendar if d["is_closed"]]
    if closed:
        days["closed"] = date.fromisoformat(closed[0]["date"])
    else:  # a storm closes the last open day of the window
        with session_scope() as s:
            last = date.fromisoformat([d for d in calendar if d["is_open"]][-1]["date"])
            row = s.exec(
                select(MenuDay).where(MenuDay.school_id == school_id, MenuDay.meal_date == last)
            ).first()
            assert row is not None
            row.is_closed, row.closed_reason_en, row.closed_reason_fr = True, "Storm", "Tempête"
            days["closed"] = last
    days["unserved"] = next(
        clock.today() + timedelta(days=n)
        for n in range(1, 30)
        if clock.today() + timedelta(days=n) not in served
    )
    # Two of Noa's first meal of the open day in the cart: the floor counts them too.
    menu = ok(
        post(client, GET_MENU, {"child_id": children["Noa"], "date": str(days["open"])}, token)
    )
    meal = menu["data"]["meals"][0]
    line = {key: meal[key] for key in ("meal_id", "menu_day_id")}
    line.update(child_id=children["Noa"], size="small", quantity=2)
    ok(post(client, "/Parent/cart/AddToCart", line, token))
    return Demo(token, children, days)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(
    ("child", "day", "answered"),
    [
        ("Emma", "open", 1),
        ("Lucas", "open", 1),
        ("Noa", "open", 1),
        ("Emma", "past_cutoff", 1),
        ("Lucas", "unserved", 0),
        ("Emma", "closed", 0),
        ("Zoe", "open", 0),
    ],
)
def test_the_floor_answers_the_same_menu(client, demo, child, day, answered, lang):
    if day not in demo.days:
        pytest.skip(f"the demo calendar has no {day} day in its window")
    body = {"child_id": demo.children[child], "date": demo.days[day].isoformat()}
    found = both(client, body, demo.token, lang=lang)
    assert found["code"] == answered, found
    if answered:
        assert found["data"]["meals"], found
    if child == "Noa" and day == "open":
        assert found["data"]["meals"][0]["in_cart_quantity"] == 2


def test_the_compared_menus_carry_allergens(client, demo):
    """The open day's menus compared above are not bare: their meals carry allergens and
    extras (options and add-ons with allergens) to mark."""
    day = demo.days["open"].isoformat()
    meals = []
    for name in ("Emma", "Lucas"):
        body = {"child_id": demo.children[name], "date": day}
        meals += both(client, body, demo.token)["data"]["meals"]
    assert any(meal["allergens"] for meal in meals)
    assert any(meal["extras"] for meal in meals)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(
    ("body", "token", "extra"),
    [
        ({"child_id": "Emma", "date": "open"}, "not-a-token", {}),
        ({"child_id": "Emma", "date": "open"}, None, {}),
        ({"child_id": "Emma", "date": "open"}, "demo", {"api-key": "wrong"}),
        ({"child_id": "Emma", "date": "open"}, "demo", {"app": "X"}),
        ({"child_id": "Emma"}, "demo", {}),
        ({"child_id": "Emma", "date": "2026-02-30"}, "demo", {}),
        ({"child_id": "Emma", "meal_date": "mdy"}, "demo", {}),
        ({"child_id": "str:Lucas", "date": "open"}, "demo", {}),
        ({"date": "open"}, "demo", {}),
        ({"child_id": 0, "date": "open"}, "demo", {}),
        ({"child_id": 99999, "date": "open"}, "demo", {}),
        ("{not json", "demo", {}),
        ("[]", "demo", {}),
    ],
)
def test_the_floor_refuses_as_the_app_does(client, demo, body, token, extra, lang):
    if isinstance(body, dict):
        body = dict(body)
        for key, value in body.items():
            if value in demo.children:
                body[key] = demo.children[value]
            elif isinstance(value, str) and value.startswith("str:"):
                body[key] = str(demo.children[value[4:]])
            elif value == "open":
                body[key] = demo.days["open"].isoformat()
            elif value == "mdy":
                body[key] = demo.days["open"].strftime("%-m/%-d/%Y")
    both(client, body, demo.token if token == "demo" else token, lang=lang, **extra)
