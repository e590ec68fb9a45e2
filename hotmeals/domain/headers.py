"""Text that ends up in an e-mail header (a subject, a name, an address) must be one line:
a line break there starts a new header (``\\r\\nBcc: ...``)."""

from __future__ import annotations

from hotmeals.domain.errors import DomainError

# Every character Python's str.splitlines() breaks on: mail libraries and clients differ on
# which of them end a header line, so none is allowed.
_BREAKS = frozenset("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def has_line_break(value: object) -> bool:
    return any(ch in _BREAKS for ch in str(value or ""))


def one_line(value: str) -> str:
    """``value`` with every line break turned into a space (the last line of defence in
    ``services/mail.py``; services refuse such values first)."""
    return "".join(" " if ch in _BREAKS else ch for ch in value)


def validate_one_line(value: object, field: str) -> DomainError | None:
    if has_line_break(value):
        return DomainError("line_break_invalid", field=field)
    return None
