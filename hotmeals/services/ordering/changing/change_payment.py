"""The payment of a change that costs more: its outcome settled (applied, dropped and voided,
or back to a draft), the attempts Converge has not had the last word on asked about, and the
approved change payments that paid for nothing given back (the periodic job's part too)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import Order, OrderChange, Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.domain.payment_states import PaymentMethod, PaymentState, Purpose
from hotmeals.domain.refunds import RefundReason
from hotmeals.services.ordering.changing.change_plan import (
    APPLIED,
    DRAFT,
    DROPPED,
    LIVE,
    MODIFY,
    PAYING,
)
from hotmeals.services.ordering.changing.change_result import ChangeResult, result_of
from hotmeals.services.payments import SESSION_WINDOW, ask_converge
from hotmeals.services.payments.records import RESERVING, get_payment, lock_row
from hotmeals.services.payments.reversal import reverse_in_full
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

log = logging.getLogger("hotmeals.order_changes")


async def _void(payment_id: int, *, runtime: Runtime) -> None:
    await reverse_in_full(payment_id, reason=RefundReason.CHANGE_NOT_APPLIED, runtime=runtime)


def close_stale_payments(session: Session, order_id: int) -> None:
    """A change still waiting for its payment blocks another one, unless that payment is over
    (declined, expired): then it is a draft again or dropped."""
    for change, payment in session.exec(
        select(OrderChange, Payment)
        .join(Payment, col(Payment.id) == OrderChange.payment_id)
        .where(col(OrderChange.order_id) == order_id, col(OrderChange.state) == PAYING)
    ).all():
        if payment.state in LIVE:
            raise DomainError("order_change_in_progress", field="order_id")
        if payment.state != PaymentState.APPROVED:
            back_to_draft(session, change)


def back_to_draft(session: Session, change: OrderChange) -> None:
    """A change whose payment failed: a draft again (so the parent can pay another way), or
    dropped when the order has another draft meanwhile."""
    other = session.exec(
        select(col(OrderChange.id)).where(
            col(OrderChange.order_id) == change.order_id,
            col(OrderChange.state) == DRAFT,
            col(OrderChange.kind) == MODIFY,
            col(OrderChange.id) != change.id,
        )
    ).first()
    change.state = DRAFT if (change.kind == MODIFY and other is None) else DROPPED
    # The failed attempt stays linked (a draft pays with a new one): if Converge made its sale
    # after all, it is traced to this change and voided, never kept.
    change.request_key = None
    change.updated_at = clock.now()
    session.add(change)
    session.flush()


def payment_state(session: Session, *, payment_id: int) -> str | None:
    payment = session.get(Payment, payment_id)
    return None if payment is None else payment.state


async def settle(
    change_id: int,
    *,
    parent_id: int,
    payment_id: int | None = None,
    runtime: Runtime = APP,
) -> ChangeResult:
    """After the payment's outcome is recorded: a dropped change's approved charge is voided;
    so is an approved attempt its change no longer waits for (``payment_id``: the attempt
    just settled, when it may not be the change's current one)."""
    engine = runtime.engine
    result = await run_in_transaction(result_of, engine=engine, change_id=change_id)
    stray = await run_in_transaction(
        _stray_attempt, engine=engine, change_id=change_id, payment_id=payment_id
    )
    if stray is not None:
        await _void(stray, runtime=runtime)
        return replace(
            result, status="dropped", payment_id=stray, notice="order_change.attempt_voided"
        )
    if result.status == "dropped" and result.payment_id is not None:
        await _void(result.payment_id, runtime=runtime)
    elif result.status == "declined":
        await run_in_transaction(_declined_change, engine=engine, change_id=change_id)
    return result


def _stray_attempt(session: Session, *, change_id: int, payment_id: int | None) -> int | None:
    """``payment_id`` (else the change's payment) when it is approved but did not pay for
    the change (the change was set back to a draft, or paid by another attempt)."""
    change = session.get(OrderChange, change_id)
    if change is None:
        return None
    pid = payment_id or change.payment_id
    payment = session.get(Payment, pid) if pid else None
    if payment is None or payment.state != PaymentState.APPROVED:
        return None
    if change.state == APPLIED and change.payment_id == payment.id:
        return None
    if change.state == DROPPED and change.payment_id == payment.id:
        return None  # the dropped change's own charge: voided with the "dropped" answer
    return payment.id


def _ids(found: Sequence[int | None]) -> list[int]:
    return [x for x in found if x is not None]


def _open_attempts(session: Session, *, order_id: int) -> list[int]:
    """The order's change payments Converge has not had the last word on."""
    return _ids(
        session.exec(
            select(col(Payment.id))
            .where(
                col(Payment.order_id) == order_id,
                col(Payment.purpose) == Purpose.ORDER_CHANGE,
                col(Payment.state) != PaymentState.APPROVED,
                col(Payment.closed_at).is_(None),
                col(Payment.duplicate_of_id).is_(None),
            )
            .order_by(col(Payment.id))
        ).all()
    )


async def ask_open_attempts(order_id: int, *, runtime: Runtime = APP) -> None:
    """Before a new attempt for the order opens, Converge is asked about the earlier ones:
    a sale it made applies its change, or is voided when the change no longer
    waits for it. Converge not answering: no new attempt now (``payment_unavailable``)."""
    engine = runtime.engine
    for attempt in await run_in_transaction(_open_attempts, engine=engine, order_id=order_id):
        asked = await ask_converge(payment_id=attempt, close_after=SESSION_WINDOW, runtime=runtime)
        if not asked.answered:
            raise DomainError("payment_unavailable")
        if asked.view.state == PaymentState.APPROVED:
            stray = await run_in_transaction(
                _orphan_change_payment, engine=engine, payment_id=attempt
            )
            if stray:
                await _void(attempt, runtime=runtime)


def _orphan_change_payment(session: Session, *, payment_id: int) -> bool:
    return payment_id in set(_orphan_change_payments(session, payment_id=payment_id))


def _declined_change(session: Session, *, change_id: int) -> None:
    change = session.get(OrderChange, change_id)
    if change is None:
        return
    lock_row(session, Order, change.order_id)
    change = session.get(OrderChange, change_id, populate_existing=True)
    if change is not None and change.state == PAYING:
        back_to_draft(session, change)


def change_of_payment(session: Session, *, parent_id: int, payment_id: int) -> int:
    """The change a (parent's, ORDER_CHANGE) payment was made for: the change that holds it
    now, else the one it was last made for (audit), else ``payment_not_found`` (0 too)."""
    payment = get_payment(session, payment_id, parent_id)
    if payment.purpose != Purpose.ORDER_CHANGE:
        raise DomainError("payment_not_found", field="payment_id")
    change = session.exec(
        select(OrderChange).where(col(OrderChange.payment_id) == payment.id)
    ).first()
    if change is None:
        # A draft paid again with a newer attempt: this one belongs to the same order's
        # latest change (its sale, if any, is voided by ``settle``).
        change = session.exec(
            select(OrderChange)
            .where(col(OrderChange.order_id) == payment.order_id)
            .order_by(col(OrderChange.id).desc())
        ).first()
    if change is None:
        raise DomainError("payment_not_found", field="payment_id")
    return change.id or 0


def _orphan_change_payments(session: Session, *, payment_id: int | None = None) -> list[int]:
    """Approved ORDER_CHANGE payments that paid for no change and are not refunded yet: the
    change was dropped, set back to a draft (a browser reported a failure, Converge made the
    sale after all), or is paid by a newer attempt."""
    refunded = select(col(Refund.payment_id)).where(col(Refund.state).in_(list(RESERVING)))
    applied = select(col(OrderChange.payment_id)).where(
        col(OrderChange.state) == APPLIED, col(OrderChange.payment_id).is_not(None)
    )
    query = select(col(Payment.id)).where(
        col(Payment.purpose) == Purpose.ORDER_CHANGE,
        col(Payment.state) == PaymentState.APPROVED,
        col(Payment.duplicate_of_id).is_(None),  # voided on their own (payments service)
        # Family credit's share of a change is written only by the transaction applying it.
        col(Payment.method) != PaymentMethod.CREDIT,
        col(Payment.id).not_in(refunded),
        col(Payment.id).not_in(applied),
    )
    if payment_id is not None:
        query = query.where(col(Payment.id) == payment_id)
    return _ids(session.exec(query.order_by(col(Payment.id))).all())


def dropped_change_payments(session: Session) -> list[int]:
    """Approved ORDER_CHANGE payments that paid for no change, not refunded yet (for the
    reconciliation round: void them)."""
    return _orphan_change_payments(session)


async def void_dropped_change_payments(*, runtime: Runtime = APP) -> list[int]:
    """The periodic job's part (``payments.reconcile_round``): void every approved change
    payment that paid for no change (dropped, set back to a draft, or replaced by a newer
    attempt; its completion call never came, or Converge refused the void then).
    Returns the ids it voided (or started to)."""
    ids = await run_in_transaction(dropped_change_payments, engine=runtime.engine)
    done = []
    for payment_id in ids:
        try:
            await _void(payment_id, runtime=runtime)
            done.append(payment_id)
        except Exception:  # noqa: BLE001 - one failure must not stop the round
            log.exception("payment %s: could not void a dropped change's payment", payment_id)
    return done
