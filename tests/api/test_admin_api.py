"""/api/v1/Admin/CloseDay and ReopenDay (SQLite and PostgreSQL): off until the operator's own key
is set, refused without it or with the parents' api-key, and with it a school day is closed
(shown closed with its reason, not bookable) and reopened. What happens to booked meals is
tested in tests/integration/test_closures.py."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest
from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import MenuDay, SchoolClosure
from hotmeals.settings import get_settings
from tests import factories as f
from tests.api.helpers import API_KEY, ok, post, refused

ADMIN_KEY = "operator-secret-of-at-least-24-chars"
DAY = date(2031, 3, 3)
OFF = "The admin API is off (HOTMEALS_ADMIN_API_KEY is not set)."


@pytest.fixture
def admin_key(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("HOTMEALS_ADMIN_API_KEY", ADMIN_KEY)
    get_settings.cache_clear()
    yield ADMIN_KEY
    monkeypatch.delenv("HOTMEALS_ADMIN_API_KEY")
    get_settings.cache_clear()


def _school_day() -> tuple[int, int]:
    with session_scope() as s:
        school = f.make_school(s)
        vendor = f.make_vendor(s)
        day = f.make_menu_day(s, school, vendor, DAY, [f.make_meal(s, vendor)])
        return school.id or 0, day.id or 0


def _close(client, body: dict, key: str | None = None, **extra):
    more = {"admin-key": key} if key else {}
    return post(client, "/Admin/CloseDay", body, **more, **extra)


def test_the_admin_api_is_off_until_its_key_is_set(client):
    school_id, _ = _school_day()
    body = {"school": school_id, "date": DAY.isoformat(), "reason": "storm"}
    refused(_close(client, body, ADMIN_KEY), OFF, status=403)


def test_the_parents_api_key_never_closes_a_school(client, admin_key, monkeypatch):
    school_id, _ = _school_day()
    body = {"school": school_id, "date": DAY.isoformat(), "reason": "storm"}
    refused(_close(client, body), "Invalid admin key.", status=403)
    refused(_close(client, body, API_KEY), "Invalid admin key.", status=403)
    refused(_close(client, body, "x" + ADMIN_KEY), "Invalid admin key.", status=403)
    # An operator who set the admin key to the parents' one turned the admin API off.
    monkeypatch.setenv("HOTMEALS_ADMIN_API_KEY", API_KEY)
    get_settings.cache_clear()
    refused(_close(client, body, API_KEY), OFF, status=403)


def test_an_operator_closes_and_reopens_a_school_day(client, admin_key):
    school_id, menu_day_id = _school_day()
    body = {"school": str(school_id), "date": DAY.isoformat(), "reason": "storm"}
    data = ok(_close(client, body, admin_key))["data"]
    assert data["meals"] == 0 and data["date"] == DAY.isoformat() and data["reason"] == "storm"
    with session_scope() as s:
        day = s.get(MenuDay, menu_day_id)
        assert day is not None and day.is_closed
        assert (day.closed_reason_en, day.closed_reason_fr) == ("Storm", "Tempête")
    again = ok(_close(client, body, admin_key))["data"]
    assert again["closure_id"] == data["closure_id"] and again["meals"] == 0
    refused(_close(client, {**body, "reason": ""}, admin_key), "Say why the school is closed")
    refused(_close(client, {**body, "school": "99999999"}, admin_key), "No school 99999999")
    reopen = {"school": str(school_id), "date": DAY.isoformat()}
    done = ok(post(client, "/Admin/ReopenDay", reopen, **{"admin-key": admin_key}))["data"]
    assert done["closure_id"] == data["closure_id"]
    with session_scope() as s:
        day = s.get(MenuDay, menu_day_id)
        assert day is not None and not day.is_closed
        closure = s.exec(select(SchoolClosure).where(SchoolClosure.school_id == school_id)).one()
        assert closure.reopened_at is not None
    refused(
        post(client, "/Admin/ReopenDay", reopen, **{"admin-key": admin_key}),
        f"That school is not closed on {DAY.isoformat()}",
    )
