"""One row per form submission a parent made with an idempotency key (one tap is
one record). The unique (parent_id, key) is what refuses a repeat, even from two workers."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Text, UniqueConstraint
from sqlmodel import Column, Field, SQLModel

from hotmeals.db.models._base import fk, utcnow


class FormSubmission(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("parent_id", "key", name="uq_formsubmission_parent_key"),)
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", index=False, ondelete="CASCADE")  # the unique key leads
    key: str = Field(max_length=64)
    action: str = Field(max_length=32)  # add_child, contact_us, ... (a key is for one action)
    result: str = Field(sa_column=Column(Text, nullable=False))  # the first answer, as JSON
    # housekeeping purges rows older than services.submissions.KEEP
    created_at: datetime = Field(default_factory=utcnow, nullable=False, index=True)
