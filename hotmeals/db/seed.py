"""Demo data: Ontario schools, three caterers and their menus, six school weeks of meal days,
content pages, promo codes and a demo family.

``load_demo_data`` is idempotent. Every row is looked up by its natural key (city name, school
name in its city, vendor name, meal ``name_en`` at its vendor, ...) and only missing rows are
added; nothing that exists is changed, so an operator's edits survive a re-run. Menu days are
planned from ``today``: a later run adds the days that have come into the window.

The caller owns the transaction (``session_scope()`` commits); this module only flushes, once per
level of foreign keys, so a full load is a handful of round trips.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Generic, TypeVar

from sqlmodel import Session, SQLModel, col, select

from hotmeals import clock
from hotmeals.db import seed_content, seed_pages_en, seed_pages_fr, seed_places, seed_vendors
from hotmeals.db.models import (
    AddOn,
    AddOnAllergen,
    AddOnDiet,
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
    MealDiet,
    MealOption,
    MealOptionAllergen,
    MealOptionDiet,
    MenuDay,
    MenuDayMeal,
    MenuOption,
    MenuOptionAllergen,
    MenuOptionDiet,
    NotificationPreference,
    Parent,
    Portion,
    PriceTier,
    PromoCode,
    School,
    SchoolLanguage,
    Teacher,
    Vendor,
    utcnow,
)
from hotmeals.db.models.accounts import NOTIFICATION_DEFAULTS
from hotmeals.db.seed_calendar import plan_day, school_days
from hotmeals.db.seed_types import (
    BULK_MIN_QUANTITY,
    NUTRITION_FIELDS,
    AddOnSpec,
    MealSpec,
    Option,
)
from hotmeals.security import hash_password

# Every kind the report counts, in the order rows are created.
KINDS: tuple[str, ...] = (
    *("city", "grade", "allergen", "vendor", "cancel_reason", "cms_page", "faq", "parent"),
    *("school", "meal", "addon", "promo_code", "notification_preference", "teacher"),
    *("meal_allergen", "portion", "menu_option", "meal_option", "price_tier", "child"),
    *("menu_day", "menu_day_meal", "child_allergy"),
    *("menu_option_allergen", "meal_option_allergen", "addon_allergen"),
    *("meal_diet", "menu_option_diet", "meal_option_diet", "addon_diet"),
    "standing_order",
    "order",
    "school_language",
)

T = TypeVar("T", bound=SQLModel)


@dataclass
class SeedReport:
    """How many rows of each kind one run created (all zero on a re-run)."""

    created: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))

    @property
    def total(self) -> int:
        return sum(self.created.values())

    def __str__(self) -> str:
        width = max(len(k) for k in self.created)
        rows = [f"  {kind:<{width}}  {n:>5}" for kind, n in self.created.items()]
        return "\n".join(["Demo data created:", *rows, f"  {'total':<{width}}  {self.total:>5}"])


class SeedTable(Generic[T]):
    """The existing rows of one model by natural key; ``ensure`` adds a row only if its key is
    new, and counts it."""

    def __init__(self, session: Session, report: SeedReport, kind: str, model: type[T], key):
        self.session, self.report, self.kind = session, report, kind
        self.key: Callable[[T], Hashable] = key
        self.rows: dict[Hashable, T] = {key(r): r for r in session.exec(select(model)).all()}

    def __getitem__(self, key: Hashable) -> T:
        return self.rows[key]

    def ensure(self, row: T) -> T:
        """The stored row with ``row``'s key, or ``row`` itself, now added to the session."""
        key = self.key(row)
        if key in self.rows:
            return self.rows[key]
        self.session.add(row)
        self.rows[key] = row
        self.report.created[self.kind] += 1
        return row


def pk(row: Any) -> int:
    """The id of a row this module flushed (each level is flushed before the next uses it)."""
    assert row.id is not None
    return int(row.id)


# table(kind, model, key) -> SeedTable: what ``load_rows`` hands its helpers.
TableFactory = Callable[..., SeedTable[Any]]


@dataclass
class SeededRows:
    """The rows ``load_rows`` leaves, for the demo's own orders (``hotmeals/demo/seed.py``)."""

    session: Session
    report: SeedReport
    parent: Parent
    children: list[Child]  # the demo children, all at ``school``
    school: School
    vendors: SeedTable[Vendor]
    vendor_meals: list[list[tuple[MealSpec, Meal]]]  # in the order of seed_vendors.VENDORS

    def table(self, kind: str, model: type[T], key: Callable[[T], Hashable]) -> SeedTable[T]:
        return SeedTable(self.session, self.report, kind, model, key)


def load_rows(session: Session, *, today: date | None = None) -> SeededRows:
    """Add whatever rows of the places, menus, content and demo family are missing; they and
    what was created come back. Flushes, does not commit."""
    report = SeedReport()

    def table(kind: str, model: type[T], key: Callable[[T], Hashable]) -> SeedTable[T]:
        return SeedTable(session, report, kind, model, key)

    # Level 1: rows without foreign keys.
    cities = table("city", City, lambda r: r.name)
    for name in seed_places.CITIES:
        cities.ensure(City(name=name, province="ON"))
    grades = table("grade", Grade, lambda r: r.code)
    for sort, (code, label_en, label_fr) in enumerate(seed_places.GRADES):
        grades.ensure(Grade(code=code, label_en=label_en, label_fr=label_fr, sort=sort))
    allergens = table("allergen", AllergenIngredient, lambda r: r.name_en)
    for name_en, name_fr, priority in seed_places.ALLERGENS.values():
        allergens.ensure(AllergenIngredient(name_en=name_en, name_fr=name_fr, is_priority=priority))
    vendors = table("vendor", Vendor, lambda r: r.name)
    for v in seed_vendors.VENDORS:
        vendors.ensure(
            Vendor(
                name=v.name,
                cutoff_days_before=v.cutoff_days_before,
                cutoff_time=v.cutoff_time,
                cutoff_skip_weekends=v.cutoff_skip_weekends,
            )
        )
    _content(table)
    parent = _demo_parent(session, report)
    session.flush()

    # Level 2: schools, meals, add-ons, the demo parent's promo code and preferences.
    schools = table("school", School, lambda r: (r.city_id, r.name))
    school_list: list[tuple[int, School]] = []  # (city index, school) in the order of CITIES
    for c_idx, (city, entries) in enumerate(seed_places.CITIES.items()):
        city_id = pk(cities[city])
        for name, address in entries:
            school = schools.ensure(School(city_id=city_id, name=name, address=address))
            school_list.append((c_idx, school))
    meals = table("meal", Meal, lambda r: (r.vendor_id, r.name_en))
    addons = table("addon", AddOn, lambda r: (r.vendor_id, r.name_en))
    vendor_meals: list[list[tuple[MealSpec, Meal]]] = []  # in the order of VENDORS
    vendor_addons: list[tuple[AddOnSpec, AddOn]] = []
    for v in seed_vendors.VENDORS:
        vid = pk(vendors[v.name])
        vendor_meals.append([(m, meals.ensure(_meal(vid, m))) for m in v.meals])
        for a in v.addons:
            image = f"/addons/{a.slug}.svg"
            row = addons.ensure(
                AddOn(
                    vendor_id=vid,
                    name_en=a.name_en,
                    name_fr=a.name_fr,
                    image=image,
                    price_cents=a.price_cents,
                )
            )
            vendor_addons.append((a, row))
    promo_codes = table("promo_code", PromoCode, lambda r: r.code)
    for code, promo in seed_content.PROMO_CODES.items():
        fields = {k: v for k, v in promo.items() if k != "parent"}
        promo_codes.ensure(
            PromoCode(code=code, parent_id=parent.id if promo.get("parent") else None, **fields)
        )
    prefs = table(
        "notification_preference", NotificationPreference, lambda r: (r.parent_id, r.kind)
    )
    for kind, enabled in NOTIFICATION_DEFAULTS.items():
        prefs.ensure(NotificationPreference(parent_id=pk(parent), kind=kind, enabled=enabled))
    session.flush()

    # Level 3: teachers, and each meal's allergens, portions and options.
    teachers = table("teacher", Teacher, lambda r: (r.school_id, r.name))
    for s_idx, (_, school) in enumerate(school_list):
        for g_idx, (code, _, _) in enumerate(seed_places.GRADES):
            name = seed_places.TEACHERS[(s_idx * 7 + g_idx) % len(seed_places.TEACHERS)]
            teachers.ensure(Teacher(school_id=pk(school), name=name, grade_id=pk(grades[code])))
    all_meals = [pair for pairs in vendor_meals for pair in pairs]
    portions = _meal_details(table, all_meals, allergens)
    session.flush()
    _extras_allergens(table, all_meals, vendor_addons, allergens)
    _school_languages(table, school_list)
    _diet_marks(table, all_meals, vendor_addons)

    # Level 4: price tiers, the demo children, menu days.
    tiers = table("price_tier", PriceTier, lambda r: (r.portion_id, r.min_quantity))
    for spec, meal in all_meals:
        for size, cents in (("small", spec.small_cents), ("large", spec.large_cents)):
            pid = pk(portions[(meal.id, size)])
            tiers.ensure(PriceTier(portion_id=pid, min_quantity=1, unit_price_cents=cents))
            if spec.bulk_discount_cents:
                price = cents - spec.bulk_discount_cents
                tiers.ensure(
                    PriceTier(
                        portion_id=pid, min_quantity=BULK_MIN_QUANTITY, unit_price_cents=price
                    )
                )
    children = _demo_children(table, parent, school_list[0][1], teachers, grades)
    new_days = _menu_days(
        session, report, today or clock.today(), school_list, vendors, vendor_meals
    )
    session.flush()

    # Level 5: the meals of the new menu days, the children's allergies.
    links = [
        MenuDayMeal(menu_day_id=pk(d), meal_id=pk(m))
        for d, day_meals in new_days
        for m in day_meals
    ]
    session.add_all(links)
    report.created["menu_day_meal"] += len(links)
    child_allergies = table("child_allergy", ChildAllergy, lambda r: (r.child_id, r.ingredient_id))
    for child, allergy_specs in children:
        for key, level in allergy_specs:
            ing_id = pk(allergens[seed_places.ALLERGENS[key][0]])
            child_allergies.ensure(
                ChildAllergy(child_id=pk(child), ingredient_id=ing_id, alert_level=level)
            )
    session.flush()
    return SeededRows(
        session=session,
        report=report,
        parent=parent,
        children=[c for c, _ in children],
        school=school_list[0][1],
        vendors=vendors,
        vendor_meals=vendor_meals,
    )


def _school_languages(table: TableFactory, school_list: list[tuple[int, School]]) -> None:
    """French for the schools of ``seed_places.FRENCH_SCHOOLS`` (their kitchen's labels)."""
    languages = table("school_language", SchoolLanguage, lambda r: r.school_id)
    for _, school in school_list:
        if school.name in seed_places.FRENCH_SCHOOLS:
            languages.ensure(SchoolLanguage(school_id=pk(school), lang="fr"))


def _meal(vendor_id: int, spec: MealSpec) -> Meal:
    nutrition: dict[str, Any] = dict(zip(NUTRITION_FIELDS, spec.nutrition, strict=True))
    return Meal(
        vendor_id=vendor_id,
        name_en=spec.name_en,
        name_fr=spec.name_fr,
        description_en=spec.description_en,
        description_fr=spec.description_fr,
        image=f"/meals/{spec.slug}.svg",
        ingredients_en=spec.ingredients_en,
        ingredients_fr=spec.ingredients_fr,
        cooking_method_en=spec.cooking_en,
        cooking_method_fr=spec.cooking_fr,
        **nutrition,
    )


def _meal_details(
    table: TableFactory,
    all_meals: list[tuple[MealSpec, Meal]],
    allergens: SeedTable[AllergenIngredient],
) -> SeedTable[Portion]:
    """Allergen links (wheat implies gluten), portions, drinks and meal options of the demo
    meals; returns the portions by (meal id, size)."""
    links = table("meal_allergen", MealAllergen, lambda r: (r.meal_id, r.ingredient_id))
    portions = table("portion", Portion, lambda r: (r.meal_id, r.size))
    menu_opts = table("menu_option", MenuOption, lambda r: (r.meal_id, r.name_en))
    meal_opts = table("meal_option", MealOption, lambda r: (r.meal_id, r.name_en))
    for spec, meal in all_meals:
        keys = set(spec.allergens) | ({"gluten"} if "wheat" in spec.allergens else set())
        for key in sorted(keys):
            ing_id = pk(allergens[seed_places.ALLERGENS[key][0]])
            links.ensure(MealAllergen(meal_id=pk(meal), ingredient_id=ing_id))
        for size in ("small", "large"):
            portions.ensure(Portion(meal_id=pk(meal), size=size))
        for o in seed_vendors.DRINKS if spec.drinks else ():
            menu_opts.ensure(MenuOption(meal_id=pk(meal), **option_row(o)))
        for o in spec.meal_options:
            meal_opts.ensure(MealOption(meal_id=pk(meal), **option_row(o)))
    return portions


def _allergen_ids(keys: tuple[str, ...], allergens: SeedTable[AllergenIngredient]) -> list[int]:
    """The ingredient ids of allergen keys; wheat implies gluten."""
    found = set(keys) | ({"gluten"} if "wheat" in keys else set())
    return [pk(allergens[seed_places.ALLERGENS[k][0]]) for k in sorted(found)]


def option_row(option: Option) -> dict[str, Any]:
    """The columns a drink (menu option) and a meal option share: its names and price."""
    return {
        "name_en": option.name_en,
        "name_fr": option.name_fr,
        "price_cents": option.price_cents,
    }


def _extras_allergens(
    table: TableFactory,
    all_meals: list[tuple[MealSpec, Meal]],
    vendor_addons: list[tuple[AddOnSpec, AddOn]],
    allergens: SeedTable[AllergenIngredient],
) -> None:
    """Each menu option's, meal option's and add-on's own allergens."""
    menu_opts = table("menu_option", MenuOption, lambda r: (r.meal_id, r.name_en))
    meal_opts = table("meal_option", MealOption, lambda r: (r.meal_id, r.name_en))
    menu_links = table(
        "menu_option_allergen", MenuOptionAllergen, lambda r: (r.menu_option_id, r.ingredient_id)
    )
    meal_links = table(
        "meal_option_allergen", MealOptionAllergen, lambda r: (r.meal_option_id, r.ingredient_id)
    )
    addon_links = table("addon_allergen", AddOnAllergen, lambda r: (r.addon_id, r.ingredient_id))
    for spec, meal in all_meals:
        for o in seed_vendors.DRINKS if spec.drinks else ():
            option = menu_opts[(meal.id, o.name_en)]
            for ing_id in _allergen_ids(o.allergens, allergens):
                menu_links.ensure(
                    MenuOptionAllergen(menu_option_id=option.id, ingredient_id=ing_id)
                )
        for o in spec.meal_options:
            variant = meal_opts[(meal.id, o.name_en)]
            for ing_id in _allergen_ids(o.allergens, allergens):
                meal_links.ensure(
                    MealOptionAllergen(meal_option_id=variant.id, ingredient_id=ing_id)
                )
    for a, row in vendor_addons:
        for ing_id in _allergen_ids(a.allergens, allergens):
            addon_links.ensure(AddOnAllergen(addon_id=pk(row), ingredient_id=ing_id))


def _diet_marks(
    table: TableFactory,
    all_meals: list[tuple[MealSpec, Meal]],
    vendor_addons: list[tuple[AddOnSpec, AddOn]],
) -> None:
    """Each meal's, menu option's, meal option's and add-on's dietary marks, as the menu
    files and ``seed_vendors`` give them (the implied marks are not stored)."""
    menu_opts = table("menu_option", MenuOption, lambda r: (r.meal_id, r.name_en))
    meal_opts = table("meal_option", MealOption, lambda r: (r.meal_id, r.name_en))
    meal_marks = table("meal_diet", MealDiet, lambda r: (r.meal_id, r.diet))
    menu_marks = table("menu_option_diet", MenuOptionDiet, lambda r: (r.menu_option_id, r.diet))
    variant_marks = table("meal_option_diet", MealOptionDiet, lambda r: (r.meal_option_id, r.diet))
    addon_marks = table("addon_diet", AddOnDiet, lambda r: (r.addon_id, r.diet))
    for spec, meal in all_meals:
        for diet in spec.diets:
            meal_marks.ensure(MealDiet(meal_id=pk(meal), diet=diet.value))
        for o in seed_vendors.DRINKS if spec.drinks else ():
            option = menu_opts[(meal.id, o.name_en)]
            for diet in o.diets:
                menu_marks.ensure(MenuOptionDiet(menu_option_id=pk(option), diet=diet.value))
        for o in spec.meal_options:
            variant = meal_opts[(meal.id, o.name_en)]
            for diet in o.diets:
                variant_marks.ensure(MealOptionDiet(meal_option_id=pk(variant), diet=diet.value))
    for a, row in vendor_addons:
        for diet in a.diets:
            addon_marks.ensure(AddOnDiet(addon_id=pk(row), diet=diet.value))


def _menu_days(
    session: Session,
    report: SeedReport,
    today: date,
    school_list: list[tuple[int, School]],
    vendors: SeedTable[Vendor],
    vendor_meals: list[list[tuple[MealSpec, Meal]]],
) -> list[tuple[MenuDay, list[Meal]]]:
    """Adds a menu day for each school and window date that has none (whatever its vendor);
    returns the new open days with the meals they serve."""
    days = school_days(today)
    if not days:
        return []
    window = (MenuDay.meal_date >= days[0]) & (MenuDay.meal_date <= days[-1])
    rows = session.exec(select(col(MenuDay.school_id), col(MenuDay.meal_date)).where(window)).all()
    existing = {(school_id, meal_date) for school_id, meal_date in rows}
    new: list[tuple[MenuDay, list[Meal]]] = []
    for s_idx, (c_idx, school) in enumerate(school_list):
        for day in days:
            if (school.id, day) in existing:
                continue
            plan = plan_day(
                day,
                school_index=s_idx,
                city_index=c_idx,
                vendor_count=len(vendor_meals),
                meal_count=min(len(pairs) for pairs in vendor_meals),
            )
            vendor = vendors[seed_vendors.VENDORS[plan.vendor_index].name]
            menu_day = MenuDay(school_id=pk(school), vendor_id=pk(vendor), meal_date=day)
            if plan.is_closed:
                menu_day.is_closed = True
                menu_day.closed_reason_en = plan.closed_reason_en
                menu_day.closed_reason_fr = plan.closed_reason_fr
            else:
                pool = vendor_meals[plan.vendor_index]
                new.append((menu_day, [pool[i][1] for i in plan.meal_indexes]))
            session.add(menu_day)
            report.created["menu_day"] += 1
    return new


def _content(table: TableFactory) -> None:
    reasons = table("cancel_reason", CancelReason, lambda r: r.code)
    for sort, (code, label_en, label_fr, other) in enumerate(seed_content.CANCEL_REASONS):
        reasons.ensure(
            CancelReason(code=code, label_en=label_en, label_fr=label_fr, is_other=other, sort=sort)
        )
    pages = table("cms_page", CmsPage, lambda r: (r.slug, r.language))
    for lang, module in (("en", seed_pages_en), ("fr", seed_pages_fr)):
        for slug, (title, body) in module.PAGES.items():
            pages.ensure(CmsPage(slug=slug, language=lang, title=title, body=body))
    faqs = table("faq", Faq, lambda r: (r.language, r.question))
    for lang, entries in (("en", seed_content.FAQ_EN), ("fr", seed_content.FAQ_FR)):
        for sort, (question, answer) in enumerate(entries):
            faqs.ensure(Faq(language=lang, question=question, answer=answer, sort=sort))


def _demo_parent(session: Session, report: SeedReport) -> Parent:
    d = seed_content.DEMO_PARENT
    parent = session.exec(select(Parent).where(Parent.email == d["email"])).first()
    if parent is not None:
        return parent  # never re-hash: a re-run must leave the row as it is
    now = utcnow()
    parent = Parent(
        email=d["email"],
        password_hash=hash_password(d["password"]),
        first_name=d["first_name"],
        last_name=d["last_name"],
        phone=d["phone"],
        phone_digits=d["phone_digits"],
        language=d["language"],
        terms_accepted_at=now,
        email_verified_at=now,
        signup_step="COMPLETE",
    )
    session.add(parent)
    report.created["parent"] += 1
    return parent


def _demo_children(
    table: TableFactory,
    parent: Parent,
    school: School,
    teachers: SeedTable[Teacher],
    grades: SeedTable[Grade],
) -> list[tuple[Child, tuple[tuple[str, str], ...]]]:
    """The demo children, both at ``school``, each in the class of their grade's teacher."""
    by_grade = {t.grade_id: t for t in teachers.rows.values() if t.school_id == school.id}
    children = table("child", Child, lambda r: (r.parent_id, r.first_name, r.last_name))
    out = []
    for first, last, grade_code, default, allergy_specs in seed_content.DEMO_CHILDREN:
        grade = grades[grade_code]
        child = Child(
            parent_id=pk(parent),
            first_name=first,
            last_name=last,
            city_id=school.city_id,
            school_id=pk(school),
            teacher_id=pk(by_grade[grade.id]),
            grade_id=pk(grade),
            is_default=default,
        )
        out.append((children.ensure(child), allergy_specs))
    return out
