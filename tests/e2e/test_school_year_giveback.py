"""The start of the school year and the give-back figures in Chromium: at 390 px in French and at
1280 px in English, a family whose child was added last school year taps Book meal, is sent to the
start-of-year confirmation first (grade one up offered, teacher, allergies reviewed), confirms, and
then sees on its account page what its meals and donation gave this school year.

The school year is "rolled over" for this family the way the server sees it: the child's
``created_at`` is set before the current school year began (no clock is moved)."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import select

from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import (
    Child,
    Donation,
    Meal,
    MenuDay,
    MenuDayMeal,
    Order,
    OrderLine,
    Parent,
    School,
    Teacher,
)
from hotmeals.domain.money import format_money
from hotmeals.services import school_year
from tests import factories as f
from tests.e2e.helpers import msg, open_page, sign_in, use_language
from tests.e2e.helpers import shot as helpers_shot
from tests.e2e.server import AppServer

ROOT = Path(__file__).resolve().parents[2]


def _family(app: AppServer) -> tuple[str, str]:
    """A parent (password Lunch@2026) with Lily, in grade 3 since last school year, at the
    demo school, with one paid order of 3 meals this year and a $10 donation: (email, the
    grade 4 teacher's name: the school's own, from the demo data)."""
    engine = make_engine(f"sqlite:///{app.data_dir / 'e2e.db'}")
    email = f"sy-{uuid.uuid4().hex[:8]}@example.com"
    try:
        with session_scope(engine) as s:
            demo = s.exec(select(Parent).where(Parent.email == "parent@example.com")).one()
            school_id = s.exec(select(Child.school_id).where(Child.parent_id == demo.id)).first()
            school = s.get(School, school_id)
            parent = f.make_parent(s, email=email, first_name="Claire", last_name="Dubois")
            lily = f.make_child(s, parent, school=school, first_name="Lily", grade_code="3")
            lily.created_at = school_year.current().starts_at - timedelta(days=90)
            s.add(lily)
            # The demo school's own grade 4 teacher: the server caches teachers (reference
            # data, services/reference.py) and a row written here by another process would
            # only show after the cache's TTL.
            teacher = s.exec(
                select(Teacher).where(
                    Teacher.school_id == school.id,
                    Teacher.grade_id == f.get_grade(s, "4").id,
                )
            ).one()
            day, meal_id = s.exec(
                select(MenuDay, MenuDayMeal.meal_id)
                .join(MenuDayMeal, MenuDayMeal.menu_day_id == MenuDay.id)
                .where(MenuDay.school_id == school.id, MenuDay.is_closed.is_(False))
                .order_by(MenuDay.meal_date)
            ).first()
            order = Order(
                number=f"HM-SY{uuid.uuid4().hex[:6]}",
                parent_id=parent.id,
                status="placed",
                tax_bps=1300,
                processing_fee_bps=0,
                processing_fee_fixed_cents=0,
                placed_at=school_year.current().starts_at + timedelta(days=1),
            )
            s.add(order)
            s.flush()
            s.add(
                OrderLine(
                    order_id=order.id,
                    child_id=lily.id,
                    menu_day_id=day.id,
                    vendor_id=day.vendor_id,
                    meal_id=meal_id,
                    portion_id=f.portion_of(s, s.get(Meal, meal_id)).id,
                    meal_date=day.meal_date,
                    meal_name="Pizza",
                    size="small",
                    quantity=3,
                    price_tiers="1:650",
                    unit_price_cents=650,
                    line_total_cents=1950,
                )
            )
            s.add(
                Donation(parent_id=parent.id, school_id=school.id, amount_cents=1000, status="PAID")
            )
            return email, teacher.name
    finally:
        engine.dispose()


@pytest.mark.parametrize(("viewport", "lang"), [("phone", "fr"), ("desktop", "en")])
def test_start_of_year_confirmation_then_the_giveback_dashboard(
    page: Page, app: AppServer, viewport: str, lang: str
):
    email, teacher = _family(app)
    use_language(page, lang)
    open_page(page, "/sign-in")
    sign_in(page, email, "Lunch@2026")
    page.wait_for_url(re.compile(r"/parent/edit-profile/?$"))

    # Book meal sends the parent to the confirmation first.
    page.click("#book-meal")
    page.wait_for_url(re.compile(r"/parent/edit-profile/school-year/?$"))
    expect(page.locator("#sy-child")).to_have_text("Lily Dubois")
    expect(page.locator("#sy-grade option:checked")).to_have_text(
        "Grade 4" if lang == "en" else "4e année"
    )
    page.select_option("#sy-teacher", label=teacher)
    expect(
        page.locator(".rt-Badge").filter(has_text=msg("sy.children_to_confirm.one", lang, count=1))
    ).to_be_visible()
    # Confirming before the allergies are reviewed: said at the box, and the focus goes there.
    page.click("#sy-confirm")
    expect(page.locator("#sy-reviewed-error")).to_have_text(msg("allergies_review_required", lang))
    expect(page.locator("#sy-reviewed")).to_be_focused()
    expect(page.locator("#sy-reviewed")).to_have_attribute("aria-invalid", "true")
    page.click("#sy-reviewed")
    expect(page.locator("#sy-reviewed-error")).to_have_text("")
    helpers_shot(page, f"school-year-{viewport}-{lang}")
    from tests.e2e.test_accessibility import serious_violations

    assert serious_violations(page) == []  # the screen at this width and language (axe)
    page.click("#sy-confirm")
    expect(page.locator("#sy-done")).to_have_text(msg("sy.done_title", lang))

    # Booking is open now; the account page shows what the family gave.
    page.click("#sy-book")
    page.wait_for_url(re.compile(r"/parent/edit-profile/meal-detailed"))
    open_page(page, "/edit-profile")
    total = format_money(3 * 50 + 3 * 20 + 1000, lang)
    expect(page.locator("#giveback-total")).to_have_text(total)
    expect(page.locator("#giveback-meals")).to_have_text("3")
    expect(page.locator("#giveback-donations")).to_have_text(format_money(1000, lang))
    given = page.locator("#giveback [id^=gb-given-]")
    expect(given).to_have_text(format_money(3 * 50 + 1000, lang))  # to the school
    helpers_shot(page, f"giveback-{viewport}-{lang}")
