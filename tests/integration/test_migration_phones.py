"""Migration 0003: a phone number identifies one active account. Numbers are
normalized the way sign-in compares them; where active accounts shared one, the oldest keeps
it and the others are asked for theirs again; the database then refuses a second holder."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from hotmeals.db.engine import make_engine
from tests.databases import migrate
from tests.integration.test_migrations import _migrate_to

_INSERT = text(
    "INSERT INTO parent (email, phone, phone_digits, password_hash, first_name, last_name, "
    "language, signup_step, is_active, created_at, updated_at) VALUES (:email, :phone, "
    ":digits, 'x', 'Ann', 'Lee', 'en', 'COMPLETE', :active, :t, :t)"
)


def _add(conn, email: str, phone: str, digits: str, active: bool = True) -> None:
    conn.execute(
        _INSERT,
        {
            "email": email,
            "phone": phone,
            "digits": digits,
            "active": active,
            "t": datetime(2026, 1, 5, tzinfo=UTC),
        },
    )


def test_0003_keeps_each_number_for_the_oldest_active_account(empty_url):
    _migrate_to(empty_url, "0002")
    eng = make_engine(empty_url)
    try:
        with eng.begin() as conn:
            _add(conn, "first@example.org", "613-555-0199", "6135550199")
            _add(conn, "second@example.org", "+1 (613) 555-0199", "16135550199")
            _add(conn, "closed@example.org", "613 555 0199", "6135550199", active=False)
            _add(conn, "third@example.org", "(613) 555-0199", "6135550199")
            _add(conn, "other@example.org", "+1 819 555 0123", "18195550123")
        migrate(empty_url)
        with eng.connect() as conn:
            rows = dict(
                (email, (phone, digits))
                for email, phone, digits in conn.execute(
                    text("SELECT email, phone, phone_digits FROM parent")
                )
            )
        assert rows == {
            "first@example.org": ("613-555-0199", "6135550199"),
            "second@example.org": ("", ""),
            "closed@example.org": ("613 555 0199", "6135550199"),
            "third@example.org": ("", ""),
            "other@example.org": ("+1 819 555 0123", "8195550123"),
        }
        with pytest.raises(IntegrityError), eng.begin() as conn:
            _add(conn, "late@example.org", "613-555-0199", "6135550199")
        with eng.begin() as conn:  # an inactive account and an empty number hold nothing
            _add(conn, "late2@example.org", "613-555-0199", "6135550199", active=False)
            _add(conn, "late3@example.org", "", "")
    finally:
        eng.dispose()
