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
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session

from hotmeals.db.models import EmailOutbox
from hotmeals.domain.headers import one_line
from hotmeals.i18n import normalize_lang, t
from hotmeals.services.clock import now as utcnow
from hotmeals.settings import get_settings

log = logging.getLogger("hotmeals.mail")

SMTP_TIMEOUT_SECONDS = 10
_SESSION_KEY = "hotmeals.mail.pending"

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


def queue_mail(
    *, session: Session, to: str, subject: str, body: str, kind: str, language: str = "en"
) -> int:
    """Write an outbox row and deliver it once ``session`` commits. Returns the row id."""
    smtp = bool(get_settings().smtp_host)
    row = EmailOutbox(
        to_address=one_line(to)[:254],
        subject=one_line(subject)[:200],  # services refuse line breaks; never a header break
        body_text=body,
        language=normalize_lang(language),
        kind=kind[:32],
        status="PENDING" if smtp else "LOGGED",
        sent_at=None if smtp else utcnow(),
        created_at=utcnow(),
    )
    session.add(row)
    session.flush()
    _pending(session).append(_Mail(row.id, row.to_address, row.subject, body, row.kind, smtp))
    return row.id


def send_templated(
    *, session: Session, to: str, template: str, language: str, kind: str | None = None, **params
) -> int:
    """Render ``mail.<template>.subject`` and ``.body`` from the catalog in ``language``."""
    lang = normalize_lang(language)
    subject, body = render_templated(template=template, language=lang, **params)
    return queue_mail(
        session=session, to=to, subject=subject, body=body, kind=kind or template, language=lang
    )


def render_templated(*, template: str, language: str, **params) -> tuple[str, str]:
    """The subject and body of ``mail.<template>`` in ``language``."""
    lang = normalize_lang(language)
    return t(f"mail.{template}.subject", lang, **params), t(f"mail.{template}.body", lang, **params)


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
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hotmeals-mail")
        future = _executor.submit(_deliver, engine, mail)
        _futures.add(future)
    future.add_done_callback(_forget)


def _forget(future: Future) -> None:
    with _lock:
        _futures.discard(future)


def _deliver(engine: Engine, mail: _Mail) -> None:
    error: str | None = None
    try:
        _send_smtp(mail)
    except Exception as exc:  # noqa: BLE001 - recorded on the row
        error = f"{type(exc).__name__}: {exc}"[:300]
        log.warning("mail %s to %s failed: %s", mail.outbox_id, mail.to, error)
    try:
        with Session(engine) as session:
            row = session.get(EmailOutbox, mail.outbox_id)
            if row is not None:
                row.attempts += 1
                row.status = "FAILED" if error else "SENT"
                row.error = error
                row.sent_at = None if error else utcnow()
                session.add(row)
                session.commit()
    except Exception:  # noqa: BLE001
        log.exception("could not record the delivery of mail %s", mail.outbox_id)


def _send_smtp(mail: _Mail) -> None:
    settings = get_settings()
    message = EmailMessage()
    message["From"] = settings.mail_from
    message["To"] = mail.to
    message["Subject"] = mail.subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain="hotmeals.local")
    message.set_content(mail.body)
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


def redeliver(engine: Engine, row: EmailOutbox) -> None:
    """Send a PENDING outbox row again, now, and record the outcome on it (housekeeping: a
    crash between the commit and the SMTP handover left it unsent)."""
    _deliver(engine, _Mail(row.id or 0, row.to_address, row.subject, row.body_text, row.kind, True))
