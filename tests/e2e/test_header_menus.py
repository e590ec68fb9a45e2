"""The header's menus are native disclosures (components/disclosure.py): they open
from the keyboard and by touch, close on Escape (focus back on the button), on a tap outside
and once an item is chosen, and the first screens load no Radix dropdown code for them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import msg, open_page

pytestmark = pytest.mark.parametrize("viewport", ["phone"], indirect=True)


def test_the_visitor_menu_opens_closes_and_navigates(page: Page) -> None:
    scripts: list[str] = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    open_page(page, "/")
    trigger = page.locator("#visitor-menu")
    menu = page.locator("details.hm-menu:has(#visitor-menu)")
    sign_up = page.locator("#visitor-menu-sign-up")
    expect(trigger).to_have_accessible_name(msg("ui.header.menu", "en"))
    expect(sign_up).to_be_hidden()

    # Keyboard: Enter opens, the items follow in Tab order, Escape closes onto the button.
    trigger.focus()
    page.keyboard.press("Enter")
    expect(menu).to_have_attribute("open", "")
    page.keyboard.press("Tab")
    expect(page.locator("#visitor-menu-parents")).to_be_focused()
    page.keyboard.press("Escape")
    expect(menu).not_to_have_attribute("open", "")
    expect(trigger).to_be_focused()

    # Touch: a tap outside closes it; an item closes it and goes where it says.
    trigger.click()
    expect(sign_up).to_be_visible()
    page.mouse.click(4, 420)  # the page's left margin, below the open panel
    expect(sign_up).to_be_hidden()
    trigger.click()
    sign_up.click()
    page.wait_for_url(re.compile(r"/parent/sign-up/?$"))

    # None of the first screens' scripts is Radix's dropdown menu (or its positioning code).
    assert scripts, "the page loaded its scripts"
    assert not [s for s in scripts if "/dropdown-menu-" in s]


def test_the_account_menu_gives_the_focus_back_after_its_dialog(
    page: Page, parent_cookie: dict
) -> None:
    page.context.add_cookies([parent_cookie])
    open_page(page, "/edit-profile")
    trigger = page.locator("#profile-menu")
    trigger.click()
    logout = page.locator("#menu-logout")
    expect(logout).to_be_visible()
    expect(page.locator("#menu-book-meal")).to_be_visible()  # phones: Book meal lives here
    logout.click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_be_visible()
    # The menu closed behind the dialog, and Cancel gives the focus back to its button.
    expect(logout).to_be_hidden()
    dialog.get_by_role("button", name=msg("ui.logout.cancel", "en")).click()
    expect(dialog).to_have_count(0)
    expect(trigger).to_be_focused()
