"""The simulator's HTTP surface: exact XML shapes (converge.md §4), paths, assets."""

from __future__ import annotations

import re
from urllib.parse import quote

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Mount

from hotmeals.converge.configured import simulator_pin
from hotmeals.converge.simulator import create_simulator_app
from tests.payments_support import CVV, EXP, VISA, SimServer

CREDS = (
    "<ssl_merchant_id>000000</ssl_merchant_id><ssl_user_id>hotmeals</ssl_user_id>"
    f"<ssl_pin>{simulator_pin()}</ssl_pin>"
)
SALE = (
    f"<txn>{CREDS}<ssl_transaction_type>ccsale</ssl_transaction_type>"
    f"<ssl_card_number>{VISA}</ssl_card_number><ssl_exp_date>{EXP}</ssl_exp_date>"
    f"<ssl_cvv2cvc2>{CVV}</ssl_cvv2cvc2><ssl_amount>100.00</ssl_amount></txn>"
)
SALE_TAGS = [
    "ssl_result",
    "ssl_result_message",
    "ssl_txn_id",
    "ssl_approval_code",
    "ssl_amount",
    "ssl_card_number",
    "ssl_card_short_description",
    "ssl_transaction_type",
    "ssl_txn_time",
    "ssl_avs_response",
    "ssl_cvv2_response",
    "ssl_invoice_number",
]


def tags(xml: str) -> list[str]:
    return re.findall(r"<([A-Za-z0-9_]+)/?>", xml)


def post_xml(sim: SimServer, xml: str, path: str = "/VirtualMerchantDemo/processxml.do") -> str:
    response = sim.http.post(sim.url + path, data={"xmldata": xml})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/xml")
    return response.text


def test_approved_sale_has_the_documented_shape(sim: SimServer) -> None:
    body = post_xml(sim, SALE)
    assert tags(body) == ["txn", *SALE_TAGS]
    assert body.startswith("<txn><ssl_result>0</ssl_result>")
    assert "<ssl_result_message>APPROVAL</ssl_result_message>" in body
    assert "<ssl_amount>100.00</ssl_amount>" in body
    assert "<ssl_card_number>40**********0002</ssl_card_number>" in body
    assert "<ssl_transaction_type>SALE</ssl_transaction_type>" in body
    assert body.endswith("<ssl_invoice_number/></txn>")
    assert re.search(r"<ssl_txn_id>\d{6}AD3-[0-9A-F-]{36}</ssl_txn_id>", body)
    assert re.search(r"<ssl_txn_time>09/02/2025 12:00:00 PM</ssl_txn_time>", body)
    assert VISA not in body and simulator_pin() not in body


def test_xmldata_in_the_query_string_and_production_path_work(sim: SimServer) -> None:
    response = sim.http.post(f"{sim.url}/VirtualMerchant/processxml.do?xmldata={quote(SALE)}")
    assert response.text.startswith("<txn><ssl_result>0</ssl_result>")


def test_txnquery_answers_a_txnlist(sim: SimServer) -> None:
    txn_id = re.search(r"<ssl_txn_id>([^<]+)</ssl_txn_id>", post_xml(sim, SALE)).group(1)  # type: ignore[union-attr]
    query = (
        f"<txn>{CREDS}<ssl_transaction_type>txnquery</ssl_transaction_type>"
        f"<ssl_txn_id>{txn_id}</ssl_txn_id></txn>"
    )
    body = post_xml(sim, query)
    assert body.startswith("<txnlist><ssl_txn_count>1</ssl_txn_count><txn>")
    assert body.endswith("</txn></txnlist>")
    for element in (
        f"<ssl_txn_id>{txn_id}</ssl_txn_id>",
        "<ssl_trans_status>OPN</ssl_trans_status>",
        "<ssl_transaction_type>SALE</ssl_transaction_type>",
        "<ssl_amount>100.00</ssl_amount>",
        "<ssl_result_message>APPROVAL</ssl_result_message>",
    ):
        assert element in body
    empty = post_xml(sim, query.replace(txn_id, "missing"))
    assert empty == "<txnlist><ssl_txn_count>0</ssl_txn_count></txnlist>"


def test_error_has_the_documented_shape(sim: SimServer) -> None:
    body = post_xml(sim, SALE.replace(VISA, "4000000000000001"))
    assert body == (
        "<txn><errorCode>5000</errorCode><errorName>Credit Card Number Invalid</errorName>"
        "<errorMessage>The Credit Card Number supplied in the authorization request appears"
        " to be invalid.</errorMessage></txn>"
    )


@pytest.mark.parametrize(
    ("missing", "code"),
    [("ssl_merchant_id", "4000"), ("ssl_pin", "4013"), ("ssl_user_id", "4019")],
)
def test_missing_credentials_have_their_own_codes(sim: SimServer, missing: str, code: str) -> None:
    xml = re.sub(f"<{missing}>[^<]*</{missing}>", "", SALE)
    assert f"<errorCode>{code}</errorCode>" in post_xml(sim, xml)


def test_double_encoded_xmldata_is_refused_4005(sim: SimServer) -> None:
    response = sim.http.post(
        sim.settings.xml_url,
        content=f"xmldata={quote(quote(SALE))}",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert "<errorCode>4005</errorCode>" in response.text


def test_declines_are_not_listed(sim: SimServer) -> None:
    body = post_xml(sim, SALE.replace("100.00", "100.59"))
    assert "<ssl_result>1</ssl_result>" in body
    assert "<ssl_result_message>DECLINED</ssl_result_message>" in body
    assert sim.get("transactions") == []


def test_lightbox_script_is_served_and_finds_its_own_url(sim: SimServer) -> None:
    response = sim.http.get(f"{sim.url}/hosted-payments/PayWithConverge.js")
    assert response.status_code == 200
    assert "javascript" in response.headers["content-type"]
    script = response.text
    assert "document.currentScript" in script
    assert "window.PayWithConverge" in script
    for callback in ("onApproval", "onDeclined", "onCancelled", "onError"):
        assert callback in script


def test_lightbox_page_escapes_the_token(sim: SimServer) -> None:
    page = sim.http.get(f"{sim.url}/_sim/lightbox", params={"token": "</script><b>x"}).text
    assert "</script><b>" not in page
    assert "\\u003c/script\\u003e" in page


def test_state_lists_tokens_without_card_numbers(sim: SimServer) -> None:
    post_xml(
        sim,
        SALE.replace(
            "</txn>", "<ssl_get_token>Y</ssl_get_token><ssl_add_token>Y</ssl_add_token></txn>"
        ),
    )
    state = sim.http.get(f"{sim.url}/_sim/state").text
    assert VISA not in state and '"card_masked":"40**********0002"' in state.replace(" ", "")


@pytest.mark.asyncio
async def test_app_can_mount_the_simulator_at_a_prefix() -> None:
    host = Starlette(routes=[Mount("/converge-sim", app=create_simulator_app(control=False))])
    transport = httpx.ASGITransport(app=host)
    async with httpx.AsyncClient(transport=transport, base_url="http://app") as http:
        script = await http.get("/converge-sim/hosted-payments/PayWithConverge.js")
        assert script.status_code == 200
        assert (await http.post("/converge-sim/_sim/reset")).status_code == 404
