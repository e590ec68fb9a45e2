"""Small page helpers for e2e tests."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def open_page(page: Page, path: str = "/") -> Page:
    """Open a page under /parent and wait until Reflex has hydrated it (handlers are live)."""
    page.goto(f"/parent{path}")
    wait_hydrated(page)
    return page


def wait_hydrated(page: Page) -> None:
    expect(page.locator('main[data-hydrated="true"]')).to_have_count(1, timeout=20_000)


def switch_language(page: Page) -> None:
    page.locator("#lang-switch").first.click()


def stored(page: Page, key: str) -> str | None:
    return page.evaluate("(k) => window.localStorage.getItem(k)", key)


def sign_in(page: Page, identifier: str, password: str) -> None:
    """Fill and submit the sign-in form (e-mail or phone)."""
    page.fill("#signin-identifier", identifier)
    page.fill("#signin-password", password)
    page.click("#signin-submit")
