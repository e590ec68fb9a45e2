"""The closure choice on the family credit screen in Chromium: the card by default, a make-up
meal chosen and saved once (the busy button), kept on the account."""

# ruff: noqa: F811 - the family fixture is imported

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.helpers import open_page
from tests.e2e.server import AppServer
from tests.e2e.test_family_credit import family  # noqa: F401 - fixture
from tests.e2e.test_payments import db_rows, logged_in


def test_the_closure_choice_is_saved_and_kept(page: Page, app: AppServer, family: dict) -> None:
    open_page(logged_in(page, app, family), "/edit-profile/family-credit")
    expect(page.locator("#closure-card")).to_be_checked()
    page.locator("label[for='closure-makeup']").click()
    page.click("#closure-choice-save")
    expect(page.locator("[data-sonner-toast][data-type='success']")).to_be_visible()
    chosen = "SELECT closure_choice FROM familychoice WHERE parent_id = ?"
    assert db_rows(app, chosen, family["id"]) == [("makeup",)]
    page.reload()
    expect(page.locator("#closure-makeup")).to_be_checked()
