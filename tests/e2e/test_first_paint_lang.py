"""A parent who chose French gets French from the first paint (hotmeals/ui/lang_paint.py,
hotmeals.web.lang_pages.py): the HTML the server sends is French before any script runs, and
React hydrates it without a mismatch (a mismatch makes React redraw the page and log a
"Minified React error" #418/#423/#425 in production)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import VIEWPORTS
from tests.e2e.helpers import open_page, switch_language, wait_hydrated
from tests.e2e.server import AppServer

# Every prerendered page a visitor can open: its French title, a French text its first paint
# must show, and an English text of the same place.
VISITOR_PAGES = {
    "/": ("Hot Meals", "dîners chauds", "school lunches"),
    "/sign-in": ("Connexion", "Mot de passe oublié?", "Forgot password?"),
    "/sign-up": ("Inscription", "Créez votre compte", "Create your account"),
    "/sign-in-with-phone": ("Connexion par téléphone", "Mot de passe", "Password"),
    "/about": ("À propos", "Passer au contenu principal", "Skip to main content"),
    "/faq": ("Questions fréquentes", "Passer au contenu principal", "Skip to main content"),
    "/terms": ("Conditions d'utilisation", "Passer au contenu principal", "Skip to main content"),
    "/privacy": (
        "Politique de confidentialité",
        "Passer au contenu principal",
        "Skip to main content",
    ),
}
HYDRATION_ERROR = re.compile(r"Minified React error #(418|423|425)|Hydration failed|hydrat", re.I)


def _context(
    browser: Browser, app: AppServer, viewport: str, *, lang: str | None, scripts: bool = True
) -> BrowserContext:
    context = browser.new_context(
        viewport=VIEWPORTS[viewport],
        base_url=app.base_url,
        locale="en-CA",
        is_mobile=viewport == "phone",
        has_touch=viewport == "phone",
        java_script_enabled=scripts,
    )
    context.set_default_timeout(15_000)
    if lang is not None:
        # What a parent who chose the language on an earlier visit has: the stored choice
        # and its cookie mirror (set by the head script on that visit).
        context.add_init_script(f"window.localStorage.setItem('lang', '{lang}')")
        context.add_cookies([{"name": "hm_lang", "value": lang, "url": app.url("/")}])
    return context


def _watch_console(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


@pytest.fixture(params=["phone", "desktop"])
def width(request) -> str:
    return request.param


@pytest.fixture
def french(browser: Browser, app: AppServer, width: str) -> Iterator[BrowserContext]:
    context = _context(browser, app, width, lang="fr")
    yield context
    context.close()


def test_the_html_is_french_before_any_script(browser: Browser, app: AppServer):
    context = _context(browser, app, "phone", lang="fr", scripts=False)
    page = context.new_page()
    for path, (title, text, english) in VISITOR_PAGES.items():
        response = page.goto(app.url(path))
        assert response is not None and response.status == 200, path
        assert "cookie" in (response.headers.get("vary") or "").lower(), path
        html = response.text()
        assert '<html lang="fr-CA"' in html, path
        assert title in page.title(), (path, page.title())
        expect(page.locator("body")).to_contain_text(text)
        assert english not in html, path
    context.close()


def test_english_visitors_get_the_english_pages(browser: Browser, app: AppServer):
    context = _context(browser, app, "phone", lang=None, scripts=False)
    page = context.new_page()
    for path, (_, french, english) in VISITOR_PAGES.items():
        response = page.goto(app.url(path))
        assert response is not None and response.status == 200, path
        html = response.text()
        assert '<html lang="en-CA"' in html and "data-hm-paint" not in html, path
        expect(page.locator("body")).to_contain_text(english)
        assert french not in html, path
    context.close()


def test_french_pages_hydrate_without_a_mismatch_and_stay_french(
    french: BrowserContext, app: AppServer
):
    page = french.new_page()
    errors = _watch_console(page)
    for path, (title, text, english) in VISITOR_PAGES.items():
        open_page(page, path)
        expect(page.locator("body")).to_contain_text(text)
        expect(page.locator("body")).not_to_contain_text(english)
        expect(page).to_have_title(re.compile(re.escape(title)))
        assert page.evaluate("document.documentElement.lang") == "fr-CA", path
        hydration = [e for e in errors if HYDRATION_ERROR.search(e)]
        assert hydration == [], (path, hydration)


def test_english_pages_hydrate_without_a_mismatch(browser: Browser, app: AppServer):
    context = _context(browser, app, "phone", lang=None)
    page = context.new_page()
    errors = _watch_console(page)
    for path, (_, _, english) in VISITOR_PAGES.items():
        open_page(page, path)
        expect(page.locator("body")).to_contain_text(english)
    assert [e for e in errors if HYDRATION_ERROR.search(e)] == []
    context.close()


def test_switching_to_french_makes_the_next_load_french_from_the_first_byte(
    browser: Browser, app: AppServer
):
    context = _context(browser, app, "phone", lang=None)
    page = context.new_page()
    errors = _watch_console(page)
    open_page(page, "/sign-in")
    switch_language(page)
    expect(page.locator("main")).to_contain_text("Mot de passe oublié?")
    page.wait_for_function("document.cookie.includes('hm_lang=fr')")
    response = page.reload()
    assert response is not None and '<html lang="fr-CA"' in response.text()
    wait_hydrated(page)
    expect(page.locator("main")).to_contain_text("Mot de passe oublié?")
    switch_language(page)
    page.wait_for_function("document.cookie.includes('hm_lang=en')")
    response = page.reload()
    assert response is not None and '<html lang="en-CA"' in response.text()
    assert [e for e in errors if HYDRATION_ERROR.search(e)] == []
    context.close()


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("/edit-profile", "Réserver un repas"),
        ("/edit-profile/parent-edit-profile", "Modifier le profil"),
        ("/add-another-child", "Ajoutez votre enfant"),
    ],
)
def test_signed_in_pages_in_french_hydrate_without_a_mismatch(
    browser: Browser, app: AppServer, parent_cookie: dict, path: str, text: str
):
    context = _context(browser, app, "phone", lang="fr")
    context.add_cookies([parent_cookie])
    page = context.new_page()
    errors = _watch_console(page)
    response = page.goto(app.url(path))
    assert response is not None and '<html lang="fr-CA"' in response.text()
    wait_hydrated(page)
    expect(page.locator("body")).to_contain_text(text)
    assert [e for e in errors if HYDRATION_ERROR.search(e)] == []
    context.close()


def test_not_found_keeps_its_404_in_french(browser: Browser, app: AppServer):
    context = _context(browser, app, "phone", lang="fr", scripts=False)
    page = context.new_page()
    response = page.goto(app.url("/this/does-not-exist"))
    assert response is not None and response.status == 404
    context.close()
