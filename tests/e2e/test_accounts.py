"""Sign-up end to end, at 1280 and 390 px: docs/product.md §5 messages at the fields, the e-mail
code read from the test's SMTP server, a child, the allergy profile, and the parent lands in
/edit-profile. The same in French."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from tests.e2e.helpers import open_page, stored, switch_language, wait_hydrated
from tests.e2e.smtp import SmtpServer

PASSWORD = "Lunch@2026"


def new_email(viewport: str) -> str:
    return f"e2e-{viewport}-{uuid.uuid4().hex[:10]}@example.com"


def field_error(page: Page, field_id: str):
    return page.locator(f"#{field_id}-error")


def new_phone() -> str:
    """A number of its own: a phone number identifies one account."""
    n = uuid.uuid4().int
    return f"613-{n % 900 + 100}-{n // 1000 % 10_000:04d}"


def fill_sign_up(page: Page, email: str, phone: str | None = None) -> None:
    phone = phone or new_phone()
    page.fill("#signup-first_name", "Alex")
    page.fill("#signup-last_name", "Martin")
    page.fill("#signup-email", email)
    page.fill("#signup-phone", phone)
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-confirm_password", PASSWORD)
    page.locator("#signup-terms").check()


def add_first_child(page: Page) -> None:
    page.fill("#child-first_name", "Sam")
    page.fill("#child-last_name", "Martin")
    page.select_option("#child-city", label="Ottawa")
    expect(page.locator("#child-school option")).not_to_have_count(1)
    page.select_option("#child-school", index=1)
    expect(page.locator("#child-teacher option")).not_to_have_count(1)
    page.select_option("#child-teacher", index=1)
    # The teacher's class suggests the grade.
    expect(page.locator("#child-grade")).not_to_have_value("")
    page.click("#child-submit")


def test_sign_up_shows_each_rule_at_its_field(page: Page):
    open_page(page, "/sign-up")
    # As the parent types: leaving a field shows its message (docs/product.md §5, verbatim).
    page.fill("#signup-email", "not-an-email")
    page.locator("#signup-email").blur()
    expect(field_error(page, "signup-email")).to_have_text("Please enter valid email address")
    expect(page.locator("#signup-email")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#signup-email")).to_have_attribute(
        "aria-describedby", re.compile("signup-email-error")
    )
    page.fill("#signup-phone", "12ab")
    page.locator("#signup-phone").blur()
    expect(field_error(page, "signup-phone")).to_have_text("Please enter valid phone number")
    page.fill("#signup-phone", "12345")
    expect(field_error(page, "signup-phone")).to_have_text(
        "Please enter atleast 8 digits for phone number"
    )
    page.fill("#signup-first_name", "Al3x")
    page.locator("#signup-first_name").blur()
    expect(field_error(page, "signup-first_name")).to_have_text(
        "Please enter only letters (A-Z, a-z) with no special characters or numbers"
    )
    page.fill("#signup-password", "short")
    page.locator("#signup-password").blur()
    expect(field_error(page, "signup-password")).to_have_text(
        "Password must contain at least 8 characters, one uppercase, one number and one "
        "special case character"
    )
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-confirm_password", "Lunch@2025")
    page.locator("#signup-confirm_password").blur()
    expect(field_error(page, "signup-confirm_password")).to_have_text("Password do not match")
    # On submit: every remaining message, terms included.
    page.fill("#signup-last_name", "")
    page.click("#signup-submit")
    expect(field_error(page, "signup-last_name")).to_have_text("Please enter last name")
    expect(field_error(page, "signup-terms")).to_have_text("Terms & condition is required")
    expect(page.locator("#otp")).to_have_count(0)


def test_sign_up_verify_add_child_and_allergies_lands_in_edit_profile(
    page: Page, smtp: SmtpServer, viewport: str
):
    email = new_email(viewport)
    open_page(page, "/sign-up")
    fill_sign_up(page, email)
    page.click("#signup-submit")

    # The code screen; the code comes from the real SMTP server.
    expect(page.locator("#otp-title")).to_have_text("Check your email")
    expect(page.locator("#otp-panel")).to_contain_text(email)
    expect(page.locator("#otp-resend")).to_be_disabled()  # cooldown shown
    expect(page.locator("#otp-cooldown")).to_contain_text("You can ask for a new code in")
    mail = smtp.inbox.wait_for_mail(email)
    assert "verification code" in mail.subject
    code = smtp.inbox.wait_for_code(email)
    page.fill("#otp", "000000" if code != "000000" else "111111")
    page.click("#otp-submit")
    expect(field_error(page, "otp")).to_have_text("Invalid or expired verification code")
    page.fill("#otp", code)
    page.click("#otp-submit")

    # signup_step ADD_CHILD -> /add-child (docs/product.md §2).
    page.wait_for_url(re.compile(r"/parent/add-child/?$"))
    wait_hydrated(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Add your child")
    assert any(c["name"] == "hm_token" and c["value"] for c in page.context.cookies())
    page.click("#child-submit")
    expect(field_error(page, "child-city")).to_have_text("Please enter city")
    expect(field_error(page, "child-school")).to_have_text("Please Select School")
    add_first_child(page)

    # ALLERGY -> /allergy-profile: type-ahead, a level per ingredient.
    page.wait_for_url(re.compile(r"/parent/allergy-profile/?$"))
    wait_hydrated(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Sam")
    page.fill("#allergy-search", "sesa")
    page.get_by_role("button", name=re.compile("^Add Sesame")).click()
    row = page.locator(".hm-allergy-row").filter(has_text="Sesame")
    expect(row).to_be_visible()
    row.locator("select").select_option("Medium")
    page.click("#allergy-save")

    # Complete -> isLoginData -> /edit-profile, with the child and its allergy.
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
    wait_hydrated(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Hello, Alex"))
    expect(page.locator("main")).to_contain_text("Sesame (Medium)")
    assert stored(page, "editProfileStep") == "1"
    session = stored(page, "hm_session") or ""
    assert '"signup_step": "COMPLETE"' in session and email in session

    # Manage children: add another, make it the default, then delete it after the warning.
    page.click("#add-another-child")
    page.wait_for_url(re.compile(r"/parent/add-another-child/?$"))
    wait_hydrated(page)
    page.fill("#child-first_name", "Max")
    page.fill("#child-last_name", "Martin")
    page.select_option("#child-city", label="Ottawa")
    expect(page.locator("#child-school option")).not_to_have_count(1)
    page.select_option("#child-school", index=1)
    expect(page.locator("#child-teacher option")).not_to_have_count(1)
    # The first teacher: a school another test of this server added may have only one.
    page.select_option("#child-teacher", index=1)
    expect(page.locator("#child-grade")).not_to_have_value("")
    page.click("#child-submit")
    page.wait_for_url(re.compile(r"/parent/allergy-profile/?\?child=\d+$"))
    wait_hydrated(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Max")
    page.get_by_role("link", name="Cancel").click()
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
    wait_hydrated(page)
    page.get_by_role("button", name="Make default Max Martin").click()
    expect(page.get_by_text("Max is now the default child")).to_be_visible()
    dialog = page.get_by_role("alertdialog")
    # The list re-renders once the new default is saved (the default child moves first): wait
    # for that condition (Max has no "Make default" button any more), then click once.
    expect(page.get_by_role("button", name="Make default Max Martin")).to_have_count(0)
    expect(page.locator("main h3").first).to_contain_text("Max Martin")
    page.get_by_role("button", name="Delete Max Martin").click()
    expect(dialog.get_by_role("heading")).to_have_text("Are you sure?")
    dialog.get_by_role("button", name="Yes, delete").click()
    expect(page.get_by_text("Child deleted successfully")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("Max Martin")
    expect(page.locator("main")).to_contain_text("Sam Martin")


def test_sign_up_in_french(page: Page, smtp: SmtpServer, viewport: str):
    email = new_email(viewport)
    open_page(page, "/sign-up")
    switch_language(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Créez votre compte")
    page.fill("#signup-email", "x")
    page.locator("#signup-email").blur()
    expect(field_error(page, "signup-email")).to_have_text(
        "Veuillez saisir une adresse courriel valide"
    )
    fill_sign_up(page, email, phone="819-" + new_phone()[4:])
    page.click("#signup-submit")
    expect(page.locator("#otp-title")).to_have_text("Vérifiez vos courriels")
    mail = smtp.inbox.wait_for_mail(email)
    assert "Votre code de vérification" in mail.subject  # the e-mail follows the language
    page.fill("#otp", smtp.inbox.wait_for_code(email))
    page.click("#otp-submit")
    page.wait_for_url(re.compile(r"/parent/add-child/?$"))
    wait_hydrated(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Ajoutez votre enfant")
    expect(page.get_by_label("Ville")).to_be_visible()
    add_first_child(page)
    page.wait_for_url(re.compile(r"/parent/allergy-profile/?$"))
    wait_hydrated(page)
    page.get_by_role("button", name="Aucune allergie, continuer").click()
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
    wait_hydrated(page)
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Bonjour, Alex"))
    assert stored(page, "lang") == "fr"
