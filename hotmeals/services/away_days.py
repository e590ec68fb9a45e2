"""The days a child is away, stored (``ChildAway``: one row per child and range, written by
``away.mark_away`` in the step that cancels the meals of those days): GetDates shows each
of them away and not bookable (``ordering.days.get_dates``), and every door that adds a meal
(cart, several days, repeat a week, an order change, a standing order's date) refuses them
through ``ordering.lines.check_line``. A range is not removed in this version.

Its own module, below ``ordering``: ``away.py`` imports ``ordering.days``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from sqlmodel import Session, col, select

from hotmeals.db.models import Child, ChildAway

Ranges = dict[int, list[tuple[date, date]]]  # child id -> (first, last) days away


def away_ranges(session: Session, child_ids: Iterable[int], first: date, last: date) -> Ranges:
    """The away ranges of the children that meet ``first``..``last`` (one statement)."""
    ids = sorted(set(child_ids))
    if not ids:
        return {}
    rows = session.exec(
        select(col(ChildAway.child_id), col(ChildAway.first_date), col(ChildAway.last_date))
        .where(
            col(ChildAway.child_id).in_(ids),
            col(ChildAway.first_date) <= last,
            col(ChildAway.last_date) >= first,
        )
        .order_by(col(ChildAway.child_id), col(ChildAway.first_date))
    ).all()
    out: Ranges = {}
    for child_id, start, end in rows:
        out.setdefault(child_id, []).append((start, end))
    return out


@dataclass(frozen=True)
class AwayRange:
    """Days a child is marked away, as the away screen lists them."""

    child_id: int
    first_name: str
    first: date
    last: date


def upcoming_away(session: Session, parent_id: int, today: date) -> list[AwayRange]:
    """The parent's children's away ranges that end today or later, soonest first (one
    statement): what the away screen shows as lasting ("Emma is away from … to …")."""
    rows = session.exec(
        select(
            col(ChildAway.child_id),
            col(Child.first_name),
            col(ChildAway.first_date),
            col(ChildAway.last_date),
        )
        .join(Child, col(Child.id) == ChildAway.child_id)
        .where(col(ChildAway.parent_id) == parent_id, col(ChildAway.last_date) >= today)
        .order_by(col(ChildAway.first_date), col(Child.first_name), col(ChildAway.id))
    ).all()
    return [AwayRange(child_id, name, first, last) for child_id, name, first, last in rows]


def is_away(ranges: Ranges, child_id: int, day: date) -> bool:
    return any(start <= day <= end for start, end in ranges.get(child_id, ()))


def away_days(session: Session, child_id: int, first: date, last: date) -> set[date]:
    """The days from ``first`` to ``last`` the child is away (one statement)."""
    days: set[date] = set()
    for start, end in away_ranges(session, [child_id], first, last).get(child_id, []):
        day = max(start, first)
        while day <= min(end, last):
            days.add(day)
            day += timedelta(days=1)
    return days


def record_away(
    session: Session, *, parent_id: int, child_ids: list[int], first: date, last: date
) -> int:
    """Store the range for each child (the same range already stored for a child is not
    stored again); how many rows were written. Two statements."""
    stored = set(
        session.exec(
            select(col(ChildAway.child_id)).where(
                col(ChildAway.child_id).in_(child_ids or [0]),
                col(ChildAway.first_date) == first,
                col(ChildAway.last_date) == last,
            )
        ).all()
    )
    new = [c for c in child_ids if c not in stored]
    session.add_all(
        [ChildAway(parent_id=parent_id, child_id=c, first_date=first, last_date=last) for c in new]
    )
    session.flush()
    return len(new)
