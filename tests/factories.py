"""Test data in a session: small builders for parents, children, places, vendors, meals with
their portions and price tiers, and menu days.

Every builder adds its rows and flushes (so ids are set) but never commits: the test owns the
transaction. Names and e-mails are unique per call unless given. Look-up tables with a unique
natural key (city, grade, allergen) are fetched when they exist, so these builders also work on
a database that holds the demo data.

    parent = make_parent(session)
    child = make_child(session, parent, allergies={"Peanuts": "Major"})
    vendor = make_vendor(session, cutoff_days_before=1, cutoff_time="10:00")
    meal = make_meal(session, vendor, small_cents=550, large_cents=700, bulk={5: 25})
    day = make_menu_day(session, child_school(session, child), vendor, date(2026, 3, 2), [meal])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from functools import lru_cache

from sqlmodel import Session, select

from hotmeals.db.models import (
    AllergenIngredient,
    Child,
    ChildAllergy,
    City,
    Grade,
    Meal,
    MealAllergen,
    MealOption,
    MenuDay,
    MenuDayMeal,
    MenuOption,
    Order,
    OrderLine,
    Parent,
    Portion,
    PriceTier,
    School,
    Teacher,
    Vendor,
    utcnow,
)
from hotmeals.security import hash_password

DEFAULT_PASSWORD = "Lunch@2026"
_seq = itertools.count(1)

GRADE_LABELS = {
    "JK": ("Junior Kindergarten", "Maternelle"),
    "SK": ("Senior Kindergarten", "Jardin d'enfants"),
    **{str(n): (f"Grade {n}", f"{n}{'re' if n == 1 else 'e'} année") for n in range(1, 9)},
}


def _n() -> int:
    return next(_seq)


@lru_cache(maxsize=8)
def password_hash(password: str = DEFAULT_PASSWORD) -> str:
    """argon2 costs ~0.1 s a hash; one per distinct password is enough for tests."""
    return hash_password(password)


def _add(session: Session, *rows):
    session.add_all(rows)
    session.flush()
    return rows[0] if len(rows) == 1 else rows


# --- accounts --------------------------------------------------------------------------------


def make_parent(
    session: Session,
    *,
    email: str | None = None,
    password: str = DEFAULT_PASSWORD,
    first_name: str = "Alex",
    last_name: str = "Martin",
    phone: str | None = None,  # a number of its own (a phone is one account's)
    language: str = "en",
    signup_step: str = "COMPLETE",
    verified: bool = True,
    terms: bool = True,
) -> Parent:
    now = utcnow()
    phone = phone or f"(613) 557-{_n() % 10_000:04d}"
    return _add(
        session,
        Parent(
            email=(email or f"parent{_n()}@example.com").lower(),
            password_hash=password_hash(password),
            first_name=first_name,
            last_name=last_name,
            phone=phone,
            phone_digits="".join(c for c in phone if c.isdigit()),
            language=language,
            signup_step=signup_step,
            email_verified_at=now if verified else None,
            terms_accepted_at=now if terms else None,
        ),
    )


def make_child(
    session: Session,
    parent: Parent,
    *,
    school: School | None = None,
    grade_code: str = "3",
    first_name: str = "Sam",
    last_name: str | None = None,
    is_default: bool = False,
    allergies: Mapping[str, str] | None = None,
) -> Child:
    """A child at ``school`` (a new one if omitted) in the class of a teacher of its grade;
    ``allergies`` maps ingredient ``name_en`` to alert level, e.g. ``{"Peanuts": "Major"}``."""
    school = school or make_school(session)
    grade = get_grade(session, grade_code)
    teacher = session.exec(
        select(Teacher).where(Teacher.school_id == school.id, Teacher.grade_id == grade.id)
    ).first() or make_teacher(session, school, grade_code=grade_code)
    child = _add(
        session,
        Child(
            parent_id=parent.id,
            first_name=first_name,
            last_name=last_name or parent.last_name,
            city_id=school.city_id,
            school_id=school.id,
            teacher_id=teacher.id,
            grade_id=grade.id,
            is_default=is_default,
        ),
    )
    for name, level in (allergies or {}).items():
        ingredient = get_allergen(session, name)
        _add(
            session, ChildAllergy(child_id=child.id, ingredient_id=ingredient.id, alert_level=level)
        )
    return child


# --- places ----------------------------------------------------------------------------------


def get_city(session: Session, name: str = "Ottawa") -> City:
    city = session.exec(select(City).where(City.name == name)).first()
    return city or _add(session, City(name=name, province="ON"))


def get_grade(session: Session, code: str = "3") -> Grade:
    grade = session.exec(select(Grade).where(Grade.code == code)).first()
    if grade is None:
        label_en, label_fr = GRADE_LABELS.get(code, (f"Grade {code}", f"{code}e année"))
        order = list(GRADE_LABELS).index(code) if code in GRADE_LABELS else 99
        grade = _add(session, Grade(code=code, label_en=label_en, label_fr=label_fr, sort=order))
    return grade


def get_allergen(
    session: Session, name_en: str = "Peanuts", *, name_fr: str | None = None, priority=None
) -> AllergenIngredient:
    row = session.exec(
        select(AllergenIngredient).where(AllergenIngredient.name_en == name_en)
    ).first()
    if row is None:
        row = _add(
            session,
            AllergenIngredient(
                name_en=name_en,
                name_fr=name_fr or name_en,
                is_priority=bool(priority) if priority is not None else name_en == "Peanuts",
            ),
        )
    return row


def make_school(session: Session, *, city: str = "Ottawa", name: str | None = None) -> School:
    city_row = get_city(session, city)
    return _add(
        session,
        School(
            city_id=city_row.id,
            name=name or f"Test Public School {_n()}",
            address="1 Test Street, Ottawa, ON K1A 0A1",
        ),
    )


def make_teacher(
    session: Session, school: School, *, grade_code: str | None = "3", name: str | None = None
) -> Teacher:
    grade_id = get_grade(session, grade_code).id if grade_code else None
    return _add(
        session, Teacher(school_id=school.id, name=name or f"Ms. Teacher {_n()}", grade_id=grade_id)
    )


def child_school(session: Session, child: Child) -> School:
    return session.get(School, child.school_id)


# --- catalogue -------------------------------------------------------------------------------


def make_vendor(
    session: Session,
    *,
    name: str | None = None,
    cutoff_days_before: int = 2,
    cutoff_time: str = "17:00",
    skip_weekends: bool = False,
) -> Vendor:
    return _add(
        session,
        Vendor(
            name=name or f"Test Caterer {_n()}",
            cutoff_days_before=cutoff_days_before,
            cutoff_time=cutoff_time,
            cutoff_skip_weekends=skip_weekends,
        ),
    )


def make_meal(
    session: Session,
    vendor: Vendor,
    *,
    name_en: str | None = None,
    name_fr: str | None = None,
    small_cents: int | None = 550,
    large_cents: int | None = 700,
    bulk: Mapping[int, int] | None = None,
    allergens: Iterable[str] = (),
    menu_options: Mapping[str, int] | None = None,
    meal_options: Mapping[str, int] | None = None,
) -> Meal:
    """A meal with a small and a large portion (each given price from 1 meal up; ``None``
    leaves the portion out). ``bulk`` maps a minimum quantity to the discount in cents, e.g.
    ``{5: 25}``. Options map ``name_en`` to their price in cents."""
    n = _n()
    meal = _add(
        session,
        Meal(
            vendor_id=vendor.id,
            name_en=name_en or f"Test Meal {n}",
            name_fr=name_fr or f"Repas test {n}",
            description_en="A test meal.",
            description_fr="Un repas test.",
            image="/meals/mac-and-cheese.svg",
            calories=450,
            fat_g=15,
            saturated_fat_g=6,
            cholesterol_mg=40,
            sodium_mg=600,
            carbohydrate_g=55,
            potassium_mg=400,
            fibre_g=4,
            sugars_g=6,
            protein_g=20,
            vitamin_a_pct=10,
            vitamin_c_pct=10,
            calcium_pct=15,
            iron_pct=15,
        ),
    )
    for size, cents in (("small", small_cents), ("large", large_cents)):
        if cents is not None:
            make_portion(session, meal, size, cents, bulk=bulk)
    for name in allergens:
        _add(session, MealAllergen(meal_id=meal.id, ingredient_id=get_allergen(session, name).id))
    for name, cents in (menu_options or {}).items():
        _add(session, MenuOption(meal_id=meal.id, name_en=name, name_fr=name, price_cents=cents))
    for name, cents in (meal_options or {}).items():
        _add(session, MealOption(meal_id=meal.id, name_en=name, name_fr=name, price_cents=cents))
    return meal


def make_portion(
    session: Session,
    meal: Meal,
    size: str = "small",
    unit_price_cents: int = 550,
    *,
    bulk: Mapping[int, int] | None = None,
) -> Portion:
    portion = _add(session, Portion(meal_id=meal.id, size=size))
    make_price_tier(session, portion, 1, unit_price_cents)
    for min_quantity, discount in (bulk or {}).items():
        make_price_tier(session, portion, min_quantity, unit_price_cents - discount)
    return portion


def make_price_tier(
    session: Session, portion: Portion, min_quantity: int, unit_price_cents: int
) -> PriceTier:
    return _add(
        session,
        PriceTier(
            portion_id=portion.id, min_quantity=min_quantity, unit_price_cents=unit_price_cents
        ),
    )


def portion_of(session: Session, meal: Meal, size: str = "small") -> Portion:
    return session.exec(
        select(Portion).where(Portion.meal_id == meal.id, Portion.size == size)
    ).one()


def make_menu_day(
    session: Session,
    school: School,
    vendor: Vendor,
    meal_date: date,
    meals: Iterable[Meal] = (),
    *,
    closed: bool = False,
    reason_en: str = "PA Day – no school",
    reason_fr: str = "Journée pédagogique",
) -> MenuDay:
    day = _add(
        session,
        MenuDay(
            school_id=school.id,
            vendor_id=vendor.id,
            meal_date=meal_date,
            is_closed=closed,
            closed_reason_en=reason_en if closed else "",
            closed_reason_fr=reason_fr if closed else "",
        ),
    )
    links = [MenuDayMeal(menu_day_id=day.id, meal_id=m.id) for m in meals]
    if links:
        _add(session, *links)
    return day


def make_placed_order(
    session: Session,
    parent: Parent,
    lines: Iterable[tuple[Child, MenuDay, Meal]],
    *,
    unit_cents: int = 700,
    placed_at: datetime | None = None,
) -> Order:
    """A paid order (placed, with no payment row: for tests that read or deliver it, never
    for money), one meal per ``(child, menu day, meal)``, written directly."""
    order = _add(
        session,
        Order(
            number=f"HM-T{_n():06d}",
            parent_id=parent.id,
            status="placed",
            tax_bps=1300,
            processing_fee_bps=0,
            processing_fee_fixed_cents=0,
            total_pay_cents=0,
            placed_at=placed_at or utcnow(),
        ),
    )
    total = 0
    for child, day, meal in lines:
        _add(
            session,
            OrderLine(
                order_id=order.id,
                child_id=child.id,
                menu_day_id=day.id,
                vendor_id=day.vendor_id,
                meal_id=meal.id,
                portion_id=portion_of(session, meal, "small").id,
                meal_date=day.meal_date,
                meal_name=meal.name_en,
                size="small",
                quantity=1,
                price_tiers=f"1:{unit_cents}",
                unit_price_cents=unit_cents,
                line_total_cents=unit_cents,
            ),
        )
        total += unit_cents
    order.meal_net_cents = total
    order.total_pay_cents = total + total * 13 // 100
    order.tax_cents = order.total_pay_cents - total
    session.add(order)
    session.flush()
    return order
