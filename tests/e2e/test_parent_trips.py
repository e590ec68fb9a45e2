"""What a parent trips over, in Chromium at 390 px in French and at 1280 px
in English (one run each): nothing typed on sign-up is erased when the page comes alive; the
order summary pays with one Pay, kept in view, and the payment's confirmation has its own
address (the order's number) and survives a reload and Back."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import msg, open_page, use_language, wait_hydrated
from tests.e2e.server import AppServer

VISA = "4000000000000002"
SCRIPTS = re.compile(r"\.m?js(\?.*)?$")
RUNS = pytest.mark.parametrize(
    ("viewport", "lang"), [("phone", "fr"), ("desktop", "en")], ids=["390-fr", "1280-en"]
)


def pay_in_lightbox(page: Page, number: str) -> None:
    dialog = page.locator("#pwc-dialog")
    expect(dialog).to_be_visible(timeout=20_000)
    page.fill("#pwc-card-number", number)
    page.fill("#pwc-exp-date", "1230")
    page.fill("#pwc-cvv", "123")
    page.click("#pwc-pay")


@RUNS
def test_what_is_typed_before_the_page_is_live_is_never_erased(page: Page, lang: str):
    use_language(page, lang)
    # The prerendered form is there before the scripts: type at once, as a parent (or the
    # browser's autofill) does, then let the page come alive.
    # The page's scripts are held until the names are typed: the page comes alive after the
    # typing, whatever the machine's speed (a fast one could otherwise beat the typing).
    held: list = []
    released = False

    def hold(route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route(SCRIPTS, hold)
    page.goto("/parent/sign-up", wait_until="commit")
    page.fill("#signup-first_name", "Zoë")
    page.fill("#signup-last_name", "Tremblay")
    assert page.locator('main[data-hydrated="true"]').count() == 0  # typed before it was live
    released = True
    for route in held:
        route.continue_()
    wait_hydrated(page)
    expect(page.locator("#signup-first_name")).to_have_value("Zoë")
    expect(page.locator("#signup-last_name")).to_have_value("Tremblay")
    # ... and after the page's on_load has put back what the tab kept (nothing here).
    expect(page.locator("#signup-form")).to_have_attribute("data-restored", "true")
    expect(page.locator("#signup-first_name")).to_have_value("Zoë")
    # What was typed is kept for a reload, and put back into the fields. The e-mail's message
    # comes back after the names' blur events (one queue): then the server has them all.
    page.locator("#signup-first_name").focus()
    page.locator("#signup-last_name").focus()
    page.locator("#signup-email").fill("zoe@")
    page.locator("#signup-email").blur()
    expect(page.locator("#signup-email-error")).to_have_text(re.compile(".+"))
    page.reload()
    wait_hydrated(page)
    expect(page.locator("#signup-form")).to_have_attribute("data-restored", "true")
    expect(page.locator("#signup-first_name")).to_have_value("Zoë")
    expect(page.locator("#signup-last_name")).to_have_value("Tremblay")
    expect(page.locator("#signup-email")).to_have_value("zoe@")
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("ui.signup.title", lang))


@RUNS
def test_the_confirmation_has_its_own_address_and_survives_reload_and_back(
    page: Page, app: AppServer, parent_cookie: dict, lang: str
):
    from tests.e2e.cartdata import fill_cart, set_credit

    fill_cart(app)
    set_credit(app, 0)  # the card pays it all (family credit would pay first)
    page.context.add_cookies([parent_cookie])
    use_language(page, lang)
    # One Pay, on the summary: it opens the Lightbox, and the confirmation follows
    # with no second Pay.
    open_page(page, "/edit-profile/order-summary")
    total = page.locator("#summary-charges .hm-charge-total_pay dd").inner_text()
    page.click("#pay-card-new")
    page.click("#summary-pay")
    # The Lightbox writes the amount as the app does ("29,66 $" in French) and shows an
    # invoice that starts with the order's number.
    lightbox = page.locator("#pwc-dialog")
    expect(lightbox).to_contain_text(total)
    expect(page.locator("#pwc-pay")).to_contain_text(total)
    shown = lightbox.inner_text()
    pay_in_lightbox(page, VISA)
    expect(page.locator("#order-placed")).to_be_visible(timeout=30_000)
    number = page.locator("#order-number").inner_text()
    assert re.fullmatch(r"HM-\d+", number), number
    assert re.search(rf"{number}-[0-9A-F]{{10}}", shown), shown
    expect(page).to_have_url(re.compile(rf"/parent/payment/?\?order={number}$"))
    expect(page.locator("#pay-submit")).to_have_count(0)
    lines = page.locator("#order-confirmation").inner_text()

    page.reload()
    wait_hydrated(page)
    expect(page.locator("#order-number")).to_have_text(number)
    # The same meals and charges (one event fills the number and the lines).
    assert page.locator("#order-confirmation").inner_text() == lines
    expect(page.locator("#pay-empty")).to_have_count(0)

    page.click("#view-order")
    expect(page.locator("#order-title")).to_contain_text(number)
    page.go_back()
    wait_hydrated(page)
    expect(page.locator("#order-number")).to_have_text(number)
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("checkout.success_title", lang))

    # Another number (none of this parent's): no confirmation, a plain "not found".
    open_page(page, "/payment?order=HM-999999")
    expect(page.locator("#order-placed")).to_have_count(0)
    expect(page.locator("#pay-notfound")).to_have_text(msg("payment_order_not_found", lang))


@RUNS
def test_the_meals_to_cancel_are_named_so_and_shown_only_when_there_are_some(
    page: Page, app: AppServer, parent_cookie: dict, lang: str, viewport: str
):
    from hotmeals.domain.charges import tax_label
    from tests.e2e.orderdata import empty_cancel_cart, fill_cancel_cart, paid_order

    empty_cancel_cart(app)
    made = paid_order(app)
    page.context.add_cookies([parent_cookie])
    use_language(page, lang)
    # The order's history card says whose meals and which, across the card's width.
    open_page(page, "/edit-profile/order-history")
    card = page.locator(f'.hm-order-card[data-order-id="{made["order_id"]}"]')
    expect(card.locator(".hm-order-children")).to_have_text("Emma, Lucas")
    expect(card.locator(".hm-order-meals")).to_contain_text(" · ")
    widths = card.evaluate(
        "(c) => [c.querySelector('.hm-facts').getBoundingClientRect().width,"
        " c.getBoundingClientRect().width]"
    )
    assert widths[0] >= widths[1] - 40, widths  # the card less its padding
    # Its details: the charges that apply, the tax with its rate.
    open_page(page, f"/edit-profile/order-details?id={made['order_id']}")
    details = page.locator("#order-charges")
    expect(details.locator(".hm-charge-tax_cents")).to_contain_text(tax_label(1300, lang))
    for absent in ("discount", "processing_fee", "school_donation", "additional_charge"):
        expect(details.locator(f".hm-charge-{absent}_cents")).to_have_count(0)

    open_page(page, "/edit-profile")
    cart, cancel = page.locator("#header-cart"), page.locator("#header-cancel-cart")
    expect(cart).to_be_visible()
    expect(cancel).to_have_count(0)  # nothing to cancel: no second cart beside the cart

    fill_cancel_cart(app, made["order_id"])
    open_page(page, "/edit-profile")
    items = f"({msg('ui.header.items.one', lang)}|{msg('ui.header.items.other', lang)})"
    # Named at every width, also where only the icons and counts show (390 px).
    for control, key, count in (
        (cart, "ui.header.cart_name", r"\d+"),
        (cancel, "ui.header.cancel_cart_name", "1"),
    ):
        name = re.compile(rf"^{re.escape(msg(key, lang))}, {count} {items}$")
        expect(control).to_have_accessible_name(name)
    icons = [c.locator("svg").first.get_attribute("class") for c in (cart, cancel)]
    assert icons[0] != icons[1]  # two pictures, not one
    if viewport == "desktop":
        expect(cancel).to_contain_text(msg("ui.header.cancel_cart", lang))
    cancel.click()
    expect(page).to_have_url(re.compile(r"/edit-profile/cancel-cart/?$"))
    empty_cancel_cart(app)


@RUNS
def test_a_toast_stays_with_its_screen(page: Page, parent_cookie: dict, lang: str):
    page.context.add_cookies([parent_cookie])
    use_language(page, lang)
    open_page(page, "/edit-profile?step=6&sub=2")
    page.click("#notifications-save")
    toast = page.locator("[data-sonner-toast]")
    expect(toast).to_have_count(1)
    # Below the header, never over it.
    page.wait_for_function(
        """() => {
            const toast = document.querySelector('[data-sonner-toast][data-mounted=true]');
            const header = document.querySelector('header');
            return toast && header
                && toast.getBoundingClientRect().top >= header.getBoundingClientRect().bottom;
        }"""
    )
    # The pointer rests on it (the library pauses its 5 s countdown): only leaving the screen
    # can close it. The parent leaves by keyboard, through the account menu, once the toast
    # is no longer the one that came with the screen.
    toast.hover()
    page.wait_for_function(
        """() => {
            const t = document.querySelector('[data-sonner-toast][data-hm-born]');
            return t && Date.now() - Number(t.dataset.hmBorn) > 1600;
        }"""
    )
    page.locator("#profile-menu").focus()
    page.keyboard.press("Enter")
    page.locator("#menu-my-orders").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/edit-profile/order-history/?$"))
    expect(toast).to_have_count(0)


@RUNS
def test_the_summary_shows_the_charges_that_apply_and_keeps_pay_in_view(
    page: Page, app: AppServer, parent_cookie: dict, lang: str, viewport: str
):
    from hotmeals.domain.charges import tax_label
    from tests.e2e.cartdata import fill_cart, set_credit

    fill_cart(app)
    set_credit(app, 0)  # the card pays it all (family credit would pay first)
    page.context.add_cookies([parent_cookie])
    use_language(page, lang)
    open_page(page, "/edit-profile/order-summary")
    charges = page.locator("#summary-charges")
    expect(charges.locator(".hm-charge-tax dt")).to_have_text(tax_label(1300, lang))
    zero = "$0.00" if lang == "en" else "0,00\u00a0$"
    expect(charges).not_to_contain_text(zero)
    expect(charges.locator(".hm-charge-school_donation")).to_have_count(0)
    page.click("#donation-100")
    expect(charges.locator(".hm-charge-school_donation dt")).to_have_text(
        msg("checkout.charge_donation", lang)
    )
    total = charges.locator(".hm-charge-total_pay dd").inner_text()
    pay = page.locator("#summary-pay")
    # The one Pay, with the amount, under the parent's payment choice.
    expect(pay).to_have_text(f"{msg('checkout.pay', lang)} {total}")
    expect(page.locator("#summary-payment")).to_contain_text(msg("checkout.choose_card", lang))
    # In view at the top of the page, without scrolling: on a phone, with the total beside it.
    page.evaluate("window.scrollTo(0, 0)")
    expect(pay).to_be_in_viewport(ratio=1)
    if viewport == "phone":
        expect(page.locator("#pay-bar-total")).to_have_text(total)
        expect(page.locator("#pay-bar-total")).to_be_in_viewport(ratio=1)
