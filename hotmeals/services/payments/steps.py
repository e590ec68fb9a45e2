"""The synchronous steps of the payment service, each run in its own short transaction by
``hotmeals.services.payments`` (see its docstring for the reserve / call / record design):
reading what a network call needs, and recording what Converge answered under the row lock."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from hotmeals.db.models import Parent, Payment, StoredCard
from hotmeals.domain.errors import DomainError
from hotmeals.payments.gateway import Approved, TxnQueryResult
from hotmeals.services.clock import now as utcnow
from hotmeals.services.payments.purposes import handler_for
from hotmeals.services.payments.records import (
    PaymentState,
    PaymentView,
    audit,
    clip,
    get_payment,
    lock_payment,
    move_payment,
    payment_view,
)

log = logging.getLogger("hotmeals.payments")

TXN_ID_MAX = 64


@dataclass(frozen=True)
class Charge:
    """A sale Converge vouched for, from txnquery or from our own server-side sale."""

    txn_id: str
    approval_code: str
    card_brand: str
    card_masked: str
    result_message: str
    settled: bool
    source: str  # txnquery, sale, reconcile

    @classmethod
    def of_query(cls, q: TxnQueryResult, source: str) -> Charge:
        return cls(
            q.txn_id,
            q.approval_code,
            q.card_brand,
            q.card_masked,
            q.result_message,
            q.settled,
            source,
        )

    @classmethod
    def of_sale(cls, a: Approved) -> Charge:
        return cls(
            a.txn_id, a.approval_code, a.card_brand, a.card_masked, "APPROVAL", False, "sale"
        )


def session_inputs(session: Session, *, payment_id: int, parent_id: int | None) -> dict:
    payment = get_payment(session, payment_id, parent_id)
    if payment.state != PaymentState.CREATED:
        raise DomainError("payment_not_open")
    parent = session.get(Parent, payment.parent_id)
    return {
        "amount_cents": payment.amount_cents,
        "invoice": payment.invoice_number,
        "purpose": payment.purpose,
        "first_name": parent.first_name if parent else "",
        "last_name": parent.last_name if parent else "",
        "email": parent.email if parent else "",
    }


def mark_failed(
    session: Session,
    *,
    payment_id: int,
    to: str,
    message: str,
    kind: str,
    actor: str,
    data: dict | None = None,
) -> PaymentView:
    payment = lock_payment(session, payment_id)
    if move_payment(session, payment, to, result_message=clip(message)):
        handler_for(payment.purpose).failed(session, payment)
        audit(
            session,
            actor=actor,
            kind=kind,
            entity="payment",
            entity_id=payment.id,
            data={"invoice": payment.invoice_number, "message": message, **(data or {})},
        )
    return payment_view(session, payment)


def record_approval(
    session: Session, *, payment_id: int, charge: Charge, actor: str
) -> PaymentView:
    payment = lock_payment(session, payment_id)
    if payment.state == PaymentState.APPROVED:
        if payment.converge_txn_id == charge.txn_id:
            return payment_view(session, payment)  # someone else recorded it first: fine
        # A second approved sale for one payment: money moved twice. Record it for a person.
        audit(
            session,
            actor=actor,
            kind="payment.duplicate_charge",
            entity="payment",
            entity_id=payment.id,
            data={"recorded_txn": payment.converge_txn_id, "other_txn": charge.txn_id},
        )
        log.error("payment %s: second approved sale %s", payment.id, charge.txn_id)
        raise DomainError("payment_already_paid")
    moved = move_payment(
        session,
        payment,
        PaymentState.APPROVED,
        converge_txn_id=charge.txn_id[:TXN_ID_MAX],
        approval_code=clip(charge.approval_code, 16),
        card_brand=clip(charge.card_brand, 20),
        card_masked=clip(charge.card_masked, 24),
        result_message=clip(charge.result_message),
        settled=charge.settled,
        verified_at=utcnow(),
    )
    if not moved:  # pragma: no cover - the lock makes this unreachable; the guard stays
        raise DomainError("payment_conflict")
    handler_for(payment.purpose).approved(session, payment)
    audit(
        session,
        actor=actor,
        kind="payment.approved",
        entity="payment",
        entity_id=payment.id,
        data={
            "invoice": payment.invoice_number,
            "amount_cents": payment.amount_cents,
            "txn_id": charge.txn_id,
            "approval_code": charge.approval_code,
            "card": charge.card_masked,
            "brand": charge.card_brand,
            "verified_by": charge.source,
        },
    )
    return payment_view(session, payment)


def mark_unknown(
    session: Session, *, payment_id: int, reason: str, actor: str, kind: str = "payment.unknown"
) -> PaymentView:
    payment = lock_payment(session, payment_id)
    if payment.state == PaymentState.UNKNOWN and payment.result_message == "in flight":
        # A saved-card charge whose answer was lost: the call is over (a repeat waiting for
        # its outcome stops waiting; issue 21), the payment stays UNKNOWN for reconciliation.
        payment.result_message = clip(reason)
        session.add(payment)
        session.flush()
    if move_payment(session, payment, PaymentState.UNKNOWN, result_message=clip(reason)):
        audit(
            session,
            actor=actor,
            kind=kind,
            entity="payment",
            entity_id=payment.id,
            data={"invoice": payment.invoice_number, "reason": reason},
        )
    return payment_view(session, payment)


def confirm_inputs(
    session: Session, *, payment_id: int, parent_id: int | None, txn_id: str
) -> tuple[int, str, PaymentView | None]:
    payment = get_payment(session, payment_id, parent_id)
    if payment.state == PaymentState.APPROVED:
        if payment.converge_txn_id == txn_id:
            return payment.amount_cents, payment.invoice_number, payment_view(session, payment)
        raise DomainError("payment_already_paid")
    return payment.amount_cents, payment.invoice_number, None


def verification_failed(
    session: Session, *, payment_id: int, txn_id: str, query: TxnQueryResult, actor: str
) -> None:
    audit(
        session,
        actor=actor,
        kind="payment.verification_failed",
        entity="payment",
        entity_id=payment_id,
        data={
            "txn_id": txn_id,
            "found": query.found,
            "type": query.transaction_type,
            "status": query.status,
            "amount_cents": query.amount_cents,
            "invoice": query.invoice_number,
            "message": query.result_message,
        },
    )


def begin_card_sale(
    session: Session, *, payment_id: int, parent_id: int, card_id: int, actor: str
) -> tuple[str, int, str]:
    payment = lock_payment(session, payment_id, parent_id)
    if payment.state != PaymentState.CREATED:
        raise DomainError("payment_not_open")
    card = session.get(StoredCard, card_id)
    if card is None or card.parent_id != parent_id or card.deleted_at is not None:
        raise DomainError("card_not_found")
    # UNKNOWN from here on: if the answer is lost, the charge may have happened.
    if not move_payment(session, payment, PaymentState.UNKNOWN, result_message="in flight"):
        raise DomainError("payment_not_open")
    audit(
        session,
        actor=actor,
        kind="payment.charge_started",
        entity="payment",
        entity_id=payment.id,
        data={"invoice": payment.invoice_number, "card_id": card.id, "card": card.masked},
    )
    return card.converge_token, payment.amount_cents, payment.invoice_number


def reconcile_inputs(session: Session, *, payment_id: int) -> tuple[Payment, PaymentView]:
    payment = get_payment(session, payment_id)
    return payment, payment_view(session, payment)


def expire(session: Session, *, payment_id: int, actor: str) -> PaymentView:
    return mark_failed(
        session,
        payment_id=payment_id,
        to=PaymentState.EXPIRED,
        message="no charge at Converge",
        kind="payment.expired",
        actor=actor,
    )


def note_duplicates(
    session: Session, *, payment_id: int, sales: list[TxnQueryResult], actor: str
) -> None:
    audit(
        session,
        actor=actor,
        kind="payment.duplicate_charge",
        entity="payment",
        entity_id=payment_id,
        data={"txn_ids": [q.txn_id for q in sales]},
    )


def open_payments(
    session: Session, *, unknown_before: datetime, created_before: datetime
) -> list[int]:
    """Payments to reconcile: UNKNOWN ones untouched since ``unknown_before``, and CREATED ones
    (a hosted session whose confirmation never came) older than ``created_before``."""
    rows = session.exec(
        select(Payment.id)
        .where(
            ((Payment.state == PaymentState.UNKNOWN) & (Payment.updated_at <= unknown_before))
            | ((Payment.state == PaymentState.CREATED) & (Payment.created_at <= created_before))
        )
        .order_by(Payment.id)
    ).all()
    return list(rows)
