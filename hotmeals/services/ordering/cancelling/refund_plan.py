"""The money of a loaded order after a cancel or a change, with the order's stored terms: what
its remaining meals cost and what goes back to the card (``domain.refunds``: what was paid,
minus what is refunded or on its way or still owed, minus what the remaining meals cost)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlmodel import Session

from hotmeals.db.models import Refund
from hotmeals.domain.charges import OrderCharges, compute_charges
from hotmeals.domain.credit import RefundDestination, RefundSplit, refund_split
from hotmeals.domain.pricing import LinePrice
from hotmeals.domain.refunds import CancelRefund, plan_cancel_refund
from hotmeals.services.ordering.loaded_order import LoadedOrder, load_order
from hotmeals.services.payments.records import RESERVING, owed_failed, paid_by_credit


def refund_plan(
    loaded: LoadedOrder, quantities: Mapping[int, int], *, held_cents: int | None = None
) -> CancelRefund:
    """Cancel ``quantities[line_id]`` meals of the order's active lines (none: nothing) and
    re-price what remains. ``held_cents``: what is already refunded or on its way (default:
    every refund reserved or still owed, ``LoadedOrder.reserved_refund_cents``)."""
    sold = loaded.sold_lines()
    held = loaded.reserved_refund_cents if held_cents is None else held_cents
    return plan_cancel_refund(
        lines=[inp for _, inp in sold],
        cancel_quantities=[quantities.get(line.id or 0, 0) for line, _ in sold],
        paid_cents=loaded.paid_cents,
        refunded_cents=min(held, loaded.paid_cents),
        terms=loaded.terms(),
        school_donation_cents=loaded.order.school_donation_cents,
        additional_charge_cents=loaded.order.additional_charge_cents,
    )


def refund_sources(
    loaded: LoadedOrder, refund_cents: int, destination: RefundDestination
) -> RefundSplit:
    """Where a refund of ``refund_cents`` of the order goes (``domain.credit.refund_split``):
    what family credit paid back to credit first, the rest to the card or, as ``destination``
    says, to credit; what earlier refunds hold (reserved, succeeded or still owed) is not
    given again. The refund's writer (``payments.refunds``) splits it the same way."""
    by_credit = {p.id for p in loaded.payments if paid_by_credit(p)}
    held = [r for r in loaded.refunds if r.state in RESERVING or owed_failed(r)]
    credit_paid = sum(p.amount_cents for p in loaded.payments if p.id in by_credit)
    return refund_split(
        refund_cents,
        paid_by_credit=credit_paid,
        paid_by_card=loaded.paid_cents - credit_paid,
        refunded_to_credit=sum(r.amount_cents for r in held if r.payment_id in by_credit),
        refunded_from_card=sum(r.amount_cents for r in held if r.payment_id not in by_credit),
        destination=destination,
    )


def order_charges(loaded: LoadedOrder, prices: Sequence[LinePrice]) -> OrderCharges:
    """The charges of the order with the lines ``prices``, on its stored terms (rates, promo,
    school donation and additional charge; nothing at all without a line)."""
    terms = loaded.terms()
    order = loaded.order
    return compute_charges(
        list(prices),
        terms.rates,
        terms.promo,
        school_donation_cents=order.school_donation_cents if prices else 0,
        additional_charge_cents=order.additional_charge_cents if prices else 0,
    )


def still_owed_by_order(session: Session, refund: Refund) -> int:
    """How much of a FAILED ``refund`` of an order is still owed, under the order's lock (the
    payment service sends it again with ``refunds.resend_failed_refunds``): at most the
    refund itself, capped by the refund arithmetic (what was paid, minus what is refunded or
    on its way or still owed by other failed refunds, minus what the remaining meals cost), so
    money another refund already gave back is never sent twice."""
    if refund.order_id is None:
        return refund.amount_cents
    loaded = load_order(session, order_id=refund.order_id, parent_id=None)
    held = sum(
        r.amount_cents
        for r in loaded.refunds
        if r.id != refund.id and (r.state in RESERVING or owed_failed(r))
    )
    due = refund_plan(loaded, {}, held_cents=held).refund_cents
    return max(0, min(refund.amount_cents, due))
