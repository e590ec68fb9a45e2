"""Refunds to family credit through /api/v1 (SQLite and PostgreSQL, the simulator standing in
for Converge): CancelMeal and CancelOrder take ``refund_to`` (card or credit, else the family's
standing choice), answer where the refund went (``refund_to``, ``credit_cents``), and
FamilyCredit shows the balance risen by exactly that; anything else is refused. At checkout
(getConvergeSessionToken) family credit pays first: all of it, the order is placed with no
card; ``use_credit: false`` pays by card."""

from __future__ import annotations

from fastapi.testclient import TestClient

from hotmeals.db.engine import get_engine, session_scope
from hotmeals.domain.credit import CreditKind
from hotmeals.services import credit
from tests.api.test_order_history_and_cancels_api import call, pay_api, sums
from tests.orders_support import add
from tests.payments_support import SimServer


def _balance(api: TestClient, token: str) -> int:
    answer = call(api, "/Parent/user/FamilyCredit", token=token, method="get").json()
    assert answer["code"] == 1, answer
    return answer["data"]["balance_cents"]


def test_cancel_to_credit_and_back_to_the_card(api: TestClient, shop_family: dict, sim: SimServer):
    tok = shop_family["token"]
    placed = pay_api(
        api,
        sim,
        shop_family,
        [{"child": 0, "weeks": 2, "quantity": 1}, {"child": 1, "weeks": 3, "quantity": 1}],
    )
    order_id = placed["order_id"]
    paid, _ = sums(order_id)
    detail = call(api, "/Parent/order/OrderDetail", {"order_id": order_id}, tok).json()["data"]
    first, _second = (x["order_line_id"] for x in detail["lines"])
    reason = shop_family["reason_id"]
    start = _balance(api, tok)

    bad = call(
        api,
        "/Parent/order/CancelMeal",
        {"order_line_id": first, "reason_id": reason, "refund_to": "cash"},
        tok,
        key="bad-dest",
    ).json()
    assert bad["code"] == 0 and "card or family credit" in bad["message"]

    body = {"order_line_id": first, "reason_id": reason, "refund_to": "credit"}
    meal = call(api, "/Parent/order/CancelMeal", body, tok, "fr", key="meal-credit").json()
    assert meal["code"] == 1, meal
    data = meal["data"]
    assert data["refund_to"] == "credit" and data["credit_cents"] == data["refund_cents"] > 0
    assert data["credit"].endswith("$") and "crédit familial" in data["notice"]
    assert _balance(api, tok) == start + data["credit_cents"]
    again = call(api, "/Parent/order/CancelMeal", body, tok, key="meal-credit").json()
    assert again["data"]["repeated"] and again["data"]["credit_cents"] == data["credit_cents"]
    assert _balance(api, tok) == start + data["credit_cents"]

    whole = call(
        api,
        "/Parent/order/CancelOrder",
        {"order_id": order_id, "reason_id": reason, "refund_to": "card"},
        tok,
        key="order-card",
    ).json()
    assert whole["code"] == 1 and whole["data"]["refund_to"] == "card"
    assert whole["data"]["credit_cents"] == 0
    assert data["refund_cents"] + whole["data"]["refund_cents"] == paid
    assert sums(order_id) == (paid, paid)
    assert _balance(api, tok) == start + data["credit_cents"]


def test_family_credit_pays_the_whole_order_at_checkout(api: TestClient, shop_family: dict):
    tok = shop_family["token"]
    with session_scope() as s:
        credit.record(
            s, shop_family["parent_id"], CreditKind.ADJUST, 50_000, key="g", reason="test"
        )
    add(get_engine(), shop_family, 0, 2, quantity=1)
    by_card = call(
        api, "/Parent/order/getConvergeSessionToken", {"purpose": "order", "use_credit": False}, tok
    ).json()
    assert by_card["code"] == 1 and by_card["data"]["credit_cents"] == 0
    assert by_card["data"]["ssl_txn_auth_token"] and by_card["data"]["status"] is None
    total = by_card["data"]["amount_cents"]
    started = call(api, "/Parent/order/getConvergeSessionToken", {"purpose": "order"}, tok).json()
    assert started["code"] == 1, started
    data = started["data"]
    assert data["status"] == "placed" and data["ssl_txn_auth_token"] == ""
    assert data["credit_cents"] == total and data["amount_cents"] == 0
    assert "family credit" in started["message"]
    assert _balance(api, tok) == 50_000 - total
    assert sums(data["order_id"]) == (total, 0)
