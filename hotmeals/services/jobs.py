"""Periodic jobs that run in one place however many workers serve the app.

Each worker starts the same loops (Reflex lifespan tasks); before a round, a worker takes the
job's lease (a ``JobLease`` row, conditional UPDATE: the same on SQLite and PostgreSQL) and
skips the round when another worker holds it.

- ``reconcile``: payments and refunds whose answer never came (``services.payments``);
- ``mail``: outbox rows whose (next) try is due: a dead SMTP server, a crash before the
  handover (``services.mail.send_due``);
- ``housekeeping``: old rate-limit hits, expired sessions and codes (``services.housekeeping``).

The lease names the process holding it (``worker_id()``: host, pid and a random part, made in
the process itself, so workers forked from one supervisor never share it). It is short
(``LEASE_TTL``, a minute) and renewed by a heartbeat while a round runs, so a long round keeps
it and a worker that dies lets another take over about a minute later.

``register_background_jobs(app)`` is called once from ``hotmeals/hotmeals.py``; the intervals
are ``HOTMEALS_RECONCILE_SECONDS`` (default 120), ``HOTMEALS_MAIL_SECONDS`` (default 60) and
``HOTMEALS_HOUSEKEEPING_SECONDS`` (default 3600); 0 turns a job off.
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

RECONCILE, HOUSEKEEPING, MAIL = "reconcile", "housekeeping", "mail"
# Renewed every HEARTBEAT while a round runs and released at its end, so it only matters when
# a worker dies mid-round: the next worker takes over about a minute later.
LEASE_TTL = timedelta(minutes=1)
HEARTBEAT = LEASE_TTL / 3

_worker: tuple[int, str] | None = None


def worker_id() -> str:
    """This process's name in a lease. Made on first use in each process (a forked worker gets
    its own, not its supervisor's)."""
    global _worker
    pid = os.getpid()
    if _worker is None or _worker[0] != pid:
        _worker = (pid, f"{socket.gethostname()[:40]}:{pid}:{secrets.token_hex(4)}")
    return _worker[1]


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


def _take(
    session: Session,
    *,
    name: str,
    holder: str,
    now: datetime,
    ttl: timedelta,
    due_after: timedelta | None = None,
) -> bool:
    table: Any = JobLease
    conditions = [table.name == name, (table.expires_at <= now) | (table.holder == holder)]
    values: dict[str, Any] = {"holder": holder, "expires_at": now + ttl}
    if due_after is not None:
        # A new round: only when none started (on any worker) within ``due_after``.
        conditions.append(
            table.last_started_at.is_(None) | (table.last_started_at <= now - due_after)
        )
        values["last_started_at"] = now
    taken = session.execute(
        update(JobLease)
        .where(*conditions)
        .values(**values)
        .execution_options(synchronize_session=False)
    ).rowcount
    return taken == 1


def acquire(
    name: str,
    *,
    holder: str | None = None,
    ttl: timedelta = LEASE_TTL,
    now: datetime | None = None,
    due_after: timedelta | None = None,
    engine: Engine | None = None,
) -> bool:
    """Take (or renew) the lease of job ``name`` for ``ttl``; False when another holds it, or,
    with ``due_after``, when a round started (anywhere) less than ``due_after`` ago.
    ``holder`` defaults to this process (``worker_id()``)."""
    _ensure_row(engine, name)
    return in_transaction(
        _take,
        name=name,
        holder=holder or worker_id(),
        now=now or utcnow(),
        ttl=ttl,
        due_after=due_after,
        engine=engine,
    )


def release(name: str, *, holder: str | None = None, engine: Engine | None = None) -> None:
    """Free the lease now (only if ``holder`` still holds it)."""
    holder = holder or worker_id()

    def free(session: Session) -> None:
        table: Any = JobLease
        session.execute(
            update(JobLease)
            .where(table.name == name, table.holder == holder)
            .values(expires_at=utcnow())
            .execution_options(synchronize_session=False)
        )

    in_transaction(free, engine=engine)


async def _heartbeat(
    name: str, *, holder: str, ttl: timedelta, every: float, engine: Engine | None
) -> None:
    while True:
        await asyncio.sleep(every)
        try:
            if not await asyncio.to_thread(acquire, name, holder=holder, ttl=ttl, engine=engine):
                log.error("%s: lease lost by %s mid-round", name, holder)
        except Exception:  # noqa: BLE001 - a missed beat is retried at the next one
            log.exception("%s: lease renewal failed", name)


async def run_once(
    name: str,
    job: Callable[[], Awaitable[Any]],
    *,
    holder: str | None = None,
    ttl: timedelta = LEASE_TTL,
    heartbeat: float | None = None,
    due_after: timedelta | None = None,
    engine: Engine | None = None,
) -> bool:
    """One round of ``job`` if this worker gets the lease (and, with ``due_after``, no round
    started anywhere within it); returns whether it ran. While it runs, the lease is renewed
    every ``heartbeat`` seconds (a third of ``ttl``)."""
    holder = holder or worker_id()
    taken = await asyncio.to_thread(
        acquire, name, holder=holder, ttl=ttl, due_after=due_after, engine=engine
    )
    if not taken:
        return False
    every = heartbeat if heartbeat is not None else ttl.total_seconds() / 3
    beat = asyncio.create_task(_heartbeat(name, holder=holder, ttl=ttl, every=every, engine=engine))
    try:
        await job()
    finally:
        beat.cancel()
        try:
            await beat
        except asyncio.CancelledError:
            pass
        await asyncio.to_thread(release, name, holder=holder, engine=engine)
    return True


# A worker's loop ticks every interval; a round is due when the last one (on any worker)
# started at least this share of an interval ago: one round per interval for the cluster,
# whatever the number of workers and however their ticks drift.
DUE_SHARE = 0.9


async def _every(name: str, job: Callable[[], Awaitable[Any]], interval_seconds: float) -> None:
    due_after = timedelta(seconds=interval_seconds * DUE_SHARE)
    while True:
        await asyncio.sleep(interval_seconds)
        try:
            await run_once(name, job, due_after=due_after)
        except Exception:  # noqa: BLE001 - a bad round must not end the loop
            log.exception("%s round failed", name)


async def reconciliation_loop(*, interval_seconds: float) -> None:
    """For the life of the app: reconcile open payments and refunds, in one worker."""
    from hotmeals.services import payments

    await _every(RECONCILE, payments.reconcile_round, interval_seconds)


async def mail_loop(*, interval_seconds: float) -> None:
    """For the life of the app: send the mail that is due (retries, left-behind rows)."""
    from hotmeals.db.engine import get_engine
    from hotmeals.services import mail
    from hotmeals.settings import get_settings

    async def round_() -> None:
        if get_settings().smtp_host:  # without SMTP every mail is LOGGED: nothing is due
            await asyncio.to_thread(mail.send_due, engine=get_engine())

    await _every(MAIL, round_, interval_seconds)


async def housekeeping_loop(*, interval_seconds: float) -> None:
    """For the life of the app: purge what no one needs any more."""
    from hotmeals.services import housekeeping

    await _every(HOUSEKEEPING, housekeeping.run_async, interval_seconds)


def _seconds(variable: str, default: str) -> float:
    return float(os.environ.get(variable, default) or 0)


def register_background_jobs(app: Any) -> None:
    """Start the periodic jobs with the app (Reflex lifespan tasks)."""
    reconcile = _seconds("HOTMEALS_RECONCILE_SECONDS", "120")
    if reconcile > 0:
        app.register_lifespan_task(reconciliation_loop, interval_seconds=reconcile)
    mail_every = _seconds("HOTMEALS_MAIL_SECONDS", "60")
    if mail_every > 0:
        app.register_lifespan_task(mail_loop, interval_seconds=mail_every)
    tidy = _seconds("HOTMEALS_HOUSEKEEPING_SECONDS", "3600")
    if tidy > 0:
        app.register_lifespan_task(housekeeping_loop, interval_seconds=tidy)
