"""Family credit, away days and closures in Chromium, each flow at 390 px in French and 1280 px in
English: an order paid partly with family credit (the summary's "Family credit" and "To pay by card"
lines, the card charged the rest in the Lightbox, the order paid by both sources); one meal of a
paid order cancelled with its refund sent to family credit (the cancel form's choice), seen at once
on the family credit screen (a CREDIT refund that never reached Converge); a child marked away for a
day (the total shown is the total refunded); a school day closed by the operator's command, the
family's meal made up on a later day and shown so in the order, the calendar showing the closure and
its reason."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.cartdata import DEMO, execute, fill_cart, rows, set_credit
from tests.e2e.helpers import BOTH_WIDTHS, msg, open_page, shot, use_language
from tests.e2e.orderdata import (
    api,
    api_token,
    cents,
    empty_cancel_cart,
    paid_order,
    refunds_of,
    sim_txn,
)
from tests.e2e.server import AppServer
from tests.e2e.test_accessibility import serious_violations
from tests.e2e.test_checkout_flow import VISA, pay_in_lightbox

LONG = 60_000


def credit_balance(app: AppServer) -> int:
    sql = (
        "SELECT coalesce(sum(amount_cents), 0) FROM creditentry "
        "WHERE parent_id = (SELECT id FROM parent WHERE email = ?)"
    )
    return int(rows(app, sql, DEMO)[0][0])


def money_text(cents: int, lang: str) -> str:
    whole, part = divmod(cents, 100)
    return f"{whole},{part:02d}\u00a0$" if lang == "fr" else f"${whole}.{part:02d}"


@pytest.fixture
def order(app: AppServer, page: Page, parent_cookie: dict) -> dict:
    empty_cancel_cart(app)
    made = paid_order(app)
    lines = "SELECT id FROM orderline WHERE order_id = ? ORDER BY id"
    made["lines"] = [r[0] for r in rows(app, lines, made["order_id"])]
    page.context.add_cookies([parent_cookie])
    return made


@BOTH_WIDTHS
def test_a_meal_is_cancelled_to_family_credit(
    page: Page, app: AppServer, order: dict, lang: str
) -> None:
    use_language(page, lang)
    before = credit_balance(app)
    refunds_before = len(refunds_of(app, order["order_id"]))
    line_id = order["lines"][-1]
    open_page(page, f"/edit-profile/manage-meal-details?id={line_id}")
    expect(page.locator("#manage-meal")).to_be_visible()
    select = page.locator("#cancel-reason")
    values = select.locator("option").evaluate_all("os => os.map(o => o.value)")
    select.select_option(next(v for v in values if v))
    # The family's standing choice (the card) is picked; this cancel's refund goes to credit.
    expect(page.locator("#cancel-refund-card")).to_be_checked()
    page.locator("label[for='cancel-refund-credit']").click()
    expect(page.locator("#cancel-refund-credit")).to_be_checked()
    shot(page, f"cancel-to-credit-{lang}")
    page.click("#manage-cancel")
    sure = page.get_by_role("alertdialog")
    # Before and after, the money's destination in the words of the choice made (no "card").
    ahead = {"en": "will be added to your family credit at once", "fr": "sera ajouté tout de suite"}
    expect(sure).to_contain_text(ahead[lang])
    expect(sure).not_to_contain_text("card" if lang == "en" else "carte")
    shot(page, f"cancel-to-credit-sure-{lang}")
    sure.locator("#manage-sure-yes").click()
    status = page.locator("#manage-status")
    expect(status).to_have_attribute("data-status", "cancelled", timeout=LONG)
    done = {"en": "has been added to your family credit", "fr": "a été ajouté à votre crédit"}
    expect(status).to_contain_text(done[lang])

    new = refunds_of(app, order["order_id"])[refunds_before:]
    assert [(kind, state, txn) for kind, state, _amount, txn in new] == [
        ("CREDIT", "SUCCEEDED", None)
    ], new
    refunded = new[0][2]
    assert refunded > 0 and credit_balance(app) == before + refunded
    expect(status).to_contain_text(money_text(refunded, lang))

    open_page(page, "/edit-profile/family-credit")
    expect(page.locator("#credit-balance")).to_have_text(money_text(before + refunded, lang))
    newest = page.locator(".hm-credit-move").first
    expect(newest).to_contain_text(re.compile(re.escape("+" + money_text(refunded, lang))))
    expect(newest).to_contain_text(msg("credit.about_order", lang, number=order["number"]))
    shot(page, f"family-credit-{lang}")


def forget_away(app: AppServer, child_id: int) -> None:
    """Take the child's away days out again: later tests' carts would skip those days and book
    the children's meals in another order of days."""
    execute(app, "DELETE FROM childaway WHERE child_id = ?", child_id)


@BOTH_WIDTHS
def test_a_child_is_marked_away_for_a_day(
    page: Page, app: AppServer, order: dict, lang: str, request: pytest.FixtureRequest
) -> None:
    use_language(page, lang)
    line_id = order["lines"][0]
    child_id, day = rows(app, "SELECT child_id, meal_date FROM orderline WHERE id = ?", line_id)[0]
    request.addfinalizer(lambda: forget_away(app, child_id))
    open_page(page, "/edit-profile/child-away")
    kid = page.locator(f"#away-kid-{child_id}")
    expect(kid).to_be_visible()
    if not kid.is_checked():
        page.locator(f"label[for='away-kid-{child_id}']").click()
    expect(kid).to_be_checked()
    page.fill("#away-from", day)
    page.fill("#away-to", day)
    page.click("#away-check")
    meal = page.locator(f'.hm-away-meal[data-line-id="{line_id}"]')
    expect(meal).to_have_attribute("data-state", "cancel")
    # The days are in the address: a reload shows the same meals; the range is final, said so.
    expect(page).to_have_url(re.compile(rf"\?who=[0-9,]*{child_id}[0-9,]*&from={day}&to={day}$"))
    page.reload()
    expect(meal).to_have_attribute("data-state", "cancel")
    expect(page.locator("#away-from")).to_have_value(day)
    expect(page.locator("#away-final")).to_have_text(msg("away_ui.final", lang))
    shown = page.locator("#away-refund").inner_text()
    # Every meal of that child and day is cancelled (other orders of the parent's too).
    cancelling = page.locator('.hm-away-meal[data-state="cancel"]').evaluate_all(
        "els => els.map(e => Number(e.dataset.lineId))"
    )
    last_refund = rows(app, "SELECT coalesce(max(id), 0) FROM refund")[0][0]
    shot(page, f"child-away-{lang}")
    page.click("#away-confirm")
    expect(page.locator("#away-done")).to_be_visible(timeout=LONG)
    expect(page.locator("[data-sonner-toast]")).to_have_count(0)  # said once, where it was
    marks = ",".join("?" * len(cancelling))
    states = rows(app, f"SELECT DISTINCT status FROM orderline WHERE id IN ({marks})", *cancelling)
    assert line_id in cancelling and states == [("cancelled",)], (cancelling, states)
    # The refund shown before the confirm is what the refunds of this confirm hold.
    new = rows(app, "SELECT amount_cents, state FROM refund WHERE id > ?", last_refund)
    assert new and {r[1] for r in new} == {"SUCCEEDED"}, new
    assert money_text(sum(r[0] for r in new), lang) == shown, (new, shown)
    # Done: said where the Confirm was (with where the money went), no second Confirm, and
    # the days listed as marked.
    done = page.locator("#away-done")
    expect(done).to_contain_text({"en": "Done: ", "fr": "C'est fait : "}[lang])
    expect(done).to_contain_text(shown)
    expect(page.locator("#away-confirm")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/edit-profile/child-away/?$"))  # a reload: the form
    expect(meal).to_have_count(0)
    name = rows(app, "SELECT first_name FROM child WHERE id = ?", child_id)[0][0]
    expect(page.locator("#away-ranges")).to_contain_text(name)
    shot(page, f"child-away-done-{lang}")


def _admin(app: AppServer, *args: str) -> str:
    """The operator's command on the running app's database (docs/api.md "Admin")."""
    done = subprocess.run(
        [sys.executable, "-m", "hotmeals.admin", *args],
        env={**os.environ, **app.env},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


@BOTH_WIDTHS
def test_a_closed_days_meal_is_made_up_on_a_later_day(
    page: Page, app: AppServer, order: dict, lang: str
) -> None:
    use_language(page, lang)
    line_id, day, school_id, vendor_id, meal_id = rows(
        app,
        "SELECT ol.id, ol.meal_date, c.school_id, ol.vendor_id, ol.meal_id FROM orderline ol "
        "JOIN child c ON c.id = ol.child_id WHERE ol.order_id = ? AND c.is_default "
        "ORDER BY ol.meal_date, ol.id LIMIT 1",
        order["order_id"],
    )[0]
    # The make-up day is the vendor's next open day at the school. The seeded menus rotate, so
    # whether that day serves this meal depends on today's date: the vendor is made to serve it.
    makeup_day = rows(
        app,
        "SELECT id FROM menuday WHERE school_id = ? AND vendor_id = ? AND meal_date > ? "
        "AND NOT is_closed ORDER BY meal_date LIMIT 1",
        school_id,
        vendor_id,
        day,
    )[0][0]
    served = "SELECT 1 FROM menudaymeal WHERE menu_day_id = ? AND meal_id = ?"
    added = not rows(app, served, makeup_day, meal_id)
    if added:
        execute(
            app, "INSERT INTO menudaymeal (menu_day_id, meal_id) VALUES (?, ?)", makeup_day, meal_id
        )
    chosen = api(app, api_token(app), "/Parent/user/ClosureChoice", {"closure_choice": "makeup"})
    assert chosen["code"] == 1, chosen
    try:
        said = _admin(
            app, "close-day", "--school", str(school_id), "--date", day, "--reason", "storm"
        )
        assert re.search(r"\b[1-9]\d* make-up meal", said), said
        new_day, moved_from, status = rows(
            app, "SELECT meal_date, moved_from_date, status FROM orderline WHERE id = ?", line_id
        )[0]
        assert (moved_from, status) == (day, "active") and new_day > day, (new_day, moved_from)

        # The order shows the meal on its new day, moved from the closed one.
        open_page(page, f"/edit-profile/order-details?id={order['order_id']}")
        moved = page.locator(f'.hm-order-line[data-line-id="{line_id}"] .hm-line-moved')
        expect(moved).to_be_visible()
        shot(page, f"closure-makeup-order-{lang}")
        # The calendar shows the day closed, with its reason.
        open_page(page, "/edit-profile/meal-detailed")
        cell = page.locator(f"#day-{day}")
        # The month's days are drawn (the calendar loads with the page's data), each with its
        # date in its id: the closed day's month is reached by the ids, not by the month's
        # name (the name changes before the new month's days are drawn).
        first_day = page.locator("#book-calendar [id^='day-']").first
        expect(first_day).to_be_visible()
        for _ in range(3):  # the closed day may be in a later month
            shown = (first_day.get_attribute("id") or "")[len("day-") : len("day-2026-01")]
            if shown >= day[:7]:
                break
            expect(page.locator("#book-next-month")).to_be_enabled()
            page.click("#book-next-month")
            expect(first_day).not_to_have_id(re.compile(rf"^day-{shown}-"))
        expect(cell).to_have_class(re.compile(r"\bis-closed\b"))
        expect(cell).to_have_attribute("aria-label", re.compile("Storm|Tempête"))
    finally:
        _admin(app, "reopen-day", "--school", str(school_id), "--date", day)
        api(app, api_token(app), "/Parent/user/ClosureChoice", {"closure_choice": "card"})
        if added:
            execute(
                app,
                "DELETE FROM menudaymeal WHERE menu_day_id = ? AND meal_id = ?",
                makeup_day,
                meal_id,
            )


@BOTH_WIDTHS
def test_an_order_is_paid_partly_with_family_credit(
    page: Page, app: AppServer, parent_cookie: dict, lang: str
) -> None:
    use_language(page, lang)
    fill_cart(app)
    set_credit(app, 300)
    page.context.add_cookies([parent_cookie])
    open_page(page, "/edit-profile/order-summary")
    charges = page.locator("#summary-charges")
    total = cents(charges.locator(".hm-charge-total_pay dd").inner_text())
    assert total > 300
    # Credit pays first: the summary says how much, and Pay names what the card pays.
    credit_row = charges.locator(".hm-charge-family_credit dd")
    expect(credit_row).to_have_text("\u2212" + money_text(300, lang))
    card_row = charges.locator(".hm-charge-card_pay dd")
    expect(card_row).to_have_text(money_text(total - 300, lang))
    expect(page.locator("#summary-pay")).to_contain_text(money_text(total - 300, lang))
    # The figure beside Pay (the phone's bottom bar) is the card's share too, named so.
    expect(page.locator("#pay-bar-total")).to_have_text(money_text(total - 300, lang))
    card_words = {"en": "To pay by card", "fr": "À payer par carte"}[lang]
    expect(page.locator(".hm-pay-bar-total")).to_contain_text(card_words)
    shot(page, f"summary-partly-credit-{lang}")
    page.click("#pay-card-new")
    page.click("#summary-pay")
    pay_in_lightbox(page, VISA)
    expect(page.locator("#order-placed")).to_be_visible(timeout=LONG)
    number = page.locator("#order-number").inner_text()
    expect(page.locator("#order-charges")).to_contain_text("\u2212" + money_text(300, lang))
    shot(page, f"placed-partly-credit-{lang}")
    page.locator("#view-order").click()  # the order's details split it the same way
    details = page.locator("#order-charges")
    paid_words = {"en": ("Total paid", "Paid by card"), "fr": ("Total payé", "Payé par carte")}
    for words in paid_words[lang]:
        expect(details).to_contain_text(words)
    expect(details).to_contain_text(money_text(total - 300, lang))

    paid = rows(
        app,
        'SELECT p.method, p.amount_cents, p.converge_txn_id FROM payment p JOIN "order" o '
        "ON o.id = p.order_id WHERE o.number = ? AND p.state = 'APPROVED' ORDER BY p.method",
        number,
    )
    assert [(m, a) for m, a, _ in paid] == [("card", total - 300), ("credit", 300)], paid
    assert credit_balance(app) == 0
    sale = sim_txn(app, paid[0][2])  # the card processor charged the card's share only
    assert sale is not None and sale.amount_cents == total - 300, sale


@BOTH_WIDTHS
def test_credit_that_pays_it_all_offers_no_card(
    page: Page, app: AppServer, parent_cookie: dict, lang: str
) -> None:
    use_language(page, lang)
    fill_cart(app)
    set_credit(app, 100_000)
    try:
        page.context.add_cookies([parent_cookie])
        open_page(page, "/edit-profile/order-summary")
        covers = {
            "en": "Your family credit pays for this order: no card needed.",
            "fr": "Votre crédit familial paie cette commande : aucune carte requise.",
        }[lang]
        expect(page.locator("#pay-credit-covers")).to_have_text(covers)
        expect(page.locator("#summary-pay")).to_contain_text(msg("credit_ui.pay_with_credit", lang))
        # no card to choose or save, no word of the card processor
        for gone in ("#pay-card-new", "#pay-save-card"):
            expect(page.locator(gone)).to_have_count(0)
        expect(page.locator("#summary-payment")).not_to_contain_text(
            msg("checkout.payment_intro", lang)
        )
        shot(page, f"summary-all-credit-{lang}")
        assert serious_violations(page) == []
    finally:
        set_credit(app, 0)
