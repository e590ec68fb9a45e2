"""Family credit: one row per movement, and the family's standing choices.

Service: ``services/credit.py``; rules: ``domain/credit.py``.

The balance is the sum of a parent's rows, never a stored number. ``key`` makes a movement safe to
repeat: the refund, spend or restore that a retried request or a second worker writes again
finds its row by key instead of adding one (unique per parent).

``FamilyChoice``: where refunds go unless the parent says otherwise for one refund, and what a
closed school day does to a booked meal. No row: the defaults (the card, both).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import created_at_field, fk


class CreditEntry(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("parent_id", "key", name="uq_creditentry_parent_key"),
        Index("ix_creditentry_parent_created", "parent_id", "created_at"),
    )
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", index=False, ondelete="CASCADE")  # the indexes above
    kind: str = Field(max_length=16)  # domain.credit.CreditKind
    amount_cents: int  # signed: spend is negative
    key: str = Field(max_length=80)  # e.g. "refund:cancel:12", "spend:order:HM-1-ABC"
    order_id: int | None = fk("order.id", nullable=True, ondelete="SET NULL")
    reason: str | None = Field(default=None, max_length=255)  # an operator's adjustment
    created_at: datetime = created_at_field()


class FamilyChoice(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = Field(foreign_key="parent.id", unique=True, ondelete="CASCADE")
    refund_to: str = Field(default="card", max_length=8)  # domain.credit.RefundDestination
    closure_choice: str = Field(default="card", max_length=8)  # domain.credit.ClosureChoice
    updated_at: datetime = created_at_field()
