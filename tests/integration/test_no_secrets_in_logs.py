"""The PIN, card numbers and CVVs never reach a log line, an exception's text or an answer.

The payment flows run with every logger at DEBUG writing to a file (ours, httpx, httpcore, the
simulator's uvicorn, SQLAlchemy's SQL echo), then ``grep`` reads it: no PIN, no card number, no
CVV; the audit trail in the database carries no tokens either. The gateway's client alone: its
log lines at DEBUG, the transport's exceptions and its typed outcomes."""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals.converge.configured import simulator_pin, simulator_settings
from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.gateway import SessionTokenError, TokenResult, UnknownOutcome
from hotmeals.db.engine import session_scope
from hotmeals.db.models import AuditEvent
from hotmeals.services import cards, donations, payments
from hotmeals.services.runtime import Runtime
from tests.payments_support import (
    DECLINED_CARD,
    EXP,
    MASTERCARD,
    PATIENT,
    SHORT,
    VISA,
    SimServer,
    lightbox_submit,
    reserve_donation_payment,
)

CVV = "7391"  # distinctive, so a hit means a leak and not a coincidence
TXN_ID = re.compile(r"\d{6}AD3-[0-9A-F-]{36}")


@pytest.fixture
def log_file(tmp_path: Path):
    path = tmp_path / "payments.log"
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    saved = (
        root.level,
        {name: logging.getLogger(name).level for name in ("sqlalchemy.engine", "uvicorn")},
    )
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    logging.getLogger("sqlalchemy.engine").setLevel(logging.INFO)  # SQL and its parameters
    logging.getLogger("uvicorn").setLevel(logging.DEBUG)
    try:
        yield path
    finally:
        root.removeHandler(handler)
        handler.close()
        root.setLevel(saved[0])
        for name, level in saved[1].items():
            logging.getLogger(name).setLevel(level)


def grep(pattern: str, path: Path) -> list[str]:
    """Lines of ``path`` holding ``pattern`` (fixed string), found by grep itself."""
    grep_bin = shutil.which("grep")
    if grep_bin is None:  # pragma: no cover - every CI image has grep
        return [line for line in path.read_text().splitlines() if pattern in line]
    run = subprocess.run([grep_bin, "-F", "-n", pattern, str(path)], capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr
    return run.stdout.splitlines()


async def test_no_pin_card_number_or_cvv_in_any_log(
    pay_engine: Engine,
    gateway: ConvergeClient,
    live_sim: SimServer,
    family: dict,
    log_file: Path,
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    parent_id = family["parent_id"]
    tokens: list[str] = []

    # Add a card through the hosted form, pay with it, refund part of it, delete it.
    add = await cards.start_add_card(parent_id=parent_id, runtime=runtime)
    answer = lightbox_submit(live_sim, add.token, number=MASTERCARD, cvv=CVV)
    tokens.append(answer["response"]["ssl_token"])
    card = await cards.save_card(parent_id=parent_id, token=tokens[-1], runtime=runtime)
    with session_scope(pay_engine) as db:
        reserved = reserve_donation_payment(db, parent_id=parent_id, amount_cents=2500)
    sale = await payments.charge_stored_card(
        payment_id=reserved.id,
        parent_id=parent_id,
        card_id=card.id,
        runtime=runtime,
    )
    await payments.refund(payment_id=sale.id, amount_cents=500, runtime=runtime)

    # A hosted donation, saved card included, confirmed after a lost txnquery answer.
    session = await donations.start_donation(
        parent_id=parent_id, amount="15", save_card=True, runtime=runtime
    )
    answer = lightbox_submit(live_sim, session.token, number=VISA, cvv=CVV)
    tokens.append(answer["response"]["ssl_token"])
    live_sim.control("fault", kind="no_answer", scope="xml")
    async with ConvergeClient(live_sim.settings, timeout=SHORT) as impatient:
        await payments.confirm_payment(
            payment_id=session.payment_id,
            txn_id=answer["response"]["ssl_txn_id"],
            runtime=Runtime(engine=pay_engine, gateway=impatient),
        )
    view = await payments.reconcile_payment(payment_id=session.payment_id, runtime=runtime)
    assert view.state == "APPROVED"
    await cards.save_card(
        parent_id=parent_id,
        token=tokens[-1],
        expect_masked=view.card_masked,
        runtime=runtime,
    )
    await payments.refund(payment_id=view.id, amount_cents=1500, runtime=runtime)
    # A decline, and the card is deleted.
    declined = await donations.start_donation(parent_id=parent_id, amount="7", runtime=runtime)
    answer = lightbox_submit(live_sim, declined.token, number=DECLINED_CARD, cvv=CVV)
    with session_scope(pay_engine) as db:
        payments.record_decline(
            db, payment_id=declined.payment_id, message=answer["response"]["ssl_result_message"]
        )
    await cards.delete_card(parent_id=parent_id, card_id=card.id, runtime=runtime)

    for handler in logging.getLogger().handlers:
        handler.flush()
    text = log_file.read_text(encoding="utf-8")
    assert "converge ccsale" in text and "payment.approved" in text, "flows were logged"
    assert "SELECT" in text or "INSERT" in text, "SQL was logged too"
    for secret in (live_sim.settings.pin, VISA, MASTERCARD, DECLINED_CARD):
        assert grep(secret, log_file) == [], f"{secret!r} leaked into the log"
    scrubbed = TXN_ID.sub("<txn>", text)
    for token in tokens:  # random digits could contain the CVV by chance
        scrubbed = scrubbed.replace(token, "<token>")
    # The CVV as a value of its own: not the digits inside a timing ("cached since 0.7391s"),
    # a timestamp's fraction or a longer number.
    assert re.search(rf"(?<![\d.,:]){CVV}(?!\d)", scrubbed) is None, "the CVV leaked"

    with session_scope(pay_engine) as db:
        trail = " ".join(row.data for row in db.exec(select(AuditEvent)).all())
    pin = live_sim.settings.pin
    for secret in (pin, VISA, MASTERCARD, DECLINED_CARD, session.token, add.token, *tokens):
        assert secret not in trail


# -- the gateway client alone: its log lines, its exceptions and its answers ----------------------


PIN = simulator_pin()  # the generated one the simulator and the client share


CARD = "5121212121212124"


def leaks(text: str) -> list[str]:
    text = TXN_ID.sub("<txn-id>", text)  # random hex could contain the CVV's digits
    found = [secret for secret in (PIN, CARD) if secret in text]
    # The CVV as a value of its own, not digits inside a timing or a timestamp's fraction.
    if re.search(rf"(?<![\d.,:]){CVV}(?!\d)", text):
        found.append(CVV)
    return found


async def test_nothing_secret_is_logged_even_at_debug(
    sim: SimServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger: ours, httpx, httpcore, uvicorn
    # Patient for the calls that must answer; the short limit only for the one that times out.
    async with (
        ConvergeClient(sim.settings, timeout=PATIENT) as converge_client,
        ConvergeClient(sim.settings, timeout=SHORT) as impatient,
    ):
        stored = await converge_client.get_token(CARD, EXP, cvv=CVV, first_name="Ada", verify=True)
        assert isinstance(stored, TokenResult)
        await converge_client.sale_with_token(stored.token, 1250, "HM-1")
        await converge_client.get_token(
            "5121212121212125", EXP, cvv=CVV
        )  # 5000, number echoed nowhere
        await converge_client.create_session_token(1250, "HM-2", save_card=True)
        sim.control("fault", kind="no_answer")
        assert isinstance(await impatient.get_token(CARD, EXP, cvv=CVV), UnknownOutcome)
        sim.control("fault", kind="http_500")
        await converge_client.get_token(CARD, EXP, cvv=CVV)
    assert caplog.records, "the client logs each call"
    logged = "\n".join(
        f"{record.getMessage()} {record.args!r} {record.exc_text or ''}"
        for record in caplog.records
    )
    assert leaks(logged) == []
    assert "converge ccgettoken" in logged and "converge ccsale" in logged


async def test_exception_text_from_the_transport_is_redacted() -> None:
    def explode(request: httpx.Request) -> httpx.Response:
        # A worst case: a library that puts the request body into its error message.
        raise httpx.ConnectError(f"failed sending {request.content.decode()}", request=request)

    settings = simulator_settings("http://sim.test")
    async with ConvergeClient(settings, transport=httpx.MockTransport(explode)) as converge_client:
        outcome = await converge_client.get_token(CARD, EXP, cvv=CVV)
        with pytest.raises(SessionTokenError) as info:
            await converge_client.create_session_token(100, "HM-1")
    assert isinstance(outcome, UnknownOutcome)
    assert leaks(outcome.reason) == [] and "connection error" in outcome.reason
    assert leaks(str(info.value)) == [] and leaks(repr(info.value.outcome)) == []


async def test_outcomes_never_carry_the_card_number_or_pin(converge_client: ConvergeClient) -> None:
    stored = await converge_client.get_token(CARD, EXP, cvv=CVV)
    assert isinstance(stored, TokenResult)
    everything = repr(stored) + repr(dict(stored.raw)) + repr(converge_client)
    assert leaks(everything) == []
