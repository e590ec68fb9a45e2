"""The cart, the order summary and the payment in Chromium at 390 and 1280 px:
the demo parent's cart holds meals for two children on two dates (one with an
add-on and a special note, made through ``ordering.cart.add_to_cart``); the parent changes a
quantity, removes a line behind 'Are you sure?', applies a promo code (after a refused one),
sees every charge, pays from the summary with one Pay in the stand-in Lightbox and
gets the order number, the empty cart and the confirmation e-mail. A declining card leaves the
cart as it was and a retry with another card pays; that run is in French. A card saved while
paying is the next summary's choice and pays with one tap."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.cartdata import BIG_PROMO, DEMO, PROMO, fill_cart, rows, set_credit
from tests.e2e.helpers import open_page, open_profile_menu, shot
from tests.e2e.server import AppServer
from tests.e2e.smtp import SmtpServer

VISA = "4000000000000002"
DECLINED_CARD = "4000000000000069"


def pay_in_lightbox(page: Page, number: str) -> None:
    dialog = page.locator("#pwc-dialog")
    expect(dialog).to_be_visible(timeout=20_000)
    # Whether the card is saved is the session's (the app's own box): the window has no box.
    expect(dialog.locator("input[type=checkbox]")).to_have_count(0)
    page.fill("#pwc-card-number", number)
    page.fill("#pwc-exp-date", "1230")
    page.fill("#pwc-cvv", "123")
    page.click("#pwc-pay")


def toggle_language(page: Page) -> None:
    """The parent header's profile menu: 'Français' / 'English'."""
    open_profile_menu(page)
    page.locator("#menu-language").click()


@pytest.fixture
def demo(page: Page, app: AppServer, parent_cookie: dict) -> dict:
    cart = fill_cart(app)
    set_credit(app, 0)  # the card pays it all (family credit would pay first)
    page.context.add_cookies([parent_cookie])
    return cart


def test_the_demo_parent_pays_a_cart_for_two_children(
    page: Page, app: AppServer, smtp: SmtpServer, demo: dict
) -> None:
    mails_before = len(smtp.inbox.mails_to(DEMO))
    open_page(page, "/edit-profile/cart")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your cart")
    lines = page.locator(".hm-cart-line")
    expect(lines).to_have_count(4)
    # Grouped by child and date: each child's name heads a group.
    for name in demo["children"]:
        expect(page.locator(".hm-group-child").filter(has_text=name).first).to_be_visible()
    first = lines.first
    expect(first.locator(".hm-line-size")).to_have_text("1 portion + upgrade")
    expect(first.locator(".hm-line-note")).to_contain_text("No onions please")
    expect(page.locator("#header-cart")).to_contain_text("4")
    shot(page, "cart")
    # The language switch turns the server-made text (the dates) too, and back.
    day = page.locator(".hm-cart-group h3").first
    english_day = day.inner_text()
    toggle_language(page)
    expect(page.get_by_role("heading", level=1)).to_have_text("Votre panier")
    expect(day).to_have_text(re.compile(r"^(lundi|mardi|mercredi|jeudi|vendredi) "))
    toggle_language(page)
    expect(day).to_have_text(english_day)

    # One more of the second meal: its price and the cart's net change.
    second = lines.nth(1)
    price_before = second.locator(".hm-line-price").inner_text()
    second.locator(".hm-qty-plus").click()
    expect(second.locator(".hm-qty-value")).to_have_text("2")
    expect(second.locator(".hm-line-price")).not_to_have_text(price_before)

    # Remove the last line, behind 'Are you sure?'; the header's count follows.
    lines.nth(3).locator(".hm-line-remove").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text("Are you sure?")
    shot(page, "cart-remove")
    dialog.locator("#confirm-delete-line").click()
    expect(lines).to_have_count(3)
    expect(page.locator("#header-cart")).to_contain_text("3")

    page.locator("#cart-continue").click()
    expect(page).to_have_url(re.compile(r"/parent/edit-profile/order-summary/?$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Order summary")
    charges = page.locator("#summary-charges")
    for label in ("Meal net amount", "Special note fees", "Tax (HST 13%)", "Total pay"):
        expect(charges).to_contain_text(label)
    # Only the charges that apply: no $0.00 discount, fee or donation line.
    expect(charges).not_to_contain_text("$0.00")
    for absent in ("discount", "processing_fee", "school_donation", "additional_charge"):
        expect(charges.locator(f".hm-charge-{absent}")).to_have_count(0)
    expect(page.locator("#giveback")).to_contain_text("to the school community")
    total_before = charges.locator(".hm-charge-total_pay dd").inner_text()

    # A refused code says why; the parent's own code applies.
    page.fill("#promo-code", "NOSUCHCODE")
    page.click("#promo-apply")
    expect(page.locator("#promo-code-error")).to_have_text("This promo code does not exist")
    page.locator(f'.hm-promo-use[data-code="{BIG_PROMO}"]').click()
    expect(page.locator("#promo-code-error")).to_contain_text("needs a minimum order of")
    page.fill("#promo-code", PROMO.lower())
    page.click("#promo-apply")
    expect(page.locator("#promo-applied")).to_contain_text(PROMO)
    expect(charges.locator(".hm-charge-discount dd")).to_contain_text("−$")
    expect(charges.locator(".hm-charge-total_pay dd")).not_to_have_text(total_before)
    # A $2 donation is added to the total.
    page.click("#donation-200")
    expect(charges.locator(".hm-charge-school_donation dd")).to_have_text("$2.00")
    expect(charges.locator(".hm-charge-school_donation dt")).to_have_text(
        "Donation to the school (optional)"
    )
    total = charges.locator(".hm-charge-total_pay dd").inner_text()
    shot(page, "summary")

    # One Pay, on the summary: the amount with the promo and the donation, then
    # the Lightbox, then the confirmation at its own address; no second Pay on the way.
    pay = page.locator("#summary-pay")
    expect(pay).to_have_text(f"Pay {total}")
    page.click("#pay-card-new")
    pay.click()
    pay_in_lightbox(page, VISA)
    expect(page.locator("#order-placed")).to_be_visible(timeout=30_000)
    expect(page).to_have_url(re.compile(r"/parent/payment/?\?order=HM-\d+$"))
    expect(page.locator("#pay-submit")).to_have_count(0)
    expect(page.locator("header")).to_have_count(0)  # no site header on payment (spec §2)
    shot(page, "placed")
    for name in demo["children"]:
        expect(page.locator("#order-confirmation")).to_contain_text(name)
    number = page.locator("#order-number").inner_text()
    assert re.fullmatch(r"HM-\d+", number), number
    expect(page.locator("#order-confirmation")).to_contain_text("No onions please")
    expect(page.locator("#view-order")).to_have_attribute(
        "href", re.compile(r"/edit-profile/order-details\?id=\d+")
    )
    order = rows(
        app,
        'SELECT status, total_pay_cents, promo_code FROM "order" WHERE number = ?',
        number,
    )
    assert order and order[0][0] == "placed" and order[0][2] == PROMO, order
    assert rows(app, "SELECT COUNT(*) FROM cartline WHERE parent_id = ?", demo["parent_id"]) == [
        (0,)
    ]
    mail = smtp.inbox.wait_for_mail(DEMO, count=mails_before + 1, timeout=60)
    assert number in mail.subject or number in mail.body
    assert "No onions please" in mail.body

    open_page(page, "/edit-profile/cart")
    expect(page.locator("#cart-empty")).to_be_visible()
    shot(page, "cart-empty")
    expect(page.locator("#cart-empty img")).to_have_attribute("src", re.compile("empty-plate"))
    expect(page.locator("#header-cart")).to_contain_text("0")
    page.click("#cart-book-meal")
    expect(page).to_have_url(re.compile(r"/parent/edit-profile/meal-detailed"))
    assert page.evaluate("window.localStorage.getItem('editProfileStep')") == "1"


def test_a_declined_card_keeps_the_cart_and_another_card_pays_in_french(
    page: Page, app: AppServer, demo: dict
) -> None:
    page.add_init_script("window.localStorage.setItem('lang', 'fr')")
    open_page(page, "/edit-profile/cart")
    expect(page.get_by_role("heading", level=1)).to_have_text("Votre panier")
    expect(page.locator(".hm-cart-line").first.locator(".hm-line-size")).to_have_text(
        "1 portion + upgrade"
    )
    shot(page, "cart-fr")
    page.locator("#cart-continue").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Résumé de la commande")
    expect(page.locator("#summary-charges")).to_contain_text("Montant net des repas")
    page.fill("#promo-code", "NOSUCHCODE")
    page.click("#promo-apply")
    expect(page.locator("#promo-code-error")).to_have_text("Ce code promo n'existe pas")
    shot(page, "summary-fr")
    page.click("#pay-card-new")
    page.click("#summary-pay")
    pay_in_lightbox(page, DECLINED_CARD)
    status = page.locator("#pay-status")
    expect(status).to_have_attribute("data-status", "declined", timeout=30_000)
    expect(status).to_contain_text("Votre carte a été refusée")
    shot(page, "declined-fr")
    assert rows(app, "SELECT COUNT(*) FROM cartline WHERE parent_id = ?", demo["parent_id"]) == [
        (4,)
    ]
    expect(page).to_have_url(re.compile(r"/order-summary/?$"))  # still the summary

    # Retry with another card.
    page.click("#summary-pay")
    pay_in_lightbox(page, VISA)
    expect(page.locator("#order-placed")).to_be_visible(timeout=30_000)
    expect(page.locator("#order-placed")).to_contain_text("Numéro de commande")
    shot(page, "placed-fr")
    number = page.locator("#order-number").inner_text()
    assert rows(app, 'SELECT status FROM "order" WHERE number = ?', number) == [("placed",)]
    assert rows(app, "SELECT COUNT(*) FROM cartline WHERE parent_id = ?", demo["parent_id"]) == [
        (0,)
    ]


def test_a_card_saved_while_paying_pays_the_next_order_without_the_lightbox(
    page: Page, app: AppServer, demo: dict
) -> None:
    # /payment still pays for a parent who lands there directly.
    open_page(page, "/payment")
    page.click("#pay-card-new")
    page.click("#pay-save-card")
    page.click("#pay-submit")
    pay_in_lightbox(page, VISA)
    expect(page.locator("#order-placed")).to_be_visible(timeout=30_000)
    saved = rows(
        app,
        "SELECT id FROM storedcard WHERE parent_id = ? AND deleted_at IS NULL "
        "AND masked LIKE '%0002' ORDER BY id DESC",
        demo["parent_id"],
    )
    assert saved, "the card that paid is saved"

    # The next summary starts with the card saved last (the default a parent expects): one
    # tap pays it, without the Lightbox.
    fill_cart(app)
    open_page(page, "/edit-profile/order-summary")
    card = page.locator(f"#pay-card-{saved[0][0]}")
    expect(card).to_be_visible()
    expect(card).to_have_attribute("data-state", "checked")
    expect(page.locator(f"label[for='pay-card-{saved[0][0]}']")).to_contain_text("ending in 0002")
    expect(page.locator("#pay-save-card")).to_have_count(0)
    expect(page.locator("#pay-bar-with")).to_contain_text("ending in 0002")  # shown on a phone
    page.dblclick("#summary-pay")  # a double tap: one charge
    expect(page.locator("#order-placed")).to_be_visible(timeout=30_000)
    expect(page).to_have_url(re.compile(r"/parent/payment/?\?order=HM-\d+$"))
    expect(page.locator("#pwc-dialog")).not_to_be_visible()
    number = page.locator("#order-number").inner_text()
    assert rows(app, 'SELECT status FROM "order" WHERE number = ?', number) == [("placed",)]
    assert rows(
        app,
        'SELECT COUNT(*) FROM payment p JOIN "order" o ON o.id = p.order_id '
        "WHERE o.number = ? AND p.state = 'APPROVED'",
        number,
    ) == [(1,)]
    assert rows(app, "SELECT COUNT(*) FROM cartline WHERE parent_id = ?", demo["parent_id"]) == [
        (0,)
    ]


def test_an_unpayable_line_is_flagged_and_the_rest_is_paid(
    page: Page, app: AppServer, demo: dict
) -> None:
    """The second child's day closes after the meals were added (a PA day): those lines are
    flagged with the reason and stay in the cart; the first child's are paid."""
    flagged = [line_id for name, _day, line_id in demo["lines"] if name == demo["children"][1]]
    day_id = rows(app, "SELECT menu_day_id FROM cartline WHERE id = ?", flagged[0])[0][0]
    with closing(sqlite3.connect(app.data_dir / "e2e.db", timeout=30)) as conn, conn:
        conn.execute("UPDATE menuday SET is_closed = 1 WHERE id = ?", (day_id,))
    try:
        open_page(page, "/edit-profile/cart")
        expect(page.locator(".hm-cart-line")).to_have_count(4)
        expect(page.locator("#cart-unpayable")).to_be_visible()
        bad = page.locator('.hm-cart-line[data-payable="false"]')
        expect(bad).to_have_count(2)
        expect(bad.first.locator(".hm-line-problem")).to_contain_text(
            "This meal is no longer available on this day"
        )
        expect(bad.first.locator(".hm-qty-plus")).to_be_disabled()
        shot(page, "cart-flagged")
        page.locator("#cart-continue").click()
        expect(page.locator("#summary-lines")).to_contain_text("Cannot be paid")
        page.click("#pay-card-new")
        page.click("#summary-pay")
        pay_in_lightbox(page, VISA)
        expect(page.locator("#order-placed")).to_be_visible(timeout=30_000)
        expect(page.locator("#order-confirmation")).not_to_contain_text(demo["children"][1])
        left = rows(app, "SELECT id FROM cartline WHERE parent_id = ?", demo["parent_id"])
        assert sorted(i for (i,) in left) == sorted(flagged)
    finally:
        with closing(sqlite3.connect(app.data_dir / "e2e.db", timeout=30)) as conn, conn:
            conn.execute("UPDATE menuday SET is_closed = 0 WHERE id = ?", (day_id,))
