"""The parent row and its session tokens: helpers shared by accounts, profile and children.

Not a public service surface (no ``session=`` keyword-only functions): these take the caller's
session and never commit.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update
from sqlmodel import Session, select

from hotmeals.db.models import Parent, ParentAltEmail, SessionToken
from hotmeals.domain.errors import DomainError
from hotmeals.domain.validation import raise_first, validate_email
from hotmeals.services.clock import now as utcnow
from hotmeals.services.security import new_token, token_digest

SESSION_TTL = timedelta(days=7)
PASSWORD_MAX_CHARS = 128
TOKEN_MAX_CHARS = 200

# signup_step values (spec §4)
ADD_CHILD, ALLERGY, COMPLETE = "ADD_CHILD", "ALLERGY", "COMPLETE"


def normalize_email(value: object) -> str:
    return ("" if value is None else str(value)).strip().lower()


def phone_digits(phone: object) -> str:
    """Digits only; a leading North American '1' before 10 digits is dropped, so
    '+1 (613) 555-0142' and '613-555-0142' are the same number."""
    digits = "".join(ch for ch in str(phone or "") if ch.isascii() and ch.isdigit())
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    return digits


def checked_email(value: object, field: str = "email") -> str:
    raise_first(validate_email(value, field))
    return normalize_email(value)


def password_text(value: object) -> str:
    return "" if value is None else str(value)


def check_password_length(value: object, field: str) -> None:
    if len(password_text(value)) > PASSWORD_MAX_CHARS:
        raise DomainError("password_too_long", field=field)


def parent_by_email(session: Session, email: str) -> Parent | None:
    return session.exec(select(Parent).where(Parent.email == email)).first()


def get_parent(session: Session, parent_id: int) -> Parent:
    parent = session.get(Parent, parent_id)
    if parent is None or not parent.is_active:
        raise DomainError("parent_not_found")
    return parent


def alt_emails_of(session: Session, parent_id: int) -> list[dict]:
    rows = session.exec(
        select(ParentAltEmail)
        .where(ParentAltEmail.parent_id == parent_id)
        .order_by(ParentAltEmail.id)
    ).all()
    return [{"email": r.email, "verified": r.verified_at is not None} for r in rows]


def session_data(session: Session, parent: Parent, token: str | None) -> dict:
    """Spec §3 session data."""
    return {
        "id": parent.id,
        "token": token,
        "first_name": parent.first_name,
        "last_name": parent.last_name,
        "email": parent.email,
        "alt_emails": alt_emails_of(session, parent.id),
        "signup_step": parent.signup_step,
        "isLoginData": parent.signup_step == COMPLETE,
    }


def advance_signup_step(parent: Parent, *, from_step: str, to_step: str) -> None:
    """Move the sign-up progress forward only (never back once complete)."""
    if parent.signup_step == from_step:
        parent.signup_step = to_step
        parent.updated_at = utcnow()


def start_session(session: Session, parent: Parent, user_agent: str | None) -> str:
    token = new_token()
    now = utcnow()
    session.add(
        SessionToken(
            parent_id=parent.id,
            token_hash=token_digest(token),
            created_at=now,
            expires_at=now + SESSION_TTL,
            user_agent=(user_agent or "")[:255] or None,
        )
    )
    session.flush()
    return token


def revoke_sessions(session: Session, parent_id: int, *, keep_session_id: int | None = None):
    stmt = (
        update(SessionToken)
        .where(SessionToken.parent_id == parent_id)
        .where(SessionToken.revoked_at.is_(None))
    )
    if keep_session_id is not None:
        stmt = stmt.where(SessionToken.id != keep_session_id)
    session.execute(stmt.values(revoked_at=utcnow()))
