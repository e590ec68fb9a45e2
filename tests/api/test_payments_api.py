"""The payment calls of /api/v1 (donations, saved cards, the Lightbox's session) through HTTP
(TestClient on ``create_api()``) on migrated SQLite and PostgreSQL, with the simulator over real
HTTP standing in for Converge."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from hotmeals.db.engine import session_scope
from hotmeals.db.models import Payment
from hotmeals.services.parents import start_session
from tests.api.helpers import API_KEY
from tests.factories import make_child, make_parent
from tests.payments_support import DECLINED_CARD, MASTERCARD, SimServer, lightbox_submit


@pytest.fixture
def token(api: TestClient, sim: SimServer) -> str:
    with session_scope() as session:
        parent = make_parent(session)
        make_child(session, parent, is_default=True)
        return start_session(session, parent, "pytest")


def call(api: TestClient, path: str, body=None, token: str | None = None, lang: str = "en"):
    headers = {
        "api-key": API_KEY,
        "app": "P",
        "accept-language": lang,
        "content-type": "text/plain",
    }
    if token:
        headers["token"] = token
    if body is None and path.startswith("GET "):
        return api.get(f"/api/v1{path[4:]}", headers=headers)
    return api.post(f"/api/v1{path}", content=json.dumps(body or {}), headers=headers)


def test_every_payment_call_needs_a_parent_token(api: TestClient) -> None:
    for path in (
        "/Parent/order/getConvergeSessionToken",
        "/Parent/payment/ConfirmPayment",
        "/Parent/payment/SaveCard",
        "GET /Parent/payment/GetCards",
        "GET /Parent/payment/DonationHistory",
    ):
        response = call(api, path, token=None)
        assert response.status_code == 401, path
        assert response.json()["code"] == 0


def test_a_donation_paid_in_the_lightbox_is_confirmed_by_the_server(
    api: TestClient, token: str, sim: SimServer
) -> None:
    start = call(
        api,
        "/Parent/order/getConvergeSessionToken",
        {"purpose": "donation", "amount": "10.00", "save_card": True},
        token,
    ).json()
    assert start["code"] == 1, start
    data = start["data"]
    assert data["amount"] == "10.00" and data["purpose"] == "DONATION"
    assert data["lightbox_url"] == f"{sim.url}/hosted-payments/PayWithConverge.js"
    assert sim.settings.pin not in json.dumps(start)

    answer = lightbox_submit(sim, data["ssl_txn_auth_token"], number=MASTERCARD)
    response = answer["response"]
    confirmed = call(
        api,
        "/Parent/payment/ConfirmPayment",
        {
            "payment_id": data["payment_id"],
            "ssl_txn_id": response["ssl_txn_id"],
            "ssl_token": response["ssl_token"],
        },
        token,
        lang="fr",
    ).json()
    assert confirmed["code"] == 1, confirmed
    assert confirmed["message"] == "Merci! Votre paiement de 10,00\u00a0$ a été approuvé."
    assert confirmed["data"]["state"] == "APPROVED" and confirmed["data"]["verified"]
    assert confirmed["data"]["card"]["masked"] == "51**********2124"

    cards = call(api, "GET /Parent/payment/GetCards", token=token).json()
    assert [c["last4"] for c in cards["data"]] == ["2124"]
    history = call(api, "GET /Parent/payment/DonationHistory", token=token).json()
    assert [(d["amount"], d["status"]) for d in history["data"]] == [("10.00", "PAID")]

    deleted = call(api, "/Parent/payment/DeleteCard", {"card_id": cards["data"][0]["id"]}, token)
    assert deleted.json()["code"] == 1
    assert call(api, "GET /Parent/payment/GetCards", token=token).json()["data"] == []


def test_a_forged_approval_is_not_recorded(api: TestClient, token: str, sim: SimServer) -> None:
    start = call(
        api, "/Parent/order/getConvergeSessionToken", {"purpose": "donation", "amount": "5"}, token
    ).json()
    refused = call(
        api,
        "/Parent/payment/ConfirmPayment",
        {"payment_id": start["data"]["payment_id"], "ssl_txn_id": "010125AD3-FAKE"},
        token,
    ).json()
    assert refused["code"] == 0 and "could not verify" in refused["message"]
    with session_scope() as session:
        assert session.get(Payment, start["data"]["payment_id"]).state == "CREATED"


def test_a_declined_card_is_recorded_with_its_message(
    api: TestClient, token: str, sim: SimServer
) -> None:
    start = call(
        api, "/Parent/order/getConvergeSessionToken", {"purpose": "donation", "amount": "20"}, token
    ).json()
    answer = lightbox_submit(sim, start["data"]["ssl_txn_auth_token"], number=DECLINED_CARD)
    declined = call(
        api,
        "/Parent/payment/PaymentDeclined",
        {
            "payment_id": start["data"]["payment_id"],
            "ssl_result_message": answer["response"]["ssl_result_message"],
        },
        token,
    ).json()
    assert declined["code"] == 0
    assert declined["message"].startswith("Your card was declined. ")
    assert declined["data"]["state"] == "DECLINED"


def test_cards_can_be_added_without_paying(api: TestClient, token: str, sim: SimServer) -> None:
    session = call(api, "/Parent/payment/AddCardSession", {}, token).json()
    assert session["code"] == 1 and session["data"]["transaction_type"] == "ccgettoken"
    answer = lightbox_submit(sim, session["data"]["ssl_txn_auth_token"])
    saved = call(
        api, "/Parent/payment/SaveCard", {"ssl_token": answer["response"]["ssl_token"]}, token
    )
    card = saved.json()["data"]
    assert (card["brand"], card["last4"], card["expiry"]) == ("VISA", "0002", "12/30")
    paid = call(
        api,
        "/Parent/payment/PayWithSavedCard",
        {"purpose": "donation", "amount": "7.50", "card_id": card["id"]},
        token,
    ).json()
    assert paid["code"] == 1 and paid["data"]["state"] == "APPROVED"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"purpose": "donation", "amount": "0.50"}, "Please enter an amount from $1 to $500"),
        ({"purpose": "donation", "amount": "600"}, "Please enter an amount from $1 to $500"),
        ({"purpose": "donation", "amount": "ten"}, "Please enter a valid amount"),
        ({"amount": "10"}, "Please choose what you are paying for"),
        ({"purpose": "gift", "amount": "10"}, "Please check the value of purpose"),
        ({"purpose": "order", "amount": "10"}, "Your cart has no meal that can be paid"),
        ({"purpose": "donation", "amount": "10", "school_id": 999999}, None),
    ],
)
def test_session_requests_are_checked(api: TestClient, token: str, body: dict, message) -> None:
    answer = call(api, "/Parent/order/getConvergeSessionToken", body, token)
    assert answer.status_code == 200
    assert answer.json()["code"] == 0
    if message:
        assert answer.json()["message"] == message


def test_another_parents_payment_is_not_found(api: TestClient, token: str, sim: SimServer) -> None:
    start = call(
        api, "/Parent/order/getConvergeSessionToken", {"purpose": "donation", "amount": "5"}, token
    ).json()
    with session_scope() as session:
        other = make_parent(session)
        make_child(session, other)
        other_token = start_session(session, other, "pytest")
    answer = call(
        api,
        "/Parent/payment/ConfirmPayment",
        {"payment_id": start["data"]["payment_id"], "ssl_txn_id": "010125AD3-X"},
        other_token,
    ).json()
    assert answer["code"] == 0 and answer["message"] == "Payment not found"
