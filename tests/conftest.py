"""Suite-wide settings: tests never touch the developer's data directory or database."""

from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import HealthCheck, settings

# Before hotmeals.security is imported: the suite hashes about a thousand passwords, at
# argon2's smallest cost (hotmeals/security.py; the e2e servers inherit it).
os.environ.setdefault("HOTMEALS_PASSWORD_HASH_COST", "low")

from hotmeals import clock  # noqa: E402

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
    """0: no browser; 1: a module that runs its own Playwright (closed at module end);
    2: tests/e2e, whose browser lives for the rest of the session."""
    if "/tests/e2e/" in str(item.fspath):
        return 2
    return 1 if item.get_closest_marker("e2e") is not None else 0


def pytest_collection_modifyitems(session, config, items):
    """Browser tests run last: Playwright's sync API keeps an event loop running in the main
    thread while a browser is up, so neither asyncio tests nor a second sync Playwright could
    start after tests/e2e has opened its session-wide browser."""
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
