"""Periodic jobs: one worker at a time (a lease row, on SQLite and PostgreSQL), and what
housekeeping removes, keeps and sends again."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

from hotmeals.clock import now as utcnow
from hotmeals.db.engine import make_engine
from hotmeals.db.models import JobLease, OtpCode, RateLimitHit, SessionToken, StandingOrderRun
from hotmeals.jobs import periodic as jobs
from hotmeals.services import housekeeping
from hotmeals.services.runtime import Runtime
from hotmeals.settings import get_settings
from tests.databases import SEED_TODAY, fresh_database
from tests.e2e.smtp import SmtpServer
from tests.factories import make_parent

ROOT = Path(__file__).resolve().parents[2]


def test_a_lease_has_one_holder_until_released_or_expired(engine):
    assert jobs.acquire("reconcile", holder="a", engine=engine)
    assert not jobs.acquire("reconcile", holder="b", engine=engine)
    assert jobs.acquire("reconcile", holder="a", engine=engine)  # the holder renews
    jobs.release("reconcile", holder="b", engine=engine)  # not b's to release
    assert not jobs.acquire("reconcile", holder="b", engine=engine)
    jobs.release("reconcile", holder="a", engine=engine)
    assert jobs.acquire("reconcile", holder="b", engine=engine)
    # b dies holding it: once its lease has run out, a takes over.
    later = utcnow() + jobs.LEASE_TTL + timedelta(seconds=1)
    assert not jobs.acquire("reconcile", holder="a", engine=engine)
    assert jobs.acquire("reconcile", holder="a", now=later, engine=engine)


def test_leases_of_different_jobs_are_independent(engine):
    assert jobs.acquire("reconcile", holder="a", engine=engine)
    assert jobs.acquire("housekeeping", holder="b", engine=engine)


async def test_two_workers_starting_a_round_together_run_it_once(engine):
    rounds: list[str] = []
    started, gate = asyncio.Event(), asyncio.Event()

    def worker(name: str):
        async def job() -> None:
            rounds.append(name)
            started.set()
            await gate.wait()  # still running while the other worker tries

        return job

    first = asyncio.create_task(jobs.run_once("reconcile", worker("a"), holder="a", engine=engine))
    await started.wait()
    ran = await jobs.run_once("reconcile", worker("b"), holder="b", engine=engine)
    gate.set()
    assert await first is True and ran is False
    assert rounds == ["a"]
    # Released at the end of the round: the next round may run anywhere.
    assert await jobs.run_once("reconcile", worker("b"), holder="b", engine=engine)
    assert rounds == ["a", "b"]


def test_each_process_has_its_own_worker_id():
    """Workers forked from one supervisor must not share a lease holder's name: with one,
    every round ran once per worker and mail went out twice."""
    import os

    mine = jobs.worker_id()
    assert jobs.worker_id() == mine  # stable within a process
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a worker forked after the parent computed its id
        try:
            os.write(write, jobs.worker_id().encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        child = pipe.read()
    os.waitpid(pid, 0)
    assert child and child != mine
    assert child.split(":")[1] == str(pid)


async def test_a_long_round_keeps_its_lease_and_a_dead_worker_is_replaced_within_a_minute(
    engine,
):
    """The heartbeat renews the lease while a round runs (here: for as long as it takes the
    round to see two renewals), so no other worker starts the same round; a worker that dies
    holding it is replaced once the one-minute lease runs out, not ten minutes later."""
    from hotmeals.db.models import JobLease

    def expiry():
        with Session(engine) as session:
            return session.get(JobLease, "reconcile").expires_at

    seen: list = []
    blocked: list[bool] = []

    async def long_round() -> None:
        first = await asyncio.to_thread(expiry)
        while len(seen) < 2:  # a condition, not a duration: wait for two renewals
            await asyncio.sleep(0.05)
            current = await asyncio.to_thread(expiry)
            if current > (seen[-1] if seen else first):
                seen.append(current)
        blocked.append(
            not await asyncio.to_thread(jobs.acquire, "reconcile", holder="b", engine=engine)
        )

    ran = await asyncio.wait_for(
        jobs.run_once("reconcile", long_round, holder="a", heartbeat=0.1, engine=engine),
        timeout=120,
    )
    assert ran and blocked == [True] and len(seen) == 2
    # "a" dies holding the lease (no release): "b" takes over once a minute has passed.
    assert jobs.acquire("reconcile", holder="a", engine=engine)
    assert jobs.LEASE_TTL <= timedelta(minutes=1)
    assert not jobs.acquire("reconcile", holder="b", engine=engine)
    later = utcnow() + jobs.LEASE_TTL + timedelta(seconds=1)
    assert jobs.acquire("reconcile", holder="b", now=later, engine=engine)


def test_workers_whose_loops_tick_apart_make_one_round_per_interval(engine):
    """Two workers' loops tick every 120 s, 30 s apart: a round is due only when none started
    (anywhere) within 0.9 of an interval, so the cluster makes one round per interval, not one
    per worker; when the worker that ran them dies, the other takes over at its next tick."""
    due_after = timedelta(seconds=120 * jobs.DUE_SHARE)
    t0 = utcnow()
    ran = []
    for tick in range(6):  # A at 0, 120, 240 s; B at 30, 150, 270 s
        for holder, offset in (("a", 0), ("b", 30)):
            now = t0 + timedelta(seconds=120 * tick + offset)
            if holder == "a" and tick >= 3:
                continue  # a died after its third round
            if jobs.acquire(
                "reconcile", holder=holder, now=now, due_after=due_after, engine=engine
            ):
                ran.append((holder, 120 * tick + offset))
                jobs.release("reconcile", holder=holder, engine=engine)
    # a's rounds while alive; b's first tick after a died (390 s) picks the work up.
    assert ran == [("a", 0), ("a", 120), ("a", 240), ("b", 390), ("b", 510), ("b", 630)]


async def test_a_failing_round_releases_the_lease(engine):
    async def boom() -> None:
        raise RuntimeError("converge down")

    with pytest.raises(RuntimeError):
        await jobs.run_once("reconcile", boom, holder="a", engine=engine)
    assert jobs.acquire("reconcile", holder="b", engine=engine)


def _old_and_new_rows(session: Session, parent_id: int):
    now = utcnow()
    long_ago = now - timedelta(days=3)
    session.add_all(
        [
            RateLimitHit(bucket="login:account", key="old", created_at=long_ago),
            RateLimitHit(bucket="login:account", key="new", created_at=now),
            SessionToken(parent_id=parent_id, token_hash="e" * 64, expires_at=long_ago),
            SessionToken(
                parent_id=parent_id,
                token_hash="r" * 64,
                expires_at=now + timedelta(days=5),
                revoked_at=long_ago,
            ),
            SessionToken(parent_id=parent_id, token_hash="l" * 64, expires_at=now + timedelta(1)),
            OtpCode(
                email="a@example.org",
                purpose="VERIFY_EMAIL",
                code_hash="x" * 64,
                expires_at=long_ago,
            ),
            OtpCode(
                email="a@example.org",
                purpose="VERIFY_EMAIL",
                code_hash="y" * 64,
                expires_at=now + timedelta(minutes=10),
            ),
        ]
    )


def test_housekeeping_purges_only_what_no_rule_can_see(engine):
    runtime = Runtime(engine=engine)
    with Session(engine) as session:
        parent = make_parent(session)
        _old_and_new_rows(session, parent.id)
        session.commit()
    tidied = housekeeping.run(runtime=runtime)
    assert (tidied.rate_limit_hits, tidied.sessions, tidied.codes) == (1, 2, 1)
    with Session(engine) as session:
        assert [h.key for h in session.exec(select(RateLimitHit)).all()] == ["new"]
        assert [s.token_hash[0] for s in session.exec(select(SessionToken)).all()] == ["l"]
        assert [c.code_hash[0] for c in session.exec(select(OtpCode)).all()] == ["y"]
    assert housekeeping.run(runtime=runtime).rate_limit_hits == 0  # nothing left to purge


@pytest.fixture
def smtp(monkeypatch):
    server = SmtpServer().start()
    for key, value in server.env.items():
        monkeypatch.setenv(key, value)
    get_settings.cache_clear()
    yield server
    server.stop()
    get_settings.cache_clear()


def test_the_embedded_default_starts_one_lease_loop_per_periodic_job(monkeypatch):
    class App:
        def __init__(self) -> None:
            self.tasks: list[tuple[object, dict]] = []

        def register_lifespan_task(self, task, **kwargs) -> None:
            self.tasks.append((task, kwargs))

    monkeypatch.setenv("HOTMEALS_RECONCILE_SECONDS", "60")
    monkeypatch.delenv("HOTMEALS_HOUSEKEEPING_SECONDS", raising=False)
    monkeypatch.delenv("HOTMEALS_MAIL_SECONDS", raising=False)
    monkeypatch.delenv("HOTMEALS_REMINDERS_SECONDS", raising=False)
    monkeypatch.delenv("HOTMEALS_STANDING_SECONDS", raising=False)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///unused.db")
    get_settings.cache_clear()
    from hotmeals.jobs import runner

    app = App()
    runner.register_background_jobs(app)
    assert app.tasks == [
        (jobs.lease_loop, {"name": "reconcile", "interval_seconds": 60.0}),
        (jobs.lease_loop, {"name": "mail", "interval_seconds": 60.0}),
        (jobs.lease_loop, {"name": "housekeeping", "interval_seconds": 3600.0}),
        (jobs.lease_loop, {"name": "reminders", "interval_seconds": 300.0}),
        (jobs.lease_loop, {"name": "standing", "interval_seconds": 300.0}),
    ]
    monkeypatch.setenv("HOTMEALS_RECONCILE_SECONDS", "0")
    monkeypatch.setenv("HOTMEALS_REMINDERS_SECONDS", "0")
    monkeypatch.setenv("HOTMEALS_STANDING_SECONDS", "0")
    monkeypatch.setenv("HOTMEALS_HOUSEKEEPING_SECONDS", "0")
    monkeypatch.setenv("HOTMEALS_MAIL_SECONDS", "0")
    off = App()
    runner.register_background_jobs(off)
    assert off.tasks == []
    # PostgreSQL: the job queue, one lifespan context per worker.
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/unused")
    get_settings.cache_clear()
    from hotmeals.jobs import queue

    on_queue = App()
    runner.register_background_jobs(on_queue)
    assert on_queue.tasks == [(queue.lifespan, {})]
    get_settings.cache_clear()


def _jobs_command(url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("HOTMEALS_NOW")}
    return subprocess.run(
        [sys.executable, "-m", "hotmeals.jobs", "--url", url, *args],
        cwd=ROOT,
        env={**environ, **env},
        capture_output=True,
        text=True,
    )


def test_an_operator_runs_one_standing_round_at_a_given_time(tmp_path):
    """``python -m hotmeals.jobs run standing --now ...``: one round at that time, under the
    lease, saying what it did; the demo's standing order (every Monday) books the Monday ahead
    (its meal is on that day's menu), once however often it is run; production refuses the
    clock."""
    with fresh_database("sqlite", tmp_path, f"migrated+demo@{SEED_TODAY}") as url:
        when = f"{SEED_TODAY}T07:00"  # a Wednesday; the next Monday is five days ahead
        first = _jobs_command(url, "run", "standing", "--now", when)
        assert first.returncode == 0, first.stderr
        # the demo parent has no saved card: that Monday's meal waits in the cart
        ran = f"standing: one round ran at {SEED_TODAY}T07:00-05:00"
        assert f"{ran} (booked 0, in_cart 1, skipped 0, pending 0)" in first.stdout
        monday = SEED_TODAY + timedelta(days=(7 - SEED_TODAY.weekday()) % 7)
        engine = make_engine(url)
        try:
            with Session(engine) as session:
                runs = session.exec(select(StandingOrderRun)).all()
                assert [r.meal_date for r in runs] == [monday]
                lease = session.get(JobLease, "standing")
                assert lease is not None and lease.expires_at <= utcnow()  # released
            again = _jobs_command(url, "run", "standing", "--now", f"{SEED_TODAY}T07:05")
            assert again.returncode == 0, again.stderr
            assert "(booked 0, in_cart 0, skipped 0, pending 0)" in again.stdout
            assert jobs.acquire("standing", holder="a worker", engine=engine)
            busy = _jobs_command(url, "run", "standing")
            assert busy.returncode == 1 and "another worker is running a round" in busy.stdout
        finally:
            engine.dispose()
        refused = _jobs_command(url, "run", "standing", "--now", when, HOTMEALS_MODE="production")
        assert refused.returncode == 2
        assert "production reads the system clock" in refused.stderr
