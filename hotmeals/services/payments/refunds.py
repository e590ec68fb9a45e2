"""Refunds: part of the payment service (``hotmeals.services.payments`` re-exports these; call
them from there). Same three steps as a charge (see that module's docstring): reserve PENDING
refund rows under the payment locks after checking the sums, commit, call Converge, record.

- A whole payment refunded before settlement is a VOID (no fee, nothing on the statement);
  anything else is a RETURN (``ccreturn``). A void refused with 4018 (the batch settled
  meanwhile) falls back to a return of the same amount on the same row.
- Never more than paid: the check ``amount <= approved - (succeeded + pending + unknown)`` runs
  under the lock, so concurrent refunds cannot both pass it.
- To family credit (``to_credit``, the parent's choice): the same row against the
  same payment, so every "refundable" sum keeps counting it, but of kind CREDIT, written
  SUCCEEDED at once together with its ``CreditEntry`` (key ``refund:<row id>``) in the same
  transaction. Nothing is sent to Converge (``execute_refund`` only reads it back); never open
  and never failed, the reconciliation and the resends never pick it up.
- What family credit paid (``credit_pay.py``) always goes back to credit (a RESTORE), and
  before anything the card paid: credit's share first, then the card's.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import update
from sqlmodel import Session, col

from hotmeals.clock import now as utcnow
from hotmeals.converge.gateway import (
    Approved,
    Declined,
    GatewayError,
    SaleOutcome,
    UnknownOutcome,
)
from hotmeals.db.models import Order, Payment, Refund
from hotmeals.domain.credit import CreditKind
from hotmeals.domain.errors import DomainError
from hotmeals.domain.payment_states import RefundKind, can_transition
from hotmeals.services import credit
from hotmeals.services.payments.purposes import handler_for
from hotmeals.services.payments.records import (
    RESERVING,
    RefundState,
    RefundView,
    audit_refund,
    audit_refund_row,
    clip,
    fresh_refund,
    insert_audited,
    kept_payment_ids,
    lock_payment,
    lock_row,
    paid_by_credit,
    refund_sum,
    refund_view,
    refundable_cents,
    rowcount,
    saved_id,
)
from hotmeals.services.payments.runtime import actor_of
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

log = logging.getLogger("hotmeals.converge")

VOID, RETURN, CREDIT = RefundKind.VOID, RefundKind.RETURN, RefundKind.CREDIT
VOID_REFUSED_SETTLED = "4018"
REASON_MAX = 200


@dataclass(frozen=True)
class RefundResult:
    refunds: list[RefundView]

    @property
    def refunded_cents(self) -> int:
        return sum(r.amount_cents for r in self.refunds if r.state == RefundState.SUCCEEDED)

    @property
    def pending_cents(self) -> int:
        return sum(
            r.amount_cents
            for r in self.refunds
            if r.state in (RefundState.PENDING, RefundState.UNKNOWN)
        )

    @property
    def failed(self) -> list[RefundView]:
        return [r for r in self.refunds if r.state == RefundState.FAILED]

    @property
    def ok(self) -> bool:
        return bool(self.refunds) and all(r.state == RefundState.SUCCEEDED for r in self.refunds)


@dataclass(frozen=True)
class PlannedRefund:
    """One PENDING refund row ``reserve_refund`` wrote: what ``execute_refund`` sends."""

    refund_id: int
    payment_id: int
    kind: str
    amount_cents: int
    sale_txn_id: str


def write_pending_refunds(
    session: Session,
    *,
    amount_cents: int,
    reason: str,
    payment_id: int | None,
    order_id: int | None,
    parent_id: int | None,
    actor: str,
    to_credit: bool = False,
) -> list[PlannedRefund]:
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int):
        raise TypeError("amount_cents must be an int")
    if amount_cents <= 0:
        raise DomainError("invalid_amount", field="amount")
    if payment_id is not None:
        payments = [lock_payment(session, payment_id, parent_id)]
    elif order_id is not None:
        order = lock_row(session, Order, order_id)  # first statement: takes the lock
        if order is None or (parent_id is not None and order.parent_id != parent_id):
            raise DomainError("payment_order_not_found")
        # Only what pays for the order: a stray attempt's money is voided on its own.
        ids = kept_payment_ids(session, order)
        payments = [lock_payment(session, pid) for pid in ids]
    else:
        raise ValueError("refund needs a payment_id or an order_id")

    left = {p.id: refundable_cents(session, p) for p in payments}
    total = sum(left.values())
    if amount_cents > total:
        raise DomainError("refund_exceeds_paid", field="amount", refundable_cents=total)

    planned: list[PlannedRefund] = []
    remaining = amount_cents
    now = utcnow()
    # What family credit paid goes back to credit first, then the card's payments, newest
    # first (domain.credit.refund_split's order).
    for payment in sorted(payments, key=lambda p: (not paid_by_credit(p), -(p.id or 0))):
        pid = saved_id(payment)
        share = min(left[pid], remaining)
        if share <= 0:
            continue
        whole = share == payment.amount_cents and refund_sum(session, pid, RESERVING) == 0
        credited = to_credit or paid_by_credit(payment)
        kind = CREDIT if credited else VOID if whole and not payment.settled else RETURN
        row = Refund(
            payment_id=pid,
            order_id=payment.order_id,
            amount_cents=share,
            kind=kind,
            state=RefundState.SUCCEEDED if credited else RefundState.PENDING,
            reason=(reason or "")[:REASON_MAX],
            created_at=now,
            updated_at=now,
        )
        row_id = insert_audited(
            session,
            row,
            actor=actor,
            kind="refund.requested",
            entity="refund",
            data={
                "payment_id": pid,
                "invoice": payment.invoice_number,
                "kind": kind,
                "amount_cents": share,
                "reason": row.reason,
            },
        )
        if credited:
            _credit_refund(session, row, payment, actor)
        planned.append(PlannedRefund(row_id, pid, kind, share, payment.converge_txn_id or ""))
        remaining -= share
        if remaining == 0:
            break
    return planned


def _credit_refund(session: Session, row: Refund, payment: Payment, actor: str) -> None:
    """``row`` (kind CREDIT, SUCCEEDED) was just written: its ledger row (once per refund row:
    the key is the row's; RESTORE when credit had paid, REFUND when the card had), then what
    a refund's success does (the order's clock, the refund e-mail saying it went to family
    credit)."""
    refund_id = saved_id(row)
    credit.record(
        session,
        payment.parent_id,
        CreditKind.RESTORE if paid_by_credit(payment) else CreditKind.REFUND,
        row.amount_cents,
        key=f"refund:{refund_id}",
        order_id=payment.order_id,
    )
    handler = handler_for(payment.purpose)
    handler.refunded(session, payment, row)
    handler.refund_answered(session, payment, row, first=True)
    audit_refund_row(session, row, actor=actor, kind="refund.to_credit")


def reserve_refund(
    session: Session,
    *,
    amount_cents: int,
    reason: str,
    actor: str,
    order_id: int | None = None,
    payment_id: int | None = None,
    parent_id: int | None = None,
    cancellation_id: int | None = None,
    to_credit: bool = False,
) -> list[PlannedRefund]:
    """Step 1 of a refund, in the caller's own transaction: for a service that changes an
    order and must reserve its refund atomically with that change (a cancel, a decrease).

    Locks the payment (or the order, then its approved payments, newest first), checks that
    ``amount_cents`` is no more than what remains refundable (``refund_exceeds_paid``
    otherwise: nothing is written) and writes PENDING ``Refund`` rows, tagged with
    ``cancellation_id`` when given. The caller commits, then sends each with
    ``execute_refund`` with no transaction open. ``to_credit``: the refund goes to the
    family's credit instead, done here (``_credit_refund``); ``execute_refund`` sends nothing."""
    planned = write_pending_refunds(
        session,
        amount_cents=amount_cents,
        reason=reason,
        payment_id=payment_id,
        order_id=order_id,
        parent_id=parent_id,
        actor=actor,
        to_credit=to_credit,
    )
    if planned and cancellation_id is not None:
        session.execute(
            update(Refund)
            .where(col(Refund.id).in_([p.refund_id for p in planned]))
            .values(cancellation_id=cancellation_id)
            .execution_options(synchronize_session=False)
        )
    return planned


async def execute_refund(
    planned: PlannedRefund,
    *,
    actor: str,
    runtime: Runtime = APP,
) -> RefundView:
    """Steps 2 and 3 of a refund ``reserve_refund`` reserved, once that transaction is
    committed and with none open: Converge voids or returns it (a refused void of a settled
    batch becomes a return), and the outcome is recorded on its row. Returns the row's view;
    a lost answer stays UNKNOWN for the reconciliation. A refund to credit is done already:
    its row is read back, nothing is sent."""
    if planned.kind == CREDIT:
        return await run_in_transaction(
            _read_refund, engine=runtime.engine, refund_id=planned.refund_id
        )
    return await _execute(planned, actor, runtime=runtime)


def _read_refund(session: Session, *, refund_id: int) -> RefundView:
    return refund_view(fresh_refund(session, refund_id))


def _void_refused(session: Session, *, planned: PlannedRefund, actor: str, message: str) -> None:
    payment = lock_payment(session, planned.payment_id)
    payment.settled = True  # a cache of what Converge said; only used to skip a void next time
    session.add(payment)
    session.execute(
        update(Refund)
        .where(col(Refund.id) == planned.refund_id, col(Refund.state) == RefundState.PENDING)
        .values(kind=RETURN, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    audit_refund(
        session,
        planned.refund_id,
        actor=actor,
        kind="refund.void_refused",
        data={"payment_id": planned.payment_id, "message": message, "fallback": RETURN},
    )


@dataclass(frozen=True)
class RefundAnswer:
    """What became of a void or return: the refund's new state, the kind of its audit event,
    and the transaction id and message Converge gave (or the reconciliation's)."""

    to: str
    kind: str
    txn_id: str | None = None
    message: str | None = None


def settle_refund(
    session: Session,
    *,
    refund_id: int,
    payment_id: int,
    answer: RefundAnswer,
    actor: str,
    from_states: tuple[str, ...] = (RefundState.PENDING,),
) -> RefundView:
    to, txn_id, message = answer.to, answer.txn_id, answer.message
    payment = lock_payment(session, payment_id)
    # Only the moves domain.payment_states allows; a row in any other state is left alone.
    from_states = tuple(s for s in from_states if can_transition(s, RefundState(to)))
    values: dict = {"state": to, "updated_at": utcnow(), "result_message": clip(message)}
    if txn_id:
        values["converge_txn_id"] = txn_id[:64]
    moved = rowcount(
        session.execute(
            update(Refund)
            .where(col(Refund.id) == refund_id, col(Refund.state).in_(list(from_states)))
            .values(**values)
            .execution_options(synchronize_session=False)
        )
    )
    row = fresh_refund(session, refund_id)
    if moved == 1:
        handler = handler_for(payment.purpose)
        if to == RefundState.FAILED:
            _after_failure(session, row, payment)
        if to == RefundState.SUCCEEDED:
            handler.refunded(session, payment, row)
        if to in (RefundState.SUCCEEDED, RefundState.FAILED, RefundState.UNKNOWN):
            first = tuple(from_states) == (RefundState.PENDING,)
            handler.refund_answered(session, payment, row, first=first)
        audit_refund(
            session,
            refund_id,
            actor=actor,
            kind=answer.kind,
            data={
                "payment_id": payment_id,
                "invoice": payment.invoice_number,
                "kind": row.kind,
                "amount_cents": row.amount_cents,
                "txn_id": txn_id,
                "message": message,
            },
        )
    return refund_view(row)


def _answer_of(outcome: SaleOutcome) -> RefundAnswer:
    """Converge's answer to a void or return, as the refund records it."""
    if isinstance(outcome, Approved):
        return RefundAnswer(RefundState.SUCCEEDED, "refund.succeeded", outcome.txn_id, "APPROVAL")
    if isinstance(outcome, Declined):
        return RefundAnswer(
            RefundState.FAILED, "refund.failed", outcome.txn_id, outcome.result_message
        )
    if isinstance(outcome, GatewayError):
        text = f"{outcome.error_code} {outcome.error_name}: {outcome.error_message}"
        return RefundAnswer(RefundState.FAILED, "refund.failed", None, text)
    assert isinstance(outcome, UnknownOutcome)
    return RefundAnswer(RefundState.UNKNOWN, "refund.unknown", None, outcome.reason)


async def _execute(planned: PlannedRefund, actor: str, *, runtime: Runtime) -> RefundView:
    engine, gw = runtime.engine, runtime.converge
    if planned.kind == VOID:
        outcome = await gw.void(planned.sale_txn_id)
        if isinstance(outcome, GatewayError) and outcome.error_code == VOID_REFUSED_SETTLED:
            await run_in_transaction(
                _void_refused,
                engine=engine,
                planned=planned,
                actor=actor,
                message=outcome.error_message,
            )
            outcome = await gw.refund(planned.sale_txn_id, planned.amount_cents)
    else:
        outcome = await gw.refund(planned.sale_txn_id, planned.amount_cents)
    return await run_in_transaction(
        settle_refund,
        engine=engine,
        refund_id=planned.refund_id,
        payment_id=planned.payment_id,
        answer=_answer_of(outcome),
        actor=actor,
    )


async def refund(
    *,
    amount_cents: int,
    reason: str = "",
    payment_id: int | None = None,
    order_id: int | None = None,
    parent_id: int | None = None,
    actor: str | None = None,
    runtime: Runtime = APP,
) -> RefundResult:
    """Refund ``amount_cents`` of one payment, or of an order (spread over its approved
    payments, newest first). Raises ``refund_exceeds_paid`` (nothing is sent) when that is
    more than what remains refundable. Converge's refusals are recorded as FAILED refunds
    with their message and returned; check ``result.ok``."""
    who = actor_of(parent_id, actor)
    plan = await run_in_transaction(
        write_pending_refunds,
        engine=runtime.engine,
        amount_cents=amount_cents,
        reason=reason,
        payment_id=payment_id,
        order_id=order_id,
        parent_id=parent_id,
        actor=who,
    )
    return RefundResult([await _execute(item, who, runtime=runtime) for item in plan])


# -- refunds Converge refused: sent again, finitely -------------------------------------------

# A FAILED refund is sent again after each delay in turn (so MAX_TRIES tries in all, over about
# two and a half hours); when the last try fails too it is flagged for an operator
# (``attention_at``; ``python -m hotmeals.cli refunds-needing-attention``) and the parent is
# told it is delayed. Stored on the rows, so a restart or another worker carries on.
RESEND_DELAYS = (
    timedelta(minutes=2),
    timedelta(minutes=10),
    timedelta(minutes=30),
    timedelta(hours=2),
)
MAX_TRIES = len(RESEND_DELAYS) + 1


def _after_failure(session: Session, row: Refund, payment: Payment) -> None:
    """``row`` just became FAILED (same transaction, payment locked): schedule its next try,
    or flag it for a person after the last one. Either way it stays owed
    (``records.owed_failed``): a later cancel does not take it as credit."""
    now = utcnow()
    if row.attempt < MAX_TRIES:
        row.retry_at = now + RESEND_DELAYS[max(row.attempt, 1) - 1]
    else:
        row.retry_at = None
        row.attention_at = now
        audit_refund_row(
            session,
            row,
            actor="system",
            kind="refund.needs_attention",
            invoice=payment.invoice_number,
            tries=row.attempt,
            message=row.result_message,
        )
    session.add(row)
    session.flush()
