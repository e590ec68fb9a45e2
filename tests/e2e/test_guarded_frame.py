"""A guarded page paints its frame before the session check (the brand, the screen's
heading and intro, a skeleton) and nothing of the parent's until the check has answered; a
visitor is still sent to sign-in (docs/product.md §2, "Page shell")."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import msg, open_page
from tests.e2e.server import AppServer

FRAMED = {
    "/edit-profile/meal-detailed": "ui.book.title",
    "/edit-profile/cart": "checkout.cart_title",
    "/edit-profile/order-history": "orders_ui.history_title",
}


@pytest.mark.parametrize("path", sorted(FRAMED))
def test_the_prerendered_page_is_the_frame_and_nothing_of_the_parent(
    app: AppServer, parent_cookie, path: str
):
    # The page as the server sends it, with the session cookie: what paints before any script.
    html = httpx.get(
        f"{app.base_url}/parent{path}",
        cookies={"hm_token": parent_cookie["value"]},
        timeout=30,
    ).text
    assert msg(FRAMED[path], "en") in html
    assert 'id="page-skeleton"' in html and 'data-hm-placeholder=""' not in html
    # The demo parent's name and e-mail, the account menu and the cart count: not before the check.
    for private in ("parent@example.com", 'id="profile-menu"', 'id="header-cart"'):
        assert private not in html, private


def test_the_parent_header_and_the_data_come_with_the_check(page: Page, parent_cookie):
    page.context.add_cookies([parent_cookie])
    open_page(page, "/edit-profile/order-history")
    expect(page.locator("#profile-menu")).to_be_visible()
    expect(page.locator("#page-skeleton")).to_have_count(0)
    expect(page.locator("#tab-future")).to_be_visible()


@pytest.mark.parametrize("path", sorted(FRAMED))
def test_a_visitor_is_sent_to_sign_in(page: Page, path: str):
    page.goto(f"/parent{path}")
    page.wait_for_url(re.compile(r"/parent/sign-in\?next=" + re.escape(path)))
    expect(page.locator("#profile-menu")).to_have_count(0)
