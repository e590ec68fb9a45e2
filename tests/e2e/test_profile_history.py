"""Issue 12 in Chromium at 390 px: Back and Forward walk the /edit-profile steps and settings
sub-steps (each is a history entry, ``?step=6&sub=2``), a reload keeps the step, and the step
is still kept in browser storage (docs/product.md §2: editProfileStep,
editProfileSetingsStep). The sign-up's code step is an address too, and keeps the form."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import open_page, stored, wait_hydrated
from tests.e2e.smtp import SmtpServer

PASSWORD = "Lunch@2026"


@pytest.fixture
def viewport() -> str:
    return "phone"


def _on_step(page: Page, step: str) -> None:
    expect(page.locator(f"#step-{step}")).to_have_attribute("aria-current", "page")


def test_back_and_forward_walk_the_steps_and_a_reload_keeps_one(page: Page, parent_cookie):
    page.context.add_cookies([parent_cookie])
    open_page(page, "/")
    open_page(page, "/edit-profile")
    _on_step(page, "1")
    expect(page).to_have_url(re.compile(r"/parent/edit-profile/?$"))  # the address links use

    page.click("#step-6")
    expect(page).to_have_url(re.compile(r"/parent/edit-profile\?step=6$"))
    page.click("#settings-notifications")
    expect(page.locator("#notifications-save")).to_be_visible()
    expect(page).to_have_url(re.compile(r"\?step=6&sub=2$"))
    assert (stored(page, "editProfileStep"), stored(page, "editProfileSetingsStep")) == ("6", "2")

    page.go_back()  # the settings menu, not the page before /edit-profile
    expect(page.locator("#settings-notifications")).to_be_visible()
    expect(page).to_have_url(re.compile(r"\?step=6$"))
    _on_step(page, "6")
    page.go_back()
    _on_step(page, "1")
    expect(page).to_have_url(re.compile(r"\?step=1$"))

    page.go_forward()
    expect(page.locator("#settings-notifications")).to_be_visible()
    page.go_forward()
    expect(page.locator("#notifications-save")).to_be_visible()

    page.reload()
    wait_hydrated(page)
    expect(page.locator("#notifications-save")).to_be_visible()
    assert stored(page, "editProfileSetingsStep") == "2"

    # Out of the steps, Back leaves /edit-profile for the page before it.
    page.go_back()
    page.go_back()
    _on_step(page, "1")
    page.go_back()
    page.wait_for_url(re.compile(r"/parent/?$"))


def test_a_step_chosen_from_the_header_is_an_address_too(page: Page, parent_cookie):
    page.context.add_cookies([parent_cookie])
    open_page(page, "/edit-profile?step=8")
    _on_step(page, "8")
    assert stored(page, "editProfileStep") == "8"
    # An address without a step shows the stored one and writes it into the address.
    open_page(page, "/edit-profile")
    _on_step(page, "8")
    expect(page).to_have_url(re.compile(r"/parent/edit-profile\?step=8$"))


def test_sign_up_code_step_survives_a_reload_and_back_keeps_the_typed_values(
    page: Page, smtp: SmtpServer
):
    email = f"e2e-code-{uuid.uuid4().hex[:10]}@example.com"
    phone = f"613-552-{uuid.uuid4().int % 10_000:04d}"
    open_page(page, "/sign-up")
    page.fill("#signup-first_name", "Zoë")
    page.fill("#signup-last_name", "O'Neil")
    page.fill("#signup-email", email)
    page.fill("#signup-phone", phone)
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-confirm_password", PASSWORD)
    page.locator("#signup-terms").check()
    page.click("#signup-submit")
    expect(page.locator("#otp-title")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/parent/sign-up\?step=code$"))

    page.reload()
    wait_hydrated(page)
    expect(page.locator("#otp-title")).to_be_visible()

    page.go_back()  # the form, as it was typed (the passwords are not sent back)
    expect(page.locator("#signup-first_name")).to_have_value("Zoë")
    expect(page.locator("#signup-last_name")).to_have_value("O'Neil")
    expect(page.locator("#signup-email")).to_have_value(email)
    expect(page.locator("#signup-phone")).to_have_value(phone)
    expect(page.locator("#signup-terms")).to_be_checked()
    expect(page.locator("#signup-password")).to_have_value("")

    page.go_forward()
    expect(page.locator("#otp-title")).to_be_visible()
    page.fill("#otp", smtp.inbox.wait_for_code(email))
    page.click("#otp-submit")
    page.wait_for_url(re.compile(r"/parent/add-child/?$"))
