"""Password hashing (argon2id) and random tokens. The one place secrets are made or checked."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()
# Checked when the account does not exist, so a wrong e-mail costs as much time as a wrong
# password and timing reveals nothing.
_DUMMY_HASH = _hasher.hash("not-a-real-password-Aa1!")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A session token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """What is stored for a token or an OTP code: its SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_otp() -> str:
    return f"{secrets.randbelow(1_000_000):06d}"


def digests_equal(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())
