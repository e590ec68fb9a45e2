"""A meal as the queries that look for one ask it, in its two senses (the query joins ``Order``
to ``OrderLine``):

- ``booked_meals``: still to serve, an ACTIVE order line with meals left of a paid order:
  what a cancel, a move, a closure or days away may still act on (a delivered meal is never
  cancelled, moved, refunded or made up);
- ``ordered_meals``: ordered and not cancelled, the delivered ones too (an ACTIVE or DELIVERED
  line with meals left of a paid or delivered order): what the calendar feed, the reminders'
  lists and the "already ordered" checks count.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement
from sqlmodel import col

from hotmeals.db.models import Order, OrderLine
from hotmeals.domain.orders import (
    KEPT_LINE_STATUSES,
    ORDERED_STATUSES,
    PAID_STATUSES,
    LineStatus,
    OrderStatus,
)


def booked_meals(
    statuses: Iterable[OrderStatus] = PAID_STATUSES,
) -> tuple[ColumnElement[bool], ...]:
    """The conditions of a meal still to serve, for a query's ``where``."""
    return (
        col(Order.status).in_([str(s) for s in statuses]),
        col(OrderLine.status) == LineStatus.ACTIVE,
        col(OrderLine.quantity) > col(OrderLine.cancelled_quantity),
    )


def ordered_meals() -> tuple[ColumnElement[bool], ...]:
    """The conditions of a meal ordered and not cancelled (delivered or still to serve)."""
    return (
        col(Order.status).in_([str(s) for s in ORDERED_STATUSES]),
        col(OrderLine.status).in_([str(s) for s in KEPT_LINE_STATUSES]),
        col(OrderLine.quantity) > col(OrderLine.cancelled_quantity),
    )
