"""Book several days in Chromium at 390 and 1280 px: on the Book meal
screen's 'Book several days' tab a parent picks 'Next week', sees the five open days each
with a meal, changes one day's size, adds the five meals in one tap (the header count goes to
5), then repeats that week into the week after and sees which days could not be copied and why
(a PA day, a meal not on that day's menu); repeating again adds nothing. The same in French.

The family has a school of its own with a caterer whose menus are made here (next week: two
meals every day; the week after: the same meals except a PA day on Wednesday and another meal
only on Thursday), so the outcome is known and no other test's data is touched. Screenshots go
to test-results/booking-week/."""

from __future__ import annotations

import re
import sqlite3
import uuid
from contextlib import closing
from datetime import date, timedelta

import httpx
import pytest
from playwright.sync_api import Page, expect

from hotmeals import clock
from hotmeals.db.engine import make_engine, session_scope
from hotmeals.services.ordering.days import week_start
from tests.e2e.helpers import BOTH_WIDTHS, open_page, open_profile_menu
from tests.e2e.helpers import shot as helpers_shot
from tests.e2e.server import AppServer
from tests.factories import (
    DEFAULT_PASSWORD,
    make_child,
    make_meal,
    make_menu_day,
    make_parent,
    make_school,
    make_vendor,
)

ROUTE = "/edit-profile/meal-detailed"
API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}


def _next_monday() -> date:
    return week_start(clock.today()) + timedelta(days=7)


@pytest.fixture(scope="module")
def week_family(app: AppServer) -> dict:
    email = f"weekly-{uuid.uuid4().hex[:8]}@example.com"
    monday = _next_monday()
    engine = make_engine(f"sqlite:///{app.data_dir}/e2e.db")
    try:
        with session_scope(engine) as session:
            school = make_school(session, name=f"Maple Grove PS {uuid.uuid4().hex[:4]}")
            # Orders close at 09:00 on the day itself: next week is open whatever today is.
            vendor = make_vendor(session, cutoff_days_before=0, cutoff_time="09:00")
            rice = make_meal(session, vendor, name_en="Apple Rice Bowl", name_fr="Bol de riz")
            stew = make_meal(session, vendor, name_en="Bean Stew", name_fr="Ragoût de haricots")
            soup = make_meal(session, vendor, name_en="Corn Soup", name_fr="Soupe au maïs")
            for n in range(5):
                make_menu_day(session, school, vendor, monday + timedelta(days=n), [rice, stew])
                later = monday + timedelta(days=7 + n)
                if n == 2:
                    make_menu_day(session, school, vendor, later, closed=True)
                else:
                    make_menu_day(
                        session, school, vendor, later, [soup] if n == 3 else [rice, stew]
                    )
            parent = make_parent(session, email=email, first_name="Wren", last_name="Weekly")
            child = make_child(session, parent, school=school, first_name="Tess", is_default=True)
            ids = (parent.id, child.id)
    finally:
        engine.dispose()
    answer = httpx.post(
        f"{app.base_url}/api/v1/Parent/auth/Login",
        content=f'{{"email": "{email}", "password": "{DEFAULT_PASSWORD}"}}',
        headers=API_HEADERS,
        timeout=30,
    ).json()
    assert answer["code"] == 1, answer
    return {"id": ids[0], "child": ids[1], "token": answer["data"]["token"]}


def _cart(app: AppServer, parent_id: int) -> list[tuple]:
    with closing(sqlite3.connect(app.data_dir / "e2e.db", timeout=30)) as conn:
        return conn.execute(
            "SELECT cartline.child_id, menuday.meal_date, portion.size FROM cartline "
            "JOIN menuday ON menuday.id = cartline.menu_day_id "
            "JOIN portion ON portion.id = cartline.portion_id "
            "WHERE cartline.parent_id = ? ORDER BY menuday.meal_date",
            (parent_id,),
        ).fetchall()


def _clear(app: AppServer, parent_id: int) -> None:
    with closing(sqlite3.connect(app.data_dir / "e2e.db", timeout=30)) as conn:
        conn.execute(
            "DELETE FROM cartlineaddon WHERE cart_line_id IN "
            "(SELECT id FROM cartline WHERE parent_id = ?)",
            (parent_id,),
        )
        conn.execute("DELETE FROM cartline WHERE parent_id = ?", (parent_id,))
        conn.commit()


def _shot(page: Page, name: str, viewport: str) -> None:
    helpers_shot(page, f"booking-week/{name}-{viewport}")


def _open_panel(page: Page, app: AppServer, family: dict) -> None:
    page.context.add_cookies([{"name": "hm_token", "value": family["token"], "url": app.base_url}])
    page.add_init_script(f"window.localStorage.setItem('chosenChildId', '{family['child']}')")
    open_page(page, ROUTE)
    expect(page.locator("#book-calendar")).to_be_visible()
    tab = page.locator("#book-mode-many")
    tab.click()
    expect(tab).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#many-panel")).to_be_visible()
    page.click("#many-range-next_week")
    expect(page.locator("#many-range-next_week")).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#many-days > [data-state="open"]')).to_have_count(5)


def _repeat_into_the_week_after(page: Page) -> None:
    monday = _next_monday()
    page.select_option("#many-source-week", value=monday.isoformat())
    page.select_option("#many-target-week", value=(monday + timedelta(days=7)).isoformat())
    page.click("#many-repeat")


def test_a_parent_books_next_week_in_one_flow_and_repeats_it(
    page: Page, app: AppServer, week_family: dict, viewport: str
) -> None:
    _clear(app, week_family["id"])
    _open_panel(page, app, week_family)
    cart = page.locator("#header-cart")
    expect(cart).to_have_attribute("aria-label", "Cart, 0 items")
    add = page.locator("#many-add")
    expect(add).to_have_text("Add 5 meals to cart")
    # every day starts with a meal the child can have; the first day in the large size
    expect(page.locator("select[id^=many-meal-]").first).to_have_value(re.compile(r"^\d+$"))
    page.locator("select[id^=many-size-]").first.select_option("large")
    # one day left out, then back in
    first_day = page.locator("[id^=many-day-]").first
    first_day.click()
    expect(add).to_have_text("Add 4 meals to cart")
    first_day.click()
    expect(add).to_have_text("Add 5 meals to cart")
    _shot(page, "week-en", viewport)

    add.click()
    title = page.locator("#many-report-title")
    expect(title).to_have_text("Meals added to cart: 5. Not added: 0.")
    expect(page.locator("#many-added li")).to_have_count(5)
    expect(cart).to_have_attribute("aria-label", "Cart, 5 items")
    lines = _cart(app, week_family["id"])
    assert [size for _, _, size in lines] == ["large", "small", "small", "small", "small"]
    assert len({day for _, day, _ in lines}) == 5

    _repeat_into_the_week_after(page)
    expect(title).to_have_text("Meals copied to your cart: 3. Not copied: 2.")
    refused = page.locator("#many-refused li")
    expect(refused).to_have_count(2)
    expect(refused.nth(0)).to_contain_text("PA Day – no school")
    expect(refused.nth(1)).to_contain_text("This meal is not on the menu of that day")
    expect(cart).to_have_attribute("aria-label", "Cart, 8 items")
    _shot(page, "repeat-en", viewport)

    # the same again adds nothing more: those meals are already in the cart
    _repeat_into_the_week_after(page)
    expect(title).to_have_text("Meals copied to your cart: 0. Not copied: 2.")
    expect(page.locator("#many-add")).to_have_text("Tick the days to add")
    expect(page.locator("#many-skipped li")).to_have_count(3)
    expect(page.locator("#many-skipped")).to_contain_text("Already in your cart")
    assert len(_cart(app, week_family["id"])) == 8


def test_book_several_days_in_french(
    page: Page, app: AppServer, week_family: dict, viewport: str
) -> None:
    _clear(app, week_family["id"])
    _open_panel(page, app, week_family)
    expect(page.locator("#many-add")).to_have_text("Add 5 meals to cart")
    # switched with the panel open: the days and meals reload in French
    open_profile_menu(page)
    page.locator("#menu-language").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Réserver un repas")
    add = page.locator("#many-add")
    expect(add).to_have_text("Ajouter 5 repas au panier")
    expect(page.locator("#many-days")).to_contain_text(re.compile(r"lundi \d{1,2} \w+"))
    expect(page.locator("#many-days")).to_contain_text("Bol de riz")
    _shot(page, "week-fr", viewport)
    add.click()
    title = page.locator("#many-report-title")
    expect(title).to_have_text("Repas ajoutés au panier : 5. Non ajoutés : 0.")
    _repeat_into_the_week_after(page)
    expect(title).to_have_text("Repas copiés dans votre panier : 3. Non copiés : 2.")
    refused = page.locator("#many-refused li")
    expect(refused.nth(0)).to_contain_text("Journée pédagogique")
    expect(refused.nth(1)).to_contain_text("Ce repas n'est pas au menu de cette journée")
    _shot(page, "repeat-fr", viewport)
    assert len(_cart(app, week_family["id"])) == 8


@BOTH_WIDTHS
def test_the_several_days_panel_has_no_serious_axe_violation(
    page: Page, app: AppServer, week_family: dict, lang: str
) -> None:
    import json

    from tests.e2e.test_accessibility import serious_violations

    _clear(app, week_family["id"])
    page.add_init_script(f"window.localStorage.setItem('lang', '{lang}')")
    _open_panel(page, app, week_family)
    found = {"panel": serious_violations(page)}
    page.click("#many-add")
    expect(page.locator("#many-report")).to_be_visible()
    page.mouse.move(1, 1)  # a hovered toast stays
    # The report's toast comes, then goes: axe reads the report without a toast fading in or
    # out over it (on a busy machine the toast may come only after the report shows).
    expect(page.locator("[data-sonner-toast]")).not_to_have_count(0)
    expect(page.locator("[data-sonner-toast]")).to_have_count(0, timeout=15_000)
    found["report"] = serious_violations(page)
    assert not any(found.values()), json.dumps(found, indent=1)
