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
import logging
import os
from collections.abc import AsyncIterator
from functools import lru_cache

log = logging.getLogger("hotmeals.api")

_state = {"draining": False}


@contextlib.asynccontextmanager
async def lifespan() -> AsyncIterator[None]:
    _state["draining"] = False
    try:
        yield
    finally:
        _state["draining"] = True


@lru_cache(maxsize=1)
def migrations_head() -> str | None:
    """The head revision of the repository's migrations (read once per process)."""
    from alembic.script import ScriptDirectory

    from hotmeals.db.cli import alembic_config

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def redis_state() -> str | None:
    """ "ok" / "unavailable", or None when no Redis is configured."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return None
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        try:
            return "ok" if client.ping() else "unavailable"
        finally:
            client.close()
    except Exception as exc:  # noqa: BLE001 - a probe answers, it does not raise
        log.warning("redis readiness check failed: %s", type(exc).__name__)
        return "unavailable"


def readiness(database: dict) -> tuple[bool, dict]:
    """(ready, body) from the database state (``api.app.database_state``) and this worker's."""
    head = migrations_head()
    body = {
        "database": database["status"],
        "revision": database["revision"],
        "head": head,
        "migrations": "ok" if database["revision"] == head else "behind or ahead",
        "redis": redis_state(),
        "draining": _state["draining"],
    }
    ready = (
        database["status"] == "ok"
        and database["revision"] == head
        and body["redis"] in (None, "ok")
        and not _state["draining"]
    )
    return ready, body
