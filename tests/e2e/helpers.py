"""Small page helpers for e2e tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

# The axe checks: each screen at both widths and in both languages, in two runs (390 px in
# French, 1280 px in English); tests/e2e/conftest.py runs every other flow once.
BOTH_WIDTHS = pytest.mark.parametrize(
    ("viewport", "lang"), [("phone", "fr"), ("desktop", "en")], indirect=["viewport"]
)


def open_page(page: Page, path: str = "/") -> Page:
    """Open a page under /parent and wait until Reflex has hydrated it (handlers are live)."""
    page.goto(f"/parent{path}")
    wait_hydrated(page)
    return page


def wait_hydrated(page: Page) -> None:
    expect(page.locator('main[data-hydrated="true"]')).to_have_count(1, timeout=20_000)


def open_profile_menu(page: Page) -> None:
    """The header's profile menu (a <details>), open. On a busy machine a tap can land while
    the header is still re-rendered for the signed-in parent, which closes the menu again:
    tap once more while it is not open, until it is."""
    menu = page.locator("details.hm-menu:has(#profile-menu)")
    for _ in range(4):
        if menu.get_attribute("open") is None:
            page.click("#profile-menu")
        try:
            expect(menu).to_have_attribute("open", "", timeout=5_000)
            return
        except AssertionError:
            continue
    expect(menu).to_have_attribute("open", "")


def switch_language(page: Page) -> None:
    page.locator("#lang-switch").first.click()


def stored(page: Page, key: str) -> str | None:
    return page.evaluate("(k) => window.localStorage.getItem(k)", key)


def sign_in(page: Page, identifier: str, password: str) -> None:
    """Fill and submit the sign-in form (e-mail or phone)."""
    page.fill("#signin-identifier", identifier)
    page.fill("#signin-password", password)
    page.click("#signin-submit")


def use_language(page: Page, lang: str) -> None:
    """Every page this tab opens starts in ``lang`` (the stored choice, docs §1), as a parent
    who picked it earlier. Call before the first ``open_page``."""
    page.add_init_script(f"window.localStorage.setItem('lang', '{lang}')")


def msg(key: str, lang: str, **params: object) -> str:
    """The catalog's text for ``key`` in ``lang``: tests assert what the app shows verbatim
    without retyping it. A counted message (``key.one``/``key.other``) takes its plural form
    for ``count`` (``i18n.tn``)."""
    from hotmeals.i18n import EN, t, tn

    if key not in EN and f"{key}.other" in EN:
        count = params.pop("count")
        assert isinstance(count, int), count
        return tn(key, count, lang, **params)
    return t(key, lang, **params)


def close_toasts(page: Page) -> None:
    """Close the toasts on screen with their own close button, as a parent would. On a phone a
    toast lies over the top of the page (the step tabs) for 5 s, and a pointer resting on it
    keeps it open, so a test that taps there next closes it first instead of waiting on it."""
    # Each close button pressed in the page at once: none can vanish between finding and tapping.
    page.evaluate(
        "() => document.querySelectorAll('[data-sonner-toast] button[data-close-button]')"
        ".forEach((button) => button.click())"
    )
    expect(page.locator("[data-sonner-toast]")).to_have_count(0)


def shot(page: Page, name: str, *, full_page: bool = True) -> None:
    """With E2E_SHOTS=<folder>, a screenshot for people to look at (no assertion reads it):
    ``<folder>/<name>-<width>.png``. Without it, nothing: the suite does not pay for pictures
    nobody looks at."""
    folder = os.environ.get("E2E_SHOTS")
    if not folder:
        return
    path = Path(folder) / f"{name}-{page.viewport_size['width'] if page.viewport_size else 0}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page)
