"""The PIN, card numbers and CVVs never reach a log line or an exception's text."""

from __future__ import annotations

import logging
import re

import httpx
import pytest

from hotmeals.converge.configured import simulator_pin, simulator_settings
from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.gateway import SessionTokenError, TokenResult, UnknownOutcome
from tests.payments_support import EXP, PATIENT, SHORT, SimServer

pytestmark = pytest.mark.asyncio

PIN = simulator_pin()  # the generated one the simulator and the client share
CARD = "5121212121212124"
CVV = "7391"
TXN_ID = re.compile(r"\d{6}AD3-[0-9A-F-]{36}")


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
