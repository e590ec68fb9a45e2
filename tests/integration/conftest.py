"""Real, freshly created databases for integration tests, on SQLite and on PostgreSQL.

Every test that asks for ``empty_url``, ``migrated_url`` or ``engine`` runs once per backend:
SQLite in a temporary file, and PostgreSQL at 127.0.0.1:5432 (user postgres, trust auth) in a
database ``hm_it_<random>`` created through the ``test`` database and dropped afterwards. When
that server does not answer, the PostgreSQL runs are skipped, unless ``REQUIRE_SERVICES=1``,
which turns the skip into a failure (CI sets it).

``seeded_engine`` is one migrated database per backend and module with the demo data loaded
for ``SEED_TODAY``; tests must only read it. The databases come from tests/databases.py.

The payments' tests add the Converge simulator over real HTTP (``sim``, tests/conftest.py):
``pay_engine`` is one migrated database per backend and module, which they write to;
``converge_client`` talks to the simulator at its fixed clock, ``gateway`` at the real time
(``live_sim``); ``family`` is a parent with one child and ``shop`` a parent with two children and
a meal to order on six Mondays (tests/orders_support.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy.engine import Engine

from hotmeals import clock
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import make_engine, session_scope
from tests.databases import BACKENDS, SEED_TODAY, fresh_database
from tests.factories import make_child, make_parent
from tests.orders_support import make_shop
from tests.payments_support import PATIENT, SimServer


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


@pytest.fixture(scope="module", params=BACKENDS)
def pay_engine(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[Engine]:
    """A migrated database for this module, once per backend."""
    folder = tmp_path_factory.mktemp("paydb")
    with fresh_database(request.param, folder, "migrated", prefix="hm_pay") as url:
        engine = make_engine(url)
        try:
            yield engine
        finally:
            engine.dispose()


@pytest_asyncio.fixture
async def converge_client(sim: SimServer) -> AsyncIterator[ConvergeClient]:
    """Converge's client talking to the simulator (its clock at ``START``)."""
    async with ConvergeClient(sim.settings, timeout=PATIENT) as converge:
        yield converge


@pytest.fixture
def live_sim(sim: SimServer) -> SimServer:
    """The simulator with its clock at the real time: reconciliation searches Converge by
    date around the payment's own (real) creation time."""
    sim.clock.now = clock.now()
    return sim


@pytest_asyncio.fixture
async def gateway(live_sim: SimServer) -> AsyncIterator[ConvergeClient]:
    async with ConvergeClient(live_sim.settings, timeout=PATIENT) as client:
        yield client


@pytest.fixture
def family(pay_engine: Engine) -> dict[str, int]:
    """A parent with one child (so one school to donate to)."""
    with session_scope(pay_engine) as session:
        parent = make_parent(session)
        child = make_child(session, parent, is_default=True)
        return {"parent_id": parent.id, "school_id": child.school_id, "child_id": child.id}


@pytest.fixture
def shop(pay_engine: Engine, live_sim: SimServer) -> dict:
    """A parent with two children and a meal served on six Mondays (tests/orders_support.py:
    ``make_shop``); the simulator approves every amount."""
    live_sim.control("config", decline_by_cents="0")
    return make_shop(pay_engine)
