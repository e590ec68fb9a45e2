"""Refunds: part of the payment service (``hotmeals.services.payments`` re-exports these; call
them from there). Same three steps as a charge (see that module's docstring): reserve PENDING
refund rows under the payment locks after checking the sums, commit, call Converge, record.

- A whole payment refunded before settlement is a VOID (no fee, nothing on the statement);
  anything else is a RETURN (``ccreturn``). A void refused with 4018 (the batch settled
  meanwhile) falls back to a return of the same amount on the same row.
- Never more than paid: the check ``amount <= approved - (succeeded + pending + unknown)`` runs
  under the lock, so concurrent refunds cannot both pass it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import cast

from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from hotmeals.db.models import Order, Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.domain.payments import RefundKind, can_transition
from hotmeals.payments.converge import SharedSearches
from hotmeals.payments.gateway import (
    Approved,
    Declined,
    GatewayError,
    PaymentGateway,
    SaleOutcome,
    UnknownOutcome,
)
from hotmeals.services.clock import now as utcnow
from hotmeals.services.payments.purposes import handler_for
from hotmeals.services.payments.records import (
    RESERVING,
    RefundState,
    RefundView,
    audit,
    clip,
    converge_invoice,
    kept_payment_ids,
    lock_payment,
    lock_row,
    refund_sum,
    refund_view,
    refundable_cents,
)
from hotmeals.services.payments.runtime import actor_of, db, gateway_or_default

log = logging.getLogger("hotmeals.payments")

VOID, RETURN = RefundKind.VOID, RefundKind.RETURN
VOID_REFUSED_SETTLED = "4018"
REFUND_WINDOW = timedelta(minutes=20)
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


def _reserve(
    session: Session,
    *,
    amount_cents: int,
    reason: str,
    payment_id: int | None,
    order_id: int | None,
    parent_id: int | None,
    actor: str,
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
    for payment in sorted(payments, key=lambda p: p.id or 0, reverse=True):  # newest first
        share = min(left[payment.id], remaining)
        if share <= 0:
            continue
        whole = share == payment.amount_cents and refund_sum(session, payment.id, RESERVING) == 0
        kind = VOID if whole and not payment.settled else RETURN
        row = Refund(
            payment_id=payment.id,
            order_id=payment.order_id,
            amount_cents=share,
            kind=kind,
            state=RefundState.PENDING,
            reason=(reason or "")[:REASON_MAX],
            created_at=now,
            updated_at=now,
        )
        session.add(row)
        session.flush()
        audit(
            session,
            actor=actor,
            kind="refund.requested",
            entity="refund",
            entity_id=row.id,
            data={
                "payment_id": payment.id,
                "invoice": payment.invoice_number,
                "kind": kind,
                "amount_cents": share,
                "reason": row.reason,
            },
        )
        planned.append(
            PlannedRefund(row.id, payment.id, kind, share, payment.converge_txn_id or "")
        )
        remaining -= share
        if remaining == 0:
            break
    return planned


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
) -> list[PlannedRefund]:
    """Step 1 of a refund, in the caller's own transaction: for a service that changes an
    order and must reserve its refund atomically with that change (a cancel, a decrease).

    Locks the payment (or the order, then its approved payments, newest first), checks that
    ``amount_cents`` is no more than what remains refundable (``refund_exceeds_paid``
    otherwise: nothing is written) and writes PENDING ``Refund`` rows, tagged with
    ``cancellation_id`` when given. The caller commits, then sends each with
    ``execute_refund`` with no transaction open."""
    planned = _reserve(
        session,
        amount_cents=amount_cents,
        reason=reason,
        payment_id=payment_id,
        order_id=order_id,
        parent_id=parent_id,
        actor=actor,
    )
    if planned and cancellation_id is not None:
        session.execute(
            update(Refund)
            .where(Refund.id.in_([p.refund_id for p in planned]))
            .values(cancellation_id=cancellation_id)
            .execution_options(synchronize_session=False)
        )
    return planned


async def execute_refund(
    planned: PlannedRefund,
    *,
    actor: str,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> RefundView:
    """Steps 2 and 3 of a refund ``reserve_refund`` reserved, once that transaction is
    committed and with none open: Converge voids or returns it (a refused void of a settled
    batch becomes a return), and the outcome is recorded on its row. Returns the row's view;
    a lost answer stays UNKNOWN for the reconciliation."""
    return await _execute(engine, gateway_or_default(gateway), planned, actor)


def _void_refused(session: Session, *, planned: PlannedRefund, actor: str, message: str) -> None:
    payment = lock_payment(session, planned.payment_id)
    payment.settled = True  # a cache of what Converge said; only used to skip a void next time
    session.add(payment)
    session.execute(
        update(Refund)
        .where(Refund.id == planned.refund_id, Refund.state == RefundState.PENDING)
        .values(kind=RETURN, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    audit(
        session,
        actor=actor,
        kind="refund.void_refused",
        entity="refund",
        entity_id=planned.refund_id,
        data={"payment_id": planned.payment_id, "message": message, "fallback": RETURN},
    )


def _settle_refund(
    session: Session,
    *,
    refund_id: int,
    payment_id: int,
    to: str,
    actor: str,
    kind: str,
    txn_id: str | None = None,
    message: str | None = None,
    from_states: tuple[str, ...] = (RefundState.PENDING,),
) -> RefundView:
    payment = lock_payment(session, payment_id)
    # Only the moves domain.payments allows; a row in any other state is left alone.
    from_states = tuple(s for s in from_states if can_transition(s, RefundState(to)))
    values: dict = {"state": to, "updated_at": utcnow(), "result_message": clip(message)}
    if txn_id:
        values["converge_txn_id"] = txn_id[:64]
    moved = session.execute(
        update(Refund)
        .where(Refund.id == refund_id, Refund.state.in_(list(from_states)))
        .values(**values)
        .execution_options(synchronize_session=False)
    ).rowcount
    row = session.get(Refund, refund_id, populate_existing=True)
    if moved == 1:
        handler = handler_for(payment.purpose)
        if to == RefundState.FAILED:
            _after_failure(session, row, payment)
        if to == RefundState.SUCCEEDED:
            handler.refunded(session, payment, row)
        if to in (RefundState.SUCCEEDED, RefundState.FAILED, RefundState.UNKNOWN):
            first = tuple(from_states) == (RefundState.PENDING,)
            handler.refund_answered(session, payment, row, first=first)
        audit(
            session,
            actor=actor,
            kind=kind,
            entity="refund",
            entity_id=refund_id,
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


def _outcome_fields(outcome: SaleOutcome) -> tuple[str, str, str | None, str | None]:
    """(state, audit kind, txn id, message) for a void/return answer."""
    if isinstance(outcome, Approved):
        return RefundState.SUCCEEDED, "refund.succeeded", outcome.txn_id, "APPROVAL"
    if isinstance(outcome, Declined):
        return RefundState.FAILED, "refund.failed", outcome.txn_id, outcome.result_message
    if isinstance(outcome, GatewayError):
        text = f"{outcome.error_code} {outcome.error_name}: {outcome.error_message}"
        return RefundState.FAILED, "refund.failed", None, text
    assert isinstance(outcome, UnknownOutcome)
    return RefundState.UNKNOWN, "refund.unknown", None, outcome.reason


async def _execute(
    engine: Engine | None, gw: PaymentGateway, planned: PlannedRefund, actor: str
) -> RefundView:
    if planned.kind == VOID:
        outcome = await gw.void(planned.sale_txn_id)
        if isinstance(outcome, GatewayError) and outcome.error_code == VOID_REFUSED_SETTLED:
            await db(
                engine, _void_refused, planned=planned, actor=actor, message=outcome.error_message
            )
            outcome = await gw.refund(planned.sale_txn_id, planned.amount_cents)
    else:
        outcome = await gw.refund(planned.sale_txn_id, planned.amount_cents)
    state, kind, txn_id, message = _outcome_fields(outcome)
    return await db(
        engine,
        _settle_refund,
        refund_id=planned.refund_id,
        payment_id=planned.payment_id,
        to=state,
        actor=actor,
        kind=kind,
        txn_id=txn_id,
        message=message,
    )


async def refund(
    *,
    amount_cents: int,
    reason: str = "",
    payment_id: int | None = None,
    order_id: int | None = None,
    parent_id: int | None = None,
    actor: str | None = None,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> RefundResult:
    """Refund ``amount_cents`` of one payment, or of an order (spread over its approved
    payments, newest first). Raises ``refund_exceeds_paid`` (nothing is sent) when that is
    more than what remains refundable. Converge's refusals are recorded as FAILED refunds
    with their message and returned; check ``result.ok``."""
    gw = gateway_or_default(gateway)
    who = actor_of(parent_id, actor)
    plan = await db(
        engine,
        _reserve,
        amount_cents=amount_cents,
        reason=reason,
        payment_id=payment_id,
        order_id=order_id,
        parent_id=parent_id,
        actor=who,
    )
    return RefundResult([await _execute(engine, gw, item, who) for item in plan])


# -- refunds Converge refused: sent again, finitely (issue 21) -------------------------------------

# A FAILED refund is sent again after each delay in turn (so MAX_TRIES tries in all, over about
# two and a half hours); when the last try fails too it is flagged for an operator
# (``attention_at``; ``python -m hotmeals.db.cli refunds-needing-attention``) and the parent is
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
        audit(
            session,
            actor="system",
            kind="refund.needs_attention",
            entity="refund",
            entity_id=row.id or 0,
            data={
                "payment_id": payment.id,
                "invoice": payment.invoice_number,
                "amount_cents": row.amount_cents,
                "tries": row.attempt,
                "message": row.result_message,
            },
        )
    session.add(row)
    session.flush()


def _due_refunds(session: Session, *, now: datetime) -> list[tuple[int, int]]:
    rows = session.exec(
        select(Refund.id, Refund.payment_id)
        .where(Refund.state == RefundState.FAILED, Refund.retry_at <= now)
        .order_by(Refund.id)
    ).all()
    return [(rid, pid) for rid, pid in rows]


def _reserve_again(
    session: Session, *, refund_id: int, payment_id: int, now: datetime
) -> PlannedRefund | None:
    """Under the payment's lock (and its order's): the FAILED refund is sent again as a new
    PENDING row (its ``retry_of_id``, one more ``attempt``), for what is still owed of it
    (the purpose's ``still_owed``: for an order, capped by the refund arithmetic so money a
    later refund already gave back is never sent twice). None when it is not due (another
    worker took it) or nothing is owed any more."""
    payment = lock_payment(session, payment_id)
    row = session.get(Refund, refund_id, populate_existing=True)
    if row is None or row.state != RefundState.FAILED or row.retry_at is None:
        return None
    if row.retry_at > now:
        return None
    owed = min(
        handler_for(payment.purpose).still_owed(session, payment, row),
        refundable_cents(session, payment),
        row.amount_cents,
    )
    row.retry_at = None
    session.add(row)
    session.flush()
    if owed <= 0:
        audit(
            session,
            actor="system",
            kind="refund.not_owed",
            entity="refund",
            entity_id=refund_id,
            data={"payment_id": payment_id, "amount_cents": row.amount_cents},
        )
        return None
    [planned] = _reserve(
        session,
        amount_cents=owed,
        reason=row.reason,
        payment_id=payment_id,
        order_id=None,
        parent_id=None,
        actor="system",
    )
    session.execute(
        update(Refund)
        .where(Refund.id == planned.refund_id)
        .values(
            retry_of_id=refund_id,
            attempt=row.attempt + 1,
            cancellation_id=row.cancellation_id,
        )
        .execution_options(synchronize_session=False)
    )
    return planned


async def resend_failed_refunds(
    *,
    now: datetime | None = None,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> list[RefundView]:
    """The periodic job's part (``reconcile_round``): every FAILED refund whose next try is
    due, whatever caused it (a cancel, a decrease or a move, a void of a stray sale, a lost
    answer reconciled as not made), is sent again. Returns the new tries' views."""
    gw = gateway_or_default(gateway)
    current = now or utcnow()
    out = []
    for refund_id, payment_id in await db(engine, _due_refunds, now=current):
        try:
            planned = await db(
                engine, _reserve_again, refund_id=refund_id, payment_id=payment_id, now=current
            )
            if planned is not None:
                out.append(await _execute(engine, gw, planned, "system"))
        except Exception:  # noqa: BLE001 - one failure must not stop the round
            log.exception("refund %s: could not send it again", refund_id)
    return out


def refunds_needing_attention(session: Session) -> list[dict]:
    """Refunds whose last try failed, oldest first: a person must act (refund by other means,
    then ``resolve_refund``; or ``retry_refund`` once the cause is fixed). One query."""
    rows = session.exec(
        select(Refund, Payment)
        .join(Payment, Payment.id == Refund.payment_id)
        .where(Refund.state == RefundState.FAILED, Refund.attention_at.is_not(None))
        .order_by(Refund.attention_at, Refund.id)
    ).all()
    return [
        {
            "refund_id": r.id,
            "payment_id": p.id,
            "invoice": p.invoice_number,
            "order_id": r.order_id,
            "parent_id": p.parent_id,
            "amount_cents": r.amount_cents,
            "kind": r.kind,
            "tries": r.attempt,
            "message": r.result_message,
            "flagged_at": r.attention_at.isoformat() if r.attention_at else None,
        }
        for r, p in rows
    ]


def retry_refund(session: Session, *, refund_id: int, actor: str) -> RefundView:
    """An operator sends a flagged (or failed) refund again at the next round, with one more
    try before it is flagged again."""
    row = session.get(Refund, refund_id)
    if row is None or row.state != RefundState.FAILED:
        raise DomainError("refund_not_found")
    payment = lock_payment(session, row.payment_id)
    row = session.get(Refund, refund_id, populate_existing=True)
    row.attention_at = None
    row.retry_at = utcnow()
    row.attempt = min(row.attempt, MAX_TRIES - 1)
    session.add(row)
    audit(
        session,
        actor=actor,
        kind="refund.retry_requested",
        entity="refund",
        entity_id=refund_id,
        data={"payment_id": payment.id, "amount_cents": row.amount_cents},
    )
    session.flush()
    return refund_view(row)


def resolve_refund(session: Session, *, refund_id: int, actor: str, note: str) -> RefundView:
    """An operator settled a flagged refund by other means: it is owed no more."""
    row = session.get(Refund, refund_id)
    if row is None or row.state != RefundState.FAILED:
        raise DomainError("refund_not_found")
    payment = lock_payment(session, row.payment_id)
    row = session.get(Refund, refund_id, populate_existing=True)
    row.attention_at = None
    row.retry_at = None
    session.add(row)
    audit(
        session,
        actor=actor,
        kind="refund.resolved",
        entity="refund",
        entity_id=refund_id,
        data={"payment_id": payment.id, "amount_cents": row.amount_cents, "note": note[:200]},
    )
    session.flush()
    return refund_view(row)


# -- reconciliation -------------------------------------------------------------------------------


def _refund_inputs(session: Session, *, refund_id: int) -> tuple[Refund, Payment, str, set[str]]:
    row = session.get(Refund, refund_id)
    if row is None:
        raise DomainError("refund_not_found")
    payment = session.get(Payment, row.payment_id)
    # A duplicate sale row's refund is found under the invoice its sale carries; the
    # refunds of every row of that invoice are the ones already claimed.
    invoice = converge_invoice(session, payment)
    root = payment.duplicate_of_id or payment.id
    rows = select(Payment.id).where((Payment.id == root) | (Payment.duplicate_of_id == root))
    known = session.exec(
        select(Refund.converge_txn_id).where(
            Refund.payment_id.in_(rows), Refund.converge_txn_id.is_not(None)
        )
    ).all()
    return row, payment, invoice, {t for t in known if t}


async def reconcile_refund(
    *,
    refund_id: int,
    actor: str = "system",
    now: datetime | None = None,
    window: timedelta = REFUND_WINDOW,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> RefundView:
    """A refund whose answer was lost: look for a VOID/RETURN of that amount under the
    payment's invoice that no other refund row claims. Found -> SUCCEEDED; none once the
    window is over -> FAILED (the money is refundable again); otherwise unchanged."""
    gw = gateway_or_default(gateway)
    row, payment, invoice, known = await db(engine, _refund_inputs, refund_id=refund_id)
    if row.state not in (RefundState.PENDING, RefundState.UNKNOWN):
        return refund_view(row)
    current = now or utcnow()
    found = await gw.find_by_invoice(
        invoice,
        start=(row.created_at - timedelta(days=1)).date(),
        end=(current + timedelta(days=1)).date(),
    )
    if isinstance(found, GatewayError | UnknownOutcome):
        return refund_view(row)
    kinds = {"VOID", "DELETE"} if row.kind == VOID else {"RETURN"}
    match = next(
        (
            q
            for q in found
            if q.transaction_type.upper() in kinds
            and q.amount_cents == row.amount_cents
            and q.txn_id not in known
        ),
        None,
    )
    states = (RefundState.PENDING, RefundState.UNKNOWN)
    if match is not None:
        return await db(
            engine,
            _settle_refund,
            refund_id=refund_id,
            payment_id=payment.id,
            to=RefundState.SUCCEEDED,
            actor=actor,
            kind="refund.succeeded",
            txn_id=match.txn_id,
            message="reconciled",
            from_states=states,
        )
    if current - row.created_at < window:
        return refund_view(row)
    return await db(
        engine,
        _settle_refund,
        refund_id=refund_id,
        payment_id=payment.id,
        to=RefundState.FAILED,
        actor=actor,
        kind="refund.failed",
        message="no refund at Converge (reconciled)",
        from_states=states,
    )


def _open_refunds(session: Session, *, before: datetime) -> list[int]:
    rows = session.exec(
        select(Refund.id)
        .where(
            Refund.state.in_([RefundState.PENDING, RefundState.UNKNOWN]),
            Refund.updated_at <= before,
        )
        .order_by(Refund.id)
    ).all()
    return list(rows)


async def reconcile_open_refunds(
    *,
    older_than: timedelta = timedelta(minutes=2),
    now: datetime | None = None,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> list[RefundView]:
    """The periodic job for refunds whose answer never came (PENDING or UNKNOWN)."""
    current = now or utcnow()  # fixed before the first search (``SharedSearches``)
    ids = await db(engine, _open_refunds, before=current - older_than)
    shared = cast(PaymentGateway, SharedSearches(gateway_or_default(gateway)))
    return [
        await reconcile_refund(refund_id=rid, now=current, engine=engine, gateway=shared)
        for rid in ids
    ]
