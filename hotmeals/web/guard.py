"""The ASGI layer in front of everything the backend serves: the pages (single-port prod
serves them from the same app), ``/api/v1``, Reflex's ``/_upload``, ``/_event`` and the
simulator. Installed as the last ``api_transformer`` (``hotmeals/hotmeals.py``), so it wraps
the FastAPI app and Reflex's own routes alike (docs/security.md, "HTTP edge").

- **Sizes.** A body declared larger than its limit (``Content-Length``) is refused with 413
  before one byte of it is read; a body without a length (chunked) is read here, counting, and
  refused the moment it passes the limit. Only a body within the limit reaches the app, so no
  route ever holds more than the limit in memory.
- **Uploads.** ``POST /_upload`` (Reflex's rx.upload endpoint) needs the session cookie of a
  signed-in parent, checked before the body is read: an anonymous upload is never read at all.
  The handler behind it still checks the token of its own state (``acting_parent``).
- **Headers.** Every answer carries the security headers of ``security_headers()``; scripts,
  stylesheets, fonts and raster images skip the three that only a rendered document uses.

Refusals use the API envelope ``{"code": 0, "message": ..., "data": null}`` in the language of
``Accept-Language``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from functools import lru_cache
from http.cookies import CookieError, SimpleCookie
from urllib.parse import urlsplit

from hotmeals.api.bodies import MAX_BODY_BYTES  # an API body: a picture in base64, and room
from hotmeals.converge.configured import settings_from_env
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import accounts
from hotmeals.services.profile import IMAGE_MAX_BYTES
from hotmeals.services.transaction import run_in_transaction
from hotmeals.settings import get_settings
from hotmeals.web.asgi import ASGIApp, Message, Receive, Scope, Send

# One picture (profile.IMAGE_MAX_BYTES) and its multipart wrapping.
UPLOAD_MAX_BYTES = IMAGE_MAX_BYTES + 64 * 1024
UPLOAD_PATH = "/_upload"
# The cookie AuthState keeps the session token in (ui/shared_state/auth.py).
TOKEN_COOKIE = "hm_token"


def body_limit(path: str) -> int:
    return UPLOAD_MAX_BYTES if path == UPLOAD_PATH else MAX_BODY_BYTES


# --- security headers -------------------------------------------------------------------------


def _origin(url: str) -> str | None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return f"{parts.scheme}://{parts.netloc}"


def _ws(origin: str) -> str:
    return "ws" + origin[len("http") :]  # http -> ws, https -> wss


def content_security_policy(*, public_base_url: str, api_url: str, converge_base_url: str) -> str:
    """The CSP of every answer.

    What the Reflex app needs and nothing more: its own scripts, styles and images (plus data:
    and blob: pictures, the preview of a chosen picture); the websocket and uploads to the
    backend (``api_url``, which may be another origin than the page in ``make dev``); Converge's
    Lightbox script, frame and form posts. What it cannot do without: React Router's prerendered
    pages carry inline scripts, emotion writes inline styles, and ``rx.call_script`` runs its
    code through ``eval`` (hence 'unsafe-inline' and 'unsafe-eval' for scripts). Nothing comes
    from any other origin, nothing is sent to one (connect-src, form-action), no plugin runs,
    ``<base>`` cannot move relative links, and no site can frame a page (frame-ancestors).
    """
    backend = [o for o in {_origin(public_base_url), _origin(api_url)} if o]
    connect = sorted({*backend, *(_ws(o) for o in backend)})
    converge = _origin(converge_base_url)
    extra = [converge] if converge else []
    directives = {
        "default-src": ["'self'"],
        "script-src": ["'self'", "'unsafe-inline'", "'unsafe-eval'", *extra],
        "style-src": ["'self'", "'unsafe-inline'", *extra],
        "img-src": ["'self'", "data:", "blob:", *extra],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'", *connect, *extra],
        "frame-src": ["'self'", *extra],
        "form-action": ["'self'", *extra],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
    return "; ".join(
        f"{name} {' '.join(dict.fromkeys(values))}" for name, values in directives.items()
    )


@lru_cache(maxsize=1)
def security_headers() -> tuple[tuple[bytes, bytes], ...]:
    """The headers added to every answer (computed once per process from the settings)."""
    settings = get_settings()
    api_url = os.environ.get("REFLEX_API_URL") or f"http://localhost:{settings.port}"
    try:
        converge = settings_from_env(settings.public_base_url).base_url
    except ValueError:
        converge = ""  # the start-up check reports it; no Converge origin is allowed meanwhile
    csp = content_security_policy(
        public_base_url=settings.public_base_url, api_url=api_url, converge_base_url=converge
    )
    headers = [
        (b"content-security-policy", csp.encode()),
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"strict-origin-when-cross-origin"),
        (b"cross-origin-opener-policy", b"same-origin-allow-popups"),
    ]
    if settings.public_base_url.startswith("https://"):
        # Only behind https: over plain http the header is ignored, and on localhost it would
        # pin a developer's browser to https for a year.
        headers.append((b"strict-transport-security", b"max-age=31536000; includeSubDomains"))
    return tuple(headers)


# --- the middleware ---------------------------------------------------------------------------


class _TooLarge(Exception):
    pass


class _Gone(Exception):
    pass


# The paths the FastAPI app answers (/api/v1, the calendar feed and files under it, the
# simulator): the guard hands them to it directly, past Reflex's routes and page middlewares.
API_PATHS = ("/api/", "/converge-sim/")


def is_api_path(path: str) -> bool:
    return path.startswith(API_PATHS)


class EdgeGuard:
    """ASGI middleware: sizes, the upload session check, security headers (module doc). With
    ``api``, also the backend's entry: a request under ``API_PATHS`` goes straight to ``api``
    (the FastAPI app), everything else to ``app`` (Reflex's pages, events and uploads)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        api: ASGIApp | None = None,
        authenticate: Callable[[str], Awaitable[bool]] | None = None,
    ) -> None:
        self.app = app
        self.api = api
        self._authenticate = authenticate or _session_is_valid

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_headers(send)
        headers = _headers(scope)
        lang = normalize_lang(headers.get("accept-language"))
        path = scope.get("path", "")
        limit = body_limit(path)

        declared = headers.get("content-length")
        if declared is not None:
            if not declared.strip().isdigit():
                await _refuse(send, 400, t("api.invalid_request", lang))
                return
            if int(declared) > limit:
                await _refuse(send, 413, t("body_too_large", lang))
                return
        if path == UPLOAD_PATH and scope.get("method") == "POST":
            token = _cookie(headers.get("cookie", ""), TOKEN_COOKIE)
            if not token or not await self._authenticate(token):
                await _refuse(send, 401, t("unauthorized", lang))
                return
        # Read even when no length is declared: a chunked body, or an HTTP/2 one, has none.
        try:
            body = await _read_within(receive, limit)
        except _TooLarge:
            await _refuse(send, 413, t("body_too_large", lang))
            return
        except _Gone:
            return
        inner = self.api if self.api is not None and is_api_path(path) else self.app
        await inner(scope, _replay(body, receive), send)


def backend_entry(api: ASGIApp) -> Callable[[ASGIApp], ASGIApp]:
    """The last ``api_transformer`` (``hotmeals/hotmeals.py``): the guard in front of
    everything, handing /api/v1 to ``api`` and the rest to Reflex's app as transformed."""

    def entry(app: ASGIApp) -> ASGIApp:
        return EdgeGuard(app, api=api)

    return entry


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _cookie(header: str, name: str) -> str | None:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except CookieError:
        return None
    morsel = jar.get(name)
    return morsel.value if morsel is not None and morsel.value else None


async def _session_is_valid(token: str) -> bool:
    try:
        await run_in_transaction(accounts.authenticate, token=token)
    except accounts.Unauthorized:
        return False
    return True


async def _read_within(receive: Receive, limit: int) -> bytes:
    """The whole body, read chunk by chunk; ``_TooLarge`` as soon as it passes ``limit``."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise _Gone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the app the body read here, then the client's later messages
    (a streaming answer waits on them for the disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


# Headers that only mean something on a document a browser renders (the page, an API answer
# opened in a tab, an SVG opened on its own): a script, a stylesheet or a font does not run a
# CSP or sit in a frame. Leaving them off the ~25 static files of a first load saves ~15 KiB
# of headers on a phone; nosniff, Referrer-Policy and HSTS stay on everything.
_DOCUMENT_ONLY = frozenset(
    {b"content-security-policy", b"x-frame-options", b"cross-origin-opener-policy"}
)
_STATIC_TYPES = (b"text/css", b"font/", b"application/wasm")


def _is_static_file(headers: list[tuple[bytes, bytes]]) -> bool:
    kind = next((v.lower() for k, v in headers if k.lower() == b"content-type"), b"")
    if b"javascript" in kind or kind.startswith(_STATIC_TYPES):
        return True
    return kind.startswith(b"image/") and not kind.startswith(b"image/svg")


def _with_headers(send: Send) -> Send:
    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers", [])}
            static = _is_static_file(message.get("headers", []))
            added = [
                (k, v)
                for k, v in security_headers()
                if k not in present and not (static and k in _DOCUMENT_ONLY)
            ]
            message = {**message, "headers": [*message.get("headers", []), *added]}
        await send(message)

    return send_with_headers


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"code": 0, "message": message, "data": None}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                # The rest of a refused body is not read: tell the client not to reuse the
                # connection (the server closes it rather than drain hundreds of megabytes).
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
