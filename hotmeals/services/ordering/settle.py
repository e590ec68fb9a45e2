"""What a payment's outcome does to the order it pays for.

An approval recorded by ``confirm_payment`` runs the ORDER purpose's handler
(``services/payments/purposes.py``), which calls ``place_or_cancel`` in that transaction:
every line's cut-off still open -> PLACED, exactly the cart lines the order was made from
deleted, the confirmation e-mail queued (once: only the move from PENDING_PAYMENT does it); a
cut-off passed, or the order not pending any more -> CANCELLED. An approval that did not place
the order is voided at once (``settle_approved``), or by the periodic reconciliation
(``void_orphan_payments``) if that did not happen: no money is kept without an order, no order
is placed without money.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import date, datetime

from sqlalchemy import and_, delete, or_
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import (
    CartLine,
    CartLineAddOn,
    Order,
    OrderLine,
    Payment,
    Refund,
    Vendor,
)
from hotmeals.domain.cutoff import before_cutoff, cutoff_at
from hotmeals.domain.dates import full_day
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import OrderStatus
from hotmeals.domain.payment_states import PaymentMethod, PaymentState, Purpose
from hotmeals.domain.refunds import RefundReason
from hotmeals.i18n import t
from hotmeals.services.ordering import confirmation, lifecycle
from hotmeals.services.ordering.confirmation import Confirmation
from hotmeals.services.ordering.days import cutoff_rule
from hotmeals.services.ordering.loaded_order import earlier_approval
from hotmeals.services.payments.credit_pay import credit_covers, pay_with_credit
from hotmeals.services.payments.records import (
    RESERVING,
    PaymentView,
    get_payment,
    payment_view,
)
from hotmeals.services.payments.reversal import reverse_each, reverse_in_full
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

log = logging.getLogger("hotmeals.checkout")

PLACED, DECLINED, PENDING, VOIDED = "placed", "declined", "pending", "voided"
LIVE = (PaymentState.CREATED, PaymentState.UNKNOWN)
PLACED_STATUSES = (
    OrderStatus.PLACED,
    OrderStatus.PARTIALLY_CANCELLED,
    OrderStatus.DELIVERED,
)


@dataclass(frozen=True)
class CheckoutResult:
    status: str  # placed | declined | pending | voided
    order_id: int
    order_number: str  # HM-000123
    total_pay_cents: int
    message: str  # ready to show, in the parent's language
    payment_id: int
    # The order as its confirmation shows it, read with the outcome (``settle_approved``
    # with ``confirm``); None when not asked for, or when the charge was voided.
    confirmation: Confirmation | None = None


def _closed_days(session: Session, order_id: int, now: datetime) -> list[date]:
    rows = session.exec(
        select(col(OrderLine.meal_date), Vendor)
        .join(Vendor, col(Vendor.id) == OrderLine.vendor_id)
        .where(OrderLine.order_id == order_id)
    ).all()
    return sorted(
        {day for day, vendor in rows if not before_cutoff(cutoff_at(cutoff_rule(vendor), day), now)}
    )


def credit_share_of(order: Order, payment: Payment) -> int:
    """What family credit is to pay of ``order`` besides the card attempt ``payment`` (the
    checkout opened it for the total less the credit it planned to use)."""
    if payment.method != PaymentMethod.CARD or payment.purpose != Purpose.ORDER:
        return 0
    return max(order.total_pay_cents - payment.amount_cents, 0)


def place_or_cancel(session: Session, order: Order, payment: Payment) -> bool:
    """The approval of ``payment`` for a PENDING_PAYMENT ``order`` (locked by the caller, same
    transaction as the recorded approval). Every line's cut-off still open (and the family's
    credit still covering its share, ``credit_share_of``): PLACED, the credit's share spent
    (``pay_with_credit``), the cart lines it was made from deleted, the confirmation e-mail
    queued; returns True. Otherwise the order is CANCELLED (the charge is voided by
    ``settle_approved`` or the reconciliation); returns False."""
    now = clock.now()
    closed = _closed_days(session, order.id or 0, now)
    why: dict = {"payment_id": payment.id, "number": order.number}
    if closed:
        why["days"] = [d.isoformat() for d in closed]
        lifecycle.drop_unpaid(session, order, now=now, kind="order.cancelled_past_cutoff", data=why)
        return False
    # A card attempt for less than the order's total: family credit pays the rest, spent now
    # (never before the order is placed). Spent meanwhile (another tab): not placed, the card
    # is voided like any approval that placed nothing.
    credit_share = credit_share_of(order, payment)
    if credit_share > 0 and not credit_covers(session, order.parent_id, credit_share):
        why["credit"] = credit_share
        lifecycle.drop_unpaid(
            session, order, now=now, kind="order.cancelled_credit_short", data=why
        )
        return False
    lifecycle.place(
        session, order, now=now, data={"payment_id": payment.id, "number": order.number}
    )
    from_cart = (
        select(col(OrderLine.cart_line_id))
        .where(OrderLine.order_id == order.id, col(OrderLine.cart_line_id).is_not(None))
        .scalar_subquery()
    )
    session.execute(
        delete(CartLineAddOn)
        .where(col(CartLineAddOn.cart_line_id).in_(from_cart))
        .execution_options(synchronize_session=False)
    )
    session.execute(
        delete(CartLine)
        .where(col(CartLine.id).in_(from_cart), col(CartLine.parent_id) == order.parent_id)
        .execution_options(synchronize_session=False)
    )
    if credit_share > 0:
        pay_with_credit(
            session, order, credit_share, actor="system", verified_at=payment.verified_at
        )
    session.flush()
    confirmation.queue_confirmation_mail(session, order)
    return True


def order_payment_view(session: Session, *, payment_id: int, parent_id: int | None) -> PaymentView:
    payment = get_payment(session, payment_id, parent_id)
    if payment.purpose != Purpose.ORDER or payment.order_id is None:
        raise DomainError("payment_not_found", field="payment_id")
    return payment_view(session, payment)


@dataclass(frozen=True)
class OrderState:
    """The order an order payment pays for, as its checkout result needs it."""

    order_id: int
    number: str
    status: str
    total_pay_cents: int
    paid_by_this: bool  # this payment is the approval that placed the order
    closed: list[date]  # the days whose cut-off passed, while the order is not placed


def order_state(session: Session, *, payment_id: int) -> OrderState:
    return _order_state(session, payment_id)[0]


def _order_state(session: Session, payment_id: int) -> tuple[OrderState, Order]:
    payment = session.get(Payment, payment_id)
    assert payment is not None and payment.order_id is not None
    order = session.get(Order, payment.order_id)
    assert order is not None
    paying = _paying_payment_id(session, order)
    closed = _closed_days(session, order.id or 0, clock.now()) if order.placed_at is None else []
    state = OrderState(
        order_id=order.id or 0,
        number=order.number,
        status=order.status,
        total_pay_cents=order.total_pay_cents,
        paid_by_this=paying == payment_id,
        closed=closed,
    )
    return state, order


def _state_and_confirmation(
    session: Session, *, payment_id: int, parent_id: int, lang: str | None
) -> tuple[OrderState, Confirmation | None]:
    state, order = _order_state(session, payment_id)
    if lang is None:
        return state, None
    return state, confirmation.confirmation_of(session, order, parent_id=parent_id, lang=lang)


def _paying_payment_id(session: Session, order: Order) -> int | None:
    """The approved payment that placed ``order`` (the first approval recorded); None when
    the order was never placed."""
    if order.placed_at is None or OrderStatus(order.status) not in (
        *PLACED_STATUSES,
        OrderStatus.CANCELLED,
    ):
        return None
    return session.exec(
        select(col(Payment.id))
        .where(
            Payment.order_id == order.id,
            Payment.purpose == Purpose.ORDER,
            Payment.state == PaymentState.APPROVED,
            col(Payment.duplicate_of_id).is_(None),
        )
        .order_by(col(Payment.verified_at), col(Payment.id))
        .limit(1)
    ).first()


def checkout_result(
    view: PaymentView, state: OrderState, status: str, message: str
) -> CheckoutResult:
    return CheckoutResult(
        status=status,
        order_id=state.order_id,
        order_number=state.number,
        total_pay_cents=state.total_pay_cents,
        message=message,
        payment_id=view.id,
    )


def final_result(view: PaymentView, state: OrderState, lang: str) -> CheckoutResult | None:
    """The result when nothing is left to do (None: an approval to void)."""
    number = state.number
    if view.state == PaymentState.APPROVED:
        if state.paid_by_this:
            return checkout_result(view, state, PLACED, t("orderpay.placed", lang, number=number))
        return None
    if view.state in LIVE:
        return checkout_result(view, state, PENDING, t("orderpay.pending", lang, number=number))
    reason = view.result_message or view.state
    return checkout_result(view, state, DECLINED, t("orderpay.declined", lang, reason=reason))


async def settle_approved(
    view: PaymentView,
    *,
    parent_id: int,
    lang: str,
    confirm: bool = False,
    runtime: Runtime = APP,
) -> CheckoutResult:
    """What the parent is told of an order payment Converge has answered: placed by it,
    pending, declined; or, approved but not what placed the order (paid already by another
    attempt, a cut-off passed, the cart checked out again), voided at once. ``confirm``: the
    result carries the order's confirmation in ``lang``, read in the same transaction as the
    outcome (AddOrder's answer), unless the charge is voided."""
    state, shown = await run_in_transaction(
        _state_and_confirmation,
        engine=runtime.engine,
        payment_id=view.id,
        parent_id=parent_id,
        lang=lang if confirm else None,
    )
    done = final_result(view, state, lang)
    if done is not None:
        return replace(done, confirmation=shown)
    # Approved, but the order was not placed by this payment: give the money back now.
    back = await reverse_in_full(view.id, reason=RefundReason.ORDER_NOT_PLACED, runtime=runtime)
    amount = format_money(view.amount_cents, lang)
    key = "orderpay.voided" if back else "orderpay.void_later"
    if back and state.status in PLACED_STATUSES:  # paid already by another attempt
        message = t("orderpay.duplicate_voided", lang, number=state.number, amount=amount)
    elif state.closed:
        key += "_cutoff"
        message = t(
            key, lang, number=state.number, amount=amount, day=full_day(state.closed[0], lang)
        )
    else:
        message = t(key, lang, number=state.number, amount=amount)
    return checkout_result(view, state, VOIDED, message)


def orphan_payments(session: Session) -> list[int]:
    """Approved order payments that paid for nothing and are not refunded: the order was never
    placed and is cancelled (a cut-off passed before the approval, the cart was checked out
    again), or another payment placed it first."""
    earlier = earlier_approval()
    refunded = select(col(Refund.payment_id)).where(col(Refund.state).in_(list(RESERVING)))
    rows = session.exec(
        select(col(Payment.id))
        .join(Order, col(Order.id) == Payment.order_id)
        .where(
            Payment.purpose == Purpose.ORDER,
            Payment.state == PaymentState.APPROVED,
            col(Payment.duplicate_of_id).is_(None),  # voided on their own (payments service)
            # Family credit is spent only by the transaction that places its order.
            col(Payment.method) != PaymentMethod.CREDIT,
            col(Payment.id).not_in(refunded),
            or_(
                and_(col(Order.status) == OrderStatus.CANCELLED, col(Order.placed_at).is_(None)),
                earlier,
            ),
        )
        .order_by(col(Payment.id))
    ).all()
    return [payment_id for payment_id in rows if payment_id is not None]


async def void_orphan_payments(*, runtime: Runtime = APP) -> list[int]:
    """The periodic job's part (``payments.reconcile_round``): void every orphan payment.
    Returns the ids it voided (or started to)."""
    return await reverse_each(
        await run_in_transaction(orphan_payments, engine=runtime.engine),
        reason=RefundReason.ORDER_NOT_PLACED,
        log=log,
        what="an orphan order payment",
        runtime=runtime,
    )
