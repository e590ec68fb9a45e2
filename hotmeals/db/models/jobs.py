"""Leases that let one worker at a time run a periodic job (reconciliation, housekeeping).

A row per job: whoever updates it while it is free or expired holds it until ``expires_at``.
A conditional UPDATE works the same on SQLite and PostgreSQL, and a worker that dies simply
lets its lease run out.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Field, SQLModel


class JobLease(SQLModel, table=True):
    name: str = Field(primary_key=True, max_length=40)  # reconcile, housekeeping
    holder: str = Field(default="", max_length=80)  # host:pid:random of the holding worker
    expires_at: datetime
    # When the last round started (on any worker): a periodic round is due again only an
    # interval later, so N workers' loops make one round per interval, not N.
    last_started_at: datetime | None = None
