"""Payment, refund and donation states: one table each, one ``transition`` check."""

from __future__ import annotations

import pytest

from hotmeals.domain.errors import DomainError
from hotmeals.domain.payment_states import (
    ALLOWED,
    DonationStatus,
    PaymentState,
    RefundState,
    can_transition,
    transition,
)


@pytest.mark.parametrize("enum", [PaymentState, RefundState, DonationStatus])
def test_every_state_has_a_row_in_its_table(enum):
    assert set(ALLOWED[enum]) == set(enum)


def test_converge_is_the_truth_a_confirmed_sale_moves_a_failed_payment_to_approved():
    for failed in (PaymentState.DECLINED, PaymentState.ERROR, PaymentState.EXPIRED):
        assert transition(failed, PaymentState.APPROVED) is PaymentState.APPROVED


def test_an_approved_payment_never_moves_again():
    for state in PaymentState:
        assert not can_transition(PaymentState.APPROVED, state)
    with pytest.raises(DomainError) as info:
        transition("APPROVED", PaymentState.DECLINED)
    assert info.value.code == "invalid_payment_transition"
    assert info.value.params == {"kind": "PaymentState", "current": "APPROVED", "new": "DECLINED"}


def test_refunds_settle_once():
    assert can_transition("PENDING", RefundState.UNKNOWN)
    assert can_transition("UNKNOWN", RefundState.SUCCEEDED)
    assert not can_transition("SUCCEEDED", RefundState.FAILED)
    assert not can_transition("FAILED", RefundState.SUCCEEDED)


def test_donation_is_refunded_only_once_paid():
    assert not can_transition(DonationStatus.PENDING, DonationStatus.REFUNDED)
    assert can_transition(DonationStatus.PAID, DonationStatus.REFUNDED)
    assert can_transition(DonationStatus.FAILED, DonationStatus.PAID)


def test_unknown_strings_are_never_allowed():
    assert not can_transition("paid", PaymentState.APPROVED)
    assert not can_transition("pending", DonationStatus.PAID)  # column values are upper case
