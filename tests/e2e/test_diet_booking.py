"""A child's diet on Book meal, once at 390 px in French and once at 1280 px in English: a
vegetarian child's menu marks the meals that fit ("Fits Emma's diet", « Convient au régime
d'Emma ») and says what the others miss; "Safe for Emma" then hides the meals that do not fit
her diet (and those she cannot have: a Major allergen; she has none here), and says how many
it hid and why; a meal that does not
fit opens with what it misses and Add answers the notice with "Add it anyway". axe finds
nothing serious on those states. Screenshots go to diet/ under E2E_SHOTS.

The family is made for this module in the running app's database, at the demo family's school;
the demo menus carry their dietary marks (the seed's)."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import Child, ChildDiet, Parent, School
from hotmeals.services.parents import start_session
from tests.e2e.helpers import msg, open_page
from tests.e2e.helpers import shot as helpers_shot
from tests.e2e.server import AppServer
from tests.factories import make_child, make_parent

ROUTE = "/edit-profile/meal-detailed"
FLOWS = [("phone", "fr"), ("desktop", "en")]


@pytest.fixture(scope="module")
def families(app: AppServer) -> dict:
    """Per flow: a parent at the demo school with Emma, vegetarian, no allergies."""
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
                    session, email=f"diet-{tag}@example.com", first_name="Lea", language=lang
                )
                emma = make_child(
                    session, parent, school=school, first_name="Emma", is_default=True
                )
                session.add(ChildDiet(child_id=emma.id, diet="vegetarian"))
                session.flush()
                out[viewport] = {"token": start_session(session, parent, "e2e"), "emma": emma.id}
    finally:
        engine.dispose()
    return out


def _shot(page: Page, name: str, viewport: str, lang: str) -> None:
    # A dialog still fading in would be half transparent in the picture: its animations end.
    page.evaluate(
        """() => Promise.all(document.getAnimations()
            .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
            .map((a) => a.finished.catch(() => null)))"""
    )
    full = page.locator("#meal-dialog").count() == 0
    helpers_shot(page, f"diet/{name}-{viewport}-{lang}", full_page=full)


def _open_day_with_both(page: Page) -> None:
    """The first open day (this month, then the next) whose menu has a meal that fits and one
    that does not."""
    days = page.locator("#book-calendar button.is-open")
    first_day = page.locator("#book-calendar [id^='day-']").first
    expect(first_day).to_be_visible()
    fits = page.locator("#book-meals > li:has(.hm-diet.is-fits)")
    misses = page.locator("#book-meals > li:has(.hm-diet.is-miss)")
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
            if fits.count() and misses.count():
                return
    pytest.fail("no open day this month or the next with a vegetarian meal and another")


@pytest.mark.parametrize(("viewport", "lang"), FLOWS, indirect=True)
def test_book_meal_marks_what_fits_emmas_diet_and_safe_for_emma_keeps_only_those(
    page: Page, app: AppServer, families: dict, viewport: str, lang: str
) -> None:
    from tests.e2e.test_accessibility import serious_violations

    family = families[viewport]
    page.context.add_cookies([{"name": "hm_token", "value": family["token"], "url": app.base_url}])
    page.add_init_script(f"window.localStorage.setItem('lang', '{lang}')")
    page.add_init_script(f"window.localStorage.setItem('chosenChildId', '{family['emma']}')")
    open_page(page, ROUTE)
    expect(page.locator("#book-calendar")).to_be_visible()

    _open_day_with_both(page)
    whose = "d'Emma" if lang == "fr" else "Emma's"
    fits = page.locator("#book-meals > li .hm-diet.is-fits")
    expect(fits.first).to_have_text(msg("ui.diet.fits", lang, whose=whose))
    missing = msg("diet_unmet_vegetarian", lang)
    expect(page.locator("#book-meals > li .hm-diet.is-miss").first).to_have_text(
        msg("ui.diet.misses", lang, whose=whose, missing=missing)
    )
    shown = page.locator("#book-meals > li").count()
    fitting = fits.count()
    # The switch's help says what it hides: what she cannot have and what misses her diet.
    expect(page.locator("#book-safe-hint")).to_have_text(
        msg("ui.diet.safe_for_help", lang, name="Emma", whose=whose)
    )
    _shot(page, "menu", viewport, lang)
    assert not serious_violations(page)

    switch = page.get_by_role("switch", name=msg("ui.safe.filter", lang, name="Emma"))
    switch.click()
    expect(switch).to_have_attribute("aria-checked", "true")
    expect(page.locator("#book-meals > li")).to_have_count(fitting)
    expect(page.locator("#book-meals > li .hm-diet.is-miss")).to_have_count(0)
    expect(page.locator("#book-safe-hint")).to_have_text(
        msg("ui.diet.hidden", lang, count=shown - fitting, name="Emma", whose=whose)
    )
    _shot(page, "menu-safe", viewport, lang)
    assert not serious_violations(page)

    # A meal that does not fit: the dialog says what it misses; Add answers the notice and
    # "Add it anyway" adds it.
    switch.click()
    expect(page.locator("#book-meals > li")).to_have_count(shown)
    page.locator("#book-meals > li:has(.hm-diet.is-miss)").first.locator("button").click()
    dialog = page.locator("#meal-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#meal-diet")).to_contain_text(missing)
    _shot(page, "dialog", viewport, lang)
    dialog.locator("#meal-add").click()
    notice = dialog.locator("#meal-diet-notice")
    expect(notice).to_contain_text(missing)
    expect(dialog.locator("#meal-add")).to_have_count(0)  # "Add it anyway" is the one way
    _shot(page, "dialog-notice", viewport, lang)
    assert not serious_violations(page)
    dialog.locator("#meal-diet-confirm").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#book-meals > li .hm-meal-in-cart").first).to_be_visible()
