"""Order and order-line statuses, and the only moves allowed between them.

``services/ordering/lifecycle.py`` makes every status change, through ``transition`` (or
``transition_line``), which checks the ``ALLOWED`` table, and audits each move.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import TypeVar

from hotmeals.domain.errors import DomainError


class OrderStatus(StrEnum):
    # Created from the cart; the card has not been charged (or the charge is not confirmed yet).
    PENDING_PAYMENT = "pending_payment"
    # Paid and confirmed; every line is active.
    PLACED = "placed"
    # Paid; some lines or quantities were cancelled (and refunded), at least one line is active.
    PARTIALLY_CANCELLED = "partially_cancelled"
    # Nothing left to deliver: every line cancelled (refunded), or abandoned before payment.
    CANCELLED = "cancelled"
    # The meals were served on their meal days; only history from here on.
    DELIVERED = "delivered"
    # The card was declined or the payment errored; the parent may try again.
    PAYMENT_FAILED = "payment_failed"


class LineStatus(StrEnum):
    # To be prepared and delivered on its meal day.
    ACTIVE = "active"
    # Cancelled in full; its refund is part of the order's refunds.
    CANCELLED = "cancelled"
    # Handed out on its meal day (its school's delivery was confirmed); final.
    DELIVERED = "delivered"


ALLOWED: Mapping[OrderStatus, frozenset[OrderStatus]] = {
    OrderStatus.PENDING_PAYMENT: frozenset(
        {OrderStatus.PLACED, OrderStatus.PAYMENT_FAILED, OrderStatus.CANCELLED}
    ),
    # A retry starts a new payment attempt on the same order.
    OrderStatus.PAYMENT_FAILED: frozenset({OrderStatus.PENDING_PAYMENT, OrderStatus.CANCELLED}),
    OrderStatus.PLACED: frozenset(
        {OrderStatus.PARTIALLY_CANCELLED, OrderStatus.CANCELLED, OrderStatus.DELIVERED}
    ),
    # A further partial cancel keeps the status, so the self-move is listed.
    OrderStatus.PARTIALLY_CANCELLED: frozenset(
        {OrderStatus.PARTIALLY_CANCELLED, OrderStatus.CANCELLED, OrderStatus.DELIVERED}
    ),
    OrderStatus.CANCELLED: frozenset(),
    OrderStatus.DELIVERED: frozenset(),
}

LINE_ALLOWED: Mapping[LineStatus, frozenset[LineStatus]] = {
    LineStatus.ACTIVE: frozenset({LineStatus.CANCELLED, LineStatus.DELIVERED}),
    LineStatus.CANCELLED: frozenset(),
    LineStatus.DELIVERED: frozenset(),
}

PAID_STATUSES = frozenset({OrderStatus.PLACED, OrderStatus.PARTIALLY_CANCELLED})
"""Orders the parent can still cancel from or modify (subject to each meal day's cut-off):
those with a meal still to serve."""

ORDERED_STATUSES = (*PAID_STATUSES, OrderStatus.DELIVERED)
"""Paid orders, the delivered ones too: what was ordered and not cancelled (the calendar, the
"already ordered" checks, the give-back, promo usage)."""

KEPT_LINE_STATUSES = (LineStatus.ACTIVE, LineStatus.DELIVERED)
"""A line ordered and not cancelled: still to serve (ACTIVE) or handed out (DELIVERED). Only an
ACTIVE line can be cancelled, moved, changed, refunded or made up."""


Status = TypeVar("Status", OrderStatus, LineStatus)


def _allowed(
    moves: Mapping[Status, frozenset[Status]],
    status: type[Status],
    current: Status | str,
    new: Status | str,
) -> bool:
    """Is ``current -> new`` in ``moves``? Unknown status strings are never allowed."""
    try:
        return status(new) in moves[status(current)]
    except ValueError:
        return False


def _moved(
    moves: Mapping[Status, frozenset[Status]],
    status: type[Status],
    refusal: str,
    current: Status | str,
    new: Status | str,
) -> Status:
    """``new`` if the move is in ``moves``, else ``DomainError(refusal)``."""
    if not _allowed(moves, status, current, new):
        raise DomainError(refusal, current=str(current), new=str(new))
    return status(new)


def can_transition(current: OrderStatus | str, new: OrderStatus | str) -> bool:
    """Is ``current -> new`` in ``ALLOWED``? Unknown status strings are never allowed."""
    return _allowed(ALLOWED, OrderStatus, current, new)


def transition(current: OrderStatus | str, new: OrderStatus | str) -> OrderStatus:
    """``new`` if the move is allowed, else ``DomainError("invalid_order_transition")``."""
    return _moved(ALLOWED, OrderStatus, "invalid_order_transition", current, new)


def can_transition_line(current: LineStatus | str, new: LineStatus | str) -> bool:
    return _allowed(LINE_ALLOWED, LineStatus, current, new)


def transition_line(current: LineStatus | str, new: LineStatus | str) -> LineStatus:
    """``new`` if the move is allowed, else ``DomainError("invalid_line_transition")``."""
    return _moved(LINE_ALLOWED, LineStatus, "invalid_line_transition", current, new)


def can_cancel(status: OrderStatus) -> bool:
    """Can anything of an order in ``status`` still be cancelled (cut-offs aside)?"""
    return OrderStatus(status) in PAID_STATUSES


def can_modify(status: OrderStatus) -> bool:
    """Can lines still be added, removed or rescheduled (cut-offs aside)?"""
    return OrderStatus(status) in PAID_STATUSES


def status_after_cancel(line_statuses: Iterable[LineStatus]) -> OrderStatus:
    """A paid order's status after a cancel: CANCELLED when every line is cancelled,
    DELIVERED when no line is active but some were delivered (its delivered meals stay
    delivered), else PARTIALLY_CANCELLED (also when only some quantity of an active line
    went)."""
    statuses = [LineStatus(status) for status in line_statuses]
    if not statuses:
        raise ValueError("an order has at least one line")
    if all(status == LineStatus.CANCELLED for status in statuses):
        return OrderStatus.CANCELLED
    if LineStatus.ACTIVE not in statuses:
        return OrderStatus.DELIVERED
    return OrderStatus.PARTIALLY_CANCELLED


def delivered_in_full(line_statuses: Iterable[LineStatus]) -> bool:
    """Is a paid order delivered: no line left to serve, at least one handed out? (An order
    with meals on later days stays placed until its last active line is delivered.)"""
    statuses = [LineStatus(status) for status in line_statuses]
    return LineStatus.ACTIVE not in statuses and LineStatus.DELIVERED in statuses
