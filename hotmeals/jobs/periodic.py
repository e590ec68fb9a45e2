"""Periodic jobs that run in one place however many workers serve the app.

Each worker starts the same loops (Reflex lifespan tasks); before a round, a worker takes the
job's lease (a ``JobLease`` row, conditional UPDATE: the same on SQLite and PostgreSQL) and
skips the round when another worker holds it.

- ``reconcile``: payments and refunds whose answer never came, money that paid for nothing,
  refused refunds sent again (``jobs/payment_round.py``);
- ``mail``: outbox rows whose (next) try is due: a dead SMTP server, a crash before the
  handover (``services.mail.send_due``);
- ``housekeeping``: old rate-limit hits, expired sessions and codes (``services.housekeeping``);
- ``reminders``: cut-off reminders, order reminders and menu updates that are due
  (``services.reminders``);
- ``standing``: the standing orders' dates to book and pay before their cut-off
  (``services.standing_job``).

The lease names the process holding it (``worker_id()``: host, pid and a random part, made in
the process itself, so workers forked from one supervisor never share it). It is short
(``LEASE_TTL``, a minute) and renewed by a heartbeat while a round runs, so a long round keeps
it and a worker that dies lets another take over about a minute later.

This is the runner of the embedded default (SQLite): ``register_lease_loops(app)``. On
PostgreSQL the same job functions (``PERIODIC``) run on the job queue instead
(``jobs/queue.py``, procrastinate); ``jobs/runner.py`` chooses. The intervals
are ``HOTMEALS_RECONCILE_SECONDS`` (default 120), ``HOTMEALS_MAIL_SECONDS`` (default 60) and
``HOTMEALS_HOUSEKEEPING_SECONDS`` (default 3600), ``HOTMEALS_REMINDERS_SECONDS`` (default
300) and ``HOTMEALS_STANDING_SECONDS`` (default 300); 0 turns a job off.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import insert, update
from sqlalchemy.engine import CursorResult, Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from hotmeals.clock import now as utcnow
from hotmeals.db.models import JobLease
from hotmeals.jobs import payment_round
from hotmeals.services import housekeeping, mail, reminders
from hotmeals.services import standing_job as standing_sweep
from hotmeals.services.transaction import in_transaction
from hotmeals.settings import get_settings

log = logging.getLogger("hotmeals.jobs")

RECONCILE, HOUSEKEEPING, MAIL, REMINDERS = "reconcile", "housekeeping", "mail", "reminders"
STANDING = "standing"
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
    result = session.execute(
        update(JobLease)
        .where(*conditions)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    taken = cast(CursorResult[Any], result).rowcount
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


# --- the periodic work, the same functions whichever runner calls them ---------------------


async def reconcile_job() -> None:
    """Payments and refunds whose answer never came (``jobs/payment_round.py``)."""
    await payment_round.reconcile_round()


async def mail_job() -> mail.SendRound | None:
    """Mail whose (next) try is due (``services.mail.send_due``)."""
    if get_settings().smtp_host:  # without SMTP every mail is LOGGED: nothing is due
        return await asyncio.to_thread(mail.send_due)
    return None


async def housekeeping_job() -> housekeeping.Tidied:
    """What no rule can see any more (``services.housekeeping``)."""
    return await housekeeping.run_async()


async def reminders_job() -> reminders.Round:
    """Cut-off reminders, order reminders and menu updates that are due
    (``services.reminders.run``): a sweep, so a missed round is made up by the next one."""
    return await asyncio.to_thread(reminders.run)


async def standing_job() -> standing_sweep.Round:
    """The standing orders' dates to book and pay (``services.standing_job.run``): a sweep, so a
    missed round is made up by the next one while the cut-off lasts."""
    return await standing_sweep.run()


@dataclass(frozen=True)
class PeriodicJob:
    name: str
    setting: str  # the environment variable with its interval in seconds; 0 turns it off
    default_seconds: float
    run: Callable[[], Awaitable[Any]]


PERIODIC: tuple[PeriodicJob, ...] = (
    PeriodicJob(RECONCILE, "HOTMEALS_RECONCILE_SECONDS", 120, reconcile_job),
    PeriodicJob(MAIL, "HOTMEALS_MAIL_SECONDS", 60, mail_job),
    PeriodicJob(HOUSEKEEPING, "HOTMEALS_HOUSEKEEPING_SECONDS", 3600, housekeeping_job),
    PeriodicJob(REMINDERS, "HOTMEALS_REMINDERS_SECONDS", 300, reminders_job),
    PeriodicJob(STANDING, "HOTMEALS_STANDING_SECONDS", 300, standing_job),
)


def intervals() -> dict[str, float]:
    """Each periodic job's interval in seconds from the environment (0: off)."""
    return {
        job.name: float(os.environ.get(job.setting, str(job.default_seconds)) or 0)
        for job in PERIODIC
    }


async def lease_loop(*, name: str, interval_seconds: float) -> None:
    """For the life of the app: the periodic job ``name``, one round per interval for the
    cluster (the lease runner: the embedded SQLite default; PostgreSQL uses the job queue,
    ``hotmeals/jobs/queue.py``)."""
    job = next(j for j in PERIODIC if j.name == name)
    await _every(name, job.run, interval_seconds)


def register_lease_loops(app: Any) -> None:
    """Start each periodic job's lease loop with the app (Reflex lifespan tasks)."""
    for name, seconds in intervals().items():
        if seconds > 0:
            app.register_lifespan_task(lease_loop, name=name, interval_seconds=seconds)
