"""Refunds Converge refused, sent again: each FAILED refund is tried again after the delays
of ``refunds.RESEND_DELAYS`` (as a new PENDING row for what is still owed of it), then flagged
for a person, who retries it or settles it by other means (``retry_refund``,
``resolve_refund``; ``python -m hotmeals.cli refunds-needing-attention``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import update
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.services.payments.purposes import handler_for
from hotmeals.services.payments.records import (
    RefundState,
    RefundView,
    audit_refund_row,
    fresh_refund,
    lock_payment,
    refund_view,
    refundable_cents,
)
from hotmeals.services.payments.refunds import (
    MAX_TRIES,
    PlannedRefund,
    execute_refund,
    write_pending_refunds,
)
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

log = logging.getLogger("hotmeals.converge")


def _due_refunds(session: Session, *, now: datetime) -> list[tuple[int, int]]:
    rows = session.exec(
        select(Refund.id, Refund.payment_id)
        .where(Refund.state == RefundState.FAILED, col(Refund.retry_at) <= now)
        .order_by(col(Refund.id))
    ).all()
    return [(rid, pid) for rid, pid in rows if rid is not None]


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
        audit_refund_row(session, row, actor="system", kind="refund.not_owed")
        return None
    [planned] = write_pending_refunds(
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
        .where(col(Refund.id) == planned.refund_id)
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
    runtime: Runtime = APP,
) -> list[RefundView]:
    """The periodic round's part (``jobs/payment_round.py``): every FAILED refund whose next try is
    due, whatever caused it (a cancel, a decrease or a move, a void of a stray sale, a lost
    answer reconciled as not made), is sent again. Returns the new tries' views."""
    engine = runtime.engine
    current = runtime.now()
    out = []
    for refund_id, payment_id in await run_in_transaction(_due_refunds, engine=engine, now=current):
        try:
            planned = await run_in_transaction(
                _reserve_again,
                engine=engine,
                refund_id=refund_id,
                payment_id=payment_id,
                now=current,
            )
            if planned is not None:
                out.append(await execute_refund(planned, actor="system", runtime=runtime))
        except Exception:  # noqa: BLE001 - one failure must not stop the round
            log.exception("refund %s: could not send it again", refund_id)
    return out


@dataclass(frozen=True)
class FlaggedRefund:
    """A refund whose last try failed and that waits on a person."""

    refund_id: int
    payment_id: int
    invoice: str
    order_id: int | None
    parent_id: int
    amount_cents: int
    kind: str
    tries: int
    message: str | None
    flagged_at: datetime | None


def refunds_needing_attention(session: Session) -> list[FlaggedRefund]:
    """Refunds whose last try failed, oldest first: a person must act (refund by other means,
    then ``resolve_refund``; or ``retry_refund`` once the cause is fixed). One query."""
    rows = session.exec(
        select(Refund, Payment)
        .join(Payment, col(Payment.id) == col(Refund.payment_id))
        .where(Refund.state == RefundState.FAILED, col(Refund.attention_at).is_not(None))
        .order_by(col(Refund.attention_at), col(Refund.id))
    ).all()
    return [
        FlaggedRefund(
            refund_id=r.id or 0,
            payment_id=p.id or 0,
            invoice=p.invoice_number,
            order_id=r.order_id,
            parent_id=p.parent_id,
            amount_cents=r.amount_cents,
            kind=r.kind,
            tries=r.attempt,
            message=r.result_message,
            flagged_at=r.attention_at,
        )
        for r, p in rows
    ]


def _failed_refund(session: Session, refund_id: int) -> tuple[Refund, Payment]:
    """A FAILED refund an operator acts on, read again under its payment's lock."""
    row = session.get(Refund, refund_id)
    if row is None or row.state != RefundState.FAILED:
        raise DomainError("refund_not_found")
    payment = lock_payment(session, row.payment_id)
    return fresh_refund(session, refund_id), payment


def retry_refund(session: Session, *, refund_id: int, actor: str) -> RefundView:
    """An operator sends a flagged (or failed) refund again at the next round, with one more
    try before it is flagged again."""
    row, _locked = _failed_refund(session, refund_id)  # the payment stays locked
    row.attention_at = None
    row.retry_at = utcnow()
    row.attempt = min(row.attempt, MAX_TRIES - 1)
    session.add(row)
    audit_refund_row(session, row, actor=actor, kind="refund.retry_requested")
    session.flush()
    return refund_view(row)


def resolve_refund(session: Session, *, refund_id: int, actor: str, note: str) -> RefundView:
    """An operator settled a flagged refund by other means: it is owed no more."""
    row, _locked = _failed_refund(session, refund_id)  # the payment stays locked
    row.attention_at = None
    row.retry_at = None
    session.add(row)
    audit_refund_row(session, row, actor=actor, kind="refund.resolved", note=note[:200])
    session.flush()
    return refund_view(row)
