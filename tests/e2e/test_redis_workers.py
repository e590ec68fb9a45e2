"""Several backend workers share Reflex state through Redis (REDIS_URL): a parent signs in,
and every later page load, whichever worker answers it, keeps the session; the state is in
Redis, not in a worker's memory.

Runs when Redis answers on 127.0.0.1:6379 (CI insists on it with REQUIRE_SERVICES=1)."""

from __future__ import annotations

import os
import re
import socket

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.helpers import open_page, wait_hydrated
from tests.e2e.server import AppServer, start_app

# Starts servers of its own: make test runs it after the browser tests, one module at a time.
pytestmark = pytest.mark.servers

REDIS = ("127.0.0.1", 6379)


def _redis(command: bytes) -> bytes:
    with socket.create_connection(REDIS, timeout=1) as s:
        s.sendall(command)
        return s.recv(64)


def _redis_answers() -> bool:
    try:
        return _redis(b"PING\r\n").startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture(scope="module")
def redis_app(tmp_path_factory, smtp) -> AppServer:
    if not _redis_answers():
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail("Redis does not answer on 127.0.0.1:6379")
        pytest.skip("Redis does not answer on 127.0.0.1:6379")
    _redis(b"SELECT 5\r\nFLUSHDB\r\n")
    env = {
        **smtp.env,
        "REDIS_URL": "redis://127.0.0.1:6379/5",
        "GRANIAN_WORKERS": "2",
    }
    server = start_app(tmp_path_factory.mktemp("e2e-redis"), env)
    yield server
    server.stop()


@pytest.mark.redis
def test_session_and_language_survive_page_loads_on_two_workers(
    browser: Browser, redis_app: AppServer
):
    context = browser.new_context(
        base_url=redis_app.base_url, viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    try:
        open_page(page, "/sign-in")
        page.fill("#signin-identifier", "parent@example.com")
        page.fill("#signin-password", "Lunch@2026")
        page.click("#signin-submit")
        page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
        wait_hydrated(page)
        expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Hello, Maria"))
        for _ in range(4):  # new websocket connections, spread over the workers
            page.reload()
            wait_hydrated(page)
            expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Hello, Maria"))
        keys = _redis(b"SELECT 5\r\nDBSIZE\r\n").split(b"\r\n")[1]
        assert keys.startswith(b":") and int(keys[1:]) > 0, keys
    finally:
        context.close()
