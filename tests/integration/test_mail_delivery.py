"""Mail is never lost and never doubled (services/mail.py): a real SMTP sink that is down, then
up, then slow; retries with backoff; one delivery however many senders; a code's mail that can
no longer help is not sent; what every retry failed waits for an operator."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from hotmeals import clock
from hotmeals.clock import now as utcnow
from hotmeals.db.models import EmailOutbox
from hotmeals.services import mail
from hotmeals.services.runtime import Runtime
from hotmeals.settings import get_settings
from tests.e2e.smtp import SmtpServer


def _at(engine: Engine, instant: datetime) -> Runtime:
    """The test's database, its clock stopped at ``instant`` (a mail round at that moment)."""
    return Runtime(engine=engine, clock=lambda: instant)


class SlowInbox:
    """Wraps the sink's handler: each message takes ``delay`` seconds to be accepted, so two
    senders of one mail overlap (a slow SMTP server)."""

    def __init__(self, inbox, delay: float) -> None:
        self.inbox, self.delay = inbox, delay

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook
        await asyncio.sleep(self.delay)
        return await self.inbox.handle_DATA(server, session, envelope)


@pytest.fixture
def sink(monkeypatch) -> Iterator[SmtpServer]:
    """An SMTP sink whose address the app is configured with, not started: the server is
    down until the test starts it."""
    server = SmtpServer()
    for key, value in server.env.items():
        monkeypatch.setenv(key, value)
    get_settings.cache_clear()
    started = []
    real_start = server.start

    def start():
        started.append(True)
        return real_start()

    server.start = start  # type: ignore[method-assign]
    yield server
    if started:
        server.stop()
    get_settings.cache_clear()


def _queue(engine: Engine, *, to: str, kind: str = "order_confirmation") -> int:
    with Session(engine) as session:
        outbox_id = mail.queue_mail(
            session=session, to=to, subject="Your order", body=f"Hello {to}", kind=kind
        )
        session.commit()  # hands the mail to the sender thread
    mail.drain()
    return outbox_id


def _row(engine: Engine, outbox_id: int) -> EmailOutbox:
    with Session(engine) as session:
        row = session.get(EmailOutbox, outbox_id)
        assert row is not None
        return row


def test_a_mail_that_failed_is_sent_once_the_server_is_back(engine, sink):
    runtime = Runtime(engine=engine)
    outbox_id = _queue(engine, to="emma.parent@example.org")
    failed = _row(engine, outbox_id)
    assert (failed.status, failed.attempts, failed.claimed_until) == ("PENDING", 1, None)
    assert failed.error and failed.next_attempt_at is not None
    first_retry = failed.next_attempt_at - utcnow()
    assert timedelta(seconds=30) < first_retry <= mail.RETRY_DELAYS[0]

    # Not due yet: nothing is tried (the server is still down, so a try would fail).
    assert mail.send_due(runtime=runtime) == mail.SendRound(0, 0, 0)
    sink.start()
    later = utcnow() + mail.RETRY_DELAYS[0] + timedelta(seconds=1)
    assert mail.send_due(runtime=_at(engine, later)) == mail.SendRound(1, 0, 0)
    assert (
        sink.inbox.wait_for_mail("emma.parent@example.org")
        .body.strip()
        .endswith("emma.parent@example.org")
    )
    sent = _row(engine, outbox_id)
    assert (sent.status, sent.attempts, sent.error, sent.next_attempt_at) == ("SENT", 2, None, None)
    # Sent means never again, however many rounds run.
    assert mail.send_due(runtime=_at(engine, later + timedelta(hours=2))) == mail.SendRound(0, 0, 0)
    assert len(sink.inbox.mails_to("emma.parent@example.org")) == 1


def test_retries_back_off_then_wait_for_an_operator(engine, sink):
    outbox_id = _queue(engine, to="lucas.parent@example.org")
    now = utcnow()
    delays = []
    for _ in range(len(mail.RETRY_DELAYS)):
        row = _row(engine, outbox_id)
        assert row.status == "PENDING"
        delays.append(row.next_attempt_at - now)
        now = row.next_attempt_at + timedelta(seconds=1)
        assert mail.send_due(runtime=_at(engine, now)) == mail.SendRound(0, 1, 0)
    # 1, 5, 15, 60 minutes, then hourly: each wait at least as long as the one before.
    assert [round(d.total_seconds() / 60) for d in delays[:5]] == [1, 5, 15, 60, 60]
    assert all(b >= a - timedelta(seconds=5) for a, b in zip(delays, delays[1:], strict=False))
    given_up = _row(engine, outbox_id)
    assert (given_up.status, given_up.attempts) == ("FAILED", len(mail.RETRY_DELAYS) + 1)
    assert mail.send_due(runtime=_at(engine, now + timedelta(days=2))) == mail.SendRound(0, 0, 0)

    with Session(engine) as session:
        assert [r.id for r in mail.failed_mail(session)] == [outbox_id]
        clock.set_now(now)
        assert mail.retry_failed(session, outbox_id=outbox_id)
        assert not mail.retry_failed(session, outbox_id=outbox_id)  # once
        session.commit()
    sink.start()
    assert mail.send_due(runtime=_at(engine, now + timedelta(seconds=1))) == mail.SendRound(1, 0, 0)
    assert len(sink.inbox.mails_to("lucas.parent@example.org")) == 1
    assert _row(engine, outbox_id).status == "SENT"


def test_a_code_that_expired_is_not_sent_late(engine, sink):
    code_id = _queue(engine, to="code@example.org", kind="otp_verify")
    other_id = _queue(engine, to="receipt@example.org", kind="order_confirmation")
    sink.start()
    past_the_code = utcnow() + mail.CODE_MAIL_TTL + timedelta(seconds=1)
    assert mail.send_due(runtime=_at(engine, past_the_code)) == mail.SendRound(1, 0, 1)
    assert _row(engine, code_id).status == "EXPIRED"
    assert _row(engine, other_id).status == "SENT"
    assert sink.inbox.mails_to("code@example.org") == []


def test_two_senders_of_one_due_mail_deliver_it_once(engine, sink):
    outbox_id = _queue(engine, to="twice@example.org")
    sink._controller.handler = SlowInbox(sink.inbox, delay=1.0)
    sink.start()
    due = utcnow() + mail.RETRY_DELAYS[0] + timedelta(seconds=1)
    rounds: list[mail.SendRound] = []
    gate = threading.Barrier(2)

    def worker() -> None:
        gate.wait()
        rounds.append(mail.send_due(runtime=_at(engine, due)))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert sorted(r.sent for r in rounds) == [0, 1]
    sink.inbox.wait_for_mail("twice@example.org")
    assert len(sink.inbox.mails_to("twice@example.org")) == 1
    assert _row(engine, outbox_id).attempts == 2  # one failed try, one delivery


def test_a_sender_that_died_mid_send_is_replaced_once_its_claim_runs_out(engine, sink):
    outbox_id = _queue(engine, to="crash@example.org")
    due = utcnow() + mail.RETRY_DELAYS[0] + timedelta(seconds=1)
    with Session(engine) as session:  # a sender claimed it, then its process died
        assert mail._claim(session, outbox_id=outbox_id, now=due, due_only=True)
        session.commit()
    sink.start()
    assert mail.send_due(runtime=_at(engine, due + timedelta(seconds=5))) == mail.SendRound(0, 0, 0)
    after_claim = due + mail.CLAIM_FOR + timedelta(seconds=1)
    assert mail.send_due(runtime=_at(engine, after_claim)) == mail.SendRound(1, 0, 0)
    assert len(sink.inbox.mails_to("crash@example.org")) == 1
    with Session(engine) as session:
        rows = session.exec(select(EmailOutbox)).all()
    assert [(r.status, r.attempts) for r in rows] == [("SENT", 3)]


def test_the_jobs_cli_lists_failed_mail_and_retries_it(engine, migrated_url, sink, capsys):
    from hotmeals.jobs.__main__ import main

    outbox_id = _queue(engine, to="ops@example.org")
    with Session(engine) as session:
        row = session.get(EmailOutbox, outbox_id)
        row.status, row.next_attempt_at = "FAILED", None
        session.add(row)
        session.commit()
    assert main(["--url", migrated_url, "failed"]) == 0
    listed = capsys.readouterr().out
    assert str(outbox_id) in listed and "ops@example.org" in listed and "tries 1" in listed
    assert main(["--url", migrated_url, "list"]) == 0
    assert "FAILED 1" in capsys.readouterr().out
    assert main(["--url", migrated_url, "retry-mail", str(outbox_id)]) == 0
    assert main(["--url", migrated_url, "retry-mail", str(outbox_id)]) == 1  # not FAILED now
    sink.start()
    assert mail.send_due(runtime=Runtime(engine=engine)).sent == 1
    assert len(sink.inbox.mails_to("ops@example.org")) == 1
