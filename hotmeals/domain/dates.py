"""Meal dates as the old API wrote them (M/D/YYYY) and as we store them (YYYY-MM-DD).

Both directions are strict: ASCII digits only, no surrounding spaces, and the date must exist
(2/30/2026 is refused), else ``DomainError("invalid_date")``.
"""

from __future__ import annotations

import re
from datetime import date, datetime

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


# --- dates in the parent's language (Babel) ---------------------------------------------------


def _locale(lang: str | None) -> str:
    return "fr_CA" if (lang or "").strip().lower()[:2] == "fr" else "en_CA"


def full_day(value: date | str, lang: str | None = "en") -> str:
    """A day with its year, as orders, receipts and their e-mails write it:
    ``"Monday, March 2, 2026"`` / ``"lundi 2 mars 2026"``; ``value`` a date or ISO text."""
    from babel.dates import format_date

    day = date.fromisoformat(value) if isinstance(value, str) else value
    return format_date(day, format="full", locale=_locale(lang))


def full_day_or_text(value: str, lang: str | None = "en") -> str:
    """``full_day`` of ISO text; text that is not a date comes back as it is."""
    try:
        return full_day(value, lang)
    except ValueError:
        return value


def weekday_name(value: date | str, lang: str | None = "en") -> str:
    """``"Monday"`` / ``"lundi"``; "" for text that is not a date."""
    from babel.dates import format_date

    try:
        day = date.fromisoformat(value) if isinstance(value, str) else value
    except ValueError:
        return ""
    return format_date(day, "EEEE", locale=_locale(lang))


def short_day(value: date, lang: str | None = "en") -> str:
    """``"January 25"`` / ``"25 janvier"``."""
    from babel.dates import format_date

    pattern = "d MMMM" if _locale(lang) == "fr_CA" else "MMMM d"
    return format_date(value, pattern, locale=_locale(lang))


def long_day(value: date, lang: str | None = "en") -> str:
    """``"lundi 24 novembre"`` / ``"Monday, November 24"``."""
    from babel.dates import format_date

    pattern = "EEEE d MMMM" if _locale(lang) == "fr_CA" else "EEEE, MMMM d"
    return format_date(value, pattern, locale=_locale(lang))


def month_title(value: date, lang: str | None = "en") -> str:
    """``"novembre 2025"`` / ``"November 2025"`` (stand-alone month name)."""
    from babel.dates import format_date

    return format_date(value, "LLLL y", locale=_locale(lang))


def weekday_names(lang: str | None = "en") -> list[str]:
    """Monday first, abbreviated: ``["lun.", "mar.", ...]`` / ``["Mon", "Tue", ...]``."""
    from babel.dates import get_day_names

    names = get_day_names("abbreviated", locale=_locale(lang))
    return [str(names[n]) for n in range(7)]


def long_moment(value: datetime, lang: str | None = "en") -> str:
    """An aware datetime in Toronto: ``"vendredi 21 novembre, 17 h 00"`` /
    ``"Friday, November 21, 5:00 p.m."``."""
    from zoneinfo import ZoneInfo

    from babel.dates import format_time

    local = value.astimezone(ZoneInfo("America/Toronto"))
    clock = format_time(local, "short", locale=_locale(lang))
    return f"{long_day(local.date(), lang)}, {clock}"


def short_moment(value: datetime, lang: str | None = "en") -> str:
    """An aware datetime in Toronto, short, for a card: ``"jeu. 26 nov., 18 h 00"`` /
    ``"Thu, Nov 26, 6:00 p.m."`` (each day's cut-off on the menu)."""
    from zoneinfo import ZoneInfo

    from babel.dates import format_skeleton, format_time

    local = value.astimezone(ZoneInfo("America/Toronto"))
    day = format_skeleton("MMMEd", local, locale=_locale(lang))
    return f"{day}, {format_time(local, 'short', locale=_locale(lang))}"
