"""Sliding-window limits on attempts (failed logins, wrong codes, codes sent, contact messages).

Each counted attempt is a ``RateLimitHit`` row in a bucket, keyed by account (e-mail, phone
digits) or by client address. ``check`` refuses with ``DomainError("rate_limited", minutes=N)``
once ``limit`` hits fall in the window.

Failures are recorded with ``record_failure``, in a transaction of their own: the request's
transaction is rolled back when the service raises, and a failure that vanished with it would
never count. Call it before the request's session has written anything (on SQLite a second
writer would wait for the first).

Password checks use a ``Throttle`` instead (``reserve``): the attempt is recorded *before* the
password is checked, in a short transaction of its own that first locks the account's bucket
(a PostgreSQL advisory lock; SQLite's single write lock), so forty parallel guesses cannot all
read "under the limit" before any of them is counted. Beyond its free checks a throttle asks for
growing delays rather than locking the parent out (docs/security.md, "Sign-in").
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, text
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import RateLimitHit
from hotmeals.domain.errors import DomainError


@dataclass(frozen=True)
class Limit:
    bucket: str  # at most 32 characters (the column's size)
    limit: int
    window: timedelta


_15_MIN = timedelta(minutes=15)
_HOUR = timedelta(hours=1)

LOGIN_ADDRESS = Limit("login:address", 30, _15_MIN)  # over it: sign-in needs an e-mailed code
OTP_ACCOUNT = Limit("otp:account", 10, _15_MIN)  # wrong codes for one e-mail, over all codes
OTP_ADDRESS = Limit("otp:address", 30, _15_MIN)
# One code per minute per address and purpose: the resend cool-down (services/otp.py).
OTP_COOLDOWN = Limit("otp_cooldown", 1, timedelta(minutes=1))  # key: purpose:e-mail
OTP_SEND_ACCOUNT = Limit("otp_send:account", 10, _HOUR)  # codes mailed to one address
OTP_SEND_ADDRESS = Limit("otp_send:address", 30, _HOUR)  # codes requested from one client
CONTACT_ADDRESS = Limit("contact:address", 10, _HOUR)  # visitors (no account to count on)
# A signed-in parent is counted on the account: a school's or a carrier's shared address must
# not let one family's messages use up another's.
CONTACT_ACCOUNT = Limit("contact:account", 10, _HOUR)

KEY_MAX = 254


@dataclass(frozen=True)
class Throttle:
    """Growing delays instead of a lock-out: ``free`` password checks back to back, then each
    further check only ``first_delay`` after the previous one, doubling with every check up to
    ``max_delay``. A check is remembered for ``window``; a successful sign-in forgets them.
    """

    bucket: str
    free: int
    first_delay: timedelta
    max_delay: timedelta
    window: timedelta

    def delay_after(self, checks: int) -> timedelta:
        """How long after the newest check the next one may run, ``checks`` being remembered."""
        if checks < self.free:
            return timedelta(0)
        doublings = min(checks - self.free, 30)
        return min(self.first_delay * (2**doublings), self.max_delay)


# Checks of one account's password (sign-in by e-mail or phone share it: the key is the
# account). Five in a row, then 2 s, 4 s, 8 s ... at most 5 minutes apart: a parent who mistypes
# waits seconds, never a quarter of an hour; a guesser gets about a dozen guesses an hour.
LOGIN_ACCOUNT = Throttle(
    "login:account", 5, timedelta(seconds=2), timedelta(minutes=5), timedelta(hours=1)
)
PASSWORD_ACCOUNT = Throttle(  # the current password on the change-password screen
    "password:account", 5, timedelta(seconds=2), timedelta(minutes=5), timedelta(hours=1)
)


def _key(key: str) -> str:
    return key.strip().lower()[:KEY_MAX]


def _hits_since(session: Session, limit: Limit, key: str, since: datetime) -> Any:
    return (
        select(func.count(), func.min(RateLimitHit.created_at))
        .where(RateLimitHit.bucket == limit.bucket)
        .where(RateLimitHit.key == _key(key))
        .where(RateLimitHit.created_at > since)
    )


def retry_after(session: Session, limit: Limit, key: str | None) -> int:
    """Seconds until one more attempt is allowed (0: allowed now). ``key=None`` is never
    limited (an unknown client address)."""
    if not key:
        return 0
    now = utcnow()
    count, oldest = session.exec(_hits_since(session, limit, key, now - limit.window)).one()
    if count < limit.limit or oldest is None:
        return 0
    return max(1, math.ceil((oldest + limit.window - now).total_seconds()))


def check(session: Session, limit: Limit, key: str | None) -> None:
    seconds = retry_after(session, limit, key)
    if seconds:
        raise DomainError("rate_limited", minutes=max(1, math.ceil(seconds / 60)))


def record(session: Session, limit: Limit, key: str | None) -> None:
    """Count an attempt inside the request's transaction (it counts only if that commits)."""
    if key:
        session.add(RateLimitHit(bucket=limit.bucket, key=_key(key), created_at=utcnow()))


@contextmanager
def own_transaction(session: Session) -> Iterator[Session]:
    """A session whose work commits on its own, whatever becomes of ``session``'s transaction.

    A session bound to one connection (a test wrapping everything in a transaction) is used
    as it is: there is no other transaction to write in.
    """
    bind = session.get_bind()
    if not isinstance(bind, Engine):
        yield session
        session.flush()
        return
    with Session(bind) as own:
        yield own
        own.commit()


def record_failure(session: Session, *hits: tuple[Limit, str | None]) -> None:
    """Count failed attempts in a transaction of their own, so they survive the rollback."""
    at = utcnow()
    rows = [
        RateLimitHit(bucket=lim.bucket, key=_key(key), created_at=at) for lim, key in hits if key
    ]
    if rows:
        with own_transaction(session) as own:
            own.add_all(rows)


def _lock_buckets(session: Session, bucket: str, keys: list[str]) -> None:
    """Serialize reservations on these keys until ``session`` commits.

    PostgreSQL: one transaction-scoped advisory lock per key, taken in a fixed order (no
    deadlock between two phone sign-ins sharing accounts). SQLite: a write takes the database's
    one write lock, held until commit (``busy_timeout`` makes others wait for it).
    """
    if session.get_bind().dialect.name == "postgresql":
        for key in sorted(keys):
            session.execute(
                text("SELECT pg_advisory_xact_lock(hashtextextended(:name, 0))"),
                {"name": f"{bucket}|{key}"},
            )
    else:
        session.execute(text("UPDATE ratelimithit SET id = id WHERE id = -1"))


def reserve(session: Session, throttle: Throttle, keys: list[str]) -> None:
    """Count one check for every key, or refuse with ``rate_limited_seconds`` when any key must
    still wait. Runs and commits in a transaction of its own (see the module doc): call it when
    ``session`` holds no connection, or it would wait for a second one."""
    wanted = sorted({_key(k) for k in keys if k})
    if not wanted:
        return
    with own_transaction(session) as own:
        _lock_buckets(own, throttle.bucket, wanted)
        now = utcnow()
        wait = 0.0
        for key in wanted:
            count, newest = own.exec(
                select(func.count(), func.max(RateLimitHit.created_at))
                .where(RateLimitHit.bucket == throttle.bucket)
                .where(RateLimitHit.key == key)
                .where(RateLimitHit.created_at > now - throttle.window)
            ).one()
            if newest is not None:
                ready = newest + throttle.delay_after(count)
                wait = max(wait, (ready - now).total_seconds())
        if wait > 0:
            raise DomainError("rate_limited_seconds", seconds=max(1, math.ceil(wait)))
        own.add_all(RateLimitHit(bucket=throttle.bucket, key=key, created_at=now) for key in wanted)


def over_limit(session: Session, limit: Limit, key: str | None) -> bool:
    """Whether ``key`` has reached ``limit`` (without refusing anything)."""
    return retry_after(session, limit, key) > 0


def clear(session: Session, limit: Limit | Throttle, key: str | None) -> None:
    """Forget an account's failures after it succeeds (a parent who finally remembers)."""
    if key:
        session.execute(
            delete(RateLimitHit)
            .where(col(RateLimitHit.bucket) == limit.bucket)
            .where(col(RateLimitHit.key) == _key(key))
        )


def last_hit_age(session: Session, limit: Limit, key: str) -> Any:
    """Seconds since the newest hit in the bucket for ``key``, or ``None`` if there is none
    within the window (used for the 60-second resend cooldown)."""
    now = utcnow()
    newest = session.exec(
        select(func.max(RateLimitHit.created_at))
        .where(RateLimitHit.bucket == limit.bucket)
        .where(RateLimitHit.key == _key(key))
        .where(RateLimitHit.created_at > now - limit.window)
    ).one()
    if newest is None:
        return None
    return (now - newest).total_seconds()


def purge_older_than(session: Session, age: timedelta = timedelta(days=1)) -> int:
    """Delete hits no window can still see (housekeeping)."""
    result = session.exec(delete(RateLimitHit).where(col(RateLimitHit.created_at) < utcnow() - age))
    return result.rowcount or 0
