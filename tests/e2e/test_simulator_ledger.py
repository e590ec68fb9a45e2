"""The local Converge simulator keeps one ledger whatever worker answers and across restarts,
like the real Converge whichever of its servers answers.

- Two backend workers (``GRANIAN_WORKERS=2``, Redis, PostgreSQL: the scale-out profile): 50
  rounds of sale -> txnquery, hosted session -> Lightbox pay -> the server's verification,
  ccgettoken -> charge by token (by the merchant, and by the app for a saved card), and a
  return against a sale, every request on a connection of its own, with no miss.
- One worker, restarted: a card saved before the restart is charged after it, and a donation
  paid before it is refunded after it.

HTTP only (no browser): the Lightbox's Pay is the POST the stand-in Lightbox makes."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
import pytest

from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.settings import ConvergeSettings
from hotmeals.db.engine import make_engine, session_scope
from hotmeals.services.payments import refunds
from hotmeals.services.runtime import Runtime
from tests.databases import PG_ADMIN_DSN
from tests.e2e.server import AppServer, start_app
from tests.e2e.simulator import merchant_credentials, xml_call
from tests.factories import DEFAULT_PASSWORD, make_child, make_parent

# Starts servers of its own: make test runs it after the browser tests, one module at a time.
pytestmark = pytest.mark.servers


def _run_async(make_coroutine):
    """Run a coroutine to its end from a sync test. In its own thread: once tests/e2e has opened
    Playwright's session browser, this thread already runs an event loop, and asyncio.run
    refuses to start a second one in it."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make_coroutine())).result()


VISA = "4000000000000002"
MASTERCARD = "5121212121212124"
CARD = {"ssl_exp_date": "1230", "ssl_cvv2cvc2": "123"}
API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}
ROUNDS = 50
REDIS = ("127.0.0.1", 6379)
REDIS_DB = 7


def _need(service: str, answered: bool) -> None:
    if not answered:
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"{service} does not answer")
        pytest.skip(f"{service} does not answer")


def _redis_answers() -> bool:
    try:
        with socket.create_connection(REDIS, timeout=1) as s:
            s.sendall(f"SELECT {REDIS_DB}\r\nFLUSHDB\r\n".encode())
            return s.recv(64).startswith(b"+OK")
    except OSError:
        return False


def _pg_answers() -> bool:
    try:
        with psycopg.connect(PG_ADMIN_DSN, connect_timeout=3, autocommit=True) as conn:
            conn.execute("SELECT 1")
        return True
    except psycopg.Error:
        return False


def api(app: AppServer, token: str, path: str, body: dict | None = None) -> dict:
    """One /api/v1 call on a connection of its own (httpx.post opens and closes a client)."""
    headers = {**API_HEADERS, "token": token}
    url = f"{app.base_url}/api/v1{path}"
    if body is None:
        response = httpx.get(url, headers=headers, timeout=60)
    else:
        response = httpx.post(url, content=json.dumps(body), headers=headers, timeout=60)
    answer: dict = response.json()
    return answer


def new_payer(app: AppServer) -> str:
    """A parent with a child in the running app's database; its session token."""
    email = f"ledger-{uuid.uuid4().hex[:8]}@example.com"
    engine = make_engine(app.env["DATABASE_URL"])
    try:
        with session_scope(engine) as session:
            parent = make_parent(session, email=email, first_name="Lee", last_name="Ledger")
            make_child(session, parent, is_default=True)
    finally:
        engine.dispose()
    answer = httpx.post(
        f"{app.base_url}/api/v1/Parent/auth/Login",
        content=json.dumps({"email": email, "password": DEFAULT_PASSWORD}),
        headers=API_HEADERS,
        timeout=60,
    ).json()
    assert answer["code"] == 1, answer
    token: str = answer["data"]["token"]
    return token


def lightbox_pay(app: AppServer, session_token: str, number: str = VISA) -> dict:
    """What the stand-in Lightbox does: read the session, then post the card to Converge."""
    info = httpx.get(
        f"{app.base_url}/converge-sim/hosted-payments/session",
        params={"ssl_txn_auth_token": session_token},
        timeout=60,
    ).json()
    assert info["ok"], info
    answer: dict = httpx.post(
        f"{app.base_url}/converge-sim/hosted-payments/process",
        data={"ssl_txn_auth_token": session_token, "ssl_card_number": number, **CARD},
        timeout=60,
    ).json()
    return answer


def donate_in_lightbox(app: AppServer, token: str, amount: str) -> dict:
    start = api(
        app,
        token,
        "/Parent/order/getConvergeSessionToken",
        {"purpose": "donation", "amount": amount},
    )
    assert start["code"] == 1, start
    paid = lightbox_pay(app, start["data"]["ssl_txn_auth_token"])
    assert paid["outcome"] == "approval", paid
    done = api(
        app,
        token,
        "/Parent/payment/ConfirmPayment",
        {
            "payment_id": start["data"]["payment_id"],
            "ssl_txn_id": paid["response"]["ssl_txn_id"],
        },
    )
    assert done["code"] == 1 and done["data"]["state"] == "APPROVED", done
    return done["data"]


def save_card_in_lightbox(app: AppServer, token: str) -> int:
    session = api(app, token, "/Parent/payment/AddCardSession", {})
    assert session["code"] == 1, session
    stored = lightbox_pay(app, session["data"]["ssl_txn_auth_token"], MASTERCARD)
    assert stored["outcome"] == "approval" and stored["response"]["ssl_token"], stored
    saved = api(
        app, token, "/Parent/payment/SaveCard", {"ssl_token": stored["response"]["ssl_token"]}
    )
    assert saved["code"] == 1, saved
    card_id: int = saved["data"]["id"]
    return card_id


def pay_with_saved_card(app: AppServer, token: str, card_id: int, amount: str) -> dict:
    paid = api(
        app,
        token,
        "/Parent/payment/PayWithSavedCard",
        {"purpose": "donation", "amount": amount, "card_id": card_id},
    )
    assert paid["code"] == 1 and paid["data"]["state"] == "APPROVED", paid
    return paid["data"]


# -- two workers, one ledger -------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory, smtp) -> Iterator[AppServer]:
    _need("Redis on 127.0.0.1:6379", _redis_answers())
    _need(f"PostgreSQL at {PG_ADMIN_DSN!r}", _pg_answers())
    name = f"hm_e2e_ledger_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    env = {
        **smtp.env,
        "DATABASE_URL": f"postgresql://postgres@127.0.0.1:5432/{name}",
        "REDIS_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
        "GRANIAN_WORKERS": "2",
        "GRANIAN_LOG_LEVEL": "info",  # its "Spawning worker-N" lines show both workers started
    }
    try:
        server = start_app(tmp_path_factory.mktemp("e2e-ledger"), env)
        try:
            yield server
        finally:
            server.stop()
    finally:
        with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.redis
@pytest.mark.postgres
def test_two_workers_share_one_simulator_ledger(two_workers: AppServer) -> None:
    app = two_workers
    log = app.log_path.read_text(encoding="utf-8", errors="replace")
    assert "Spawning worker-2" in log, "the server should run two backend workers"
    merchant = merchant_credentials(app)
    payer = new_payer(app)
    card_id = save_card_in_lightbox(app, payer)

    for i in range(ROUNDS):
        cents = 200 + i
        amount = f"{cents // 100}.{cents % 100:02d}"
        # A sale, then txnquery for it (the check the server makes of every approval).
        sold = xml_call(
            app,
            merchant,
            ssl_transaction_type="ccsale",
            ssl_amount=amount,
            ssl_card_number=VISA,
            ssl_invoice_number=f"LEDGER-{i}",
            ssl_first_name="Round",
            **CARD,
        )
        assert sold.get("ssl_result") == "0", (i, sold)
        found = xml_call(
            app, merchant, ssl_transaction_type="txnquery", ssl_txn_id=sold["ssl_txn_id"]
        )
        assert [(t["ssl_txn_id"], t["ssl_amount"]) for t in found] == [
            (sold["ssl_txn_id"], amount)
        ], (i, found)

        # A hosted session, paid in the Lightbox, verified by the server (txnquery).
        donate_in_lightbox(app, payer, "5.00")

        # A card stored with ccgettoken, charged by its token; and the app's saved card.
        stored = xml_call(
            app, merchant, ssl_transaction_type="ccgettoken", ssl_card_number=VISA, **CARD
        )
        assert stored.get("ssl_result") == "0" and stored.get("ssl_token"), (i, stored)
        charged = xml_call(
            app,
            merchant,
            ssl_transaction_type="ccsale",
            ssl_amount="1.00",
            ssl_token=stored["ssl_token"],
        )
        assert charged.get("ssl_result") == "0", (i, charged)
        pay_with_saved_card(app, payer, card_id, "2.00")

        # A return against the first sale, then found by its id.
        back = xml_call(
            app,
            merchant,
            ssl_transaction_type="ccreturn",
            ssl_txn_id=sold["ssl_txn_id"],
            ssl_amount="0.50",
        )
        assert back.get("ssl_result") == "0", (i, back)
        returned = xml_call(
            app, merchant, ssl_transaction_type="txnquery", ssl_txn_id=back["ssl_txn_id"]
        )
        assert [t["ssl_transaction_type"] for t in returned] == ["RETURN"], (i, returned)

    history = api(app, payer, "/Parent/payment/DonationHistory")
    assert history["code"] == 1
    assert len([d for d in history["data"] if d["status"] == "PAID"]) == 2 * ROUNDS


# -- one worker, restarted ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def restart_folder(tmp_path_factory) -> Path:
    return Path(tmp_path_factory.mktemp("e2e-restart"))


def test_a_restart_keeps_saved_cards_and_refundable_sales(restart_folder: Path, smtp) -> None:
    env = smtp.env  # the session's frontend build (tests/e2e/server.py), as every server
    before = start_app(restart_folder, env)
    try:
        payer = new_payer(before)
        card_id = save_card_in_lightbox(before, payer)
        donation = donate_in_lightbox(before, payer, "7.00")
        pin_before = merchant_credentials(before)["ssl_pin"]
    finally:
        before.stop()

    after = start_app(restart_folder, env)  # same data folder: same databases
    try:
        # The card stored before the restart is charged after it.
        pay_with_saved_card(after, payer, card_id, "3.00")
        # The donation paid before the restart is refunded after it, through the restarted
        # app's simulator (the service an operator's refund runs).
        merchant = merchant_credentials(after)
        assert merchant["ssl_pin"] == pin_before
        settings = ConvergeSettings(
            base_url=f"{after.base_url}/converge-sim",
            merchant_id=merchant["ssl_merchant_id"],
            user_id=merchant["ssl_user_id"],
            pin=merchant["ssl_pin"],
            simulated=True,
        )
        engine = make_engine(after.env["DATABASE_URL"])
        try:

            async def refund_it() -> refunds.RefundResult:
                async with ConvergeClient(settings) as client:
                    return await refunds.refund(
                        payment_id=donation["id"],
                        amount_cents=700,
                        reason="restart test",
                        actor="operator",
                        runtime=Runtime(engine=engine, gateway=client),
                    )

            result = _run_async(refund_it)
        finally:
            engine.dispose()
        assert result.ok, result
        history = api(after, payer, "/Parent/payment/DonationHistory")
        statuses = sorted(d["status"] for d in history["data"])
        assert "REFUNDED" in statuses, history
    finally:
        after.stop()
