"""Production fails closed: in production mode no sign-up code and no session token
is ever written to a log, even when the SMTP server is down; in demo mode (the control) the
code is in the log, where ``make run`` shows it."""

from __future__ import annotations

import logging
import socket
import uuid

import pytest

from hotmeals.services import mail
from hotmeals.settings import get_settings
from tests.api.helpers import last_otp, new_email, ok, post, signup_body


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: nothing listens there


def _phone() -> str:
    digits = f"{uuid.uuid4().int % 10_000:04d}"
    return f"613-555-{digits}"


def _sign_up_and_verify(client) -> tuple[str, str]:
    email = new_email("mode")
    ok(post(client, "/Parent/auth/Signup", signup_body(email, phone=_phone())))
    code = last_otp(email)
    data = ok(post(client, "/Parent/auth/VerifyOtp", {"email": email, "otp": code}))["data"]
    mail.drain()
    return code, data["token"]


@pytest.fixture
def mode(monkeypatch):
    def set_mode(name: str, **env: str) -> None:
        monkeypatch.setenv("HOTMEALS_MODE", name)
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        get_settings.cache_clear()

    yield set_mode
    monkeypatch.undo()
    get_settings.cache_clear()


def test_production_writes_no_code_and_no_token_to_any_log(client, mode, caplog):
    # The app itself would refuse to start without real Converge and https (tests/unit/
    # test_mode.py); here only the mail path matters: an SMTP server that does not answer.
    mode("production", SMTP_HOST="127.0.0.1", SMTP_PORT=str(_closed_port()))
    caplog.set_level(logging.DEBUG)
    code, token = _sign_up_and_verify(client)
    assert "failed" in caplog.text  # the dead SMTP server was reported...
    assert code not in caplog.text  # ...without the code
    assert token not in caplog.text


def test_production_never_prints_a_mail_even_without_smtp(client, mode, caplog):
    mode("production")  # start-up refuses this; the mail service refuses it again
    caplog.set_level(logging.DEBUG)
    code, token = _sign_up_and_verify(client)
    assert "not sent: no SMTP_HOST" in caplog.text
    assert code not in caplog.text
    assert token not in caplog.text


def test_demo_mode_prints_the_code_for_the_newcomer(client, mode, caplog):
    mode("demo")
    caplog.set_level(logging.DEBUG)
    code, token = _sign_up_and_verify(client)
    assert code in caplog.text  # the control: the check above can fail
    assert token not in caplog.text
