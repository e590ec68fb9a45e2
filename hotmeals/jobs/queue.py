"""The job queue of the scale-out profile: procrastinate on the app's PostgreSQL database.

Why procrastinate (docs/architecture.md, "Background work"): the scale-out profile already has
PostgreSQL, and procrastinate keeps everything a cluster needs in it, with no other service:
- **once per cluster**: every worker runs a procrastinate worker in-process (a Reflex lifespan
  task), and each defers the periodic jobs; the database keeps one job per task and scheduled
  moment (``procrastinate_periodic_defers``), and a ``lock`` per task means a round never
  overlaps the previous one;
- **retries**: a round that raises is retried (``RetryStrategy``: 3 tries, 30 s apart), then
  the job is ``failed`` and listed by ``python -m hotmeals.jobs failed``;
- **a worker that dies**: every worker writes a heartbeat (``procrastinate_workers``) every 10 s;
  the ``retry_stalled`` job (every minute, on any living worker) gives the jobs of a worker
  silent for 30 s back to the queue, so a round cut by a crash runs again within about a minute;
- **made up after downtime**: the jobs are sweeps over the database (open payments, due mail,
  old rows, reminders that are due), so the first round after a restart does what the missed
  ones would have done.

The embedded default (SQLite, ``make run``) needs no other service: the same job functions
(``jobs.periodic.PERIODIC``) run in lease loops (``jobs/periodic.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import procrastinate

from hotmeals.jobs import periodic
from hotmeals.settings import get_settings

log = logging.getLogger("hotmeals.jobs")

RETRIES = procrastinate.RetryStrategy(max_attempts=3, wait=30)
HEARTBEAT_SECONDS = 10.0
STALLED_AFTER_SECONDS = 30.0  # three missed heartbeats: the worker is gone
RETRY_STALLED = "retry_stalled"
CONCURRENCY = 6  # reconcile, mail, housekeeping, reminders, standing and retry_stalled can each run


def cron_every(seconds: float) -> str:
    """A cron line (procrastinate's, with an optional 6th column for seconds) that fires every
    ``seconds``, rounded to a step that divides the minute, the hour or the day."""
    whole = max(1, round(seconds))
    if whole < 60:
        step = max(d for d in (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30) if d <= whole)
        return f"* * * * * */{step}"
    minutes = max(1, round(whole / 60))
    if minutes < 60:
        step = max(d for d in (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30) if d <= minutes)
        return f"*/{step} * * * *"
    hours = max(1, round(minutes / 60))
    step = max(d for d in (1, 2, 3, 4, 6, 8, 12) if d <= hours) if hours < 24 else 24
    return "0 0 * * *" if step == 24 else f"0 */{step} * * *"


def conninfo(database_url: str | None = None) -> str:
    """libpq's form of the app's PostgreSQL URL (``postgresql+psycopg://`` → ``postgresql://``)."""
    url = database_url or get_settings().database_url
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def _periodic(run: Callable[[], Awaitable[Any]]) -> Callable[[int], Awaitable[None]]:
    async def round_(timestamp: int) -> None:  # procrastinate passes the scheduled moment
        await run()

    return round_


def build_app(
    *, intervals: dict[str, float] | None = None, database_url: str | None = None
) -> procrastinate.App:
    """The procrastinate app with every periodic job of ``periodic.PERIODIC`` (its
    interval from ``intervals``, else the environment; 0: not scheduled) and retry_stalled."""
    app = procrastinate.App(
        connector=procrastinate.PsycopgConnector(
            conninfo=conninfo(database_url), min_size=1, max_size=4
        )
    )
    chosen = intervals if intervals is not None else periodic.intervals()
    for job in periodic.PERIODIC:
        seconds = chosen.get(job.name, 0)
        if seconds <= 0:
            continue
        task = app.task(name=job.name, lock=job.name, queueing_lock=job.name, retry=RETRIES)(
            _periodic(job.run)
        )
        app.periodic(cron=cron_every(seconds), periodic_id=job.name)(task)

    async def retry_stalled() -> int:
        """Jobs whose worker stopped sending heartbeats go back to the queue."""
        stalled = list(
            await app.job_manager.get_stalled_jobs(seconds_since_heartbeat=STALLED_AFTER_SECONDS)
        )
        for found in stalled:
            log.warning(
                "job %s (%s) was cut by a worker that died: retried", found.id, found.task_name
            )
            await app.job_manager.retry_job(found)
        await app.job_manager.prune_stalled_workers(STALLED_AFTER_SECONDS)
        return len(stalled)

    stalled_task = app.task(name=RETRY_STALLED, lock=RETRY_STALLED, queueing_lock=RETRY_STALLED)(
        _periodic(retry_stalled)
    )
    app.periodic(cron=cron_every(60), periodic_id=RETRY_STALLED)(stalled_task)
    app.retry_stalled = retry_stalled  # type: ignore[attr-defined]  # tests and the CLI
    return app


async def run_worker(app: procrastinate.App, *, name: str | None = None) -> None:
    """A procrastinate worker for the life of the app (cancelled at shutdown)."""
    await app.run_worker_async(
        name=name or periodic.worker_id(),
        concurrency=CONCURRENCY,
        install_signal_handlers=False,  # Granian's worker owns the signals
        update_heartbeat_interval=HEARTBEAT_SECONDS,
        stalled_worker_timeout=STALLED_AFTER_SECONDS,
        delete_jobs="successful",
    )


@contextlib.asynccontextmanager
async def lifespan() -> AsyncIterator[None]:
    """Open the queue and run this worker's procrastinate worker beside the app."""
    app = build_app()
    async with app.open_async():
        worker = asyncio.create_task(run_worker(app), name="hotmeals-jobs")
        try:
            yield
        finally:
            worker.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await worker
