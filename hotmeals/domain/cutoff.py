"""When a meal day stops taking orders, cancellations and changes.

A vendor's ``CutoffRule(days_before, at, skip_weekends)`` closes meal day D at local time ``at``
(America/Toronto) on the day ``days_before`` days before D; with ``skip_weekends`` the count is in
school days (Monday to Friday), so "1 day before" a Monday meal is the Friday before. Statutory
holidays and PA days are not known here and are counted as school days.

Time zones: the rule is read in Toronto local time and the result is an aware UTC datetime, so
comparisons with ``now`` are exact whatever zone ``now`` carries. Around DST changes the local
time is resolved by ``zoneinfo`` with ``fold=0``: a time that occurs twice (01:30 on the first
Sunday of November) means its first occurrence, in daylight time; a time that does not exist
(02:30 on the second Sunday of March) is read with the offset in force before the jump, i.e.
03:30 daylight time. Vendors' cut-offs are not set in the small hours, so this only needs to be
defined, not clever.

At the exact cut-off instant the day is closed: open means ``now < cutoff_at``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hotmeals.domain.errors import DomainError

TORONTO = ZoneInfo("America/Toronto")
_SATURDAY = 5


@dataclass(frozen=True)
class CutoffRule:
    days_before: int
    at: time
    skip_weekends: bool = False

    def __post_init__(self) -> None:
        if (
            not isinstance(self.days_before, int)
            or isinstance(self.days_before, bool)
            or self.days_before < 0
        ):
            raise ValueError("days_before must be a non-negative int")
        if not isinstance(self.at, time) or self.at.tzinfo is not None:
            raise ValueError("at is a naive local time, read in America/Toronto")


def cutoff_day(rule: CutoffRule, meal_date: date) -> date:
    """The local date on which ``meal_date`` closes."""
    if not rule.skip_weekends:
        return meal_date - timedelta(days=rule.days_before)
    day = meal_date
    remaining = rule.days_before
    while remaining:
        day -= timedelta(days=1)
        if day.weekday() < _SATURDAY:
            remaining -= 1
    return day


def cutoff_at(rule: CutoffRule, meal_date: date) -> datetime:
    """The instant (aware, UTC) at which ``meal_date`` closes."""
    local = datetime.combine(cutoff_day(rule, meal_date), rule.at, tzinfo=TORONTO)
    return local.astimezone(UTC)


def _require_aware(now: datetime) -> None:
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be an aware datetime")


def before_cutoff(closes: datetime, now: datetime) -> bool:
    """The one comparison of every cut-off rule: open strictly before the cut-off instant
    ``closes``, closed from that instant on. Every order, cancel, change and move door asks
    this (or ``is_open``), whatever message it then gives."""
    return now < closes


def is_open(rule: CutoffRule, meal_date: date, now: datetime) -> bool:
    """True strictly before the cut-off; closed from the cut-off instant on."""
    _require_aware(now)
    return before_cutoff(cutoff_at(rule, meal_date), now)


def ensure_open(rule: CutoffRule, meal_date: date, now: datetime) -> None:
    """Raise ``DomainError("meal_day_closed", date=YYYY-MM-DD)`` when the day is closed."""
    if not is_open(rule, meal_date, now):
        raise DomainError("meal_day_closed", field="meal_date", date=meal_date.isoformat())
