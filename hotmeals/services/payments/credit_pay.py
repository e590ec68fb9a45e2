"""Family credit paying for an order: part of the payment service.

A credit payment is a ``Payment`` row of its own (``method`` credit, the order's purpose),
APPROVED when written, with no Converge transaction, written together with the ledger's SPEND
row (``services/credit.py``: the parent's row locked, the balance checked, once per key) in
the transaction that places the order. So the credit is spent if and only if the order is
placed: a card declined, a Lightbox closed, an order never placed spends nothing, and two tabs
spending the same credit run one after the other on the parent's lock (the second finds the
balance the first left). Its refunds go back to credit (``refunds.py``, a RESTORE).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import Order, Payment
from hotmeals.domain.credit import CreditKind, PaymentSplit, payment_split
from hotmeals.domain.payment_states import PaymentMethod, PaymentState, Purpose
from hotmeals.i18n import t
from hotmeals.services import credit
from hotmeals.services.parents import hold_parent
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
    hold_parent(session, parent_id)
    return credit.balance(session, parent_id) >= amount_cents


def credit_split(
    session: Session, parent_id: int, amount_cents: int, *, use_credit: bool = True
) -> PaymentSplit:
    """Under the parent's lock (kept to the end of the transaction): how family credit and
    the card share ``amount_cents`` (credit first; nothing to split when it is not positive)."""
    if amount_cents <= 0 or not use_credit:
        return payment_split(max(amount_cents, 0), 0, use_credit=False)
    hold_parent(session, parent_id)
    return payment_split(amount_cents, credit.balance(session, parent_id))


def pay_with_credit(
    session: Session,
    order: Order,
    amount_cents: int,
    *,
    actor: str,
    verified_at: datetime | None = None,
    change_id: int | None = None,
) -> Payment:
    """Spend ``amount_cents`` of the family's credit on ``order``, in the caller's transaction
    (the one that places it, or applies its change ``change_id``): the ledger's SPEND (refused
    with ``credit_insufficient`` when the balance does not cover it: nothing is written) and
    the APPROVED credit payment (purpose ORDER, or ORDER_CHANGE for a change). Written again
    for the same order it returns the first. ``verified_at``: the card approval it completes
    (so the card attempt stays the one that placed the order)."""
    assert order.id is not None
    if change_id is None:
        found = credit_payment_of(session, order.id)
        if found is not None:
            return found
    purpose = Purpose.ORDER if change_id is None else Purpose.ORDER_CHANGE
    credit.record(
        session,
        order.parent_id,
        CreditKind.SPEND,
        amount_cents,
        key=f"spend:order:{order.id}" if change_id is None else f"spend:change:{change_id}",
        order_id=order.id,
    )
    now = utcnow()
    payment = Payment(
        parent_id=order.parent_id,
        order_id=order.id,
        purpose=purpose,
        method=PaymentMethod.CREDIT,
        invoice_number=new_invoice_number(purpose, now, order_number=order.number),
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


def paid_with_credit(session: Session, order_id: int) -> int:
    """What family credit paid of the order (one statement)."""
    total = session.exec(
        select(func.coalesce(func.sum(Payment.amount_cents), 0)).where(
            col(Payment.order_id) == order_id,
            col(Payment.method) == PaymentMethod.CREDIT,
            col(Payment.state) == PaymentState.APPROVED,
        )
    ).one()
    return int(total)


FAMILY_CREDIT, CARD_PAY = "family_credit", "card_pay"


@dataclass(frozen=True)
class CreditLine:
    """A line under the total when family credit pays some: credit's share (``FAMILY_CREDIT``,
    its cents negative: taken off what the card pays) or the card's (``CARD_PAY``, what the card
    pays, or paid once ``done``)."""

    name: str  # FAMILY_CREDIT or CARD_PAY, the /api/v1 line's name
    cents: int
    done: bool  # the order is paid ("Paid by card"), not yet ("To pay by card")


def credit_share(credit_cents: int, card_cents: int, *, done: bool) -> tuple[CreditLine, ...]:
    """The summary's and the confirmation's lines under the total when family credit pays
    (none otherwise): family credit (−``credit_cents``), then what the card pays."""
    if credit_cents <= 0:
        return ()
    return (CreditLine(FAMILY_CREDIT, -credit_cents, done), CreditLine(CARD_PAY, card_cents, done))


def credit_line_label(line: CreditLine, lang: str) -> str:
    """How a credit line is named in ``lang``: "Family credit", then "To pay by card" or, once
    paid, "Paid by card"."""
    if line.name == FAMILY_CREDIT:
        return t("credit.summary_credit", lang)
    return t("credit.summary_card_paid" if line.done else "credit.summary_card", lang)
