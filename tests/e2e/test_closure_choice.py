"""The closure choice on the family credit screen in Chromium, in the suite's language variant:
the card by default, a make-up meal chosen and saved once (the busy button), said in the page's
language and kept on the account."""

# ruff: noqa: F811 - the family fixture is imported

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.helpers import msg, open_page, use_language
from tests.e2e.server import AppServer
from tests.e2e.test_family_credit import family  # noqa: F401 - fixture
from tests.e2e.test_payments import db_rows, logged_in


def test_the_closure_choice_is_saved_and_kept(
    page: Page, app: AppServer, family: dict, lang: str
) -> None:
    use_language(page, lang)
    open_page(logged_in(page, app, family), "/edit-profile/family-credit")
    expect(page.locator("#closure-card")).to_be_checked()
    page.locator("label[for='closure-makeup']").click()
    page.click("#closure-choice-save")
    saved = page.locator("[data-sonner-toast][data-type='success']")
    expect(saved).to_contain_text(msg("closures_ui.saved", lang))
    chosen = "SELECT closure_choice FROM familychoice WHERE parent_id = ?"
    assert db_rows(app, chosen, family["id"]) == [("makeup",)]
    page.reload()
    expect(page.locator("#closure-makeup")).to_be_checked()
