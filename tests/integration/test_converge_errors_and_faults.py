"""Error codes, lost answers and injected faults, over HTTP against the simulator."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import httpx
import pytest

from hotmeals.converge.configured import simulator_pin, simulator_settings
from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.gateway import (
    Approved,
    GatewayError,
    SessionTokenError,
    TokenResult,
    TxnQueryResult,
    UnknownOutcome,
)
from tests.payments_support import CVV, EXP, NOT_LUHN, PATIENT, SHORT, VISA, SimServer

pytestmark = pytest.mark.asyncio


async def token_for(converge_client: ConvergeClient) -> str:
    result = await converge_client.get_token(VISA, EXP, cvv=CVV)
    assert isinstance(result, TokenResult)
    return result.token


async def raw_xml(sim: SimServer, xml: str) -> str:
    async with httpx.AsyncClient(timeout=PATIENT) as http:
        response = await http.post(sim.settings.xml_url, data={"xmldata": xml})
    assert response.status_code == 200
    return response.text


async def test_bad_credentials_are_refused_4025(sim: SimServer) -> None:
    wrong = replace(sim.settings, pin="WRONG-PIN")
    async with ConvergeClient(wrong, timeout=PATIENT) as converge_client:
        outcome = await converge_client.sale_with_token("1234567890120002", 100, "A")
        assert isinstance(outcome, GatewayError) and outcome.error_code == "4025"
        with pytest.raises(SessionTokenError) as info:
            await converge_client.create_session_token(100, "A")
    assert isinstance(info.value.outcome, GatewayError)
    assert info.value.outcome.error_code == "4025"


async def test_missing_required_field_is_refused_4009(sim: SimServer) -> None:
    creds = (
        "<ssl_merchant_id>000000</ssl_merchant_id><ssl_user_id>hotmeals</ssl_user_id>"
        f"<ssl_pin>{simulator_pin()}</ssl_pin>"
    )
    body = await raw_xml(
        sim, f"<txn>{creds}<ssl_transaction_type>ccreturn</ssl_transaction_type></txn>"
    )
    assert body.startswith("<txn><errorCode>4009</errorCode>")


async def test_missing_token_on_token_query_is_refused_4009(
    converge_client: ConvergeClient,
) -> None:
    outcome = await converge_client.query_token("")
    assert isinstance(outcome, GatewayError) and outcome.error_code == "4009"


async def test_unknown_transaction_type_is_refused_4010(sim: SimServer) -> None:
    creds = (
        "<ssl_merchant_id>000000</ssl_merchant_id><ssl_user_id>hotmeals</ssl_user_id>"
        f"<ssl_pin>{simulator_pin()}</ssl_pin>"
    )
    body = await raw_xml(
        sim, f"<txn>{creds}<ssl_transaction_type>ccrefund</ssl_transaction_type></txn>"
    )
    assert "<errorCode>4010</errorCode>" in body
    assert "<errorName>Invalid Transaction Type</errorName>" in body


async def test_card_failing_luhn_is_refused_5000(converge_client: ConvergeClient) -> None:
    outcome = await converge_client.get_token(NOT_LUHN, EXP, cvv=CVV)
    assert isinstance(outcome, GatewayError) and outcome.error_code == "5000"


async def test_unknown_stored_token_cannot_be_charged(converge_client: ConvergeClient) -> None:
    outcome = await converge_client.sale_with_token("9999999999990002", 100, "A")
    assert isinstance(outcome, GatewayError)


# The tests about time-outs give the short limit (SHORT) only to the call that is meant to time
# out; everything around it (getting a token, looking the charge up) uses the patient `client`,
# so a busy machine cannot turn a set-up step into a time-out. Waits are for conditions, with
# generous deadlines.
PATIENT_WAIT = 30.0


async def test_no_answer_is_an_unknown_outcome_within_the_client_timeout(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await token_for(converge_client)
    sim.control("fault", kind="no_answer")
    async with ConvergeClient(sim.settings, timeout=SHORT) as impatient:
        started = time.monotonic()
        outcome = await impatient.sale_with_token(token, 1000, "HM-1")
        elapsed = time.monotonic() - started
    assert isinstance(outcome, UnknownOutcome)
    assert "time-out" in outcome.reason
    # The simulator would hang for ever: only the client's own limit can have ended the call
    # (PATIENT's 30 s would not have, within this bound).
    assert elapsed < 10
    assert sim.get("transactions") == []
    wait_until_nothing_hangs(sim)  # the simulator noticed the caller left


def wait_until_nothing_hangs(sim: SimServer) -> None:
    deadline = time.monotonic() + PATIENT_WAIT
    while sim.get("state")["hanging"]:
        assert time.monotonic() < deadline, "a hung request outlived its caller"
        time.sleep(0.02)


async def test_reset_releases_a_hung_request(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await token_for(converge_client)
    sim.control("fault", kind="no_answer")
    async with ConvergeClient(sim.settings, timeout=httpx.Timeout(120.0)) as waiting:
        sale = asyncio.create_task(waiting.sale_with_token(token, 1000, "HM-1"))
        deadline = time.monotonic() + PATIENT_WAIT
        while not sim.get("state")["hanging"]:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.02)
        sim.control("reset")
        started = time.monotonic()
        outcome = await sale
    # Released early, the simulator answers 4017: the client still cannot know, so Unknown.
    assert isinstance(outcome, UnknownOutcome) and "4017" in outcome.reason
    assert time.monotonic() - started < 60  # the reset, not the client's 120 s limit


async def test_amount_2222_never_answers(converge_client: ConvergeClient, sim: SimServer) -> None:
    token = await token_for(converge_client)
    async with ConvergeClient(sim.settings, timeout=SHORT) as impatient:
        outcome = await impatient.sale_with_token(token, 2222, "HM-1")
    assert isinstance(outcome, UnknownOutcome)
    wait_until_nothing_hangs(sim)
    assert sim.get("transactions") == []


async def test_lost_answer_charge_is_found_by_reconciling(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await token_for(converge_client)
    sim.control("fault", kind="lost_answer")
    async with ConvergeClient(sim.settings, timeout=SHORT) as impatient:
        outcome = await impatient.sale_with_token(token, 1000, "HM-LOST")
    assert isinstance(outcome, UnknownOutcome)
    [found] = await converge_client.find_by_invoice(  # type: ignore[misc]
        "HM-LOST", start=sim.clock.now.date(), end=sim.clock.now.date()
    )
    assert found.confirms_sale(amount_cents=1000, invoice_number="HM-LOST")


async def test_http_500_is_an_unknown_outcome(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await token_for(converge_client)
    sim.control("fault", kind="http_500", count=2)
    first = await converge_client.sale_with_token(token, 1000, "HM-1")
    second = await converge_client.txnquery("anything")
    assert first == UnknownOutcome("HTTP 500") and second == UnknownOutcome("HTTP 500")
    assert isinstance(
        await converge_client.sale_with_token(token, 1000, "HM-2"), Approved
    )  # healed


async def test_delay_shorter_than_the_timeout_still_answers(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await token_for(converge_client)
    sim.control("fault", kind="delay:0.3")
    started = time.monotonic()
    outcome = await converge_client.sale_with_token(token, 1000, "HM-1")
    assert isinstance(outcome, Approved)
    assert time.monotonic() - started >= 0.3


async def test_delay_longer_than_the_timeout_still_charges(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await token_for(converge_client)
    sim.control("fault", kind="delay:0.8")
    async with ConvergeClient(sim.settings, timeout=SHORT) as impatient:
        outcome = await impatient.sale_with_token(token, 1000, "HM-SLOW")
    assert isinstance(outcome, UnknownOutcome)
    # The simulator finishes the charge after we gave up: look until it is there.
    deadline = time.monotonic() + PATIENT_WAIT
    while True:
        found = await converge_client.find_by_invoice(
            "HM-SLOW", start=sim.clock.now.date(), end=sim.clock.now.date()
        )
        if found:
            break
        assert time.monotonic() < deadline, "the slow charge never completed"
        await asyncio.sleep(0.05)
    assert isinstance(found, list) and len(found) == 1


async def test_connection_refused_is_an_unknown_outcome() -> None:
    dead = simulator_settings("http://127.0.0.1:9")
    async with ConvergeClient(dead, timeout=SHORT) as converge_client:
        outcome = await converge_client.txnquery("T1")
        with pytest.raises(SessionTokenError):
            await converge_client.create_session_token(100, "A")
    assert isinstance(outcome, UnknownOutcome) and "connection error" in outcome.reason


async def test_token_endpoint_fault_raises_session_token_error(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    sim.control("fault", kind="http_500", scope="token")
    assert isinstance(await converge_client.txnquery("x"), TxnQueryResult)  # xml door unaffected
    with pytest.raises(SessionTokenError) as info:
        await converge_client.create_session_token(100, "A")
    assert isinstance(info.value.outcome, UnknownOutcome)


async def test_bad_fault_requests_are_rejected(sim: SimServer) -> None:
    bad: list[dict[str, str | int]] = [
        {"kind": "explode"},
        {"kind": "delay:soon"},
        {"kind": "http_500", "count": 0},
    ]
    for params in bad:
        response = sim.http.post(f"{sim.url}/_sim/fault", params=params)
        assert response.status_code == 400
