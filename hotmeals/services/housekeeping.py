"""Housekeeping: what no rule can see any more goes, and mail a crash left behind is sent.

One round (``run``), leased to one worker by ``services/jobs.py``:

- rate-limit hits older than ``RATE_LIMIT_KEEP`` (longer than every window in ratelimit.py);
- sessions expired or revoked more than ``GRACE`` ago;
- one-time codes expired more than ``GRACE`` ago (used or not);
- form submission keys older than ``submissions.KEEP``;
- outbox rows still PENDING ``STUCK_AFTER`` after they were written: the commit happened but
  the SMTP handover never did (the process stopped). They are sent again, oldest first, at
  most ``RETRY_BATCH`` a round. Without ``SMTP_HOST`` they stay as they are.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from anyio import to_thread
from sqlalchemy import delete, or_
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from hotmeals.db.engine import get_engine
from hotmeals.db.models import EmailOutbox, OtpCode, RateLimitHit, SessionToken
from hotmeals.services import mail, submissions
from hotmeals.services.clock import now as utcnow
from hotmeals.services.transaction import in_transaction
from hotmeals.settings import get_settings

log = logging.getLogger("hotmeals.housekeeping")

RATE_LIMIT_KEEP = timedelta(days=1)
GRACE = timedelta(days=1)
STUCK_AFTER = timedelta(minutes=10)  # a delivery takes seconds (SMTP time-out 10 s)
RETRY_BATCH = 50


@dataclass(frozen=True)
class Tidied:
    rate_limit_hits: int
    sessions: int
    codes: int
    mails_retried: int


def purge(session: Session, *, now: datetime) -> tuple[int, int, int]:
    """Delete old rate-limit hits, sessions and codes; returns how many of each."""
    hits = session.execute(
        delete(RateLimitHit).where(RateLimitHit.created_at < now - RATE_LIMIT_KEEP)
    ).rowcount
    sessions = session.execute(
        delete(SessionToken).where(
            or_(
                SessionToken.expires_at < now - GRACE,
                SessionToken.revoked_at < now - GRACE,
            )
        )
    ).rowcount
    codes = session.execute(delete(OtpCode).where(OtpCode.expires_at < now - GRACE)).rowcount
    submissions.purge(session, now=now)  # idempotency keys past any retry (not counted)
    return hits or 0, sessions or 0, codes or 0


def stuck_mail(session: Session, *, now: datetime) -> list[EmailOutbox]:
    return list(
        session.exec(
            select(EmailOutbox)
            .where(EmailOutbox.status == "PENDING", EmailOutbox.created_at < now - STUCK_AFTER)
            .order_by(EmailOutbox.created_at, EmailOutbox.id)
            .limit(RETRY_BATCH)
        ).all()
    )


def run(*, now: datetime | None = None, engine: Engine | None = None) -> Tidied:
    """One housekeeping round (synchronous: call it from a thread)."""
    current = now or utcnow()
    eng = engine or get_engine()
    hits, sessions, codes = in_transaction(purge, now=current, engine=eng)
    retried = 0
    if get_settings().smtp_host:
        for row in in_transaction(stuck_mail, now=current, engine=eng):
            mail.redeliver(eng, row)
            retried += 1
    result = Tidied(hits, sessions, codes, retried)
    if any((hits, sessions, codes, retried)):
        log.info("housekeeping: %s", result)
    return result


async def run_async(*, engine: Engine | None = None) -> Tidied:
    """``run`` on a worker thread (the periodic job's form)."""
    return await to_thread.run_sync(partial(run, engine=engine))
