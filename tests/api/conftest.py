"""API contract tests: ``TestClient(create_api())`` on a fresh database per test module and
backend, with the demo data loaded. No SMTP server: mail is LOGGED in the outbox, where the
tests read the codes.

Every module runs twice: on SQLite, and on a fresh PostgreSQL database (127.0.0.1:5432, user
postgres, as in tests/integration). When PostgreSQL does not answer its runs are skipped,
unless ``REQUIRE_SERVICES=1`` (CI), which makes that a failure.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete
from sqlmodel import Session, SQLModel

from hotmeals.api.app import create_api
from hotmeals.db.engine import get_engine, session_scope
from hotmeals.db.models import RateLimitHit
from hotmeals.demo.seed import load_demo_data
from hotmeals.services import mail
from hotmeals.settings import get_settings
from tests.api.helpers import API_KEY
from tests.integration.conftest import BACKENDS, PG_URL, pg_admin_dsn  # noqa: F401 - fixture


@contextmanager
def _database_url(backend: str, folder: Path, admin_dsn: str | None) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'api.db'}"
        return
    import psycopg

    name = f"hm_api_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_URL.format(name=name)
    finally:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module", params=BACKENDS)
def api_backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="module")
def database(api_backend: str, request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[Path]:
    """A fresh database and data directory for the module; settings and engine point at it."""
    folder = tmp_path_factory.mktemp("api")
    # The admin DSN fixture skips (or, under REQUIRE_SERVICES=1, fails) when PostgreSQL is down.
    admin = request.getfixturevalue("pg_admin_dsn") if api_backend == "postgres" else None
    with pytest.MonkeyPatch.context() as mp, _database_url(api_backend, folder, admin) as url:
        mp.setenv("DATABASE_URL", url)
        mp.setenv("DATA_DIR", str(folder))
        mp.setenv("HOTMEALS_API_KEY", API_KEY)
        mp.delenv("SMTP_HOST", raising=False)
        mp.delenv("HOTMEALS_TRUST_PROXY", raising=False)
        get_settings.cache_clear()
        get_engine.cache_clear()
        SQLModel.metadata.create_all(get_engine())
        with session_scope() as session:
            load_demo_data(session)
        yield folder
        mail.drain()
        get_engine().dispose()
        get_settings.cache_clear()
        get_engine.cache_clear()


@pytest.fixture(scope="module")
def client(database) -> Iterator[TestClient]:
    with TestClient(create_api()) as test_client:
        yield test_client


@pytest.fixture(autouse=True)
def _fresh_limits(database) -> None:
    """Each test starts with no counted attempts (they all come from the same address)."""
    with session_scope() as session:
        session.execute(delete(RateLimitHit))


@pytest.fixture
def db(database) -> Iterator[Session]:
    """A session for arranging and checking rows; committed at the end of the test."""
    with session_scope() as session:
        yield session
