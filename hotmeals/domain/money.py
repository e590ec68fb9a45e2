"""Money is an ``int`` of cents everywhere; this module is the only place it becomes text.

- ``format_money`` is for people: English ``$1,234.56`` and ``-$3.00``; French (Canada)
  ``1 234,56 $`` and ``-3,00 $``. French uses U+00A0 NO-BREAK SPACE both as the thousands
  separator and before the ``$`` sign, so a price never wraps across two lines.
- ``to_decimal_string`` / ``parse_decimal_string`` are for machines: Converge's ``ssl_amount``
  is ``"12.50"`` (two decimals, no sign, no separators).
- ``round_half_up`` is the one rounding rule for rates (percent discounts, tax, card fees):
  exact integer arithmetic, halves rounded away from zero, never a float.
"""

from __future__ import annotations

import re

from hotmeals.domain.errors import DomainError

NBSP = "\u00a0"
"""U+00A0 NO-BREAK SPACE: French thousands separator and the space before ``$``."""

BPS_DENOMINATOR = 10_000
"""Rates are basis points: 1300 bps = 13 %."""

# Strict: ASCII digits, at most two decimals, no sign, no exponent, no separators, no spaces.
# Ten integer digits (up to $9,999,999,999.99) is far above any order and keeps int() cheap.
_DECIMAL_RE = re.compile(r"(?P<units>[0-9]{1,10})(?:\.(?P<frac>[0-9]{1,2}))?", re.ASCII)


def _require_int(value: object, name: str) -> int:
    # bool is an int subclass; True cents is always a bug.
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int of cents, got {type(value).__name__}")
    return value


def _is_french(lang: str | None) -> bool:
    return lang is not None and lang.strip().lower()[:2] == "fr"


def _group(units: int, separator: str) -> str:
    return f"{units:,}".replace(",", separator)


MINUS = "\u2212"  # the minus sign, not the hyphen


def format_money(cents: int, lang: str | None = "en") -> str:
    """Cents as a price for people: ``$1,234.56`` (en) or ``1 234,56 $`` (fr, NBSP spaces); a
    negative amount (money off, credit spent) with the minus sign U+2212, ``−$3.00``, the one
    way every screen, e-mail and answer writes it."""
    _require_int(cents, "cents")
    sign = MINUS if cents < 0 else ""
    units, frac = divmod(abs(cents), 100)
    if _is_french(lang):
        return f"{sign}{_group(units, NBSP)},{frac:02d}{NBSP}$"
    return f"{sign}${_group(units, ',')}.{frac:02d}"


def to_decimal_string(cents: int) -> str:
    """Cents as Converge's amount format: ``1250 -> "12.50"``. Amounts sent are never negative."""
    _require_int(cents, "cents")
    if cents < 0:
        raise ValueError("a payment amount is never negative")
    units, frac = divmod(cents, 100)
    return f"{units}.{frac:02d}"


def parse_decimal_string(text: object) -> int:
    """``"12.50" -> 1250``; ``"12"`` and ``"12.5"`` are accepted too.

    Anything else (a sign, more than two decimals, separators, spaces, exponents, non-ASCII
    digits, a non-string) raises ``DomainError("invalid_amount")``.
    """
    if not isinstance(text, str):
        raise DomainError("invalid_amount")
    match = _DECIMAL_RE.fullmatch(text)
    if match is None:
        raise DomainError("invalid_amount")
    frac = (match.group("frac") or "").ljust(2, "0")
    return int(match.group("units")) * 100 + int(frac)


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded to the nearest integer, halves away from zero.

    ``round_half_up(5, 2) == 3``, ``round_half_up(-5, 2) == -3``, ``round_half_up(7, 3) == 2``.
    Python's ``round`` rounds halves to even and floats are inexact, so neither is used.
    """
    _require_int(numerator, "numerator")
    _require_int(denominator, "denominator")
    if denominator <= 0:
        raise ValueError("denominator must be positive")
    quotient, remainder = divmod(abs(numerator), denominator)
    if 2 * remainder >= denominator:
        quotient += 1
    return -quotient if numerator < 0 else quotient


def apply_bps(cents: int, bps: int) -> int:
    """``cents * bps / 10000`` rounded half up: the share of an amount at a basis-point rate."""
    _require_int(cents, "cents")
    _require_int(bps, "bps")
    return round_half_up(cents * bps, BPS_DENOMINATOR)
