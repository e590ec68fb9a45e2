"""The synchronous steps of the payment service, each run in its own short transaction by
``hotmeals.services.payments`` (see its docstring for the reserve / call / record design):
reading what a network call needs, and recording what Converge answered under the row lock."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, update
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.converge.gateway import (
    Approved,
    Declined,
    GatewayError,
    SaleOutcome,
    TxnQueryResult,
)
from hotmeals.db.models import Parent, Payment, Refund, StoredCard
from hotmeals.domain.errors import DomainError
from hotmeals.services.payments.purposes import handler_for
from hotmeals.services.payments.records import (
    RESERVING,
    PaymentState,
    PaymentView,
    audit,
    audit_payment,
    clip,
    get_payment,
    insert_audited,
    lock_payment,
    move_payment,
    payment_view,
    refundable_cents,
    rowcount,
)

log = logging.getLogger("hotmeals.converge")

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


def _approved_columns(charge: Charge, now: datetime) -> dict[str, Any]:
    """The columns an approved payment row takes from ``charge``, verified and closed at
    ``now`` (clipped to the columns' sizes): ``move_payment``'s values."""
    return {
        "converge_txn_id": charge.txn_id[:TXN_ID_MAX],
        "approval_code": clip(charge.approval_code, 16),
        "card_brand": clip(charge.card_brand, 20),
        "card_masked": clip(charge.card_masked, 24),
        "result_message": clip(charge.result_message),
        "settled": charge.settled,
        "verified_at": now,
        "closed_at": now,
    }


@dataclass(frozen=True)
class SessionInputs:
    """What a hosted card session is opened with: the open payment and whose it is."""

    amount_cents: int
    invoice: str
    purpose: str
    first_name: str
    last_name: str
    email: str


def session_inputs(session: Session, *, payment_id: int, parent_id: int | None) -> SessionInputs:
    payment = get_payment(session, payment_id, parent_id)
    if payment.state != PaymentState.CREATED:
        raise DomainError("payment_not_open")
    parent = session.get(Parent, payment.parent_id)
    return SessionInputs(
        amount_cents=payment.amount_cents,
        invoice=payment.invoice_number,
        purpose=payment.purpose,
        first_name=parent.first_name if parent else "",
        last_name=parent.last_name if parent else "",
        email=parent.email if parent else "",
    )


def mark_failed(
    session: Session,
    *,
    payment_id: int,
    to: str,
    message: str,
    kind: str,
    actor: str,
    data: dict | None = None,
    closed: bool = True,
    only_from: tuple[str, ...] | None = None,
) -> PaymentView:
    """Move the attempt to a failed state. ``closed``: Converge's own word (its answer, or no
    sale once the session is over); False for a failure only a browser reported, which the
    reconciliation checks with Converge once the session is over. ``only_from``: the states
    it may move from (a browser's report moves a CREATED attempt only)."""
    payment = lock_payment(session, payment_id)
    if only_from is not None and payment.state not in only_from:
        return payment_view(session, payment)
    extra = {"closed_at": utcnow()} if closed else {}
    if move_payment(session, payment, to, result_message=clip(message), **extra):
        handler_for(payment.purpose).failed(session, payment)
        audit_payment(
            session,
            payment,
            actor=actor,
            kind=kind,
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
        # A second approved sale for one payment: money moved twice. The event is kept and
        # the caller records that sale as a row of its own and voids it (duplicates.py).
        audit_payment(
            session,
            payment,
            actor=actor,
            kind="payment.duplicate_charge",
            data={"recorded_txn": payment.converge_txn_id, "other_txn": charge.txn_id},
        )
        log.error("payment %s: second approved sale %s", payment.id, charge.txn_id)
        raise DomainError("payment_already_paid")
    moved = move_payment(
        session, payment, PaymentState.APPROVED, **_approved_columns(charge, utcnow())
    )
    if not moved:  # pragma: no cover - the lock makes this unreachable; the guard stays
        raise DomainError("payment_conflict")
    handler_for(payment.purpose).approved(session, payment)
    audit_payment(
        session,
        payment,
        actor=actor,
        kind="payment.approved",
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


@dataclass(frozen=True)
class CardSale:
    """A saved-card sale ``begin_card_sale`` began (its payment UNKNOWN, "in flight"): what
    ``charging.charge_begun_card`` sends to Converge and records the outcome of, by whom."""

    payment_id: int
    token: str = field(repr=False)
    amount_cents: int
    invoice: str
    actor: str


def record_sale_outcome(session: Session, *, sale: CardSale, outcome: SaleOutcome) -> PaymentView:
    """What Converge answered to our own ``ccsale`` (a saved card's charge), recorded once: an
    approval of another amount or invoice is left UNKNOWN for the reconciliation."""
    payment_id, actor = sale.payment_id, sale.actor
    if isinstance(outcome, Approved):
        if outcome.amount_cents != sale.amount_cents or (
            outcome.invoice_number and outcome.invoice_number != sale.invoice
        ):
            return mark_unknown(
                session,
                payment_id=payment_id,
                actor=actor,
                reason="approval does not match: reconcile",
                kind="payment.mismatch",
            )
        charge = Charge.of_sale(outcome)
        return record_approval(session, payment_id=payment_id, charge=charge, actor=actor)
    if isinstance(outcome, Declined):
        return mark_failed(
            session,
            payment_id=payment_id,
            to=PaymentState.DECLINED,
            message=outcome.result_message,
            kind="payment.declined",
            actor=actor,
        )
    if isinstance(outcome, GatewayError):
        return mark_failed(
            session,
            payment_id=payment_id,
            to=PaymentState.ERROR,
            message=f"{outcome.error_code} {outcome.error_name}: {outcome.error_message}",
            kind="payment.error",
            actor=actor,
            data={"code": outcome.error_code},
        )
    return mark_unknown(session, payment_id=payment_id, reason=outcome.reason, actor=actor)


def mark_unknown(
    session: Session, *, payment_id: int, reason: str, actor: str, kind: str = "payment.unknown"
) -> PaymentView:
    payment = lock_payment(session, payment_id)
    if payment.state == PaymentState.UNKNOWN and payment.result_message == "in flight":
        # A saved-card charge whose answer was lost: the call is over (a repeat waiting for
        # its outcome stops waiting), the payment stays UNKNOWN for reconciliation.
        payment.result_message = clip(reason)
        session.add(payment)
        session.flush()
    if move_payment(session, payment, PaymentState.UNKNOWN, result_message=clip(reason)):
        audit_payment(
            session,
            payment,
            actor=actor,
            kind=kind,
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
) -> CardSale:
    payment = lock_payment(session, payment_id, parent_id)
    if payment.state != PaymentState.CREATED:
        raise DomainError("payment_not_open")
    card = session.get(StoredCard, card_id)
    if card is None or card.parent_id != parent_id or card.deleted_at is not None:
        raise DomainError("card_not_found")
    # UNKNOWN from here on: if the answer is lost, the charge may have happened.
    if not move_payment(session, payment, PaymentState.UNKNOWN, result_message="in flight"):
        raise DomainError("payment_not_open")
    audit_payment(
        session,
        payment,
        actor=actor,
        kind="payment.charge_started",
        data={"invoice": payment.invoice_number, "card_id": card.id, "card": card.masked},
    )
    return CardSale(
        payment_id=payment_id,
        token=card.converge_token,
        amount_cents=payment.amount_cents,
        invoice=payment.invoice_number,
        actor=actor,
    )


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


def reconcile_inputs_of(session: Session, *, payment_id: int, parent_id: int) -> None:
    """``payment_not_found`` unless the payment is ``parent_id``'s."""
    get_payment(session, payment_id, parent_id)


def refundable_of(session: Session, *, payment_id: int) -> int:
    payment = session.get(Payment, payment_id)
    return refundable_cents(session, payment) if payment else 0


def unrefunded_duplicates(session: Session) -> list[int]:
    """Duplicate sale rows with nothing reserved against them yet (to void)."""
    refunded = select(Refund.payment_id).where(col(Refund.state).in_(list(RESERVING)))
    rows = session.exec(
        select(Payment.id)
        .where(
            col(Payment.duplicate_of_id).is_not(None),
            Payment.state == PaymentState.APPROVED,
            col(Payment.id).not_in(refunded),
        )
        .order_by(col(Payment.id))
    ).all()
    return [pid for pid in rows if pid is not None]


def open_payments(
    session: Session, *, unknown_before: datetime, created_before: datetime
) -> list[int]:
    """Payments to reconcile: UNKNOWN ones untouched since ``unknown_before``; CREATED ones
    (a hosted session whose confirmation never came) older than ``created_before``; and
    failed ones whose failure only a browser reported (``closed_at`` empty), once their
    session is over: each is asked about once, then closed."""
    failed = [PaymentState.DECLINED, PaymentState.ERROR, PaymentState.EXPIRED]
    rows = session.exec(
        select(Payment.id)
        .where(
            (
                (col(Payment.state) == PaymentState.UNKNOWN)
                & (col(Payment.updated_at) <= unknown_before)
            )
            | (
                (col(Payment.state) == PaymentState.CREATED)
                & (col(Payment.created_at) <= created_before)
            )
            | (
                col(Payment.state).in_(failed)
                & col(Payment.closed_at).is_(None)
                & (col(Payment.created_at) <= created_before)
            )
        )
        .order_by(col(Payment.id))
    ).all()
    return [pid for pid in rows if pid is not None]


def close_attempt(session: Session, *, payment_id: int, actor: str) -> PaymentView:
    """A failed attempt Converge has no sale for, once its session is over: closed, so the
    reconciliation asks about it no more. Its state stays what it was."""
    payment = lock_payment(session, payment_id)
    if payment.closed_at is None and payment.state in (
        PaymentState.DECLINED,
        PaymentState.ERROR,
        PaymentState.EXPIRED,
    ):
        moved = rowcount(
            session.execute(
                update(Payment)
                .where(col(Payment.id) == payment.id, col(Payment.closed_at).is_(None))
                .values(closed_at=utcnow())
                .execution_options(synchronize_session=False)
            )
        )
        if moved == 1:
            session.refresh(payment)
            audit_payment(
                session,
                payment,
                actor=actor,
                kind="payment.closed",
                data={"invoice": payment.invoice_number, "state": payment.state},
            )
    return payment_view(session, payment)


def record_duplicate(
    session: Session, *, payment_id: int, charge: Charge, actor: str
) -> int | None:
    """A second approved sale Converge made under ``payment_id``'s invoice (for its amount):
    a payment row of its own, APPROVED, pointing at the attempt (``duplicate_of_id``), with
    no effect on what the attempt pays for; the caller voids it (its own refund row). The
    same sale recorded again is the same row. None when ``charge`` is the attempt's own sale.
    """
    original = lock_payment(session, payment_id)
    if original.converge_txn_id == charge.txn_id:
        return None
    seen = session.exec(
        select(Payment.id).where(
            Payment.converge_txn_id == charge.txn_id[:TXN_ID_MAX],
            Payment.parent_id == original.parent_id,
        )
    ).first()
    if seen is not None:
        return seen
    count = session.exec(
        select(func.count()).select_from(Payment).where(Payment.duplicate_of_id == original.id)
    ).one()
    now = utcnow()
    row = Payment(
        parent_id=original.parent_id,
        order_id=original.order_id,
        donation_id=original.donation_id,
        purpose=original.purpose,
        # Ours only (never sent to Converge): the sale itself carries the attempt's invoice.
        invoice_number=f"{original.invoice_number}-D{int(count) + 1}"[:25],
        amount_cents=original.amount_cents,
        state=PaymentState.APPROVED,
        **_approved_columns(charge, now),
        duplicate_of_id=original.id,
        created_at=now,
        updated_at=now,
    )
    row_id = insert_audited(
        session,
        row,
        actor=actor,
        kind="payment.duplicate_recorded",
        entity="payment",
        data={
            "duplicate_of": original.id,
            "invoice": original.invoice_number,
            "amount_cents": row.amount_cents,
            "txn_id": charge.txn_id,
            "card": charge.card_masked,
        },
    )
    log.error(
        "payment %s: second approved sale %s recorded as %s", original.id, charge.txn_id, row_id
    )
    return row_id
