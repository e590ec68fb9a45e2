"""Outgoing e-mail: written to ``EmailOutbox`` in the request's transaction, delivered after it
commits.

- With ``SMTP_HOST`` set, a mail worker thread sends each row over SMTP (timeouts, STARTTLS
  when offered and credentials are set) and marks it SENT, or FAILED with the error. A dead
  SMTP server never fails the request nor loses the row, and the request does not wait for it
  (so a forgot-password answer takes as long for an unknown address as for a known one).
- Without it, the row is LOGGED and the whole mail, OTP included, is printed to the
  ``hotmeals.mail`` logger at INFO: a newcomer running ``make run`` reads the code there.
  Demo mode only: production refuses to start without SMTP (``hotmeals/mode.py``) and never
  prints a mail's text.

A rolled-back transaction sends nothing: the row and the mail go together.

A mail from the catalog (``send_templated``) goes as plain text with an HTML alternative made
from the same text (``services/mail_html.py``: paragraphs, lists, links, and a ``MailTable``
parameter as a table); both are stored on the row, so any sender delivers the same mail.

**Never lost, never doubled** (several workers, crashes, a dead SMTP server):
- a sender first *claims* the row with one conditional UPDATE (still PENDING, due, and not
  claimed by another sender whose claim is still running: ``claimed_until``); only the one
  that claimed it sends, so two workers, or the after-commit handover and the mail job, never
  both deliver it;
- a failed try leaves the row PENDING with ``next_attempt_at`` set by ``RETRY_DELAYS`` (1, 5,
  15, 60 minutes, then hourly for a day); after the last one the row is FAILED: an operator
  looks (``python -m hotmeals.cli mail-failed``, ``mail-retry ID``);
- a one-time code's mail is not sent once the code has expired (``EXPIRED``): it could no
  longer help, and a late code only confuses;
- a claim outlives any SMTP exchange (``CLAIM_FOR``), so a sender that crashed mid-send lets
  the mail job send the row again once the claim has run out (at least once: a crash between
  the SMTP server's "250 OK" and the row's update is the one window for a second copy).
The mail job (``jobs/periodic.py``, every ``HOTMEALS_MAIL_SECONDS``, one worker at a time)
calls ``send_due``.
"""

from __future__ import annotations

import logging
import smtplib
import ssl
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

from sqlalchemy import event, insert, or_, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.engine import get_engine
from hotmeals.db.models import EmailOutbox
from hotmeals.domain.headers import one_line
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import mail_html
from hotmeals.services.ids import saved_id
from hotmeals.services.otp import OTP_TTL
from hotmeals.services.runtime import APP, Runtime
from hotmeals.settings import get_settings

log = logging.getLogger("hotmeals.mail")

SMTP_TIMEOUT_SECONDS = 10
_SESSION_KEY = "hotmeals.mail.pending"

# After the n-th failed try, the next one comes RETRY_DELAYS[n - 1] later; after the last, FAILED.
RETRY_DELAYS: tuple[timedelta, ...] = (
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=15),
    timedelta(minutes=60),
    *(timedelta(hours=1) for _ in range(23)),  # then hourly, for about a day
)
# Longer than any SMTP exchange (connect, STARTTLS, login, send: each bounded by the time-out).
CLAIM_FOR = timedelta(minutes=2)
# The after-commit handover has this long before the mail job treats a new row as left behind.
HANDOVER_GRACE = timedelta(minutes=1)
# A one-time code's mail is worth sending only while the code can be used.
CODE_MAIL_TTL = OTP_TTL
SEND_BATCH = 50
SENDER_THREAD = "hotmeals-mail"  # the after-commit handover's thread

_executor: ThreadPoolExecutor | None = None
_futures: set[Future] = set()
_lock = threading.Lock()


@dataclass(frozen=True)
class _Mail:
    outbox_id: int
    to: str
    subject: str
    body: str
    kind: str
    smtp: bool
    html: str | None = None

    @classmethod
    def of(cls, row: EmailOutbox, *, smtp: bool = True) -> _Mail:
        return cls(
            row.id or 0, row.to_address, row.subject, row.body_text, row.kind, smtp, row.body_html
        )


@dataclass(frozen=True)
class Rendered:
    """A catalog mail in one language: its subject, its plain text and its HTML."""

    subject: str
    body: str
    html: str


def queue_mail(
    *,
    session: Session,
    to: str,
    subject: str,
    body: str,
    kind: str,
    language: str = "en",
    html: str | None = None,
) -> int:
    """Write an outbox row and deliver it once ``session`` commits (``html``: the mail's HTML
    alternative, when it has one). Returns the row id."""
    smtp = bool(get_settings().smtp_host)
    now = utcnow()
    row = EmailOutbox(
        to_address=one_line(to)[:254],
        subject=one_line(subject)[:200],  # services refuse line breaks; never a header break
        body_text=body,
        body_html=html,
        language=normalize_lang(language),
        kind=kind[:32],
        status="PENDING" if smtp else "LOGGED",
        sent_at=None if smtp else now,
        created_at=now,
        next_attempt_at=now + HANDOVER_GRACE if smtp else None,
        expires_at=now + CODE_MAIL_TTL if is_code_mail(kind) else None,
    )
    session.add(row)
    session.flush()
    row_id = saved_id(row)
    _pending(session).append(_Mail.of(row, smtp=smtp))
    return row_id


def send_templated(
    *,
    session: Session,
    to: str,
    template: str,
    language: str,
    kind: str | None = None,
    **params: object,
) -> int:
    """Render ``mail.<template>.subject`` and ``.body`` from the catalog in ``language``."""
    lang = normalize_lang(language)
    mail = render_templated(template=template, language=lang, **params)
    return queue_mail(
        session=session,
        to=to,
        subject=mail.subject,
        body=mail.body,
        html=mail.html,
        kind=kind or template,
        language=lang,
    )


@dataclass(frozen=True)
class Templated:
    """One mail of ``queue_templated_many``: ``mail.<template>`` rendered in ``language``."""

    to: str
    template: str
    language: str
    kind: str
    params: dict[str, Any]


def queue_templated_many(*, session: Session, mails: list[Templated]) -> list[int]:
    """``send_templated`` for many mails in one INSERT (a job writing a mail per family:
    the statements do not grow with the families). Returns the row ids."""
    if not mails:
        return []
    smtp = bool(get_settings().smtp_host)
    now = utcnow()
    rows: list[dict[str, Any]] = []
    for mail in mails:
        lang = normalize_lang(mail.language)
        made = render_templated(template=mail.template, language=lang, **mail.params)
        rows.append(
            {
                "to_address": one_line(mail.to)[:254],
                "subject": one_line(made.subject)[:200],
                "body_text": made.body,
                "body_html": made.html,
                "language": lang,
                "kind": mail.kind[:32],
                "status": "PENDING" if smtp else "LOGGED",
                "attempts": 0,
                "sent_at": None if smtp else now,
                "created_at": now,
                "next_attempt_at": now + HANDOVER_GRACE if smtp else None,
                "expires_at": now + CODE_MAIL_TTL if is_code_mail(mail.kind) else None,
            }
        )
    # One INSERT ... RETURNING for the batch (SQLAlchemy's "insertmanyvalues"); each row
    # comes back with what its delivery needs, in whatever order.
    written = session.execute(
        insert(EmailOutbox).returning(
            col(EmailOutbox.id),
            col(EmailOutbox.to_address),
            col(EmailOutbox.subject),
            col(EmailOutbox.body_text),
            col(EmailOutbox.kind),
            col(EmailOutbox.body_html),
        ),
        rows,
    ).all()
    pending = _pending(session)
    for outbox_id, to, subject, body, kind, html in written:
        pending.append(_Mail(outbox_id, to, subject, body, kind, smtp, html))
    return sorted(outbox_id for outbox_id, *_ in written)


def render_templated(*, template: str, language: str, **params: object) -> Rendered:
    """``mail.<template>`` in ``language``: its subject, its text and its HTML, from one
    catalog text (a ``mail_html.MailTable`` parameter is a table in the HTML)."""
    lang = normalize_lang(language)
    subject = t(f"mail.{template}.subject", lang, **params)
    marked, tables = mail_html.slots(params)
    html = mail_html.document(
        lang=lang,
        subject=subject,
        body=t(f"mail.{template}.body", lang, **marked),
        tables=tables,
    )
    return Rendered(subject, t(f"mail.{template}.body", lang, **params), html)


def drain(timeout: float = 30) -> None:
    """Wait for every queued SMTP delivery (tests, and a clean shutdown)."""
    with _lock:
        futures = list(_futures)
    if futures:
        wait_futures(futures, timeout=timeout)


# --- after commit ------------------------------------------------------------------------


def _pending(session: Session) -> list[_Mail]:
    pending = session.info.get(_SESSION_KEY)
    if pending is None:
        pending = session.info[_SESSION_KEY] = []
        event.listen(session, "after_commit", _on_commit)
        event.listen(session, "after_rollback", _on_rollback)
    return pending


def _on_rollback(session: Session) -> None:
    session.info.get(_SESSION_KEY, []).clear()


def _on_commit(session: Session) -> None:
    pending = session.info.get(_SESSION_KEY) or []
    mails, pending[:] = list(pending), []
    if not mails:
        return
    bind = session.get_bind()
    for mail in mails:
        try:
            if mail.smtp and isinstance(bind, Engine):
                _submit(bind, mail)
            elif mail.smtp:  # bound to a connection (tests): deliver now, no status update
                _send_smtp(mail)
            else:
                _log_mail(mail)
        except Exception:  # noqa: BLE001 - mail must never break a committed request
            log.exception("could not hand over mail %s", mail.outbox_id)


def _submit(engine: Engine, mail: _Mail) -> None:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=SENDER_THREAD)
        future = _executor.submit(lambda: _deliver(engine, mail, now=utcnow()))
        _futures.add(future)
    future.add_done_callback(_forget)


def _forget(future: Future) -> None:
    with _lock:
        _futures.discard(future)


def is_code_mail(kind: str) -> bool:
    """A mail carrying a one-time code (``otp_verify``, ``otp_reset``, ``otp_login``, ...)."""
    return kind.startswith("otp_")


def _expired(row: EmailOutbox, now: datetime) -> bool:
    if row.expires_at is not None:
        return row.expires_at <= now
    # Rows written before expires_at existed: a code's mail lives as long as its code.
    return is_code_mail(row.kind) and row.created_at + CODE_MAIL_TTL <= now


def _claim(session: Session, *, outbox_id: int, now: datetime, due_only: bool) -> bool:
    """Take the row for one delivery: one conditional UPDATE, so of two senders one wins."""
    conditions = [
        col(EmailOutbox.id) == outbox_id,
        col(EmailOutbox.status) == "PENDING",
        or_(col(EmailOutbox.claimed_until).is_(None), col(EmailOutbox.claimed_until) <= now),
    ]
    if due_only:
        conditions.append(
            or_(col(EmailOutbox.next_attempt_at).is_(None), col(EmailOutbox.next_attempt_at) <= now)
        )
    claimed = session.exec(
        update(EmailOutbox)
        .where(*conditions)
        .values(claimed_until=now + CLAIM_FOR, attempts=EmailOutbox.attempts + 1)
        .execution_options(synchronize_session=False)
    ).rowcount
    return claimed == 1


def _record(session: Session, *, outbox_id: int, error: str | None, now: datetime) -> None:
    row = session.get(EmailOutbox, outbox_id)
    if row is None:
        return
    row.claimed_until = None
    row.error = error
    if error is None:
        row.status, row.sent_at, row.next_attempt_at = "SENT", now, None
    elif row.attempts > len(RETRY_DELAYS) or _expired(row, now):
        row.status, row.next_attempt_at = ("EXPIRED" if _expired(row, now) else "FAILED"), None
        log.error(
            "mail %s (%s) not delivered after %s tries: %s", row.id, row.kind, row.attempts, error
        )
    else:
        row.next_attempt_at = now + RETRY_DELAYS[row.attempts - 1]
    session.add(row)


def _deliver(engine: Engine, mail: _Mail, *, due_only: bool = False, now: datetime) -> bool | None:
    """Claim the row, send it, record the outcome: True sent, False failed, None when another
    sender has it, it was already sent, or it is not due. ``now``: the round's clock."""
    clock = now
    with Session(engine) as session:
        claimed = _claim(session, outbox_id=mail.outbox_id, now=clock, due_only=due_only)
        session.commit()
    if not claimed:
        return None
    error: str | None = None
    try:
        _send_smtp(mail)
    except Exception as exc:  # noqa: BLE001 - recorded on the row
        error = f"{type(exc).__name__}: {exc}"[:300]
        log.warning("mail %s to %s failed: %s", mail.outbox_id, mail.to, error)
    try:
        with Session(engine) as session:
            _record(session, outbox_id=mail.outbox_id, error=error, now=max(clock, utcnow()))
            session.commit()
    except Exception:  # noqa: BLE001
        log.exception("could not record the delivery of mail %s", mail.outbox_id)
    return error is None


def due(session: Session, *, now: datetime, limit: int = SEND_BATCH) -> list[EmailOutbox]:
    """PENDING rows whose (next) attempt is due and that no sender holds, oldest first."""
    return list(
        session.exec(
            select(EmailOutbox)
            .where(
                EmailOutbox.status == "PENDING",
                col(EmailOutbox.next_attempt_at) <= now,
                or_(
                    col(EmailOutbox.claimed_until).is_(None), col(EmailOutbox.claimed_until) <= now
                ),
            )
            .order_by(col(EmailOutbox.next_attempt_at), col(EmailOutbox.id))
            .limit(limit)
        ).all()
    )


@dataclass(frozen=True)
class SendRound:
    sent: int  # delivered now
    failed: int  # tried and failed (retried later, or FAILED when out of tries)
    expired: int  # a code's mail past its code's life: not sent


def send_due(*, runtime: Runtime = APP) -> SendRound:
    """One round of the mail job: send every due row once (synchronous: call it from a
    thread). Without SMTP_HOST nothing is PENDING (rows are LOGGED), so nothing happens."""
    current = runtime.now()
    engine = runtime.engine or get_engine()
    sent = failed = expired = 0
    with Session(engine) as session:
        batch: list[_Mail] = []
        stale: list[int] = []
        for row in due(session, now=current):
            if _expired(row, current):
                stale.append(row.id or 0)
            else:
                batch.append(_Mail.of(row))
        if stale:
            # Codes nobody can use any more: say so on the rows instead of sending them.
            expired = (
                session.exec(
                    update(EmailOutbox)
                    .where(col(EmailOutbox.id).in_(stale), col(EmailOutbox.status) == "PENDING")
                    .values(status="EXPIRED", next_attempt_at=None)
                    .execution_options(synchronize_session=False)
                ).rowcount
                or 0
            )
        session.commit()
    for mail in batch:
        outcome = _deliver(engine, mail, due_only=True, now=current)
        if outcome is True:
            sent += 1
        elif outcome is False:
            failed += 1
    result = SendRound(sent, failed, expired)
    if any((sent, failed, expired)):
        log.info("mail round: %s", result)
    return result


def failed_mail(session: Session, *, limit: int = 200) -> list[EmailOutbox]:
    """What an operator should look at: mail every retry failed, newest first."""
    return list(
        session.exec(
            select(EmailOutbox)
            .where(EmailOutbox.status == "FAILED")
            .order_by(col(EmailOutbox.created_at).desc(), col(EmailOutbox.id).desc())
            .limit(limit)
        ).all()
    )


def retry_failed(session: Session, *, outbox_id: int) -> bool:
    """An operator sends a FAILED row again: due at once, with a fresh set of tries."""
    return (
        session.exec(
            update(EmailOutbox)
            .where(col(EmailOutbox.id) == outbox_id, col(EmailOutbox.status) == "FAILED")
            .values(status="PENDING", attempts=0, next_attempt_at=utcnow(), error=None)
            .execution_options(synchronize_session=False)
        ).rowcount
        == 1
    )


def _send_smtp(mail: _Mail) -> None:
    settings = get_settings()
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = mail.to
    message["Subject"] = mail.subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain="hotmeals.local")
    message.set_content(mail.body)
    if mail.html:
        message.add_alternative(mail.html, subtype="html")  # multipart/alternative
    host, port = settings.smtp_host or "localhost", settings.smtp_port
    if port == 465:
        client: smtplib.SMTP = smtplib.SMTP_SSL(
            host, port, timeout=SMTP_TIMEOUT_SECONDS, context=ssl.create_default_context()
        )
    else:
        client = smtplib.SMTP(host, port, timeout=SMTP_TIMEOUT_SECONDS)
    with client:
        client.ehlo()
        if port != 465 and client.has_extn("starttls"):
            client.starttls(context=ssl.create_default_context())
            client.ehlo()
        if settings.smtp_user:
            client.login(settings.smtp_user, settings.smtp_password or "")
        client.send_message(message)
    log.info("mail %s (%s) sent to %s", mail.outbox_id, mail.kind, mail.to)


def _log_mail(mail: _Mail) -> None:
    if get_settings().production:
        # Production starts only with SMTP_HOST (hotmeals/mode.py); should a mail get here all
        # the same, its text (a sign-in code, say) still never reaches a log.
        log.error(
            "mail %s (%s) not sent: no SMTP_HOST; kept in the outbox", mail.outbox_id, mail.kind
        )
        return
    _ensure_visible()
    log.info(
        "mail %s (%s) not sent: no SMTP_HOST. It is kept in the outbox.\n"
        "To: %s\nSubject: %s\n\n%s\n",
        mail.outbox_id,
        mail.kind,
        mail.to,
        mail.subject,
        mail.body,
    )


def _ensure_visible() -> None:
    """Make INFO mail lines reach the console when nothing configured logging (``make run``)."""
    if log.level == logging.NOTSET or log.level > logging.INFO:
        log.setLevel(logging.INFO)
    if not log.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
        log.addHandler(handler)
