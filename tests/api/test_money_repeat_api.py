"""Safe repeats through HTTP on SQLite and PostgreSQL, with the simulator over real HTTP: every
call that charges is safe to repeat with its ``Idempotency-Key`` (PayWithSavedCard for a
donation and for an order, getConvergeSessionToken), and the donation has one unit (cents in
``donation_cents``, as in the summary calls; a bare number in a dollars field is refused)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import get_engine, session_scope
from hotmeals.db.models import Donation, Payment
from hotmeals.services import submissions
from tests.api.helpers import API_KEY
from tests.orders_support import fill, make_cart_family
from tests.payments_support import DECLINED_CARD, SimServer, lightbox_submit, sim_txns


def call(api: TestClient, path: str, body: dict, token: str, key: str | None = None) -> dict:
    headers = {"api-key": API_KEY, "app": "P", "token": token, "content-type": "text/plain"}
    if key:
        headers["Idempotency-Key"] = key
    return api.post(f"/api/v1{path}", content=json.dumps(body), headers=headers).json()


def saved_card(api: TestClient, sim: SimServer, token: str) -> int:
    session = call(api, "/Parent/payment/AddCardSession", {}, token)
    answer = lightbox_submit(sim, session["data"]["ssl_txn_auth_token"])
    saved = call(
        api, "/Parent/payment/SaveCard", {"ssl_token": answer["response"]["ssl_token"]}, token
    )
    return saved["data"]["id"]


def test_a_saved_card_donation_repeated_with_its_key_is_charged_once(
    api: TestClient, cart_family: dict, sim: SimServer
) -> None:
    card = saved_card(api, sim, cart_family["token"])
    body = {"purpose": "donation", "amount": "7.50", "card_id": card}
    first = call(api, "/Parent/payment/PayWithSavedCard", body, cart_family["token"], key="don-1")
    again = call(api, "/Parent/payment/PayWithSavedCard", body, cart_family["token"], key="don-1")
    assert first["code"] == 1 and first["data"]["state"] == "APPROVED", first
    assert again["code"] == 1 and again["data"]["id"] == first["data"]["id"], again
    invoice = first["data"]["invoice_number"]
    assert len(sim_txns(sim, invoice, "SALE")) == 1
    with session_scope() as s:
        gifts = s.exec(select(Donation).where(Donation.parent_id == cart_family["parent_id"])).all()
    assert [(d.amount_cents, d.status) for d in gifts] == [(750, "PAID")]
    # Another key is another donation; another parent's card is not found, nothing reserved.
    other = call(api, "/Parent/payment/PayWithSavedCard", body, cart_family["token"], key="don-2")
    assert other["code"] == 1 and other["data"]["id"] != first["data"]["id"]
    stranger = make_cart_family(sim)
    refused = call(api, "/Parent/payment/PayWithSavedCard", body, stranger["token"], key="don-1")
    assert refused["code"] == 0 and refused["message"] == "Card not found"
    with session_scope() as s:
        assert s.exec(select(Payment).where(Payment.parent_id == stranger["parent_id"])).all() == []


def test_a_repeated_session_token_call_answers_the_same_lightbox_session(
    api: TestClient, cart_family: dict, sim: SimServer
) -> None:
    body = {"purpose": "donation", "amount": "10.00"}
    path = "/Parent/order/getConvergeSessionToken"
    first = call(api, path, body, cart_family["token"], key="tok-1")
    again = call(api, path, body, cart_family["token"], key="tok-1")
    assert first["code"] == 1 and again == first
    fill(cart_family, 1)
    order = call(api, path, {"purpose": "order"}, cart_family["token"], key="tok-2")
    order_again = call(api, path, {"purpose": "order"}, cart_family["token"], key="tok-2")
    assert order["code"] == 1 and order_again == order
    with session_scope() as s:
        rows = s.exec(select(Payment).where(Payment.parent_id == cart_family["parent_id"])).all()
    assert len(rows) == 2  # one donation attempt, one order attempt
    # The same key for another call is refused, not taken as this one.
    reused = call(
        api,
        "/Parent/payment/PayWithSavedCard",
        {**body, "card_id": 1},
        cart_family["token"],
        "tok-1",
    )
    assert reused["code"] == 0 and "Idempotency-Key" in reused["message"]


def test_a_saved_card_order_repeated_with_its_key_answers_placed_and_charges_once(
    api: TestClient, cart_family: dict, sim: SimServer
) -> None:
    card = saved_card(api, sim, cart_family["token"])
    fill(cart_family, 2)
    body = {"purpose": "order", "card_id": card}
    first = call(api, "/Parent/payment/PayWithSavedCard", body, cart_family["token"], key="ord-1")
    again = call(api, "/Parent/payment/PayWithSavedCard", body, cart_family["token"], key="ord-1")
    assert first["code"] == 1 and first["data"]["state"] == "APPROVED", first
    assert again == first  # not "Your cart has no meal that can be paid"
    assert len(sim_txns(sim, first["data"]["invoice_number"], "SALE")) == 1


@pytest.mark.parametrize(
    "body",
    [
        {"purpose": "order", "donation": 500},
        {"purpose": "order", "donation": 5.0},
        {"purpose": "order", "donation": "5.00", "donation_cents": 500},
        {"purpose": "donation", "amount": 10},
    ],
)
def test_a_bare_number_in_a_dollars_field_is_refused_as_ambiguous(
    api: TestClient, cart_family: dict, body: dict
) -> None:
    fill(cart_family, 1)
    for path in ("/Parent/order/getConvergeSessionToken", "/Parent/payment/PayWithSavedCard"):
        answer = call(api, path, {**body, "card_id": 1}, cart_family["token"])
        assert answer["code"] == 0 and "ambiguous" in answer["message"], answer
        assert "donation_cents" in answer["message"]
    with session_scope() as s:
        assert (
            s.exec(select(Payment).where(Payment.parent_id == cart_family["parent_id"])).all() == []
        )


def test_the_order_donation_is_in_cents_as_in_the_summary(
    api: TestClient, cart_family: dict, sim: SimServer
) -> None:
    fill(cart_family, 1)
    summary = call(
        api, "/Parent/cart/CheckOrderSummary", {"donation_cents": 500}, cart_family["token"]
    )
    assert summary["code"] == 1, summary
    total = summary["data"]["charges"]["total_pay_cents"]
    assert summary["data"]["charges"]["school_donation_cents"] == 500
    started = call(
        api,
        "/Parent/order/getConvergeSessionToken",
        {"purpose": "order", "donation_cents": 500},
        cart_family["token"],
    )
    assert started["code"] == 1 and started["data"]["amount_cents"] == total, started
    # The dollars text of older clients is the same donation.
    again = call(
        api,
        "/Parent/order/getConvergeSessionToken",
        {"purpose": "order", "donation": "5.00"},
        cart_family["token"],
    )
    assert again["data"]["amount_cents"] == total


def test_add_order_repeated_with_its_key_gets_the_first_answer(
    api: TestClient, cart_family: dict, sim: SimServer
) -> None:
    fill(cart_family, 1)
    started = call(
        api, "/Parent/order/getConvergeSessionToken", {"purpose": "order"}, cart_family["token"]
    )
    answer = lightbox_submit(sim, started["data"]["ssl_txn_auth_token"])
    body = {
        "payment_id": started["data"]["payment_id"],
        "ssl_txn_id": answer["response"]["ssl_txn_id"],
    }
    first = call(api, "/Parent/order/AddOrder", body, cart_family["token"], key="add-1")
    again = call(api, "/Parent/order/AddOrder", body, cart_family["token"], key="add-1")
    assert first["code"] == 1 and first["data"]["status"] == "placed", first
    assert again == first
    assert len(sim_txns(sim, started["data"]["invoice_number"], "SALE")) == 1


@pytest.mark.parametrize("purpose_call", ["session", "order"])
def test_a_call_that_died_in_flight_is_run_again_by_its_retry(
    api: TestClient, cart_family: dict, sim: SimServer, monkeypatch, purpose_call: str
) -> None:
    """The first call's worker died after it claimed its key (the claim stays "in flight"):
    once the claim is older than any call takes (``ANSWER_WAIT``, 45 s; 0 here), the retry
    with the same key runs getConvergeSessionToken or AddOrder again, and places the order
    once. (A stored card's charge is not run again: tests/unit/test_submissions_retake.py.)"""
    fill(cart_family, 1)
    monkeypatch.setattr(submissions, "ANSWER_WAIT", timedelta(0))

    def died_in_flight(key: str, action: str) -> None:
        with session_scope(get_engine()) as s:
            assert (
                submissions.claim(s, parent_id=cart_family["parent_id"], key=key, action=action)
                is None
            )

    path = "/Parent/order/getConvergeSessionToken"
    if purpose_call == "session":
        died_in_flight("session-dead", "pay_session")
    started = call(api, path, {"purpose": "order"}, cart_family["token"], key="session-dead")
    assert started["code"] == 1, started
    answer = lightbox_submit(sim, started["data"]["ssl_txn_auth_token"])
    body = {
        "payment_id": started["data"]["payment_id"],
        "ssl_txn_id": answer["response"]["ssl_txn_id"],
    }
    if purpose_call == "order":
        died_in_flight("add-dead", "add_order")
    placed = call(api, "/Parent/order/AddOrder", body, cart_family["token"], key="add-dead")
    assert placed["code"] == 1 and placed["data"]["status"] == "placed", placed
    assert call(api, "/Parent/order/AddOrder", body, cart_family["token"], key="add-dead") == placed
    assert len(sim_txns(sim, started["data"]["invoice_number"], "SALE")) == 1


def test_paymentdeclined_after_a_real_sale_is_not_believed(
    api: TestClient, cart_family: dict, sim: SimServer
) -> None:
    """PaymentDeclined (a donation, or any attempt paid in the Lightbox) is only a hint: the
    sale was made and its answer lost, the client reports onError. Converge is asked before
    the report is kept: the donation is paid with that sale (code 1, APPROVED), never
    'your card was declined' (before: DECLINED until a round, and a parent told so pays again).
    A real decline is still said as one."""

    sim.clock.now = clock.now()  # Converge is searched by the payment's own dates
    path = "/Parent/order/getConvergeSessionToken"
    start = call(api, path, {"purpose": "donation", "amount": "12.00"}, cart_family["token"])
    assert lightbox_submit(sim, start["data"]["ssl_txn_auth_token"])["outcome"] == "approval"
    told = call(
        api,
        "/Parent/payment/PaymentDeclined",
        {"payment_id": start["data"]["payment_id"], "ssl_result_message": "error"},
        cart_family["token"],
    )
    assert told["code"] == 1 and told["data"]["state"] == "APPROVED", told
    with session_scope() as s:
        gifts = s.exec(select(Donation).where(Donation.parent_id == cart_family["parent_id"])).all()
    assert [(d.amount_cents, d.status) for d in gifts] == [(1200, "PAID")]
    assert len(sim_txns(sim, start["data"]["invoice_number"], "SALE")) == 1
    # A decline Converge confirms (no sale) is said as one.
    other = call(api, path, {"purpose": "donation", "amount": "8.00"}, cart_family["token"])
    answer = lightbox_submit(sim, other["data"]["ssl_txn_auth_token"], number=DECLINED_CARD)
    no = call(
        api,
        "/Parent/payment/PaymentDeclined",
        {
            "payment_id": other["data"]["payment_id"],
            "ssl_result_message": answer["response"]["ssl_result_message"],
        },
        cart_family["token"],
    )
    assert no["code"] == 0 and no["data"]["state"] == "DECLINED", no
    assert no["message"].startswith("Your card was declined. ")
