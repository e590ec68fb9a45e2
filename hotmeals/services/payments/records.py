"""The database half of the payment service: row locks, state moves, sums, audit events and
the plain views handed to callers. Everything here is synchronous and runs inside one
transaction opened by ``hotmeals.services.payments`` (never across a network call).

The states of payments and refunds, with their allowed moves, are in ``domain/payment_states.py``;
what an approval, a failure or a refund does to the thing paid for is the handler its owner
registered with ``purposes.py``.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar, cast

from sqlalchemy import func, update
from sqlalchemy.engine import CursorResult, Result
from sqlmodel import Session, SQLModel, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import AuditEvent, Order, OrderChange, Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.domain.payment_states import (
    REFUND_RESERVING,
    PaymentMethod,
    PaymentState,
    Purpose,
    RefundState,
    can_transition,
)

log = logging.getLogger("hotmeals.converge")

M = TypeVar("M", bound=SQLModel)

MESSAGE_MAX = 120


# Refund rows that hold money back from being refunded again.
RESERVING = tuple(REFUND_RESERVING)
_INVOICE_LETTER = {
    Purpose.ORDER: "O",
    Purpose.ORDER_CHANGE: "C",
    Purpose.DONATION: "D",
    Purpose.CARD_CHECK: "K",
}


def clip(text: str | None, limit: int = MESSAGE_MAX) -> str | None:
    return None if text is None else str(text)[:limit]


class _Stored(Protocol):
    @property
    def id(self) -> int | None: ...


def saved_id(row: _Stored) -> int:
    """The id of a row read from the database or flushed to it (never None there)."""
    if row.id is None:
        raise ValueError(f"{type(row).__name__} has no id yet: flush it first")
    return row.id


def rowcount(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE matched (``execute`` is typed as a plain Result)."""
    return cast(CursorResult[Any], result).rowcount


def new_invoice_number(
    purpose: str, when: datetime | None = None, order_number: str | None = None
) -> str:
    """``HMD-250902-3F9C0A1B2C`` (21 characters; Converge allows 25). Random, so two servers
    never hand out the same number and a number says nothing about how many payments exist.

    An order's payment starts with the order's number instead, ``HM-000123-3F9C0A1B2C``: the
    Lightbox shows the invoice, and the parent matches it with the order. Each
    attempt still has its own invoice (Converge has no idempotency key, and a declined card's
    retry is a new charge), so the invoice is never the order number alone."""
    suffix = secrets.token_hex(5).upper()
    if order_number and len(order_number) + 1 + len(suffix) <= 25:
        return f"{order_number}-{suffix}"
    letter = _INVOICE_LETTER[Purpose(purpose)]
    return f"HM{letter}-{(when or utcnow()):%y%m%d}-{suffix}"


# -- locks ------------------------------------------------------------------------------------


def lock_row(session: Session, model: type[M], row_id: int) -> M | None:
    """The row, locked against every other transaction until this one ends.

    PostgreSQL: ``SELECT ... FOR UPDATE``. SQLite has no row locks; the first statement of the
    transaction is a write to the row, which takes SQLite's single write lock (waiting up to
    ``busy_timeout``) before anything is read, so the reads that follow see the newest
    committed data and no other writer can interleave. Reading first and writing later would
    read a snapshot that another writer can make stale ("database is locked" at best).
    Either way, call this first in a fresh transaction.
    """
    table: Any = model
    if session.get_bind().dialect.name == "sqlite":
        column = table.updated_at if hasattr(model, "updated_at") else table.id
        session.execute(
            update(model)
            .where(table.id == row_id)
            .values({column.key: column})
            .execution_options(synchronize_session=False)
        )
        return session.get(model, row_id, populate_existing=True)
    return session.exec(
        select(model)
        .where(table.id == row_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).first()


def lock_payment(session: Session, payment_id: int, parent_id: int | None = None) -> Payment:
    """The locked payment; ``payment_not_found`` also for another parent's payment.

    On PostgreSQL an order's payment is locked after its ``Order`` row: every path takes the
    order's lock first (a cancel, a move or a change locks the order, then reserves a refund on
    its payments; a payment's approval or a refund's outcome locks the payment, then updates
    its order), so two of them never wait on each other in opposite orders (a deadlock, one
    of them aborted). ``order_id`` never changes, so reading it unlocked is safe. SQLite has
    one write lock for the whole file (``lock_row``): nothing to order there, and the lock must
    stay the transaction's first statement."""
    if session.get_bind().dialect.name != "sqlite":
        order_id = session.exec(select(Payment.order_id).where(Payment.id == payment_id)).first()
        if order_id is not None:
            lock_row(session, Order, order_id)
    payment = lock_row(session, Payment, payment_id)
    if payment is None or (parent_id is not None and payment.parent_id != parent_id):
        raise DomainError("payment_not_found")
    return payment


def get_payment(session: Session, payment_id: int, parent_id: int | None = None) -> Payment:
    payment = session.get(Payment, payment_id)
    if payment is None or (parent_id is not None and payment.parent_id != parent_id):
        raise DomainError("payment_not_found")
    return payment


def fresh_refund(session: Session, refund_id: int) -> Refund:
    """The refund row as the database has it now (after a conditional UPDATE or a lock)."""
    row = session.get(Refund, refund_id, populate_existing=True)
    if row is None:
        raise DomainError("refund_not_found")
    return row


# -- audit ------------------------------------------------------------------------------------


def audit(
    session: Session,
    *,
    actor: str,
    kind: str,
    entity: str,
    entity_id: int | str,
    data: Mapping[str, Any] | None = None,
) -> None:
    """One event per money movement or attempt. ``data`` holds ids, amounts, invoice numbers,
    masked cards and messages: never a PIN, card number, CVV, session or card token."""
    session.add(
        AuditEvent(
            actor=actor[:40],
            kind=kind[:48],
            entity=entity[:32],
            entity_id=str(entity_id)[:40],
            data=json.dumps(dict(data or {}), sort_keys=True, default=str),
            created_at=utcnow(),
        )
    )
    log.info("%s %s %s:%s", actor, kind, entity, entity_id)


def audit_payment(
    session: Session,
    payment: Payment,
    *,
    actor: str,
    kind: str,
    data: Mapping[str, Any] | None = None,
) -> None:
    """The event of something that happened to ``payment``."""
    audit(session, actor=actor, kind=kind, entity="payment", entity_id=saved_id(payment), data=data)


def audit_refund(
    session: Session,
    refund_id: int,
    *,
    actor: str,
    kind: str,
    data: Mapping[str, Any] | None = None,
) -> None:
    """The event of something that happened to the refund ``refund_id``."""
    audit(session, actor=actor, kind=kind, entity="refund", entity_id=refund_id, data=data)


def audit_refund_row(session: Session, row: Refund, *, actor: str, kind: str, **more: Any) -> None:
    """``audit_refund`` for ``row``, with the data every such event carries (its payment and
    amount) and ``more``."""
    data = {"payment_id": row.payment_id, "amount_cents": row.amount_cents, **more}
    audit_refund(session, saved_id(row), actor=actor, kind=kind, data=data)


def insert_audited(
    session: Session,
    row: _Stored,
    *,
    actor: str,
    kind: str,
    entity: str,
    data: Mapping[str, Any],
) -> int:
    """Insert ``row`` (flushed, so it has its id) and the event of its creation; the id."""
    session.add(row)
    session.flush()
    row_id = saved_id(row)
    audit(session, actor=actor, kind=kind, entity=entity, entity_id=row_id, data=data)
    return row_id


# -- sums (never a stored flag) ------------------------------------------------------------------


def paid_cents(session: Session, payment_ids: Iterable[int]) -> int:
    ids = list(payment_ids)
    if not ids:
        return 0
    total = session.exec(
        select(func.coalesce(func.sum(Payment.amount_cents), 0)).where(
            col(Payment.id).in_(ids), Payment.state == PaymentState.APPROVED
        )
    ).one()
    return int(total)


def refund_sum(session: Session, payment_id: int, states: Iterable[str]) -> int:
    total = session.exec(
        select(func.coalesce(func.sum(Refund.amount_cents), 0)).where(
            Refund.payment_id == payment_id, col(Refund.state).in_(list(states))
        )
    ).one()
    return int(total)


def owed_failed(refund: Refund) -> bool:
    """A FAILED refund that is still owed: due to be sent again or flagged for a person.
    It holds its amount back from a later cancel's refund arithmetic, so what is
    owed stays owed instead of becoming credit for the next cancel."""
    return refund.state == RefundState.FAILED and (
        refund.retry_at is not None or refund.attention_at is not None
    )


def refundable_cents(session: Session, payment: Payment) -> int:
    """What can still be refunded: the approved amount minus every refund that succeeded or
    may still succeed."""
    if payment.state != PaymentState.APPROVED:
        return 0
    return max(0, payment.amount_cents - refund_sum(session, saved_id(payment), RESERVING))


def order_paid_cents(session: Session, order_id: int) -> int:
    total = session.exec(
        select(func.coalesce(func.sum(Payment.amount_cents), 0)).where(
            Payment.order_id == order_id, Payment.state == PaymentState.APPROVED
        )
    ).one()
    return int(total)


def order_refunded_cents(session: Session, order_id: int) -> int:
    total = session.exec(
        select(func.coalesce(func.sum(Refund.amount_cents), 0))
        .join(Payment, col(Payment.id) == col(Refund.payment_id))
        .where(Payment.order_id == order_id, Refund.state == RefundState.SUCCEEDED)
    ).one()
    return int(total)


def converge_invoice(session: Session, payment: Payment) -> str:
    """The invoice number the payment's sale carries at Converge: its own, or for a
    duplicate sale row the attempt's it was made under."""
    if payment.duplicate_of_id is None:
        return payment.invoice_number
    original = session.get(Payment, payment.duplicate_of_id)
    return original.invoice_number if original else payment.invoice_number


# OrderChange.state of a change whose payment pays for it: applied, or being applied in the
# transaction that records its approval (services/ordering/changing/change_apply.py).
CHANGE_PAID_STATES = ("applied", "paying")


def paid_by_credit(payment: Payment) -> bool:
    """A payment made with family credit (never sent to Converge)."""
    return payment.method == PaymentMethod.CREDIT


def split_order_payments(
    order: Order, approved: list[Payment], change_payment_ids: Iterable[int]
) -> tuple[list[Payment], list[Payment]]:
    """An order's approved payments -> (what pays for the order, what paid for nothing).
    The order's own: the ORDER attempt that placed it (the first approval recorded) and the
    payments of its applied changes (``change_payment_ids``: of changes applied or being
    applied), and family credit's share (a credit payment exists only once its order is
    placed: the card attempt that placed it is then the first approval, the credit row written
    in the same transaction after it; or, paid by credit alone, the credit row is the first
    approval). The others (a second attempt approved after the order was placed or cancelled,
    a dropped change's payment, a duplicate sale) are voided by the reconciliation and never
    counted in the order's money."""
    applied = set(change_payment_ids)
    placing = None
    if order.placed_at is not None:
        firsts = sorted(
            (
                p
                for p in approved
                if p.purpose == Purpose.ORDER
                and p.duplicate_of_id is None
                and p.state == PaymentState.APPROVED
            ),
            key=lambda p: (p.verified_at or p.created_at, p.id or 0),
        )
        placing = firsts[0].id if firsts else None
    kept = [
        p
        for p in approved
        if p.duplicate_of_id is None
        and (
            p.id == placing
            or (p.purpose == Purpose.ORDER_CHANGE and p.id in applied)
            or paid_by_credit(p)  # written only by the transaction that places the order
        )
    ]
    kept_ids = {p.id for p in kept}
    return kept, [p for p in approved if p.id not in kept_ids]


def kept_payment_ids(session: Session, order: Order) -> list[int]:
    """The ids of ``split_order_payments``'s first list, in two statements."""
    approved = list(
        session.exec(
            select(Payment).where(
                Payment.order_id == order.id, Payment.state == PaymentState.APPROVED
            )
        ).all()
    )
    applied = session.exec(
        select(OrderChange.payment_id).where(
            OrderChange.order_id == order.id,
            col(OrderChange.state).in_(CHANGE_PAID_STATES),
            col(OrderChange.payment_id).is_not(None),
        )
    ).all()
    kept, _ = split_order_payments(order, approved, [pid for pid in applied if pid])
    return sorted(p.id for p in kept if p.id is not None)


# -- moves ------------------------------------------------------------------------------------


def move_payment(session: Session, payment: Payment, to: str, **values: Any) -> bool:
    """Move a (locked) payment to ``to`` with a conditional UPDATE: it only happens if the row
    is still in the state we read, so even without the lock a second writer changes nothing.
    Returns False (and changes nothing) when the move is not allowed or lost the race."""
    if not can_transition(payment.state, PaymentState(to)):
        return False
    values = {"state": to, "updated_at": utcnow(), **values}
    result = session.execute(
        update(Payment)
        .where(col(Payment.id) == payment.id, col(Payment.state) == payment.state)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if rowcount(result) != 1:
        return False
    session.refresh(payment)
    return True


# -- views ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PaymentView:
    id: int
    parent_id: int
    purpose: str
    state: str
    amount_cents: int
    invoice_number: str
    order_id: int | None
    donation_id: int | None
    txn_id: str | None
    approval_code: str | None
    card_brand: str | None
    card_masked: str | None
    result_message: str | None
    verified: bool
    refunded_cents: int
    refundable_cents: int
    created_at: str

    @property
    def approved(self) -> bool:
        return self.state == PaymentState.APPROVED


@dataclass(frozen=True)
class RefundView:
    id: int
    payment_id: int
    order_id: int | None
    amount_cents: int
    kind: str
    state: str
    txn_id: str | None
    result_message: str | None
    reason: str
    created_at: str

    @property
    def succeeded(self) -> bool:
        return self.state == RefundState.SUCCEEDED


@dataclass(frozen=True)
class RefundTotals:
    """A payment's refunds added up: what Converge returned, and what counts against what is
    left to refund (returned, waiting or unknown)."""

    refunded_cents: int = 0
    reserved_cents: int = 0


def refund_sums(session: Session, payment_ids: Iterable[int]) -> dict[int, RefundTotals]:
    """Each payment's refund totals, for many payments in one query (a listing must not query
    once per payment); a payment without refunds has zeros."""
    ids = list(payment_ids)
    by_state: dict[int, dict[str, int]] = {pid: {} for pid in ids}
    if ids:
        rows = session.exec(
            select(Refund.payment_id, Refund.state, func.sum(Refund.amount_cents))
            .where(col(Refund.payment_id).in_(ids))
            .group_by(col(Refund.payment_id), col(Refund.state))
        ).all()
        for payment_id, state, cents in rows:
            by_state[payment_id][state] = int(cents or 0)
    return {
        pid: RefundTotals(
            refunded_cents=sums.get(RefundState.SUCCEEDED, 0),
            reserved_cents=sum(sums.get(state, 0) for state in RESERVING),
        )
        for pid, sums in by_state.items()
    }


def payment_view(
    session: Session, payment: Payment, totals: RefundTotals | None = None
) -> PaymentView:
    """``totals``: this payment's entry of ``refund_sums`` when the caller lists many; read
    here otherwise (one statement: what was refunded and what is reserved, together)."""
    if totals is None:
        totals = refund_sums(session, [saved_id(payment)])[saved_id(payment)]
    refunded = totals.refunded_cents
    refundable = (
        max(0, payment.amount_cents - totals.reserved_cents)
        if payment.state == PaymentState.APPROVED
        else 0
    )
    return PaymentView(
        id=saved_id(payment),
        parent_id=payment.parent_id,
        purpose=payment.purpose,
        state=payment.state,
        amount_cents=payment.amount_cents,
        invoice_number=payment.invoice_number,
        order_id=payment.order_id,
        donation_id=payment.donation_id,
        txn_id=payment.converge_txn_id,
        approval_code=payment.approval_code,
        card_brand=payment.card_brand,
        card_masked=payment.card_masked,
        result_message=payment.result_message,
        verified=payment.verified_at is not None,
        refunded_cents=refunded,
        refundable_cents=refundable,
        created_at=payment.created_at.isoformat(),
    )


def refund_view(refund: Refund) -> RefundView:
    return RefundView(
        id=saved_id(refund),
        payment_id=refund.payment_id,
        order_id=refund.order_id,
        amount_cents=refund.amount_cents,
        kind=refund.kind,
        state=refund.state,
        txn_id=refund.converge_txn_id,
        result_message=refund.result_message,
        reason=refund.reason,
        created_at=refund.created_at.isoformat(),
    )


# -- reading -----------------------------------------------------------------------------------


def get_payment_view(
    session: Session, *, payment_id: int, parent_id: int | None = None
) -> PaymentView:
    """One payment with its sums (``payment_not_found`` for another parent's)."""
    return payment_view(session, get_payment(session, payment_id, parent_id))


def list_payments(session: Session, *, parent_id: int) -> list[PaymentView]:
    rows = session.exec(
        select(Payment).where(Payment.parent_id == parent_id).order_by(col(Payment.id).desc())
    ).all()
    sums = refund_sums(session, [saved_id(p) for p in rows])
    return [payment_view(session, p, sums[saved_id(p)]) for p in rows]


def list_refunds(session: Session, *, payment_id: int) -> list[RefundView]:
    rows = session.exec(
        select(Refund).where(Refund.payment_id == payment_id).order_by(col(Refund.id))
    ).all()
    return [refund_view(r) for r in rows]
