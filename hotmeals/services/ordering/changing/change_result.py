"""What a confirmed change (or a move) did, for the parent: ``ChangeResult`` read back from
the change and its payment, and what the parent reads of it (``change_message``)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import func
from sqlmodel import Session, col, select

from hotmeals.db.models import Order, OrderChange, Payment, Refund
from hotmeals.domain.money import format_money
from hotmeals.domain.payment_states import PaymentMethod, RefundKind
from hotmeals.domain.refunds import change_refund_reason
from hotmeals.i18n import t
from hotmeals.services.ordering.changing.change_plan import (
    APPLIED,
    DROPPED,
    LIVE,
    change_credit_share,
)
from hotmeals.services.ordering.mails import refund_notice
from hotmeals.services.payments import HostedSession


@dataclass(frozen=True)
class ChangeResult:
    """What a confirmed change (or a move) did. ``status``: ``applied`` (the order changed;
    ``refund_cents`` on its way back to the card, or nothing to pay), ``pay`` (open the
    Lightbox with ``hosted``), ``pending`` (the payment is being confirmed), ``declined``
    (nothing changed; the draft is kept for another try), ``dropped`` (the payment came but the
    change could no longer be applied: the charge is voided). ``notice``: what the parent is
    told (the catalogue's message, written by ``change_message``), with the amount it names
    (``notice_cents``) and a decline's ``reason``."""

    status: str
    order_id: int
    order_number: str
    change_id: int
    difference_cents: int
    notice: str
    payment_id: int | None = None
    hosted: HostedSession | None = None
    refund_cents: int = 0
    refund_ok: bool = True
    # Of the refund, what went to family credit (done at once); of an increase, what family
    # credit paid.
    credit_cents: int = 0
    notice_cents: int = 0
    reason: str = ""


def change_message(result: ChangeResult, lang: str) -> str:
    """What the parent reads of ``result``, in ``lang`` (the answer's message at both
    doors): a refund partly or wholly to family credit says where it goes
    (``mails.refund_notice``); every other notice names the order, its amount and reason."""
    if result.notice == "credit.change_refund":
        notice = refund_notice(-result.difference_cents, lang, credit_cents=result.credit_cents)
        return t(result.notice, lang, number=result.order_number, notice=notice)
    return t(
        result.notice,
        lang,
        number=result.order_number,
        amount=format_money(result.notice_cents, lang),
        reason=result.reason,
    )


def _credited(session: Session, order: Order, change: OrderChange) -> int:
    """What the refund of this applied change gave to family credit (one statement)."""
    total = session.exec(
        select(func.coalesce(func.sum(Refund.amount_cents), 0)).where(
            col(Refund.order_id) == order.id,
            col(Refund.reason) == change_refund_reason(change.id),
            col(Refund.kind) == RefundKind.CREDIT,
        )
    ).one()
    return int(total)


def _applied_notice(
    change: OrderChange, credit_cents: int, paid_by_credit_alone: bool, refund_ok: bool
) -> tuple[str, int]:
    """The notice of an applied change and the amount it names."""
    diff = change.amount_cents
    if not refund_ok:
        return "order_change.refund_later", -diff
    if diff < 0 and credit_cents > 0:
        return "credit.change_refund", -diff
    if diff < 0:
        return "order_change.applied_refund", -diff
    if diff > 0 and paid_by_credit_alone:
        return "credit.change_paid", diff
    if diff > 0:  # what the card paid: the increase less family credit's share
        return "order_change.applied_paid", diff - credit_cents
    return "order_change.applied_even", 0


def result_of(
    session: Session,
    *,
    change_id: int,
    refund_cents: int = 0,
    refund_ok: bool = True,
    credit_cents: int | None = None,
) -> ChangeResult:
    change = session.get(OrderChange, change_id)
    assert change is not None
    order = session.get(Order, change.order_id)
    assert order is not None
    payment = session.get(Payment, change.payment_id) if change.payment_id else None
    common = ChangeResult(
        status="",
        order_id=order.id or 0,
        order_number=order.number,
        change_id=change.id or 0,
        difference_cents=change.amount_cents,
        notice="",
        payment_id=change.payment_id,
    )
    if change.state == APPLIED:
        refund_cents = refund_cents or max(-change.amount_cents, 0)
        if credit_cents is None:  # a repeat: what the first confirm gave to credit
            credit_cents = _credited(session, order, change) if change.amount_cents < 0 else 0
        by_credit = payment is not None and payment.method == PaymentMethod.CREDIT
        if by_credit and payment is not None:
            credit_cents = payment.amount_cents
        elif change.amount_cents > 0:  # credit's share besides the card (0: the card alone)
            credit_cents = change_credit_share(change, payment)
        notice, cents = _applied_notice(change, credit_cents, by_credit, refund_ok)
        return replace(
            common,
            status="applied",
            notice=notice,
            notice_cents=cents,
            refund_cents=refund_cents,
            refund_ok=refund_ok,
            credit_cents=credit_cents,
        )
    if change.state == DROPPED:
        return replace(
            common,
            status="dropped",
            notice="order_change.dropped",
            # The card's charge (the increase less the credit's share, never spent).
            notice_cents=max(change.amount_cents, 0) - change_credit_share(change, payment),
        )
    if payment is not None and payment.state in LIVE:
        return replace(common, status="pending", notice="order_change.pending")
    reason = (payment.result_message if payment else None) or "DECLINED"
    # The Lightbox closed (onCancelled) or failed (onError): not a decline of the card.
    key = (
        "order_change.not_completed"
        if reason.strip().upper() in ("CANCELLED", "CANCELED", "ERROR")
        else "order_change.declined"
    )
    return replace(common, status="declined", notice=key, reason=reason)
