"""Helpers of the API tests: headers like the original client's, envelope checks, codes read
from the outbox, and a signed-up parent."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient
from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import EmailOutbox

API_KEY = "hotmeals-test-key"
DEMO_EMAIL = "parent@example.com"
DEMO_PASSWORD = "Lunch@2026"
STRONG = "Passw0rd!"
_OTP_RE = re.compile(r"\b(\d{6})\b")


def headers(token: str | None = None, *, lang: str = "en", **extra: str) -> dict[str, str]:
    out = {
        "api-key": API_KEY,
        "app": "P",
        "accept-language": lang,
        "content-type": "text/plain",
    }
    if token:
        out["token"] = token
    out.update(extra)
    return out


def post(client: TestClient, path: str, body=None, token=None, *, lang="en", **extra):
    """POST like the original client: a JSON string sent as text/plain."""
    content = body if isinstance(body, (str, bytes)) else json.dumps(body or {})
    return client.post(
        f"/api/v1{path}", content=content, headers=headers(token, lang=lang, **extra)
    )


def get(client: TestClient, path: str, token=None, *, lang="en", **extra):
    return client.get(f"/api/v1{path}", headers=headers(token, lang=lang, **extra))


def ok(response) -> dict:
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["code"] == 1, body
    return body


def refused(response, message: str | None = None, *, status: int = 200) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == 0, body
    assert set(body) == {"code", "message", "data"}
    assert body["message"]
    if message is not None:
        assert body["message"] == message
    return body


def last_otp(email: str) -> str:
    with session_scope() as session:
        row = session.exec(
            select(EmailOutbox)
            .where(EmailOutbox.to_address == email.lower())
            .order_by(EmailOutbox.id.desc())
        ).first()
    assert row is not None, f"no mail to {email}"
    found = _OTP_RE.search(row.subject + "\n" + row.body_text)
    assert found, row.body_text
    return found.group(1)


def mails_to(email: str) -> list[EmailOutbox]:
    with session_scope() as session:
        return list(
            session.exec(
                select(EmailOutbox)
                .where(EmailOutbox.to_address == email.lower())
                .order_by(EmailOutbox.id)
            ).all()
        )


def login(client: TestClient, email: str = DEMO_EMAIL, password: str = DEMO_PASSWORD) -> str:
    return ok(post(client, "/Parent/auth/Login", {"email": email, "password": password}))["data"][
        "token"
    ]


_seq = iter(range(1, 10_000))


def new_email(prefix: str = "new") -> str:
    return f"{prefix}{next(_seq)}@example.org"


_phones = iter(range(1, 10_000))


def new_phone() -> str:
    """A number no other account of the test database has (a phone is one account's)."""
    return f"613-556-{next(_phones):04d}"


def phone_of(client: TestClient, token: str) -> str:
    """The signed-in parent's phone, to send back unchanged with a profile edit."""
    return ok(get(client, "/Parent/user/GetUserDetails", token))["data"]["phone"]


def signup_body(address: str, **changes) -> dict:
    body = {
        "first_name": "Ann",
        "last_name": "Lee",
        "email": address,
        "phone": new_phone(),
        "password": STRONG,
        "confirm_password": STRONG,
        "terms": True,
    }
    body.update(changes)
    return body


def signed_up(client: TestClient, email: str | None = None) -> tuple[str, dict]:
    """A new verified parent (sign-up then code): (token, session data)."""
    email = email or new_email()
    ok(post(client, "/Parent/auth/Signup", signup_body(email)))
    data = ok(post(client, "/Parent/auth/VerifyOtp", {"email": email, "otp": last_otp(email)}))[
        "data"
    ]
    return data["token"], data


def quick_token(email: str = DEMO_EMAIL) -> str:
    """A new session for an existing parent without the cost of a password check."""
    from hotmeals.db.models import Parent
    from hotmeals.services.parents import start_session

    with session_scope() as session:
        parent = session.exec(select(Parent).where(Parent.email == email)).one()
        return start_session(session, parent, "tests")
