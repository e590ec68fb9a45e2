"""No signed-in screen is wider than a phone. At 360 and 390 px every screen the demo
parent (two children, a paid order, a meal in the cancel cart, meals in the cart) can open
fits the window: ``document.documentElement.scrollWidth <= window.innerWidth``, and
``window.innerWidth`` is the phone's width (an emulated phone, as a real one, widens its
viewport to a page wider than the screen: 399 px at 390 px was measured so, comparing the page
with itself would pass). One page load per route, measured at each width, in French (the
longer words); each route waits for a mark only that screen shows, so a redirect (to sign-in,
say) cannot pass for the screen."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, expect

from tests.e2e.conftest import VIEWPORTS
from tests.e2e.helpers import open_page, use_language

WIDTHS = (360, 390)
# The page's width, and any control (button, link, field, tab) whose right edge lies beyond the
# window without a scrolling box of its own around it: a cut-off control (the account chevron)
# is as bad as a page that scrolls sideways, and a clipping box would hide it from scrollWidth.
MEASURE = """(width) => {
  const inner = window.innerWidth;
  const scrolls = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const ox = getComputedStyle(p).overflowX;
      if ((ox === 'auto' || ox === 'scroll') && p.scrollWidth > p.clientWidth) return true;
    }
    return false;
  };
  const cut = [];
  for (const el of document.querySelectorAll('button, a, input, select, [role=tab]')) {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;
    if (r.right > width + 0.5 && !scrolls(el)) {
      cut.push((el.id || el.getAttribute('aria-label') || el.textContent || '').slice(0, 40)
        + ' right=' + Math.round(r.right));
    }
  }
  return {scroll: document.documentElement.scrollWidth, inner, cut: cut.slice(0, 5)};
}"""


FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def _routes(made: dict, line_id: int) -> dict[str, str]:
    order = made["order_id"]
    return {
        "/edit-profile": "#book-meal",
        "/edit-profile?step=6": "#lang-en",
        "/edit-profile?step=6&sub=2": "#notifications-save",
        "/edit-profile?step=6&sub=3": "#password-submit",
        "/edit-profile?step=8": "#contact-submit",
        "/edit-profile?step=7": "main h1",
        "/edit-profile/parent-edit-profile": "#profile-save",
        "/edit-profile/edit-child": "#child-delete",
        "/add-another-child": "#child-submit",
        "/allergy-profile": "#allergy-save",
        "/edit-profile/donate-payment": "#donate-submit",
        "/edit-profile/payment-methods": "#add-card",
        "/edit-profile/family-credit": "#refund-choice-save",
        "/edit-profile/child-away": "#away-check",
        "/edit-profile/meal-detailed": "#book-calendar",
        "/edit-profile/cart": ".hm-cart-line",
        "/edit-profile/order-summary": "#summary-charges",
        "/payment": "#pay-submit",
        "/edit-profile/order-history": ".hm-order-card",
        f"/edit-profile/order-details?id={order}": "#order-lines",
        "/edit-profile/cancel-cart": ".hm-cancel-line",
        f"/edit-profile/modify-order?id={order}": "#change-lines",
        f"/edit-profile/modify-order/add-item?id={order}": "#book-calendar",
        "/edit-profile/manage-meal-details": "#manage-meals",
        f"/edit-profile/manage-meal-details?id={line_id}": "#manage-meal",
        f"/edit-profile/manage-meal-details/manage-confirm-order?id={line_id}&date=2000-01-03": (
            "#manage-missing"
        ),
        "/about": "main h1",
    }


def test_no_signed_in_screen_scrolls_sideways_on_a_phone(browser: Browser, app, parent_cookie):
    from tests.e2e.cartdata import fill_cart, rows
    from tests.e2e.orderdata import empty_cancel_cart, fill_cancel_cart, paid_order

    empty_cancel_cart(app)
    made = paid_order(app)
    fill_cancel_cart(app, made["order_id"])
    fill_cart(app)
    line_id = rows(app, "SELECT id FROM orderline WHERE order_id = ? ORDER BY id", made["order_id"])
    routes = _routes(made, line_id[0][0])
    too_wide: dict[str, dict[str, int]] = {}
    # One load per route: measured at each width in turn, the window resized in between (the
    # layout follows the window; a load per width doubled this test's time for nothing).
    context = browser.new_context(
        viewport={"width": WIDTHS[0], "height": VIEWPORTS["phone"]["height"]},
        base_url=app.base_url,
        locale="en-CA",
        timezone_id="America/Toronto",
        is_mobile=True,
        has_touch=True,
    )
    context.set_default_timeout(20_000)
    context.add_cookies([parent_cookie])
    page = context.new_page()
    # French: its words are the longer ones (the review found 399 px at 390 px in French).
    use_language(page, "fr")
    try:
        for path, marker in routes.items():
            open_page(page, path)
            expect(page.locator(marker).first).to_be_visible()
            expect(page).to_have_url(re.compile(re.escape(path.split("?")[0]) + r"/?(\?|$)"))
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": VIEWPORTS["phone"]["height"]})
                page.evaluate(FRAMES)  # the new width laid out (a page too wide shows in inner)
                sizes = page.evaluate(MEASURE, width)
                if sizes["scroll"] > sizes["inner"] or sizes["inner"] != width or sizes["cut"]:
                    too_wide[f"{width} {path}"] = sizes
    finally:
        context.close()
    assert not too_wide, json.dumps(too_wide, indent=1)
