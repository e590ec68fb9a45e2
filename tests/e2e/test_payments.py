"""Paying by card in the real app, in Chromium at 1280 and 390 px: the donate screen opens the
stand-in Lightbox (the simulator mounted at /converge-sim), the payer types a test card into
it, and the server records the payment only once Converge (the simulator) confirms it. Also
a declining card, the payment methods screen, and no card number or PIN in the server log.

The payer is a parent of its own (made in the app's database, with a child so there is a
school to give to), logged in through the Login API; the session cookie ``hm_token`` is set
in the browser."""

from __future__ import annotations

import json
import re
import sqlite3
import uuid
from contextlib import closing

import httpx
import pytest
from playwright.sync_api import Page, expect

from hotmeals.db.engine import make_engine, session_scope
from tests.e2e.helpers import msg, open_page, use_language
from tests.e2e.server import AppServer
from tests.e2e.simulator import merchant_credentials
from tests.factories import DEFAULT_PASSWORD, make_child, make_parent

VISA = "4000000000000002"
DECLINED_CARD = "4000000000000069"
API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}


@pytest.fixture(scope="module")
def payer(app: AppServer) -> dict:
    """A new parent with one child, in the running app's database, and a session token from
    the Login API."""
    email = f"payer-{uuid.uuid4().hex[:8]}@example.com"
    engine = make_engine(f"sqlite:///{app.data_dir}/e2e.db")
    try:
        with session_scope(engine) as session:
            parent = make_parent(session, email=email, first_name="Pat", last_name="Payer")
            make_child(session, parent, is_default=True)
            parent_id = parent.id
    finally:
        engine.dispose()
    answer = httpx.post(
        f"{app.base_url}/api/v1/Parent/auth/Login",
        content=f'{{"email": "{email}", "password": "{DEFAULT_PASSWORD}"}}',
        headers=API_HEADERS,
        timeout=30,
    ).json()
    assert answer["code"] == 1, answer
    return {"id": parent_id, "token": answer["data"]["token"]}


def logged_in(page: Page, app: AppServer, payer: dict) -> Page:
    page.context.add_cookies([{"name": "hm_token", "value": payer["token"], "url": app.base_url}])
    return page


def db_rows(app: AppServer, sql: str, *params) -> list[tuple]:
    with closing(sqlite3.connect(app.data_dir / "e2e.db", timeout=30)) as conn:
        return conn.execute(sql, params).fetchall()


def last_payment(app: AppServer, parent_id: int) -> tuple:
    rows = db_rows(
        app,
        "SELECT id, state, amount_cents, verified_at, converge_txn_id, result_message, "
        "donation_id FROM payment WHERE parent_id = ? ORDER BY id DESC LIMIT 1",
        parent_id,
    )
    assert rows, "no payment recorded"
    return rows[0]


def pay_in_lightbox(page: Page, number: str) -> None:
    dialog = page.locator("#pwc-dialog")
    expect(dialog).to_be_visible(timeout=20_000)
    page.fill("#pwc-card-number", number)
    page.fill("#pwc-exp-date", "1230")
    page.fill("#pwc-cvv", "123")
    page.click("#pwc-pay")


def test_a_card_donation_is_recorded_as_an_approved_verified_payment(
    page: Page, app: AppServer, payer: dict
) -> None:
    open_page(logged_in(page, app, payer), "/edit-profile/donate-payment")
    expect(page.get_by_role("heading", level=1)).to_have_text("Donate to your school")
    page.click("#donate-amount-20")
    expect(page.locator("#donate-school")).not_to_have_value("")
    page.click("#donate-submit")
    pay_in_lightbox(page, VISA)

    status = page.locator("#donate-status")
    expect(status).to_have_attribute("data-status", "success", timeout=30_000)
    expect(status).to_contain_text("Thank you! Your donation of $20.00")
    expect(page.locator("#donation-history")).to_contain_text("$20.00")

    payment_id, state, cents, verified_at, txn_id, _message, donation_id = last_payment(
        app, payer["id"]
    )
    assert (state, cents) == ("APPROVED", 2000)
    assert verified_at is not None and txn_id
    assert db_rows(app, "SELECT status FROM donation WHERE id = ?", donation_id) == [("PAID",)]
    kinds = [
        k
        for (k,) in db_rows(
            app,
            "SELECT kind FROM auditevent WHERE entity = 'payment' AND entity_id = ?",
            str(payment_id),
        )
    ]
    assert kinds.count("payment.approved") == 1
    # The API tells the same story.
    history = httpx.get(
        f"{app.base_url}/api/v1/Parent/payment/DonationHistory",
        headers={**API_HEADERS, "token": payer["token"]},
        timeout=30,
    ).json()
    assert history["data"][0]["amount"] == "20.00" and history["data"][0]["status"] == "PAID"


def test_a_declining_card_shows_the_decline(page: Page, app: AppServer, payer: dict) -> None:
    open_page(logged_in(page, app, payer), "/edit-profile/donate-payment")
    page.click("#donate-amount-other")
    page.fill("#donate-other", "12.50")
    page.click("#donate-submit")
    pay_in_lightbox(page, DECLINED_CARD)

    status = page.locator("#donate-status")
    expect(status).to_have_attribute("data-status", "declined", timeout=30_000)
    expect(status).to_contain_text("Your card was declined. ")
    _id, state, cents, verified_at, _txn, message, donation_id = last_payment(app, payer["id"])
    assert (state, cents, message, verified_at) == ("DECLINED", 1250, "DECLINED", None)
    assert db_rows(app, "SELECT status FROM donation WHERE id = ?", donation_id) == [("FAILED",)]


def test_an_amount_outside_the_limits_is_refused_before_any_payment(
    page: Page, app: AppServer, payer: dict
) -> None:
    def payments_made() -> int:
        return db_rows(app, "SELECT COUNT(*) FROM payment WHERE parent_id = ?", payer["id"])[0][0]

    open_page(logged_in(page, app, payer), "/edit-profile/donate-payment")
    before = payments_made()
    page.click("#donate-amount-other")
    page.fill("#donate-other", "900")
    page.click("#donate-submit")
    expect(page.get_by_text("Please enter an amount from $1 to $500")).to_be_visible()
    expect(page.locator("#pwc-dialog")).to_have_count(0)
    assert payments_made() == before


def test_a_card_is_saved_listed_and_deleted(
    page: Page, app: AppServer, payer: dict, lang: str
) -> None:
    use_language(page, lang)
    open_page(logged_in(page, app, payer), "/edit-profile/payment-methods")
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("cards.title", lang))
    # The way back goes to the account, as it says (not to donations).
    back = page.get_by_role("link", name=msg("cards.back_to_account", lang))
    expect(back).to_have_attribute("href", re.compile(r"/parent/edit-profile/?$"))
    page.click("#add-card")
    pay_in_lightbox(page, VISA)  # a ccgettoken session: the button saves, nothing is charged
    expect(page.locator("#cards-status")).to_have_attribute(
        "data-status", "success", timeout=30_000
    )
    card = page.locator(".hm-saved-card").first
    expect(card).to_contain_text(f"VISA {msg('cards.ending', lang)} 0002")
    expect(card).to_contain_text(f"{msg('cards.expires', lang)} 12/30")
    stored = db_rows(
        app,
        "SELECT brand, masked, converge_token FROM storedcard WHERE parent_id = ? "
        "AND deleted_at IS NULL",
        payer["id"],
    )
    assert stored and stored[0][:2] == ("VISA", "40**********0002")

    cards_before = page.locator(".hm-saved-card").count()
    card.locator(".hm-card-delete").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text(msg("cards.confirm_title", lang))
    dialog.locator("#confirm-delete-card").click()
    expect(page.locator("#cards-status")).to_contain_text(msg("pay.card_deleted", lang))
    expect(page.locator(".hm-saved-card")).to_have_count(cards_before - 1)


def _api(app: AppServer, payer: dict, path: str, body: dict) -> dict:
    response = httpx.post(
        f"{app.base_url}/api/v1{path}",
        content=json.dumps(body),
        headers={**API_HEADERS, "token": payer["token"]},
        timeout=60,
    )
    return response.json()


def test_the_server_log_holds_no_card_number_or_pin(app: AppServer, payer: dict) -> None:
    """Makes its own payments (one approved, one declined, both with the card typed into the
    stand-in Lightbox), so the log it reads holds a whole payment flow even when it runs
    alone; then no card number or PIN may be in it."""
    payments = {}
    for card in (VISA, DECLINED_CARD):
        start = _api(
            app,
            payer,
            "/Parent/order/getConvergeSessionToken",
            {"purpose": "donation", "amount": "5.00"},
        )
        assert start["code"] == 1, start
        # What the Lightbox's Pay button posts: the card goes to Converge (the simulator).
        answer = httpx.post(
            f"{app.base_url}/converge-sim/hosted-payments/process",
            data={
                "ssl_txn_auth_token": start["data"]["ssl_txn_auth_token"],
                "ssl_card_number": card,
                "ssl_exp_date": "1230",
                "ssl_cvv2cvc2": "123",
            },
            timeout=60,
        ).json()["response"]
        payment_id = start["data"]["payment_id"]
        if card == VISA:
            done = _api(
                app,
                payer,
                "/Parent/payment/ConfirmPayment",
                {"payment_id": payment_id, "ssl_txn_id": answer["ssl_txn_id"]},
            )
            assert done["code"] == 1 and done["data"]["state"] == "APPROVED", done
        else:
            done = _api(
                app,
                payer,
                "/Parent/payment/PaymentDeclined",
                {"payment_id": payment_id, "ssl_result_message": answer["ssl_result_message"]},
            )
            assert done["data"]["state"] == "DECLINED", done
        payments[card] = payment_id

    log = app.log_path.read_text(encoding="utf-8", errors="replace")
    # The flow is in the log: the Converge calls and both outcomes of these payments.
    assert "converge txnquery" in log
    assert f"payment.approved payment:{payments[VISA]}" in log
    assert f"payment.declined payment:{payments[DECLINED_CARD]}" in log
    pin = merchant_credentials(app)["ssl_pin"]  # generated with the simulator's store
    for secret in (VISA, DECLINED_CARD, pin):
        assert secret not in log
    assert not re.search(r"ssl_pin=\w", log)
