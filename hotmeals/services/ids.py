"""The primary key of a row that is in the database.

SQLModel declares ``id: int | None`` because a new row has no id until it is flushed; a row
that was loaded, or flushed, always has one, and so does an id column read by a query. These
helpers say so to the type checker and fail loudly if that is ever not true.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar

from sqlmodel import Session, col, select


class HasId(Protocol):
    id: int | None


_Row = TypeVar("_Row", bound=HasId)


def known_id(value: int | None) -> int:
    """An id read from the database (a primary key is never NULL)."""
    if value is None:
        raise ValueError("a primary key read from the database is never NULL")
    return value


def saved_id(row: HasId) -> int:
    """``row.id`` of a loaded or flushed row; ``ValueError`` for a row not flushed yet."""
    if row.id is None:
        raise ValueError(f"{type(row).__name__} has no id yet: flush it first")
    return row.id


def rows_by_id(session: Session, model: type[_Row], ids: Iterable[int]) -> dict[int, _Row]:
    """The ``model`` rows of ``ids`` by id, in one statement (none for no ids)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = session.exec(select(model).where(col(model.id).in_(wanted))).all()
    return {saved_id(row): row for row in rows}
