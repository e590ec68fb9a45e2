"""Standing orders: "every Monday, pizza for Emma, until the end of term".

``StandingOrder`` is what the parent set up: one child, one meal and size, one weekday, a
first and a last date, and a status (active, paused, ended). ``StandingOrderRun`` is one
(standing order, date) the job has dealt with, under a unique constraint: the row is inserted
(claimed) in the transaction that books the date, so two workers, a retry or a restart never
book one date twice (``services/standing.py``).
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import created_at_field, fk


class StandingOrder(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", ondelete="CASCADE")
    child_id: int = fk("child.id", ondelete="CASCADE", index=False)
    meal_id: int = fk("meal.id", index=False)
    portion_id: int = fk("portion.id", index=False)
    weekday: int  # 0 Monday .. 4 Friday
    starts_on: date
    ends_on: date
    status: str = Field(default="active", max_length=16)  # active, paused, ended
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()


class StandingOrderRun(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("standing_order_id", "meal_date", name="uq_standingorderrun_once"),
    )
    id: int | None = Field(default=None, primary_key=True)
    standing_order_id: int = fk("standingorder.id", ondelete="CASCADE", index=False)
    meal_date: date
    # charging (the saved card's charge is on its way), booked, in_cart (no card, declined),
    # skipped (``reason``: closed, not_served, allergy, diet, child, booked)
    status: str = Field(max_length=16)
    reason: str = Field(default="", max_length=32)
    order_id: int | None = fk("order.id", nullable=True, index=False)
    payment_id: int | None = fk("payment.id", nullable=True, index=False)
    created_at: datetime = created_at_field()
    updated_at: datetime = created_at_field()
