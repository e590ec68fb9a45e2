"""Converge's settings from the environment (hotmeals/converge/configured.py): the simulator
when no credentials are set, the demo or production host otherwise, and the PIN kept out of
errors, repr and plain HTTP."""

from __future__ import annotations

import pytest

from hotmeals.converge.configured import settings_from_env, simulator_pin, simulator_settings

CREDS = {
    "CONVERGE_MERCHANT_ID": "123456",
    "CONVERGE_USER_ID": "apiuser",
    "CONVERGE_PIN": "S3CRET-PIN-THAT-IS-LONG",
}


def test_no_credentials_means_the_simulator_under_the_public_url() -> None:
    settings = settings_from_env("http://localhost:1805/", environ={})
    assert settings.simulated
    assert settings.base_url == "http://localhost:1805/converge-sim"
    assert (settings.merchant_id, settings.user_id, settings.pin) == (
        "000000",
        "hotmeals",
        simulator_pin(),
    )
    assert len(settings.pin) == 64  # generated like a real Converge PIN, not written anywhere
    assert (
        settings.xml_url == "http://localhost:1805/converge-sim/VirtualMerchantDemo/processxml.do"
    )
    assert settings.lightbox_script_url.endswith("/converge-sim/hosted-payments/PayWithConverge.js")


def test_real_credentials_default_to_the_demo_host() -> None:
    settings = settings_from_env("http://localhost:1805", environ=CREDS)
    assert not settings.simulated
    assert settings.base_url == "https://api.demo.convergepay.com"
    assert settings.xml_path == "/VirtualMerchantDemo/processxml.do"
    assert not settings.is_production


def test_production_host_uses_the_production_xml_path() -> None:
    env = {**CREDS, "CONVERGE_BASE_URL": "https://api.convergepay.com/"}
    settings = settings_from_env("https://hotmeals.example", environ=env)
    assert settings.is_production
    assert settings.xml_url == "https://api.convergepay.com/VirtualMerchant/processxml.do"
    assert settings.session_token_url == (
        "https://api.convergepay.com/hosted-payments/transaction_token"
    )


def test_incomplete_credentials_are_refused_without_echoing_values() -> None:
    env = {"CONVERGE_MERCHANT_ID": "123456", "CONVERGE_PIN": "S3CRET-PIN-THAT-IS-LONG"}
    with pytest.raises(ValueError, match="CONVERGE_USER_ID") as info:
        settings_from_env("http://localhost:1805", environ=env)
    assert "S3CRET" not in str(info.value)


def test_real_credentials_are_never_sent_over_plain_http() -> None:
    env = {**CREDS, "CONVERGE_BASE_URL": "http://api.convergepay.com"}
    with pytest.raises(ValueError):
        settings_from_env("http://localhost:1805", environ=env)


def test_pin_is_not_in_repr_or_str() -> None:
    settings = settings_from_env("http://localhost:1805", environ=CREDS)
    assert "S3CRET" not in repr(settings)
    assert "S3CRET" not in str(settings)
    assert simulator_pin() not in repr(simulator_settings("http://localhost:1805"))
