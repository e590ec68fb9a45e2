"""What a payment pays for: one handler per purpose, registered here and nowhere else.

A payment row says what it is for (``Payment.purpose``, a ``domain.payments.Purpose``). When
the payment service records an outcome it calls that purpose's handler, in the same
transaction and under the payment's row lock:

- ``approved``: Converge confirmed the sale (whether the browser's Lightbox or the server's
  saved-card sale produced it, and whether confirmation or reconciliation found it);
- ``failed``: declined, refused or expired: nothing was charged;
- ``refunded``: a refund of the payment succeeded (void or return);
- ``refund_answered``: a refund's outcome was recorded (succeeded, failed or unknown): the
  order purposes queue the parent's refund e-mail there (``orders.queue_refund_mail``), so it
  is written once, with the state change that caused it.

Handlers change only what the payment is for (the order, the donation) and write no money:
payments and refunds are rows of their own, and what was paid or refunded is a sum over them
(``records.order_paid_cents``, ``records.order_refunded_cents``). The menu-and-checkout and
after-purchase work extends the order handlers below; a new purpose is a new class and one
line in ``HANDLERS``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from sqlalchemy import update
from sqlmodel import Session

from hotmeals.db.models import Donation, Order, Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import PAID_STATUSES, OrderStatus
from hotmeals.domain.orders import can_transition as order_can_move
from hotmeals.domain.orders import transition as order_transition
from hotmeals.domain.payments import DonationStatus, Purpose, RefundState, can_transition
from hotmeals.services.clock import now as utcnow
from hotmeals.services.payments.records import audit, lock_row, refund_sum


class PurposeHandler(ABC):
    """The effects of one purpose's payment outcomes on what it pays for."""

    purpose: ClassVar[Purpose]

    def reserved(self, session: Session, payment: Payment) -> None:
        """A new attempt was written (same transaction); most purposes have nothing to do."""
        return None

    @abstractmethod
    def approved(self, session: Session, payment: Payment) -> None: ...

    @abstractmethod
    def failed(self, session: Session, payment: Payment) -> None: ...

    @abstractmethod
    def refunded(self, session: Session, payment: Payment, refund: Refund) -> None: ...

    def refund_answered(
        self, session: Session, payment: Payment, refund: Refund, *, first: bool
    ) -> None:
        """``refund`` moved to SUCCEEDED, FAILED or UNKNOWN (same transaction, under the
        payment's lock: once per move). ``first``: Converge's own answer to the request, not
        a later reconciliation. Nothing to do by default."""
        return None

    def still_owed(self, session: Session, payment: Payment, refund: Refund) -> int:
        """How much of the FAILED ``refund`` is still owed, under the payment's lock, before
        it is sent again (issue 21). By default all of it (the payment's own refundable sum
        caps it anyway)."""
        return refund.amount_cents


def _order_refund_mail(session: Session, refund: Refund, first: bool) -> None:
    from hotmeals.services.ordering.mails import queue_refund_mail

    queue_refund_mail(session, refund, first=first)


def _order_still_owes(session: Session, refund: Refund) -> int:
    from hotmeals.services.ordering.refund_plan import still_owed_by_order

    return still_owed_by_order(session, refund)


def _set_donation(session: Session, donation_id: int, to: DonationStatus) -> bool:
    """Move a donation to ``to`` if its table allows it from where it is (a conditional
    UPDATE per allowed source state, so a concurrent writer changes nothing twice)."""
    sources = [s for s in DonationStatus if can_transition(s, to)]
    moved = session.execute(
        update(Donation)
        .where(Donation.id == donation_id, Donation.status.in_(sources))
        .values(status=to)
        .execution_options(synchronize_session=False)
    ).rowcount
    return moved == 1


class DonationPayment(PurposeHandler):
    """A gift to a school: PAID once approved, FAILED if its only attempt failed, REFUNDED
    when refunds add up to the whole amount."""

    purpose = Purpose.DONATION

    def approved(self, session: Session, payment: Payment) -> None:
        if payment.donation_id is None:
            raise DomainError("payment_purpose_invalid")
        _set_donation(session, payment.donation_id, DonationStatus.PAID)

    def failed(self, session: Session, payment: Payment) -> None:
        if payment.donation_id is not None:
            _set_donation(session, payment.donation_id, DonationStatus.FAILED)

    def refunded(self, session: Session, payment: Payment, refund: Refund) -> None:
        if payment.duplicate_of_id is not None:
            return  # a duplicate sale voided: the gift stands on its own payment
        refunded = refund_sum(session, payment.id, (RefundState.SUCCEEDED,))
        if payment.donation_id is not None and refunded >= payment.amount_cents:
            _set_donation(session, payment.donation_id, DonationStatus.REFUNDED)


def _order_of(session: Session, payment: Payment) -> Order:
    if payment.order_id is None:
        raise DomainError("payment_purpose_invalid")
    order = lock_row(session, Order, payment.order_id)
    if order is None:
        raise DomainError("payment_order_not_found")
    return order


class OrderPayment(PurposeHandler):
    """A new order: PENDING_PAYMENT (or PAYMENT_FAILED, retried) becomes PLACED when its
    payment is approved; a failed attempt leaves it PAYMENT_FAILED for another try."""

    purpose = Purpose.ORDER

    def reserved(self, session: Session, payment: Payment) -> None:
        order = _order_of(session, payment)
        if order.status == OrderStatus.PAYMENT_FAILED:  # a retry: a new attempt is pending
            order.status = order_transition(order.status, OrderStatus.PENDING_PAYMENT)
            order.updated_at = utcnow()
            session.add(order)

    def approved(self, session: Session, payment: Payment) -> None:
        order = _order_of(session, payment)
        now = utcnow()
        if order.status == OrderStatus.PAYMENT_FAILED:
            # Converge confirmed a sale of an attempt we had written off: it is paid.
            order.status = order_transition(order.status, OrderStatus.PENDING_PAYMENT)
        if order_can_move(order.status, OrderStatus.PLACED):
            # The checkout places it (every cut-off still open: the cart lines it was made
            # from go, the confirmation e-mail is queued) or cancels it (a cut-off passed:
            # the charge is voided by the checkout or the reconciliation).
            from hotmeals.services.ordering.settle import place_or_cancel

            place_or_cancel(session, order, payment)
        else:
            # Money arrived for an order that is not waiting for it (cancelled meanwhile, or
            # already placed): keep the evidence; the checkout (or the reconciliation's
            # ``ordering.settle.void_orphan_payments``) voids such a charge.
            audit(
                session,
                actor="system",
                kind="order.paid_when_not_pending",
                entity="order",
                entity_id=order.id or 0,
                data={"payment_id": payment.id, "status": order.status},
            )
        order.updated_at = now
        session.add(order)

    def failed(self, session: Session, payment: Payment) -> None:
        order = _order_of(session, payment)
        if order.status == OrderStatus.PENDING_PAYMENT:
            order.status = OrderStatus.PAYMENT_FAILED
            order.updated_at = utcnow()
            session.add(order)

    def refunded(self, session: Session, payment: Payment, refund: Refund) -> None:
        # The total refund is the sum of succeeded refunds; the status after a cancel is the
        # cancel's to decide (it knows which lines went). Only the order's clock moves.
        order = _order_of(session, payment)
        order.updated_at = utcnow()
        session.add(order)

    def refund_answered(
        self, session: Session, payment: Payment, refund: Refund, *, first: bool
    ) -> None:
        _order_refund_mail(session, refund, first)

    def still_owed(self, session: Session, payment: Payment, refund: Refund) -> int:
        return _order_still_owes(session, refund)


class OrderChangePayment(PurposeHandler):
    """The increase of a modified order, paid on top of the order's first payment. The order
    stays paid either way; an approval for an order that is no longer open is recorded."""

    purpose = Purpose.ORDER_CHANGE

    def approved(self, session: Session, payment: Payment) -> None:
        order = _order_of(session, payment)
        # The change it pays for is applied now (services/ordering/change_apply.py), or dropped when
        # it cannot be any more (then the charge is voided by the change's completion call).
        from hotmeals.services.ordering.change_apply import apply_paid_change

        apply_paid_change(session, order, payment)
        if OrderStatus(order.status) not in PAID_STATUSES:
            audit(
                session,
                actor="system",
                kind="order.change_paid_when_closed",
                entity="order",
                entity_id=order.id or 0,
                data={"payment_id": payment.id, "status": order.status},
            )
        order.updated_at = utcnow()
        session.add(order)

    def failed(self, session: Session, payment: Payment) -> None:
        _order_of(session, payment)  # nothing changes: the change is applied only once paid

    def refunded(self, session: Session, payment: Payment, refund: Refund) -> None:
        order = _order_of(session, payment)
        order.updated_at = utcnow()
        session.add(order)

    def refund_answered(
        self, session: Session, payment: Payment, refund: Refund, *, first: bool
    ) -> None:
        _order_refund_mail(session, refund, first)

    def still_owed(self, session: Session, payment: Payment, refund: Refund) -> int:
        return _order_still_owes(session, refund)


class CardCheck(PurposeHandler):
    """A card verified or saved with no money moving: nothing is bought, nothing refunded."""

    purpose = Purpose.CARD_CHECK

    def approved(self, session: Session, payment: Payment) -> None:
        if payment.amount_cents:
            raise DomainError("payment_purpose_invalid")

    def failed(self, session: Session, payment: Payment) -> None:
        return None

    def refunded(self, session: Session, payment: Payment, refund: Refund) -> None:
        raise DomainError("refund_exceeds_paid", refundable_cents=0)


HANDLERS: Mapping[Purpose, PurposeHandler] = MappingProxyType(
    {
        handler.purpose: handler
        for handler in (OrderPayment(), OrderChangePayment(), DonationPayment(), CardCheck())
    }
)
assert set(HANDLERS) == set(Purpose), "every purpose needs a handler"


def handler_for(purpose: str) -> PurposeHandler:
    return HANDLERS[Purpose(purpose)]
