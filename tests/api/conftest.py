"""API contract tests: ``TestClient(create_api())`` on a fresh database per test module and
backend, with the demo data loaded. No SMTP server: mail is LOGGED in the outbox, where the
tests read the codes.

Every module runs twice: on SQLite, and on a fresh PostgreSQL database (127.0.0.1:5432, user
postgres, as in tests/integration). When PostgreSQL does not answer its runs are skipped,
unless ``REQUIRE_SERVICES=1`` (CI), which makes that a failure.

The payments' modules use ``api`` instead of ``client``: the same app over a migrated database
without the demo data, its Converge the simulator over real HTTP (``sim_server``,
tests/conftest.py); ``cart_family`` and ``shop_family`` are signed-in parents to pay with.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete
from sqlmodel import Session

from hotmeals.api.app import create_api
from hotmeals.db.engine import session_scope
from hotmeals.db.models import RateLimitHit
from hotmeals.services import ratelimit
from hotmeals.services import runtime as service_runtime
from tests.api.helpers import API_KEY
from tests.databases import BACKENDS, app_database
from tests.orders_support import make_cart_family, make_shop_family
from tests.payments_support import SimServer


@pytest.fixture(scope="module", params=BACKENDS)
def api_backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="module")
def database(api_backend: str, tmp_path_factory) -> Iterator[Path]:
    """A fresh database with the demo data and data directory for the module; settings and
    engine point at it (tests/databases.py)."""
    folder = tmp_path_factory.mktemp("api")
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("HOTMEALS_TRUST_PROXY", raising=False)
        with app_database(
            api_backend, folder, prefix="hm_api", sqlite_name="api.db", HOTMEALS_API_KEY=API_KEY
        ):
            yield folder


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


@pytest.fixture
def frozen_limits(monkeypatch):
    """Every reservation sees the same instant: a burst is one moment, whatever the machine's
    speed, so the number of checks allowed is exactly the throttle's free checks."""
    instant = datetime(2030, 1, 7, 12, 0, tzinfo=UTC)
    monkeypatch.setattr(ratelimit, "utcnow", lambda: instant)
    return instant


@pytest.fixture(scope="module")
def api(
    database, api_backend: str, tmp_path_factory, sim_server: SimServer
) -> Iterator[TestClient]:
    """A TestClient on ``create_api()`` over a migrated database of the module's own without the
    demo data, Converge served by ``sim_server``. Made after ``database``, so that while the
    module runs the app's engine (and ``_fresh_limits``) is on this one."""
    folder = tmp_path_factory.mktemp("payapi")
    with (
        app_database(
            api_backend,
            folder,
            "migrated",
            prefix="hm_pay_api",
            sqlite_name="api.db",
            HOTMEALS_API_KEY=API_KEY,
        ),
        pytest.MonkeyPatch.context() as mp,
    ):
        mp.setattr(service_runtime, "converge_settings", lambda: sim_server.settings)
        with TestClient(create_api()) as test_client:
            yield test_client


@pytest.fixture
def cart_family(api: TestClient, sim: SimServer) -> dict:
    """``make_cart_family``: a signed-in parent with meals to put in the cart."""
    return make_cart_family(sim)


@pytest.fixture
def shop_family(api: TestClient, sim: SimServer) -> dict:
    """``make_shop_family``: a signed-in parent with orders to place and change."""
    return make_shop_family(sim)
