"""The page in the parent's language from the first byte (hotmeals/ui/lang_paint.py).

The build writes a French copy beside every prerendered page (``sign-in/index.fr.html`` beside
``sign-in/index.html``, each with its ``.br`` and ``.gz``). When the request carries the cookie
``hm_lang=fr`` (the stored choice, mirrored by a script in the page's head), this middleware
asks the static files for the French copy instead: the same lookup, so the precompressed
variant that ``Accept-Encoding`` picks, the ETag and the 304 all work as for the English page.
Anything else is left alone: English visitors get the same files as before, a page without a
French copy (the not-found page, a path only the router knows) is answered as before, and the
assets are never touched. Page answers say ``Vary: Cookie``, so no cache gives one language's
page to the other.

Installed as an ``api_transformer`` inside the cache headers (``hotmeals/hotmeals.py``), which
still see the address the browser asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from http.cookies import CookieError, SimpleCookie
from pathlib import Path

from hotmeals.web.asgi import ASGIApp, Message, Receive, Scope, Send

FRONTEND = "/parent/"
NOT_PAGES = ("/parent/assets/", "/parent/_upload", "/parent/_event")
COOKIE = "hm_lang"  # hotmeals/ui/lang_paint.py writes it from the head script
FRENCH_SUFFIX = ".fr.html"


def is_page_path(path: str) -> bool:
    """A request the static files may answer with a prerendered page."""
    if not path.startswith(FRONTEND) or path.startswith(NOT_PAGES) or ".." in path:
        return False
    last = path.rsplit("/", 1)[-1]
    return "." not in last or (last.endswith(".html") and not last.endswith(FRENCH_SUFFIX))


def wants_french(scope: Scope) -> bool:
    for name, value in scope.get("headers", []):
        if name != b"cookie":
            continue
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(value.decode("latin-1"))
        except CookieError:
            continue
        if COOKIE in jar:
            return jar[COOKIE].value == "fr"
    return False


def english_file(rel: str) -> str | None:
    """The page file the static files serve for ``rel`` (the path under /parent/), as
    Starlette's html mode looks it up: a folder's index.html when asked with its slash (without
    it, they redirect first), or an .html file by its name; None for anything else."""
    if rel == "" or rel.endswith("/"):
        return rel + "index.html"
    return rel if rel.endswith(".html") else None


def french_path(path: str, static_dir: Path) -> str | None:
    """The request path of the French copy of the page at ``path``, if the build made one."""
    page = english_file(path[len(FRONTEND) :])
    if page is None:
        return None
    french = page[: -len(".html")] + FRENCH_SUFFIX
    return FRONTEND + french if (static_dir / french).is_file() else None


def _frontend_dir() -> Path:
    """Where single-port prod serves the built pages from (reflex.utils.exec.get_frontend_mount)."""
    from reflex import constants
    from reflex.config import get_config
    from reflex.utils import prerequisites

    return (
        prerequisites.get_web_dir() / constants.Dirs.STATIC / get_config().frontend_path.strip("/")
    ).resolve()


def _with_vary_cookie(message: Message) -> Message:
    headers = list(message.get("headers", []))
    for i, (name, value) in enumerate(headers):
        if name.lower() == b"vary":
            if b"cookie" not in value.lower():
                headers[i] = (name, value + b", Cookie")
            break
    else:
        headers.append((b"vary", b"Cookie"))
    return {**message, "headers": headers}


class LangPages:
    def __init__(self, app: ASGIApp, static_dir: Callable[[], Path] = _frontend_dir) -> None:
        self.app = app
        self._static_dir = static_dir
        self._dir: Path | None = None

    def static_dir(self) -> Path:
        if self._dir is None:
            self._dir = self._static_dir()
        return self._dir

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope.get("method") not in ("GET", "HEAD")
            or not is_page_path(path)
        ):
            await self.app(scope, receive, send)
            return

        async def send_vary(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = _with_vary_cookie(message)
            await send(message)

        if wants_french(scope):
            french = french_path(path, self.static_dir())
            if french is not None:
                scope = {**scope, "path": french, "raw_path": french.encode()}
        await self.app(scope, receive, send_vary)


def lang_pages(app: ASGIApp) -> ASGIApp:
    """The ``api_transformer`` form."""
    return LangPages(app)
