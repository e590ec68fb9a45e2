"""The ``hm_token`` cookie is Secure when parents use https, and the demo banner is on
the pages only in demo mode. The cookie's options are compiled into the frontend from the State
class, whose definition reads the settings: each case compiles it in a fresh interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hotmeals.settings import get_settings

ROOT = Path(__file__).resolve().parents[2]
COMPILE = """
import json
from hotmeals.ui.shared_state.auth import AuthState
from reflex.compiler.utils import compile_client_storage
cookies = compile_client_storage(AuthState)["cookies"]
print(json.dumps([c for c in cookies.values() if c["name"] == "hm_token"]))
"""


def _compiled_cookie(public_base_url: str) -> dict:
    env = {**os.environ, "PUBLIC_BASE_URL": public_base_url, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", COMPILE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    (cookie,) = json.loads(out.stdout.strip().splitlines()[-1])
    return cookie


@pytest.mark.parametrize(
    ("public_base_url", "secure"),
    [("https://meals.example.org", True), ("http://localhost:1805", False)],
)
def test_the_session_cookie_is_secure_exactly_when_served_over_https(public_base_url, secure):
    cookie = _compiled_cookie(public_base_url)
    assert cookie["secure"] is secure
    assert cookie["sameSite"] == "lax"


def test_the_demo_banner_is_built_only_in_demo_mode(monkeypatch):
    from hotmeals.ui.components.layout import demo_banner

    try:
        monkeypatch.setenv("HOTMEALS_MODE", "production")
        get_settings.cache_clear()
        assert demo_banner() is None
        monkeypatch.setenv("HOTMEALS_MODE", "demo")
        get_settings.cache_clear()
        banner = demo_banner()
        assert banner is not None
        rendered = str(banner)
        assert 'role:"note"' in rendered
        assert "Demo \\u2014 payments are simulated" in rendered
        assert "D\\u00e9mo \\u2014 les paiements sont simul\\u00e9s" in rendered
    finally:
        monkeypatch.undo()
        get_settings.cache_clear()
