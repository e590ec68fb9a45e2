"""Production fails closed: HOTMEALS_MODE=production refuses to start without real
Converge credentials over https, SMTP, a secret API key and an https public address; demo mode
(the default) announces itself."""

from __future__ import annotations

import logging

import pytest

from hotmeals.mode import ProductionConfigError, check_mode, production_problems
from hotmeals.settings import load_settings

READY = {
    "HOTMEALS_MODE": "production",
    "CONVERGE_MERCHANT_ID": "0021550",
    "CONVERGE_USER_ID": "apiuser",
    "CONVERGE_PIN": "P" * 64,
    "CONVERGE_BASE_URL": "https://api.convergepay.com",
    "SMTP_HOST": "smtp.example.org",
    "HOTMEALS_API_KEY": "k" * 32,
    "PUBLIC_BASE_URL": "https://meals.example.org",
    "HOTMEALS_HST_NUMBER": "987654321 RT0001",
    "HOTMEALS_FEED_SECRET": "f" * 32,
}


@pytest.fixture
def env(monkeypatch):
    # HOTMEALS_NOW too: `make test-dates` sets it, and production refuses a set clock.
    # HOTMEALS_PASSWORD_HASH_COST: the suite lowers it (tests/conftest.py).
    names = ("CONVERGE_SIM_CONTROL", "CONVERGE_SIM_PIN", "SMTP_PORT", "HOTMEALS_NOW")
    for name in (*READY, *names, "HOTMEALS_PASSWORD_HASH_COST"):
        monkeypatch.delenv(name, raising=False)

    def apply(values: dict[str, str]):
        for key, value in values.items():
            monkeypatch.setenv(key, value)
        return load_settings()

    return apply


def refusal(settings) -> str:
    with pytest.raises(ProductionConfigError) as caught:
        check_mode(settings)
    return str(caught.value)


def test_production_with_everything_real_starts(env):
    settings = env(READY)
    assert production_problems(settings) == []
    assert check_mode(settings) == "production"


def test_production_refuses_a_lowered_password_hash_cost(env):
    settings = env({**READY, "HOTMEALS_PASSWORD_HASH_COST": "low"})
    assert production_problems(settings) == [
        "HOTMEALS_PASSWORD_HASH_COST must not be lowered: production hashes at full cost"
    ]
    assert production_problems(env({**READY, "HOTMEALS_PASSWORD_HASH_COST": "standard"})) == []


def test_production_with_nothing_set_refuses_naming_every_missing_piece(env):
    message = refusal(env({"HOTMEALS_MODE": "production"}))
    assert message.startswith("HOTMEALS_MODE=production refuses to start")
    for name in (
        "CONVERGE_PIN",
        "SMTP_HOST",
        "HOTMEALS_API_KEY",
        "PUBLIC_BASE_URL",
        "HOTMEALS_HST_NUMBER",
        "HOTMEALS_FEED_SECRET",
    ):
        assert name in message


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"CONVERGE_PIN": ""}, "CONVERGE_PIN"),  # some credentials: no silent simulator
        ({"CONVERGE_BASE_URL": "http://converge.example.org"}, "https"),
        ({"CONVERGE_BASE_URL": "http://localhost:9000"}, "CONVERGE_BASE_URL must be an https"),
        ({"SMTP_HOST": ""}, "SMTP_HOST"),
        ({"HOTMEALS_API_KEY": "hotmeals-dev-key"}, "HOTMEALS_API_KEY"),
        ({"HOTMEALS_API_KEY": "short"}, "HOTMEALS_API_KEY"),
        ({"PUBLIC_BASE_URL": "http://meals.example.org"}, "PUBLIC_BASE_URL"),
        ({"CONVERGE_SIM_CONTROL": "1"}, "CONVERGE_SIM_CONTROL"),
    ],
)
def test_production_refuses_each_missing_or_unsafe_piece(env, change, named):
    message = refusal(env({**READY, **change}))
    assert named in message
    assert message.count("\n  - ") == 1  # that one problem and no other


def test_production_without_converge_credentials_never_uses_the_simulator(env):
    values = {k: v for k, v in READY.items() if not k.startswith("CONVERGE_")}
    message = refusal(env(values))
    assert "simulator" in message


def test_demo_is_the_default_and_says_so_in_the_log(env, caplog):
    settings = env({"HOTMEALS_MODE": ""})
    assert settings.mode == "demo" and not settings.production
    with caplog.at_level(logging.WARNING, logger="hotmeals.mode"):
        assert check_mode(settings) == "demo"
    assert "DEMO MODE: payments are simulated" in caplog.text


def test_an_unknown_mode_stops_the_start(env):
    with pytest.raises(ValueError, match="HOTMEALS_MODE must be demo or production"):
        env({"HOTMEALS_MODE": "prod"})


def test_demo_defaults_for_receipts_and_feeds_only_in_demo(env):
    demo = env({"HOTMEALS_MODE": "demo"})
    assert demo.hst_number and demo.feed_secret
    prod = env({**READY, "HOTMEALS_HST_NUMBER": "", "HOTMEALS_FEED_SECRET": ""})
    assert prod.hst_number == ""
    message = refusal(prod)
    assert "HOTMEALS_HST_NUMBER" in message and "HOTMEALS_FEED_SECRET" in message
