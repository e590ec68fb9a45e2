"""Allergy safety in the browser, once at 390 px in French and once at 1280 px in
English: the sign-up's "No allergies, continue" is not offered once an allergy is picked (and
saving keeps it); on Book meal the dialog names the child with her allergies, a Major-milk child
sees the milk drink and the milky add-on listed but not selectable with the reason, "Safe for"
hides the meals she cannot have, and a Medium-milk child choosing the milk drink is asked for
the acknowledgement naming milk before the meal can be added; the cart line says whom it is
for. axe finds nothing serious on those states. Screenshots go to test-results/allergy/.

The families are made for this module in the running app's database, at the demo family's
school. The milk drink and the milky add-ons carry Milk as the allergy branch's demo data says
(set here too when missing, so the test does not hang on the seed's order)."""

from __future__ import annotations

import re
import sqlite3
import uuid
from contextlib import closing

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import Child, Parent, School
from hotmeals.domain.diet import whose
from hotmeals.services.parents import start_session
from tests.e2e.helpers import close_toasts, msg, open_page
from tests.e2e.helpers import shot as helpers_shot
from tests.e2e.server import AppServer
from tests.factories import make_child, make_parent

ROUTE = "/edit-profile/meal-detailed"
FLOWS = [("phone", "fr"), ("desktop", "en")]
MILK_DRINK = "White milk (250 mL)"
MILKY_ADDONS = ("Cheese string", "Yogurt tube")


def _db(app: AppServer) -> sqlite3.Connection:
    return closing(sqlite3.connect(app.data_dir / "e2e.db", timeout=30))


def _milk_on_extras(app: AppServer) -> None:
    """The milk drink and the milky add-ons contain milk (INSERT OR IGNORE: the seed may
    have said so already)."""
    with _db(app) as conn:
        (milk,) = conn.execute(
            "SELECT id FROM allergeningredient WHERE name_en = 'Milk'"
        ).fetchone()
        conn.execute(
            "INSERT OR IGNORE INTO menuoptionallergen (menu_option_id, ingredient_id) "
            "SELECT id, ? FROM menuoption WHERE name_en = ?",
            (milk, MILK_DRINK),
        )
        conn.execute(
            "INSERT OR IGNORE INTO addonallergen (addon_id, ingredient_id) "
            f"SELECT id, ? FROM addon WHERE name_en IN ({', '.join('?' * len(MILKY_ADDONS))})",
            (milk, *MILKY_ADDONS),
        )
        conn.commit()


@pytest.fixture(scope="module")
def families(app: AppServer) -> dict:
    """Per flow: a parent at the demo school with Mila (default; Major: milk) and Ivy
    (Medium: milk); and a parent at the sign-up's allergy step with one child."""
    _milk_on_extras(app)
    engine = make_engine(f"sqlite:///{app.data_dir}/e2e.db")
    out: dict = {}
    try:
        with session_scope(engine) as session:
            school = session.exec(
                select(School)
                .join(Child, Child.school_id == School.id)
                .join(Parent, Parent.id == Child.parent_id)
                .where(Parent.email == "parent@example.com")
            ).first()
            assert school is not None, "the demo family's school"
            for viewport, lang in FLOWS:
                tag = uuid.uuid4().hex[:8]
                parent = make_parent(
                    session, email=f"safe-{tag}@example.com", first_name="Sara", language=lang
                )
                mila = make_child(
                    session,
                    parent,
                    school=school,
                    first_name="Mila",
                    is_default=True,
                    allergies={"Milk": "Major"},
                )
                ivy = make_child(
                    session, parent, school=school, first_name="Ivy", allergies={"Milk": "Medium"}
                )
                newcomer = make_parent(
                    session,
                    email=f"new-{tag}@example.com",
                    first_name="Nina",
                    language=lang,
                    signup_step="ALLERGY",
                )
                zoe = make_child(session, newcomer, first_name="Zoe", is_default=True)
                session.flush()
                out[viewport] = {
                    "parent": parent.id,
                    "token": start_session(session, parent, "e2e"),
                    "mila": mila.id,
                    "ivy": ivy.id,
                    "newcomer": newcomer.id,
                    "newcomer_token": start_session(session, newcomer, "e2e"),
                    "zoe": zoe.id,
                }
    finally:
        engine.dispose()
    return out


def _shot(page: Page, name: str, viewport: str, lang: str) -> None:
    full = page.locator("#meal-dialog").count() == 0
    helpers_shot(page, f"allergy/{name}-{viewport}-{lang}", full_page=full)


def _fits(page: Page, selector: str) -> None:
    """Nothing of ``selector`` (this screen's own parts) reaches past the window's right edge.
    (The header's own 390-px overflow is another branch's.)"""
    past = page.evaluate(
        """(selector) => {
            const width = document.documentElement.clientWidth;
            return [...document.querySelectorAll(selector)]
                .flatMap((root) => [root, ...root.querySelectorAll('*')])
                .filter((el) => el.getBoundingClientRect().width > 0)
                .filter((el) => el.getBoundingClientRect().right > width + 0.5)
                .map((el) => `${el.tagName}.${el.className} ${el.getBoundingClientRect().right}`)
                .slice(0, 5);
        }""",
        selector,
    )
    assert past == [], past


def _start(page: Page, app: AppServer, token: str, lang: str) -> None:
    page.context.add_cookies([{"name": "hm_token", "value": token, "url": app.base_url}])
    page.add_init_script(f"window.localStorage.setItem('lang', '{lang}')")


def _book(page: Page, child_id: int) -> None:
    page.add_init_script(f"window.localStorage.setItem('chosenChildId', '{child_id}')")
    open_page(page, ROUTE)
    expect(page.locator("#book-calendar")).to_be_visible()
    expect(page.locator(f"#book-child-{child_id}")).to_have_attribute("aria-pressed", "true")


def _open_day_with(page: Page, wanted) -> None:
    """The first open day whose menu has a card ``wanted`` finds: this month's calendar, then
    (late in a month, when few days are left before its end) the next month's."""
    days = page.locator("#book-calendar button.is-open")
    first_day = page.locator("#book-calendar [id^='day-']").first
    expect(first_day).to_be_visible()
    for month in range(2):
        if month:
            shown = (first_day.get_attribute("id") or "")[: len("day-2026-01")]
            expect(page.locator("#book-next-month")).to_be_enabled()
            page.click("#book-next-month")
            expect(first_day).not_to_have_id(re.compile(rf"^{shown}-"))
        for n in range(days.count()):
            days.nth(n).click()
            expect(days.nth(n)).to_have_attribute("aria-pressed", "true")
            expect(page.locator("#book-meals > li").first).to_be_visible()
            if wanted(page).count():
                return
    pytest.fail("no open day this month or the next with the meal the test needs")


def _milk_free(page: Page):
    """A card without any allergy mark for the child, whose extras contain milk."""
    return page.locator(
        "#book-meals > li:not(:has(.hm-allergy))", has=page.locator(".hm-meal-contains.is-extras")
    )


@pytest.mark.parametrize(("viewport", "lang"), FLOWS, indirect=True)
def test_no_allergies_continue_never_drops_picked_allergies(
    page: Page, app: AppServer, families: dict, viewport: str, lang: str
) -> None:
    family = families[viewport]
    _start(page, app, family["newcomer_token"], lang)
    open_page(page, "/allergy-profile")
    skip = page.locator("#allergy-skip")
    expect(skip).to_have_text(msg("ui.allergy.skip", lang))  # offered while nothing is picked
    peanuts = "Arachides" if lang == "fr" else "Peanuts"
    page.get_by_role("button", name=f"{msg('ui.allergy.add', lang)} {peanuts}").click()
    expect(page.locator("#allergy-chosen")).to_contain_text(peanuts)
    expect(skip).to_have_count(0)  # picked: the button that would drop it is gone
    _shot(page, "signup-allergy", viewport, lang)
    page.click("#allergy-save")
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
    with _db(app) as conn:
        assert conn.execute(
            "SELECT alert_level FROM childallergy WHERE child_id = ?", (family["zoe"],)
        ).fetchall() == [("Major",)]


@pytest.mark.parametrize(("viewport", "lang"), FLOWS, indirect=True)
def test_book_meal_says_it_first_for_the_child(
    page: Page, app: AppServer, families: dict, viewport: str, lang: str
) -> None:
    from tests.e2e.test_accessibility import serious_violations

    family = families[viewport]
    _start(page, app, family["token"], lang)
    _book(page, family["mila"])
    expect(page.locator("#book-child-marks")).to_have_text(
        msg("ui.safe.child_marks", lang, name="Mila", allergies="")
        + ("Lait (Majeur)" if lang == "fr" else "Milk (Major)")
    )

    # Safe for Mila: the meals with milk go, and the hint says how many.
    _open_day_with(page, lambda p: p.locator("#book-meals > li.is-refused"))
    expect(page.locator("#book-meals > li .hm-meal-contains").first).to_be_visible()
    expect(page.locator("#book-meals")).to_contain_text(msg("ui.safe.from", lang, price=""))
    # The day's cut-off, in the parent's language (the cards repeat it only when theirs differs).
    expect(page.locator("#book-day-note")).to_contain_text(msg("ui.book.cutoff", lang, when=""))
    refused = page.locator("#book-meals > li.is-refused").count()
    shown = page.locator("#book-meals > li").count()
    switch = page.get_by_role("switch", name=msg("ui.safe.filter", lang, name="Mila"))
    _shot(page, "menu", viewport, lang)
    switch.click()
    expect(switch).to_have_attribute("aria-checked", "true")
    expect(page.locator("#book-meals > li.is-refused")).to_have_count(0)
    expect(page.locator("#book-meals > li")).to_have_count(shown - refused)
    expect(page.locator("#book-safe-hint")).to_have_text(
        msg("ui.safe.hidden", lang, count=refused, whose=whose("Mila", lang))
    )
    _shot(page, "menu-safe", viewport, lang)
    _fits(page, "main h1, .hm-child-row, #book-child-marks, #book-calendar, #book-day")
    assert not serious_violations(page)

    # The dialog names Mila; the milk drink and the milky add-on are there, not selectable,
    # with the reason in view.
    _open_day_with(page, _milk_free)
    _milk_free(page).first.locator("button").click()
    dialog = page.locator("#meal-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#meal-for")).to_have_text(msg("ui.safe.for_child", lang, name="Mila"))
    drink = "Lait (250 ml)" if lang == "fr" else MILK_DRINK
    milk = "Lait" if lang == "fr" else "Milk"
    refusal = msg("ui.safe.cannot_pick", lang, name="Mila", allergens=milk)
    expect(page.locator("#meal-menu-option option", has_text=drink)).to_be_disabled()
    expect(page.locator("#meal-menu-option-marks")).to_contain_text(refusal)
    addon = dialog.locator(".hm-choice-row.is-refused")
    expect(addon.first).to_contain_text(refusal)
    expect(addon.first.get_by_role("checkbox")).to_be_disabled()
    expect(page.locator("#meal-add")).to_be_enabled()
    dialog.locator(".hm-meal-choices").scroll_into_view_if_needed()
    _shot(page, "dialog-major", viewport, lang)
    _fits(page, "#meal-dialog")
    assert not serious_violations(page)
    page.click("#meal-close")
    expect(dialog).to_be_hidden()

    # Ivy (Medium): the milk drink asks for the acknowledgement naming milk.
    page.click(f"#book-child-{family['ivy']}")
    expect(page.locator("#book-child-marks")).to_contain_text("Ivy")
    _open_day_with(page, _milk_free)
    _milk_free(page).first.locator("button").click()
    expect(page.locator("#meal-for")).to_have_text(msg("ui.safe.for_child", lang, name="Ivy"))
    add = page.locator("#meal-add")
    expect(add).to_be_enabled()
    expect(page.locator("#meal-menu-option-marks")).to_contain_text(
        msg("ui.safe.needs_ack", lang, allergens=milk)
    )
    page.select_option("#meal-menu-option", label=drink)
    ack = page.locator("#meal-allergy")
    expect(ack).to_contain_text(milk)
    expect(add).to_be_disabled()
    _shot(page, "dialog-ack", viewport, lang)
    page.locator("#meal-ack").click()
    expect(add).to_be_enabled()
    add.click()
    expect(page.get_by_text(msg("added_to_cart", lang))).to_be_visible()
    with _db(app) as conn:
        ((child, ack_text),) = conn.execute(
            "SELECT child_id, allergy_ack FROM cartline WHERE parent_id = ?", (family["parent"],)
        ).fetchall()
    assert child == family["ivy"] and milk in ack_text

    # The card says the meal is in the cart; the cart line says whom it is for.
    expect(page.locator("#book-meals")).to_contain_text(msg("ui.safe.in_cart", lang, count=1))
    close_toasts(page)  # a toast fading out is not this screen's contrast
    _shot(page, "menu-in-cart", viewport, lang)
    _fits(page, "#book-day")
    assert not serious_violations(page)
    open_page(page, "/edit-profile/cart")
    expect(page.locator(".hm-line-for")).to_have_text(msg("ui.safe.for_child", lang, name="Ivy"))
    expect(page.locator(".hm-line-allergy")).to_contain_text(
        msg("ui.book.allergy_ack", lang, allergens=milk)
    )
    expect(page.locator(".hm-line-cutoff")).to_contain_text(msg("ui.safe.order_by", lang, when=""))
    _shot(page, "cart", viewport, lang)
    _fits(page, ".hm-cart-group")
