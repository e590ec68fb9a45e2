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
               -> PARTIALLY_CANCELLED, CANCELLED,   closure, days away, a change's removals
               DELIVERED (delivered lines left)
deliver_lines  lines ACTIVE -> DELIVERED; their     ``deliveries.confirm_delivery`` (a
               orders stay, or go on (``deliver``)  school's day confirmed delivered)
deliver        PLACED, PARTIALLY_CANCELLED          ``deliver_lines``, for the orders left
               -> DELIVERED                         with no line to serve
=============  ===================================  ======================================

``deliver_lines`` and ``deliver`` are the only ways to DELIVERED (``cancel_lines`` aside, as
above). A DELIVERED line is final: no cancel, move, change, refund or make-up touches it. A
past meal whose delivery is not confirmed yet is shown as delivered by its date (``queries``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
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
    delivered_in_full,
    status_after_cancel,
    transition,
    transition_line,
)
from hotmeals.services.ordering.order_events import audit_order, audit_orders
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


BATCH = 500  # ids per statement of a batch move (well under every database's bound)


def _chunks(ids: Sequence[int]) -> list[Sequence[int]]:
    return [ids[i : i + BATCH] for i in range(0, len(ids), BATCH)]


def deliver_lines(
    session: Session,
    orders: Sequence[Order],
    lines: Sequence[OrderLine],
    delivered: Collection[int],
    *,
    now: datetime,
    actor: str,
    data: Mapping[str, Any],
) -> list[Order]:
    """The meals ``delivered`` (ids of ``lines``) were handed out: ACTIVE -> DELIVERED in one
    conditional UPDATE per batch of lines (a line cancelled meanwhile makes it refuse:
    ``DomainError("invalid_line_transition")``, nothing changes), one ``order.lines_delivered``
    event per order. ``orders`` (locked by the caller) are theirs, ``lines`` every line of
    those orders; an order left with no line to serve goes on to DELIVERED (``deliver``), one
    with meals on later days stays as it is. Returns the orders now delivered."""
    by_order: dict[int, list[int]] = {}
    for line in lines:
        if line.id in delivered:
            transition_line(line.status, LineStatus.DELIVERED)
            by_order.setdefault(line.order_id, []).append(line.id or 0)
    ids = sorted(x for found in by_order.values() for x in found)
    for chunk in _chunks(ids):
        result = session.execute(
            update(OrderLine)
            .where(col(OrderLine.id).in_(chunk), col(OrderLine.status) == LineStatus.ACTIVE)
            .values(status=LineStatus.DELIVERED)
            .execution_options(synchronize_session=False)
        )
        if rowcount(result) != len(chunk):
            raise DomainError(
                "invalid_line_transition", current=LineStatus.ACTIVE, new=LineStatus.DELIVERED
            )
    for line in lines:
        if line.id in delivered:
            set_committed_value(line, "status", LineStatus.DELIVERED)
    moved = [(o, by_order[o.id or 0]) for o in orders if by_order.get(o.id or 0)]
    audit_orders(
        session,
        [(order, {**data, "lines": ids}) for order, ids in moved],
        kind="order.lines_delivered",
        actor=actor,
    )
    statuses: dict[int, list[LineStatus]] = {}
    for line in lines:
        statuses.setdefault(line.order_id, []).append(LineStatus(line.status))
    done = [o for o, _ in moved if delivered_in_full(statuses[o.id or 0])]
    deliver(session, done, now=now, actor=actor, data=data)
    return done


def deliver(
    session: Session,
    orders: Sequence[Order],
    *,
    now: datetime,
    actor: str,
    data: Mapping[str, Any],
) -> None:
    """The orders' meals were handed out: PLACED or PARTIALLY_CANCELLED -> DELIVERED (final;
    their cancelled lines stay cancelled, the rest were delivered). One conditional UPDATE
    per status left and batch (another writer's move first: ``invalid_order_transition``,
    nothing changes), one ``order.delivered`` event per order."""
    by_status: dict[OrderStatus, list[Order]] = {}
    for order in orders:
        current = OrderStatus(order.status)
        transition(current, OrderStatus.DELIVERED)
        by_status.setdefault(current, []).append(order)
    values = {"status": OrderStatus.DELIVERED, "updated_at": now}
    for current, group in sorted(by_status.items()):
        for chunk in _chunks(sorted(o.id or 0 for o in group)):
            result = session.execute(
                update(Order)
                .where(col(Order.id).in_(chunk), col(Order.status) == current)
                .values(**values)
                .execution_options(synchronize_session=False)
            )
            if rowcount(result) != len(chunk):
                raise DomainError(
                    "invalid_order_transition", current=str(current), new=OrderStatus.DELIVERED
                )
        for order in group:
            for name, value in values.items():
                set_committed_value(order, name, value)
        moved = {**data, "from": str(current), "to": str(OrderStatus.DELIVERED)}
        audit_orders(session, [(o, moved) for o in group], kind="order.delivered", actor=actor)
