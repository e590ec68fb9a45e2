"""Pages, FAQ, contact messages, the e-mail outbox and the audit trail."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Index, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import created_at_field, fk


class CmsPage(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("slug", "language"),)
    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(max_length=40)  # about, terms, privacy
    language: str = Field(max_length=2)
    title: str = Field(max_length=120)
    body: str = Field(sa_column=Column(Text, nullable=False))  # Markdown
    updated_at: datetime = created_at_field()


class Faq(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    language: str = Field(max_length=2, index=True)
    question: str = Field(max_length=300)
    answer: str = Field(sa_column=Column(Text, nullable=False))
    sort: int = 0


class ContactMessage(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int | None = fk("parent.id", nullable=True)
    first_name: str = Field(max_length=15)
    last_name: str = Field(max_length=15)
    email: str = Field(max_length=254)
    phone: str = Field(max_length=20)
    subject: str = Field(max_length=200)
    description: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime = created_at_field()


class EmailOutbox(SQLModel, table=True):
    """Every e-mail is written here first, then sent over SMTP (or only logged when no SMTP
    server is configured)."""

    __table_args__ = (
        Index("ix_emailoutbox_status_created_at", "status", "created_at"),
        # The mail job sends again what is due: PENDING rows by their next attempt.
        Index("ix_emailoutbox_status_next_attempt_at", "status", "next_attempt_at"),
    )
    id: int | None = Field(default=None, primary_key=True)
    to_address: str = Field(max_length=254, index=True)
    subject: str = Field(max_length=200)
    body_text: str = Field(sa_column=Column(Text, nullable=False))
    # The HTML alternative of a catalog mail (services/mail_html.py); None: plain text only.
    body_html: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    language: str = Field(default="en", max_length=2)
    kind: str = Field(max_length=32)  # otp_verify, otp_reset, contact, order_confirmation, ...
    # PENDING: to send (first try, or a retry at next_attempt_at); SENT; LOGGED (no SMTP: demo);
    # EXPIRED: a one-time code's mail that could no longer help; FAILED: every retry failed,
    # an operator looks (services/mail.py).
    status: str = Field(default="PENDING", max_length=12)
    attempts: int = 0
    error: str | None = Field(default=None, max_length=300)
    created_at: datetime = created_at_field()
    sent_at: datetime | None = None
    next_attempt_at: datetime | None = None  # when the mail job may try (again)
    claimed_until: datetime | None = None  # a sender holds the row until then (one delivery)
    expires_at: datetime | None = None  # after it, not worth sending (a one-time code's mail)


class AuditEvent(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    actor: str = Field(max_length=40)  # parent:12, system, converge
    kind: str = Field(max_length=48, index=True)  # payment.approved, refund.succeeded, ...
    entity: str = Field(max_length=32)
    entity_id: str = Field(max_length=40, index=True)
    data: str = Field(default="{}", sa_column=Column(Text, nullable=False))  # JSON
    created_at: datetime = created_at_field()
