"""How much to refund when a parent cancels some quantities of some lines.

The refund is what the parent has paid, net of earlier refunds, minus what the order still
costs after the cancel:

    refund = (paid - refunded) - charges_of_what_remains

clamped to ``[0, paid - refunded]``. Re-pricing what remains (rather than pricing what is
cancelled) keeps every rule in one place: a smaller quantity can fall into a dearer price tier,
a promo can stop applying below its minimum order, a line's special-note fee is refunded only
with the line's last meal, and the fixed part of the card fee and the school donation are
refunded only when the last line goes. So sequential refunds always add up to at most what was
paid, and to exactly what was paid once everything is cancelled (nothing remains: total 0).

If re-pricing what remains costs more than is left (the promo's minimum is no longer met), the
refund is 0; the parent is never charged more by a cancel.

Everything is re-priced with what the order stored at payment: each line's tiers, option,
add-on and note-fee prices (``sold_line``) and the order's rates and promo terms
(``charges.OrderTerms.from_stored``), so a price, tax or promo change after the sale never
changes a refund.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from hotmeals.domain.charges import ChargeRates, OrderCharges, OrderTerms, Promo, compute_charges
from hotmeals.domain.errors import DomainError
from hotmeals.domain.pricing import LineInput, price_line, tiers_from_text


def _non_negative_int(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name} must be a non-negative int of cents")
    return value


def sold_line(
    *,
    price_tiers: str,
    quantity: int,
    menu_option_cents: int = 0,
    meal_option_cents: int = 0,
    addon_cents: Sequence[int] = (),
    special_note: str | None = None,
    special_note_fee_cents: int = 0,
) -> LineInput:
    """An order line's still-active quantity as a ``LineInput``, priced as it was sold (the
    stored columns of ``OrderLine`` and its ``OrderLineAddOn`` rows)."""
    return LineInput(
        portion_tiers=tiers_from_text(price_tiers),
        quantity=quantity,
        option_cents=(menu_option_cents, meal_option_cents),
        addon_cents=tuple(addon_cents),
        special_note=special_note,
        special_note_fee_cents=special_note_fee_cents,
    )


def refund_for_cancel(
    paid_cents: int, refunded_cents: int, remaining_charges_total_cents: int
) -> int:
    """``(paid - refunded) - remaining``, clamped to ``[0, paid - refunded]``."""
    paid = _non_negative_int(paid_cents, "paid_cents")
    refunded = _non_negative_int(refunded_cents, "refunded_cents")
    remaining = _non_negative_int(remaining_charges_total_cents, "remaining_charges_total_cents")
    if refunded > paid:
        raise ValueError("more refunded than paid: the payment records are inconsistent")
    refundable = paid - refunded
    return max(0, min(refundable, refundable - remaining))


def remaining_lines(
    lines: Sequence[LineInput], cancel_quantities: Sequence[int]
) -> list[LineInput]:
    """The lines left after cancelling ``cancel_quantities[i]`` meals of ``lines[i]``.

    ``lines`` are the order's current (still active) lines, with their current quantities.
    A line whose quantity drops to 0 is gone. Each cancel quantity is 0..the line's quantity,
    else ``DomainError("invalid_cancel_quantity")``.
    """
    if len(cancel_quantities) != len(lines):
        raise ValueError("one cancel quantity per line")
    kept: list[LineInput] = []
    for line, cancel in zip(lines, cancel_quantities, strict=True):
        if (
            not isinstance(cancel, int)
            or isinstance(cancel, bool)
            or not 0 <= cancel <= line.quantity
        ):
            raise DomainError("invalid_cancel_quantity", field="quantity", max=line.quantity)
        left = line.quantity - cancel
        if left:
            kept.append(replace(line, quantity=left))
    return kept


def _charges_of(
    lines: Sequence[LineInput],
    rates: ChargeRates,
    promo: Promo | None,
    school_donation_cents: int,
    additional_charge_cents: int,
) -> OrderCharges:
    return compute_charges(
        [price_line(line) for line in lines],
        rates,
        promo,
        school_donation_cents=school_donation_cents,
        additional_charge_cents=additional_charge_cents,
    )


def remaining_charges(
    lines: Sequence[LineInput],
    cancel_quantities: Sequence[int],
    rates: ChargeRates,
    promo: Promo | None = None,
    school_donation_cents: int = 0,
    additional_charge_cents: int = 0,
) -> OrderCharges:
    """The charges of the order as it will be after the cancel."""
    kept = remaining_lines(lines, cancel_quantities)
    return _charges_of(kept, rates, promo, school_donation_cents, additional_charge_cents)


@dataclass(frozen=True)
class CancelRefund:
    refund_cents: int
    """To send back to the card now."""
    remaining: OrderCharges
    """The order's charges after the cancel; ``total_refund_cents`` includes this refund."""
    remaining_lines: list[LineInput]


def plan_cancel_refund(
    *,
    lines: Sequence[LineInput],
    cancel_quantities: Sequence[int],
    paid_cents: int,
    refunded_cents: int,
    rates: ChargeRates | None = None,
    promo: Promo | None = None,
    terms: OrderTerms | None = None,
    school_donation_cents: int = 0,
    additional_charge_cents: int = 0,
) -> CancelRefund:
    """Re-price what remains and work out the refund for this cancel. Pass the order's stored
    ``terms`` (or ``rates`` and ``promo`` explicitly, not both)."""
    if terms is not None:
        if rates is not None or promo is not None:
            raise ValueError("pass terms, or rates and promo, not both")
        rates, promo = terms.rates, terms.promo
    if rates is None:
        raise ValueError("the order's rates are needed to re-price it")
    kept = remaining_lines(lines, cancel_quantities)
    charges = _charges_of(kept, rates, promo, school_donation_cents, additional_charge_cents)
    refund = refund_for_cancel(paid_cents, refunded_cents, charges.total_pay_cents)
    return CancelRefund(
        refund_cents=refund,
        remaining=replace(charges, total_refund_cents=refunded_cents + refund),
        remaining_lines=kept,
    )


class RefundReason(StrEnum):
    """Why the app itself gives a whole payment back, written on its refund row (a parent's
    cancel or change writes its own text)."""

    ORDER_NOT_PLACED = "order not placed: the charge is voided"
    CHANGE_NOT_APPLIED = "order change not applied: the charge is voided"
    DUPLICATE_SALE = "duplicate sale: voided"
