"""One-time codes sent by e-mail: sign-up verification, password reset, alternate e-mails.

A code is 6 digits, stored only as a SHA-256 bound to its purpose and address, valid
10 minutes, and refused after 5 wrong tries. Asking for a new code voids the previous one; one
code per address every 60 seconds, and at most ``OTP_SEND_*`` per hour.
"""

from __future__ import annotations

import math
import re
from datetime import timedelta
from enum import StrEnum

from sqlalchemy import update
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import OtpCode
from hotmeals.domain.errors import DomainError
from hotmeals.security import digests_equal, new_otp, token_digest
from hotmeals.services import ratelimit

OTP_TTL = timedelta(minutes=10)
OTP_MAX_ATTEMPTS = 5
# The resend cool-down is the OTP_COOLDOWN limit's window (declared once, in ratelimit.py).
RESEND_COOLDOWN_SECONDS = int(ratelimit.OTP_COOLDOWN.window.total_seconds())

_CODE_RE = re.compile(r"[0-9]{6}", re.ASCII)


class Purpose(StrEnum):
    VERIFY_EMAIL = "VERIFY_EMAIL"  # the sign-up address
    RESET_PASSWORD = "RESET_PASSWORD"  # forgot password
    ALT_EMAIL = "ALT_EMAIL"  # an alternate address on the profile


def parse_purpose(value: str, *, allowed: tuple[Purpose, ...] = tuple(Purpose)) -> Purpose:
    try:
        purpose = Purpose(str(value).strip().upper())
    except ValueError:
        raise DomainError("otp_purpose_invalid", field="purpose") from None
    if purpose not in allowed:
        raise DomainError("otp_purpose_invalid", field="purpose")
    return purpose


def _digest(purpose: Purpose, email: str, code: str) -> str:
    return token_digest(f"{purpose.value}:{email}:{code}")


def _cooldown_key(purpose: Purpose, email: str) -> str:
    return f"{purpose.value}:{email}"


def ensure_can_send(session: Session, *, email: str, address: str | None, purpose: Purpose) -> None:
    """The 60-second cooldown (per address and purpose) and the hourly caps. Keyed by address
    whether or not an account exists, so the answer reveals nothing."""
    age = ratelimit.last_hit_age(session, ratelimit.OTP_COOLDOWN, _cooldown_key(purpose, email))
    if age is not None and age < RESEND_COOLDOWN_SECONDS:
        raise DomainError(
            "otp_cooldown", field="email", seconds=max(1, math.ceil(RESEND_COOLDOWN_SECONDS - age))
        )
    ratelimit.check(session, ratelimit.OTP_SEND_ACCOUNT, email)
    ratelimit.check(session, ratelimit.OTP_SEND_ADDRESS, address)


def note_sent(session: Session, *, email: str, address: str | None, purpose: Purpose) -> None:
    """Start the cooldown (inside the request's transaction: no commit, no mail, no wait)."""
    ratelimit.record(session, ratelimit.OTP_COOLDOWN, _cooldown_key(purpose, email))
    ratelimit.record(session, ratelimit.OTP_SEND_ACCOUNT, email)
    ratelimit.record(session, ratelimit.OTP_SEND_ADDRESS, address)


def issue(
    session: Session,
    *,
    email: str,
    purpose: Purpose,
    parent_id: int | None,
) -> str:
    """A new code for ``email``; earlier unused codes of the same purpose stop working."""
    now = utcnow()
    session.execute(
        update(OtpCode)
        .where(col(OtpCode.email) == email)
        .where(col(OtpCode.purpose) == purpose.value)
        .where(col(OtpCode.consumed_at).is_(None))
        .values(consumed_at=now)
    )
    code = new_otp()
    session.add(
        OtpCode(
            parent_id=parent_id,
            email=email,
            purpose=purpose.value,
            code_hash=_digest(purpose, email, code),
            expires_at=now + OTP_TTL,
            created_at=now,
        )
    )
    session.flush()
    return code


def check(
    session: Session,
    *,
    email: str,
    purpose: Purpose,
    code: str,
    address: str | None,
    consume: bool,
) -> OtpCode:
    """The live code for ``email`` if ``code`` matches; ``DomainError`` otherwise.

    Call before the request writes anything: a wrong code is counted in a transaction of its
    own (``ratelimit.own_transaction``). Unknown address, no code, expired code and wrong code
    all answer ``otp_invalid``.
    """
    text = "" if code is None else str(code).strip()
    if not text:
        raise DomainError("otp_required", field="otp")
    ratelimit.check(session, ratelimit.OTP_ACCOUNT, email)
    ratelimit.check(session, ratelimit.OTP_ADDRESS, address)
    now = utcnow()
    row = session.exec(
        select(OtpCode)
        .where(OtpCode.email == email)
        .where(OtpCode.purpose == purpose.value)
        .where(col(OtpCode.consumed_at).is_(None))
        .order_by(col(OtpCode.created_at).desc(), col(OtpCode.id).desc())
    ).first()
    live = row if row is not None and row.expires_at > now else None
    if live is not None and live.attempts >= OTP_MAX_ATTEMPTS:
        raise DomainError("otp_too_many_attempts", field="otp")
    if (
        live is None
        or _CODE_RE.fullmatch(text) is None
        or not digests_equal(live.code_hash, _digest(purpose, email, text))
    ):
        failures = ((ratelimit.OTP_ACCOUNT, email), (ratelimit.OTP_ADDRESS, address))
        ratelimit.record_failure(session, *failures)
        if live is not None:
            with ratelimit.own_transaction(session) as own:
                own.execute(
                    update(OtpCode)
                    .where(col(OtpCode.id) == live.id)
                    .values(attempts=OtpCode.attempts + 1)
                )
            if live.attempts + 1 >= OTP_MAX_ATTEMPTS:
                raise DomainError("otp_too_many_attempts", field="otp")
        raise DomainError("otp_invalid", field="otp")
    if consume:
        live.consumed_at = now
        session.add(live)
    return live
