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

from sqlmodel import Session, SQLModel, select

from hotmeals.db import seed_content, seed_pages_en, seed_pages_fr, seed_places, seed_vendors
from hotmeals.db.models import (
    AddOn,
    AddOnAllergen,
    AllergenIngredient,
    CancelReason,
    CartLine,
    Child,
    ChildAllergy,
    City,
    CmsPage,
    Faq,
    Grade,
    Meal,
    MealAllergen,
    MealOption,
    MealOptionAllergen,
    MenuDay,
    MenuDayMeal,
    MenuOption,
    MenuOptionAllergen,
    NotificationPreference,
    Parent,
    Portion,
    PriceTier,
    PromoCode,
    School,
    StandingOrder,
    Teacher,
    Vendor,
    utcnow,
)
from hotmeals.db.seed_calendar import plan_day, school_days, toronto_today
from hotmeals.db.seed_types import BULK_MIN_QUANTITY, NUTRITION_FIELDS, AddOnSpec, MealSpec
from hotmeals.security import hash_password
from hotmeals.services import school_year

# Every kind the report counts, in the order rows are created.
KINDS: tuple[str, ...] = (
    *("city", "grade", "allergen", "vendor", "cancel_reason", "cms_page", "faq", "parent"),
    *("school", "meal", "addon", "promo_code", "notification_preference", "teacher"),
    *("meal_allergen", "portion", "menu_option", "meal_option", "price_tier", "child"),
    *("menu_day", "menu_day_meal", "child_allergy"),
    *("menu_option_allergen", "meal_option_allergen", "addon_allergen"),
    "standing_order",
    "order",
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


class _Table(Generic[T]):
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


# table(kind, model, key) -> _Table: what ``load_demo_data`` hands its helpers.
_Factory = Callable[..., _Table[Any]]


def load_demo_data(session: Session, *, today: date | None = None) -> SeedReport:
    """Add whatever demo rows are missing; returns what was created. Flushes, does not commit."""
    report = SeedReport()

    def table(kind: str, model: type[T], key: Callable[[T], Hashable]) -> _Table[T]:
        return _Table(session, report, kind, model, key)

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
        city_id = cities[city].id
        for name, address in entries:
            school = schools.ensure(School(city_id=city_id, name=name, address=address))
            school_list.append((c_idx, school))
    meals = table("meal", Meal, lambda r: (r.vendor_id, r.name_en))
    addons = table("addon", AddOn, lambda r: (r.vendor_id, r.name_en))
    vendor_meals: list[list[tuple[MealSpec, Meal]]] = []  # in the order of VENDORS
    vendor_addons: list[tuple[AddOnSpec, AddOn]] = []
    for v in seed_vendors.VENDORS:
        vid = vendors[v.name].id
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
    for code, spec in seed_content.PROMO_CODES.items():
        fields = {k: v for k, v in spec.items() if k != "parent"}
        promo_codes.ensure(
            PromoCode(code=code, parent_id=parent.id if spec.get("parent") else None, **fields)
        )
    prefs = table(
        "notification_preference", NotificationPreference, lambda r: (r.parent_id, r.kind)
    )
    for kind, enabled in seed_content.NOTIFICATION_KINDS.items():
        prefs.ensure(NotificationPreference(parent_id=parent.id, kind=kind, enabled=enabled))
    session.flush()

    # Level 3: teachers, and each meal's allergens, portions and options.
    teachers = table("teacher", Teacher, lambda r: (r.school_id, r.name))
    for s_idx, (_, school) in enumerate(school_list):
        for g_idx, (code, _, _) in enumerate(seed_places.GRADES):
            name = seed_places.TEACHERS[(s_idx * 7 + g_idx) % len(seed_places.TEACHERS)]
            teachers.ensure(Teacher(school_id=school.id, name=name, grade_id=grades[code].id))
    all_meals = [pair for pairs in vendor_meals for pair in pairs]
    portions = _meal_details(table, all_meals, allergens)
    session.flush()
    _extras_allergens(table, all_meals, vendor_addons, allergens)

    # Level 4: price tiers, the demo children, menu days.
    tiers = table("price_tier", PriceTier, lambda r: (r.portion_id, r.min_quantity))
    for spec, meal in all_meals:
        for size, cents in (("small", spec.small_cents), ("large", spec.large_cents)):
            pid = portions[(meal.id, size)].id
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
        session, report, today or toronto_today(), school_list, vendors, vendor_meals
    )
    session.flush()

    # Level 5: the meals of the new menu days, the children's allergies.
    links = [
        MenuDayMeal(menu_day_id=d.id, meal_id=m.id) for d, day_meals in new_days for m in day_meals
    ]
    session.add_all(links)
    report.created["menu_day_meal"] += len(links)
    child_allergies = table("child_allergy", ChildAllergy, lambda r: (r.child_id, r.ingredient_id))
    for child, allergy_specs in children:
        for key, level in allergy_specs:
            ing_id = allergens[seed_places.ALLERGENS[key][0]].id
            child_allergies.ensure(
                ChildAllergy(child_id=child.id, ingredient_id=ing_id, alert_level=level)
            )
    session.flush()
    _demo_standing_order(session, table, parent, children[0][0], today or toronto_today())
    _demo_paid_order(
        session,
        report,
        parent,
        [c for c, _ in children],
        school_list[0][1],
        vendors,
        vendor_meals,
        today or toronto_today(),
    )
    _confirm_school_year(session, parent)
    session.flush()
    return report


def _confirm_school_year(session: Session, parent: Parent) -> None:
    """Issue 26: the demo family is confirmed for the current school year, so `make run` is
    never stopped at the start-of-year screen (``cli school-year-due`` shows it)."""
    assert parent.id is not None
    school_year.confirm_all_current(session, parent_id=parent.id)


def _demo_standing_order(
    session: Session, table: _Factory, parent: Parent, child: Child, today: date
) -> None:
    """The demo parent's standing order (issue 26): every Monday, for the first demo child, a
    meal served on Mondays at the child's school that the child's allergies allow (a pizza
    when there is one), until the end of term."""
    from hotmeals.domain.errors import DomainError
    from hotmeals.services import standing

    rows = table("standing_order", StandingOrder, lambda r: (r.parent_id, r.child_id, r.weekday))
    if (parent.id, child.id, 0) in rows.rows:
        return
    meals = session.exec(
        select(MenuDay.meal_date, Meal)
        .join(MenuDayMeal, MenuDayMeal.menu_day_id == MenuDay.id)
        .join(Meal, Meal.id == MenuDayMeal.meal_id)
        .where(MenuDay.school_id == child.school_id, MenuDay.meal_date >= today)
        .order_by(MenuDay.meal_date, Meal.id)
    ).all()
    mondays = [meal for day, meal in meals if day.weekday() == 0]
    mondays.sort(key=lambda m: "pizza" not in m.name_en.lower())
    for meal in mondays:
        try:
            standing._allergy_allows(session, parent_id=parent.id or 0, child=child, meal=meal)
        except DomainError:
            continue
        portion = session.exec(
            select(Portion).where(Portion.meal_id == meal.id, Portion.size == "small")
        ).first()
        if portion is None:
            continue
        now = utcnow()
        rows.ensure(
            StandingOrder(
                parent_id=parent.id or 0,
                child_id=child.id or 0,
                meal_id=meal.id or 0,
                portion_id=portion.id or 0,
                weekday=0,
                starts_on=today,
                ends_on=standing.last_weekday(standing.term_end(today), 0),
                status=standing.ACTIVE,
                created_at=now,
                updated_at=now,
            )
        )
        return


DEMO_ORDER_MARK = "demo-receipt"  # the demo order's ``cart_fingerprint``: its natural key


def _demo_paid_order(
    session: Session,
    report: SeedReport,
    parent: Parent,
    children: list[Child],
    school: School,
    vendors: _Table[Vendor],
    vendor_meals: list[list[tuple[MealSpec, Meal]]],
    today: date,
) -> None:
    """The demo parent's paid order (issue 26: a receipt to open): one small meal per demo
    child on the first open school day of last week (its menu day added when the window never
    held it), so it sits in the history's past tab and blocks no bookable day. Priced and
    written by the checkout's own code (``price_line``, ``compute_charges``,
    ``checkout._write_order``); paid by an APPROVED payment whose answer is taken
    (``closed_at``), so the reconciliation never asks Converge about it, and the order PLACED,
    so no orphan void touches it. Added once: its mark is the order's fingerprint."""
    from datetime import UTC, datetime, time, timedelta

    from hotmeals.db.models import Order, Payment
    from hotmeals.domain.charges import compute_charges
    from hotmeals.domain.errors import DomainError
    from hotmeals.domain.orders import OrderStatus
    from hotmeals.domain.payments import PaymentState, Purpose
    from hotmeals.domain.pricing import LineInput, price_line
    from hotmeals.domain.pricing import PriceTier as TierRule
    from hotmeals.services import checkout, standing
    from hotmeals.services.payments.records import new_invoice_number
    from hotmeals.settings import get_settings

    found = session.exec(
        select(Order.id).where(
            Order.parent_id == parent.id, Order.cart_fingerprint == DEMO_ORDER_MARK
        )
    ).first()
    if found is not None or not children:
        return
    monday = today - timedelta(days=today.weekday() + 7)
    picked: tuple[MenuDay, list[Meal]] | None = None
    for day in (monday + timedelta(days=n) for n in range(5)):
        menu_day = session.exec(
            select(MenuDay).where(MenuDay.school_id == school.id, MenuDay.meal_date == day)
        ).first()
        if menu_day is None:
            plan = plan_day(
                day,
                school_index=0,
                city_index=0,
                vendor_count=len(vendor_meals),
                meal_count=min(len(pairs) for pairs in vendor_meals),
            )
            if plan.is_closed:
                continue
            vendor = vendors[seed_vendors.VENDORS[plan.vendor_index].name]
            menu_day = MenuDay(school_id=school.id, vendor_id=vendor.id, meal_date=day)
            session.add(menu_day)
            session.flush()
            report.created["menu_day"] += 1
            pool = vendor_meals[plan.vendor_index]
            day_meals = [pool[i][1] for i in plan.meal_indexes]
            session.add_all(MenuDayMeal(menu_day_id=menu_day.id, meal_id=m.id) for m in day_meals)
            report.created["menu_day_meal"] += len(day_meals)
            session.flush()
        elif menu_day.is_closed:
            continue
        meals = session.exec(
            select(Meal)
            .join(MenuDayMeal, MenuDayMeal.meal_id == Meal.id)
            .where(MenuDayMeal.menu_day_id == menu_day.id)
            .order_by(Meal.id)
        ).all()
        if meals:
            picked = (menu_day, list(meals))
            break
    if picked is None:
        return
    menu_day, meals = picked
    items: list[dict[str, Any]] = []
    for child in children:
        for meal in meals:
            try:
                standing._allergy_allows(session, parent_id=parent.id or 0, child=child, meal=meal)
            except DomainError:
                continue
            portion = session.exec(
                select(Portion).where(Portion.meal_id == meal.id, Portion.size == "small")
            ).one()
            tiers = tuple(
                TierRule(t.min_quantity, t.unit_price_cents)
                for t in session.exec(
                    select(PriceTier)
                    .where(PriceTier.portion_id == portion.id)
                    .order_by(PriceTier.min_quantity)
                ).all()
            )
            # Never added to the session: what ``_write_order`` copies, as a cart line holds it.
            line = CartLine(
                parent_id=parent.id or 0,
                child_id=child.id or 0,
                menu_day_id=menu_day.id or 0,
                meal_id=meal.id or 0,
                portion_id=portion.id or 0,
            )
            price = price_line(LineInput(portion_tiers=tiers, quantity=1))
            items.append(
                {
                    "line": line,
                    "menu_day": menu_day,
                    "meal": meal,
                    "portion": portion,
                    "menu_option": None,
                    "meal_option": None,
                    "addons": [],
                    "tiers": tiers,
                    "price": price,
                }
            )
            break
    if not items:
        return
    charges = compute_charges([i["price"] for i in items], get_settings().charge_rates)
    summary = {"charges": {name: getattr(charges, name) for name in checkout.CHARGE_FIELDS}}
    # Placed at noon (Toronto) three days before the meal, well before its cut-off.
    when = datetime.combine(menu_day.meal_date - timedelta(days=3), time(17, 0), tzinfo=UTC)
    order = checkout._write_order(
        session,
        parent_id=parent.id or 0,
        summary=summary,
        promo_row=None,
        items=items,
        fingerprint=DEMO_ORDER_MARK,
        now=when,
    )
    order.status = OrderStatus.PLACED
    order.placed_at = when
    session.add(order)
    session.add(
        Payment(
            parent_id=parent.id or 0,
            order_id=order.id,
            purpose=Purpose.ORDER,
            invoice_number=new_invoice_number(Purpose.ORDER, when, order_number=order.number),
            amount_cents=order.total_pay_cents,
            state=PaymentState.APPROVED,
            approval_code="DEMO01",
            card_brand="VISA",
            card_masked="41**********1111",
            result_message="APPROVAL",
            verified_at=when,
            closed_at=when,
            created_at=when,
            updated_at=when,
        )
    )
    report.created["order"] += 1


def _meal(vendor_id: int | None, spec: MealSpec) -> Meal:
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
        **dict(zip(NUTRITION_FIELDS, spec.nutrition, strict=True)),
    )


def _meal_details(
    table: _Factory, all_meals: list[tuple[MealSpec, Meal]], allergens: _Table[AllergenIngredient]
) -> _Table[Portion]:
    """Allergen links (wheat implies gluten), portions, drinks and meal options of the demo
    meals; returns the portions by (meal id, size)."""
    links = table("meal_allergen", MealAllergen, lambda r: (r.meal_id, r.ingredient_id))
    portions = table("portion", Portion, lambda r: (r.meal_id, r.size))
    menu_opts = table("menu_option", MenuOption, lambda r: (r.meal_id, r.name_en))
    meal_opts = table("meal_option", MealOption, lambda r: (r.meal_id, r.name_en))
    for spec, meal in all_meals:
        keys = set(spec.allergens) | ({"gluten"} if "wheat" in spec.allergens else set())
        for key in sorted(keys):
            ing_id = allergens[seed_places.ALLERGENS[key][0]].id
            links.ensure(MealAllergen(meal_id=meal.id, ingredient_id=ing_id))
        for size in ("small", "large"):
            portions.ensure(Portion(meal_id=meal.id, size=size))
        for o in seed_vendors.DRINKS if spec.drinks else ():
            menu_opts.ensure(
                MenuOption(
                    meal_id=meal.id, name_en=o.name_en, name_fr=o.name_fr, price_cents=o.price_cents
                )
            )
        for o in spec.meal_options:
            meal_opts.ensure(
                MealOption(
                    meal_id=meal.id, name_en=o.name_en, name_fr=o.name_fr, price_cents=o.price_cents
                )
            )
    return portions


def _allergen_ids(keys: tuple[str, ...], allergens: _Table[AllergenIngredient]) -> list[int]:
    """The ingredient ids of allergen keys; wheat implies gluten."""
    found = set(keys) | ({"gluten"} if "wheat" in keys else set())
    return [allergens[seed_places.ALLERGENS[k][0]].id for k in sorted(found)]


def _extras_allergens(
    table: _Factory,
    all_meals: list[tuple[MealSpec, Meal]],
    vendor_addons: list[tuple[AddOnSpec, AddOn]],
    allergens: _Table[AllergenIngredient],
) -> None:
    """Each menu option's, meal option's and add-on's own allergens (issue 20)."""
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
            addon_links.ensure(AddOnAllergen(addon_id=row.id, ingredient_id=ing_id))


def _menu_days(
    session: Session,
    report: SeedReport,
    today: date,
    school_list: list[tuple[int, School]],
    vendors: _Table[Vendor],
    vendor_meals: list[list[tuple[MealSpec, Meal]]],
) -> list[tuple[MenuDay, list[Meal]]]:
    """Adds a menu day for each school and window date that has none (whatever its vendor);
    returns the new open days with the meals they serve."""
    days = school_days(today)
    if not days:
        return []
    window = (MenuDay.meal_date >= days[0]) & (MenuDay.meal_date <= days[-1])
    rows = session.exec(select(MenuDay.school_id, MenuDay.meal_date).where(window)).all()
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
            menu_day = MenuDay(school_id=school.id, vendor_id=vendor.id, meal_date=day)
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


def _content(table: _Factory) -> None:
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
    table: _Factory,
    parent: Parent,
    school: School,
    teachers: _Table[Teacher],
    grades: _Table[Grade],
) -> list[tuple[Child, tuple[tuple[str, str], ...]]]:
    """The demo children, both at ``school``, each in the class of their grade's teacher."""
    by_grade = {t.grade_id: t for t in teachers.rows.values() if t.school_id == school.id}
    children = table("child", Child, lambda r: (r.parent_id, r.first_name, r.last_name))
    out = []
    for first, last, grade_code, default, allergy_specs in seed_content.DEMO_CHILDREN:
        grade = grades[grade_code]
        child = Child(
            parent_id=parent.id,
            first_name=first,
            last_name=last,
            city_id=school.city_id,
            school_id=school.id,
            teacher_id=by_grade[grade.id].id,
            grade_id=grade.id,
            is_default=default,
        )
        out.append((children.ensure(child), allergy_specs))
    return out
