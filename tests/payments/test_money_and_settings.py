"""Wire amounts and settings: pure functions, no simulator."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hotmeals.converge.configured import settings_from_env, simulator_pin, simulator_settings
from hotmeals.converge.gateway import (
    MAX_CENTS,
    TxnQueryResult,
    amount_to_cents,
    cents_to_amount,
    mask_card_number,
)

CREDS = {
    "CONVERGE_MERCHANT_ID": "123456",
    "CONVERGE_USER_ID": "apiuser",
    "CONVERGE_PIN": "S3CRET-PIN-THAT-IS-LONG",
}


@pytest.mark.parametrize(
    ("cents", "text"), [(0, "0.00"), (5, "0.05"), (50, "0.50"), (1250, "12.50"), (2222, "22.22")]
)
def test_cents_to_amount_writes_two_decimals(cents: int, text: str) -> None:
    assert cents_to_amount(cents) == text


@pytest.mark.parametrize(
    ("text", "cents"), [("12.50", 1250), ("12.5", 1250), ("12", 1200), (".37", 37), ("0.05", 5)]
)
def test_amount_to_cents_reads_converge_spellings(text: str, cents: int) -> None:
    assert amount_to_cents(text) == cents


@pytest.mark.parametrize("bad", ["", ".", "12.", "1.234", "-1.00", "1,000.00", "abc", "1e3"])
def test_amount_to_cents_rejects_what_is_not_an_amount(bad: str) -> None:
    with pytest.raises(ValueError):
        amount_to_cents(bad)


@pytest.mark.parametrize("bad", [12.5, True, "1250"])
def test_cents_to_amount_accepts_only_integer_cents(bad: object) -> None:
    with pytest.raises(TypeError):
        cents_to_amount(bad)  # type: ignore[arg-type]


def test_cents_to_amount_refuses_out_of_range() -> None:
    for bad in (-1, MAX_CENTS + 1):
        with pytest.raises(ValueError):
            cents_to_amount(bad)


@given(st.integers(min_value=0, max_value=MAX_CENTS))
def test_amount_round_trip_is_exact(cents: int) -> None:
    assert amount_to_cents(cents_to_amount(cents)) == cents


def test_mask_keeps_first_two_and_last_four() -> None:
    assert mask_card_number("4124939999999990") == "41**********9990"
    assert mask_card_number("370000000000002") == "37*********0002"


def test_confirms_sale_checks_amount_invoice_status_and_type() -> None:
    paid = TxnQueryResult(
        found=True,
        txn_id="T1",
        status="OPN",
        transaction_type="SALE",
        amount_cents=1250,
        invoice_number="HM-1",
        result_message="APPROVAL",
    )
    assert paid.confirms_sale(amount_cents=1250, invoice_number="HM-1")
    assert not paid.confirms_sale(amount_cents=1249, invoice_number="HM-1")
    assert not paid.confirms_sale(amount_cents=1250, invoice_number="HM-2")
    for status in ("PEN", "REV", "FPR", "PRE", "PST"):
        other = replace(paid, status=status)
        assert not other.confirms_sale(amount_cents=1250, invoice_number="HM-1")
    refund = replace(paid, transaction_type="RETURN")
    assert not refund.confirms_sale(amount_cents=1250, invoice_number="HM-1")
    assert not TxnQueryResult(found=False, txn_id="T1").confirms_sale(
        amount_cents=0, invoice_number=""
    )


def test_no_credentials_means_the_simulator_under_the_public_url() -> None:
    settings = settings_from_env("http://localhost:1805/", environ={})
    assert settings.simulated
    assert settings.base_url == "http://localhost:1805/converge-sim"
    assert (settings.merchant_id, settings.user_id, settings.pin) == (
        "000000",
        "hotmeals",
        simulator_pin(),
    )
    assert len(settings.pin) == 64  # generated like a real Converge PIN, not written anywhere
    assert (
        settings.xml_url == "http://localhost:1805/converge-sim/VirtualMerchantDemo/processxml.do"
    )
    assert settings.lightbox_script_url.endswith("/converge-sim/hosted-payments/PayWithConverge.js")


def test_real_credentials_default_to_the_demo_host() -> None:
    settings = settings_from_env("http://localhost:1805", environ=CREDS)
    assert not settings.simulated
    assert settings.base_url == "https://api.demo.convergepay.com"
    assert settings.xml_path == "/VirtualMerchantDemo/processxml.do"
    assert not settings.is_production


def test_production_host_uses_the_production_xml_path() -> None:
    env = {**CREDS, "CONVERGE_BASE_URL": "https://api.convergepay.com/"}
    settings = settings_from_env("https://hotmeals.example", environ=env)
    assert settings.is_production
    assert settings.xml_url == "https://api.convergepay.com/VirtualMerchant/processxml.do"
    assert settings.session_token_url == (
        "https://api.convergepay.com/hosted-payments/transaction_token"
    )


def test_incomplete_credentials_are_refused_without_echoing_values() -> None:
    env = {"CONVERGE_MERCHANT_ID": "123456", "CONVERGE_PIN": "S3CRET-PIN-THAT-IS-LONG"}
    with pytest.raises(ValueError, match="CONVERGE_USER_ID") as info:
        settings_from_env("http://localhost:1805", environ=env)
    assert "S3CRET" not in str(info.value)


def test_real_credentials_are_never_sent_over_plain_http() -> None:
    env = {**CREDS, "CONVERGE_BASE_URL": "http://api.convergepay.com"}
    with pytest.raises(ValueError):
        settings_from_env("http://localhost:1805", environ=env)


def test_pin_is_not_in_repr_or_str() -> None:
    settings = settings_from_env("http://localhost:1805", environ=CREDS)
    assert "S3CRET" not in repr(settings)
    assert "S3CRET" not in str(settings)
    assert simulator_pin() not in repr(simulator_settings("http://localhost:1805"))
