"""Issue 12 in Chromium at 390 px: one tap is one record. "Save and continue" double-tapped on
add-child (sign-up's /add-child and /add-another-child) adds one child; a button that writes
is disabled from the first tap (assets/forms.js), before the server has said anything."""

from __future__ import annotations

import json
import re
import uuid

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import open_page, wait_hydrated
from tests.e2e.server import AppServer
from tests.e2e.smtp import SmtpServer

PASSWORD = "Lunch@2026"
API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}


@pytest.fixture
def viewport() -> str:
    """These tests run at the phone width only (the double tap is a phone's)."""
    return "phone"


def _api(app: AppServer, path: str, body: dict, token: str | None = None) -> dict:
    headers = {**API_HEADERS, **({"token": token} if token else {})}
    answer = httpx.post(
        f"{app.base_url}/api/v1{path}", content=json.dumps(body), headers=headers, timeout=30
    ).json()
    assert answer["code"] == 1, answer
    return answer["data"]


def _new_parent(app: AppServer, smtp: SmtpServer) -> str:
    """A parent just verified (sign-up step ADD_CHILD): its session token."""
    email = f"e2e-once-{uuid.uuid4().hex[:10]}@example.com"
    n = uuid.uuid4().int
    _api(
        app,
        "/Parent/auth/Signup",
        {
            "first_name": "Zoë",
            "last_name": "O'Neil",
            "email": email,
            "phone": f"613-553-{n % 10_000:04d}",
            "password": PASSWORD,
            "confirm_password": PASSWORD,
            "terms": True,
        },
    )
    data = _api(
        app, "/Parent/auth/VerifyOtp", {"email": email, "otp": smtp.inbox.wait_for_code(email)}
    )
    return data["token"]


def _children(app: AppServer, token: str) -> list[dict]:
    answer = httpx.get(
        f"{app.base_url}/api/v1/Parent/user/GetChilds",
        headers={**API_HEADERS, "token": token},
        timeout=30,
    ).json()
    return answer["data"] or []


def _fill_child(page: Page, first_name: str) -> None:
    page.fill("#child-first_name", first_name)
    page.fill("#child-last_name", "Dubé")
    page.select_option("#child-city", label="Ottawa")
    expect(page.locator("#child-school option")).not_to_have_count(1)
    page.select_option("#child-school", index=1)
    expect(page.locator("#child-teacher option")).not_to_have_count(1)
    page.select_option("#child-teacher", index=1)
    expect(page.locator("#child-grade")).not_to_have_value("")


def test_double_tap_on_add_child_adds_one_child(page: Page, app: AppServer, smtp: SmtpServer):
    token = _new_parent(app, smtp)
    page.context.add_cookies([{"name": "hm_token", "value": token, "url": app.base_url}])

    # Sign-up's step: /add-child.
    open_page(page, "/add-child")
    _fill_child(page, "Émilie")
    page.locator("#child-submit").dblclick()
    page.wait_for_url(re.compile(r"/parent/allergy-profile/?$"))
    wait_hydrated(page)
    expect(page.get_by_text("Child added successfully")).to_have_count(1)
    assert [c["first_name"] for c in _children(app, token)] == ["Émilie"]
    page.get_by_role("button", name="No allergies, continue").click()
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))

    # Signed in: /add-another-child, tapped twice as fast as a thumb does it.
    open_page(page, "/add-another-child")
    _fill_child(page, "Jean-Luc")
    page.locator("#child-submit").dblclick()
    page.wait_for_url(re.compile(r"/parent/allergy-profile/?$"))
    wait_hydrated(page)
    names = sorted(c["first_name"] for c in _children(app, token))
    assert names == ["Jean-Luc", "Émilie"]


def test_a_save_button_is_disabled_from_the_first_tap(page: Page, app: AppServer, smtp: SmtpServer):
    token = _new_parent(app, smtp)
    page.context.add_cookies([{"name": "hm_token", "value": token, "url": app.base_url}])
    open_page(page, "/add-child")
    _fill_child(page, "Noah")
    # In the same task as the tap, before any answer could arrive: disabled and busy.
    state = page.evaluate(
        """() => {
            const button = document.querySelector('#child-submit');
            button.click();
            return [button.disabled, button.getAttribute('aria-busy')];
        }"""
    )
    assert state == [True, "true"]
    page.wait_for_url(re.compile(r"/parent/allergy-profile/?$"))
    assert [c["first_name"] for c in _children(app, token)] == ["Noah"]


def test_a_refused_save_releases_the_button(page: Page, app: AppServer, smtp: SmtpServer):
    """A refusal is an answer too: the parent can correct the form and save."""
    token = _new_parent(app, smtp)
    page.context.add_cookies([{"name": "hm_token", "value": token, "url": app.base_url}])
    open_page(page, "/add-child")
    _fill_child(page, "Noah2")
    page.locator("#child-submit").click()
    expect(page.locator("#child-first_name-error")).to_be_visible()
    expect(page.locator("#child-submit")).to_be_enabled()
    page.fill("#child-first_name", "Noah")
    page.locator("#child-submit").click()
    page.wait_for_url(re.compile(r"/parent/allergy-profile/?$"))
    assert [c["first_name"] for c in _children(app, token)] == ["Noah"]
