"""Charging, refunding and voiding through the client, over HTTP, against the simulator."""

from __future__ import annotations

from datetime import date

import pytest

from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.gateway import (
    Approved,
    Declined,
    GatewayError,
    TokenResult,
    TxnQueryResult,
)
from tests.payments_support import (
    AMEX,
    CVV,
    DECLINED_CARD,
    DISCOVER,
    EXP,
    MASTERCARD,
    VISA,
    VISA_2,
    SimServer,
)

pytestmark = pytest.mark.asyncio


async def stored_card(converge_client: ConvergeClient, number: str = VISA, exp: str = EXP) -> str:
    result = await converge_client.get_token(
        number, exp, cvv=CVV, first_name="Ada", last_name="Parent"
    )
    assert isinstance(result, TokenResult) and result.ok
    return result.token


async def paid(
    converge_client: ConvergeClient, cents: int = 2500, invoice: str = "HM-1"
) -> Approved:
    outcome = await converge_client.sale_with_token(
        await stored_card(converge_client), cents, invoice
    )
    assert isinstance(outcome, Approved), outcome
    return outcome


@pytest.mark.parametrize(
    ("number", "brand"),
    [(VISA, "VISA"), (VISA_2, "VISA"), (MASTERCARD, "MC"), (AMEX, "AMEX"), (DISCOVER, "DISC")],
)
async def test_test_cards_are_approved_by_stored_token(
    converge_client: ConvergeClient, number: str, brand: str
) -> None:
    token = await stored_card(converge_client, number)
    assert len(token) == 16 and token.endswith(number[-4:])
    outcome = await converge_client.sale_with_token(token, 1250, "HM-100")
    assert isinstance(outcome, Approved)
    assert outcome.amount_cents == 1250
    assert outcome.invoice_number == "HM-100"
    assert outcome.card_brand == brand
    assert outcome.card_masked == number[:2] + "*" * (len(number) - 6) + number[-4:]
    assert outcome.transaction_type == "SALE"
    assert len(outcome.approval_code) == 6
    assert outcome.txn_id.startswith("020925AD3-")  # ddmmyy of the simulator's clock


async def test_txnquery_confirms_an_approved_sale(converge_client: ConvergeClient) -> None:
    sale = await paid(converge_client, 1999, "HM-7")
    found = await converge_client.txnquery(sale.txn_id)
    assert isinstance(found, TxnQueryResult)
    assert found.found and found.status == "OPN" and found.transaction_type == "SALE"
    assert found.confirms_sale(amount_cents=1999, invoice_number="HM-7")
    assert not found.confirms_sale(amount_cents=1998, invoice_number="HM-7")


async def test_txnquery_of_an_unknown_id_is_not_found(converge_client: ConvergeClient) -> None:
    found = await converge_client.txnquery("020925AD3-00000000-0000-0000-0000-000000000000")
    assert isinstance(found, TxnQueryResult) and not found.found


async def test_settling_moves_open_transactions_to_stl(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    sale = await paid(converge_client)
    assert sim.control("settle") == {"settled": 1}
    found = await converge_client.txnquery(sale.txn_id)
    assert isinstance(found, TxnQueryResult)
    assert found.status == "STL" and found.settled and found.settle_time


async def test_find_by_invoice_reconciles_without_a_txn_id(converge_client: ConvergeClient) -> None:
    sale = await paid(converge_client, 800, "HM-42")
    await paid(converge_client, 900, "HM-43")
    refund = await converge_client.refund(sale.txn_id, 300)
    assert isinstance(refund, Approved)
    found = await converge_client.find_by_invoice(
        "HM-42", start=date(2025, 9, 1), end=date(2025, 9, 2)
    )
    assert isinstance(found, list)
    assert sorted((f.transaction_type, f.amount_cents) for f in found) == [
        ("RETURN", 300),
        ("SALE", 800),
    ]
    assert (
        await converge_client.find_by_invoice("HM-42", start=date(2025, 9, 3), end=date(2025, 9, 4))
        == []
    )


async def test_partial_refunds_may_sum_to_the_sale_and_no_further(
    converge_client: ConvergeClient,
) -> None:
    sale = await paid(converge_client, 2500)
    first = await converge_client.refund(sale.txn_id, 1000)
    second = await converge_client.refund(sale.txn_id, 1500)
    assert isinstance(first, Approved) and isinstance(second, Approved)
    assert (first.transaction_type, first.amount_cents) == ("RETURN", 1000)
    assert first.txn_id != second.txn_id != sale.txn_id
    assert first.invoice_number == "HM-1"
    one_more = await converge_client.refund(sale.txn_id, 1)
    assert isinstance(one_more, GatewayError) and one_more.error_code == "5091"


async def test_refund_beyond_the_sale_is_refused_5091(converge_client: ConvergeClient) -> None:
    sale = await paid(converge_client, 2500)
    outcome = await converge_client.refund(sale.txn_id, 2501)
    assert isinstance(outcome, GatewayError) and outcome.error_code == "5091"
    # The refused attempt counted for nothing: the whole amount can still be returned.
    assert isinstance(await converge_client.refund(sale.txn_id, 2500), Approved)


async def test_refund_after_settlement_is_allowed(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    sale = await paid(converge_client, 2500)
    sim.control("settle")
    assert isinstance(await converge_client.refund(sale.txn_id, 2500), Approved)


async def test_void_before_settlement_cancels_the_sale(converge_client: ConvergeClient) -> None:
    sale = await paid(converge_client, 2500)
    void = await converge_client.void(sale.txn_id)
    assert isinstance(void, Approved)
    assert void.transaction_type == "VOID" and void.txn_id != sale.txn_id
    assert void.amount_cents == 2500
    # A voided sale cannot be refunded as well.
    refund = await converge_client.refund(sale.txn_id, 100)
    assert isinstance(refund, GatewayError) and refund.error_code == "5040"


async def test_double_void_is_refused_5040(converge_client: ConvergeClient) -> None:
    sale = await paid(converge_client)
    assert isinstance(await converge_client.void(sale.txn_id), Approved)
    again = await converge_client.void(sale.txn_id)
    assert isinstance(again, GatewayError) and again.error_code == "5040"


async def test_void_after_settlement_is_refused_so_the_caller_returns_instead(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    sale = await paid(converge_client, 2500)
    sim.control("settle")
    void = await converge_client.void(sale.txn_id)
    assert isinstance(void, GatewayError) and void.error_code == "4018"
    fallback = await converge_client.refund(sale.txn_id, 2500)
    assert isinstance(fallback, Approved) and fallback.transaction_type == "RETURN"


async def test_voiding_a_refund_gives_its_amount_back_to_refund(
    converge_client: ConvergeClient,
) -> None:
    sale = await paid(converge_client, 2500)
    refund = await converge_client.refund(sale.txn_id, 2500)
    assert isinstance(refund, Approved)
    assert isinstance(await converge_client.void(refund.txn_id), Approved)
    assert isinstance(await converge_client.refund(sale.txn_id, 2500), Approved)


async def test_unknown_txn_id_is_refused_5040(converge_client: ConvergeClient) -> None:
    for outcome in (await converge_client.void("nope"), await converge_client.refund("nope", 100)):
        assert isinstance(outcome, GatewayError) and outcome.error_code == "5040"


async def test_declining_test_card_is_declined(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    token = await stored_card(converge_client, DECLINED_CARD)
    outcome = await converge_client.sale_with_token(token, 1000, "HM-9")
    assert isinstance(outcome, Declined)
    assert outcome.result == "1" and outcome.result_message == "DECLINED"
    assert outcome.txn_id
    assert sim.get("transactions") == []  # nothing charged, nothing listed


async def test_expired_card_is_declined(converge_client: ConvergeClient) -> None:
    token = await stored_card(converge_client, VISA, exp="0825")  # the clock says September 2025
    outcome = await converge_client.sale_with_token(token, 1000, "HM-9")
    assert isinstance(outcome, Declined) and outcome.result_message == "EXPIRED CARD"


@pytest.mark.parametrize(
    ("cents", "message"),
    [
        (1051, "INSUFFICIENT FUNDS"),
        (1054, "EXPIRED CARD"),
        (1059, "DECLINED"),
        (1078, "INVALID CARD"),
        (1091, "CALL AUTH CENTER"),
    ],
)
async def test_declines_by_cents(converge_client: ConvergeClient, cents: int, message: str) -> None:
    outcome = await converge_client.sale_with_token(
        await stored_card(converge_client), cents, "HM-9"
    )
    assert isinstance(outcome, Declined)
    assert outcome.result_message == message


async def test_system_error_cents_is_a_gateway_error(converge_client: ConvergeClient) -> None:
    outcome = await converge_client.sale_with_token(
        await stored_card(converge_client), 1096, "HM-9"
    )
    assert isinstance(outcome, GatewayError) and outcome.error_code.startswith("3")


async def test_cents_rules_can_be_switched_off(
    converge_client: ConvergeClient, sim: SimServer
) -> None:
    sim.control("config", decline_by_cents="0")
    assert isinstance(
        await converge_client.sale_with_token(await stored_card(converge_client), 1051, "A"),
        Approved,
    )
