"""Periodic jobs: one worker at a time (a lease row, on SQLite and PostgreSQL), and what
housekeeping removes, keeps and sends again."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlmodel import Session, select

from hotmeals.db.models import EmailOutbox, OtpCode, RateLimitHit, SessionToken
from hotmeals.services import housekeeping, jobs
from hotmeals.services.clock import now as utcnow
from hotmeals.settings import get_settings
from tests.e2e.smtp import SmtpServer
from tests.factories import make_parent


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
    with Session(engine) as session:
        parent = make_parent(session)
        _old_and_new_rows(session, parent.id)
        session.commit()
    tidied = housekeeping.run(engine=engine)
    assert (tidied.rate_limit_hits, tidied.sessions, tidied.codes) == (1, 2, 1)
    with Session(engine) as session:
        assert [h.key for h in session.exec(select(RateLimitHit)).all()] == ["new"]
        assert [s.token_hash[0] for s in session.exec(select(SessionToken)).all()] == ["l"]
        assert [c.code_hash[0] for c in session.exec(select(OtpCode)).all()] == ["y"]
    assert housekeeping.run(engine=engine).rate_limit_hits == 0  # nothing left to purge


@pytest.fixture
def smtp(monkeypatch):
    server = SmtpServer().start()
    for key, value in server.env.items():
        monkeypatch.setenv(key, value)
    get_settings.cache_clear()
    yield server
    server.stop()
    get_settings.cache_clear()


def test_housekeeping_sends_mail_a_crash_left_pending_once(engine, smtp):
    now = utcnow()
    with Session(engine) as session:
        for to, age in (("stuck@example.org", 30), ("fresh@example.org", 1)):
            session.add(
                EmailOutbox(
                    to_address=to,
                    subject="Your code",
                    body_text="123456",
                    kind="otp_verify",
                    status="PENDING",
                    created_at=now - timedelta(minutes=age),
                )
            )
        session.commit()
    assert housekeeping.run(engine=engine).mails_retried == 1
    assert smtp.inbox.wait_for_mail("stuck@example.org").body.strip() == "123456"
    assert smtp.inbox.mails_to("fresh@example.org") == []  # its own delivery may be under way
    with Session(engine) as session:
        rows = {r.to_address: r for r in session.exec(select(EmailOutbox)).all()}
    assert (rows["stuck@example.org"].status, rows["stuck@example.org"].attempts) == ("SENT", 1)
    assert rows["fresh@example.org"].status == "PENDING"
    assert housekeeping.run(engine=engine).mails_retried == 0  # sent means not again
    assert len(smtp.inbox.mails_to("stuck@example.org")) == 1


def test_the_app_starts_reconciliation_and_housekeeping_as_lifespan_tasks(monkeypatch):
    class App:
        def __init__(self) -> None:
            self.tasks: list[tuple[object, dict]] = []

        def register_lifespan_task(self, task, **kwargs) -> None:
            self.tasks.append((task, kwargs))

    monkeypatch.setenv("HOTMEALS_RECONCILE_SECONDS", "60")
    monkeypatch.delenv("HOTMEALS_HOUSEKEEPING_SECONDS", raising=False)
    app = App()
    jobs.register_background_jobs(app)
    assert app.tasks == [
        (jobs.reconciliation_loop, {"interval_seconds": 60.0}),
        (jobs.housekeeping_loop, {"interval_seconds": 3600.0}),
    ]
    monkeypatch.setenv("HOTMEALS_RECONCILE_SECONDS", "0")
    monkeypatch.setenv("HOTMEALS_HOUSEKEEPING_SECONDS", "0")
    off = App()
    jobs.register_background_jobs(off)
    assert off.tasks == []
