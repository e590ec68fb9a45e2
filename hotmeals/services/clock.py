"""The services' clock: aware UTC.

The timestamp columns are sqlmodel ``UTCDateTime``, which refuses naive values (such as those of
``models.utcnow()``) and reads values back as aware UTC; so every timestamp a service writes or
compares is aware, and every row a service creates is given its ``created_at`` explicitly.
"""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> datetime:
    return datetime.now(UTC)
