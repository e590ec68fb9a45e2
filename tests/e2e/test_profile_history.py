"""Browser history in Chromium at 390 px, in English and in French: Back and Forward walk the
/edit-profile steps and settings sub-steps (each is a history entry, ``?step=6&sub=2``), a
reload keeps the step, and the step is still kept in browser storage (docs/product.md §2:
editProfileStep, editProfileSetingsStep). The sign-up's code step is an address too, and keeps
the form; the sign-up takes names and a phone number as Canadians write them, and its code
screen words the privacy truthfully."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import msg, open_page, stored, use_language, wait_hydrated
from tests.e2e.smtp import SmtpServer

PASSWORD = "Lunch@2026"


@pytest.fixture
def viewport() -> str:
    return "phone"


def _on_step(page: Page, step: str) -> None:
    expect(page.locator(f"#step-{step}")).to_have_attribute("aria-current", "page")


def test_back_and_forward_walk_the_steps_and_a_reload_keeps_one(
    page: Page, parent_cookie, lang: str
):
    page.context.add_cookies([parent_cookie])
    use_language(page, lang)
    open_page(page, "/")
    open_page(page, "/edit-profile")
    _on_step(page, "1")
    expect(page).to_have_url(re.compile(r"/parent/edit-profile/?$"))  # the address links use

    page.click("#step-6")
    expect(page).to_have_url(re.compile(r"/parent/edit-profile\?step=6$"))
    page.click("#settings-notifications")
    expect(page.locator("#notifications-save")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        msg("ui.settings.notifications", lang)
    )
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

    # A step chosen from the header is an address too.
    open_page(page, "/edit-profile?step=8")
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("ui.contact.title", lang))
    _on_step(page, "8")
    assert stored(page, "editProfileStep") == "8"
    # An address without a step shows the stored one and writes it into the address.
    open_page(page, "/edit-profile")
    _on_step(page, "8")
    expect(page).to_have_url(re.compile(r"/parent/edit-profile\?step=8$"))


def test_sign_up_code_step_survives_a_reload_and_back_keeps_the_typed_values(
    page: Page, smtp: SmtpServer, lang: str
):
    email = f"e2e-code-{uuid.uuid4().hex[:10]}@example.com"
    # As Canadians write it: 11 digits, 17 characters (sign-up counts digits, as sign-in).
    phone = f"+1 (613) 552-{uuid.uuid4().int % 10_000:04d}"
    use_language(page, lang)
    open_page(page, "/sign-up")
    expect(page).to_have_title(msg("title.sign_up", lang))
    page.fill("#signup-first_name", "Zoë")
    page.fill("#signup-last_name", "O'Neil")
    page.fill("#signup-email", email)
    page.fill("#signup-phone", phone)
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-confirm_password", PASSWORD)
    page.locator("#signup-terms").check()
    page.click("#signup-submit")
    expect(page.locator("#otp-title")).to_have_text(msg("ui.otp.title", lang))
    expect(page).to_have_url(re.compile(r"/parent/sign-up\?step=code$"))
    expect(page.locator("#otp-panel")).to_contain_text(msg("ui.otp.sent_to", lang))

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
    wait_hydrated(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("ui.child.add_title", lang))
