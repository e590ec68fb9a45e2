"""The local Converge simulator is served at /converge-sim only when no Converge credentials are
set; with real credentials it is not mounted at all."""

from __future__ import annotations

from fastapi.testclient import TestClient

from hotmeals.api.app import create_api
from hotmeals.settings import get_settings

LIGHTBOX = "/converge-sim/hosted-payments/PayWithConverge.js"
REAL = {
    "CONVERGE_MERCHANT_ID": "0123456",
    "CONVERGE_USER_ID": "apiuser",
    "CONVERGE_PIN": "X" * 64,
    "CONVERGE_BASE_URL": "https://api.demo.convergepay.com",
}


def _mounted_paths(api) -> set[str]:
    return {getattr(r, "path", "") for r in api.routes}


def test_without_credentials_the_simulator_is_served(monkeypatch):
    for name in REAL:
        monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    api = create_api()
    assert "/converge-sim" in _mounted_paths(api)
    with TestClient(api) as client:
        script = client.get(LIGHTBOX)
    assert script.status_code == 200
    assert "PayWithConverge" in script.text
    # The test controls stay closed unless CONVERGE_SIM_CONTROL=1.
    with TestClient(api) as client:
        assert client.post("/converge-sim/_sim/settle").status_code == 404


def test_with_real_credentials_the_simulator_is_not_mounted(monkeypatch):
    for name, value in REAL.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    api = create_api()
    assert "/converge-sim" not in _mounted_paths(api)
    with TestClient(api) as client:
        answer = client.get(LIGHTBOX)
    assert answer.status_code == 404
    assert answer.json()["code"] == 0
