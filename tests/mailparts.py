"""A mail of the outbox as a parent's mail program receives it: the row is sent over SMTP by
the app's own sender to a real SMTP sink (aiosmtpd), and the MIME parts it received come back
with the HTML's table cells and links read by an HTML parser."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser

from hotmeals.db.models import EmailOutbox
from hotmeals.services import mail
from hotmeals.settings import get_settings
from tests.e2e.smtp import Mail, SmtpServer


@dataclass
class HtmlParts:
    """What the HTML part holds: its language, table captions, header cells (with their
    scope), body rows, links and the text of its paragraphs and list items."""

    lang: str = ""
    captions: list[str] = field(default_factory=list)
    headers: list[tuple[str, str]] = field(default_factory=list)  # (text, scope: col, rowgroup)
    rows: list[list[str]] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)  # (href, text)
    paragraphs: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)


_CAPTURED = ("caption", "th", "td", "p", "li", "a")


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts = HtmlParts()
        self._open: list[tuple[str, dict[str, str | None]]] = []
        self._texts: list[list[str]] = []  # one per open captured element: its text so far
        self._row: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        if tag == "html":
            self.parts.lang = named.get("lang") or ""
        if tag == "tr" and any(t == "tbody" for t, _ in self._open):
            self._row = []
        if tag == "br":
            self.handle_data("\n")
        if tag in _CAPTURED:
            self._texts.append([])
        if tag not in ("br", "meta"):
            self._open.append((tag, named))

    def handle_data(self, data):
        for text in self._texts:
            text.append(data)

    def handle_endtag(self, tag):
        opened, attrs = self._open.pop()
        assert opened == tag, f"<{opened}> closed by </{tag}>"
        if tag not in _CAPTURED:
            if tag == "tr" and self._row is not None:
                if self._row:  # a group's header row has no data cell
                    self.parts.rows.append(self._row)
                self._row = None
            return
        text = "".join(self._texts.pop()).strip()
        if tag == "caption":
            self.parts.captions.append(text)
        elif tag == "th":
            self.parts.headers.append((text, attrs.get("scope") or ""))
        elif tag == "td" and self._row is not None:
            self._row.append(text)
        elif tag == "a":
            self.parts.links.append((attrs.get("href") or "", text))
        elif tag == "p":
            self.parts.paragraphs.append(text)
        elif tag == "li":
            self.parts.items.append(text)


def read_html(html: str) -> HtmlParts:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.parts


@contextmanager
def _smtp_to(server: SmtpServer) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in server.env}
    os.environ.update(server.env)
    get_settings.cache_clear()
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        get_settings.cache_clear()


def received(row: EmailOutbox) -> tuple[Mail, HtmlParts]:
    """``row`` sent by the app's SMTP sender to a sink: the message the sink parsed (its
    plain-text part, its HTML part, its content type) and what its HTML holds."""
    server = SmtpServer().start()
    try:
        with _smtp_to(server):
            mail._send_smtp(mail._Mail.of(row))
        got = server.inbox.wait_for_mail(row.to_address)
    finally:
        server.stop()
    return got, read_html(got.html)
