"""Payment, refund and donation states, what a payment pays for, and the only moves allowed.

The values are the column values (``Payment.state``, ``Refund.state``, ``Donation.status``,
``Payment.purpose``, ``Refund.kind``): upper-case short strings, as the first release stored
them. Every state change goes through ``transition`` (or asks ``can_transition``), which checks
the table of the enum it is given. Converge is the truth: a sale it confirms is recorded
whatever the row said before, so DECLINED, ERROR and EXPIRED may still become APPROVED.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TypeVar

from hotmeals.domain.errors import DomainError


class PaymentState(StrEnum):
    # Row reserved (own invoice number) and a hosted session issued; no money known to move.
    CREATED = "CREATED"
    # A charge may have happened (a stored-card sale in flight or timed out, or an approval
    # that could not be checked yet): reconcile, never charge again.
    UNKNOWN = "UNKNOWN"
    # Converge confirmed the sale (txnquery, or the server's own sale answer).
    APPROVED = "APPROVED"
    # The issuer said no; the result message is kept.
    DECLINED = "DECLINED"
    # Converge refused the request (errorCode kept); nothing was charged.
    ERROR = "ERROR"
    # Reconciliation found no charge once the hosted session could no longer be used.
    EXPIRED = "EXPIRED"


class RefundState(StrEnum):
    # Reserved under the payment's lock; counts against what is refundable.
    PENDING = "PENDING"
    # Converge approved the void or return.
    SUCCEEDED = "SUCCEEDED"
    # Refused (declined or errorCode, message kept); frees the reservation.
    FAILED = "FAILED"
    # No answer; still reserved until reconciled.
    UNKNOWN = "UNKNOWN"


class RefundKind(StrEnum):
    # The whole payment, before settlement: nothing appears on the statement.
    VOID = "VOID"
    # ``ccreturn``: part or all of a payment, settled or not.
    RETURN = "RETURN"
    # To family credit: written SUCCEEDED with its ledger row, never sent to the
    # card processor; the reconciliation and the resends never see it (never open, never failed).
    CREDIT = "CREDIT"


class PaymentMethod(StrEnum):
    """What a payment row was paid with (``Payment.method``)."""

    # Converge: the Lightbox or a saved card.
    CARD = "card"
    # Family credit: APPROVED when written, with its ledger row, in the transaction that
    # places the order; never sent to Converge (its refunds go back to credit).
    CREDIT = "credit"


class DonationStatus(StrEnum):
    # Created with its payment; not paid yet.
    PENDING = "PENDING"
    # Its payment was approved.
    PAID = "PAID"
    # Its payment was declined, errored or expired.
    FAILED = "FAILED"
    # Refunded in full.
    REFUNDED = "REFUNDED"


class Purpose(StrEnum):
    """What a payment pays for; each has one handler, defined by the module that owns the
    purpose and registered with the payment service (``services/payments/purposes.py``) by
    ``services/startup.register_payment_purposes``."""

    # A new order from the cart.
    ORDER = "ORDER"
    # The increase of a modified order (added meals, a dearer date).
    ORDER_CHANGE = "ORDER_CHANGE"
    # A gift to a child's school.
    DONATION = "DONATION"
    # A card verified or saved without a charge (ccverify / ccgettoken).
    CARD_CHECK = "CARD_CHECK"


PAYMENT_ALLOWED: Mapping[PaymentState, frozenset[PaymentState]] = {
    PaymentState.CREATED: frozenset(
        {
            PaymentState.UNKNOWN,
            PaymentState.APPROVED,
            PaymentState.DECLINED,
            PaymentState.ERROR,
            PaymentState.EXPIRED,
        }
    ),
    PaymentState.UNKNOWN: frozenset(
        {PaymentState.APPROVED, PaymentState.DECLINED, PaymentState.ERROR, PaymentState.EXPIRED}
    ),
    PaymentState.DECLINED: frozenset({PaymentState.APPROVED}),
    PaymentState.ERROR: frozenset({PaymentState.APPROVED}),
    PaymentState.EXPIRED: frozenset({PaymentState.APPROVED}),
    PaymentState.APPROVED: frozenset(),
}

REFUND_ALLOWED: Mapping[RefundState, frozenset[RefundState]] = {
    RefundState.PENDING: frozenset(
        {RefundState.SUCCEEDED, RefundState.FAILED, RefundState.UNKNOWN}
    ),
    RefundState.UNKNOWN: frozenset({RefundState.SUCCEEDED, RefundState.FAILED}),
    RefundState.SUCCEEDED: frozenset(),
    RefundState.FAILED: frozenset(),
}

DONATION_ALLOWED: Mapping[DonationStatus, frozenset[DonationStatus]] = {
    DonationStatus.PENDING: frozenset({DonationStatus.PAID, DonationStatus.FAILED}),
    # Converge is the truth: a sale confirmed after a decline or an expiry still pays.
    DonationStatus.FAILED: frozenset({DonationStatus.PAID}),
    DonationStatus.PAID: frozenset({DonationStatus.REFUNDED}),
    DonationStatus.REFUNDED: frozenset(),
}

ALLOWED: Mapping[type[StrEnum], Mapping] = {
    PaymentState: PAYMENT_ALLOWED,
    RefundState: REFUND_ALLOWED,
    DonationStatus: DONATION_ALLOWED,
}

REFUND_RESERVING = frozenset({RefundState.PENDING, RefundState.SUCCEEDED, RefundState.UNKNOWN})
"""Refund rows that hold money back from being refunded again."""
PAYMENT_FAILED_STATES = frozenset({PaymentState.DECLINED, PaymentState.ERROR, PaymentState.EXPIRED})
"""Attempts that are over with nothing charged (as far as we know)."""
DONATION_HISTORY = (DonationStatus.PAID, DonationStatus.REFUNDED)
"""Donations a parent sees in their history: attempts that never went through are not."""

S = TypeVar("S", PaymentState, RefundState, DonationStatus)


def can_transition(current: str, new: S) -> bool:
    """Is ``current -> new`` in the table of ``new``'s type? Unknown strings never are."""
    table = ALLOWED[type(new)]
    try:
        return new in table[type(new)(current)]
    except ValueError:
        return False


def transition(current: str, new: S) -> S:
    """``new`` if the move is allowed, else ``DomainError("invalid_payment_transition")``."""
    if not can_transition(current, new):
        raise DomainError(
            "invalid_payment_transition",
            kind=type(new).__name__,
            current=str(current),
            new=str(new),
        )
    return new
