"""School closures (a day closed after parents booked it), what each closure did to each booked
meal, a child marked away, and the meals a family gave to the school's student-nutrition
program. Services: ``services/closures.py``, ``services/closure_apply.py``, ``services/away.py``.

``SchoolClosure``: one row per school and date (closing again after a reopen reuses it), with
the menu days it closed itself (``menu_day_ids``), so a reopen opens only those and never a
day a vendor had closed for its own reasons. ``ClosureMeal``: one row per booked line the
closure handled, unique per closure and line, so closing twice or two workers applying the same
closure handle each meal once. ``AwayRequest``: a "child away" applied, unique per parent and
key (a retry answers the first). ``ChildAway``: the days a child is away (one row per child
and range, written by the same step), which the booking doors refuse and GetDates shows away.
``MealDonation``: a meal past its cut-off given to the school
(unique per line: given once), counted in the give-back figures.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import created_at_field, fk


class SchoolClosure(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("school_id", "closed_date", name="uq_schoolclosure_day"),)
    id: int | None = Field(default=None, primary_key=True)
    school_id: int = fk("school.id", index=False)  # the unique constraint above
    closed_date: date = Field(index=True)
    reason: str = Field(max_length=120)  # a known code (storm, strike, ...) or the text
    menu_day_ids: str = Field(default="", max_length=2000)  # "12,13": the days it closed
    actor: str = Field(default="", max_length=40)
    closed_at: datetime = created_at_field()
    reopened_at: datetime | None = None
    updated_at: datetime = created_at_field()  # lock_row's first write on SQLite


class ClosureMeal(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("closure_id", "order_line_id", name="uq_closuremeal_line"),)
    id: int | None = Field(default=None, primary_key=True)
    closure_id: int = fk("schoolclosure.id", index=False, ondelete="CASCADE")
    order_line_id: int = fk("orderline.id", ondelete="CASCADE")
    parent_id: int = fk("parent.id", ondelete="CASCADE")
    outcome: str = Field(max_length=16)  # services.closure_apply.Outcome
    amount_cents: int = 0  # refunded (card or credit); 0 for a make-up meal
    new_date: date | None = None  # the make-up day
    created_at: datetime = created_at_field()


class AwayRequest(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("parent_id", "request_key", name="uq_awayrequest_key"),)
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", index=False, ondelete="CASCADE")
    request_key: str = Field(max_length=64)
    first_date: date
    last_date: date
    child_ids: str = Field(max_length=400)  # "3,4"
    refund_cents: int = 0
    result: str = Field(default="", max_length=8000)  # the first answer (JSON), for a retry
    created_at: datetime = created_at_field()


class ChildAway(SQLModel, table=True):
    __table_args__ = (Index("ix_childaway_child_days", "child_id", "first_date", "last_date"),)
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", ondelete="CASCADE")
    child_id: int = fk("child.id", index=False, ondelete="CASCADE")  # the index above
    first_date: date
    last_date: date
    created_at: datetime = created_at_field()


class MealDonation(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    order_line_id: int = Field(foreign_key="orderline.id", unique=True, ondelete="CASCADE")
    parent_id: int = fk("parent.id", ondelete="CASCADE")
    school_id: int = fk("school.id")
    quantity: int
    value_cents: int  # what the meals were sold at: given, never refunded
    created_at: datetime = created_at_field()
