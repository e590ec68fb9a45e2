"""The job queue of the scale-out profile (procrastinate on PostgreSQL, hotmeals/jobs/queue.py):
periodic work once per cluster with two workers, a job cut by a dead worker runs again, a job
that keeps failing waits for an operator (python -m hotmeals.jobs failed / retry)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
from sqlalchemy import inspect

from hotmeals.db.engine import make_engine
from hotmeals.jobs import periodic as jobs
from hotmeals.jobs import queue, runner
from tests.databases import fresh_database, migrate


def test_intervals_become_cron_lines():
    assert queue.cron_every(1) == "* * * * * */1"
    assert queue.cron_every(45) == "* * * * * */30"
    assert queue.cron_every(60) == "*/1 * * * *"
    assert queue.cron_every(120) == "*/2 * * * *"
    assert queue.cron_every(3600) == "0 */1 * * *"
    assert queue.cron_every(86400) == "0 0 * * *"


def test_postgresql_runs_the_queue_and_sqlite_the_lease_loops():
    assert runner.uses_queue("postgresql+psycopg://postgres@127.0.0.1/x")
    assert not runner.uses_queue("sqlite:///data/hotmeals.db")


@pytest.fixture
def pg_url(pg_admin_dsn: str, monkeypatch, tmp_path) -> Iterator[str]:
    """A migrated PostgreSQL database the app's settings point at."""
    from hotmeals.db.engine import get_engine
    from hotmeals.settings import get_settings

    with fresh_database("postgres", tmp_path, "migrated", prefix="hm_jobs") as url:
        monkeypatch.setenv("DATABASE_URL", url)
        get_settings.cache_clear()
        get_engine.cache_clear()
        try:
            yield url
        finally:
            get_engine().dispose()
            get_settings.cache_clear()
            get_engine.cache_clear()


def test_the_migrations_create_the_queue_on_postgresql_only(pg_url, tmp_path):
    engine = make_engine(pg_url)
    try:
        assert {"procrastinate_jobs", "procrastinate_workers"} <= set(
            inspect(engine).get_table_names()
        )
    finally:
        engine.dispose()
    sqlite_url = f"sqlite:///{tmp_path / 'lite.db'}"
    migrate(sqlite_url)
    lite = make_engine(sqlite_url)
    try:
        assert not [t for t in inspect(lite).get_table_names() if t.startswith("procrastinate")]
    finally:
        lite.dispose()


def _counting(monkeypatch, seen: list[tuple[str, int]]):
    """Replace the periodic jobs by ones that record each round (the real ones would work on
    an empty database anyway); the worker passes each round its scheduled moment."""

    def counted(name: str):
        async def run() -> None:
            seen.append((name, len(seen)))

        return run

    monkeypatch.setattr(
        jobs,
        "PERIODIC",
        tuple(
            jobs.PeriodicJob(j.name, j.setting, j.default_seconds, counted(j.name))
            for j in jobs.PERIODIC
        ),
    )


async def _run_workers(apps, until, timeout: float = 120) -> None:
    workers = [
        asyncio.create_task(queue.run_worker(app, name=f"worker-{i}")) for i, app in enumerate(apps)
    ]
    try:
        deadline = asyncio.get_running_loop().time() + timeout
        while not until():  # a condition, with a generous limit for a busy machine
            assert asyncio.get_running_loop().time() < deadline, "the workers did not get there"
            await asyncio.sleep(0.1)
    finally:
        for worker in workers:
            worker.cancel()
        await asyncio.gather(*workers, return_exceptions=True)


async def test_two_workers_make_one_round_per_scheduled_moment(pg_url, monkeypatch):
    moments_run: list[tuple[str, int]] = []

    def recording(run):
        async def round_(timestamp: int) -> None:
            moments_run.append((run.__name__, timestamp))
            await run()

        return round_

    monkeypatch.setattr(queue, "_periodic", recording)
    _counting(monkeypatch, [])
    intervals = {jobs.RECONCILE: 1, jobs.MAIL: 0, jobs.HOUSEKEEPING: 0}
    apps = [queue.build_app(intervals=intervals, database_url=pg_url) for _ in range(2)]
    for app in apps:
        await app.open_async()

    def reconciled() -> list[int]:
        return [m for name, m in moments_run if name != "retry_stalled"]

    try:
        # Counted on the reconcile rounds themselves: on a busy machine the stalled-job sweep
        # (every minute) may take some of the first entries.
        await _run_workers(apps, until=lambda: len(reconciled()) >= 3)
    finally:
        for app in apps:
            await app.close_async()
    reconcile_moments = reconciled()
    # Both workers deferred every second; each moment became one job, run once.
    assert len(reconcile_moments) >= 3
    assert len(reconcile_moments) == len(set(reconcile_moments))
    with psycopg.connect(queue.conninfo(pg_url)) as conn:
        per_moment = conn.execute(
            "SELECT defer_timestamp, count(*) FROM procrastinate_periodic_defers "
            "WHERE task_name = %s GROUP BY defer_timestamp",
            (jobs.RECONCILE,),
        ).fetchall()
    assert per_moment and all(count == 1 for _, count in per_moment)


async def test_a_job_cut_by_a_dead_worker_runs_again_within_a_minute(pg_url, monkeypatch):
    seen: list[tuple[str, int]] = []
    _counting(monkeypatch, seen)
    app = queue.build_app(
        intervals={jobs.RECONCILE: 3600, jobs.MAIL: 0, jobs.HOUSEKEEPING: 0}, database_url=pg_url
    )
    async with app.open_async():
        reconcile = app.tasks[jobs.RECONCILE]
        job_id = await reconcile.defer_async(timestamp=0)
        # A worker takes the job, then dies: no more heartbeats, the job left "doing".
        dead = await app.job_manager.register_worker()
        taken = await app.job_manager.fetch_job(queues=None, worker_id=dead)
        assert taken is not None and taken.id == job_id
        with psycopg.connect(queue.conninfo(pg_url), autocommit=True) as conn:
            conn.execute(
                "UPDATE procrastinate_workers SET last_heartbeat = %s WHERE id = %s",
                (datetime.now(UTC) - timedelta(seconds=queue.STALLED_AFTER_SECONDS + 5), dead),
            )
        assert await app.retry_stalled() == 1  # the every-minute job of a living worker
        assert await app.retry_stalled() == 0  # once
        await _run_workers([app], until=lambda: len(seen) >= 1)
    assert seen == [(jobs.RECONCILE, 0)]


async def test_a_job_that_keeps_failing_waits_for_an_operator(pg_url, monkeypatch, capsys):
    from hotmeals.jobs.__main__ import main

    calls: list[int] = []

    async def broken() -> None:
        calls.append(1)
        raise RuntimeError("converge down")

    monkeypatch.setattr(
        jobs,
        "PERIODIC",
        (jobs.PeriodicJob(jobs.RECONCILE, "HOTMEALS_RECONCILE_SECONDS", 120, broken),),
    )
    monkeypatch.setattr(queue, "RETRIES", None)  # one try here; production retries 3 times
    app = queue.build_app(intervals={jobs.RECONCILE: 3600}, database_url=pg_url)
    async with app.open_async():
        job_id = await app.tasks[jobs.RECONCILE].defer_async(timestamp=0)
        await app.run_worker_async(wait=False, install_signal_handlers=False)
    assert calls == [1]
    assert await asyncio.to_thread(main, ["--url", pg_url, "failed"]) == 0
    listed = capsys.readouterr().out
    assert f"{job_id}" in listed and jobs.RECONCILE in listed
    assert await asyncio.to_thread(main, ["--url", pg_url, "retry", str(job_id)]) == 0
    assert await asyncio.to_thread(main, ["--url", pg_url, "retry", str(job_id)]) == 1
    with psycopg.connect(queue.conninfo(pg_url)) as conn:
        status = conn.execute(
            "SELECT status FROM procrastinate_jobs WHERE id = %s", (job_id,)
        ).fetchone()
    assert status == ("todo",)
