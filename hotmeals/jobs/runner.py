"""Which runner carries the periodic jobs: the job queue on PostgreSQL (procrastinate,
``jobs/queue.py``), lease loops on the embedded SQLite default (``jobs/periodic.py``)."""

from __future__ import annotations

from typing import Any

from hotmeals.jobs import periodic
from hotmeals.jobs.queue import lifespan
from hotmeals.settings import get_settings


def uses_queue(database_url: str | None = None) -> bool:
    return (database_url or get_settings().database_url).startswith("postgresql")


def register_background_jobs(app: Any) -> None:
    """Called once from ``hotmeals/hotmeals.py``."""
    if uses_queue():
        app.register_lifespan_task(lifespan)
    else:
        periodic.register_lease_loops(app)
