"""Real, freshly created databases for integration tests, on SQLite and on PostgreSQL.

Every test that asks for ``empty_url``, ``migrated_url`` or ``engine`` runs once per backend:
SQLite in a temporary file, and PostgreSQL at 127.0.0.1:5432 (user postgres, trust auth) in a
database ``hm_it_<random>`` created through the ``test`` database and dropped afterwards. When
that server does not answer, the PostgreSQL runs are skipped, unless ``REQUIRE_SERVICES=1``,
which turns the skip into a failure (CI sets it).

``seeded_engine`` is one migrated database per backend and module with the demo data loaded
for ``SEED_TODAY``; tests must only read it.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import psycopg
import pytest
from alembic.command import upgrade
from sqlalchemy.engine import Engine

from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.migrations import alembic_config
from hotmeals.demo.seed import load_demo_data

PG_ADMIN_DSN = os.environ.get(
    "TEST_PG_ADMIN_DSN", "host=127.0.0.1 port=5432 user=postgres dbname=test"
)
# synchronous_commit=off: a commit does not wait for its WAL flush to disk. The test databases
# are thrown away, so durability buys nothing, and the wait was ~7 ms per commit here: most of
# a PostgreSQL test's time. Locking, isolation and constraints are unchanged.
PG_URL = os.environ.get(
    "TEST_PG_URL",
    "postgresql+psycopg://postgres@127.0.0.1:5432/{name}?options=-csynchronous_commit%3Doff",
)
# A Wednesday: the window is Wed-Fri of this week plus six full weeks.
SEED_TODAY = date(2026, 3, 4)

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


def _require_services() -> bool:
    return os.environ.get("REQUIRE_SERVICES") == "1"


@pytest.fixture(scope="session")
def pg_admin_dsn() -> str:
    """The admin DSN once the server has answered; otherwise skip (or fail)."""
    try:
        with psycopg.connect(PG_ADMIN_DSN, connect_timeout=3, autocommit=True) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        message = f"PostgreSQL not available at {PG_ADMIN_DSN!r}: {exc}"
        if _require_services():
            pytest.fail(message)
        pytest.skip(message)
    return PG_ADMIN_DSN


def _new_database(backend: str, request: pytest.FixtureRequest, tmp: Path) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{tmp / 'hotmeals.db'}"
        return
    admin = request.getfixturevalue("pg_admin_dsn")
    name = f"hm_it_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_URL.format(name=name)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def migrate(url: str) -> None:
    config = alembic_config(url)
    config.attributes["configure_logger"] = False  # leave pytest's logging alone
    upgrade(config, "head")


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def empty_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A new, empty database (no tables)."""
    yield from _new_database(backend, request, tmp_path)


@pytest.fixture
def migrated_url(empty_url: str) -> str:
    """A new database at ``alembic upgrade head``."""
    migrate(empty_url)
    return empty_url


@pytest.fixture
def engine(migrated_url: str) -> Iterator[Engine]:
    eng = make_engine(migrated_url)
    try:
        yield eng
    finally:
        eng.dispose()


@pytest.fixture(scope="module")
def seeded_engine(
    backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Engine]:
    """A migrated database with the demo data for ``SEED_TODAY`` (read-only for tests)."""
    databases = _new_database(backend, request, tmp_path_factory.mktemp("seeded"))
    url = next(databases)
    migrate(url)
    eng = make_engine(url)
    with session_scope(eng) as session:
        load_demo_data(session, today=SEED_TODAY)
    try:
        yield eng
    finally:
        eng.dispose()
        databases.close()
