"""Sign-in, forgot-password and sign-up forms in Chromium at 390 px, in English and in French:
phone sign-in asks for a phone number, shows every error at once, counts digits as sign-up does
(14 digits refused, "+1 (613) 558-NNNN" accepted), a press on the button after a correction is
never lost and a late focus never takes the cursor from another field (assets/forms.js, 1b and
1c), and a success leaves no stale error behind; a password can be shown; the e-mail typed on
sign-in carries into Forgot password, whose code screen words the privacy truthfully for an
unknown address, as sign-up does for an address that already has an account (a parent of this
test's own per language: a code per address per minute); the code field takes digits only and a
disabled "Send a new code" looks disabled. (A Major allergy on the child card and "Make default"
are checked in test_forms_once.py, on the way through the double taps.)"""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect

from hotmeals.db.engine import make_engine, session_scope
from tests.e2e.helpers import msg, open_page, use_language, wait_hydrated
from tests.e2e.server import AppServer
from tests.factories import DEFAULT_PASSWORD, make_parent

DEMO_PASSWORD = "Lunch@2026"


@pytest.fixture
def viewport() -> str:
    return "phone"


def test_phone_sign_in_errors_digits_password_toggle_and_no_stale_error(
    page: Page, app: AppServer, lang: str
):
    # A parent of this test's own per run: the demo parent's sign-in is slowed after the wrong
    # passwords other tests (and this one, in the other language) type for it.
    line = f"{uuid.uuid4().int % 10_000:04d}"
    engine = make_engine(f"sqlite:///{app.data_dir}/e2e.db")
    try:
        with session_scope(engine) as session:
            make_parent(session, first_name="Maria", phone=f"(613) 558-{line}")
    finally:
        engine.dispose()
    use_language(page, lang)
    open_page(page, "/sign-in-with-phone")
    expect(page).to_have_title(msg("title.sign_in_phone", lang))
    page.click("#signin-submit")
    expect(page.locator("#signin-identifier-error")).to_have_text(msg("phone_required", lang))
    expect(page.locator("#signin-password-error")).to_have_text(msg("password_required", lang))
    # The cursor goes to the first field refused; an answer that comes once the parent is in
    # another field leaves it there (assets/forms.js, 1c).
    expect(page.locator("#signin-identifier")).to_be_focused()
    page.focus("#signin-password")
    page.evaluate("window.hmFocus('signin-identifier')")
    expect(page.locator("#signin-password")).to_be_focused()
    # The password can be shown and hidden again.
    page.fill("#signin-password", "wrong-Password1!")
    reveal = page.get_by_role("button", name=msg("ui.form.show_password", lang))
    reveal.click()
    expect(page.locator("#signin-password")).to_have_attribute("type", "text")
    hide = page.get_by_role("button", name=msg("ui.form.hide_password", lang))
    expect(hide).to_have_attribute("aria-pressed", "true")
    hide.click()
    expect(page.locator("#signin-password")).to_have_attribute("type", "password")
    # Fourteen digits are one too many, here as on sign-up.
    page.fill("#signin-identifier", "61355501421234")
    page.click("#signin-submit")
    expect(page.locator("#signin-identifier-error")).to_have_text(msg("phone_too_long", lang))
    # The number as Canadians write it: a wrong password is refused, then the right one opens
    # the account and no error from before stays on screen.
    page.fill("#signin-identifier", f"+1 (613) 558-{line}")
    # Pressing the button leaves the focus in the corrected field until the release: its message
    # cannot go (moving the button up a line) under the pointer and lose the click. The click
    # then checks the field and sends the form.
    submit = page.locator("#signin-submit")
    submit.scroll_into_view_if_needed()
    box = submit.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    assert page.evaluate("document.activeElement.id") == "signin-identifier"
    expect(page.locator("#signin-identifier-error")).to_have_text(msg("phone_too_long", lang))
    page.mouse.up()
    expect(page.locator("#signin-form-error")).to_have_text(msg("login_phone_invalid", lang))
    expect(page.locator("#signin-identifier-error")).to_have_count(0)
    page.fill("#signin-password", DEFAULT_PASSWORD)
    page.click("#signin-submit")
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
    wait_hydrated(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Maria")
    expect(page.locator("[data-sonner-toast][data-type=error]")).to_have_count(0)
    expect(page.get_by_text(msg("login_phone_invalid", lang))).to_have_count(0)


def test_forgot_password_carries_the_address_and_its_code_field_keeps_six_digits(
    page: Page, lang: str
):
    # An address no account has, of this test's own (a code per address per minute).
    nobody = f"nobody-{uuid.uuid4().hex[:10]}@example.com"
    use_language(page, lang)
    open_page(page, "/sign-in")
    page.fill("#signin-identifier", nobody)
    page.click("#forgot-password")
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("ui.reset.title", lang))
    expect(page.locator("#reset-email")).to_have_value(nobody)
    page.click("#reset-send")
    # No account has this address: the screen says only what is true.
    expect(page.locator("#otp-panel")).to_contain_text(msg("ui.otp.sent_to", lang))
    code = page.locator("#otp")
    code.fill("Code: 12 34-56 789")  # pasted with its words and spaces
    expect(code).to_have_value("123456")
    resend = page.locator("#otp-resend")
    expect(resend).to_have_text(re.compile(re.escape(msg("ui.otp.resend", lang))))
    expect(resend).to_be_disabled()
    expect(resend).to_have_css("opacity", "0.5")


def test_sign_up_with_an_address_that_has_an_account_says_only_what_is_true(
    page: Page, app: AppServer, lang: str
):
    # An account of this test's own per language: a code per address per minute.
    email = f"known-{uuid.uuid4().hex[:10]}@example.com"
    engine = make_engine(f"sqlite:///{app.data_dir}/e2e.db")
    try:
        with session_scope(engine) as session:
            make_parent(session, email=email, first_name="Kim", last_name="Known")
    finally:
        engine.dispose()
    use_language(page, lang)
    open_page(page, "/sign-up")
    page.fill("#signup-first_name", "Zoë")
    page.fill("#signup-last_name", "O'Neil")
    page.fill("#signup-email", email)
    page.fill("#signup-phone", f"613-556-{uuid.uuid4().int % 10_000:04d}")
    page.fill("#signup-password", DEMO_PASSWORD)
    page.fill("#signup-confirm_password", DEMO_PASSWORD)
    page.locator("#signup-terms").check()
    page.click("#signup-submit")
    # The same screen and words as for a new address: nothing tells whether the account exists.
    expect(page.locator("#otp-title")).to_have_text(msg("ui.otp.title", lang))
    expect(page.locator("#otp-panel")).to_contain_text(msg("ui.otp.sent_to", lang))
    expect(page.locator("#otp-panel")).to_contain_text(email)
