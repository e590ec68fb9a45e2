"""Real, freshly created databases for integration tests, on SQLite and on PostgreSQL.

Every test that asks for ``empty_url``, ``migrated_url`` or ``engine`` runs once per backend:
SQLite in a temporary file, and PostgreSQL at 127.0.0.1:5432 (user postgres, trust auth) in a
database ``hm_it_<random>`` created through the ``test`` database and dropped afterwards. When
that server does not answer, the PostgreSQL runs are skipped, unless ``REQUIRE_SERVICES=1``,
which turns the skip into a failure (CI sets it).

``seeded_engine`` is one migrated database per backend and module with the demo data loaded
for ``SEED_TODAY``; tests must only read it. The databases come from tests/databases.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from hotmeals.db.engine import make_engine
from tests.databases import BACKENDS, SEED_TODAY, fresh_database


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def empty_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """A new, empty database (no tables)."""
    with fresh_database(backend, tmp_path, "empty", prefix="hm_it") as url:
        yield url


@pytest.fixture
def migrated_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """A new database at ``alembic upgrade head`` (a copy of one migrated once per run)."""
    with fresh_database(backend, tmp_path, "migrated", prefix="hm_it") as url:
        yield url


@pytest.fixture
def engine(migrated_url: str) -> Iterator[Engine]:
    eng = make_engine(migrated_url)
    try:
        yield eng
    finally:
        eng.dispose()


@pytest.fixture(scope="module")
def seeded_engine(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """A migrated database with the demo data for ``SEED_TODAY`` (read-only for tests)."""
    folder = tmp_path_factory.mktemp("seeded")
    with fresh_database(backend, folder, f"migrated+demo@{SEED_TODAY}", prefix="hm_it") as url:
        eng = make_engine(url)
        try:
            yield eng
        finally:
            eng.dispose()
