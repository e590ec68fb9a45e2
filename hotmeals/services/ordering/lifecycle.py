"""An order's life: the only code that writes ``Order.status`` and ``OrderLine.status``.

Each move is checked against ``domain.orders.ALLOWED`` (``LINE_ALLOWED`` for a line), written
with a conditional UPDATE (the row changes only if it is still in the status that was read, so a
second writer changes nothing: the twin of ``payments.records.move_payment``) and leaves one
audit event with the status it left and the one it reached. The moves, and who makes them:

=============  ===================================  ======================================
move           from -> to                           made by
=============  ===================================  ======================================
(written)      -> PENDING_PAYMENT (lines ACTIVE)    ``place.write_order``; a change's added
                                                    lines ACTIVE (``change_apply``)
place          PENDING_PAYMENT -> PLACED            ``settle.place_or_cancel``
fail_payment   PENDING_PAYMENT -> PAYMENT_FAILED    an order payment declined or in error
retry_payment  PAYMENT_FAILED -> PENDING_PAYMENT    a new card attempt, credit paying it all,
                                                    or Converge approving a written-off one
drop_unpaid    PENDING_PAYMENT, PAYMENT_FAILED      a changed cart's old order, a cut-off
               -> CANCELLED                         passed or credit spent before approval
cancel_lines   PLACED, PARTIALLY_CANCELLED          ``cancel.record_cancel``: a cancel, a
               -> PARTIALLY_CANCELLED, CANCELLED    closure, days away, a change's removals
deliver        PLACED, PARTIALLY_CANCELLED          no door yet (a delivery confirmation)
               -> DELIVERED
=============  ===================================  ======================================

``deliver`` is the only way to DELIVERED; until a door confirms deliveries, a past order's
meals are shown as delivered by their dates (``queries``), not by a status.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col

from hotmeals.db.models import Order, OrderLine
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import (
    LineStatus,
    OrderStatus,
    status_after_cancel,
    transition,
    transition_line,
)
from hotmeals.services.ordering.order_events import audit_order
from hotmeals.services.payments.records import rowcount

UNPAID = frozenset({OrderStatus.PENDING_PAYMENT, OrderStatus.PAYMENT_FAILED})


def _move(
    session: Session,
    order: Order,
    to: OrderStatus,
    *,
    kind: str,
    now: datetime,
    actor: str = "system",
    data: Mapping[str, Any] | None = None,
    **values: Any,
) -> None:
    """Move ``order`` to ``to`` (``DomainError("invalid_order_transition")`` when the table
    does not allow it or another writer moved it first), set ``values`` with it, audit ``kind``."""
    current = OrderStatus(order.status)
    transition(current, to)
    values = {"status": to, "updated_at": now, **values}
    result = session.execute(
        update(Order)
        .where(col(Order.id) == order.id, col(Order.status) == current)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if rowcount(result) != 1:
        raise DomainError("invalid_order_transition", current=str(current), new=str(to))
    for name, value in values.items():
        set_committed_value(order, name, value)
    audit_order(
        session,
        order,
        kind=kind,
        actor=actor,
        data={**(data or {}), "from": str(current), "to": str(to)},
    )


def place(session: Session, order: Order, *, now: datetime, data: Mapping[str, Any]) -> None:
    """Paid: PENDING_PAYMENT -> PLACED, ``placed_at`` now."""
    _move(
        session, order, OrderStatus.PLACED, kind="order.placed", now=now, data=data, placed_at=now
    )


def fail_payment(session: Session, order: Order, *, now: datetime, payment_id: int | None) -> bool:
    """A declined or failed attempt: PENDING_PAYMENT -> PAYMENT_FAILED, so the parent can try
    again. Any other status (placed meanwhile, dropped) is left as it is: returns False."""
    if order.status != OrderStatus.PENDING_PAYMENT:
        return False
    _move(
        session,
        order,
        OrderStatus.PAYMENT_FAILED,
        kind="order.payment_failed",
        now=now,
        data={"payment_id": payment_id},
    )
    return True


def retry_payment(
    session: Session, order: Order, *, now: datetime, payment_id: int | None, why: str
) -> bool:
    """A new attempt at an order whose last one failed: PAYMENT_FAILED -> PENDING_PAYMENT
    (``why``: a new card attempt, credit paying it all, or Converge approving the failed one).
    An order in any other status is left as it is: returns False."""
    if order.status != OrderStatus.PAYMENT_FAILED:
        return False
    _move(
        session,
        order,
        OrderStatus.PENDING_PAYMENT,
        kind="order.payment_retried",
        now=now,
        data={"payment_id": payment_id, "why": why},
    )
    return True


def drop_unpaid(
    session: Session, order: Order, *, now: datetime, kind: str, data: Mapping[str, Any]
) -> None:
    """An order never paid for is CANCELLED (a changed cart's old one, or one whose cut-off
    passed before its approval), audited as ``kind``. A paid order is cancelled by
    ``cancel_lines`` (with its refund), never dropped."""
    if order.status not in UNPAID:
        raise DomainError(
            "invalid_order_transition", current=str(order.status), new=OrderStatus.CANCELLED
        )
    _move(session, order, OrderStatus.CANCELLED, kind=kind, now=now, data=data)


def cancel_lines(
    session: Session,
    order: Order,
    lines: list[OrderLine],
    quantities: Mapping[int, int],
    *,
    now: datetime,
    actor: str,
    cancellation_id: int | None,
    adds_lines: bool = False,
) -> None:
    """``quantities[line_id]`` meals of ``lines`` (the order's lines, locked) go: a line whose
    every meal went is CANCELLED; the order is CANCELLED when no line is left active (a change
    that ``adds_lines`` keeps it PARTIALLY_CANCELLED), else PARTIALLY_CANCELLED."""
    by_id = {line.id: line for line in lines}
    for line_id, qty in sorted(quantities.items()):
        line = by_id[line_id]
        line.cancelled_quantity += qty
        if line.cancelled_quantity >= line.quantity:
            line.status = transition_line(line.status, LineStatus.CANCELLED)
        session.add(line)
    statuses = [LineStatus(line.status) for line in lines]
    if adds_lines:
        statuses.append(LineStatus.ACTIVE)
    _move(
        session,
        order,
        status_after_cancel(statuses),
        kind="order.lines_cancelled",
        now=now,
        actor=actor,
        data={
            "cancellation_id": cancellation_id,
            "lines": {str(k): v for k, v in sorted(quantities.items())},
        },
    )


def deliver(
    session: Session, order: Order, *, now: datetime, actor: str, data: Mapping[str, Any]
) -> None:
    """The order's meals were handed out: PLACED or PARTIALLY_CANCELLED -> DELIVERED (final; its
    cancelled lines stay cancelled, the rest were delivered)."""
    _move(
        session,
        order,
        OrderStatus.DELIVERED,
        kind="order.delivered",
        now=now,
        actor=actor,
        data=data,
    )
