"""The order history, the order details and cancels in Chromium at 390 and 1280 px: the demo
parent's paid order (paid through the app's checkout against its Converge simulator,
tests/e2e/orderdata.py) in the order history and the order details; 1 of the 2 meals of a line
cancelled through the cancel cart (the header's count follows; what was cancelled, with the
refund notice); a whole order cancelled after 'Are you sure?'; each at 390 px in French or
1280 px in English. After each, the order details show the total refund that the order's
refund rows hold, and the simulator holds the matching void or return."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from hotmeals.domain.money import format_money
from tests.e2e.helpers import msg, open_page, shot, use_language
from tests.e2e.orderdata import cents, empty_cancel_cart, paid_order, refunds_of, sim_txn
from tests.e2e.server import AppServer

WEEKDAYS = {
    "en": "Monday|Tuesday|Wednesday|Thursday|Friday",
    "fr": "lundi|mardi|mercredi|jeudi|vendredi",
}


def check_ledgers(app: AppServer, order_id: int, shown_refund: str) -> int:
    """The refund shown equals the order's succeeded refunds, and each refund is in the
    simulator as the same kind of transaction (a RETURN of the same amount, or a VOID)."""
    rows = refunds_of(app, order_id)
    assert rows, "a refund was recorded"
    succeeded = [r for r in rows if r[1] == "SUCCEEDED"]
    assert succeeded == rows, rows
    total = sum(r[2] for r in succeeded)
    assert cents(shown_refund) == total, (shown_refund, rows)
    for kind, _state, amount, txn_id in succeeded:
        assert txn_id, rows
        txn = sim_txn(app, txn_id)
        assert txn is not None and txn.kind == kind, (kind, txn)
        if kind == "RETURN":
            assert txn.amount_cents == amount, (amount, txn)
    return total


def choose_reason(page: Page) -> None:
    """The first listed reason that is not Other."""
    select = page.locator("#cancel-reason")
    values = select.locator("option").evaluate_all("os => os.map(o => o.value)")
    select.select_option(next(v for v in values if v))


@pytest.fixture
def order(app: AppServer, page: Page, parent_cookie: dict) -> dict:
    empty_cancel_cart(app)
    made = paid_order(app)
    page.context.add_cookies([parent_cookie])
    return made


def test_one_of_two_meals_is_cancelled_through_the_cancel_cart(
    page: Page, app: AppServer, order: dict, lang: str
) -> None:
    use_language(page, lang)
    open_page(page, "/edit-profile/order-history")
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("orders_ui.history_title", lang))
    card = page.locator(f'.hm-order-card[data-order-id="{order["order_id"]}"]')
    expect(card).to_contain_text(order["number"])
    expect(card.locator(".hm-order-items")).to_have_text("5")
    shot(page, "order-history")
    card.locator(".hm-order-view").click()
    expect(page).to_have_url(re.compile(rf"/edit-profile/order-details/?\?id={order['order_id']}$"))
    expect(page.locator("#order-title")).to_contain_text(order["number"])
    lines = page.locator(".hm-order-line")
    expect(lines).to_have_count(4)
    first = lines.filter(has_text="No onions please")  # the line of 2 meals
    expect(first.locator(".hm-line-qty")).to_have_text("2")
    expect(first.locator(".hm-line-note")).to_contain_text("No onions please")
    expect(page.locator("#order-total-refund")).to_have_text(format_money(0, lang))
    shot(page, "order-details")

    # A second tab of the same browser, on another screen with the header.
    other_tab = page.context.new_page()
    open_page(other_tab, "/edit-profile/order-history")
    # Nothing to cancel yet: no "To cancel" in the header.
    expect(other_tab.locator("#header-cart")).to_be_visible()
    expect(other_tab.locator("#header-cancel-cart")).to_have_count(0)

    # One of the two meals into the cancel cart; the header's count follows.
    first.locator(".hm-add-cancel").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(msg("orders_ui.add_text", lang))
    dialog.locator("#add-cancel-qty").select_option("1")
    dialog.locator("#confirm-add-cancel").click()
    expect(dialog).to_have_count(0)
    header_count = page.locator("#header-cancel-cart")
    expect(header_count).to_contain_text("1")
    # ... and the other tab's header too (the stored count's storage event).
    expect(other_tab.locator("#header-cancel-cart")).to_contain_text("1")
    other_tab.close()

    header_count.click()
    expect(page).to_have_url(re.compile(r"/edit-profile/cancel-cart/?$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(
        msg("orders_ui.cancel_cart_title", lang)
    )
    line = page.locator(".hm-cancel-line")
    expect(line).to_have_count(1)
    expect(line.locator(".hm-qty-value")).to_have_text("1")
    refund_one = page.locator("#cancel-total-refund").inner_text()
    # Two, then back to one: the refund follows the quantity.
    line.locator(".hm-qty-plus").click()
    expect(line.locator(".hm-qty-value")).to_have_text("2")
    expect(page.locator("#cancel-total-refund")).not_to_have_text(refund_one)
    line.locator(".hm-qty-minus").click()
    expect(line.locator(".hm-qty-value")).to_have_text("1")
    expect(page.locator("#cancel-total-refund")).to_have_text(refund_one)
    assert cents(refund_one) > 0

    # No reason: refused at the field; then a reason, 'Are you sure?', confirm.
    page.locator("#cancel-cart-confirm").click()
    expect(page.locator("#cancel-reason-error")).to_have_text(msg("cancel_reason_required", lang))
    choose_reason(page)
    shot(page, "cancel-cart")
    page.locator("#cancel-cart-confirm").click()
    sure = page.get_by_role("alertdialog")
    expect(sure).to_contain_text(msg("orders_ui.sure_title", lang))
    expect(sure.get_by_role("button", name=msg("orders_ui.sure_no_meals", lang))).to_be_visible()
    sure.locator("#confirm-cancel-cart").click()
    done = page.locator("#cancel-cart-done")
    # what was cancelled (one meal of the order, not the order), where the money goes
    expect(done).to_contain_text(msg("orders_ui.meals_cancelled", lang, count=1), timeout=60_000)
    expect(done).to_contain_text(msg("orders_after.refund_notice", lang, amount=refund_one))
    expect(sure.locator("#confirm-cancel-cart")).to_have_count(0)
    expect(page.locator("#cancel-cart-empty")).to_have_text(
        msg("orders_ui.cancel_cart_empty", lang)
    )
    expect(header_count).to_have_count(0)  # nothing left to cancel: gone
    shot(page, "cancel-cart-done")

    # Back to the order (browser Back walks the screens): the line keeps one meal.
    page.go_back()
    expect(page).to_have_url(re.compile(r"/edit-profile/order-details/?\?id="))
    expect(page.locator("#order-total-refund")).to_have_text(refund_one)
    expect(first.locator(".hm-line-cancelled")).to_contain_text("1")
    expect(first).to_have_attribute("data-state", "active")
    expect(page.locator(".hm-refund")).to_have_count(1)
    check_ledgers(app, order["order_id"], refund_one)
    page.go_forward()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        msg("orders_ui.cancel_cart_title", lang)
    )


def test_a_whole_order_is_cancelled(page: Page, app: AppServer, order: dict, lang: str) -> None:
    use_language(page, lang)
    open_page(page, f"/edit-profile/order-details?id={order['order_id']}")
    expect(page.locator("#order-title")).to_contain_text(
        msg("orders_ui.details_title", lang, number=order["number"])
    )
    weekdays = WEEKDAYS[lang]
    expect(page.locator(".hm-order-line").first.locator(".hm-line-day")).to_have_text(
        re.compile(rf"^({weekdays})\b")
    )
    total = page.locator("#order-charges .hm-charge-total_pay_cents dd").inner_text()
    assert cents(total) == order["total_pay_cents"]
    choose_reason(page)
    shot(page, f"order-details-{lang}")
    page.locator("#cancel-order").click()
    sure = page.get_by_role("alertdialog")
    expect(sure).to_contain_text(msg("orders_ui.sure_title", lang))
    expect(sure).to_contain_text(order["number"])
    # How much comes back and where, before: the card (the standing choice), all of it.
    card_refund = msg("orders_after.refund_notice", lang, amount=total).split(". ")[0]
    expect(sure).to_contain_text(card_refund)
    sure.locator("#confirm-cancel-order").click()
    done = page.locator("#order-cancelled")
    expect(done).to_contain_text(msg("orders_after.cancelled", lang), timeout=60_000)
    expect(done).to_contain_text(total)
    # Everything refunded, every line cancelled, the actions gone.
    expect(page.locator("#order-total-refund")).to_have_text(total)
    expect(page.locator('.hm-order-line[data-state="cancelled"]')).to_have_count(4)
    expect(page.locator("#cancel-order")).to_have_count(0)
    expect(page.locator(".hm-add-cancel")).to_have_count(0)
    shot(page, f"order-cancelled-{lang}")
    check_ledgers(app, order["order_id"], total)
    kinds = {r[0] for r in refunds_of(app, order["order_id"])}
    assert kinds <= {"VOID", "RETURN"}, kinds

    # The history: the order is now past, not future.
    open_page(page, "/edit-profile/order-history")
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("orders_ui.history_title", lang))
    mine = f'.hm-order-card[data-order-id="{order["order_id"]}"]'
    expect(page.locator("#order-list, #orders-empty").first).to_be_visible()
    expect(page.locator(mine)).to_have_count(0)
    page.locator("#tab-past").click()
    expect(page.locator(mine)).to_contain_text(order["number"])
    expect(page.locator(mine).locator(".hm-order-status")).to_have_text(
        msg("orderpay.status_cancelled", lang)
    )
    shot(page, f"order-history-past-{lang}")
    # The tab is in the address: a reload, and Back from the order opened from it, keep it.
    expect(page).to_have_url(re.compile(r"/edit-profile/order-history/?\?tab=past$"))
    page.reload()
    expect(page.locator("#tab-past")).to_have_attribute("aria-selected", "true")
    expect(page.locator(mine)).to_contain_text(order["number"])
    page.locator(mine).get_by_role("link").first.click()
    expect(page).to_have_url(re.compile(r"/edit-profile/order-details/?\?id="))
    page.go_back()
    expect(page.locator("#tab-past")).to_have_attribute("aria-selected", "true")
    expect(page.locator(mine)).to_contain_text(order["number"])
