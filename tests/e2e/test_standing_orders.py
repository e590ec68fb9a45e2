"""Standing orders in Chromium, at 390 px in French and at 1280 px in
English: Book meal opened from a reminder e-mail's link (``?date=``) shows that day; a meal's
"Repeat every <weekday>" sets up a standing order; the standing orders screen (from the
account menu) lists it, and Pause pauses it. Screenshots of the screen go to
test-results/standing/."""

from __future__ import annotations

import sqlite3
import uuid
from contextlib import closing
from datetime import date, timedelta

import httpx
import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from hotmeals import clock
from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import Child, MenuDay, Parent, School
from tests.e2e.helpers import msg, open_page, use_language
from tests.e2e.helpers import shot as helpers_shot
from tests.e2e.server import AppServer
from tests.factories import DEFAULT_PASSWORD, make_child, make_parent

API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}
LANG = {"phone": "fr", "desktop": "en"}


@pytest.fixture(params=["phone", "desktop"], ids=["390-fr", "1280-en"])
def viewport(request) -> str:
    """390 px in French, 1280 px in English (one run each)."""
    return request.param


def _family(app: AppServer) -> dict:
    """A new parent with one child (no allergies) at the demo school, signed in, and an open
    Monday of that school at least a week ahead."""
    email = f"standing-{uuid.uuid4().hex[:8]}@example.com"
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
            parent = make_parent(session, email=email, first_name="Rita", last_name="Roy")
            child = make_child(session, parent, school=school, first_name="Zoe", is_default=True)
            days = session.exec(
                select(MenuDay.meal_date).where(
                    MenuDay.school_id == school.id,
                    MenuDay.is_closed == False,  # noqa: E712 - SQL
                    MenuDay.meal_date >= clock.today() + timedelta(days=7),
                )
            ).all()
            monday = min(d for d in days if d.weekday() == 0)
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
    return {"id": ids[0], "child": ids[1], "token": answer["data"]["token"], "monday": monday}


def _standing(app: AppServer, parent_id: int) -> list[tuple]:
    with closing(sqlite3.connect(app.data_dir / "e2e.db", timeout=30)) as conn:
        return conn.execute(
            "SELECT weekday, status FROM standingorder WHERE parent_id = ?", (parent_id,)
        ).fetchall()


def test_a_parent_sets_up_a_standing_order_from_book_meal_and_pauses_it(
    page: Page, app: AppServer, viewport: str
) -> None:
    lang = LANG[viewport]
    family = _family(app)
    monday: date = family["monday"]
    page.context.add_cookies([{"name": "hm_token", "value": family["token"], "url": app.base_url}])
    use_language(page, lang)
    # The reminder e-mails' link: that day is open on the calendar and its menu shown.
    open_page(page, f"/edit-profile/meal-detailed?date={monday.isoformat()}")
    day = page.locator(f"#day-{monday.isoformat()}")
    expect(day).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#book-meals > li").first).to_be_visible()
    page.locator("#book-meals > li button").first.click()
    dialog = page.locator("#meal-dialog")
    expect(dialog).to_be_visible()
    weekday = "lundi" if lang == "fr" else "Monday"
    repeat = dialog.get_by_text(msg("standing_ui.repeat", lang, weekday=weekday))
    expect(repeat).to_be_visible()
    page.locator("#meal-repeat").click()
    expect(page.locator("#repeat-until")).to_be_visible()
    page.locator("#repeat-create").scroll_into_view_if_needed()
    helpers_shot(page, f"standing/dialog-{viewport}-{lang}", full_page=False)
    page.locator("#repeat-create").click()
    expect(page.locator("#repeat-done")).to_contain_text(weekday)
    assert _standing(app, family["id"]) == [(0, "active")]

    # The screen, from the account menu.
    page.locator("#meal-close").click()
    page.locator("#profile-menu").click()
    page.locator("#menu-standing-orders").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(msg("standing_ui.title", lang))
    card = page.locator("#standing-list > li")
    expect(card).to_have_count(1)
    expect(card).to_contain_text(msg("standing.status.active", lang))
    expect(card.locator(".hm-standing-summary")).to_contain_text("Zoe")
    helpers_shot(page, f"standing/active-{viewport}-{lang}")
    card.locator(".hm-standing-pause").click()
    expect(card).to_have_attribute("data-status", "paused")
    expect(card.locator(".hm-standing-resume")).to_be_focused()  # the focus stays on the card
    expect(card.locator(".hm-standing-status")).to_have_text(msg("standing.status.paused", lang))
    expect(card.locator(".hm-standing-resume")).to_be_visible()
    expect(card).to_contain_text(msg("standing.paused_note", lang))
    assert _standing(app, family["id"]) == [(0, "paused")]
    helpers_shot(page, f"standing/paused-{viewport}-{lang}")
