"""Reading and writing Converge's XML, without a network."""

from __future__ import annotations

from urllib.parse import parse_qs

import httpx
import pytest

from hotmeals.converge.configured import simulator_settings
from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.converge_wire import (
    build_txn_xml,
    parse_xml_body,
    read_sale,
    read_txnlist,
    scrub_fields,
)
from hotmeals.converge.gateway import (
    Approved,
    Declined,
    GatewayError,
    PaymentGateway,
    TxnQueryResult,
    UnknownOutcome,
)

SETTINGS = simulator_settings("http://sim.test")
APPROVED = (
    "<txn><ssl_result>0</ssl_result><ssl_result_message>APPROVAL</ssl_result_message>"
    "<ssl_txn_id>180820AD3-27AEE6EF-8CA7-4811-8D1F-E420C3B5041E</ssl_txn_id>"
    "<ssl_approval_code>093840</ssl_approval_code><ssl_amount>100.00</ssl_amount>"
    "<ssl_card_number>41**********9990</ssl_card_number>"
    "<ssl_card_short_description>VISA</ssl_card_short_description>"
    "<ssl_transaction_type>SALE</ssl_transaction_type>"
    "<ssl_txn_time>08/18/2020 06:31:42 PM</ssl_txn_time><ssl_avs_response>M</ssl_avs_response>"
    "<ssl_cvv2_response>M</ssl_cvv2_response><ssl_invoice_number/></txn>"
)


def sale(body: str) -> object:
    parsed = parse_xml_body(body)
    return read_sale(parsed if parsed is not None else UnknownOutcome("unreadable"))


def test_values_are_xml_escaped() -> None:
    xml = build_txn_xml({"ssl_first_name": "Zoë & <Ann>", "ssl_last_name": 'O"Neil'})
    assert xml == (
        "<txn><ssl_first_name>Zoë &amp; &lt;Ann&gt;</ssl_first_name>"
        '<ssl_last_name>O"Neil</ssl_last_name></txn>'
    )
    assert parse_xml_body(xml) == (
        "txn",
        [{"ssl_first_name": "Zoë & <Ann>", "ssl_last_name": 'O"Neil'}],
    )


def test_approved_sale_is_read_from_the_documented_shape() -> None:
    outcome = sale(APPROVED)
    assert isinstance(outcome, Approved)
    assert outcome.amount_cents == 10000
    assert outcome.card_masked == "41**********9990"
    assert outcome.card_brand == "VISA"
    assert outcome.approval_code == "093840"
    assert outcome.invoice_number == ""
    assert outcome.token is None


def test_error_code_wins_over_everything() -> None:
    body = (
        "<txn><errorCode>5091</errorCode><errorName>Invalid amount</errorName>"
        "<errorMessage>The amount exceeded the original transaction amount.</errorMessage></txn>"
    )
    assert sale(body) == GatewayError(
        "5091", "Invalid amount", "The amount exceeded the original transaction amount."
    )


def test_gateway_time_out_4017_is_an_unknown_outcome() -> None:
    body = "<txn><errorCode>4017</errorCode><errorName>x</errorName><errorMessage/></txn>"
    assert isinstance(sale(body), UnknownOutcome)


def test_any_result_but_zero_is_a_decline_whatever_the_message_says() -> None:
    body = APPROVED.replace("<ssl_result>0</ssl_result>", "<ssl_result>1</ssl_result>")
    outcome = sale(body)
    assert isinstance(outcome, Declined)
    assert outcome.result_message == "APPROVAL"  # the text is reported, never trusted


@pytest.mark.parametrize(
    "body",
    [
        "",
        "not xml",
        "<html><body>Bad gateway</body></html>",
        "<txn><ssl_result_message>APPROVAL</ssl_result_message></txn>",
        APPROVED.replace("<ssl_amount>100.00</ssl_amount>", "<ssl_amount>1,00</ssl_amount>"),
        '<!DOCTYPE txn [<!ENTITY x "0">]><txn><ssl_result>&x;</ssl_result></txn>',
    ],
)
def test_unreadable_answers_are_unknown_outcomes(body: str) -> None:
    assert isinstance(sale(body), UnknownOutcome)


def test_txnlist_is_read_and_count_checked() -> None:
    body = (
        "<txnlist><ssl_txn_count>1</ssl_txn_count><txn><ssl_txn_id>T1</ssl_txn_id>"
        "<ssl_trans_status>STL</ssl_trans_status><ssl_transaction_type>SALE</ssl_transaction_type>"
        "<ssl_amount>5.00</ssl_amount><ssl_result_message>APPROVAL</ssl_result_message></txn>"
        "</txnlist>"
    )
    parsed = parse_xml_body(body)
    assert parsed is not None
    [item] = read_txnlist(parsed)  # type: ignore[misc]
    assert isinstance(item, TxnQueryResult)
    assert (item.status, item.amount_cents, item.settled, item.approved) == ("STL", 500, True, True)
    assert parse_xml_body(body.replace(">1<", ">2<", 1)) is None


def test_scrub_masks_card_and_token_and_drops_pin_cvv_expiry() -> None:
    safe = scrub_fields(
        {
            "ssl_pin": "DEMO-PIN",
            "ssl_card_number": "4000000000000002",
            "ssl_cvv2cvc2": "123",
            "ssl_exp_date": "1230",
            "ssl_token": "1234567890120002",
            "ssl_amount": "1.00",
        }
    )
    assert safe == {
        "ssl_pin": "[redacted]",
        "ssl_card_number": "40**********0002",
        "ssl_cvv2cvc2": "[redacted]",
        "ssl_exp_date": "[redacted]",
        "ssl_token": "************0002",
        "ssl_amount": "1.00",
    }


@pytest.mark.asyncio
async def test_xmldata_is_form_encoded_exactly_once() -> None:
    seen: list[bytes] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.content)
        return httpx.Response(200, text=APPROVED)

    async with ConvergeClient(SETTINGS, transport=httpx.MockTransport(handler)) as client:
        outcome = await client.sale_with_token("1234567890120002", 1250, "A&B <1>")
    assert isinstance(outcome, Approved)
    [body] = seen
    assert b"%253C" not in body  # a second encoding would turn %3C into %253C (error 4005)
    [xml] = parse_qs(body.decode())["xmldata"]
    assert "<ssl_invoice_number>A&amp;B &lt;1&gt;</ssl_invoice_number>" in xml
    assert "<ssl_amount>12.50</ssl_amount>" in xml
    assert xml.startswith("<txn><ssl_merchant_id>000000</ssl_merchant_id>")


@pytest.mark.asyncio
async def test_client_posts_to_the_demo_path_for_the_simulator() -> None:
    urls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        urls.append(str(request.url))
        return httpx.Response(200, text=APPROVED)

    async with ConvergeClient(SETTINGS, transport=httpx.MockTransport(handler)) as client:
        await client.void("T1")
    assert urls == ["http://sim.test/converge-sim/VirtualMerchantDemo/processxml.do"]


def test_client_refuses_an_unbounded_timeout() -> None:
    with pytest.raises(ValueError):
        ConvergeClient(SETTINGS, timeout=httpx.Timeout(None))
    with pytest.raises(ValueError):
        ConvergeClient(SETTINGS, timeout=httpx.Timeout(5.0, read=None))


@pytest.mark.asyncio
async def test_invoice_longer_than_converge_allows_is_refused_before_sending() -> None:
    async with ConvergeClient(
        SETTINGS, transport=httpx.MockTransport(lambda r: httpx.Response(500))
    ) as client:
        with pytest.raises(ValueError):
            await client.sale_with_token("1234567890120002", 100, "X" * 26)


def as_gateway(client: ConvergeClient) -> PaymentGateway:
    return client  # mypy checks that the client satisfies the service's protocol


def test_client_satisfies_the_gateway_protocol() -> None:
    for name in ("create_session_token", "sale_with_token", "refund", "void", "txnquery"):
        assert callable(getattr(ConvergeClient, name))
