"""What the reminder job has sent: one row per (family, kind, date, subject).

The row is inserted in the transaction that writes the mail's outbox row, under a unique
constraint: a second round (another worker, a retry, a restart) inserts nothing and so sends
nothing. ``subject`` tells apart what one kind can send more than once for a date (a menu
update: the order line and the change); the reminders leave it empty.

``token_hash`` is the SHA-256 of the random token in the mail's unsubscribe link: the link
turns ``kind`` off for ``parent_id`` (``services.reminders.unsubscribe``).
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from hotmeals.db.models._base import created_at_field, fk


class ReminderSent(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("parent_id", "kind", "for_date", "subject", name="uq_remindersent_once"),
    )
    id: int | None = Field(default=None, primary_key=True)
    parent_id: int = fk("parent.id", ondelete="CASCADE", index=False)
    kind: str = Field(max_length=32)  # cutoff_reminder, order_reminder, menu_updates
    for_date: date  # the cut-off's local date, the school day, the booked meal's date
    subject: str = Field(default="", max_length=64)  # menu_updates: "<line id>:<change>"
    token_hash: str = Field(max_length=64, unique=True, index=True)
    created_at: datetime = created_at_field()
