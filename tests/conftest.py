"""Suite-wide settings: tests never touch the developer's data directory or database."""

from __future__ import annotations

import os
import tempfile

_tmp = tempfile.mkdtemp(prefix="hotmeals-tests-")
os.environ.setdefault("DATA_DIR", _tmp)
os.environ.setdefault("DATABASE_URL", f"sqlite:///{_tmp}/unit.db")
os.environ.setdefault("HOTMEALS_API_KEY", "hotmeals-dev-key")
for _var in ("CONVERGE_MERCHANT_ID", "CONVERGE_USER_ID", "CONVERGE_PIN", "CONVERGE_BASE_URL"):
    os.environ.pop(_var, None)


def _is_browser_test(item) -> bool:
    return "/tests/e2e/" in str(item.fspath) or item.get_closest_marker("e2e") is not None


def pytest_collection_modifyitems(session, config, items):
    """Browser tests run last: Playwright's sync API keeps an event loop running in the main
    thread once a browser is up, and the asyncio tests that follow could not start theirs."""
    items.sort(key=_is_browser_test)  # stable: order within each group is kept
