"""hotmeals/ui/backend_url.py: when a build's backend is the page's origin, and the patch of
Reflex's own getBackendURL (the installed template, so a Reflex upgrade that moves the line
fails here, not on a server on another port)."""

from __future__ import annotations

from pathlib import Path

import pytest
import reflex_base

from hotmeals.ui.backend_url import MARKER, backend_is_page_origin, patch_state_js

TEMPLATE = Path(reflex_base.__file__).parent / ".templates" / "web" / "utils" / "state.js"


@pytest.mark.parametrize(
    ("api_url", "frontend_port", "mode", "expected"),
    [
        ("http://localhost:1805", 1805, "prod", True),  # make run: one port
        ("http://localhost:41234", 41234, "preview", True),
        ("http://0.0.0.0:1805", 1805, "prod", True),
        ("https://localhost", 443, "prod", True),
        ("http://localhost:8000", 3000, "prod", False),  # backend on another port
        ("http://localhost:1805", 1805, "dev", False),  # make dev: Vite serves the pages
        ("https://api.hotmeals.example", 443, "prod", False),  # a backend on another host
        ("http://127.0.0.1:1805", 1805, "prod", False),  # Reflex keeps an IP host as is
        ("http://localhost:1805", None, "prod", False),
    ],
)
def test_the_backend_is_the_page_origin_only_on_one_same_domain_port(
    api_url: str, frontend_port: int | None, mode: str, expected: bool
) -> None:
    assert backend_is_page_origin(api_url, frontend_port, mode) is expected


def test_get_backend_url_takes_the_page_port_under_the_flag() -> None:
    source = TEMPLATE.read_text()
    patched = patch_state_js(source)
    start = patched.index("export const getBackendURL")
    body = patched[start : patched.index("\n};\n", start)]
    # The page's port, after its hostname, only when env.json says the backend is the page's
    # origin; https still drops the port afterwards (a load balancer on 443).
    assert "if (env.SAME_ORIGIN_BACKEND) endpoint.port = window.location.port;" in body
    assert body.index("endpoint.hostname = frontend_hostname;") < body.index(MARKER)
    assert body.index(MARKER) < body.index('endpoint.port = "";')
    assert patched.count(MARKER) == 1
    assert patch_state_js(patched) == patched  # each compile runs it again


def test_an_unknown_state_js_stops_the_build() -> None:
    with pytest.raises(RuntimeError, match="getBackendURL"):
        patch_state_js("export const getBackendURL = (url) => new URL(url);\n")
