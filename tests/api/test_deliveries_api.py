"""/api/v1/Admin/ConfirmDelivery (SQLite and PostgreSQL): the admin key only; refused before the
day with the message in the caller's language; with it a school day's meals are delivered and
the parent reads the order back as delivered (OrderHistory, OrderDetail); again: the first
confirmation. The delivery's rules are tested in tests/integration/test_deliveries.py."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime

import pytest

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.settings import get_settings
from tests import factories as f
from tests.api.helpers import API_KEY, ok, post, quick_token, refused

ADMIN_KEY = "operator-secret-of-at-least-24-chars"
DAY = date(2031, 3, 3)
NOON = datetime(2031, 3, 3, 17, 0, tzinfo=UTC)  # noon in Toronto


@pytest.fixture
def admin_key(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("HOTMEALS_ADMIN_API_KEY", ADMIN_KEY)
    get_settings.cache_clear()
    yield ADMIN_KEY
    monkeypatch.delenv("HOTMEALS_ADMIN_API_KEY")
    get_settings.cache_clear()


def _ordered() -> dict:
    """A school served by a vendor on DAY, and a parent's placed order of one meal there."""
    with session_scope() as s:
        school = f.make_school(s)
        vendor = f.make_vendor(s)
        meal = f.make_meal(s, vendor, name_en="Pasta", name_fr="Pâtes")
        day = f.make_menu_day(s, school, vendor, DAY, [meal])
        parent = f.make_parent(s)
        child = f.make_child(s, parent, school=school, is_default=True)
        order = f.make_placed_order(s, parent, [(child, day, meal)])
        return {
            "school": school.id,
            "school_name": school.name,
            "vendor": vendor.name,
            "order_id": order.id,
            "email": parent.email,
        }


def _confirm(client, body: dict, key: str | None = None, **extra):
    more = {"admin-key": key} if key else {}
    return post(client, "/Admin/ConfirmDelivery", body, **more, **extra)


def test_only_the_admin_key_confirms_a_delivery(client, admin_key):
    world = _ordered()
    body = {"school": str(world["school"]), "date": DAY.isoformat()}
    refused(_confirm(client, body), "Invalid admin key.", status=403)
    refused(_confirm(client, body, API_KEY), "Invalid admin key.", status=403)


def test_an_operator_confirms_a_day_and_the_parent_reads_it_delivered(client, admin_key):
    world = _ordered()
    body = {"school": str(world["school"]), "date": DAY.isoformat(), "vendor": world["vendor"]}
    clock.set_now(datetime(2031, 3, 2, 17, 0, tzinfo=UTC))
    refused(
        _confirm(client, body, admin_key, lang="fr"),
        "Les repas du 2031-03-03 peuvent être confirmés comme livrés à partir de ce jour-là "
        "(nous sommes le 2031-03-02 à Toronto).",
    )
    clock.set_now(NOON)
    data = ok(_confirm(client, body, admin_key))["data"]
    (vendor,) = data.pop("vendors")
    assert data == {
        "school_id": world["school"],
        "school": world["school_name"],
        "date": DAY.isoformat(),
        "meals": 1,
        "orders_delivered": 1,
        "repeated": False,
    }
    assert vendor["vendor"] == world["vendor"] and vendor["meals"] == 1
    assert vendor["confirmed_by"] == "operator:api" and not vendor["repeated"]
    assert vendor["confirmed_at"] == NOON.isoformat()

    token = quick_token(world["email"])
    past = ok(post(client, "/Parent/order/OrderHistory", {"tab": "past"}, token, lang="fr"))
    (order,) = [o for o in past["data"]["orders"] if o["order_id"] == world["order_id"]]
    assert (order["status"], order["status_label"]) == ("delivered", "Livrée")
    detail = ok(post(client, "/Parent/order/OrderDetail", {"order_id": world["order_id"]}, token))[
        "data"
    ]
    assert (detail["status"], detail["status_label"], detail["can_cancel"]) == (
        "delivered",
        "Delivered",
        False,
    )
    (line,) = detail["lines"]
    assert (line["state"], line["state_label"], line["can_cancel"]) == (
        "delivered",
        "Delivered",
        False,
    )

    again = ok(
        _confirm(client, {"school": world["school_name"], "date": DAY.isoformat()}, admin_key)
    )
    assert again["data"]["repeated"] and again["data"]["vendors"][0] == {**vendor, "repeated": True}


def test_a_confirmation_names_a_school_and_a_vendor_that_serves_it(client, admin_key):
    world = _ordered()
    clock.set_now(NOON)
    refused(_confirm(client, {"date": DAY.isoformat()}, admin_key), "Choose a school")
    refused(
        _confirm(client, {"school": "99999999", "date": DAY.isoformat()}, admin_key),
        "No school 99999999",
    )
    other = {"school": str(world["school"]), "date": "2031-03-01"}
    refused(
        _confirm(client, other, admin_key), f"No vendor serves {world['school_name']} on 2031-03-01"
    )
    with session_scope() as s:
        elsewhere = f.make_vendor(s).name
    body = {"school": str(world["school"]), "date": DAY.isoformat(), "vendor": elsewhere}
    refused(
        _confirm(client, body, admin_key),
        f"{elsewhere} does not serve {world['school_name']} on {DAY.isoformat()}",
    )
