"""API contract tests: ``TestClient(create_api())`` on a fresh SQLite database per test module,
with the demo data loaded. No SMTP server: mail is LOGGED in the outbox, where the tests read
the codes.

``API_TESTS_ON_POSTGRES=1`` runs the same tests on a fresh PostgreSQL database per module
(server at 127.0.0.1:5432, user postgres, as in tests/integration).
"""

from __future__ import annotations

import os
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
from hotmeals.db.seed import load_demo_data
from hotmeals.services import mail
from hotmeals.settings import get_settings
from tests.api.helpers import API_KEY

PG_ADMIN_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=test"


@contextmanager
def _database_url(folder: Path) -> Iterator[str]:
    if os.environ.get("API_TESTS_ON_POSTGRES") != "1":
        yield f"sqlite:///{folder / 'api.db'}"
        return
    import psycopg

    name = f"hm_api_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(PG_ADMIN_DSN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Iterator[Path]:
    """A fresh database and data directory for the module; settings and engine point at it."""
    folder = tmp_path_factory.mktemp("api")
    with pytest.MonkeyPatch.context() as mp, _database_url(folder) as url:
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
