"""Modifying an order and managing one meal in Chromium at 390 and 1280 px, on a paid order of
the demo parent (paid through the app's checkout against its Converge simulator,
tests/e2e/orderdata.py):

- modify the order: remove one line, add one meal through the Book meal dialog (add-item),
  see the difference, confirm - a decrease is refunded, an increase paid in the Lightbox;
- move one meal to another day of the same vendor in two taps from the meal (French at 390 px
  or English at 1280 px);
- cancel one meal after 'Are you sure?' (likewise in the suite's language variant).

After each, the order's total in the database is the one shown, its refunds match the
simulator's VOID/RETURN, an increase is an approved ORDER_CHANGE payment that the simulator
holds as a sale of the same amount."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.cartdata import set_credit
from tests.e2e.helpers import msg, open_page, shot, use_language
from tests.e2e.orderdata import VISA, cents, empty_cancel_cart, paid_order, refunds_of, sim_txn
from tests.e2e.server import AppServer

LONG = 60_000


def query(app: AppServer, sql: str, *params) -> list[tuple]:
    with closing(sqlite3.connect(app.data_dir / "e2e.db", timeout=30)) as conn:
        return conn.execute(sql, params).fetchall()


def order_total(app: AppServer, order_id: int) -> int:
    return int(query(app, 'SELECT total_pay_cents FROM "order" WHERE id = ?', order_id)[0][0])


def change_payments(app: AppServer, order_id: int) -> list[tuple]:
    return query(
        app,
        "SELECT amount_cents, state, converge_txn_id FROM payment "
        "WHERE order_id = ? AND purpose = 'ORDER_CHANGE' ORDER BY id",
        order_id,
    )


def check_refunds(app: AppServer, order_id: int) -> int:
    """Every refund of the order succeeded and is in the simulator as that kind (a RETURN of
    the same amount, or a VOID); the total refunded."""
    rows = refunds_of(app, order_id)
    total = 0
    for kind, state, amount, txn_id in rows:
        assert state == "SUCCEEDED" and txn_id, rows
        txn = sim_txn(app, txn_id)
        assert txn is not None and txn.kind == kind, (kind, txn)
        if kind == "RETURN":
            assert txn.amount_cents == amount, (amount, txn)
        total += amount
    return total


def pay_in_lightbox(page: Page) -> None:
    expect(page.locator("#pwc-dialog")).to_be_visible(timeout=LONG)
    page.fill("#pwc-card-number", VISA)
    page.fill("#pwc-exp-date", "1230")
    page.fill("#pwc-cvv", "123")
    page.click("#pwc-pay")


def settle(page: Page, status_id: str) -> str:
    """After Confirm: pay in the Lightbox when asked; the final status."""
    status = page.locator(f"#{status_id}")
    expect(status).to_have_attribute("data-status", re.compile("^(done|paying)$"), timeout=LONG)
    if status.get_attribute("data-status") == "paying":
        pay_in_lightbox(page)
    expect(status).to_have_attribute("data-status", "done", timeout=LONG)
    return status.inner_text()


@pytest.fixture
def order(app: AppServer, page: Page, parent_cookie: dict) -> dict:
    empty_cancel_cart(app)
    set_credit(app, 0)  # a dearer change is paid by card (family credit would pay it first)
    made = paid_order(app)
    made["lines"] = [
        r[0]
        for r in query(
            app, "SELECT id FROM orderline WHERE order_id = ? ORDER BY id", made["order_id"]
        )
    ]
    page.context.add_cookies([parent_cookie])
    return made


@pytest.mark.parametrize("money", ["pay", "refund"])
def test_an_order_is_modified_adding_one_meal_and_removing_another(
    page: Page, app: AppServer, order: dict, money: str, lang: str
) -> None:
    """``pay``: the last line (1 meal) out, 2 meals in - an increase paid in the Lightbox;
    ``refund``: the first line (2 large meals with an add-on and a note) out, 1 meal in - a
    decrease refunded to the card."""
    oid = order["order_id"]
    pays = money_pattern(msg("order_change.info_pay", lang, amount="AMOUNT"), lang)
    refunds = money_pattern(msg("order_change.info_refund", lang, amount="AMOUNT"), lang)
    use_language(page, lang)
    open_page(page, f"/edit-profile/modify-order?id={oid}")
    expect(page.get_by_role("heading", level=1)).to_contain_text(order["number"])
    expect(page.locator("#change-lines > li")).to_have_count(4)
    expect(page.locator("#change-confirm")).to_have_count(0)  # nothing changed yet

    # Remove a line (its meals): the difference appears; undo and remove again.
    last = order["lines"][-1 if money == "pay" else 0]
    page.click(f"#remove-line-{last}")
    expect(page.locator("#change-difference")).to_have_text(re.compile(refunds))
    page.click(f"#undo-line-{last}")
    expect(page.locator("#change-difference")).to_have_count(0)
    page.click(f"#remove-line-{last}")
    expect(page.locator(f"#undo-line-{last}")).to_be_visible()

    # Add item: the Book meal screen's calendar, menu and dialog, adding to this order.
    page.click("#change-add-item")
    expect(page).to_have_url(re.compile(rf"/edit-profile/modify-order/add-item/?\?id={oid}$"))
    day = page.locator("#book-calendar button.is-open").first
    expect(day).to_be_visible(timeout=LONG)
    day.click()
    meal = page.locator("#book-meals > li:not(.is-refused) button").first
    expect(meal).to_be_visible(timeout=LONG)
    meal.click()
    expect(page.locator("#meal-dialog")).to_be_visible()
    add = page.locator("#meal-add")
    expect(add).to_contain_text(msg("ui.change.add_to_order", lang))
    if page.locator("#meal-ack").count():
        page.locator("#meal-ack").click()
    if money == "pay":
        page.click("#meal-qty-more")
        expect(page.locator("#meal-qty")).to_have_text("2")
    shot(page, f"modify-add-item-{money}")
    add.click()

    # Back on the order with the meal to add and the difference.
    expect(page).to_have_url(re.compile(rf"/edit-profile/modify-order/?\?id={oid}$"), timeout=LONG)
    expect(page.locator("#change-added > li")).to_have_count(1)
    new_total = page.locator("#change-new-total").inner_text()
    difference = page.locator("#change-difference").inner_text()
    shot(page, f"modify-order-{money}")
    paid_before = order["total_pay_cents"]
    assert re.fullmatch(pays if money == "pay" else refunds, difference), difference
    if money == "pay":
        page.click("#change-card-new")
    page.click("#change-confirm")
    done = settle(page, "change-status")
    assert order["number"] in done, done
    shot(page, f"modify-order-done-{money}")

    # The order as changed: what it holds (charged - refunded) is the new total shown; the
    # money moved exactly (a decrease shows as the order's refund, as for a cancel).
    refunded = check_refunds(app, oid)
    assert order_total(app, oid) - refunded == cents(new_total)
    payments = change_payments(app, oid)
    if money == "pay":
        assert refunded == 0, refunded
        assert len(payments) == 1 and payments[0][1] == "APPROVED", payments
        amount, _, txn_id = payments[0]
        assert amount == cents(difference) == cents(new_total) - paid_before
        txn = sim_txn(app, txn_id)
        assert txn is not None and txn.kind == "SALE" and txn.amount_cents == amount, txn
    else:
        assert payments == [], payments
        assert refunded == paid_before - cents(new_total) == cents(difference)
    states = dict(query(app, "SELECT id, status FROM orderline WHERE order_id = ?", oid))
    assert states[last] == "cancelled", states
    assert len(states) == 5, states

    # The screen shows the changed order: the removed line cancelled, nothing pending.
    expect(page.locator("#change-lines > li")).to_have_count(5)
    expect(page.locator("#change-confirm")).to_have_count(0)
    expect(page.locator(f"#remove-line-{last}")).to_have_count(0)

    # The order details show the total refund the ledgers hold.
    page.click("#back-order")
    expect(page).to_have_url(re.compile(rf"/edit-profile/order-details/?\?id={oid}$"))
    expect(page.locator("#order-total-refund")).to_be_visible()
    assert cents(page.locator("#order-total-refund").inner_text()) == refunded
    page.go_back()

    # Back walks the steps: the add-item screen, then forward to the order again.
    page.go_back()
    expect(page).to_have_url(re.compile(r"/modify-order/add-item/?\?id="))
    page.go_forward()
    expect(page).to_have_url(re.compile(rf"/edit-profile/modify-order/?\?id={oid}$"))


def _movable(app: AppServer, order: dict) -> int:
    """A line of the order whose meal the same vendor serves on another open day."""
    from hotmeals.db.engine import make_engine, session_scope
    from hotmeals.services.ordering.changing.move import get_dates_for_modify_meal

    parent_id = query(app, 'SELECT parent_id FROM "order" WHERE id = ?', order["order_id"])[0][0]
    engine = make_engine(app.env["DATABASE_URL"])
    try:
        with session_scope(engine) as s:
            for line_id in order["lines"]:
                found = get_dates_for_modify_meal(
                    session=s, parent_id=parent_id, order_line_id=line_id
                )
                if any(d.meal_served for d in found.dates):
                    return int(line_id)
    finally:
        engine.dispose()
    pytest.fail("no line of the order can move")


def test_a_meal_moves_to_another_day_in_two_taps(
    page: Page, app: AppServer, order: dict, lang: str
) -> None:
    oid = order["order_id"]
    line_id = _movable(app, order)
    before = query(app, "SELECT meal_date FROM orderline WHERE id = ?", line_id)[0][0]
    use_language(page, lang)
    open_page(page, "/edit-profile/manage-meal-details")
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("ui.manage.list_title", lang))
    page.click(f"#meal-{line_id}")
    expect(page).to_have_url(re.compile(rf"/manage-meal-details/?\?id={line_id}$"))
    expect(page.locator("#manage-meal")).to_be_visible()
    expect(page.locator("#move-dates")).to_be_visible()
    shot(page, f"manage-meal-{lang}")

    # Tap 1: the day; tap 2: confirm.
    target = page.locator("#move-dates a").first
    new_date = (target.get_attribute("id") or "").removeprefix("move-to-")
    target.click()
    expect(page).to_have_url(re.compile(r"/manage-confirm-order/?\?id=\d+&date="))
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("ui.manage.confirm_title", lang))
    shot(page, f"manage-confirm-{lang}")
    page.click("#move-confirm")
    text = settle(page, "move-status")
    assert order["number"] in text and {"en": "order", "fr": "commande"}[lang] in text.lower()
    shot(page, f"manage-moved-{lang}")

    moved = query(
        app, "SELECT meal_date, moved_from_date, status FROM orderline WHERE id = ?", line_id
    )
    assert moved[0] == (new_date, before, "active"), (moved, new_date, before)
    # The same meal at today's price: the difference (if any) paid or refunded exactly.
    total = order_total(app, oid)
    refunded = check_refunds(app, oid)
    paid = sum(p[0] for p in change_payments(app, oid) if p[1] == "APPROVED")
    # charged = paid at checkout + an increase; a decrease shows as the order's refund
    assert total == order["total_pay_cents"] + paid, (total, paid, refunded)

    # Back: the meal, now on its new day (the list's link of the same line).
    page.go_back()
    expect(page).to_have_url(re.compile(rf"/manage-meal-details/?\?id={line_id}$"))
    expect(page.locator("#manage-meal")).to_contain_text(msg("ui.manage.moved", lang))


def money_pattern(text: str, lang: str) -> str:
    """``text`` as a regular expression in which ``AMOUNT`` is any amount in ``lang``."""
    money = r"\$\d+\.\d\d" if lang == "en" else r"\d+,\d\d\s\$"
    return re.escape(text).replace("AMOUNT", money)


def test_one_meal_is_cancelled_after_are_you_sure(
    page: Page, app: AppServer, order: dict, lang: str
) -> None:
    oid = order["order_id"]
    line_id = order["lines"][-1]
    use_language(page, lang)
    open_page(page, f"/edit-profile/manage-meal-details?id={line_id}")
    expect(page.locator("#manage-meal")).to_be_visible()
    page.click("#manage-cancel")
    expect(page.locator("#cancel-reason-error")).to_have_text(msg("cancel_reason_required", lang))
    select = page.locator("#cancel-reason")
    values = select.locator("option").evaluate_all("os => os.map(o => o.value)")
    select.select_option(next(v for v in values if v))
    page.click("#manage-cancel")
    sure = page.get_by_role("alertdialog")
    expect(sure).to_contain_text(msg("orders_ui.sure_title", lang))
    # Before: how much and where, by the rule the answer after uses (the card, the default).
    to_card = msg("orders_after.refund_notice", lang, amount="AMOUNT").split(". ")[0]
    ahead = money_pattern(f"{msg('ui.manage.sure_text', lang)} {to_card}", lang)
    expect(sure).to_contain_text(re.compile(ahead))
    shot(page, f"manage-cancel-sure-{lang}")
    sure.locator("#manage-sure-yes").click()
    status = page.locator("#manage-status")
    expect(status).to_have_attribute("data-status", "cancelled", timeout=LONG)
    # One message, the meal's: the meal and its order stay in view, no toast.
    done = money_pattern(f"{msg('ui.manage.meal_cancelled', lang)}. {to_card}.", lang)
    expect(status).to_have_text(re.compile(done))
    expect(page.locator("#manage-meal")).to_be_visible()
    expect(page.locator("#meal-cancelled")).to_have_text(msg("ui.manage.cancelled_badge", lang))
    expect(page.locator("#manage-view-order")).to_be_visible()
    expect(page.locator("[data-sonner-toast]")).to_have_count(0)
    refunded = check_refunds(app, oid)
    assert refunded > 0
    amounts = re.findall(money_pattern("AMOUNT", lang), status.inner_text())
    assert refunded in [cents(a) for a in amounts], (refunded, status.inner_text())
    state = query(app, "SELECT status FROM orderline WHERE id = ?", line_id)[0][0]
    assert state == "cancelled"
