"""The calendar feed and the receipts in Chromium: at 390 px in French and at 1280 px in English,
the demo parent sees the private calendar link on the Settings screen (and the link serves an iCal
feed with no session), then opens a paid order's receipt from its details: the HST number and the
total paid, as the order stored it, in the page's language. Both screens pass axe (WCAG 2.1 AA, no
serious violation)."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from hotmeals.domain.money import format_money
from tests.e2e.helpers import msg, open_page, shot, use_language
from tests.e2e.orderdata import empty_cancel_cart, paid_order
from tests.e2e.server import AppServer
from tests.e2e.test_accessibility import serious_violations

LANG_OF = {"phone": "fr", "desktop": "en"}


@pytest.fixture(params=list(LANG_OF), ids=["390-fr", "1280-en"])
def viewport(request) -> str:
    return request.param


def test_feed_link_and_receipt_from_order_details(
    page: Page, app: AppServer, parent_cookie: dict, viewport: str
) -> None:
    lang = LANG_OF[viewport]
    empty_cancel_cart(app)
    order = paid_order(app)
    page.context.add_cookies([parent_cookie])
    use_language(page, lang)

    open_page(page, "/edit-profile?step=6")
    card = page.locator("#calendar-feed")
    expect(card).to_contain_text(msg("feed.card_title", lang))
    url = page.locator("#calendar-feed-url")
    # the link speaks the screen's language (the demo parent's stored one is English)
    expect(url).to_have_value(
        re.compile(rf"/api/v1/calendar/[A-Za-z0-9_-]{{43}}\.ics\?lang={lang}$")
    )
    expect(page.locator("#calendar-feed-copy")).to_be_enabled()
    card.scroll_into_view_if_needed()
    shot(page, f"calendar-feed-{lang}")
    assert serious_violations(page) == []
    path = url.input_value().split("://", 1)[1].split("/", 1)[1]  # PUBLIC_BASE_URL's host aside
    feed = httpx.get(f"{app.base_url}/{path}", timeout=60)
    assert feed.status_code == 200 and feed.text.startswith("BEGIN:VCALENDAR")
    # the order just paid is in it, named in the screen's language
    named = {
        x: f"DESCRIPTION:{msg('feed.order_number', x, number=order['number'])}"
        for x in ("en", "fr")
    }
    assert named[lang] in feed.text and named["fr" if lang == "en" else "en"] not in feed.text

    open_page(page, f"/edit-profile/order-details?id={order['order_id']}")
    page.locator("#order-receipt").click()
    expect(page).to_have_url(re.compile(rf"/receipt/?\?order={order['number']}$"))
    receipt = page.locator("#receipt")
    expect(receipt).to_contain_text(order["number"])
    expect(page.locator("#receipt-hst")).to_contain_text(msg("receipt.hst_number", lang, number=""))
    total = page.locator("#receipt-charges .hm-receipt-row").last
    expect(total).to_contain_text(msg("receipt.total_paid", lang))
    expect(total).to_contain_text(format_money(order["total_pay_cents"], lang))
    expect(page.locator("#receipt-pdf")).to_be_visible()
    shot(page, f"receipt-{lang}")
    assert serious_violations(page) == []
