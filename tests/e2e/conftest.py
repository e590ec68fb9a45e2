"""e2e fixtures: the app served once per run, Debian's Chromium, one page per test at a phone
(390 px) or desktop (1280 px) width, and a screenshot of every failing test in ``test-results/``
(plus a Playwright trace when E2E_TRACE=1: recording one for every test costs the suite minutes;
re-run the failing test with it to get its trace). E2E_WSLOG=1 writes every test's websocket
frames and console messages, timed, to ``test-results/<test>.ws.log``: what was sent and what
came back when a screen "did not answer".

Extend by writing ``def test_x(page, app): ...``; the ``page`` fixture is parametrized over both
widths. Helpers for common steps are in ``tests/e2e/helpers.py``.
"""

from __future__ import annotations

import os
import re
import time
import zlib
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.e2e.server import AppServer, start_app
from tests.e2e.smtp import SmtpServer

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "test-results"
CHROMIUM = "/usr/bin/chromium"
TRACE = os.environ.get("E2E_TRACE") == "1"
WSLOG = os.environ.get("E2E_WSLOG") == "1"
# What a page waits for (an answer from the server, a sign-in's password hash) takes seconds on a
# busy 2-core machine: every wait and assertion gets the same 15 s, not expect()'s default 5 s.
expect.set_options(timeout=15_000)
VIEWPORTS = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844},
}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
    kept, dropped = [], []
    for item in items:
        (kept if _one_run_of_its_flow(item) else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


# Each browser flow runs once: a test whose width (``viewport``) or language (``lang``) comes from
# the fixtures below, not from its own module, runs at one of the two, alternating from test to
# test (390 px in French or 1280 px in English, the same for the same test every time). Screens
# that must be seen at both widths say so themselves: the axe checks and the phone-only
# checks parametrize (viewport, lang) explicitly. E2E_EVERY_VARIANT=1 runs every variant.
EVERY_VARIANT = os.environ.get("E2E_EVERY_VARIANT") == "1"
VARIANTS = (("desktop", "en"), ("phone", "fr"))


def _one_run_of_its_flow(item) -> bool:
    callspec = getattr(item, "callspec", None)
    if EVERY_VARIANT or callspec is None:
        return True
    viewport, lang = VARIANTS[zlib.crc32(item.originalname.encode() + item.path.name.encode()) % 2]
    explicit = {
        name
        for mark in item.iter_markers("parametrize")
        for name in (mark.args[0].split(",") if isinstance(mark.args[0], str) else mark.args[0])
    }
    for name, wanted in (("viewport", viewport), ("lang", lang)):
        defs = item._fixtureinfo.name2fixturedefs.get(name, ())
        ours = bool(defs) and defs[-1].func.__module__ == __name__
        free = name in callspec.params and name not in explicit and ours
        if free and callspec.params[name] != wanted:
            return False
    return True


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(scope="session")
def smtp() -> SmtpServer:
    """A real SMTP server the app sends its e-mail to (codes for sign-up and reset)."""
    server = SmtpServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def app(tmp_path_factory, smtp: SmtpServer) -> AppServer:
    # No browser needed here: the raw websocket tests use the server alone (the browser
    # fixture below fails when Chromium is missing).
    server = start_app(tmp_path_factory.mktemp("e2e-app"), smtp.env)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Browser:
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's Chromium is missing: run `make browser` (apt-get install chromium)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(params=list(VIEWPORTS), ids=list(VIEWPORTS))
def viewport(request) -> str:
    return request.param


@pytest.fixture(params=["en", "fr"], ids=["en", "fr"])
def lang(request) -> str:
    """The page's language, for tests that must hold in English and French. A module
    that also pins ``viewport`` to "phone" runs each such test as [en] and [fr] at 390 px; the
    test calls ``helpers.use_language(page, lang)`` before opening its first page."""
    return request.param


@pytest.fixture
def page(request, browser: Browser, app: AppServer, viewport: str) -> Page:
    context = browser.new_context(
        viewport=VIEWPORTS[viewport],
        base_url=app.base_url,
        locale="en-CA",
        timezone_id="America/Toronto",
        is_mobile=viewport == "phone",
        has_touch=viewport == "phone",
    )
    context.set_default_timeout(15_000)
    if TRACE:
        context.tracing.start(screenshots=True, snapshots=True, sources=False)
    pg = context.new_page()
    wslog = _record_traffic(pg) if WSLOG else None
    yield pg
    if wslog is not None:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / f"{_result_name(request)}.ws.log").write_text("\n".join(wslog))
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    if failed:
        RESULTS.mkdir(exist_ok=True)
        name = _result_name(request)
        try:
            pg.screenshot(path=str(RESULTS / f"{name}.png"), full_page=True)
        except Exception:  # noqa: BLE001 - a dead page must not hide the real failure
            pass
        if TRACE:
            context.tracing.stop(path=str(RESULTS / f"{name}.trace.zip"))
    elif TRACE:
        context.tracing.stop()
    context.close()


def _result_name(request) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)[-120:]


def _record_traffic(page: Page) -> list[str]:
    """Each websocket frame and console message of ``page``, with the time it was seen."""
    lines: list[str] = []

    def note(kind: str, text: object) -> None:
        lines.append(f"{time.time():.3f} {kind} {str(text)[:400]}")

    def socket(ws) -> None:
        note("open", ws.url)
        ws.on("framesent", lambda payload: note(">", payload))
        ws.on("framereceived", lambda payload: note("<", payload))
        ws.on("close", lambda _ws: note("close", ""))

    page.on("websocket", socket)
    page.on("console", lambda m: note(f"console.{m.type}", m.text))
    return lines


@pytest.fixture(scope="session")
def parent_cookie(browser: Browser, app: AppServer) -> dict:
    """Log the demo parent in once through the UI; tests put the session cookie back."""
    from tests.e2e.helpers import open_page, sign_in

    context = browser.new_context(base_url=app.base_url)
    page = context.new_page()
    open_page(page, "/sign-in")
    sign_in(page, "parent@example.com", "Lunch@2026")
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
    cookie = next(c for c in context.cookies() if c["name"] == "hm_token")
    context.close()
    return cookie
