"""Passwords are argon2id hashes; the suite's lowered cost (HOTMEALS_PASSWORD_HASH_COST=low) and
the standard one read each other's hashes, since every hash carries its own cost."""

from __future__ import annotations

import pytest

from hotmeals import security


def test_each_cost_verifies_the_other_cost_s_hash_and_refuses_a_wrong_password():
    standard, low = security._hasher_for("standard"), security._hasher_for("low")
    assert (standard.time_cost, standard.memory_cost) == (3, 65536)
    assert (low.time_cost, low.memory_cost, low.parallelism) == (1, 8, 1)
    for maker, checker in ((standard, low), (low, standard)):
        stored = maker.hash("Lunch@2026")
        assert stored.startswith("$argon2id$")
        assert checker.verify(stored, "Lunch@2026")
    assert security.verify_password(low.hash("Lunch@2026"), "Lunch@2026")
    assert not security.verify_password(low.hash("Lunch@2026"), "lunch@2026")
    assert not security.verify_password(None, "Lunch@2026")


def test_an_unknown_cost_is_refused_by_name():
    with pytest.raises(ValueError, match="HOTMEALS_PASSWORD_HASH_COST must be standard or low"):
        security._hasher_for("cheap")
