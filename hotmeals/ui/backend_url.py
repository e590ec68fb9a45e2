"""The backend is the page's own origin when the app is served on one port.

``make run`` serves the built frontend and the backend on the same port (``reflex run --env prod
--single-port``). Reflex still bakes the backend's address into the build (``api_url``,
``http://localhost:PORT``, in ``env.json``); its ``getBackendURL`` already puts the page's
hostname in place of ``localhost``, but keeps the built port. So a build only worked on the
port it was built for: behind a proxy on another port, or started again on another port, its
websocket and uploads went to the old port.

This plugin makes such a build follow the page: when the configured backend is a same-domain
host on the frontend's own port (one port: the backend is the origin that served the page),
``env.json`` says so (``SAME_ORIGIN_BACKEND``) and the patched ``getBackendURL`` also takes the
page's port. The websocket, uploads and pings then reach the server that served the page,
whatever its port; the build itself holds no port any more, so one build can be served on any
port (tests/e2e/server.py builds once per test session). ``make dev`` (frontend and backend on
two ports) and a backend on another host keep Reflex's behaviour: the flag is false there.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import reflex as rx

STATE_JS = "utils/state.js"
FLAG = "SAME_ORIGIN_BACKEND"
# Reflex's SAME_DOMAIN_HOSTNAMES (utils/state.js): the hostnames it replaces by the page's.
SAME_DOMAIN_HOSTNAMES = frozenset({"localhost", "0.0.0.0", "::", "0:0:0:0:0:0:0:0"})
_ANCHOR = "    endpoint.hostname = frontend_hostname;\n"
MARKER = "// hotmeals backend_url:"
_PATCH = (
    f"    {MARKER} served on one port, the backend is the page's origin (any port).\n"
    f"    if (env.{FLAG}) endpoint.port = window.location.port;\n"
)


def backend_is_page_origin(api_url: str, frontend_port: int | None, env_mode: str) -> bool:
    """True when a production build's backend is the origin that serves its pages: ``api_url``
    names a same-domain host (the page's host, in Reflex's getBackendURL) on the frontend's
    own port, in prod or preview mode (where Reflex serves the build from the backend)."""
    if env_mode not in ("prod", "preview") or not frontend_port:
        return False
    parts = urlsplit(api_url)
    try:
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    except ValueError:
        return False
    return (parts.hostname or "") in SAME_DOMAIN_HOSTNAMES and port == frontend_port


def patch_state_js(source: str) -> str:
    """Reflex's state.js with getBackendURL taking the page's port under the flag (idempotent).

    Raises RuntimeError when the expected line is missing (another Reflex version): a build
    that silently kept the baked port would only fail later, on another port."""
    if MARKER in source:
        return source
    if source.count(_ANCHOR) != 1:
        raise RuntimeError(
            "backend_url plugin: utils/state.js has no single 'endpoint.hostname = "
            "frontend_hostname;' line (Reflex's getBackendURL changed); update the patch"
        )
    return source.replace(_ANCHOR, _ANCHOR + _PATCH)


class SameOriginBackendPlugin(rx.plugins.Plugin):
    def pre_compile(self, **context: Any) -> None:
        context["add_modify_task"](STATE_JS, patch_state_js)

    def update_env_json(self, **context: Any) -> dict[str, Any]:
        from reflex_base.config import get_config
        from reflex_base.environment import environment

        config = get_config()
        mode = environment.REFLEX_ENV_MODE.get()
        # Always written, false too: Reflex merges into the env.json of the last run.
        return {
            FLAG: backend_is_page_origin(
                config.api_url, config.frontend_port, getattr(mode, "value", str(mode))
            )
        }
