"""Housekeeping: what no rule can see any more goes.

One round (``run``), leased to one worker by ``jobs/periodic.py``:

- rate-limit hits older than ``RATE_LIMIT_KEEP`` (longer than every window in ratelimit.py);
- sessions expired or revoked more than ``GRACE`` ago;
- one-time codes expired more than ``GRACE`` ago (used or not);
- form submission keys older than ``submissions.KEEP``.

Mail a crash or a dead SMTP server left unsent is the mail job's (``mail.send_due``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, cast

from anyio import to_thread
from sqlalchemy import delete, or_
from sqlalchemy.engine import CursorResult, Result
from sqlmodel import Session, col

from hotmeals.db.models import OtpCode, RateLimitHit, SessionToken
from hotmeals.services import submissions
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import in_transaction

log = logging.getLogger("hotmeals.housekeeping")

RATE_LIMIT_KEEP = timedelta(days=1)
GRACE = timedelta(days=1)


@dataclass(frozen=True)
class Tidied:
    rate_limit_hits: int
    sessions: int
    codes: int


def _deleted(result: Result[Any]) -> int:
    return cast(CursorResult[Any], result).rowcount


def purge(session: Session, *, now: datetime) -> tuple[int, int, int]:
    """Delete old rate-limit hits, sessions and codes; returns how many of each."""
    hits = _deleted(
        session.execute(
            delete(RateLimitHit).where(col(RateLimitHit.created_at) < now - RATE_LIMIT_KEEP)
        )
    )
    sessions = _deleted(
        session.execute(
            delete(SessionToken).where(
                or_(
                    col(SessionToken.expires_at) < now - GRACE,
                    col(SessionToken.revoked_at) < now - GRACE,
                )
            )
        )
    )
    codes = _deleted(session.execute(delete(OtpCode).where(col(OtpCode.expires_at) < now - GRACE)))
    submissions.purge(session, now=now)  # idempotency keys past any retry (not counted)
    return hits or 0, sessions or 0, codes or 0


def run(*, runtime: Runtime = APP) -> Tidied:
    """One housekeeping round (synchronous: call it from a thread)."""
    current = runtime.now()
    hits, sessions, codes = in_transaction(purge, now=current, engine=runtime.engine)
    result = Tidied(hits, sessions, codes)
    if any((hits, sessions, codes)):
        log.info("housekeeping: %s", result)
    return result


async def run_async(*, runtime: Runtime = APP) -> Tidied:
    """``run`` on a worker thread (the periodic job's form)."""
    return await to_thread.run_sync(partial(run, runtime=runtime))
