"""The school year: it starts on a date setting (``HOTMEALS_SCHOOL_YEAR_START``,
default 1 August) in America/Toronto, and is named by the calendar year it starts in (2026 is
"2026-2027"). Pure rules: no database, no clock of its own."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

from hotmeals.domain.errors import DomainError

TORONTO = ZoneInfo("America/Toronto")
DEFAULT_START = (8, 1)
"""1 August."""


def parse_start(text: str | None) -> tuple[int, int]:
    """``"08-01"`` -> ``(8, 1)``; blank -> the default. A day every year has (no 29 February);
    anything else raises ``ValueError`` (a setting that stops the start)."""
    raw = (text or "").strip()
    if not raw:
        return DEFAULT_START
    parts = raw.split("-")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        raise ValueError(f"HOTMEALS_SCHOOL_YEAR_START must be MM-DD, not {raw!r}")
    month, day = int(parts[0]), int(parts[1])
    try:
        date(2025, month, day)  # 2025 is not a leap year: 02-29 is refused
    except ValueError:
        raise ValueError(f"HOTMEALS_SCHOOL_YEAR_START must be MM-DD, not {raw!r}") from None
    return month, day


@dataclass(frozen=True)
class SchoolYear:
    year: int  # the calendar year it starts in
    first_day: date  # its first day (local)
    next_first_day: date  # the first day of the next school year

    @property
    def label(self) -> str:
        return f"{self.year}-{self.year + 1}"

    @property
    def starts_at(self) -> datetime:
        """Its first local midnight, as aware UTC."""
        return _utc_midnight(self.first_day)

    @property
    def ends_at(self) -> datetime:
        """The next school year's first local midnight, as aware UTC (exclusive)."""
        return _utc_midnight(self.next_first_day)


def _utc_midnight(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=TORONTO).astimezone(UTC)


def school_year_of(day: date, start: tuple[int, int] = DEFAULT_START) -> SchoolYear:
    """The school year a local date belongs to."""
    month, first = start
    year = day.year if (day.month, day.day) >= (month, first) else day.year - 1
    return SchoolYear(year, date(year, month, first), date(year + 1, month, first))


def school_year_at(now: datetime, start: tuple[int, int] = DEFAULT_START) -> SchoolYear:
    """The school year at an aware instant (its local date in Toronto)."""
    if now.tzinfo is None:
        raise DomainError("invalid_date", field="now")
    return school_year_of(now.astimezone(TORONTO).date(), start)


def needs_confirmation(
    *, created_at: datetime, confirmed_year: int | None, current: SchoolYear
) -> bool:
    """A child added before this school year started and not confirmed for it."""
    if confirmed_year is not None and confirmed_year >= current.year:
        return False
    return created_at < current.starts_at


def next_grade_index(index: int, count: int) -> tuple[int, bool]:
    """The grade offered after grade ``index`` (of ``count``, in order): one up, or the same
    and ``True`` (graduating: archiving is suggested) for the last."""
    if index >= count - 1:
        return index, True
    return index + 1, False
