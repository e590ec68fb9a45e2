"""Suite-wide settings: tests never touch the developer's data directory or database. And the
Converge simulator served over real HTTP (``sim_server``, ``sim``), which the integration, API
and browser tests of payments share (its handle and helpers: tests/payments_support.py)."""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

# Before hotmeals.security is imported: the suite hashes about a thousand passwords, at
# argon2's smallest cost (hotmeals/security.py; the e2e servers inherit it).
os.environ.setdefault("HOTMEALS_PASSWORD_HASH_COST", "low")

from hotmeals import clock  # noqa: E402

if TYPE_CHECKING:
    from tests.payments_support import SimServer

_tmp = tempfile.mkdtemp(prefix="hotmeals-tests-")
os.environ.setdefault("DATA_DIR", _tmp)
os.environ.setdefault("DATABASE_URL", f"sqlite:///{_tmp}/unit.db")
os.environ.setdefault("HOTMEALS_API_KEY", "hotmeals-dev-key")
for _var in ("CONVERGE_MERCHANT_ID", "CONVERGE_USER_ID", "CONVERGE_PIN", "CONVERGE_BASE_URL"):
    os.environ.pop(_var, None)

# Property tests assert rules, not speed: on a busy 2-core CI machine a strategy's draw or an
# example may take seconds, which is no failure of the rule (no deadline, no too_slow check).
settings.register_profile("hotmeals", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hotmeals")


def _browser_rank(item) -> int:
    """0: no browser; 1: tests/e2e, whose browser lives for the rest of the session."""
    return 1 if "/tests/e2e/" in str(item.fspath) else 0


def pytest_collection_modifyitems(session, config, items):
    """Browser tests run last: Playwright's sync API keeps an event loop running in the main
    thread while a browser is up, so no asyncio test could start after tests/e2e has opened its
    session-wide browser."""
    items.sort(key=_browser_rank)  # stable: order within each group is kept


@pytest.fixture(autouse=True, scope="session")
def _payment_purposes() -> None:
    """What every entry point does before it serves (``services/startup.py``); imported here,
    after the settings' environment above is set."""
    from hotmeals.services.startup import register_payment_purposes

    register_payment_purposes()


@pytest.fixture(autouse=True)
def _clock_put_back():
    """A test may set the one clock (``clock.set_now(instant)``, docs/testing.md "A test that
    needs a particular day"); after it the clock is the suite's again: the system's, or
    ``HOTMEALS_NOW``'s under ``make test-dates``."""
    yield
    clock.set_now(None)


@pytest.fixture(scope="session")
def pg_admin_dsn() -> str:
    """PostgreSQL's admin DSN once the server has answered; otherwise skip (or, under
    REQUIRE_SERVICES=1, fail). The databases themselves: tests/databases.py."""
    from tests.databases import pg_admin

    return pg_admin()


@pytest.fixture(scope="session")
def sim_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimServer]:
    """The Converge simulator under uvicorn on 127.0.0.1, one server per test session, and a
    client that talks to it over real HTTP."""
    import httpx
    import uvicorn

    from hotmeals.converge.configured import simulator_credentials
    from hotmeals.converge.simulator import create_simulator_app
    from tests.payments_support import PATIENT, FakeClock, SimServer

    fake_clock = FakeClock()
    # Served under the same prefix the app uses, so the paths match production use; its store
    # is a SQLite file of this test session's own.
    store = tmp_path_factory.mktemp("converge-sim") / "sim.db"
    # The client (``SimServer.settings``) sends the app's demo credentials; this simulator
    # accepts the same ones although its ledger is a file of its own.
    app = create_simulator_app(
        fake_clock,
        base_path="/converge-sim",
        hang_seconds=5.0,
        database_url=f"sqlite:///{store}",
        credentials=simulator_credentials(),
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60  # a condition, with room for a busy machine
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("simulator did not start")
        time.sleep(0.02)
    with httpx.Client(timeout=PATIENT) as http:  # the tests' control calls assert no timing
        yield SimServer(f"http://127.0.0.1:{port}/converge-sim", app, fake_clock, http)
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()
    app.state.simulator.engine.store.dispose()


@pytest.fixture
def sim(sim_server: SimServer) -> SimServer:
    """The simulator reset (no transactions, no faults) with its clock at ``START``."""
    from tests.payments_support import START

    sim_server.control("reset")
    sim_server.clock.now = START
    return sim_server
