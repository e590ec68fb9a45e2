"""Meal dates as the old API wrote them (M/D/YYYY) and as we store them (YYYY-MM-DD).

Both directions are strict: ASCII digits only, no surrounding spaces, and the date must exist
(2/30/2026 is refused), else ``DomainError("invalid_date")``.
"""

from __future__ import annotations

import re
from datetime import date

from hotmeals.domain.errors import DomainError

_MDY_RE = re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})", re.ASCII)
_ISO_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})", re.ASCII)


def _build(year: str, month: str, day: str, text: str) -> date:
    try:
        return date(int(year), int(month), int(day))
    except ValueError:
        raise DomainError("invalid_date", field="date", value=text) from None


def parse_mdy(text: object) -> date:
    """``"3/7/2026"`` or ``"03/07/2026"`` -> ``date(2026, 3, 7)``."""
    if not isinstance(text, str) or (match := _MDY_RE.fullmatch(text)) is None:
        raise DomainError("invalid_date", field="date", value=str(text))
    month, day, year = match.groups()
    return _build(year, month, day, text)


def parse_iso(text: object) -> date:
    """``"2026-03-07"`` -> ``date(2026, 3, 7)``; only the extended form with dashes."""
    if not isinstance(text, str) or (match := _ISO_RE.fullmatch(text)) is None:
        raise DomainError("invalid_date", field="date", value=str(text))
    year, month, day = match.groups()
    return _build(year, month, day, text)


def format_mdy(value: date) -> str:
    """``date(2026, 3, 7)`` -> ``"3/7/2026"`` (no zero padding)."""
    return f"{value.month}/{value.day}/{value.year:04d}"


def mdy_to_iso(text: object) -> str:
    """``"3/7/2026"`` -> ``"2026-03-07"``."""
    return parse_mdy(text).isoformat()


def iso_to_mdy(text: object) -> str:
    """``"2026-03-07"`` -> ``"3/7/2026"``."""
    return format_mdy(parse_iso(text))
