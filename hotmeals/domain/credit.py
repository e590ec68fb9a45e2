"""Family credit: the rules, as plain arithmetic on integer cents (docs/product.md).

A family's credit is a ledger (``db/models/credit.py``): every movement is a row and the balance
is their sum, never a number kept on the side. Where a refund is due the parent chooses where it
goes (``RefundDestination``); an order paid partly with credit remembers how much each source
paid, and its refunds go back to the sources in one documented order (``refund_split``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hotmeals.domain.errors import DomainError


class CreditKind(StrEnum):
    """Why a ledger row moved the balance (its sign follows: spend is negative)."""

    REFUND = "refund"  # a refund the parent chose to take as credit (+)
    SPEND = "spend"  # credit used to pay an order, a modification or a move (-)
    RESTORE = "restore"  # credit spent on an order that was then cancelled, given back (+)
    ADJUST = "adjust"  # an operator's correction, with a reason (+ or -)


class RefundDestination(StrEnum):
    """Where a refund of the card's share goes: back to the card (the spec's default) or to
    family credit (instant, no gateway call)."""

    CARD = "card"
    CREDIT = "credit"


class ClosureChoice(StrEnum):
    """What happens to a booked meal on a day the school closes after it was booked."""

    CARD = "card"  # refund to the card (the default)
    CREDIT = "credit"  # family credit
    MAKEUP = "makeup"  # the meal moves to the next day the same vendor serves the school


SIGNS = {CreditKind.REFUND: 1, CreditKind.SPEND: -1, CreditKind.RESTORE: 1}


def signed_amount(kind: CreditKind, amount_cents: int) -> int:
    """The ledger row's amount: positive cents in, signed by ``kind`` (an adjustment is given
    with its sign). Zero moves nothing and is refused, as is a non-integer."""
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int):
        raise DomainError("credit_amount_invalid")
    if kind is CreditKind.ADJUST:
        if amount_cents == 0:
            raise DomainError("credit_amount_invalid")
        return amount_cents
    if amount_cents <= 0:
        raise DomainError("credit_amount_invalid")
    return SIGNS[kind] * amount_cents


@dataclass(frozen=True)
class PaymentSplit:
    """How a total is paid: credit first, the card for the rest."""

    credit_cents: int
    card_cents: int


def payment_split(total_cents: int, balance_cents: int, *, use_credit: bool = True) -> PaymentSplit:
    """Credit is used first: it covers everything (no card needed) or part (the card pays the
    rest). A negative balance (an operator's correction) is never spent."""
    if total_cents < 0:
        raise DomainError("credit_amount_invalid")
    credit = min(total_cents, max(balance_cents, 0)) if use_credit else 0
    return PaymentSplit(credit_cents=credit, card_cents=total_cents - credit)


@dataclass(frozen=True)
class RefundSplit:
    """Where a refund goes: back to credit (what credit paid), back to the card, or the card's
    share to credit at the parent's choice."""

    to_credit_cents: int  # credit's own share, restored to credit
    card_share_cents: int  # the card's share ...
    card_share_to: RefundDestination  # ... refunded to the card, or given as credit

    @property
    def card_refund_cents(self) -> int:
        return self.card_share_cents if self.card_share_to is RefundDestination.CARD else 0

    @property
    def credit_cents(self) -> int:
        """Everything that lands in the family's credit."""
        extra = self.card_share_cents if self.card_share_to is RefundDestination.CREDIT else 0
        return self.to_credit_cents + extra


def refund_split(
    refund_cents: int,
    *,
    paid_by_credit: int,
    paid_by_card: int,
    refunded_to_credit: int = 0,
    refunded_from_card: int = 0,
    destination: RefundDestination = RefundDestination.CARD,
) -> RefundSplit:
    """Split a refund of an order between its sources, in this order: what credit paid goes back
    to credit first, then what the card paid goes back to the card (or, at the parent's choice,
    to credit). Never more than each source paid, less what earlier refunds gave back from it."""
    credit_left = paid_by_credit - refunded_to_credit
    card_left = paid_by_card - refunded_from_card
    if refund_cents < 0 or credit_left < 0 or card_left < 0:
        raise DomainError("credit_amount_invalid")
    if refund_cents > credit_left + card_left:
        raise DomainError("refund_exceeds_paid")
    to_credit = min(refund_cents, credit_left)
    return RefundSplit(
        to_credit_cents=to_credit,
        card_share_cents=refund_cents - to_credit,
        card_share_to=destination,
    )
