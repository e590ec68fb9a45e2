"""The kitchen's day: what a vendor cooks for a school on a meal date and the label of each meal
on the tray (docs/product.md "The kitchen's day").

Once the day's cut-off has passed (the vendor's rule, ``domain/cutoff``, as every ordering
door computes it), the first read of a school's day freezes its labels into ``KitchenDay``
(one row per school, vendor and date; two first reads at once: the unique constraint keeps
one, the other reads it), and every later read answers from that row, so nothing that happens
after the cut-off (a cancellation, a move, a closure, a child's profile edited) changes them.
A meal cancelled, moved or closed before the freezing read is not on them: its line is no
longer active at that school and date. Before the cut-off the day is refused
(``kitchen_before_cutoff``).

A label is one meal (an order line of quantity 2 with nothing cancelled is two labels) of a
paid order (placed, partially cancelled or delivered) whose line is active or delivered, for
the menu day of that school, vendor and date. It holds plain facts only: the child's first
name and last initial (never the parent's contact details), classroom and grade, the meal, its
size, options and add-ons as sold (English) with their French names, the child's allergies
(ingredient names, alert level, whether the meal as composed contains it), the child's
dietary needs and the marks of the meal as composed (``domain.diet``), and the line's special
message. Words in a language are chosen when they are shown (``Label.*(lang)``, the doors, the
PDF and the CSV: ``services/kitchen_files.py``); a school's own language is ``SchoolLanguage``
(absent: English).

The production list is made from the same frozen labels: the allergy and diet rows first, then
the meals counted by meal, size and options, the add-ons counted, and the total.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from hotmeals.db.models import (
    AddOn,
    AddOnAllergen,
    AddOnDiet,
    AllergenIngredient,
    Child,
    ChildAllergy,
    ChildDiet,
    Grade,
    KitchenDay,
    Meal,
    MealAllergen,
    MealDiet,
    MealOption,
    MealOptionAllergen,
    MealOptionDiet,
    MenuDay,
    MenuOption,
    MenuOptionAllergen,
    MenuOptionDiet,
    Order,
    OrderLine,
    OrderLineAddOn,
    School,
    SchoolLanguage,
    Teacher,
    Vendor,
)
from hotmeals.domain import diet
from hotmeals.domain.allergy import AlertLevel, severity_rank
from hotmeals.domain.cutoff import TORONTO, before_cutoff, cutoff_at
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import LineStatus
from hotmeals.i18n import normalize_lang, t
from hotmeals.services.closures import find_school
from hotmeals.services.ordering.days import ORDERED_STATUSES, cutoff_rule, meal_date
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.school_days import served_menu_days
from hotmeals.services.transaction import run_in_transaction

# The lines a kitchen cooks: still to hand out, or handed out already (a delivered day is
# read again as it was).
LABELLED_LINES = (LineStatus.ACTIVE, LineStatus.DELIVERED)


@dataclass(frozen=True)
class Named:
    """A name as sold (English, ``en``) and in French (``fr``: the catalogue's French name at
    freezing time, the name as sold when it has none)."""

    en: str
    fr: str

    def name(self, lang: str) -> str:
        return self.fr if normalize_lang(lang) == "fr" else self.en


@dataclass(frozen=True)
class LabelAllergy:
    """One of the child's allergies: the ingredient's names, the child's alert level
    (``AlertLevel`` value) and whether the meal as composed (meal, options, add-ons) lists
    that ingredient."""

    name_en: str
    name_fr: str
    level: str
    in_meal: bool

    def name(self, lang: str) -> str:
        return self.name_fr if normalize_lang(lang) == "fr" else self.name_en

    @property
    def is_major(self) -> bool:
        """Major, or a stored level nobody can read (counted as Major, as ``domain.allergy``)."""
        return severity_rank(self.level) in (0, len(tuple(AlertLevel)))

    def level_label(self, lang: str) -> str:
        try:
            return AlertLevel(self.level).label(lang)
        except ValueError:
            return self.level


@dataclass(frozen=True)
class Label:
    """One meal on a tray, as frozen (plain facts; words in a language at read time)."""

    order_line_id: int
    order_number: str
    copy: int  # this meal's number among its line's meals (1 ..)
    copies: int  # the line's meals (quantity minus cancelled)
    child_id: int
    first_name: str
    last_initial: str
    school: str
    vendor: str
    meal_date: date
    teacher: str  # the classroom
    grade_code: str
    grade: Named
    meal: Named
    size: str  # domain.pricing.PortionSize value: small, large
    menu_option: Named | None
    meal_option: Named | None
    addons: tuple[Named, ...]
    allergies: tuple[LabelAllergy, ...]  # most severe first, Non-allergic left out
    diets: tuple[str, ...]  # the child's dietary needs (domain.diet codes)
    meal_diets: tuple[str, ...]  # the marks of the meal as composed
    unmet: tuple[str, ...]  # the needs the meal as composed does not meet
    special_note: str

    @property
    def child_name(self) -> str:
        """First name and last initial: all a label says of who the child is."""
        return f"{self.first_name} {self.last_initial}." if self.last_initial else self.first_name

    @property
    def fits(self) -> bool:
        return not self.unmet

    @property
    def has_major(self) -> bool:
        return any(a.is_major for a in self.allergies)

    @property
    def needs_attention(self) -> bool:
        """An allergy or a dietary need: the production list's first rows."""
        return bool(self.allergies or self.diets)

    def sort_key(self) -> tuple[Any, ...]:
        return (
            self.teacher.casefold(),
            self.first_name.casefold(),
            self.last_initial.casefold(),
            self.child_id,
            self.order_line_id,
            self.copy,
        )

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["meal_date"] = self.meal_date.isoformat()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Label:
        def named(value: Any) -> Named | None:
            return Named(**value) if value else None

        return cls(
            **{
                **data,
                "meal_date": date.fromisoformat(data["meal_date"]),
                "grade": Named(**data["grade"]),
                "meal": Named(**data["meal"]),
                "menu_option": named(data.get("menu_option")),
                "meal_option": named(data.get("meal_option")),
                "addons": tuple(Named(**a) for a in data.get("addons", ())),
                "allergies": tuple(LabelAllergy(**a) for a in data.get("allergies", ())),
                "diets": tuple(data.get("diets", ())),
                "meal_diets": tuple(data.get("meal_diets", ())),
                "unmet": tuple(data.get("unmet", ())),
            }
        )


def diet_label(code: str, lang: str) -> str:
    """A dietary mark's word in ``lang`` (an unknown code as it is)."""
    return t(f"diet_{code}", lang) if code in {d.value for d in diet.DIETS} else code


@dataclass(frozen=True)
class VendorDay:
    """One vendor's frozen day at a school: its labels sorted by classroom, then child."""

    school_id: int
    school: str
    vendor_id: int
    vendor: str
    meal_date: date
    frozen_at: datetime
    labels: tuple[Label, ...]


@dataclass(frozen=True)
class KitchenLabels:
    """The labels of a school's day for one vendor or each vendor serving it (by vendor name);
    ``lang``: the school's language (``SchoolLanguage``, English without one)."""

    school_id: int
    school: str
    meal_date: date
    lang: str
    days: tuple[VendorDay, ...]

    @property
    def labels(self) -> tuple[Label, ...]:
        return tuple(label for day in self.days for label in day.labels)


# --- the production list -------------------------------------------------------------------


@dataclass(frozen=True)
class AttentionRow:
    """A child with an allergy or a dietary need, and the meal (``count`` meals of one line)."""

    label: Label
    count: int


@dataclass(frozen=True)
class MealCount:
    meal: Named
    size: str
    menu_option: Named | None
    meal_option: Named | None
    count: int


@dataclass(frozen=True)
class AddOnCount:
    addon: Named
    count: int


@dataclass(frozen=True)
class ProductionList:
    """What a vendor cooks for a school's day, from its frozen labels."""

    school_id: int
    school: str
    vendor_id: int
    vendor: str
    meal_date: date
    frozen_at: datetime
    attention: tuple[AttentionRow, ...]  # by classroom, then child
    meals: tuple[MealCount, ...]  # most first, then by name
    addons: tuple[AddOnCount, ...]
    total: int


@dataclass(frozen=True)
class KitchenProduction:
    school_id: int
    school: str
    meal_date: date
    lang: str
    lists: tuple[ProductionList, ...] = field(default_factory=tuple)


def production_list(day: VendorDay) -> ProductionList:
    """The production list of a vendor's frozen day."""
    by_line: dict[int, list[Label]] = defaultdict(list)
    for label in day.labels:
        by_line[label.order_line_id].append(label)
    attention = tuple(
        AttentionRow(label=labels[0], count=len(labels))
        for labels in by_line.values()
        if labels[0].needs_attention
    )
    meals: Counter[tuple[Named, str, Named | None, Named | None]] = Counter(
        (label.meal, label.size, label.menu_option, label.meal_option) for label in day.labels
    )
    addons: Counter[Named] = Counter(a for label in day.labels for a in label.addons)
    return ProductionList(
        school_id=day.school_id,
        school=day.school,
        vendor_id=day.vendor_id,
        vendor=day.vendor,
        meal_date=day.meal_date,
        frozen_at=day.frozen_at,
        attention=tuple(sorted(attention, key=lambda r: r.label.sort_key())),
        meals=tuple(
            MealCount(meal, size, mo, xo, n)
            for (meal, size, mo, xo), n in sorted(
                meals.items(),
                key=lambda kv: (
                    -kv[1],
                    kv[0][0].en,
                    kv[0][1],
                    kv[0][2].en if kv[0][2] else "",
                    kv[0][3].en if kv[0][3] else "",
                ),
            )
        ),
        addons=tuple(
            AddOnCount(a, n) for a, n in sorted(addons.items(), key=lambda kv: (-kv[1], kv[0].en))
        ),
        total=len(day.labels),
    )


# --- reading a day ---------------------------------------------------------------------------


def school_lang(session: Session, school_id: int) -> str:
    """The school's language (``SchoolLanguage``): English without a row."""
    row = session.get(SchoolLanguage, school_id)
    return normalize_lang(row.lang) if row is not None else "en"


@dataclass(frozen=True)
class _Asked:
    school: School
    day: date
    lang: str
    menu_days: tuple[tuple[MenuDay, Vendor], ...]  # by vendor name


def _asked(session: Session, *, school: str, day: str, vendor: str, now: datetime) -> _Asked:
    """The school, the date and the menu days (with their vendors) asked, once every one of
    them is past its cut-off; refused otherwise."""
    found = find_school(session, school)
    when = meal_date(day, "date")
    rows = served_menu_days(session, found, when, vendor)
    for _menu_day, seller in rows:
        closes = cutoff_at(cutoff_rule(seller), when)
        if before_cutoff(closes, now):
            local = closes.astimezone(TORONTO)
            raise DomainError(
                "kitchen_before_cutoff",
                field="date",
                vendor=seller.name,
                date=when.isoformat(),
                cutoff=local.strftime("%Y-%m-%d %H:%M"),
            )
    return _Asked(
        school=found,
        day=when,
        lang=school_lang(session, found.id or 0),
        menu_days=tuple((d, v) for d, v in rows),
    )


def _frozen(session: Session, school_id: int, vendor_id: int, day: date) -> KitchenDay | None:
    return session.exec(
        select(KitchenDay).where(
            col(KitchenDay.school_id) == school_id,
            col(KitchenDay.vendor_id) == vendor_id,
            col(KitchenDay.meal_date) == day,
        )
    ).first()


def _vendor_day(row: KitchenDay, school: School, vendor: Vendor) -> VendorDay:
    labels = tuple(Label.from_json(x) for x in json.loads(row.labels or "[]"))
    return VendorDay(
        school_id=school.id or 0,
        school=school.name,
        vendor_id=vendor.id or 0,
        vendor=vendor.name,
        meal_date=row.meal_date,
        frozen_at=row.frozen_at.astimezone(UTC),
        labels=tuple(sorted(labels, key=Label.sort_key)),
    )


def freeze(
    session: Session,
    *,
    school: School,
    vendor: Vendor,
    day: date,
    labels: Sequence[Label],
    now: datetime,
) -> KitchenDay:
    """The day's row: ``labels`` written, unless another reader froze the day first (the
    unique constraint refuses the second row), whose row is then read and kept."""
    try:
        with session.begin_nested():
            row = KitchenDay(
                school_id=school.id or 0,
                vendor_id=vendor.id or 0,
                meal_date=day,
                labels=json.dumps([x.to_json() for x in labels], ensure_ascii=False),
                frozen_at=now.astimezone(UTC),
            )
            session.add(row)
            session.flush()
            return row
    except IntegrityError:
        found = _frozen(session, school.id or 0, vendor.id or 0, day)
        if found is None:
            raise
        return found


def kitchen_labels(
    session: Session, *, school: str, day: str, vendor: str = "", now: datetime
) -> KitchenLabels:
    """The labels of ``school``'s day ``day`` (YYYY-MM-DD) for ``vendor`` (id or exact name;
    "": every vendor serving the school that day), frozen by the first read after the
    cut-off; refused before it."""
    asked = _asked(session, school=school, day=day, vendor=vendor, now=now)
    days = []
    for menu_day, seller in asked.menu_days:
        row = _frozen(session, asked.school.id or 0, seller.id or 0, asked.day)
        if row is None:
            labels = current_labels(session, asked.school, seller, menu_day)
            row = freeze(
                session, school=asked.school, vendor=seller, day=asked.day, labels=labels, now=now
            )
        days.append(_vendor_day(row, asked.school, seller))
    return KitchenLabels(
        school_id=asked.school.id or 0,
        school=asked.school.name,
        meal_date=asked.day,
        lang=asked.lang,
        days=tuple(days),
    )


def kitchen_production(
    session: Session, *, school: str, day: str, vendor: str = "", now: datetime
) -> KitchenProduction:
    """The production list of each vendor of the day (``kitchen_labels``'s frozen labels)."""
    found = kitchen_labels(session, school=school, day=day, vendor=vendor, now=now)
    return KitchenProduction(
        school_id=found.school_id,
        school=found.school,
        meal_date=found.meal_date,
        lang=found.lang,
        lists=tuple(production_list(d) for d in found.days),
    )


async def labels(
    *, school: str, day: str, vendor: str = "", runtime: Runtime = APP
) -> KitchenLabels:
    return await run_in_transaction(
        kitchen_labels,
        engine=runtime.engine,
        school=school,
        day=day,
        vendor=vendor,
        now=runtime.now(),
    )


async def production(
    *, school: str, day: str, vendor: str = "", runtime: Runtime = APP
) -> KitchenProduction:
    return await run_in_transaction(
        kitchen_production,
        engine=runtime.engine,
        school=school,
        day=day,
        vendor=vendor,
        now=runtime.now(),
    )


# --- the labels as the orders are now (what the freezing read writes) -----------------------


def _ids(values: Iterable[int | None]) -> list[int]:
    return sorted({v for v in values if v}) or [0]


def _links(session: Session, model: Any, owner: str, value: str, ids: list[int]) -> dict:
    """``owner id -> {values}`` of a link table (allergens or diet marks), one statement."""
    out: dict[int, set[Any]] = defaultdict(set)
    owner_col, value_col = getattr(model, owner), getattr(model, value)
    for owner_id, item in session.exec(
        select(col(owner_col), col(value_col)).where(col(owner_col).in_(ids))
    ).all():
        out[owner_id].add(item)
    return out


def current_labels(
    session: Session, school: School, vendor: Vendor, menu_day: MenuDay
) -> list[Label]:
    """The labels of the menu day's booked meals as the orders and profiles are now, sorted
    (a closed day has none: its meals were handled by the closure). A fixed number of
    statements whatever the number of meals."""
    if menu_day.is_closed:
        return []
    rows = session.exec(
        select(OrderLine, col(Order.number))
        .join(Order, col(Order.id) == OrderLine.order_id)
        .where(
            col(OrderLine.menu_day_id) == menu_day.id,
            col(OrderLine.meal_date) == menu_day.meal_date,
            col(Order.status).in_([str(s) for s in ORDERED_STATUSES]),
            col(OrderLine.status).in_([str(s) for s in LABELLED_LINES]),
            col(OrderLine.quantity) > col(OrderLine.cancelled_quantity),
        )
    ).all()
    if not rows:
        return []
    lines = [line for line, _ in rows]
    numbers = {line.id: number for line, number in rows}
    line_ids = _ids(x.id for x in lines)
    children = {
        c.id: c
        for c in session.exec(
            select(Child).where(col(Child.id).in_(_ids(x.child_id for x in lines)))
        ).all()
    }
    teachers = {
        x.id: x
        for x in session.exec(
            select(Teacher).where(
                col(Teacher.id).in_(_ids(c.teacher_id for c in children.values()))
            )
        ).all()
    }
    grades = {
        x.id: x
        for x in session.exec(
            select(Grade).where(col(Grade.id).in_(_ids(c.grade_id for c in children.values())))
        ).all()
    }
    meals = {
        x.id: x
        for x in session.exec(select(Meal).where(col(Meal.id).in_(_ids(x.meal_id for x in lines))))
    }
    menu_options = {
        x.id: x
        for x in session.exec(
            select(MenuOption).where(col(MenuOption.id).in_(_ids(x.menu_option_id for x in lines)))
        )
    }
    meal_options = {
        x.id: x
        for x in session.exec(
            select(MealOption).where(col(MealOption.id).in_(_ids(x.meal_option_id for x in lines)))
        )
    }
    line_addons: dict[int, list[OrderLineAddOn]] = defaultdict(list)
    for a in session.exec(
        select(OrderLineAddOn)
        .where(col(OrderLineAddOn.order_line_id).in_(line_ids))
        .order_by(col(OrderLineAddOn.id))
    ).all():
        line_addons[a.order_line_id].append(a)
    addon_ids = _ids(a.addon_id for v in line_addons.values() for a in v)
    addons = {x.id: x for x in session.exec(select(AddOn).where(col(AddOn.id).in_(addon_ids)))}
    child_ids = _ids(children)
    allergies: dict[int, list[tuple[int, str, str, str]]] = defaultdict(list)
    for allergy, ingredient in session.exec(
        select(ChildAllergy, AllergenIngredient)
        .join(AllergenIngredient, col(AllergenIngredient.id) == ChildAllergy.ingredient_id)
        .where(col(ChildAllergy.child_id).in_(child_ids))
    ).all():
        if allergy.alert_level != AlertLevel.NON_ALLERGIC:
            allergies[allergy.child_id].append(
                (allergy.ingredient_id, allergy.alert_level, ingredient.name_en, ingredient.name_fr)
            )
    needs = _links(session, ChildDiet, "child_id", "diet", child_ids)
    meal_ids = _ids(x.meal_id for x in lines)
    mo_ids = _ids(x.menu_option_id for x in lines)
    xo_ids = _ids(x.meal_option_id for x in lines)
    contains = {
        "meal": _links(session, MealAllergen, "meal_id", "ingredient_id", meal_ids),
        "menu_option": _links(
            session, MenuOptionAllergen, "menu_option_id", "ingredient_id", mo_ids
        ),
        "meal_option": _links(
            session, MealOptionAllergen, "meal_option_id", "ingredient_id", xo_ids
        ),
        "addon": _links(session, AddOnAllergen, "addon_id", "ingredient_id", addon_ids),
    }
    marks = {
        "meal": _links(session, MealDiet, "meal_id", "diet", meal_ids),
        "menu_option": _links(session, MenuOptionDiet, "menu_option_id", "diet", mo_ids),
        "meal_option": _links(session, MealOptionDiet, "meal_option_id", "diet", xo_ids),
        "addon": _links(session, AddOnDiet, "addon_id", "diet", addon_ids),
    }

    def named(sold: str, row: Any) -> Named:
        return Named(en=sold, fr=(getattr(row, "name_fr", "") or sold) if row else sold)

    out: list[Label] = []
    for line in lines:
        child = children.get(line.child_id)
        if child is None:
            continue
        teacher = teachers.get(child.teacher_id)
        grade = grades.get(child.grade_id)
        parts = [("meal", line.meal_id)]
        if line.menu_option_id:
            parts.append(("menu_option", line.menu_option_id))
        if line.meal_option_id:
            parts.append(("meal_option", line.meal_option_id))
        parts += [("addon", a.addon_id) for a in line_addons.get(line.id or 0, [])]
        in_meal = set().union(*(contains[kind].get(i, set()) for kind, i in parts))
        composed = diet.composed(
            *(diet.parse(" ".join(marks[kind].get(i, set()))) for kind, i in parts)
        )
        child_needs = diet.parse(" ".join(needs.get(child.id or 0, set())))
        child_allergies = sorted(
            allergies.get(child.id or 0, []), key=lambda a: (severity_rank(a[1]), a[2].casefold())
        )
        copies = line.quantity - line.cancelled_quantity
        for copy in range(1, copies + 1):
            out.append(
                Label(
                    order_line_id=line.id or 0,
                    order_number=numbers.get(line.id, ""),
                    copy=copy,
                    copies=copies,
                    child_id=child.id or 0,
                    first_name=child.first_name,
                    last_initial=child.last_name[:1].upper(),
                    school=school.name,
                    vendor=vendor.name,
                    meal_date=line.meal_date,
                    teacher=teacher.name if teacher else "",
                    grade_code=grade.code if grade else "",
                    grade=Named(grade.label_en, grade.label_fr) if grade else Named("", ""),
                    meal=named(line.meal_name, meals.get(line.meal_id)),
                    size=line.size,
                    menu_option=named(line.menu_option_name, menu_options.get(line.menu_option_id))
                    if line.menu_option_id or line.menu_option_name
                    else None,
                    meal_option=named(line.meal_option_name, meal_options.get(line.meal_option_id))
                    if line.meal_option_id or line.meal_option_name
                    else None,
                    addons=tuple(
                        named(a.name, addons.get(a.addon_id))
                        for a in line_addons.get(line.id or 0, [])
                    ),
                    allergies=tuple(
                        LabelAllergy(name_en, name_fr, level, ingredient_id in in_meal)
                        for ingredient_id, level, name_en, name_fr in child_allergies
                    ),
                    diets=tuple(d.value for d in diet.DIETS if d in child_needs),
                    meal_diets=tuple(d.value for d in diet.DIETS if d in composed),
                    unmet=tuple(d.value for d in diet.unmet(child_needs, composed)),
                    special_note=line.special_note or "",
                )
            )
    return sorted(out, key=Label.sort_key)
