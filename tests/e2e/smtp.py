"""A real SMTP server for the e2e run (aiosmtpd on 127.0.0.1): the app is started with
SMTP_HOST/SMTP_PORT pointing here, so a test reads the code a parent would get by e-mail."""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from email import message_from_bytes, policy

from aiosmtpd.controller import Controller

from tests.e2e.server import free_port

CODE_RE = re.compile(r"\b(\d{6})\b")


@dataclass(frozen=True)
class Mail:
    to: tuple[str, ...]
    subject: str
    body: str  # the text/plain part
    html: str = ""  # the text/html alternative, when the mail has one
    content_type: str = "text/plain"  # of the whole message: multipart/alternative with HTML


class Inbox:
    """Every message the app sent, in order. Thread-safe (the server runs on its own loop)."""

    def __init__(self) -> None:
        self._mails: list[Mail] = []
        self._lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook
        msg = message_from_bytes(envelope.content, policy=policy.default)
        part = msg.get_body(preferencelist=("plain",)) if msg.is_multipart() else msg
        # SMTP carries CRLF line ends; the mail's text has "\n".
        body = part.get_content().replace("\r\n", "\n") if part is not None else ""
        html_part = msg.get_body(preferencelist=("html",)) if msg.is_multipart() else None
        mail = Mail(
            tuple(a.lower() for a in envelope.rcpt_tos),
            str(msg["Subject"] or ""),
            body,
            html_part.get_content().replace("\r\n", "\n") if html_part is not None else "",
            msg.get_content_type(),
        )
        with self._lock:
            self._mails.append(mail)
        return "250 Message accepted for delivery"

    def mails_to(self, address: str) -> list[Mail]:
        with self._lock:
            return [m for m in self._mails if address.lower() in m.to]

    def wait_for_mail(self, address: str, *, count: int = 1, timeout: float = 20) -> Mail:
        """The ``count``-th mail to ``address`` (waiting for it to arrive)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            mails = self.mails_to(address)
            if len(mails) >= count:
                return mails[count - 1]
            time.sleep(0.2)
        raise AssertionError(f"no mail #{count} to {address} within {timeout}s")

    def wait_for_subject(self, address: str, part: str, *, timeout: float = 60) -> Mail:
        """The first mail to ``address`` whose subject holds ``part`` (waiting for it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for mail in self.mails_to(address):
                if part in mail.subject:
                    return mail
            time.sleep(0.2)
        raise AssertionError(f"no mail to {address} about {part!r} within {timeout}s")

    def wait_for_code(self, address: str, *, count: int = 1, timeout: float = 20) -> str:
        mail = self.wait_for_mail(address, count=count, timeout=timeout)
        match = CODE_RE.search(mail.body)
        assert match, f"no 6-digit code in mail to {address}: {mail.body!r}"
        return match.group(1)


class SmtpServer:
    def __init__(self) -> None:
        self.inbox = Inbox()
        self.host = "127.0.0.1"
        self.port = free_port()
        self._controller = Controller(self.inbox, hostname=self.host, port=self.port)

    @property
    def env(self) -> dict[str, str]:
        return {"SMTP_HOST": self.host, "SMTP_PORT": str(self.port)}

    def start(self) -> SmtpServer:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()
