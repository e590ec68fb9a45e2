"""The /api/v1 calls after the purchase through HTTP (TestClient on ``create_api()``)
on migrated SQLite and PostgreSQL with the simulator standing in for Converge: OrderHistory,
OrderDetail, CancelOrderReason, the cancel cart (AddToCancelCart, UpdateCancelCartQuantity,
DeleteCancelCartItem, CancelCartDetails, CancelCart), CancelOrder, CancelMeal; 401, bad input,
ownership, repeats, after-cut-off refusals in EN and FR, and the same number of statements for
an order of 1 and of 12 lines."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import get_engine, session_scope
from hotmeals.db.models import CancelReason, Refund
from hotmeals.services.payments.records import order_paid_cents, order_refunded_cents
from tests.api.helpers import API_KEY
from tests.orders_support import (
    WEEKS,
    add,
    make_shop_family,
    monday_in,
    past_cutoff,
    signed_in_again,
)
from tests.payments_support import VISA, SimServer, lightbox_submit
from tests.querycount import count_queries

ROUTES = [
    ("post", "/Parent/order/OrderHistory"),
    ("post", "/Parent/order/OrderDetail"),
    ("get", "/Parent/order/CancelOrderReason"),
    ("post", "/Parent/cart/CancelCartDetails"),
    ("post", "/Parent/cart/AddToCancelCart"),
    ("post", "/Parent/cart/UpdateCancelCartQuantity"),
    ("post", "/Parent/cart/DeleteCancelCartItem"),
    ("post", "/Parent/order/CancelOrder"),
    ("post", "/Parent/order/CancelMeal"),
    ("post", "/Parent/order/CancelCart"),
]


def call(api: TestClient, path: str, body=None, token=None, lang="en", key=None, method="post"):
    headers = {
        "api-key": API_KEY,
        "app": "P",
        "accept-language": lang,
        "content-type": "text/plain",
    }
    if token:
        headers["token"] = token
    if key:
        headers["Idempotency-Key"] = key
    if method == "get":
        return api.get(f"/api/v1{path}", headers=headers)
    content = body if isinstance(body, str) else json.dumps(body or {})
    return api.post(f"/api/v1{path}", content=content, headers=headers)


def pay_api(api: TestClient, sim: SimServer, fam: dict, lines: list[dict]) -> dict:
    for spec in lines:
        spec = dict(spec)
        add(get_engine(), fam, spec.pop("child", 0), spec.pop("weeks", 2), **spec)
    started = call(
        api, "/Parent/order/getConvergeSessionToken", {"purpose": "order"}, fam["token"]
    ).json()
    assert started["code"] == 1, started
    data = started["data"]
    txn = lightbox_submit(sim, data["ssl_txn_auth_token"], number=VISA)["response"]
    added = call(
        api,
        "/Parent/order/AddOrder",
        {"payment_id": data["payment_id"], "ssl_txn_id": txn["ssl_txn_id"]},
        fam["token"],
    ).json()
    assert added["code"] == 1, added
    return added["data"]


def sums(order_id: int) -> tuple[int, int]:
    with session_scope() as s:
        return order_paid_cents(s, order_id), order_refunded_cents(s, order_id)


def test_every_call_needs_a_parent_token(api: TestClient) -> None:
    for method, path in ROUTES:
        answer = call(api, path, {"order_id": 1}, method=method)
        assert answer.status_code == 401 and answer.json()["code"] == 0, path


def test_history_detail_cancel_cart_and_cancel_meal(
    api: TestClient, shop_family: dict, sim: SimServer
) -> None:
    tok = shop_family["token"]
    placed = pay_api(
        api,
        sim,
        shop_family,
        [{"child": 0, "weeks": 2, "quantity": 2}, {"child": 1, "weeks": 3, "quantity": 1}],
    )
    order_id = placed["order_id"]
    paid, _ = sums(order_id)

    history = call(api, "/Parent/order/OrderHistory", {"tab": "future"}, tok).json()
    assert history["code"] == 1 and history["data"]["orders"][0]["order_id"] == order_id
    past = call(api, "/Parent/order/OrderHistory", {"tab": "past"}, tok, "fr").json()
    assert past["data"]["orders"] == [] and past["message"] == "Aucune donnée trouvée"
    bad_tab = call(api, "/Parent/order/OrderHistory", {"tab": "soon"}, tok).json()
    assert bad_tab["code"] == 0

    detail = call(api, "/Parent/order/OrderDetail", {"order_id": order_id}, tok, "fr").json()
    assert detail["code"] == 1
    first, second = (x["order_line_id"] for x in detail["data"]["lines"])
    assert detail["data"]["lines"][0]["state_label"] == "Actif"  # a meal (le repas)

    reasons = call(api, "/Parent/order/CancelOrderReason", token=tok, method="get").json()
    assert reasons["code"] == 1 and any(r["is_other"] for r in reasons["data"])
    other = next(r["reason_id"] for r in reasons["data"] if r["is_other"])

    added = call(
        api, "/Parent/cart/AddToCancelCart", {"order_line_id": first, "quantity": 1}, tok, key="k1"
    ).json()
    assert added["code"] == 1 and added["data"]["cancel_cart_count"] == 1
    cart_id = added["data"]["cancel_cart_id"]
    for body in (
        {"cancel_cart_id": cart_id, "quantity": 3},
        {"cancel_cart_id": cart_id, "quantity": 0},
        {"cancel_cart_id": cart_id, "quantity": "two"},
        {"cancel_cart_id": "x", "quantity": 1},
        {},
    ):
        answer = call(api, "/Parent/cart/UpdateCancelCartQuantity", body, tok)
        assert answer.status_code == 200 and answer.json()["code"] == 0, body
    details = call(api, "/Parent/cart/CancelCartDetails", {}, tok).json()
    assert details["code"] == 1 and details["data"]["count"] == 1
    preview = details["data"]["total_refund_cents"]
    assert 0 < preview < paid

    refused = call(api, "/Parent/order/CancelCart", {"reason_id": other}, tok, "fr").json()
    assert (
        refused["code"] == 0 and refused["message"] == "Veuillez nous dire pourquoi vous annulez."
    )
    done = call(
        api,
        "/Parent/order/CancelCart",
        {"reason_id": other, "other_text": "Sick day"},
        tok,
        key="cancel-cart-1",
    ).json()
    assert done["code"] == 1, done
    assert done["message"].startswith("Order Cancelled. A refund of ")
    assert done["data"]["refund_cents"] == preview == done["data"]["refunded_cents"]
    assert done["data"]["cancel_cart_count"] == 0
    again = call(
        api,
        "/Parent/order/CancelCart",
        {"reason_id": other, "other_text": "Sick day"},
        tok,
        key="cancel-cart-1",
    ).json()
    assert again["code"] == 1 and again["data"]["repeated"] is True
    assert sums(order_id) == (paid, preview)

    rest = call(
        api,
        "/Parent/order/CancelMeal",
        {"order_line_id": second, "reason_id": other, "other_text": "x"},
        tok,
        "fr",
        key="meal-1",
    ).json()
    assert rest["code"] == 1 and rest["message"].startswith("Commande annulée.")
    whole = call(
        api,
        "/Parent/order/CancelOrder",
        {"order_id": order_id, "reason_id": other, "other_text": "x"},
        tok,
        key="order-1",
    ).json()
    assert whole["code"] == 1 and whole["data"]["statuses"] == ["cancelled"]
    assert sums(order_id) == (paid, paid)
    shown = call(api, "/Parent/order/OrderDetail", {"order_id": order_id}, tok).json()["data"]
    assert shown["total_refund_cents"] == paid and len(shown["refunds"]) == 3
    assert [x["state"] for x in shown["lines"]] == ["cancelled", "cancelled"]
    assert shown["charges"][-1]["name"] == "total_refund_cents"
    nothing = call(
        api,
        "/Parent/order/CancelOrder",
        {"order_id": order_id, "reason_id": other, "other_text": "x"},
        tok,
        key="order-2",
    ).json()
    assert nothing["code"] == 0


def test_a_repeated_cancel_without_a_key_cancels_and_refunds_once(
    api: TestClient, shop_family: dict, sim: SimServer
) -> None:
    """No Idempotency-Key and no request_key: the same cancel sent again (the same lines and
    quantities of the same order, the same reason) answers the first one; nothing more is
    cancelled or refunded. A different cancel of the same line still goes through."""
    tok = shop_family["token"]
    placed = pay_api(
        api,
        sim,
        shop_family,
        [{"child": 0, "weeks": 2, "quantity": 3}, {"child": 1, "weeks": 3, "quantity": 1}],
    )
    order_id = placed["order_id"]
    paid, _ = sums(order_id)
    detail = call(api, "/Parent/order/OrderDetail", {"order_id": order_id}, tok).json()
    first, second = (x["order_line_id"] for x in detail["data"]["lines"])
    reasons = call(api, "/Parent/order/CancelOrderReason", token=tok, method="get").json()
    plain = next(r["reason_id"] for r in reasons["data"] if not r["is_other"])
    other = next(r["reason_id"] for r in reasons["data"] if r["is_other"])

    def twice(path: str, body: dict) -> tuple[dict, dict]:
        one = call(api, path, body, tok).json()
        two = call(api, path, body, tok).json()
        assert one["code"] == 1 and two["code"] == 1, (one, two)
        return one["data"], two["data"]

    meal = {"order_line_id": first, "quantity": 1, "reason_id": plain}
    one, two = twice("/Parent/order/CancelMeal", meal)
    assert one["repeated"] is False and two["repeated"] is True
    assert two["refund_cents"] == one["refund_cents"] > 0
    assert sums(order_id) == (paid, one["refund_cents"])

    # The same line and quantity for another reason is another cancel.
    changed = call(
        api, "/Parent/order/CancelMeal", {**meal, "reason_id": other, "other_text": "Trip"}, tok
    ).json()
    assert changed["code"] == 1 and changed["data"]["repeated"] is False
    refunded = one["refund_cents"] + changed["data"]["refund_cents"]
    assert sums(order_id) == (paid, refunded)

    rest_one, rest_two = twice(
        "/Parent/order/CancelMeal", {"order_line_id": second, "reason_id": plain}
    )
    assert rest_one["repeated"] is False and rest_two["repeated"] is True
    assert rest_two["refund_cents"] == rest_one["refund_cents"]
    refunded += rest_one["refund_cents"]
    assert sums(order_id) == (paid, refunded)

    whole_one, whole_two = twice(
        "/Parent/order/CancelOrder", {"order_id": order_id, "reason_id": plain}
    )
    assert whole_one["repeated"] is False and whole_two["repeated"] is True
    assert whole_two["refund_cents"] == whole_one["refund_cents"]
    assert sums(order_id) == (paid, paid)
    shown = call(api, "/Parent/order/OrderDetail", {"order_id": order_id}, tok).json()["data"]
    assert shown["total_refund_cents"] == paid and len(shown["refunds"]) == 4


def test_another_parents_order_line_and_cancel_cart_are_not_found(
    api: TestClient, shop_family: dict, sim: SimServer
) -> None:
    placed = pay_api(api, sim, shop_family, [{"child": 0, "weeks": 2, "quantity": 1}])
    order_id = placed["order_id"]
    detail = call(api, "/Parent/order/OrderDetail", {"order_id": order_id}, shop_family["token"])
    line_id = detail.json()["data"]["lines"][0]["order_line_id"]
    cart_id = call(
        api, "/Parent/cart/AddToCancelCart", {"order_line_id": line_id}, shop_family["token"]
    ).json()["data"]["cancel_cart_id"]
    intruder = make_shop_family(sim)
    with session_scope() as s:
        reason = s.exec(select(CancelReason.id).where(CancelReason.is_other.is_(False))).first()
    for path, body in (
        ("/Parent/order/OrderDetail", {"order_id": order_id}),
        ("/Parent/cart/AddToCancelCart", {"order_line_id": line_id}),
        ("/Parent/cart/UpdateCancelCartQuantity", {"cancel_cart_id": cart_id, "quantity": 1}),
        ("/Parent/cart/DeleteCancelCartItem", {"cancel_cart_id": cart_id}),
        ("/Parent/order/CancelOrder", {"order_id": order_id, "reason_id": reason}),
        ("/Parent/order/CancelMeal", {"order_line_id": line_id, "reason_id": reason}),
    ):
        answer = call(api, path, body, intruder["token"]).json()
        assert answer == {"code": 0, "message": "No data found", "data": answer["data"]}, path
    empty = call(api, "/Parent/cart/CancelCartDetails", {}, intruder["token"]).json()
    assert empty["data"]["orders"] == [] and empty["message"] == "No data found"
    history = call(api, "/Parent/order/OrderHistory", {}, intruder["token"]).json()
    assert history["data"]["orders"] == []
    nothing = call(api, "/Parent/order/CancelCart", {"reason_id": reason}, intruder["token"]).json()
    assert nothing["code"] == 0
    assert sums(order_id)[1] == 0
    gone = call(
        api, "/Parent/cart/DeleteCancelCartItem", {"cancel_cart_id": cart_id}, shop_family["token"]
    ).json()
    assert gone["code"] == 1 and gone["data"]["cancel_cart_count"] == 0


def test_bad_bodies_are_refused_never_a_500(api: TestClient, shop_family: dict) -> None:
    tok = shop_family["token"]
    bodies = [
        "not json",
        "[]",
        "{}",
        '{"order_id": -1}',
        '{"order_id": "1; drop"}',
        '{"order_id": 99999999999}',
        '{"order_line_id": 1.5}',
        '{"quantity": true}',
    ]
    for _method, path in ROUTES:
        if _method == "get":
            continue
        for body in bodies:
            answer = call(api, path, body, tok)
            assert answer.status_code < 500, (path, body, answer.text)
            assert answer.json()["code"] in (0, 1)
    bad_key = call(
        api, "/Parent/order/CancelMeal", {"order_line_id": 1, "reason_id": 1}, tok, key="a b!"
    )
    assert bad_key.status_code < 500 and bad_key.json()["code"] == 0


def test_after_the_cutoff_a_cancel_is_refused_in_english_and_french(
    api: TestClient, shop_family: dict, sim: SimServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    placed = pay_api(api, sim, shop_family, [{"child": 0, "weeks": 2, "quantity": 1}])
    detail = call(
        api, "/Parent/order/OrderDetail", {"order_id": placed["order_id"]}, shop_family["token"]
    )
    line_id = detail.json()["data"]["lines"][0]["order_line_id"]
    late = past_cutoff(monday_in(2)) + timedelta(minutes=1)
    clock.set_now(late)
    shop_family["token"] = signed_in_again(shop_family["parent_id"])
    messages = {}
    for lang in ("en", "fr"):
        answer = call(
            api,
            "/Parent/order/CancelMeal",
            {"order_line_id": line_id, "reason_id": shop_family["reason_id"]},
            shop_family["token"],
            lang,
        ).json()
        assert answer["code"] == 0
        messages[lang] = answer["message"]
        added = call(
            api,
            "/Parent/cart/AddToCancelCart",
            {"order_line_id": line_id},
            shop_family["token"],
            lang,
        ).json()
        assert added["code"] == 0 and added["message"] == messages[lang]
    assert messages["en"].startswith("The cancellation deadline for Monday")
    assert messages["fr"].startswith("La date limite d'annulation pour le lundi")
    assert sums(placed["order_id"])[1] == 0


def test_the_same_statements_for_an_order_of_1_and_of_12_lines(
    api: TestClient, sim: SimServer
) -> None:
    counts = {}
    for size in (1, 12):
        fam = make_shop_family(sim)
        specs = [{"child": c, "weeks": w, "quantity": 1} for c in (0, 1) for w in WEEKS]
        placed = pay_api(api, sim, fam, specs[:size])
        order_id = placed["order_id"]
        tok = fam["token"]
        logs = {}
        with count_queries(get_engine()) as logs["history"]:
            assert call(api, "/Parent/order/OrderHistory", {}, tok).json()["code"] == 1
        with count_queries(get_engine()) as logs["detail"]:
            detail = call(api, "/Parent/order/OrderDetail", {"order_id": order_id}, tok, "fr")
        lines = [x["order_line_id"] for x in detail.json()["data"]["lines"]]
        assert len(lines) == size
        for line_id in lines:
            assert (
                call(api, "/Parent/cart/AddToCancelCart", {"order_line_id": line_id}, tok).json()[
                    "code"
                ]
                == 1
            )
        with count_queries(get_engine()) as logs["cart"]:
            assert call(api, "/Parent/cart/CancelCartDetails", {}, tok).json()["code"] == 1
        with count_queries(get_engine()) as logs["cancel"]:
            answer = call(
                api,
                "/Parent/order/CancelOrder",
                {"order_id": order_id, "reason_id": fam["reason_id"]},
                tok,
                key=f"all-{size}",
            ).json()
        assert answer["code"] == 1, answer
        counts[size] = logs
    for name in ("history", "detail", "cart", "cancel"):
        assert counts[1][name].count == counts[12][name].count, "\n".join(
            [name, counts[1][name].report(), "----", counts[12][name].report()]
        )
    with session_scope() as s:
        assert s.exec(select(Refund)).first() is not None
