"""A child's diet in the browser, once at 390 px in French and once at 1280 px in English.

The child form: a parent reaches the "Dietary needs" boxes with Tab and ticks Vegetarian and
Halal with Space (Vegan ticked and unticked on the way), saves, and the child card says
"Dietary needs: Vegetarian, Halal" (« Besoins alimentaires : Végétarien, Halal »), the
``ChildDiet`` rows hold those two codes, and the form opened again from the card has those two
boxes ticked and no other. axe finds nothing serious on the form with the boxes ticked.

Book meal: a
vegetarian child's menu marks the meals that fit ("Fits Emma's diet", « Convient au régime
d'Emma ») and says what the others miss; "Safe for Emma" then hides the meals that do not fit
her diet (and those she cannot have: a Major allergen; she has none here), and says how many
it hid and why; a meal that does not
fit opens with what it misses and Add answers the notice with "Add it anyway". axe finds
nothing serious on those states. Screenshots go to diet/ under E2E_SHOTS.

The families are made for this module in the running app's database, at the demo family's
school; the demo menus carry their dietary marks (the seed's)."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import Child, ChildDiet, Parent, School
from hotmeals.domain.diet import DIETS
from hotmeals.services.parents import start_session
from tests.e2e.helpers import close_toasts, msg, open_page
from tests.e2e.helpers import shot as helpers_shot
from tests.e2e.server import AppServer
from tests.factories import make_child, make_parent

ROUTE = "/edit-profile/meal-detailed"
EDIT_CHILD = "/edit-profile/edit-child"
FLOWS = [("phone", "fr"), ("desktop", "en")]


@pytest.fixture(scope="module")
def families(app: AppServer) -> dict:
    """Per flow: a parent at the demo school with Emma, vegetarian, no allergies; and one
    with Noah, no dietary need yet (the child form's flow)."""
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
                other = make_parent(
                    session, email=f"diet-form-{tag}@example.com", first_name="Omar", language=lang
                )
                noah = make_child(session, other, school=school, first_name="Noah", is_default=True)
                session.flush()
                out[viewport] = {
                    "token": start_session(session, parent, "e2e"),
                    "emma": emma.id,
                    "form_token": start_session(session, other, "e2e"),
                    "noah": noah.id,
                    "noah_name": f"{noah.first_name} {noah.last_name}",
                }
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


def _diet_rows(app: AppServer, child_id: int) -> set[str]:
    engine = make_engine(f"sqlite:///{app.data_dir}/e2e.db")
    try:
        with session_scope(engine) as session:
            found = session.exec(select(ChildDiet.diet).where(ChildDiet.child_id == child_id))
            return set(found.all())
    finally:
        engine.dispose()


def _expect_ticked(page: Page, lang: str, ticked: set[str]) -> None:
    """Each dietary-need box, found by its label's name in ``lang``, ticked iff in ``ticked``."""
    for need in DIETS:
        box = page.get_by_role("checkbox", name=msg(f"diet_{need.value}", lang), exact=True)
        expect(box).to_have_attribute("aria-checked", str(need.value in ticked).lower())


def _tab_to(page: Page, need: str) -> None:
    """Tab once; the focus lands on the box of ``need``."""
    page.keyboard.press("Tab")
    expect(page.locator(f"#child-diet-{need}")).to_be_focused()


def _space(page: Page, need: str, ticked: bool) -> None:
    """Space on the focused box; the server's answer ticks (or unticks) it."""
    page.keyboard.press("Space")
    expect(page.locator(f"#child-diet-{need}")).to_have_attribute(
        "aria-checked", str(ticked).lower()
    )


@pytest.mark.parametrize(("viewport", "lang"), FLOWS, indirect=True)
def test_the_child_form_ticks_dietary_needs_by_keyboard_and_the_child_keeps_them(
    page: Page, app: AppServer, families: dict, viewport: str, lang: str
) -> None:
    from tests.e2e.test_accessibility import serious_violations

    family = families[viewport]
    page.context.add_cookies(
        [{"name": "hm_token", "value": family["form_token"], "url": app.base_url}]
    )
    page.add_init_script(f"window.localStorage.setItem('lang', '{lang}')")
    page.add_init_script(f"window.localStorage.setItem('chosenChildId', '{family['noah']}')")
    open_page(page, EDIT_CHILD)
    expect(page.locator("#child-first_name")).to_have_value("Noah")
    expect(page.locator("#child-diets legend")).to_have_text(msg("ui.diet.legend", lang))
    _expect_ticked(page, lang, set())

    # By keyboard alone: from the grade, Tab walks the boxes in order and Space toggles them.
    page.focus("#child-grade")
    _tab_to(page, "vegetarian")
    _space(page, "vegetarian", True)
    _tab_to(page, "vegan")
    _space(page, "vegan", True)
    _space(page, "vegan", False)
    _tab_to(page, "halal")
    _space(page, "halal", True)
    _expect_ticked(page, lang, {"vegetarian", "halal"})
    _shot(page, "child-form", viewport, lang)  # the focus ring on Halal
    assert not serious_violations(page)

    page.click("#child-submit")
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))
    expect(page.locator("[data-sonner-toast]", has_text=msg("child_updated", lang))).to_be_visible()
    close_toasts(page)
    name = family["noah_name"]
    card = page.locator(".rt-Card", has=page.get_by_role("heading", name=name, exact=True))
    needs = ", ".join(msg(f"diet_{code}", lang) for code in ("vegetarian", "halal"))
    expect(card).to_contain_text(msg("ui.diet.legend", lang) + msg("checkout.colon", lang) + needs)
    _shot(page, "child-card", viewport, lang)
    assert _diet_rows(app, family["noah"]) == {"vegetarian", "halal"}

    # Opened again from the card: the two boxes ticked, no other.
    card.get_by_role("button", name=f"{msg('ui.common.edit', lang)} {name}").click()
    page.wait_for_url(re.compile(r"/parent/edit-profile/edit-child/?$"))
    expect(page.locator("#child-first_name")).to_have_value("Noah")
    _expect_ticked(page, lang, {"vegetarian", "halal"})
    # This tab's form could still show what it sent before its new load answers: a new tab
    # (a state of its own) shows what the server read back.
    fresh = open_page(page.context.new_page(), EDIT_CHILD)
    expect(fresh.locator("#child-first_name")).to_have_value("Noah")
    _expect_ticked(fresh, lang, {"vegetarian", "halal"})


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
