"""Converge's wire amounts, card masks and what confirms a sale (hotmeals/converge/gateway.py):
pure functions, no simulator."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hotmeals.converge.gateway import (
    MAX_CENTS,
    TxnQueryResult,
    amount_to_cents,
    cents_to_amount,
    mask_card_number,
)


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
