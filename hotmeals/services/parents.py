"""The parent row and its session tokens: helpers shared by accounts, profile and children.

Not a public service surface (no ``session=`` keyword-only functions): these take the caller's
session and never commit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, bindparam, text, update
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import Parent, ParentAltEmail, SessionToken
from hotmeals.domain.errors import DomainError
from hotmeals.domain.validation import raise_first, validate_email
from hotmeals.security import new_token, token_digest
from hotmeals.services.ids import saved_id

SESSION_TTL = timedelta(days=7)
PASSWORD_MAX_CHARS = 128
TOKEN_MAX_CHARS = 200

# signup_step values (docs/product.md §4)
ADD_CHILD, ALLERGY, COMPLETE = "ADD_CHILD", "ALLERGY", "COMPLETE"


def normalize_email(value: str) -> str:
    return value.strip().lower()


def phone_digits(phone: str) -> str:
    """Digits only; a leading North American '1' before 10 digits is dropped, so
    '+1 (613) 555-0142' and '613-555-0142' are the same number."""
    digits = "".join(ch for ch in phone if ch.isascii() and ch.isdigit())
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    return digits


def check_phone_free(session: Session, phone: str, *, parent_id: int | None = None) -> str:
    """The number's digits, or ``phone_taken`` when another active account has it: a phone
    number identifies one account (sign-in by phone opens it). The partial unique index
    ``uq_parent_phone_digits_active`` holds the same rule against a race."""
    digits = phone_digits(phone)
    if digits:
        owner = session.exec(
            select(Parent.id).where(Parent.phone_digits == digits, Parent.is_active)
        ).first()
        if owner is not None and owner != parent_id:
            raise DomainError("phone_taken", field="phone")
    return digits


def checked_email(value: str, field: str = "email") -> str:
    raise_first(validate_email(value, field))
    return normalize_email(value)


def check_password_length(value: str, field: str) -> None:
    if len(value) > PASSWORD_MAX_CHARS:
        raise DomainError("password_too_long", field=field)


def parent_by_email(session: Session, email: str) -> Parent | None:
    return session.exec(select(Parent).where(Parent.email == email)).first()


def lock_parent(session: Session, parent_id: int) -> Parent:
    """The parent row, locked until the transaction ends (``hold_parent``), then read: take
    it *first* in a service that checks a per-parent limit and then adds (children, alternate
    e-mails), so that two parallel calls cannot both count below the limit."""
    if session.get_bind().dialect.name == "postgresql":  # the lock and the read in one
        parent = session.exec(
            select(Parent)
            .where(Parent.id == parent_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        ).first()
    else:
        hold_parent(session, parent_id)
        parent = session.get(Parent, parent_id, populate_existing=True)
    if parent is None or not parent.is_active:
        raise DomainError("parent_not_found")
    return parent


def hold_parent(session: Session, parent_id: int) -> None:
    """Lock the active parent's row until the transaction ends, without reading it (a caller
    that only needs the parent's calls to take turns); ``parent_not_found`` when there is no
    such active parent.

    PostgreSQL: ``SELECT id ... FOR UPDATE``. SQLite has no row locks: a no-op write takes the
    database's single write lock (before any read of this transaction, so no stale snapshot),
    and ``busy_timeout`` makes the parallel call wait for the commit.
    """
    if session.get_bind().dialect.name == "postgresql":
        held = session.execute(_HOLD_PG, {"id": parent_id}).first() is not None
    else:
        held = (
            cast(CursorResult[Any], session.execute(_HOLD_SQLITE, {"id": parent_id})).rowcount == 1
        )
    if not held:
        raise DomainError("parent_not_found")


_HOLD_PG = text("SELECT id FROM parent WHERE id = :id AND is_active FOR UPDATE")
_HOLD_SQLITE = text("UPDATE parent SET id = id WHERE id = :id AND is_active")


def get_parent(session: Session, parent_id: int) -> Parent:
    parent = session.get(Parent, parent_id)
    if parent is None or not parent.is_active:
        raise DomainError("parent_not_found")
    return parent


# Part of every profile load (GetUserDetails): built once, columns only.
_ALT_EMAILS = (
    select(ParentAltEmail.email, ParentAltEmail.verified_at)
    .where(ParentAltEmail.parent_id == bindparam("parent_id"))
    .order_by(col(ParentAltEmail.id))
)


@dataclass(frozen=True)
class AltEmail:
    """An alternate address of the parent; ``verified`` once its code was entered."""

    email: str
    verified: bool


@dataclass(frozen=True)
class SessionData:
    """docs/product.md §3 session data: the signed-in parent and how far their sign-up is."""

    id: int
    first_name: str
    last_name: str
    email: str
    alt_emails: tuple[AltEmail, ...]
    signup_step: str

    @property
    def signup_complete(self) -> bool:
        return self.signup_step == COMPLETE


def alt_emails_of(session: Session, parent_id: int) -> tuple[AltEmail, ...]:
    rows = session.execute(_ALT_EMAILS, {"parent_id": parent_id}).all()
    return tuple(
        AltEmail(email=email, verified=verified_at is not None) for email, verified_at in rows
    )


def session_data(session: Session, parent: Parent) -> SessionData:
    """docs/product.md §3 session data."""
    return SessionData(
        id=saved_id(parent),
        first_name=parent.first_name,
        last_name=parent.last_name,
        email=parent.email,
        alt_emails=alt_emails_of(session, saved_id(parent)),
        signup_step=parent.signup_step,
    )


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
            parent_id=saved_id(parent),
            token_hash=token_digest(token),
            created_at=now,
            expires_at=now + SESSION_TTL,
            user_agent=(user_agent or "")[:255] or None,
        )
    )
    session.flush()
    return token


def revoke_sessions(
    session: Session, parent_id: int, *, keep_session_id: int | None = None
) -> None:
    stmt = (
        update(SessionToken)
        .where(col(SessionToken.parent_id) == parent_id)
        .where(col(SessionToken.revoked_at).is_(None))
    )
    if keep_session_id is not None:
        stmt = stmt.where(col(SessionToken.id) != keep_session_id)
    session.execute(stmt.values(revoked_at=utcnow()))
