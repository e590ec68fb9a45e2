"""Bodies refused before they are read whole, and security headers on every answer: the ASGI guard
in front of the whole backend (hotmeals.web.guard.py), attacked at the ASGI level.

Oversized bodies come from generators, so neither the test nor the server ever holds them;
each test counts how much of the body the server pulled before it answered.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from hotmeals.api.app import create_api
from hotmeals.i18n import t
from hotmeals.settings import get_settings
from hotmeals.web.guard import (
    MAX_BODY_BYTES,
    UPLOAD_MAX_BYTES,
    EdgeGuard,
    content_security_policy,
    security_headers,
)
from tests.api.helpers import headers, quick_token

MB = 1024 * 1024
HUGE = 300 * MB
CHUNK = 64 * 1024


@pytest.fixture(scope="module")
def api_backend() -> str:
    """SQLite only (the API conftest runs a module on both): the guard answers before any
    route or query runs, and the session checks it makes are the ones tests/api/test_auth_api.py
    runs on both databases."""
    return "sqlite"


@pytest.fixture(scope="module")
def guarded(database) -> Iterator[TestClient]:
    with TestClient(EdgeGuard(create_api())) as test_client:
        yield test_client


class Body:
    """An ASGI ``receive`` that streams ``total`` bytes in chunks, made on demand, and counts
    how many the server pulled."""

    def __init__(self, total: int, chunk: int = CHUNK) -> None:
        self.total, self.chunk, self.pulled = total, chunk, 0

    async def __call__(self):
        if self.pulled >= self.total:
            await asyncio.Event().wait()  # the client waits for the answer
        size = min(self.chunk, self.total - self.pulled)
        self.pulled += size
        return {"type": "http.request", "body": b"{" * size, "more_body": self.pulled < self.total}


class Inner:
    """A stand-in for the app behind the guard: records whether a request reached it."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    async def __call__(self, scope, receive, send):
        message = await receive()
        self.bodies.append(message["body"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"stored"})


def call(app, path: str, body: Body, *, length: int | None, cookie: str | None = None, lang="en"):
    """One POST through ``app``; returns (status, parsed JSON or raw body, headers)."""
    raw = [(b"accept-language", lang.encode()), (b"api-key", b"hotmeals-test-key")]
    if length is not None:
        raw.append((b"content-length", str(length).encode()))
    else:
        raw.append((b"transfer-encoding", b"chunked"))
    if cookie:
        raw.append((b"cookie", cookie.encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": raw,
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    asyncio.run(asyncio.wait_for(app(scope, body, send), timeout=60))
    start = next(m for m in sent if m["type"] == "http.response.start")
    content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    try:
        parsed = json.loads(content)
    except ValueError:
        parsed = content
    return start["status"], parsed, {k.decode(): v.decode() for k, v in start["headers"]}


# --- bodies -----------------------------------------------------------------------------------


def test_a_declared_300_mb_login_is_refused_before_a_byte_is_read(database):
    body = Body(HUGE)
    status, answer, _ = call(
        EdgeGuard(create_api()), "/api/v1/Parent/auth/Login", body, length=HUGE
    )
    assert status == 413
    assert answer == {"code": 0, "message": "The request is too large.", "data": None}
    assert body.pulled == 0


def test_a_chunked_300_mb_login_is_refused_as_soon_as_it_passes_the_limit(database):
    body = Body(HUGE)
    status, answer, _ = call(
        EdgeGuard(create_api()), "/api/v1/Parent/auth/Login", body, length=None
    )
    assert status == 413
    assert answer["code"] == 0 and answer["message"] == "The request is too large."
    assert body.pulled <= MAX_BODY_BYTES + CHUNK


def test_a_refusal_is_in_french_for_a_french_client(database):
    status, answer, _ = call(
        EdgeGuard(create_api()), "/api/v1/Parent/auth/Login", Body(HUGE), length=HUGE, lang="fr"
    )
    assert status == 413
    assert answer["message"] == "La requête est trop volumineuse."


def test_a_chunked_body_within_the_limit_still_reaches_the_route(guarded):
    def pieces():
        text = json.dumps({"email": "nobody@example.org", "password": "Wrong-pass1!"})
        for i in range(0, len(text), 7):
            yield text[i : i + 7].encode()

    response = guarded.post("/api/v1/Parent/auth/Login", content=pieces(), headers=headers())
    assert response.status_code == 200
    # The route read the whole body and checked the password.
    assert response.json() == {"code": 0, "message": t("login_invalid", "en"), "data": None}


# --- Reflex's /_upload ------------------------------------------------------------------------


def test_an_anonymous_upload_is_refused_before_its_body_is_read(database):
    inner, body = Inner(), Body(HUGE)
    status, answer, _ = call(EdgeGuard(inner), "/_upload", body, length=None)
    assert status == 401
    assert answer["code"] == 0 and answer["message"]
    assert body.pulled == 0 and inner.bodies == []


def test_an_upload_with_a_forged_session_cookie_is_refused_unread(database):
    inner, body = Inner(), Body(1000)
    status, _, _ = call(EdgeGuard(inner), "/_upload", body, length=1000, cookie="hm_token=forged")
    assert status == 401
    assert body.pulled == 0 and inner.bodies == []


def test_a_signed_in_upload_over_the_picture_limit_is_refused_unread(database):
    cookie = f"lang=en; hm_token={quick_token()}"
    inner, body = Inner(), Body(HUGE)
    status, answer, _ = call(EdgeGuard(inner), "/_upload", body, length=HUGE, cookie=cookie)
    assert status == 413 and answer["message"] == "The request is too large."
    assert body.pulled == 0 and inner.bodies == []
    # Without a length it is cut off at the limit.
    inner, body = Inner(), Body(HUGE)
    status, _, _ = call(EdgeGuard(inner), "/_upload", body, length=None, cookie=cookie)
    assert status == 413
    assert body.pulled <= UPLOAD_MAX_BYTES + CHUNK and inner.bodies == []


def test_a_signed_in_upload_within_the_limit_reaches_reflex(database):
    cookie = f"hm_token={quick_token()}"
    inner, body = Inner(), Body(200 * 1024)
    status, answer, _ = call(EdgeGuard(inner), "/_upload", body, length=None, cookie=cookie)
    assert status == 200 and answer == b"stored"
    assert [len(b) for b in inner.bodies] == [200 * 1024]


# --- security headers -------------------------------------------------------------------------


def test_api_answers_carry_the_security_headers(guarded):
    for response in (
        guarded.get("/api/v1/health"),
        guarded.post("/api/v1/Parent/auth/Login", content=b"{}", headers=headers()),
        guarded.get("/api/v1/no-such-thing"),
    ):
        csp = response.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp
        assert "object-src 'none'" in csp
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "strict-origin-when-cross-origin"
        # Served over plain http: no HSTS (it would pin localhost to https).
        assert "strict-transport-security" not in response.headers


def test_refusals_of_the_guard_carry_them_too(database):
    status, _, sent_headers = call(
        EdgeGuard(create_api()), "/api/v1/Parent/auth/Login", Body(HUGE), length=HUGE
    )
    assert status == 413
    assert sent_headers["x-frame-options"] == "DENY"


def test_hsts_only_when_the_public_address_is_https(database, monkeypatch):
    monkeypatch.setenv("PUBLIC_BASE_URL", "https://meals.example.org")
    get_settings.cache_clear()
    security_headers.cache_clear()
    try:
        sent = dict(security_headers())
        assert sent[b"strict-transport-security"].startswith(b"max-age=31536000")
        assert b"https://meals.example.org" in sent[b"content-security-policy"]
        assert b"wss://meals.example.org" in sent[b"content-security-policy"]
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
        security_headers.cache_clear()


def test_the_csp_lets_the_app_reach_its_backend_and_converge_and_nothing_else():
    csp = content_security_policy(
        public_base_url="http://localhost:1805",
        api_url="http://localhost:1805",
        converge_base_url="https://api.convergepay.com",
    )
    directives = dict(d.split(" ", 1) for d in csp.split("; "))
    assert directives["default-src"] == "'self'"
    assert directives["connect-src"].split() == [
        "'self'",
        "http://localhost:1805",
        "ws://localhost:1805",
        "https://api.convergepay.com",
    ]
    assert "https://api.convergepay.com" in directives["script-src"]
    assert "https://api.convergepay.com" in directives["frame-src"]
    assert directives["img-src"].split()[:3] == ["'self'", "data:", "blob:"]
    assert directives["frame-ancestors"] == "'none'"
    assert "*" not in csp


def _static_app(content_type: str):
    async def app(scope, receive, send):
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", content_type.encode())],
            }
        )
        await send({"type": "http.response.body", "body": b"x"})

    return app


@pytest.mark.parametrize(
    ("content_type", "document"),
    [
        ("text/html; charset=utf-8", True),
        ("application/json", True),
        ("image/svg+xml", True),  # an SVG opened on its own can run script: it keeps the CSP
        ("text/javascript; charset=utf-8", False),
        ("application/javascript", False),
        ("text/css", False),
        ("font/woff2", False),
        ("image/png", False),
    ],
)
def test_document_headers_go_on_documents_and_not_on_static_files(database, content_type, document):
    answer = TestClient(EdgeGuard(_static_app(content_type))).get("/parent/assets/file")
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"]
    for name in ("content-security-policy", "x-frame-options", "cross-origin-opener-policy"):
        assert (name in answer.headers) is document, (content_type, name)
