"""Issue 12's polish in Chromium at 390 px: sign-in shows every error at once and a password
can be shown; the e-mail typed on sign-in carries into Forgot password; the code field takes
digits only; a Major allergy stands out on the child card; "Make default" says what it did."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import open_page


@pytest.fixture
def viewport() -> str:
    return "phone"


def test_sign_in_shows_every_error_and_can_show_the_password(page: Page):
    open_page(page, "/sign-in-with-phone")
    page.click("#signin-submit")
    expect(page.locator("#signin-identifier-error")).to_have_text("Please enter phone number")
    expect(page.locator("#signin-password-error")).to_have_text("Please enter password")
    page.fill("#signin-password", "Lunch@2026")
    reveal = page.get_by_role("button", name="Show password")
    reveal.click()
    expect(page.locator("#signin-password")).to_have_attribute("type", "text")
    expect(page.get_by_role("button", name="Hide password")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.get_by_role("button", name="Hide password").click()
    expect(page.locator("#signin-password")).to_have_attribute("type", "password")


def test_forgot_password_starts_with_the_address_typed(page: Page):
    open_page(page, "/sign-in")
    page.fill("#signin-identifier", "someone@example.com")
    page.click("#forgot-password")
    expect(page.locator("#reset-email")).to_have_value("someone@example.com")


def test_the_code_field_keeps_six_digits(page: Page):
    open_page(page, "/sign-in")
    page.click("#forgot-password")
    page.fill("#reset-email", "nobody@example.com")
    page.click("#reset-send")
    code = page.locator("#otp")
    code.fill("Code: 12 34-56 789")  # pasted with its words and spaces
    expect(code).to_have_value("123456")
    expect(page.locator("#otp-resend")).to_be_disabled()
    expect(page.locator("#otp-resend")).to_have_css("opacity", "0.5")


def test_a_major_allergy_stands_out_and_make_default_says_what_it_did(page: Page, parent_cookie):
    page.context.add_cookies([parent_cookie])
    open_page(page, "/edit-profile")
    badge = page.locator(".hm-major-allergy")
    expect(badge.first).to_contain_text(re.compile(r"Major allergy: \w+"))
    make_default = page.get_by_role("button", name=re.compile(r"^Make default "))
    name = make_default.first.get_attribute("aria-label").removeprefix("Make default ")
    first = name.split(" ")[0]
    make_default.first.click()
    expect(page.get_by_text(f"{first} is now the default child")).to_be_visible()
    # Put the demo family back as it was (other tests use it).
    expect(page.get_by_role("button", name=f"Make default {name}")).to_have_count(0)
    page.get_by_role("button", name=re.compile(r"^Make default ")).first.click()
    expect(page.get_by_text(f"{first} is now the default child")).to_have_count(0)
