"""Shared column helpers.

Times are aware UTC datetimes: sqlmodel maps ``datetime`` to its ``UTCDateTime`` type,
which refuses naive values and reads values back as aware UTC (``utcnow()`` is the default).
Dates of meal days are plain ``date`` values in
the school's calendar (America/Toronto). Enumerated values are stored as short strings (the
values of the domain's ``StrEnum`` types) so that no database enum type needs migrating.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Index, text
from sqlmodel import Field

from hotmeals import clock

OnDelete = Literal["CASCADE", "SET NULL", "RESTRICT"]


def utcnow() -> datetime:
    """Aware UTC now, from the one clock (``hotmeals.clock``): what every timestamp column
    holds."""
    return clock.now()


def created_at_field() -> datetime:
    return Field(default_factory=utcnow, nullable=False)


def fk(
    target: str, *, index: bool = True, nullable: bool = False, ondelete: OnDelete | None = None
) -> Any:
    """A foreign key column (indexed unless said otherwise); ``ondelete`` only when given."""
    if ondelete is None:
        return Field(
            default=None if nullable else ..., foreign_key=target, index=index, nullable=nullable
        )
    return Field(
        default=None if nullable else ...,
        foreign_key=target,
        index=index,
        nullable=nullable,
        ondelete=ondelete,
    )


def partial_unique(name: str, column: str, *, where: str) -> Index:
    """A unique index over the rows that match ``where``, the same on SQLite and PostgreSQL."""
    return Index(name, column, unique=True, sqlite_where=text(where), postgresql_where=text(where))
