"""Giving back the whole of an approved payment that paid for nothing (an order not placed, a
change not applied, an attempt its order or change no longer waits for): a void before
settlement, a return after, through the payment service's refund."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from sqlmodel import Session

from hotmeals.db.models import Payment
from hotmeals.domain.errors import DomainError
from hotmeals.domain.refunds import RefundReason
from hotmeals.services.payments.records import refundable_cents
from hotmeals.services.payments.refunds import refund
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction


def _refundable(session: Session, *, payment_id: int) -> int:
    payment = session.get(Payment, payment_id)
    return refundable_cents(session, payment) if payment else 0


async def reverse_in_full(
    payment_id: int,
    *,
    reason: RefundReason,
    runtime: Runtime = APP,
) -> bool:
    """Refund what is left of ``payment_id`` (all of it, unless part is refunded already).
    True when the money is back or on its way, or nothing is left to give back (refunded
    meanwhile by another call); False when Converge refused (the reconciliation tries
    again)."""
    amount = await run_in_transaction(_refundable, engine=runtime.engine, payment_id=payment_id)
    if amount <= 0:
        return True
    try:
        result = await refund(
            amount_cents=amount,
            reason=reason,
            payment_id=payment_id,
            actor="system",
            runtime=runtime,
        )
    except DomainError as err:  # nothing left to refund: given back already by another call
        if err.code in ("refund_exceeds_paid", "invalid_amount"):
            return True
        raise
    return not result.failed


async def reverse_each(
    payment_ids: Iterable[int],
    *,
    reason: RefundReason,
    log: logging.Logger,
    what: str,
    runtime: Runtime = APP,
) -> list[int]:
    """``reverse_in_full`` for each payment of a periodic round, one failure (logged to
    ``log`` as "could not void ``what``") not stopping the others. Returns the ids reversed
    (or on their way back)."""
    done = []
    for payment_id in payment_ids:
        try:
            if await reverse_in_full(payment_id, reason=reason, runtime=runtime):
                done.append(payment_id)
        except Exception:  # noqa: BLE001 - one failure must not stop the round
            log.exception("payment %s: could not void %s", payment_id, what)
    return done
