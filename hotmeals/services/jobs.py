"""Periodic jobs that run in one place however many workers serve the app.

Each worker starts the same loops (Reflex lifespan tasks); before a round, a worker takes the
job's lease (a ``JobLease`` row, conditional UPDATE: the same on SQLite and PostgreSQL) and
skips the round when another worker holds it. A worker that dies lets its lease run out.

- ``reconcile``: payments and refunds whose answer never came (``services.payments``);
- ``housekeeping``: old rate-limit hits, expired sessions and codes, mail left PENDING by a
  crash (``services.housekeeping``).

``register_background_jobs(app)`` is called once from ``hotmeals/hotmeals.py``; the intervals
are ``HOTMEALS_RECONCILE_SECONDS`` (default 120) and ``HOTMEALS_HOUSEKEEPING_SECONDS`` (default
3600); 0 turns a job off.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from hotmeals.db.models import JobLease
from hotmeals.services.clock import now as utcnow
from hotmeals.services.transaction import in_transaction

log = logging.getLogger("hotmeals.jobs")

RECONCILE, HOUSEKEEPING = "reconcile", "housekeeping"
# Longer than any round (a round's Converge calls time out after 30 s each); released at the
# end of a round, so it only matters when a worker dies mid-round.
LEASE_TTL = timedelta(minutes=10)
WORKER = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


FREE_SINCE = datetime(2000, 1, 1, tzinfo=UTC)


def _create(session: Session, *, name: str) -> None:
    session.execute(insert(JobLease).values(name=name, holder="", expires_at=FREE_SINCE))


def _ensure_row(engine: Engine | None, name: str) -> None:
    """The job's row, created free the first time (a concurrent creator wins, harmlessly)."""
    exists = in_transaction(lambda session: session.get(JobLease, name) is not None, engine=engine)
    if not exists:
        try:
            in_transaction(_create, name=name, engine=engine)
        except IntegrityError:
            pass


def _take(session: Session, *, name: str, holder: str, now: datetime, ttl: timedelta) -> bool:
    table: Any = JobLease
    taken = session.execute(
        update(JobLease)
        .where(table.name == name, (table.expires_at <= now) | (table.holder == holder))
        .values(holder=holder, expires_at=now + ttl)
        .execution_options(synchronize_session=False)
    ).rowcount
    return taken == 1


def acquire(
    name: str,
    *,
    holder: str = WORKER,
    ttl: timedelta = LEASE_TTL,
    now: datetime | None = None,
    engine: Engine | None = None,
) -> bool:
    """Take (or renew) the lease of job ``name`` for ``ttl``; False when another holds it."""
    _ensure_row(engine, name)
    return in_transaction(
        _take, name=name, holder=holder, now=now or utcnow(), ttl=ttl, engine=engine
    )


def release(name: str, *, holder: str = WORKER, engine: Engine | None = None) -> None:
    """Free the lease now (only if ``holder`` still holds it)."""

    def free(session: Session) -> None:
        table: Any = JobLease
        session.execute(
            update(JobLease)
            .where(table.name == name, table.holder == holder)
            .values(expires_at=utcnow())
            .execution_options(synchronize_session=False)
        )

    in_transaction(free, engine=engine)


async def run_once(
    name: str,
    job: Callable[[], Awaitable[Any]],
    *,
    holder: str = WORKER,
    ttl: timedelta = LEASE_TTL,
    engine: Engine | None = None,
) -> bool:
    """One round of ``job`` if this worker gets the lease; returns whether it ran."""
    taken = await asyncio.to_thread(acquire, name, holder=holder, ttl=ttl, engine=engine)
    if not taken:
        return False
    try:
        await job()
    finally:
        await asyncio.to_thread(release, name, holder=holder, engine=engine)
    return True


async def _every(name: str, job: Callable[[], Awaitable[Any]], interval_seconds: float) -> None:
    while True:
        await asyncio.sleep(interval_seconds)
        try:
            await run_once(name, job)
        except Exception:  # noqa: BLE001 - a bad round must not end the loop
            log.exception("%s round failed", name)


async def reconciliation_loop(*, interval_seconds: float) -> None:
    """For the life of the app: reconcile open payments and refunds, in one worker."""
    from hotmeals.services import payments

    await _every(RECONCILE, payments.reconcile_round, interval_seconds)


async def housekeeping_loop(*, interval_seconds: float) -> None:
    """For the life of the app: purge what no one needs any more, retry stuck mail."""
    from hotmeals.services import housekeeping

    await _every(HOUSEKEEPING, housekeeping.run_async, interval_seconds)


def _seconds(variable: str, default: str) -> float:
    return float(os.environ.get(variable, default) or 0)


def register_background_jobs(app: Any) -> None:
    """Start the periodic jobs with the app (Reflex lifespan tasks)."""
    reconcile = _seconds("HOTMEALS_RECONCILE_SECONDS", "120")
    if reconcile > 0:
        app.register_lifespan_task(reconciliation_loop, interval_seconds=reconcile)
    tidy = _seconds("HOTMEALS_HOUSEKEEPING_SECONDS", "3600")
    if tidy > 0:
        app.register_lifespan_task(housekeeping_loop, interval_seconds=tidy)
