"""A booked meal, as every query that looks for one asks it: an active order line with meals
left, of an order in ``statuses`` (paid by default; ``ordering.days.ORDERED_STATUSES`` adds the
delivered ones). The query joins ``Order`` to ``OrderLine``."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement
from sqlmodel import col

from hotmeals.db.models import Order, OrderLine
from hotmeals.domain.orders import PAID_STATUSES, LineStatus, OrderStatus


def booked_meals(
    statuses: Iterable[OrderStatus] = PAID_STATUSES,
) -> tuple[ColumnElement[bool], ...]:
    """The conditions of a booked meal, for a query's ``where``."""
    return (
        col(Order.status).in_([str(s) for s in statuses]),
        col(OrderLine.status) == LineStatus.ACTIVE,
        col(OrderLine.quantity) > col(OrderLine.cancelled_quantity),
    )
