"""Family credit paying for an order (issue 25): part of the payment service.

A credit payment is a ``Payment`` row of its own (``method`` credit, the order's purpose),
APPROVED when written, with no Converge transaction, written together with the ledger's SPEND
row (``services/credit.py``: the parent's row locked, the balance checked, once per key) in
the transaction that places the order. So the credit is spent if and only if the order is
placed: a card declined, a Lightbox closed, an order never placed spends nothing, and two tabs
spending the same credit run one after the other on the parent's lock (the second finds the
balance the first left). Its refunds go back to credit (``refunds.py``, a RESTORE).
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, select

from hotmeals.db.models import Order, Payment
from hotmeals.domain.credit import CreditKind
from hotmeals.domain.payment_states import PaymentMethod, PaymentState, Purpose
from hotmeals.services import credit
from hotmeals.services.clock import now as utcnow
from hotmeals.services.parents import lock_parent
from hotmeals.services.payments.records import insert_audited, new_invoice_number


def credit_payment_of(session: Session, order_id: int) -> Payment | None:
    """The order's credit payment, if it has one (at most one: its spend's key is the
    order's)."""
    return session.exec(
        select(Payment).where(
            col(Payment.order_id) == order_id,
            col(Payment.purpose) == Purpose.ORDER,
            col(Payment.method) == PaymentMethod.CREDIT,
        )
    ).first()


def credit_covers(session: Session, parent_id: int, amount_cents: int) -> bool:
    """Under the parent's lock (kept to the end of the transaction): does the family's credit
    cover ``amount_cents``?"""
    lock_parent(session, parent_id)
    return credit.balance(session, parent_id) >= amount_cents


def pay_with_credit(
    session: Session,
    order: Order,
    amount_cents: int,
    *,
    actor: str,
    verified_at: datetime | None = None,
) -> Payment:
    """Spend ``amount_cents`` of the family's credit on ``order``, in the caller's transaction
    (the one that places it): the ledger's SPEND (refused with ``credit_insufficient`` when the
    balance does not cover it: nothing is written) and the APPROVED credit payment. Written
    again for the same order it returns the first. ``verified_at``: the card approval it
    completes (so the card attempt stays the one that placed the order)."""
    assert order.id is not None
    found = credit_payment_of(session, order.id)
    if found is not None:
        return found
    credit.record(
        session,
        order.parent_id,
        CreditKind.SPEND,
        amount_cents,
        key=f"spend:order:{order.id}",
        order_id=order.id,
    )
    now = utcnow()
    payment = Payment(
        parent_id=order.parent_id,
        order_id=order.id,
        purpose=Purpose.ORDER,
        method=PaymentMethod.CREDIT,
        invoice_number=new_invoice_number(Purpose.ORDER, now, order_number=order.number),
        amount_cents=amount_cents,
        state=PaymentState.APPROVED,
        verified_at=verified_at or now,
        closed_at=now,
        created_at=now,
        updated_at=now,
    )
    insert_audited(
        session,
        payment,
        actor=actor,
        kind="payment.credit_spent",
        entity="payment",
        data={"order": order.number, "amount_cents": amount_cents},
    )
    return payment
