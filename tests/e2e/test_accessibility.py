"""WCAG 2.1 AA checks with axe-core (npm, injected through Playwright): no serious or critical
violation on the screens parents see, at 1280 and 390 px, in English and French."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import BOTH_WIDTHS, open_page

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
# Each screen and what only that screen shows once it has rendered: the check runs on the
# screen itself, never on a redirect (a signed-in screen that sent us to sign-in would pass).
VISITOR_PATHS = {
    "/": "main h1",
    "/sign-in": "#signin-submit",
    "/sign-up": "#signup-submit",
    "/sign-in-with-phone": "#signin-submit",
    "/about": "main h1",
    "/faq": "main h1",
}
PARENT_PATHS = {
    "/edit-profile": "#book-meal",
    "/edit-profile/parent-edit-profile": "#profile-save",
    "/edit-profile/edit-child": "#child-delete",
    "/add-another-child": "#child-submit",
    "/edit-profile/donate-payment": "#donate-submit",
    "/edit-profile/meal-detailed": "#book-calendar",
    "/edit-profile/payment-methods": "#saved-cards, #no-cards",
    "/edit-profile/family-credit": "#credit-balance",
    "/edit-profile/child-away": "#away-check",
    "/standing-orders": "#standing-list",
}


def serious_violations(page: Page) -> list[dict]:
    if not AXE.exists():
        pytest.fail("axe-core is missing: run `make e2e-tools` (npm ci in tests/e2e)")
    page.add_script_tag(path=str(AXE))
    # A dialog or toast still fading in has the page's colours at part opacity: axe would read
    # its text as low contrast. Wait for every finite animation to end (a condition, not a
    # pause; a spinner's endless one is left alone).
    page.evaluate(
        """() => Promise.all(document.getAnimations()
            .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
            .map((a) => a.finished.catch(() => null)))"""
    )
    result = page.evaluate(
        """async () => await axe.run(document, {
            runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']},
        })"""
    )
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "targets": [n["target"] for n in v["nodes"]][:5],
        }
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def _check(page: Page, path: str, marker: str, lang: str) -> list[dict]:
    page.add_init_script(f"window.localStorage.setItem('lang', '{lang}')")
    open_page(page, path)
    expect(page.locator(marker).first).to_be_visible(timeout=20_000)
    expect(page).to_have_url(re.compile(rf"/parent{re.escape(path.rstrip('/'))}/?$"))
    # ... and in the language under test (the page's content carries it for screen readers).
    expect(page.locator(f'[lang="{lang}-CA"]').first).to_be_attached()
    return serious_violations(page)


@BOTH_WIDTHS
def test_visitor_screens_have_no_serious_axe_violation(page: Page, lang: str):
    found = {p: v for p, mark in VISITOR_PATHS.items() if (v := _check(page, p, mark, lang))}
    assert not found, json.dumps(found, indent=1)


@BOTH_WIDTHS
def test_parent_screens_have_no_serious_axe_violation(page: Page, parent_cookie: dict, lang):
    page.context.add_cookies([parent_cookie])
    found = {p: v for p, mark in PARENT_PATHS.items() if (v := _check(page, p, mark, lang))}
    assert not found, json.dumps(found, indent=1)


# The cart, order summary and payment, with meals in the demo parent's cart so the
# whole screens are checked (tests/e2e/cartdata.py).
CHECKOUT_PATHS = {
    "/edit-profile/cart": ".hm-cart-line",
    "/edit-profile/order-summary": "#summary-pay",
    "/payment": "#pay-submit",
}


@BOTH_WIDTHS
def test_checkout_screens_have_no_serious_axe_violation(page: Page, app, parent_cookie, lang):
    from tests.e2e.cartdata import fill_cart

    fill_cart(app)
    page.context.add_cookies([parent_cookie])
    found = {p: v for p, mark in CHECKOUT_PATHS.items() if (v := _check(page, p, mark, lang))}
    assert not found, json.dumps(found, indent=1)


@BOTH_WIDTHS
def test_order_screens_have_no_serious_axe_violation(page: Page, app, parent_cookie, lang):
    """The order history, a paid order's details and a cancel cart with a meal."""
    from tests.e2e.orderdata import empty_cancel_cart, fill_cancel_cart, paid_order

    empty_cancel_cart(app)
    made = paid_order(app)
    fill_cancel_cart(app, made["order_id"])
    page.context.add_cookies([parent_cookie])
    paths = {
        "/edit-profile/order-history": ".hm-order-card",
        f"/edit-profile/order-details?id={made['order_id']}": "#order-lines",
        "/edit-profile/cancel-cart": ".hm-cancel-line",
    }
    found = {p: v for p, mark in paths.items() if (v := _check(page, p, mark, lang))}
    assert not found, json.dumps(found, indent=1)


@BOTH_WIDTHS
def test_order_change_screens_have_no_serious_axe_violation(page: Page, app, parent_cookie, lang):
    """Modify an order (and its add-item step), the upcoming meals,
    one meal, the confirm-move step."""
    from tests.e2e.cartdata import rows
    from tests.e2e.orderdata import empty_cancel_cart, paid_order

    empty_cancel_cart(app)
    made = paid_order(app)
    line = rows(app, "SELECT id FROM orderline WHERE order_id = ? ORDER BY id", made["order_id"])
    line_id = line[0][0]
    page.context.add_cookies([parent_cookie])
    paths = {
        f"/edit-profile/modify-order?id={made['order_id']}": "#change-lines",
        f"/edit-profile/modify-order/add-item?id={made['order_id']}": "#book-calendar",
        "/edit-profile/manage-meal-details": "#manage-meals",
        f"/edit-profile/manage-meal-details?id={line_id}": "#manage-meal",
        f"/edit-profile/manage-meal-details/manage-confirm-order?id={line_id}&date=2000-01-03": (
            "#manage-missing"
        ),
    }
    found = {p: v for p, mark in paths.items() if (v := _check(page, p, mark, lang))}
    assert not found, json.dumps(found, indent=1)


def test_the_confirmation_mails_html_has_no_serious_axe_violation(page: Page, app, smtp):
    """The HTML part of the mail a paid order sends (services/mail_html.py), as the SMTP sink
    received it, opened as a page."""
    from tests.e2e.orderdata import DEMO, paid_order

    made = paid_order(app)
    mail = smtp.inbox.wait_for_subject(DEMO, made["number"])
    assert mail.content_type == "multipart/alternative" and "<table" in mail.html
    page.set_content(mail.html)
    expect(page.locator("caption").first).to_be_visible()
    assert serious_violations(page) == []
