"""Signing in and out, the guard, forgot password, and the logged-in parent's area, at 1280 and
390 px. The demo parent logs in once per run (``parent_cookie``) and tests reuse that session."""

from __future__ import annotations

import json
import re
import struct
import uuid
import zlib

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.helpers import (
    close_toasts,
    open_page,
    open_profile_menu,
    sign_in,
    stored,
    wait_hydrated,
)
from tests.e2e.server import AppServer
from tests.e2e.smtp import SmtpServer

DEMO_EMAIL = "parent@example.com"
DEMO_PASSWORD = "Lunch@2026"
# The demo parent's phone, as stored by the demo data (sign-in matches on the digits).
DEMO_PHONE = "613-555-0142"
API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}


def as_parent(page: Page, cookie: dict) -> Page:
    page.context.add_cookies([cookie])
    return page


def open_account_menu_item(page: Page, name: str) -> None:
    open_profile_menu(page)
    page.get_by_role("button", name=name, exact=True).click()


def tiny_png() -> bytes:
    """A 2x2 PNG, made here so the test needs no fixture file."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    raw = b"".join(b"\x00" + b"\xd1\x34\x15" * 2 for _ in range(2))
    header = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def test_visitor_is_sent_to_sign_in_and_back(page: Page):
    page.goto("/parent/edit-profile/parent-edit-profile")
    page.wait_for_url(re.compile(r"/parent/sign-in\?next=/edit-profile/parent-edit-profile"))
    wait_hydrated(page)
    expect(page.locator("#profile-menu")).to_have_count(0)
    sign_in(page, DEMO_EMAIL, DEMO_PASSWORD)
    page.wait_for_url(re.compile(r"/parent/edit-profile/parent-edit-profile/?$"))
    wait_hydrated(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Edit profile")
    expect(page.get_by_label("First name")).to_have_value("Maria")
    # The profile picture goes up with rx.upload and shows in the avatar.
    with page.expect_file_chooser() as chooser:
        page.get_by_role("button", name="Change picture").click()
    chooser.value.set_files(
        files=[{"name": "me.png", "mimeType": "image/png", "buffer": tiny_png()}]
    )
    expect(page.get_by_text("Profile picture updated")).to_be_visible()
    expect(page.locator('img[src*="/api/v1/uploads/profile/"]').first).to_be_attached()


def test_sign_in_by_phone_then_logout_dialog(page: Page):
    open_page(page, "/sign-in-with-phone")
    expect(page.get_by_label("Phone number")).to_be_visible()
    sign_in(page, DEMO_PHONE, "wrong-Password1!")
    expect(page.locator("#signin-form-error")).to_have_text("Invalid phone number or password")
    sign_in(page, DEMO_PHONE, DEMO_PASSWORD)
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
    wait_hydrated(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Hello, Maria"))
    # Two active children: the cart with its count (docs/product.md §2); the meals to cancel
    # appear only when there are some (test_parent_trips.py).
    expect(page.locator("#header-cart")).to_be_visible()

    open_account_menu_item(page, "Logout")
    dialog = page.get_by_role("alertdialog")
    expect(dialog.get_by_role("heading")).to_have_text("Logout?")
    expect(dialog).to_contain_text("Are you sure you want to log out of your account?")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(page.locator("#profile-menu")).to_be_visible()

    open_account_menu_item(page, "Logout")
    page.get_by_role("button", name="Yes, Logout").click()
    expect(page.get_by_text("You have been logout successfully")).to_be_visible()
    page.wait_for_url(re.compile(r"/parent/?$"))
    expect(page.get_by_role("link", name=re.compile("^Login"))).to_be_visible()
    assert not any(c["name"] == "hm_token" and c["value"] for c in page.context.cookies())
    assert not stored(page, "hm_session")
    page.goto("/parent/edit-profile")
    page.wait_for_url(re.compile(r"/parent/sign-in\?next="))


def test_forgot_password_then_new_password(page: Page, app: AppServer, smtp: SmtpServer):
    email = f"e2e-reset-{uuid.uuid4().hex[:10]}@example.com"
    api = f"{app.base_url}/api/v1/Parent/auth"
    signup = {
        "first_name": "Robin",
        "last_name": "Reset",
        "email": email,
        # A number of its own: a phone number identifies one account.
        "phone": f"613-554-{uuid.uuid4().int % 10_000:04d}",
        "password": DEMO_PASSWORD,
        "confirm_password": DEMO_PASSWORD,
        "terms": True,
    }
    assert httpx.post(f"{api}/Signup", content=_json(signup), headers=API_HEADERS).json()["code"]
    verify = {"email": email, "otp": smtp.inbox.wait_for_code(email)}
    assert httpx.post(f"{api}/VerifyOtp", content=_json(verify), headers=API_HEADERS).json()["code"]

    open_page(page, "/sign-in")
    page.click("#forgot-password")
    expect(page.get_by_role("heading", level=1)).to_have_text("Forgot your password?")
    page.fill("#reset-email", email)
    page.click("#reset-send")
    expect(page.locator("#otp-title")).to_be_visible()
    page.fill("#otp", smtp.inbox.wait_for_code(email, count=2))
    page.click("#otp-submit")
    expect(page.get_by_role("heading", level=1)).to_have_text("Choose a new password")
    page.fill("#reset-password", "Dinner@2026")
    page.fill("#reset-confirm_password", "Dinner@2025")
    page.click("#reset-save")
    expect(page.locator("#reset-confirm_password-error")).to_have_text("Password do not match")
    page.fill("#reset-confirm_password", "Dinner@2026")
    page.click("#reset-save")
    done = page.get_by_role("status").filter(has_text="Your password has been reset")
    expect(done).to_be_visible()
    expect(page.locator("#signin-identifier")).to_be_focused()  # where the parent goes on
    sign_in(page, email, DEMO_PASSWORD)
    expect(page.locator("#signin-form-error")).to_have_text("Invalid email or password")
    sign_in(page, email, "Dinner@2026")
    # Sign-up not finished (no child yet): after login, on to add-child (docs/product.md §2).
    page.wait_for_url(re.compile(r"/parent/add-child/?$"))


def test_parent_area_steps_settings_and_password(page: Page, parent_cookie: dict, viewport):
    as_parent(page, parent_cookie)
    open_page(page, "/edit-profile")
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Hello, Maria"))
    expect(page.locator("main")).to_contain_text("Emma Tremblay")

    # Change password from the profile menu: settings step 6, sub-step 3.
    open_account_menu_item(page, "Change password")
    expect(page.get_by_role("heading", level=1)).to_have_text("Change password")
    assert stored(page, "editProfileStep") == "6"
    assert stored(page, "editProfileSetingsStep") == "3"
    page.click("#password-submit")
    expect(page.locator("#password-current_password-error")).to_have_text(
        "Current password is required"
    )
    expect(page.locator("#password-new_password-error")).to_have_text("New password is required")
    expect(page.locator("#password-confirm_password-error")).to_have_text(
        "Confirm password is required"
    )
    page.fill("#password-current_password", DEMO_PASSWORD)
    page.fill("#password-new_password", "Lunch@2026!")
    page.fill("#password-confirm_password", "Lunch@2026?")
    page.click("#password-submit")
    expect(page.locator("#password-confirm_password-error")).to_have_text("Passwords do not match")
    # Change it and back, so the demo account stays as the README says.
    # Each round waits for the previous toast to go, so the second "Password Changed" is the
    # server's answer to the second change and not the first toast still on screen.
    for turn, (old, new) in enumerate(
        ((DEMO_PASSWORD, "Lunch@2026!"), ("Lunch@2026!", DEMO_PASSWORD))
    ):
        if turn:
            expect(page.get_by_text("Password Changed")).to_have_count(0, timeout=20_000)
            page.click("#settings-password")
        expect(page.locator("#password-submit")).to_be_visible()
        page.fill("#password-current_password", old)
        page.fill("#password-new_password", new)
        page.fill("#password-confirm_password", new)
        page.click("#password-submit")
        expect(page.get_by_text("Password Changed").first).to_be_visible()
        expect(page.locator("#settings-password")).to_be_visible()
        expect(page.locator("#password-submit")).to_have_count(0)

    # Manage notification: sub-step 2.
    page.click("#settings-notifications")
    expect(page.get_by_role("heading", level=1)).to_have_text("Manage notification")
    page.get_by_label("Newsletter").click()
    page.click("#notifications-save")
    expect(page.get_by_text("Notification preferences saved")).to_be_visible()
    close_toasts(page)  # on a phone it lies over the step tabs (a loaded run tapped the toast)

    # Contact us (step 8) from the side menu: the contact form, prefilled from the profile.
    page.click("#step-8")
    expect(page.get_by_role("heading", level=1)).to_have_text("Contact us")
    expect(page.get_by_label("Email address")).to_have_value(DEMO_EMAIL)
    page.click("#contact-submit")
    expect(page.locator("#contact-subject-error")).to_have_text("Please enter subject")
    expect(page.locator("#contact-description-error")).to_have_text(
        "Please tell us how we can help"
    )
    page.fill("#contact-phone", DEMO_PHONE)
    page.fill("#contact-subject", "Lunch on Friday")
    page.fill("#contact-description", "Can Emma's meal come without onions?")
    page.click("#contact-submit")
    expect(page.get_by_text("Thank you! Your message has been sent.")).to_be_visible()

    # Terms (step 9) from the footer, from the CMS table, back at the top of the page.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.locator("footer").get_by_role("button", name="Terms and conditions").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Terms and Conditions")
    expect(page.locator("article")).to_contain_text("$7.25")
    assert stored(page, "editProfileStep") == "9"
    page.wait_for_function("window.scrollY === 0")


def test_visitor_footer_opens_terms_in_a_dialog(page: Page):
    open_page(page, "/")
    page.locator("footer").get_by_role("button", name="Terms and conditions").click()
    dialog = page.get_by_role("dialog")
    expect(dialog.get_by_role("heading", name="Terms and Conditions")).to_be_visible()
    expect(dialog).to_contain_text("$7.25")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)


def _json(data: dict) -> str:
    return json.dumps(data)
