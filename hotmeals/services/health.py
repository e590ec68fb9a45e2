"""What the liveness and readiness probes report: the database (does it answer, at which
revision), the migrations' head, and Redis when one is configured. No secrets."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

from sqlalchemy import text

from hotmeals.db.engine import get_engine
from hotmeals.db.migrations import migrations_head

log = logging.getLogger("hotmeals.api")

__all__ = ["DatabaseState", "database_state", "migrations_head", "redis_state"]


@dataclass(frozen=True)
class DatabaseState:
    """Whether the database answers ("ok" / "unavailable"), its dialect and the migration it
    is at (None: unmigrated or not answering)."""

    status: str
    dialect: str
    revision: str | None


def database_state() -> DatabaseState:
    """Whether the database answers, and which one it is (no secrets)."""
    engine = get_engine()
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
            revision = None
            try:
                revision = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            except Exception:  # noqa: BLE001 - an unmigrated database is a state, not an error
                revision = None
        return DatabaseState(status="ok", dialect=engine.dialect.name, revision=revision)
    except Exception as exc:  # noqa: BLE001
        log.warning("database health check failed: %s", type(exc).__name__)
        return DatabaseState(status="unavailable", dialect=engine.dialect.name, revision=None)


def redis_state() -> str | None:
    """ "ok" / "unavailable", or None when no Redis is configured."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return None
    try:
        import redis  # loaded only where a Redis is configured

        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        try:
            return "ok" if client.ping() else "unavailable"
        finally:
            client.close()
    except Exception as exc:  # noqa: BLE001 - a probe answers, it does not raise
        log.warning("redis readiness check failed: %s", type(exc).__name__)
        return "unavailable"
