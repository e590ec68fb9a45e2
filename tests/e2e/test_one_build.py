"""One frontend build, servers on any port (tests/e2e/server.py, hotmeals/ui/backend_url.py).

A second server started in the session serves the build the first one made (no rebuild), on a
port of its own: its pages open their websocket to it, not to the port the build was made on,
and sign a parent in who exists only in its own database."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, expect

from hotmeals.db.engine import make_engine, session_scope
from tests.e2e.helpers import open_page, sign_in, wait_hydrated
from tests.e2e.server import AppServer, start_app
from tests.factories import DEFAULT_PASSWORD, make_child, make_parent

# Starts servers of its own: make test runs it after the browser tests, one module at a time.
pytestmark = pytest.mark.servers


def _parent_only_in(server: AppServer) -> str:
    email = f"second-port-{uuid.uuid4().hex[:8]}@example.com"
    engine = make_engine(server.env["DATABASE_URL"])
    try:
        with session_scope(engine) as session:
            parent = make_parent(session, email=email, first_name="Bea", last_name="Second")
            make_child(session, parent, is_default=True)
    finally:
        engine.dispose()
    return email


def _socket_ports(browser: Browser, server: AppServer, email: str | None) -> set[int | None]:
    """The ports the websockets of a tab on ``server`` went to (after signing ``email`` in)."""
    context = browser.new_context(base_url=server.base_url)
    context.set_default_timeout(15_000)
    urls: list[str] = []
    page = context.new_page()
    page.on("websocket", lambda ws: urls.append(ws.url))
    try:
        open_page(page, "/sign-in")
        if email:
            sign_in(page, email, DEFAULT_PASSWORD)
            page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
            wait_hydrated(page)
            expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Hello, Bea"))
    finally:
        context.close()
    assert urls, "the page opened no websocket"
    return {urlsplit(url).port for url in urls}


def test_a_second_server_serves_the_same_build_and_answers_its_own_websocket(
    browser: Browser, app: AppServer, smtp, tmp_path_factory
) -> None:
    second = start_app(tmp_path_factory.mktemp("e2e-second-port"), smtp.env)
    try:
        assert second.port != app.port
        assert not second.built, "the second server should serve the session's build"
        assert second.env["REFLEX_WEB_WORKDIR"] == app.env["REFLEX_WEB_WORKDIR"]
        flags = json.loads((Path(second.env["REFLEX_WEB_WORKDIR"]) / "env.json").read_text())
        assert flags["SAME_ORIGIN_BACKEND"] is True

        # Bea is in the second server's database only: her sign-in is an event the second
        # server answered, over a websocket to its own port.
        assert _socket_ports(browser, second, _parent_only_in(second)) == {second.port}
        # The first server's pages, from the same build, still talk to the first server.
        assert _socket_ports(browser, app, None) == {app.port}
    finally:
        second.stop()
