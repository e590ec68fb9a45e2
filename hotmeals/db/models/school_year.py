"""Which school year each child was confirmed for (start of the school year).

One row per child and school year, written when the parent confirms the child's grade,
teacher, school and allergies after the year rolled over (``services/school_year.py``).
Children added during a school year need no row for it.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import created_at_field, fk


class ChildSchoolYear(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("child_id", "school_year", name="uq_childschoolyear"),)
    id: int | None = Field(default=None, primary_key=True)
    child_id: int = fk("child.id", ondelete="CASCADE", index=False)
    school_year: int  # the calendar year the school year starts in (2026: 2026-2027)
    confirmed_at: datetime = created_at_field()
