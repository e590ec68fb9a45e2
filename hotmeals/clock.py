"""The one clock: what "now" is for the app, its jobs, its commands and its tests.

``now()`` is aware UTC and ``today()`` the date in Toronto (the schools' calendar). Every rule
that asks the time asks here: cut-offs, reminders, standing orders, closures, days away, the
school year, the calendar feed, receipts, sessions and codes, the demo data's days, and the
local Converge simulator of the demo.

Production reads the system clock, always. A demo or a test may set it:

- ``HOTMEALS_NOW`` (demo mode only; production refuses to start with it, ``hotmeals.mode``)
  starts the clock at that instant, and from there it runs at the real pace, so a demo's
  cut-offs pass and its codes expire. An ISO date-time with its offset
  (``2026-12-18T17:30-05:00``), a local Toronto date-time (``2026-12-18T17:30``), or a date
  alone (07:00 in Toronto that day). The real instant it was first read is kept in
  ``HOTMEALS_NOW_SINCE`` (Unix seconds) and inherited by every process started from this one
  (backend workers, the job runner, commands, test servers), so that they all show the same
  time.
- ``set_now(instant)`` in a process: frozen at that instant (``ticking=True``: running from it).
  ``set_now(None)`` goes back to what the environment says. Tests use the ``clock`` fixture
  (tests/conftest.py), which puts the clock back after each test.
"""

from __future__ import annotations

import os
import time
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock_time
from zoneinfo import ZoneInfo

TORONTO = ZoneInfo("America/Toronto")
NOW_VAR = "HOTMEALS_NOW"
SINCE_VAR = "HOTMEALS_NOW_SINCE"
DATE_ALONE_AT = clock_time(7, 0)  # a date without a time: the 7 a.m. parent's morning


class ClockSettingError(ValueError):
    """``HOTMEALS_NOW`` that cannot be read, or set outside demo mode."""


def parse_instant(text: str) -> datetime:
    """``HOTMEALS_NOW``'s forms as aware UTC (see the module doc); ``ClockSettingError`` else."""
    raw = text.strip()
    try:
        if len(raw) == 10:
            day = date.fromisoformat(raw)
            return datetime.combine(day, DATE_ALONE_AT, tzinfo=TORONTO).astimezone(UTC)
        value = datetime.fromisoformat(raw)
    except ValueError:
        raise ClockSettingError(
            f"{NOW_VAR} must be an ISO date or date-time (2026-12-18 or 2026-12-18T17:30-05:00),"
            f" not {raw!r}"
        ) from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=TORONTO)
    return value.astimezone(UTC)


class _Clock:
    """Where "now" comes from: the system (``start is None``), or ``start`` frozen, or
    ``start`` plus the real seconds since ``since``."""

    def __init__(self) -> None:
        self.start: datetime | None = None
        self.since: float | None = None  # None: frozen at ``start``

    def from_environment(self) -> None:
        raw = os.environ.get(NOW_VAR, "").strip()
        if not raw:
            self.start = self.since = None
            return
        if os.environ.get("HOTMEALS_MODE", "demo").strip().lower() == "production":
            raise ClockSettingError(
                f"{NOW_VAR} is a demo and test setting: production reads the system clock"
            )
        self.start = parse_instant(raw)
        since = os.environ.get(SINCE_VAR, "").strip()
        try:
            self.since = float(since) if since else time.time()
        except ValueError:
            raise ClockSettingError(f"{SINCE_VAR} must be Unix seconds, not {since!r}") from None
        # Processes started from this one run on the same time (workers, jobs, test servers).
        os.environ[SINCE_VAR] = repr(self.since)

    def now(self) -> datetime:
        if self.start is None:
            return datetime.now(UTC)
        if self.since is None:
            return self.start
        return self.start + timedelta(seconds=time.time() - self.since)


_clock = _Clock()
_clock.from_environment()


def now() -> datetime:
    """Now, as aware UTC."""
    return _clock.now()


def today(at: datetime | None = None) -> date:
    """The date in Toronto now (or at ``at``): the schools' calendar day."""
    return (at or _clock.now()).astimezone(TORONTO).date()


def is_set() -> bool:
    """Whether the clock is not the system's (a demo's or a test's)."""
    return _clock.start is not None


def set_now(instant: datetime | None, *, ticking: bool = False) -> None:
    """Freeze the clock at ``instant`` (aware; ``ticking``: run on from it at the real pace);
    ``None``: back to the environment's clock (``HOTMEALS_NOW`` or the system's)."""
    if instant is None:
        _clock.from_environment()
        return
    if instant.tzinfo is None:
        raise ValueError("set_now needs an aware datetime")
    _clock.start = instant.astimezone(UTC)
    _clock.since = time.time() if ticking else None
