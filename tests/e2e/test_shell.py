"""The landing page, the language switch and the not-found screen, at 1280 and 390 px."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.helpers import open_page, stored, switch_language


def test_landing_shows_prices_and_giveback_in_english(page: Page):
    open_page(page, "/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("school lunches")
    body = page.locator("main")
    expect(body).to_contain_text("Meals start at $5 per portion")
    expect(body).to_contain_text("$7.25")
    expect(body).to_contain_text("$0.50 of each meal goes to the school community")
    expect(body).to_contain_text("$0.20 to local children's nutrition programs")
    expect(page.locator("footer")).to_contain_text("support@hotmeals.example")
    expect(page.get_by_role("link", name=re.compile("^Login"))).to_be_visible()


def test_switching_to_french_shows_french_and_is_remembered(page: Page):
    open_page(page, "/")
    switch_language(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text("dîners chauds")
    expect(page.locator("main")).to_contain_text("0,50 $ de chaque repas")
    assert stored(page, "lang") == "fr"
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_contain_text("dîners chauds")
    switch_language(page)
    expect(page.get_by_role("heading", level=1)).to_contain_text("school lunches")


def test_unknown_path_shows_not_found_without_header_or_footer(page: Page):
    response = page.goto("/parent/this/does-not-exist")
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
    expect(page.locator("footer")).to_have_count(0)
    expect(page.locator("header")).to_have_count(0)
