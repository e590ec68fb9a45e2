"""Liveness and readiness for a load balancer or an orchestrator.

- ``GET /api/v1/health`` (``api/app.py``) is the liveness probe: the process answers and says
  how its database is.
- ``GET /api/v1/ready`` is the readiness probe: 200 only when this worker can serve parents —
  the database answers, it is at the migrations' head (a worker of a newer release never serves
  an older schema, nor the reverse), Redis answers when ``REDIS_URL`` is set — and 503 from the
  moment the worker starts shutting down (SIGTERM: Granian stops accepting and lets the
  requests in flight finish), so a balancer stops sending it parents before it goes.

Draining is per worker: ``lifespan`` (a Reflex lifespan context registered in
``hotmeals/hotmeals.py``) marks the worker draining when its shutdown begins.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from hotmeals.services.health import DatabaseState, migrations_head, redis_state

_state = {"draining": False}


@contextlib.asynccontextmanager
async def lifespan() -> AsyncIterator[None]:
    _state["draining"] = False
    try:
        yield
    finally:
        _state["draining"] = True


def database_out(database: DatabaseState) -> dict[str, Any]:
    """The database state as the liveness probe shows it."""
    return {"status": database.status, "dialect": database.dialect, "revision": database.revision}


def readiness(database: DatabaseState) -> tuple[bool, dict[str, Any]]:
    """(ready, body) from the database state (``services.health.database_state``) and this
    worker's."""
    head = migrations_head()
    body = {
        "database": database.status,
        "revision": database.revision,
        "head": head,
        "migrations": "ok" if database.revision == head else "behind or ahead",
        "redis": redis_state(),
        "draining": _state["draining"],
    }
    ready = (
        database.status == "ok"
        and database.revision == head
        and body["redis"] in (None, "ok")
        and not _state["draining"]
    )
    return ready, body
