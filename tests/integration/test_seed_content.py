"""What the demo data holds, read back from a migrated database on each backend."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    AddOn,
    AllergenIngredient,
    CancelReason,
    Child,
    ChildAllergy,
    City,
    CmsPage,
    Faq,
    Grade,
    Meal,
    MealAllergen,
    MealOption,
    MenuDay,
    MenuDayMeal,
    MenuOption,
    NotificationPreference,
    Parent,
    Portion,
    PriceTier,
    PromoCode,
    School,
    Teacher,
    Vendor,
)
from hotmeals.db.seed_calendar import school_days
from hotmeals.db.seed_types import NUTRITION_FIELDS
from hotmeals.security import verify_password
from tests.databases import SEED_TODAY

ASSETS = Path(__file__).resolve().parents[2] / "assets"
GRADE_CODES = ["JK", "SK", "1", "2", "3", "4", "5", "6", "7", "8"]
PRIORITY = {
    "Peanuts",
    "Tree nuts",
    "Milk",
    "Eggs",
    "Fish",
    "Crustaceans and shellfish",
    "Sesame",
    "Soy",
    "Wheat and triticale",
    "Mustard",
    "Sulphites",
}


@pytest.fixture
def session(seeded_engine):
    with session_scope(seeded_engine) as s:
        yield s


def all_(session, model):
    return session.exec(select(model)).all()


def test_cities_schools_teachers_and_grades(session):
    cities = all_(session, City)
    schools = all_(session, School)
    assert len(cities) >= 3 and {c.province for c in cities} == {"ON"}
    assert {"Ottawa", "Toronto", "Mississauga"} <= {c.name for c in cities}
    assert len(schools) == 6
    assert set(Counter(s.city_id for s in schools).values()) == {2}
    assert all(", ON " in s.address for s in schools)

    grades = sorted(all_(session, Grade), key=lambda g: g.sort)
    assert [g.code for g in grades] == GRADE_CODES
    labels = {g.code: (g.label_en, g.label_fr) for g in grades}
    assert labels["JK"] == ("Junior Kindergarten", "Maternelle")
    assert labels["1"] == ("Grade 1", "1re année")
    assert labels["8"] == ("Grade 8", "8e année")

    covered = defaultdict(set)
    for t in all_(session, Teacher):
        covered[t.school_id].add(t.grade_id)
    assert all(covered[s.id] == {g.id for g in grades} for s in schools)


def test_allergens_include_canadas_priority_list_in_both_languages(session):
    rows = all_(session, AllergenIngredient)
    assert {r.name_en for r in rows if r.is_priority} == PRIORITY
    assert {"Gluten", "Corn", "Celery", "Garlic", "Kiwi", "Strawberries", "Tomato"} <= {
        r.name_en for r in rows
    }
    assert all(r.name_fr for r in rows)
    assert {r.name_fr for r in rows} >= {"Arachides", "Lait", "Œufs", "Sésame", "Moutarde"}


def test_three_vendors_with_distinct_cutoff_rules(session):
    vendors = all_(session, Vendor)
    assert len(vendors) == 3
    rules = {(v.cutoff_days_before, v.cutoff_time, v.cutoff_skip_weekends) for v in vendors}
    assert rules == {(2, "17:00", False), (1, "10:00", False), (3, "12:00", True)}


def test_meals_are_complete_in_both_languages_with_nutrition_facts(session):
    meals = all_(session, Meal)
    assert len(meals) >= 25
    per_vendor = Counter(m.vendor_id for m in meals)
    assert len(per_vendor) == 3 and min(per_vendor.values()) >= 8
    for m in meals:
        for field in ("name", "description", "ingredients", "cooking_method"):
            assert getattr(m, f"{field}_en") and getattr(m, f"{field}_fr"), (m.name_en, field)
        assert m.name_en != m.name_fr
        facts = {f: getattr(m, f) for f in NUTRITION_FIELDS}
        assert all(v is not None and v >= 0 for v in facts.values()), m.name_en
        # Trans fat is legitimately zero in many dishes; everything else is not.
        assert all(v > 0 for f, v in facts.items() if f != "trans_fat_g"), (m.name_en, facts)
        assert 250 <= m.calories <= 700
        assert m.saturated_fat_g <= m.fat_g and m.sugars_g <= m.carbohydrate_g


def test_allergen_links_match_the_ingredients(session):
    names = {a.id: a.name_en for a in all_(session, AllergenIngredient)}
    by_meal = defaultdict(set)
    for link in all_(session, MealAllergen):
        by_meal[link.meal_id].add(names[link.ingredient_id])
    meals = {m.name_en: m for m in all_(session, Meal)}
    assert {"Milk", "Wheat and triticale", "Gluten"} <= by_meal[meals["Baked Mac and Cheese"].id]
    assert "Fish" in by_meal[meals["Crispy Fish Sticks with Rice"].id]
    assert "Sesame" in by_meal[meals["Hummus Veggie Wrap"].id]
    for meal in meals.values():
        allergens = by_meal[meal.id]
        assert allergens, meal.name_en
        assert "Peanuts" not in allergens  # Ontario schools are peanut-aware
        assert ("Gluten" in allergens) == ("Wheat and triticale" in allergens)
        text = meal.ingredients_en.lower()
        if "wheat" in text:
            assert "Wheat and triticale" in allergens, meal.name_en
        if re.search(r"\b(milk|cheese|cheddar|butter|cream|yogurt)\b", text):
            assert "Milk" in allergens, meal.name_en
        if re.search(r"\beggs?\b|egg yolk|mayonnaise", text):
            assert "Eggs" in allergens, meal.name_en
        if "soy" in text:
            assert "Soy" in allergens, meal.name_en
        if "sesame" in text or "tahini" in text:
            assert "Sesame" in allergens, meal.name_en


def test_every_drink_meal_option_and_add_on_carries_its_real_allergens(session):
    """Milk in the white milk, the cheese string and the yogurt; wheat, eggs and milk
    in the cookie and the muffin; nothing in water, juice or apple slices."""
    from hotmeals.db.models import AddOnAllergen, MealOptionAllergen, MenuOptionAllergen

    names = {a.id: a.name_en for a in all_(session, AllergenIngredient)}
    addons = defaultdict(set)
    ids = {a.id: a.name_en for a in all_(session, AddOn)}
    for link in all_(session, AddOnAllergen):
        addons[ids[link.addon_id]].add(names[link.ingredient_id])
    assert addons["Cheese string"] == {"Milk"} and addons["Yogurt tube"] == {"Milk"}
    assert {"Wheat and triticale", "Gluten", "Eggs", "Milk", "Soy"} == addons[
        "Chocolate chip cookie"
    ]
    assert {"Wheat and triticale", "Eggs", "Milk", "Banana"} <= addons["Banana muffin"]
    assert "Apple slices" not in addons and "Fruit cup" not in addons
    assert all("Peanuts" not in found and "Tree nuts" not in found for found in addons.values())
    drinks = defaultdict(set)
    options = {o.id: o.name_en for o in all_(session, MenuOption)}
    for link in all_(session, MenuOptionAllergen):
        drinks[options[link.menu_option_id]].add(names[link.ingredient_id])
    assert set(drinks) == {"White milk (250 mL)"} and drinks["White milk (250 mL)"] == {"Milk"}
    variants = defaultdict(set)
    meal_options = {o.id: o.name_en for o in all_(session, MealOption)}
    for link in all_(session, MealOptionAllergen):
        variants[meal_options[link.meal_option_id]].add(names[link.ingredient_id])
    assert variants["Extra tzatziki"] == {"Milk", "Garlic"}
    assert "Syrup on the side" not in variants


def test_portions_and_price_tiers_stay_within_the_advertised_range(session):
    meals = all_(session, Meal)
    portions = all_(session, Portion)
    tiers = all_(session, PriceTier)
    by_meal = defaultdict(dict)
    for p in portions:
        by_meal[p.meal_id][p.size] = p
    by_portion = defaultdict(dict)
    for t in tiers:
        by_portion[t.portion_id][t.min_quantity] = t.unit_price_cents
    assert all(500 <= t.unit_price_cents <= 725 for t in tiers)
    for m in meals:
        assert set(by_meal[m.id]) == {"small", "large"}, m.name_en
        small = by_portion[by_meal[m.id]["small"].id]
        large = by_portion[by_meal[m.id]["large"].id]
        assert 500 <= small[1] <= 600 and small[1] < large[1] <= 725, m.name_en
        for prices in (small, large):
            ordered = [prices[q] for q in sorted(prices)]
            assert ordered == sorted(ordered, reverse=True)  # more meals never cost more each
    bulk = [t for t in tiers if t.min_quantity == 5]
    assert bulk and all(by_portion[t.portion_id][1] - t.unit_price_cents == 25 for t in bulk)


def test_options_and_addons(session):
    menu_options = all_(session, MenuOption)
    meal_options = all_(session, MealOption)
    assert {"White milk (250 mL)", "Apple juice (200 mL)", "Water"} <= {
        o.name_en for o in menu_options
    }
    assert {o.price_cents for o in menu_options} == {0, 50}
    gf = [o for o in meal_options if o.name_en == "Gluten-free bun"]
    assert gf and all(o.price_cents == 75 for o in gf)
    addons = all_(session, AddOn)
    per_vendor = Counter(a.vendor_id for a in addons)
    assert len(per_vendor) == 3 and min(per_vendor.values()) >= 4
    assert all(a.name_fr and 50 <= a.price_cents <= 300 for a in addons)


def test_menu_days_cover_six_school_weeks_with_a_pa_day(session):
    schools = all_(session, School)
    days = all_(session, MenuDay)
    vendor_of_meal = {m.id: m.vendor_id for m in all_(session, Meal)}
    meals_of_day = defaultdict(list)
    for link in all_(session, MenuDayMeal):
        meals_of_day[link.menu_day_id].append(link.meal_id)
    window = school_days(SEED_TODAY)
    assert len({d.isocalendar()[:2] for d in window}) >= 6
    demo_school_id = min(c.school_id for c in all_(session, Child))
    for school in schools:
        # Before the window: only the day of the demo parent's paid order (last week).
        mine = [d for d in days if d.school_id == school.id and d.meal_date >= window[0]]
        dates = [d.meal_date for d in mine]
        assert sorted(dates) == window  # one vendor per school and date, no gaps
        assert all(d.weekday() < 5 for d in dates)
        assert len({d.vendor_id for d in mine}) == 3
        closed = [d for d in mine if d.is_closed]
        assert len(closed) >= 1
        assert any(d.closed_reason_en == "PA Day – no school" for d in closed)
        # The demo closed day (a storm, closed after booking by the closure service) keeps its
        # menu; the seed's own closed days have none.
        storms = [d for d in closed if d.closed_reason_en == "Storm"]
        assert len(storms) == (1 if school.id == demo_school_id else 0)
        for d in closed:
            if d in storms:
                assert d.closed_reason_fr == "Tempête" and meals_of_day[d.id]
                continue
            assert (d.closed_reason_en, d.closed_reason_fr) in {
                ("PA Day – no school", "Journée pédagogique"),
                ("Winter break – no school", "Congé d'hiver"),
            }
            assert meals_of_day[d.id] == []
        for d in mine:
            if not d.is_closed or d in storms:
                assert 4 <= len(meals_of_day[d.id]) <= 6
                assert {vendor_of_meal[m] for m in meals_of_day[d.id]} == {d.vendor_id}


def test_pages_faq_and_cancel_reasons_in_english_and_french(session):
    pages = {(p.slug, p.language): p for p in all_(session, CmsPage)}
    assert set(pages) == {(s, lang) for s in ("about", "terms", "privacy") for lang in ("en", "fr")}
    assert all(len(p.body) > 1500 and p.body.startswith("# ") and p.title for p in pages.values())
    assert "5–10 business days" in pages[("terms", "en")].body
    assert "cut-off" in pages[("terms", "en")].body
    assert "5 à 10 jours" in pages[("terms", "fr")].body
    assert "PIPEDA" in pages[("privacy", "en")].body and "PIPEDA" in pages[("privacy", "fr")].body
    assert "$0.50" in pages[("about", "en")].body and "$0.20" in pages[("about", "en")].body
    assert "0,50 $" in pages[("about", "fr")].body and "0,20 $" in pages[("about", "fr")].body

    faq = Counter(f.language for f in all_(session, Faq))
    assert faq["en"] >= 8 and faq["fr"] == faq["en"]

    reasons = all_(session, CancelReason)
    assert len(reasons) >= 4 and all(r.label_fr for r in reasons)
    assert [(r.label_en, r.label_fr) for r in reasons if r.is_other] == [("Other", "Autre")]


def test_promo_codes(session):
    codes = {p.code: p for p in all_(session, PromoCode)}
    parent = session.exec(select(Parent).where(Parent.email == "parent@example.com")).one()
    assert codes["WELCOME10"].percent_bps == 1000 and codes["WELCOME10"].parent_id is None
    assert (codes["LUNCH2"].amount_off_cents, codes["LUNCH2"].min_order_cents) == (200, 1000)
    expired = [p for p in codes.values() if p.valid_until and p.valid_until < SEED_TODAY]
    assert expired
    assert [p.code for p in codes.values() if p.parent_id == parent.id] == ["TREMBLAY5"]


def test_demo_parent_and_children(session):
    parent = session.exec(select(Parent).where(Parent.email == "parent@example.com")).one()
    assert verify_password(parent.password_hash, "Lunch@2026")
    assert not verify_password(parent.password_hash, "lunch@2026")
    assert (parent.first_name, parent.last_name) == ("Maria", "Tremblay")
    assert (parent.phone, parent.phone_digits) == ("613-555-0142", "6135550142")
    assert parent.signup_step == "COMPLETE" and parent.language == "en"
    assert parent.terms_accepted_at and parent.email_verified_at

    children = session.exec(select(Child).where(Child.parent_id == parent.id)).all()
    assert len(children) == 2
    assert len({c.school_id for c in children}) == 1
    assert [c.first_name for c in children if c.is_default] == ["Emma"]
    for child in children:
        teacher = session.get(Teacher, child.teacher_id)
        assert teacher.school_id == child.school_id and teacher.grade_id == child.grade_id
        assert session.get(School, child.school_id).city_id == child.city_id
    names = {a.id: a.name_en for a in all_(session, AllergenIngredient)}
    levels = {
        (session.get(Child, a.child_id).first_name, names[a.ingredient_id]): a.alert_level
        for a in all_(session, ChildAllergy)
    }
    assert levels == {("Emma", "Peanuts"): "Major", ("Lucas", "Strawberries"): "Low"}

    prefs = session.exec(
        select(NotificationPreference).where(NotificationPreference.parent_id == parent.id)
    ).all()
    assert {p.kind for p in prefs} >= {"order_confirmation", "refund"}


def test_every_picture_exists_and_is_a_small_svg(session):
    paths = [m.image for m in all_(session, Meal)] + [a.image for a in all_(session, AddOn)]
    assert all(p.startswith(("/meals/", "/addons/")) and p.endswith(".svg") for p in paths)
    for path in set(paths):
        file = ASSETS / path.lstrip("/")
        assert file.is_file(), path
        text = file.read_text()
        assert 'viewBox="0 0 160 120"' in text and "<title>" in text, path
        assert len(text.encode()) < 3 * 1024, path
    assert len({m.image for m in all_(session, Meal)}) == len(all_(session, Meal))


def test_winter_break_days_are_closed_with_a_reason():
    from datetime import date

    from hotmeals.db.seed_calendar import plan_day

    for day in (date(2026, 12, 21), date(2026, 12, 31), date(2027, 1, 1)):
        plan = plan_day(day, school_index=0, city_index=0, vendor_count=3, meal_count=9)
        assert plan.is_closed and plan.meal_indexes == ()
        assert plan.closed_reason_en == "Winter break – no school"
    assert not plan_day(
        date(2027, 1, 4), school_index=0, city_index=1, vendor_count=3, meal_count=9
    ).is_closed


def test_a_weekday_serves_the_same_vendor_and_first_meals_every_week():
    """The demo menu is weekly, so 'Repeat last week' has something to copy: the same vendor
    and the same first four meals on a weekday, week after week; the extras vary."""
    from datetime import date, timedelta

    from hotmeals.db.seed_calendar import plan_day

    monday = date(2027, 1, 11)
    extras = set()
    for offset in range(5):
        day = monday + timedelta(days=offset)
        plans = [
            plan_day(
                day + timedelta(weeks=w),
                school_index=1,
                city_index=1,
                vendor_count=3,
                meal_count=9,
            )
            for w in range(3)
        ]
        assert not any(p.is_closed for p in plans)
        assert len({p.vendor_index for p in plans}) == 1
        assert len({p.meal_indexes[:4] for p in plans}) == 1
        extras.add(tuple(len(p.meal_indexes) for p in plans))
    assert any(len(set(counts)) > 1 for counts in extras)


def test_the_demo_parent_has_a_paid_order_of_last_week_with_its_receipt(session):
    """`make run` opens a receipt. The demo order is on a school day before the
    window (the history's past tab), priced by the checkout's code, paid by an approved
    payment the reconciliation never asks Converge about nor voids."""
    from datetime import UTC, datetime

    from hotmeals.db.models import Order, OrderLine, Parent, Payment
    from hotmeals.demo.seed import DEMO_ORDER_MARK
    from hotmeals.domain.charges import CHARGE_FIELDS, OrderTerms, compute_charges
    from hotmeals.domain.pricing import LineInput, price_line, tiers_from_text
    from hotmeals.services import receipts
    from hotmeals.services.ordering.settle import orphan_payments
    from hotmeals.services.payments import steps

    parent = session.exec(select(Parent).where(Parent.email == "parent@example.com")).one()
    # The receipt's order (the other one is the demo closed day's, tests/integration/
    # test_demo_closure.py).
    (order,) = session.exec(
        select(Order).where(Order.parent_id == parent.id, Order.cart_fingerprint == DEMO_ORDER_MARK)
    ).all()
    assert order.status == "placed"
    lines = session.exec(select(OrderLine).where(OrderLine.order_id == order.id)).all()
    children = session.exec(select(Child.id).where(Child.parent_id == parent.id)).all()
    assert len(lines) == 2 and {ln.child_id for ln in lines} == set(children)
    assert all(ln.meal_date < SEED_TODAY and ln.meal_date.weekday() < 5 for ln in lines)
    prices = [
        price_line(LineInput(portion_tiers=tiers_from_text(ln.price_tiers), quantity=ln.quantity))
        for ln in lines
    ]
    assert [p.total_cents for p in prices] == [ln.line_total_cents for ln in lines]
    terms = OrderTerms.from_stored(
        tax_bps=order.tax_bps,
        processing_fee_bps=order.processing_fee_bps,
        processing_fee_fixed_cents=order.processing_fee_fixed_cents,
    )
    expected = compute_charges(prices, terms.rates)
    assert {n: getattr(order, n) for n in CHARGE_FIELDS} == {
        n: getattr(expected, n) for n in CHARGE_FIELDS
    }
    (payment,) = session.exec(select(Payment).where(Payment.order_id == order.id)).all()
    assert payment.state == "APPROVED" and payment.amount_cents == order.total_pay_cents
    assert payment.closed_at is not None
    far = datetime(2100, 1, 1, tzinfo=UTC)
    assert payment.id not in steps.open_payments(session, unknown_before=far, created_before=far)
    assert payment.id not in orphan_payments(session)
    receipt = receipts.order_receipt(session, parent_id=parent.id, order=order.number)
    assert receipt.charges[-1].cents == receipt.total_cents == order.total_pay_cents
    assert [p.cents for p in receipt.payments] == [order.total_pay_cents]
