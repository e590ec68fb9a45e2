"""The checkout's /api/v1 calls through HTTP (TestClient on ``create_api()``) on migrated SQLite
and PostgreSQL, with the simulator over real HTTP standing in for Converge:
getConvergeSessionToken with ``"purpose": "order"``, AddOrder, OrderDeclined,
OrderConfirmation, PayWithSavedCard for an order; bad input, ownership, and the same number
of statements for a cart of 1 and of 12 lines."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import get_engine, session_scope
from hotmeals.db.models import CartLine, Order, Payment
from hotmeals.services.ordering import pricing
from hotmeals.services.parents import start_session
from tests import factories as f
from tests.api.helpers import API_KEY
from tests.orders_support import fill, make_cart_family
from tests.payments_support import DECLINED_CARD, MASTERCARD, VISA, SimServer, lightbox_submit
from tests.querycount import count_queries


def call(api: TestClient, path: str, body=None, token: str | None = None, lang: str = "en"):
    headers = {
        "api-key": API_KEY,
        "app": "P",
        "accept-language": lang,
        "content-type": "text/plain",
    }
    if token:
        headers["token"] = token
    return api.post(f"/api/v1{path}", content=json.dumps(body or {}), headers=headers)


def cart_count(parent_id: int) -> int:
    with session_scope() as s:
        return len(s.exec(select(CartLine.id).where(CartLine.parent_id == parent_id)).all())


def start(api, cart_family, lang="en", **body):
    return call(
        api,
        "/Parent/order/getConvergeSessionToken",
        {"purpose": "order", **body},
        cart_family["token"],
        lang,
    ).json()


def test_every_order_call_needs_a_parent_token(api: TestClient) -> None:
    for path in ("/Parent/order/AddOrder", "/Parent/order/OrderDeclined"):
        answer = call(api, path, {"payment_id": 1})
        assert answer.status_code == 401 and answer.json()["code"] == 0, path
    answer = call(api, "/Parent/order/OrderConfirmation", {"order_id": 1})
    assert answer.status_code == 401


def test_an_order_paid_in_the_lightbox(api: TestClient, cart_family: dict, sim: SimServer) -> None:
    fill(cart_family, 3)
    # The client cannot set the price: amounts and totals in the body are ignored.
    started = start(api, cart_family, amount="0.01", total_pay_cents=1, donation="2")
    assert started["code"] == 1, started
    data = started["data"]
    with session_scope() as s:
        order = s.get(Order, data["order_id"])
        assert data["amount_cents"] == order.total_pay_cents > 200
        assert order.school_donation_cents == 200 and data["order_number"] == order.number
    assert data["purpose"] == "ORDER" and data["status"] is None
    assert data["order_number"] in started["message"]
    response = lightbox_submit(sim, data["ssl_txn_auth_token"], number=VISA)["response"]
    added = call(
        api,
        "/Parent/order/AddOrder",
        {"payment_id": data["payment_id"], "ssl_txn_id": response["ssl_txn_id"]},
        cart_family["token"],
        "fr",
    ).json()
    assert added["code"] == 1, added
    assert added["message"] == f"Merci ! Votre commande {data['order_number']} est passée."
    out = added["data"]
    assert out["status"] == "placed" and out["total_pay_cents"] == data["amount_cents"]
    assert out["order"]["number"] == data["order_number"]
    assert out["order"]["status"] == "placed" and out["order"]["status_label"] == "Confirmée"
    assert [len(g["lines"]) for g in out["order"]["groups"]] == [1, 1, 1]
    assert cart_count(cart_family["parent_id"]) == 0
    again = call(
        api,
        "/Parent/order/AddOrder",
        {"payment_id": data["payment_id"], "ssl_txn_id": response["ssl_txn_id"]},
        cart_family["token"],
    ).json()
    assert again["code"] == 1 and again["data"]["order_id"] == data["order_id"]
    shown = call(
        api, "/Parent/order/OrderConfirmation", {"order_id": data["order_id"]}, cart_family["token"]
    ).json()
    assert shown["code"] == 1 and shown["data"]["total_pay_cents"] == data["amount_cents"]


def test_a_declined_card_keeps_the_cart_and_the_retry_places_the_order(
    api: TestClient, cart_family: dict, sim: SimServer
) -> None:
    fill(cart_family, 2)
    first = start(api, cart_family)["data"]
    refused = lightbox_submit(sim, first["ssl_txn_auth_token"], number=DECLINED_CARD)
    message = refused["response"].get("ssl_result_message", "DECLINED")
    declined = call(
        api,
        "/Parent/order/OrderDeclined",
        {"payment_id": first["payment_id"], "ssl_result_message": message},
        cart_family["token"],
    ).json()
    assert declined["code"] == 0 and declined["data"]["status"] == "declined"
    # No raw processor status in a parent's message.
    assert message not in declined["message"] and "another card" in declined["message"]
    assert cart_count(cart_family["parent_id"]) == 2
    retry = start(api, cart_family)["data"]
    assert retry["order_id"] == first["order_id"] and retry["payment_id"] != first["payment_id"]
    txn = lightbox_submit(sim, retry["ssl_txn_auth_token"], number=MASTERCARD)["response"]
    added = call(
        api,
        "/Parent/order/AddOrder",
        {"payment_id": retry["payment_id"], "ssl_txn_id": txn["ssl_txn_id"]},
        cart_family["token"],
    ).json()
    assert added["code"] == 1 and cart_count(cart_family["parent_id"]) == 0


def test_a_saved_card_pays_the_cart_at_once(
    api: TestClient, cart_family: dict, sim: SimServer
) -> None:
    session = call(api, "/Parent/payment/AddCardSession", {}, cart_family["token"]).json()["data"]
    token = lightbox_submit(sim, session["ssl_txn_auth_token"])["response"]["ssl_token"]
    card = call(api, "/Parent/payment/SaveCard", {"ssl_token": token}, cart_family["token"]).json()
    fill(cart_family, 1)
    paid = start(api, cart_family, card_id=card["data"]["id"])
    assert paid["code"] == 1 and paid["data"]["status"] == "placed", paid
    assert paid["data"]["ssl_txn_auth_token"] == ""
    fill(cart_family, 1)
    again = call(
        api,
        "/Parent/payment/PayWithSavedCard",
        {"purpose": "order", "card_id": card["data"]["id"]},
        cart_family["token"],
    ).json()
    assert again["code"] == 1 and again["data"]["state"] == "APPROVED", again
    assert cart_count(cart_family["parent_id"]) == 0


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "Your cart has no meal that can be paid"),
        ({"card_id": 999999}, "Card not found"),
        ({"promo_code": "NOSUCHCODE"}, "This promo code does not exist"),
        ({"donation": "0.10"}, "Please enter an amount from $1 to $500"),
    ],
)
def test_order_sessions_are_checked(
    api: TestClient, cart_family: dict, body: dict, message
) -> None:
    if body:
        fill(cart_family, 1)
    answer = start(api, cart_family, **body)
    assert answer["code"] == 0 and answer["message"] == message, answer
    with session_scope() as s:
        assert (
            s.exec(select(Payment).where(Payment.parent_id == cart_family["parent_id"])).all() == []
        )


def test_another_parents_payment_and_order_are_not_found(
    api: TestClient, cart_family: dict, sim: SimServer
) -> None:
    fill(cart_family, 1)
    data = start(api, cart_family)["data"]
    with session_scope() as s:
        other = f.make_parent(s)
        other_token = start_session(s, other, "pytest")
    for path, body in (
        ("/Parent/order/AddOrder", {"payment_id": data["payment_id"], "ssl_txn_id": "X1"}),
        ("/Parent/order/OrderDeclined", {"payment_id": data["payment_id"]}),
    ):
        answer = call(api, path, body, other_token).json()
        assert (answer["code"], answer["message"]) == (0, "Payment not found"), path
    answer = call(
        api, "/Parent/order/OrderConfirmation", {"order_id": data["order_id"]}, other_token
    ).json()
    assert (answer["code"], answer["message"]) == (0, "Order not found")
    with session_scope() as s:
        assert s.get(Payment, data["payment_id"]).state == "CREATED"


@pytest.mark.parametrize(
    "body",
    [
        {"payment_id": "abc"},
        {"payment_id": 0},
        {"payment_id": 1, "ssl_txn_id": "x" * 500},
        {"payment_id": 2**40},
        {},
    ],
)
def test_bad_addorder_bodies_are_refused(api: TestClient, cart_family: dict, body: dict) -> None:
    answer = call(api, "/Parent/order/AddOrder", body, cart_family["token"])
    assert answer.status_code == 200 and answer.json()["code"] == 0


def test_checkout_and_addorder_cost_the_same_statements_for_1_and_12_lines(
    api: TestClient, sim: SimServer
) -> None:
    counts = {}
    for size in (1, 12):
        fam = make_cart_family(sim)  # a family of its own for each size
        fill(fam, size)
        with count_queries(get_engine()) as started_log:
            data = start(api, fam)["data"]
        txn = lightbox_submit(sim, data["ssl_txn_auth_token"])["response"]["ssl_txn_id"]
        with count_queries(get_engine()) as added_log:
            added = call(
                api,
                "/Parent/order/AddOrder",
                {"payment_id": data["payment_id"], "ssl_txn_id": txn},
                fam["token"],
            ).json()
        assert added["code"] == 1, added
        counts[size] = (started_log.count, added_log.count, started_log, added_log)
    one, twelve = counts[1], counts[12]
    assert one[0] == twelve[0], twelve[2].report()
    assert one[1] == twelve[1], twelve[3].report()


# The statements of an order's two payment calls, each with an Idempotency-Key as the apps
# send them, for a cart of five lines: (getConvergeSessionToken, AddOrder) per backend.
# PostgreSQL locks a row with one SELECT ... FOR UPDATE where SQLite writes it then reads it,
# and locks an order before its payment. AddOrder writes its confirmation mail (3 of its reads).
PAYMENT_CALL_BUDGET = {"sqlite": (20, 30), "postgresql": (19, 30)}


def _keyed(api: TestClient, path: str, body: dict, token: str, key: str) -> dict:
    headers = {"api-key": API_KEY, "app": "P", "token": token, "content-type": "text/plain"}
    return api.post(
        f"/api/v1{path}", content=json.dumps(body), headers={**headers, "Idempotency-Key": key}
    ).json()


def test_the_payment_calls_of_an_order_keep_to_their_statement_budget(
    api: TestClient, sim: SimServer
) -> None:
    fam = make_cart_family(sim)
    fill(fam, 5)
    with count_queries(get_engine()) as started_log:
        started = _keyed(
            api, "/Parent/order/getConvergeSessionToken", {"purpose": "order"}, fam["token"], "s1"
        )
    assert started["code"] == 1, started
    data = started["data"]
    txn = lightbox_submit(sim, data["ssl_txn_auth_token"])["response"]["ssl_txn_id"]
    body = {"payment_id": data["payment_id"], "ssl_txn_id": txn}
    with count_queries(get_engine()) as added_log:
        added = _keyed(api, "/Parent/order/AddOrder", body, fam["token"], "a1")
    assert added["code"] == 1 and added["data"]["status"] == "placed", added
    session_budget, add_budget = PAYMENT_CALL_BUDGET[get_engine().dialect.name]
    assert started_log.count <= session_budget, started_log.report()
    assert added_log.count <= add_budget, added_log.report()
    for log in (started_log, added_log):
        # A fresh key: claimed by one INSERT, its answer stored by one UPDATE, never read.
        keyed = [s for s in log.statements if "formsubmission" in s.lower()]
        assert [s.split()[0].upper() for s in keyed] == ["INSERT", "UPDATE"], log.report()
    # The Lightbox session's inputs come from the transaction that reserved the payment, and
    # a brand-new order has no earlier attempts to read.
    assert sum("FROM payment" in s for s in started_log.statements) == 0, started_log.report()
    # AddOrder reads the payment's row once before it locks it to record the sale (the owner,
    # the purpose and what to ask Converge, in one transaction).
    lock = next(
        i
        for i, s in enumerate(added_log.statements)
        if s.startswith("UPDATE payment") or "FOR UPDATE" in s
    )
    rows = [s for s in added_log.statements[:lock] if s.startswith("SELECT payment.id, ")]
    assert len(rows) == 1, added_log.report()
    # The confirmation in the answer is built once, with the outcome; the confirmation mail,
    # written in the same call, reads the order's lines a second time.
    sold = [s for s in added_log.statements if s.startswith("SELECT orderline.id, ")]
    assert len(sold) == 2, added_log.report()
    assert added["data"]["order"]["order_id"] == data["order_id"], added
    # Repeating each call with its key answers the first answer, word for word.
    again = _keyed(api, "/Parent/order/AddOrder", body, fam["token"], "a1")
    assert again == added


def test_orderdeclined_after_a_real_sale_places_the_order_and_says_so(
    api: TestClient, cart_family: dict, sim: SimServer
) -> None:
    """The page's onError after the sale (its answer lost) is only a hint; the
    server asks Converge and the order is placed with that sale, never charged twice."""
    sim.clock.now = clock.now()  # Converge is searched by the payment's own dates
    fill(cart_family, 1)
    first = start(api, cart_family)["data"]
    assert lightbox_submit(sim, first["ssl_txn_auth_token"])["outcome"] == "approval"
    told = call(
        api,
        "/Parent/order/OrderDeclined",
        {"payment_id": first["payment_id"], "ssl_result_message": "error"},
        cart_family["token"],
        "fr",
    ).json()
    assert told["code"] == 1 and told["data"]["status"] == "placed", told
    assert cart_count(cart_family["parent_id"]) == 0
    again = call(
        api, "/Parent/order/getConvergeSessionToken", {"purpose": "order"}, cart_family["token"]
    ).json()
    assert again["code"] == 0  # nothing left to pay
    with session_scope() as s:
        [payment] = s.exec(select(Payment).where(Payment.order_id == first["order_id"])).all()
        assert payment.state == "APPROVED"


def test_a_cart_changed_after_its_summary_is_charged_as_it_is_at_the_payment(
    api: TestClient, cart_family: dict, sim: SimServer
) -> None:
    """The payment session prices the cart again from the database: a quantity changed or a
    line added after OrderSummary is what the amount says, never the summary's total."""
    fill(cart_family, 2)
    summary = call(api, "/Parent/cart/OrderSummary", {}, cart_family["token"]).json()["data"]
    before = summary["charges"]["total_pay_cents"]
    line_id = summary["groups"][0]["lines"][0]["cart_id"]
    changed = call(
        api,
        "/Parent/cart/UpdateCartQuantity",
        {"cart_id": line_id, "quantity": 3},
        cart_family["token"],
    ).json()
    assert changed["code"] == 1, changed
    fill(cart_family, 1)  # and one more line
    with session_scope() as s:  # the cart as it is now, priced by the service itself
        priced = pricing.priced_summary(session=s, parent_id=cart_family["parent_id"])
    now_total = priced.summary.charges.total_pay_cents
    assert now_total > before
    started = start(api, cart_family)
    assert started["code"] == 1, started
    assert started["data"]["amount_cents"] == now_total
    with session_scope() as s:
        assert s.get(Order, started["data"]["order_id"]).total_pay_cents == now_total
