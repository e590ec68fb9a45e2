"""The account services without HTTP: sessions, codes, rate limits, and mail after commit."""

from __future__ import annotations

import logging
import socket
import socketserver
import threading
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, select

from hotmeals.clock import now, set_now
from hotmeals.db.engine import make_engine
from hotmeals.db.models import EmailOutbox, OtpCode, RateLimitHit, SessionToken
from hotmeals.domain.errors import DomainError
from hotmeals.security import token_digest
from hotmeals.services import accounts, mail, otp, ratelimit
from hotmeals.services.otp import Purpose
from hotmeals.settings import get_settings
from tests.factories import DEFAULT_PASSWORD, make_parent


@pytest.fixture
def engine(tmp_path, monkeypatch) -> Iterator[Engine]:
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.delenv("SMTP_HOST", raising=False)
    get_settings.cache_clear()
    eng = make_engine(f"sqlite:///{tmp_path / 'unit.db'}")
    SQLModel.metadata.create_all(eng)
    yield eng
    mail.drain()
    eng.dispose()
    get_settings.cache_clear()


def _tx(engine: Engine, fn, **kwargs):
    """One committed transaction, as ``run_in_transaction`` runs it."""
    with Session(engine, expire_on_commit=False) as session:
        try:
            result = fn(session=session, **kwargs)
            session.commit()
            return result
        except BaseException:
            session.rollback()
            raise


def _parent(engine: Engine, **kwargs):
    with Session(engine, expire_on_commit=False) as session:
        parent = make_parent(session, **kwargs)
        session.commit()
        return parent


# --- sessions ------------------------------------------------------------------------------------


def test_login_stores_only_the_token_digest_and_authenticate_accepts_it(engine):
    parent = _parent(engine)
    result = _tx(engine, accounts.login, email=parent.email, password=DEFAULT_PASSWORD)
    with Session(engine) as session:
        (row,) = session.exec(select(SessionToken)).all()
    assert row.token_hash == token_digest(result.token) and result.token not in row.token_hash
    ctx = _tx(engine, accounts.authenticate, token=result.token)
    assert ctx.parent_id == parent.id and ctx.session_id == row.id


def test_authenticate_refuses_expired_revoked_and_unknown_tokens(engine):
    parent = _parent(engine)
    token = _tx(engine, accounts.login, email=parent.email, password=DEFAULT_PASSWORD).token
    with pytest.raises(accounts.Unauthorized):
        _tx(engine, accounts.authenticate, token="nope")
    with pytest.raises(accounts.Unauthorized):
        _tx(engine, accounts.authenticate, token=None)
    with Session(engine) as session:
        row = session.exec(select(SessionToken)).one()
        row.expires_at = now() - timedelta(seconds=1)
        session.add(row)
        session.commit()
    with pytest.raises(accounts.Unauthorized):
        _tx(engine, accounts.authenticate, token=token)
    token2 = _tx(engine, accounts.login, email=parent.email, password=DEFAULT_PASSWORD).token
    _tx(engine, accounts.logout, token=token2)
    _tx(engine, accounts.logout, token=token2)  # twice is fine
    with pytest.raises(accounts.Unauthorized) as err:
        _tx(engine, accounts.authenticate, token=token2)
    assert err.value.message("en") == "Your session has expired. Please sign in again."


def test_a_failed_login_is_counted_although_the_transaction_rolls_back(engine):
    parent = _parent(engine)
    with pytest.raises(DomainError) as err:
        _tx(engine, accounts.login, email=parent.email, password="Wrong@123", address="10.0.0.1")
    assert err.value.code == "login_invalid"
    with Session(engine) as session:
        buckets = {(r.bucket, r.key) for r in session.exec(select(RateLimitHit)).all()}
    # the check is counted against the account (its id, whatever the sign-in used) before the
    # hash; the failure against the client address after it
    assert buckets == {("login:account", f"parent:{parent.id}"), ("login:address", "10.0.0.1")}
    # success clears the account's checks, not the address's failures
    _tx(engine, accounts.login, email=parent.email, password=DEFAULT_PASSWORD, address="10.0.0.1")
    with Session(engine) as session:
        buckets = {r.bucket for r in session.exec(select(RateLimitHit)).all()}
    assert buckets == {"login:address"}


def test_unknown_account_and_wrong_password_raise_the_same_error(engine):
    parent = _parent(engine)
    errors = []
    for email in (parent.email, "ghost@example.org"):
        with pytest.raises(DomainError) as err:
            _tx(engine, accounts.login, email=email, password="Wrong@123")
        errors.append((err.value.code, err.value.field, err.value.params))
    assert errors[0] == errors[1]


# --- rate limits -------------------------------------------------------------------------------


def test_rate_limit_window_and_minutes_left(engine):
    limit = ratelimit.Limit("test", 3, timedelta(minutes=15))
    with Session(engine) as session:
        for minutes_ago in (14, 10, 1):
            session.add(
                RateLimitHit(
                    bucket="test", key="k", created_at=now() - timedelta(minutes=minutes_ago)
                )
            )
        session.commit()
        assert ratelimit.retry_after(session, limit, "k") in range(50, 61)
        with pytest.raises(DomainError) as err:
            ratelimit.check(session, limit, "K ")
        assert err.value.params == {"minutes": 1}
        assert ratelimit.retry_after(session, limit, None) == 0
        assert ratelimit.retry_after(session, limit, "other") == 0
        set_now(now() + timedelta(minutes=2))
        assert ratelimit.retry_after(session, limit, "k") == 0


# --- codes ---------------------------------------------------------------------------------------


def test_codes_expire_and_are_bound_to_their_purpose(engine):
    parent = _parent(engine)
    with Session(engine) as session:
        code = otp.issue(
            session, email=parent.email, purpose=Purpose.RESET_PASSWORD, parent_id=parent.id
        )
        session.commit()
    with Session(engine) as session, pytest.raises(DomainError) as err:
        otp.check(
            session,
            email=parent.email,
            purpose=Purpose.VERIFY_EMAIL,
            code=code,
            address=None,
            consume=False,
        )
    assert err.value.code == "otp_invalid"
    issued = now()
    set_now(issued + otp.OTP_TTL + timedelta(seconds=1))
    with Session(engine) as session, pytest.raises(DomainError):
        otp.check(
            session,
            email=parent.email,
            purpose=Purpose.RESET_PASSWORD,
            code=code,
            address=None,
            consume=False,
        )
    set_now(issued)
    with Session(engine) as session:
        row = otp.check(
            session,
            email=parent.email,
            purpose=Purpose.RESET_PASSWORD,
            code=code,
            address=None,
            consume=True,
        )
        session.commit()
        assert row.consumed_at is not None


def test_a_new_code_voids_the_previous_one(engine):
    parent = _parent(engine)
    with Session(engine) as session:
        first = otp.issue(
            session, email=parent.email, purpose=Purpose.VERIFY_EMAIL, parent_id=parent.id
        )
        second = otp.issue(
            session, email=parent.email, purpose=Purpose.VERIFY_EMAIL, parent_id=parent.id
        )
        session.commit()
        live = session.exec(select(OtpCode).where(OtpCode.consumed_at.is_(None))).all()
    assert len(live) == 1
    if first != second:
        with Session(engine) as session, pytest.raises(DomainError):
            otp.check(
                session,
                email=parent.email,
                purpose=Purpose.VERIFY_EMAIL,
                code=first,
                address=None,
                consume=True,
            )


# --- sign-up ------------------------------------------------------------------------------------


def test_signup_validation_reports_every_field_at_once():
    errors = accounts.validate_signup(
        first_name="",
        last_name="L1",
        email="x",
        phone="1",
        password="weak",
        confirm_password="",
        terms=False,
    )
    assert list(errors) == [
        "first_name",
        "last_name",
        "email",
        "phone",
        "password",
        "confirm_password",
        "terms",
    ]
    assert errors["terms"].message("fr") == "Vous devez accepter les conditions d'utilisation"


def test_signup_then_verify_logs_in_and_mail_is_in_the_parents_language(engine):
    _tx(
        engine,
        accounts.signup,
        first_name="Zoe",
        last_name="Roy",
        email="zoe@example.org",
        phone="613 555 0100",
        password="Passw0rd!",
        confirm_password="Passw0rd!",
        terms=True,
        language="fr",
    )
    with Session(engine) as session:
        sent = session.exec(select(EmailOutbox)).one()
    assert sent.language == "fr" and sent.subject.startswith("Votre code")
    code = sent.subject.rsplit(" ", 1)[-1]
    result = _tx(engine, accounts.verify_otp, email="ZOE@example.org", otp=code)
    assert result.session_data is not None and result.token
    assert result.session_data.signup_step == "ADD_CHILD"


# --- mail -----------------------------------------------------------------------------------------


def test_mail_is_logged_after_commit_and_never_on_rollback(engine, caplog):
    caplog.set_level(logging.INFO, logger="hotmeals.mail")
    with Session(engine) as session:
        mail.queue_mail(
            session=session, to="a@example.org", subject="S", body="code 123456", kind="test"
        )
        assert "123456" not in caplog.text  # not before the commit
        session.rollback()
    with Session(engine) as session:
        assert session.exec(select(EmailOutbox)).all() == []
    assert "123456" not in caplog.text
    with Session(engine) as session:
        mail.queue_mail(
            session=session, to="a@example.org", subject="S", body="code 654321", kind="test"
        )
        session.commit()
    assert "654321" in caplog.text and "a@example.org" in caplog.text
    with Session(engine) as session:
        row = session.exec(select(EmailOutbox)).one()
    assert row.status == "LOGGED"


class _Smtp(socketserver.StreamRequestHandler):
    """Just enough SMTP to receive one message (no extensions, no TLS)."""

    def handle(self):
        self.wfile.write(b"220 test ESMTP\r\n")
        data_mode, lines = False, []
        for raw in self.rfile:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if data_mode:
                if line == ".":
                    data_mode = False
                    self.server.messages.append("\n".join(lines))
                    self.wfile.write(b"250 queued\r\n")
                else:
                    lines.append(line)
                continue
            verb = line[:4].upper()
            if verb in ("EHLO", "HELO"):
                self.wfile.write(b"250 test\r\n")
            elif verb == "DATA":
                data_mode = True
                self.wfile.write(b"354 go\r\n")
            elif verb == "QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:
                self.wfile.write(b"250 ok\r\n")


@pytest.fixture
def smtp_server() -> Iterator[socketserver.ThreadingTCPServer]:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Smtp)
    server.daemon_threads = True
    server.messages = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_mail_is_sent_over_smtp_after_commit(engine, monkeypatch, smtp_server):
    monkeypatch.setenv("SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("SMTP_PORT", str(smtp_server.server_address[1]))
    get_settings.cache_clear()
    with Session(engine) as session:
        mail.send_templated(
            session=session,
            to="p@example.org",
            template="otp_verify",
            language="en",
            otp="246810",
            first_name="Pat",
        )
        session.commit()
    mail.drain()
    assert any("246810" in m and "p@example.org" in m for m in smtp_server.messages)
    with Session(engine) as session:
        row = session.exec(select(EmailOutbox)).one()
    assert row.status == "SENT" and row.attempts == 1 and row.sent_at is not None


def test_a_dead_smtp_server_fails_the_mail_not_the_request(engine, monkeypatch):
    monkeypatch.setenv("SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("SMTP_PORT", str(_free_port()))
    get_settings.cache_clear()
    sent = _tx(engine, accounts.forgot_password, email="nobody@example.org")
    assert sent.email == "nobody@example.org"
    parent = _parent(engine)
    _tx(engine, accounts.forgot_password, email=parent.email)
    mail.drain()
    with Session(engine) as session:
        row = session.exec(select(EmailOutbox)).one()
        # the unknown address got the same work (a code nobody receives), but no mail
        code = session.exec(select(OtpCode).where(OtpCode.parent_id.is_not(None))).one()
    # Not lost: still PENDING, with the error and the next try a minute later (services/mail.py).
    assert row.status == "PENDING" and row.error and row.attempts == 1
    assert row.next_attempt_at == row.claimed_until or row.next_attempt_at is not None
    assert row.claimed_until is None
    assert code.email == parent.email  # the code survives; "resend" can mail it again
