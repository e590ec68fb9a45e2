"""Book meal (/edit-profile/meal-detailed) in Chromium at 390 and
1280 px: a parent picks a child, an open school day on the calendar, a meal, the large size, an
add-on and a special note, adds it to the cart, sees 'Added to cart Successfully' and the
header's cart count go up; a meal with a child's Major allergen cannot be added; one with a
Medium allergen needs the acknowledgement. Each flow runs in the suite's language variant (390 px
in French or 1280 px in English), its texts from the catalog; the profile menu's language switch
turns a booking begun in English into French.

The family is made for this module in the running app's database (three children at the demo
school, with allergies the demo menu's meals contain: milk and wheat), so its cart starts empty
and no other test's cart is touched. Screenshots of the screen go to test-results/booking/."""

from __future__ import annotations

import json
import re
import sqlite3
import uuid
from contextlib import closing

import httpx
import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import Child, Parent, School
from tests.e2e.helpers import BOTH_WIDTHS, msg, open_page, open_profile_menu, use_language
from tests.e2e.helpers import shot as helpers_shot
from tests.e2e.server import AppServer
from tests.factories import DEFAULT_PASSWORD, make_child, make_parent

ROUTE = "/edit-profile/meal-detailed"
API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}


@pytest.fixture(scope="module")
def family(app: AppServer) -> dict:
    """A parent with three children at the demo family's school: Nora (default, no
    allergies), Milo (Major: milk, wheat) and Ivy (Medium: wheat)."""
    email = f"booker-{uuid.uuid4().hex[:8]}@example.com"
    engine = make_engine(f"sqlite:///{app.data_dir}/e2e.db")
    try:
        with session_scope(engine) as session:
            school = session.exec(
                select(School)
                .join(Child, Child.school_id == School.id)
                .join(Parent, Parent.id == Child.parent_id)
                .where(Parent.email == "parent@example.com")
            ).first()
            assert school is not None, "the demo family's school"
            parent = make_parent(session, email=email, first_name="Bea", last_name="Booker")
            kids = {
                "nora": make_child(
                    session, parent, school=school, first_name="Nora", is_default=True
                ),
                "milo": make_child(
                    session,
                    parent,
                    school=school,
                    first_name="Milo",
                    allergies={"Milk": "Major", "Wheat and triticale": "Major"},
                ),
                "ivy": make_child(
                    session,
                    parent,
                    school=school,
                    first_name="Ivy",
                    allergies={"Wheat and triticale": "Medium", "Milk": "Medium"},
                ),
            }
            ids = {name: child.id for name, child in kids.items()}
            parent_id = parent.id
    finally:
        engine.dispose()
    answer = httpx.post(
        f"{app.base_url}/api/v1/Parent/auth/Login",
        content=f'{{"email": "{email}", "password": "{DEFAULT_PASSWORD}"}}',
        headers=API_HEADERS,
        timeout=30,
    ).json()
    assert answer["code"] == 1, answer
    return {"id": parent_id, "token": answer["data"]["token"], "kids": ids}


def cart_lines(app: AppServer, parent_id: int) -> list[tuple]:
    with closing(sqlite3.connect(app.data_dir / "e2e.db", timeout=30)) as conn:
        return conn.execute(
            "SELECT child_id, quantity, special_note, allergy_ack FROM cartline "
            "WHERE parent_id = ? ORDER BY id",
            (parent_id,),
        ).fetchall()


def clear_cart(app: AppServer, parent_id: int) -> None:
    with closing(sqlite3.connect(app.data_dir / "e2e.db", timeout=30)) as conn:
        conn.execute(
            "DELETE FROM cartlineaddon WHERE cart_line_id IN "
            "(SELECT id FROM cartline WHERE parent_id = ?)",
            (parent_id,),
        )
        conn.execute("DELETE FROM cartline WHERE parent_id = ?", (parent_id,))
        conn.commit()


def booking_page(page: Page, app: AppServer, family: dict, child: str = "nora") -> Page:
    page.context.add_cookies([{"name": "hm_token", "value": family["token"], "url": app.base_url}])
    # The chosen child is kept in browser storage (docs/product.md §3).
    page.add_init_script(f"window.localStorage.setItem('chosenChildId', '{family['kids'][child]}')")
    open_page(page, ROUTE)
    expect(page.locator("#book-calendar")).to_be_visible()
    return page


def open_first_day(page: Page) -> None:
    day = page.locator("#book-calendar button.is-open").first
    expect(day).to_be_visible()
    day.click()
    expect(day).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#book-meals > li").first).to_be_visible()


def cart_label(count: int, lang: str) -> str:
    """The header cart's name: "Cart, 1 item" / "Panier, 0 article"."""
    items = msg("ui.header.items", lang, count=count)
    return f"{msg('ui.header.cart_name', lang)}, {count} {items}"


def before_blank(key: str, lang: str, param: str) -> str:
    """The catalog text of ``key`` before its parameter ``param``: "Order by" of
    "Order by {when}"."""
    return msg(key, lang, **{param: "\x00"}).split("\x00")[0].strip()


def shot(page: Page, name: str, viewport: str) -> None:
    """The screen as the parent sees it (a dialog: the window; otherwise the whole page)."""
    full = page.locator("#meal-dialog").count() == 0
    helpers_shot(page, f"booking/{name}-{viewport}", full_page=full)


def test_a_parent_books_a_large_meal_with_an_add_on_and_a_note(
    page: Page, app: AppServer, family: dict, viewport: str, lang: str
) -> None:
    clear_cart(app, family["id"])
    use_language(page, lang)
    booking_page(page, app, family)
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("ui.book.title", lang))
    nora = page.locator(f"#book-child-{family['kids']['nora']}")
    expect(nora).to_have_attribute("aria-pressed", "true")
    cart = page.locator("#header-cart")
    expect(cart).to_have_attribute("aria-label", cart_label(0, lang))

    open_first_day(page)
    order_by = before_blank("ui.book.cutoff", lang, "when")
    expect(page.locator("#book-day-note")).to_contain_text(order_by)
    # The tapped day's title and menu come up to where the parent looks (on a phone they
    # start below the calendar, out of sight).
    expect(page.locator("#book-day-title")).to_be_in_viewport()
    shot(page, f"day-{lang}", viewport)
    page.locator("#book-meals > li button").first.click()
    dialog = page.locator("#meal-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#meal-nutrition > div")).to_have_count(15)

    before = page.locator("#meal-total").inner_text()
    dialog.locator("[id^=size-]").nth(1).click()  # 1 portion + upgrade
    expect(page.locator("#meal-total")).not_to_have_text(before)
    dialog.locator("[id^=addon-]").first.click()
    page.fill("#meal-note", "Happy birthday Nora!")
    expect(page.locator("#meal-note-count")).to_have_text("20/120")
    shot(page, f"dialog-{lang}", viewport)
    page.click("#meal-add")

    expect(page.get_by_text(msg("added_to_cart", lang))).to_be_visible()
    expect(dialog).to_be_hidden()
    expect(cart).to_have_attribute("aria-label", cart_label(1, lang))
    expect(page.locator("#book-calendar button.is-selected .hm-cal-dot.is-cart")).to_have_count(1)
    lines = cart_lines(app, family["id"])
    assert [(c, q, n) for c, q, n, _ in lines] == [
        (family["kids"]["nora"], 1, "Happy birthday Nora!")
    ]


def test_a_major_allergen_meal_cannot_be_added(
    page: Page, app: AppServer, family: dict, viewport: str, lang: str
) -> None:
    clear_cart(app, family["id"])
    use_language(page, lang)
    booking_page(page, app, family, "milo")
    expect(page.locator(f"#book-child-{family['kids']['milo']}")).to_have_attribute(
        "aria-pressed", "true"
    )
    open_first_day(page)
    refused = page.locator("#book-meals > li.is-refused").first
    expect(refused).to_be_visible()
    major = before_blank("ui.book.allergy_major", lang, "allergens")
    names = "|".join(re.escape(msg(f"allergen_{k}", lang)) for k in ("milk", "wheat_and_triticale"))
    expect(refused.locator(".hm-allergy")).to_contain_text(
        re.compile(re.escape(major) + f" .*({names})")
    )
    refused.locator("button").click()
    refusal = msg("allergy_refused", lang, allergens="\x00").split("\x00")[-1]
    expect(page.locator("#meal-allergy")).to_contain_text(refusal)
    expect(page.locator("#meal-add")).to_be_disabled()
    shot(page, f"major-{lang}", viewport)
    assert cart_lines(app, family["id"]) == []


def test_a_medium_allergen_meal_needs_the_acknowledgement(
    page: Page, app: AppServer, family: dict, viewport: str, lang: str
) -> None:
    clear_cart(app, family["id"])
    use_language(page, lang)
    booking_page(page, app, family, "ivy")
    open_first_day(page)
    flagged = page.locator("#book-meals > li", has=page.locator(".hm-allergy.is-ack")).first
    expect(flagged).to_be_visible()
    flagged.locator("button").click()
    add = page.locator("#meal-add")
    expect(add).to_be_disabled()
    understand = before_blank("allergy_ack_text", lang, "allergens")
    expect(page.locator("#meal-allergy")).to_contain_text(understand)
    page.locator("#meal-ack").click()
    expect(add).to_be_enabled()
    shot(page, f"ack-{lang}", viewport)
    add.click()
    expect(page.get_by_text(msg("added_to_cart", lang))).to_be_visible()
    expect(page.locator("#header-cart")).to_have_attribute("aria-label", cart_label(1, lang))
    ((child_id, _q, _n, ack),) = cart_lines(app, family["id"])
    assert child_id == family["kids"]["ivy"]
    assert ack and ack.startswith(understand)  # the sentence the parent ticked, as shown


def test_the_language_switch_turns_a_booking_into_french(
    page: Page, app: AppServer, family: dict, viewport: str
) -> None:
    clear_cart(app, family["id"])
    booking_page(page, app, family)
    open_first_day(page)
    expect(page.locator("#book-day-note")).to_contain_text("Order by")
    # The profile menu's language switch: what the services wrote reloads in French.
    open_profile_menu(page)
    page.locator("#menu-language").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Réserver un repas")
    # The day and its cut-off in French (Babel): 'Commandez au plus tard le vendredi ...'.
    expect(page.locator("#book-day-note")).to_contain_text("Commandez au plus tard le")
    expect(page.locator("#book-day-title")).to_have_text(
        re.compile(r"^(Lundi|Mardi|Mercredi|Jeudi|Vendredi) \d{1,2} \w+", re.IGNORECASE)
    )
    expect(page.locator("#book-meals")).to_contain_text(re.compile(r"\d,\d\d\s\$"))  # 5,25 $
    page.locator("#book-meals > li button").first.click()
    dialog = page.locator("#meal-dialog")
    expect(dialog).to_contain_text("1 portion + upgrade")
    expect(dialog).to_contain_text("Valeur nutritive")
    expect(page.locator("#meal-total")).to_contain_text("$")
    shot(page, "switch-dialog-fr", viewport)
    page.click("#meal-add")
    expect(page.get_by_text("Ajouté au panier avec succès")).to_be_visible()
    expect(page.locator("#header-cart")).to_have_attribute("aria-label", re.compile(r"1"))
    shot(page, "switch-day-fr", viewport)
    assert len(cart_lines(app, family["id"])) == 1


@pytest.mark.parametrize("viewport", ["desktop", "phone"], indirect=True)  # header / menu
def test_book_meal_in_the_header_and_on_the_profile_opens_the_screen(
    page: Page, app: AppServer, family: dict, viewport: str
) -> None:
    page.context.add_cookies([{"name": "hm_token", "value": family["token"], "url": app.base_url}])
    open_page(page, "/edit-profile")
    page.click("#book-meal")
    page.wait_for_url(re.compile(r"/parent/edit-profile/meal-detailed$"))
    expect(page.locator("#book-calendar")).to_be_visible()
    open_page(page, "/edit-profile")
    if viewport == "desktop":
        page.click("#nav-book-meal")
    else:  # phones: in the profile menu
        open_profile_menu(page)
        page.click("#menu-book-meal")
    page.wait_for_url(re.compile(r"/parent/edit-profile/meal-detailed$"))
    expect(page.locator("#book-calendar")).to_be_visible()


@BOTH_WIDTHS
def test_the_day_menu_and_the_meal_dialog_have_no_serious_axe_violation(
    page: Page, app: AppServer, family: dict, lang: str
) -> None:
    from tests.e2e.test_accessibility import serious_violations

    page.add_init_script(f"window.localStorage.setItem('lang', '{lang}')")
    booking_page(page, app, family, "ivy")  # allergy marks on the cards
    open_first_day(page)
    found = {"day": serious_violations(page)}
    page.locator("#book-meals > li button").first.click()
    expect(page.locator("#meal-dialog")).to_be_visible()
    found["dialog"] = serious_violations(page)
    assert not any(found.values()), json.dumps(found, indent=1)
