"""The whole booking journey through the screens, as the demo parent does it on `make run`,
at 390 and 1280 px: on Book meal, three meals for the two children on
two dates (the first with the large size, an add-on and a special note), the header's count
going up; the cart; the parent's promo code on the order summary; 4000000000000002 in the
Lightbox; the order number on screen, the order in the database with the meals as booked, and
the confirmation e-mail. Nothing is put in the cart behind the screens' back."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing

from playwright.sync_api import Locator, Page, expect

from tests.e2e.cartdata import DEMO, PROMO, fill_cart, rows, set_credit
from tests.e2e.helpers import open_page
from tests.e2e.server import AppServer
from tests.e2e.smtp import SmtpServer
from tests.e2e.test_checkout_flow import VISA, pay_in_lightbox

NOTE = "Cut in halves please"
# A meal the child can have as it is (no allergy refusal, no acknowledgement to tick).
PLAIN_MEAL = "#book-meals > li:not(.is-refused):not(:has(.is-ack)) button"


def _empty_cart_with_promo(app: AppServer) -> tuple[int, list[tuple[int, str]]]:
    """The demo parent's two promo codes exist (made by ``fill_cart``) and the cart is empty."""
    fill_cart(app)
    parent_id = rows(app, "SELECT id FROM parent WHERE email = ?", DEMO)[0][0]
    with closing(sqlite3.connect(app.data_dir / "e2e.db", timeout=30)) as conn, conn:
        conn.execute(
            "DELETE FROM cartlineaddon WHERE cart_line_id IN "
            "(SELECT id FROM cartline WHERE parent_id = ?)",
            (parent_id,),
        )
        conn.execute("DELETE FROM cartline WHERE parent_id = ?", (parent_id,))
    children = rows(
        app,
        "SELECT id, first_name FROM child WHERE parent_id = ? AND is_active "
        "ORDER BY is_default DESC, id",
        parent_id,
    )
    assert len(children) >= 2, "the demo parent has two children"
    return parent_id, children[:2]


def _open_days(page: Page, at_least: int) -> Locator:
    days = page.locator("#book-calendar button.is-open")
    expect(days.first).to_be_visible()
    if days.count() < at_least:  # late in the month: the next month has the open days
        page.click("#book-next-month")
        expect(days.nth(at_least - 1)).to_be_visible()
    return days


def _pick_day(page: Page, day: Locator) -> None:
    day.click()
    expect(day).to_have_attribute("aria-pressed", "true")
    expect(page.locator(PLAIN_MEAL).first).to_be_visible()


def _add(page: Page, meal: Locator, count: int, *, large_addon_note: bool = False) -> None:
    meal.click()
    dialog = page.locator("#meal-dialog")
    expect(dialog).to_be_visible()
    if large_addon_note:
        dialog.locator("[id^=size-]").nth(1).click()  # 1 portion + upgrade
        dialog.locator("[id^=addon-]").first.click()
        # Typed key by key, and 'Add to cart' tapped at once: the note is not lost.
        page.locator("#meal-note").press_sequentially(NOTE)
    page.click("#meal-add")
    expect(dialog).to_be_hidden()
    noun = "item" if count == 1 else "items"
    expect(page.locator("#header-cart")).to_have_attribute("aria-label", f"Cart, {count} {noun}")


def test_the_demo_parent_books_three_meals_for_two_children_and_pays(
    page: Page, app: AppServer, smtp: SmtpServer, parent_cookie: dict, viewport: str
) -> None:
    parent_id, ((first_id, first_name), (second_id, second_name)) = _empty_cart_with_promo(app)
    set_credit(app, 0)  # the card pays it all (family credit would pay first)
    mails_before = len(smtp.inbox.mails_to(DEMO))
    page.context.add_cookies([parent_cookie])
    open_page(page, "/edit-profile")
    page.click("#book-meal")
    expect(page.locator("#book-calendar")).to_be_visible()

    # First child, first open day: two meals, the first large with an add-on and a note.
    page.click(f"#book-child-{first_id}")
    expect(page.locator(f"#book-child-{first_id}")).to_have_attribute("aria-pressed", "true")
    days = _open_days(page, 2)
    _pick_day(page, days.first)
    _add(page, page.locator(PLAIN_MEAL).first, 1, large_addon_note=True)
    expect(page.get_by_text("Added to cart Successfully").first).to_be_visible()
    _add(page, page.locator(PLAIN_MEAL).nth(1), 2)

    # Second child, another day: one meal.
    page.click(f"#book-child-{second_id}")
    expect(page.locator(f"#book-child-{second_id}")).to_have_attribute("aria-pressed", "true")
    days = _open_days(page, 2)
    _pick_day(page, days.nth(1))
    _add(page, page.locator(PLAIN_MEAL).first, 3)

    booked = rows(
        app,
        "SELECT c.child_id, d.meal_date, c.special_note, "
        "(SELECT COUNT(*) FROM cartlineaddon a WHERE a.cart_line_id = c.id) "
        "FROM cartline c JOIN menuday d ON d.id = c.menu_day_id WHERE c.parent_id = ? "
        "ORDER BY c.id",
        parent_id,
    )
    assert [(child, note, addons) for child, _day, note, addons in booked] == [
        (first_id, NOTE, 1),
        (first_id, None, 0),
        (second_id, None, 0),
    ], booked
    assert booked[0][1] == booked[1][1] != booked[2][1]  # two dates

    # The cart: the three lines, grouped by child.
    page.click("#header-cart")
    expect(page).to_have_url(re.compile(r"/parent/edit-profile/cart/?$"))
    expect(page.locator(".hm-cart-line")).to_have_count(3)
    for name in (first_name, second_name):
        expect(page.locator(".hm-group-child").filter(has_text=name).first).to_be_visible()
    expect(page.locator(".hm-cart-line").first.locator(".hm-line-note")).to_contain_text(NOTE)

    # The summary with the parent's promo code, then the Lightbox.
    page.click("#cart-continue")
    expect(page).to_have_url(re.compile(r"/parent/edit-profile/order-summary/?$"))
    page.fill("#promo-code", PROMO)
    page.click("#promo-apply")
    expect(page.locator("#promo-applied")).to_contain_text(PROMO)
    charges = page.locator("#summary-charges")
    expect(charges.locator(".hm-charge-discount dd")).to_contain_text("−$")
    total = charges.locator(".hm-charge-total_pay dd").inner_text()
    # One Pay, on the summary.
    expect(page.locator("#summary-pay")).to_contain_text(total)
    page.click("#pay-card-new")
    page.click("#summary-pay")
    pay_in_lightbox(page, VISA)

    expect(page.locator("#order-placed")).to_be_visible(timeout=30_000)
    number = page.locator("#order-number").inner_text()
    assert re.fullmatch(r"HM-\d+", number), number
    for name in (first_name, second_name):
        expect(page.locator("#order-confirmation")).to_contain_text(name)
    expect(page.locator("#order-confirmation")).to_contain_text(NOTE)
    expect(page.locator("#header-cart")).to_have_count(0)  # no header on /payment (spec §2)

    order = rows(
        app,
        'SELECT id, status, promo_code, total_pay_cents FROM "order" WHERE number = ?',
        number,
    )
    assert order and order[0][1] == "placed" and order[0][2] == PROMO, order
    lines = rows(
        app,
        "SELECT child_id, meal_date, special_note FROM orderline WHERE order_id = ? ORDER BY id",
        order[0][0],
    )
    assert lines == [(child, day, note) for child, day, note, _ in booked], lines
    charged = rows(
        app,
        "SELECT amount_cents FROM payment WHERE order_id = ? AND state = 'APPROVED'",
        order[0][0],
    )
    assert charged == [(order[0][3],)], charged
    assert rows(app, "SELECT COUNT(*) FROM cartline WHERE parent_id = ?", parent_id) == [(0,)]
    mail = smtp.inbox.wait_for_mail(DEMO, count=mails_before + 1, timeout=60)
    assert number in mail.subject or number in mail.body
    assert NOTE in mail.body
