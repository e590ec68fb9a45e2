"""What an order's payments do: the ORDER and ORDER_CHANGE purposes, registered with the
payment service by ``services/startup.py`` (``services/payments/purposes.py`` keeps the
registry and calls them in the transaction that records an outcome, under the payment's row
lock), and the reconciliation round's sweep of order money that paid for nothing.

- ORDER: a new order, PENDING_PAYMENT (or PAYMENT_FAILED, retried), is placed or cancelled
  by the checkout when its payment is approved; a failed attempt leaves it PAYMENT_FAILED.
- ORDER_CHANGE: the increase of a modified order, paid on top of the first payment, applies
  the change (or drops it when it cannot be applied any more).
- Both queue the parent's refund e-mail when a refund is answered, and say how much of a
  failed refund the order still owes before it is sent again.

The ordering modules these call are imported here and nowhere else in the payment code.
"""

from __future__ import annotations

from sqlmodel import Session

from hotmeals.clock import now as utcnow
from hotmeals.db.models import Order, Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import PAID_STATUSES, OrderStatus
from hotmeals.domain.orders import can_transition as order_can_move
from hotmeals.domain.payment_states import Purpose
from hotmeals.services.ordering import lifecycle, mails, settle
from hotmeals.services.ordering.cancelling import refund_plan
from hotmeals.services.ordering.changing import change_apply, change_payment
from hotmeals.services.ordering.order_events import audit_order
from hotmeals.services.payments.purposes import PurposeHandler
from hotmeals.services.payments.records import lock_row
from hotmeals.services.runtime import APP, Runtime


def _order_of(session: Session, payment: Payment) -> Order:
    if payment.order_id is None:
        raise DomainError("payment_purpose_invalid")
    order = lock_row(session, Order, payment.order_id)
    if order is None:
        raise DomainError("payment_order_not_found")
    return order


def _note_unexpected_money(session: Session, order: Order, payment: Payment, kind: str) -> None:
    """Keep the evidence of an approval the order was not waiting for."""
    audit_order(
        session,
        order,
        kind=kind,
        data={"payment_id": payment.id, "status": order.status},
    )


class OrderPayment(PurposeHandler):
    """A new order: PENDING_PAYMENT (or PAYMENT_FAILED, retried) becomes PLACED when its
    payment is approved; a failed attempt leaves it PAYMENT_FAILED for another try."""

    purpose = Purpose.ORDER

    def reserved(self, session: Session, payment: Payment) -> None:
        order = _order_of(session, payment)
        lifecycle.retry_payment(session, order, now=utcnow(), payment_id=payment.id, why="card")

    def approved(self, session: Session, payment: Payment) -> None:
        order = _order_of(session, payment)
        now = utcnow()
        # An approval of an attempt written off as failed: pending again, then placed.
        lifecycle.retry_payment(session, order, now=now, payment_id=payment.id, why="approved")
        if order_can_move(order.status, OrderStatus.PLACED):
            # The checkout places it (every cut-off still open: the cart lines it was made
            # from go, the confirmation e-mail is queued) or cancels it (a cut-off passed:
            # the charge is voided by the checkout or the reconciliation).
            settle.place_or_cancel(session, order, payment)
        else:
            # Money arrived for an order that is not waiting for it (cancelled meanwhile, or
            # already placed): keep the evidence; the checkout (or the reconciliation's
            # ``void_stray_order_payments``) voids such a charge.
            _note_unexpected_money(session, order, payment, "order.paid_when_not_pending")
        order.updated_at = now
        session.add(order)

    def failed(self, session: Session, payment: Payment) -> None:
        lifecycle.fail_payment(
            session, _order_of(session, payment), now=utcnow(), payment_id=payment.id
        )

    def refunded(self, session: Session, payment: Payment, refund: Refund) -> None:
        # The total refund is the sum of succeeded refunds; the status after a cancel is the
        # cancel's to decide (it knows which lines went). Only the order's clock moves.
        order = _order_of(session, payment)
        order.updated_at = utcnow()
        session.add(order)

    def refund_answered(
        self, session: Session, payment: Payment, refund: Refund, *, first: bool
    ) -> None:
        mails.queue_refund_mail(session, refund, first=first)

    def still_owed(self, session: Session, payment: Payment, refund: Refund) -> int:
        return refund_plan.still_owed_by_order(session, refund)


class OrderChangePayment(OrderPayment):
    """The increase of a modified order, paid on top of the order's first payment. The order
    stays paid either way; an approval for an order that is no longer open is recorded. Its
    refunds are the order's (``refunded``, ``refund_answered``, ``still_owed``)."""

    purpose = Purpose.ORDER_CHANGE

    def reserved(self, session: Session, payment: Payment) -> None:
        return None

    def approved(self, session: Session, payment: Payment) -> None:
        order = _order_of(session, payment)
        # The change it pays for is applied now, or dropped when it cannot be any more (then
        # the charge is voided by the change's completion call or the reconciliation).
        change_apply.apply_paid_change(session, order, payment)
        if OrderStatus(order.status) not in PAID_STATUSES:
            _note_unexpected_money(session, order, payment, "order.change_paid_when_closed")
        order.updated_at = utcnow()
        session.add(order)

    def failed(self, session: Session, payment: Payment) -> None:
        _order_of(session, payment)  # nothing changes: the change is applied only once paid


async def void_stray_order_payments(*, runtime: Runtime = APP) -> None:
    """The reconciliation round's part for orders: an approved order payment whose order was
    not placed (a cut-off passed before the approval, the cart was checked out again) is
    voided, and likewise an approved payment of an order change that could not be applied
    any more: no money is kept without what it paid for."""
    await settle.void_orphan_payments(runtime=runtime)
    await change_payment.void_dropped_change_payments(runtime=runtime)
