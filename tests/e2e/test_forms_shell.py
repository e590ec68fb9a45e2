"""Issue 12 in Chromium at 390 px, EN and FR: what the header, dialogs and links say to a
keyboard and a screen reader, and where a signed-in parent who opens /sign-in or /sign-up
goes."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import open_page, wait_hydrated


@pytest.fixture
def viewport() -> str:
    return "phone"


def test_signed_in_visits_to_sign_in_and_sign_up_go_on(page: Page, parent_cookie):
    page.context.add_cookies([parent_cookie])
    page.goto("/parent/sign-in?next=/edit-profile/parent-edit-profile")
    page.wait_for_url(re.compile(r"/parent/edit-profile/parent-edit-profile/?$"))
    wait_hydrated(page)
    expect(page).to_have_title(re.compile("^Edit profile"))
    for path in ("/sign-up", "/sign-in-with-phone"):
        page.goto(f"/parent{path}")
        page.wait_for_url(re.compile(r"/parent/?$"))  # the parent home
        wait_hydrated(page)
        expect(page).to_have_title(re.compile("^Hot Meals"))


def test_cart_and_cancel_cart_have_names_that_tell_them_apart(page: Page, parent_cookie):
    page.context.add_cookies([parent_cookie])
    open_page(page, "/edit-profile")
    cart, cancel = page.locator("#header-cart"), page.locator("#header-cancel-cart")
    expect(cart).to_have_accessible_name(re.compile(r"^Cart, \d+ items?$"))
    expect(cancel).to_have_accessible_name(re.compile(r"^Cancel cart, \d+ items?$"))
    icons = [c.locator("svg").first.get_attribute("class") for c in (cart, cancel)]
    assert icons[0] != icons[1]  # two pictures, not one
    page.evaluate("localStorage.setItem('lang', 'fr')")  # the stored choice (docs §1)
    page.reload()
    wait_hydrated(page)
    expect(cart).to_have_accessible_name(re.compile(r"^Panier, \d+ articles?$"))
    expect(cancel).to_have_accessible_name(re.compile(r"^Panier d'annulation, \d+ articles?$"))


def test_focus_returns_to_what_opened_a_dialog(page: Page, parent_cookie):
    page.context.add_cookies([parent_cookie])
    open_page(page, "/edit-profile")
    # Logout, from the account menu, by keyboard: Escape closes the dialog.
    page.locator("#profile-menu").focus()
    page.keyboard.press("Enter")
    page.get_by_role("menuitem", name="Logout").press("Enter")
    dialog = page.get_by_role("alertdialog")
    expect(dialog.get_by_role("heading")).to_have_text("Logout?")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(page.locator("#profile-menu")).to_be_focused()
    # Delete a child: Cancel puts the focus back on that child's Delete button.
    delete = page.get_by_role("button", name=re.compile(r"^Delete ")).first
    delete.click()
    expect(dialog.get_by_role("heading")).to_have_text("Are you sure?")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(delete).to_be_focused()


def test_links_that_look_like_buttons_are_one_element(page: Page):
    open_page(page, "/")
    for name in ("Get started", "I have an account", "Login"):
        control = page.get_by_role("link", name=name, exact=True)
        expect(control).to_have_count(1)
        expect(control.locator("button")).to_have_count(0)
    expect(page.locator("a button, button a")).to_have_count(0)
