"""The HTTP edge on the real single-port prod server (granian): security headers on pages and the
API, a CSP the app runs under without a violation, the demo banner on every page, and bodies
refused before they are read (raw sockets, so the test decides how much it sends)."""

from __future__ import annotations

import select
import socket

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.helpers import open_page, switch_language
from tests.e2e.server import AppServer

API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}
MB = 1024 * 1024


def test_pages_and_api_carry_the_security_headers(app: AppServer):
    for url in (app.url("/"), app.url("/sign-in"), f"{app.base_url}/api/v1/health"):
        headers = httpx.get(url, timeout=30).headers
        csp = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp, url
        assert f"ws://localhost:{app.port}" in csp  # the websocket to the backend
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "strict-origin-when-cross-origin"
        assert "strict-transport-security" not in headers  # http://localhost: no HSTS


def test_the_app_runs_under_its_csp_without_a_violation(page: Page):
    violations: list[str] = []
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )
    open_page(page, "/")  # hydrated: the scripts ran and the websocket is up
    switch_language(page)  # an event over the websocket, its answer rendered
    expect(page.get_by_role("heading", level=1)).to_contain_text("dîners chauds")
    open_page(page, "/sign-in")
    assert violations == []


def test_demo_mode_shows_its_banner_on_every_page_in_both_languages(page: Page):
    banner = page.get_by_role("note", name="Demo mode")
    for path in ("/", "/sign-in", "/this/does-not-exist"):
        page.goto(f"/parent{path}")
        expect(banner).to_have_text("Demo — payments are simulated")
        # It never widens the page (390 px included).
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    open_page(page, "/")
    switch_language(page)
    expect(page.get_by_role("note", name="Mode démo")).to_have_text(
        "Démo — les paiements sont simulés"
    )


# --- bodies -----------------------------------------------------------------------------------


def _answer_while_sending(
    app: AppServer, head: str, chunks, *, give_up_after: int = 200 * MB
) -> tuple[str, int]:
    """Send ``head`` then ``chunks`` until the server answers; (status line, bytes sent)."""
    sent = 0
    with socket.create_connection(("127.0.0.1", app.port), timeout=60) as sock:
        sock.sendall(head.encode())
        for chunk in chunks:
            readable, _, _ = select.select([sock], [], [], 0)
            if readable or sent > give_up_after:
                break
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
        sock.settimeout(60)
        try:
            answer = sock.recv(65536).decode("latin-1")
        except ConnectionResetError:
            answer = "connection reset before an answer"
    return answer.split("\r\n", 1)[0], sent


def _zeros(total: int, size: int = 64 * 1024):
    block = b" " * size
    for _ in range(total // size):
        yield block


def _chunked(total: int, size: int = 64 * 1024):
    block = f"{size:x}\r\n".encode() + b" " * size + b"\r\n"
    for _ in range(total // size):
        yield block


def test_a_declared_300_mb_login_is_refused_before_the_body_is_sent(app: AppServer):
    head = (
        "POST /api/v1/Parent/auth/Login HTTP/1.1\r\nHost: localhost\r\n"
        "api-key: hotmeals-dev-key\r\ncontent-type: text/plain\r\n"
        f"Content-Length: {300 * MB}\r\n\r\n"
    )
    status, sent = _answer_while_sending(app, head, _zeros(300 * MB))
    assert status.startswith("HTTP/1.1 413"), status
    assert sent < 64 * MB  # the answer came long before the body; the rest was never read


def test_a_chunked_300_mb_login_is_refused_once_past_the_limit(app: AppServer):
    head = (
        "POST /api/v1/Parent/auth/Login HTTP/1.1\r\nHost: localhost\r\n"
        "api-key: hotmeals-dev-key\r\ncontent-type: text/plain\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    status, sent = _answer_while_sending(app, head, _chunked(300 * MB))
    assert status.startswith("HTTP/1.1 413"), status
    assert sent < 64 * MB


def test_an_anonymous_300_mb_upload_is_refused_before_it_is_read(app: AppServer):
    head = (
        "POST /_upload HTTP/1.1\r\nHost: localhost\r\n"
        "reflex-client-token: 00000000-0000-0000-0000-000000000000\r\n"
        "reflex-event-handler: whatever\r\n"
        "content-type: multipart/form-data; boundary=x\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    status, sent = _answer_while_sending(app, head, _chunked(300 * MB))
    assert status.startswith("HTTP/1.1 401"), status
    assert sent < 64 * MB


def test_a_signed_in_upload_declaring_300_mb_is_refused_unread(app: AppServer):
    login = httpx.post(
        f"{app.base_url}/api/v1/Parent/auth/Login",
        json={"email": "parent@example.com", "password": "Lunch@2026"},
        headers=API_HEADERS,
        timeout=60,
    ).json()
    token = login["data"]["token"]
    head = (
        "POST /_upload HTTP/1.1\r\nHost: localhost\r\n"
        f"Cookie: hm_token={token}\r\n"
        "reflex-client-token: 00000000-0000-0000-0000-000000000000\r\n"
        "reflex-event-handler: whatever\r\n"
        "content-type: multipart/form-data; boundary=x\r\n"
        f"Content-Length: {300 * MB}\r\n\r\n"
    )
    status, sent = _answer_while_sending(app, head, _zeros(300 * MB))
    assert status.startswith("HTTP/1.1 413"), status
    assert sent < 64 * MB
    httpx.post(
        f"{app.base_url}/api/v1/Parent/auth/Logout",
        headers={**API_HEADERS, "token": token},
        timeout=30,
    )
