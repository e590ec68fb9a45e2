"""The hosted (Lightbox) flow as the browser drives it, and stored-card tokens."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from hotmeals.converge.configured import simulator_pin
from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.gateway import (
    Approved,
    Declined,
    GatewayError,
    SessionTokenError,
    TokenResult,
    TxnQueryResult,
)
from tests.payments_support import CVV, DECLINED_CARD, EXP, NOT_LUHN, PATIENT, VISA, SimServer

pytestmark = pytest.mark.asyncio


async def pay(sim: SimServer, token: str, number: str = VISA, **extra: str) -> dict[str, Any]:
    """What PayWithConverge.js posts when the payer presses Pay."""
    form = {
        "ssl_txn_auth_token": token,
        "ssl_card_number": number,
        "ssl_exp_date": EXP,
        "ssl_cvv2cvc2": CVV,
        **extra,
    }
    async with httpx.AsyncClient(timeout=PATIENT) as http:
        response = await http.post(f"{sim.url}/hosted-payments/process", data=form)
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "*"
    result: dict[str, Any] = response.json()
    return result


async def test_hosted_sale_is_confirmed_by_txnquery(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await converge_client.create_session_token(
        1250, "HM-2001", first_name="Ada", last_name="Parent", email="ada@example.com"
    )
    info = sim.http.get(f"{sim.url}/hosted-payments/session", params={"ssl_txn_auth_token": token})
    assert info.json() == {
        "ok": True,
        "ssl_transaction_type": "ccsale",
        "ssl_amount": "12.50",
        "ssl_invoice_number": "HM-2001",
    }
    result = await pay(sim, token)
    assert result["outcome"] == "approval"
    response = result["response"]
    assert response["ssl_result"] == "0"
    assert response["ssl_card_number"] == "40**********0002"
    assert (response["ssl_amount"], response["ssl_invoice_number"]) == ("12.50", "HM-2001")
    assert "ssl_token" not in response
    # Never trust the browser: the server asks Converge itself.
    found = await converge_client.txnquery(response["ssl_txn_id"])
    assert isinstance(found, TxnQueryResult)
    assert found.confirms_sale(amount_cents=1250, invoice_number="HM-2001")
    assert found.raw["ssl_first_name"] == "Ada"


async def test_hosted_sale_can_save_the_card(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await converge_client.create_session_token(500, "HM-2002", save_card=True)
    result = await pay(sim, token)
    saved = result["response"]["ssl_token"]
    assert len(saved) == 16 and saved.endswith("0002")
    assert result["response"]["ssl_token_response"] == "SUCCESS"
    again = await converge_client.sale_with_token(saved, 700, "HM-2003")
    assert isinstance(again, Approved)
    query = await converge_client.query_token(saved)
    assert isinstance(query, TokenResult) and query.ok and query.card_masked.endswith("0002")


async def test_the_session_alone_decides_whether_the_card_is_saved(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    """As in Converge's Lightbox, the payment window offers no "save this card" of its own (the
    app's box sets the session): whatever the form posts, the session decides."""
    token = await converge_client.create_session_token(500, "HM-2004")
    result = await pay(sim, token, save_card="1")
    assert result["outcome"] == "approval" and "ssl_token" not in result["response"]
    token = await converge_client.create_session_token(500, "HM-2010", save_card=True)
    result = await pay(sim, token, save_card="0")
    assert result["response"]["ssl_token"].endswith("0002")


async def test_session_token_is_usable_once(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await converge_client.create_session_token(500, "HM-2005")
    assert (await pay(sim, token))["outcome"] == "approval"
    second = await pay(sim, token)
    assert second["outcome"] == "error"
    assert second["error"]["errorCode"] == "4004"
    assert len(sim.get("transactions")) == 1


async def test_session_expires_after_fifteen_minutes(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await converge_client.create_session_token(500, "HM-2006")
    sim.clock.advance(minutes=15, seconds=1)
    result = await pay(sim, token)
    assert result["outcome"] == "error"
    assert result["error"]["errorCode"] == "4017"
    assert sim.get("transactions") == []


async def test_session_still_open_at_fourteen_minutes(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await converge_client.create_session_token(500, "HM-2007")
    sim.control("clock", advance_seconds=14 * 60)
    assert (await pay(sim, token))["outcome"] == "approval"


async def test_card_typo_can_be_corrected_in_the_same_session(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await converge_client.create_session_token(500, "HM-2008")
    typo = await pay(sim, token, number=NOT_LUHN)
    assert typo["outcome"] == "invalid" and typo["error"]["errorCode"] == "5000"
    bad_expiry = await pay(sim, token, ssl_exp_date="1330")
    assert bad_expiry["outcome"] == "invalid" and bad_expiry["error"]["errorCode"] == "5001"
    assert (await pay(sim, token))["outcome"] == "approval"


async def test_hosted_decline_uses_up_the_session(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await converge_client.create_session_token(500, "HM-2009")
    declined = await pay(sim, token, number=DECLINED_CARD)
    assert declined["outcome"] == "declined"
    assert declined["response"]["ssl_result"] == "1"
    assert declined["response"]["ssl_result_message"] == "DECLINED"
    assert (await pay(sim, token))["outcome"] == "error"


async def test_hosted_get_token_session_stores_a_card(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await converge_client.create_session_token(0, "", transaction_type="ccgettoken")
    result = await pay(sim, token)
    assert result["outcome"] == "approval"
    assert result["response"]["ssl_token"].endswith("0002")
    assert sim.get("transactions") == []


async def test_session_token_rules(sim: SimServer) -> None:
    base = {"ssl_merchant_id": "000000", "ssl_user_id": "hotmeals", "ssl_pin": simulator_pin()}
    url = sim.settings.session_token_url
    cases = [
        ({**base, "ssl_transaction_type": "ccsale"}, "4009"),  # no amount
        ({**base, "ssl_transaction_type": "ccfly", "ssl_amount": "1.00"}, "4010"),
        ({**base, "ssl_pin": "nope", "ssl_transaction_type": "ccsale", "ssl_amount": "1"}, "4025"),
        ({**base, "ssl_transaction_type": "ccsale", "ssl_amount": "1.2.3"}, "5002"),
    ]
    for form, code in cases:
        response = sim.http.post(url, data=form)
        assert f"<errorCode>{code}</errorCode>" in response.text, form


async def test_bad_session_amount_raises_session_token_error(
    converge_client: ConvergeClient,
) -> None:
    with pytest.raises(ValueError):
        await converge_client.create_session_token(0, "HM-1")
    with pytest.raises(ValueError):
        await converge_client.create_session_token(100, "HM-1", transaction_type="ccrefund")
    assert issubclass(SessionTokenError, Exception)


async def test_token_can_be_updated_queried_and_deleted(converge_client: ConvergeClient) -> None:
    created = await converge_client.get_token(
        VISA, EXP, cvv=CVV, first_name="Ada", last_name="Parent"
    )
    assert isinstance(created, TokenResult) and created.ok
    assert (created.card_masked, created.exp_date) == ("40**********0002", EXP)
    updated = await converge_client.update_token(
        created.token, exp_date="0131", last_name="Lovelace"
    )
    assert isinstance(updated, TokenResult) and updated.ok
    queried = await converge_client.query_token(created.token)
    assert isinstance(queried, TokenResult)
    assert (queried.exp_date, queried.first_name, queried.last_name) == ("0131", "Ada", "Lovelace")
    deleted = await converge_client.delete_token(created.token)
    assert isinstance(deleted, TokenResult) and deleted.ok
    gone = await converge_client.query_token(created.token)
    assert isinstance(gone, TokenResult)
    assert not gone.ok and gone.token_response == "Invalid Token"
    assert isinstance(await converge_client.delete_token(created.token), TokenResult)
    sale = await converge_client.sale_with_token(created.token, 100, "HM-1")
    assert isinstance(sale, GatewayError)


async def test_verified_token_for_a_declining_card_is_declined(
    converge_client: ConvergeClient,
) -> None:
    outcome = await converge_client.get_token(DECLINED_CARD, EXP, verify=True)
    assert isinstance(outcome, Declined) and outcome.result_message == "DECLINED"
    unverified = await converge_client.get_token(DECLINED_CARD, EXP, verify=False)
    assert isinstance(unverified, TokenResult) and unverified.ok
