"""Cache headers for the frontend's files: a parent's phone keeps what it already has.

- ``/parent/assets/...`` are Vite's build output, each name carrying a hash of its content: a
  new build gives new names, so a browser may keep them for a year without asking again
  (``immutable``).
- Everything else the frontend serves (the prerendered pages, logo, pictures, ``forms.js``) keeps
  its name across builds: the browser revalidates it (``no-cache``; the ETag/Last-Modified
  that Starlette sends make that a cheap 304).
- Anything outside the frontend (``/api``, ``/_event``, ``/ping``, the simulator) is left as
  its route answers it.

A page asked for without its trailing slash (``/parent/sign-in``, as a parent types it or an
e-mail links it) would be answered with a redirect to ``/parent/sign-in/`` by the static files:
one more round trip before anything paints on a phone. The middleware follows that redirect
itself and answers the page at once (the browser keeps the address it asked for; the pages'
links and assets are absolute, and the router matches both forms).

Installed as an ``api_transformer`` (``hotmeals/hotmeals.py``); it wraps Reflex's backend,
which in single-port prod also serves the built pages. An answer that already says
``cache-control`` keeps its own; errors (4xx/5xx) are never marked cacheable here.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from hotmeals.web.asgi import ASGIApp, Message, Receive, Scope, Send

FRONTEND = "/parent/"
HASHED_ASSETS = "/parent/assets/"
IMMUTABLE = b"public, max-age=31536000, immutable"
REVALIDATE = b"no-cache"
# Paths under /parent/ that are not the built frontend.
NOT_FRONTEND = ("/parent/_upload", "/parent/_event")
REDIRECTS = (301, 302, 307, 308)


def cache_control(path: str, status: int) -> bytes | None:
    """The Cache-Control an answer to ``path`` gets, or None to leave it alone."""
    if status >= 400 or not path.startswith(FRONTEND) or path.startswith(NOT_FRONTEND):
        return None
    return IMMUTABLE if path.startswith(HASHED_ASSETS) else REVALIDATE


class CacheHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")

        async def send_with_cache(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                value = cache_control(path, int(message.get("status", 200)))
                if value is not None and not any(
                    name.lower() == b"cache-control" for name, _ in headers
                ):
                    message = {**message, "headers": [*headers, (b"cache-control", value)]}
            await send(message)

        if not _may_be_a_page_folder(path):
            await self.app(scope, receive, send_with_cache)
            return

        redirected = False
        # Routers write into the scope they are given (root_path, route): ask again with a
        # copy of the scope as it came.
        as_it_came = dict(scope)

        async def unless_slash_redirect(message: Message) -> None:
            nonlocal redirected
            if message["type"] == "http.response.start" and _adds_a_slash(message, path):
                redirected = True
            if not redirected:
                await send_with_cache(message)

        await self.app(scope, receive, unless_slash_redirect)
        if redirected:
            slash = path + "/"
            again = {**as_it_came, "path": slash, "raw_path": slash.encode()}
            await self.app(again, _no_body(receive), send_with_cache)


def _may_be_a_page_folder(path: str) -> bool:
    last = path.rsplit("/", 1)[-1]
    return (
        path.startswith(FRONTEND)
        and not path.startswith((HASHED_ASSETS, *NOT_FRONTEND))
        and bool(last)
        and "." not in last
    )


def _adds_a_slash(start: Message, path: str) -> bool:
    if int(start.get("status", 200)) not in REDIRECTS:
        return False
    for name, value in start.get("headers", []):
        if name.lower() == b"location":
            return urlsplit(value.decode("latin-1")).path == path + "/"
    return False


def _no_body(receive: Receive) -> Receive:
    """The request again for the second call: a GET or HEAD has no body (the first call may
    have read the one message the server had); after it, the real channel (disconnects)."""
    sent = False

    async def receive_again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": b"", "more_body": False}
        return await receive()

    return receive_again


def cache_headers(app: ASGIApp) -> ASGIApp:
    """The ``api_transformer`` form."""
    return CacheHeaders(app)
