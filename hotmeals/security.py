"""Password hashing (argon2id) and random tokens. The one place secrets are made or checked."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

HASH_COST_VAR = "HOTMEALS_PASSWORD_HASH_COST"
HASH_COSTS = ("standard", "low")


def _hasher_for(cost: str) -> PasswordHasher:
    """argon2id at argon2-cffi's recommended cost ("standard", the default), or at its smallest
    ("low": one pass over 8 KiB) for the test suite, which makes about a thousand hashes; a
    production start refuses "low" (hotmeals/mode.py). Both verify each other's hashes: the
    cost is written into every hash."""
    if cost in ("", "standard"):
        return PasswordHasher()
    if cost == "low":
        return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    raise ValueError(f"{HASH_COST_VAR} must be standard or low, not {cost!r}")


_hasher = _hasher_for(os.environ.get(HASH_COST_VAR, "").strip().lower())
# argon2 takes ~64 MB and most of a core for a fraction of a second: more hashes at once than
# cores only make every one of them slower (and the memory grows with each). Callers wait here
# holding no database connection (see accounts.login), so a burst of sign-ins queues on the
# CPU instead of exhausting the pool.
HASH_SLOTS = max(1, os.cpu_count() or 1)
_hash_slots = threading.BoundedSemaphore(HASH_SLOTS)
# Checked when the account does not exist, so a wrong e-mail costs as much time as a wrong
# password and timing reveals nothing.
_DUMMY_HASH = _hasher.hash("not-a-real-password-Aa1!")


def hash_password(password: str) -> str:
    with _hash_slots:
        return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    with _hash_slots:
        try:
            matched = _hasher.verify(password_hash or _DUMMY_HASH, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
    return matched and password_hash is not None


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
