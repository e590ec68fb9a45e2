"""What one label of the kitchen's day holds and how it is read from the orders now
(``services/kitchen.py`` freezes them after the cut-off; docs/product.md "The kitchen's day").

A label is one meal (an order line of quantity 2 with nothing cancelled is two labels) of a
paid order (placed, partially cancelled or delivered) whose line is active or delivered, for
the menu day of that school, vendor and date. It holds plain facts only: the child's first
name and last initial (never the parent's contact details), classroom and grade, the meal, its
size, options and add-ons as sold (English) with their French names, the child's allergies
(ingredient names, alert level, whether the meal as composed contains it), the child's
dietary needs and the marks of the meal as composed (``domain.diet``), and the line's special
message. Words in a language are chosen when they are shown (``Label.*(lang)``, the doors, the
PDF and the CSV: ``services/kitchen_files.py``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any

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
    Teacher,
    Vendor,
)
from hotmeals.domain import diet
from hotmeals.domain.allergy import AlertLevel, severity_rank
from hotmeals.domain.orders import KEPT_LINE_STATUSES, ORDERED_STATUSES
from hotmeals.i18n import normalize_lang, t


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

    @classmethod
    def _from_data(cls, data: dict[str, Any]) -> Label:
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


def frozen_text(labels: Iterable[Label]) -> str:
    """The labels as ``KitchenDay.labels`` keeps them (JSON: one object per label)."""
    rows = [{**asdict(x), "meal_date": x.meal_date.isoformat()} for x in labels]
    return json.dumps(rows, ensure_ascii=False)


def from_frozen_text(text: str) -> tuple[Label, ...]:
    """The labels ``frozen_text`` wrote."""
    return tuple(Label._from_data(x) for x in json.loads(text or "[]"))


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
            col(OrderLine.status).in_([str(s) for s in KEPT_LINE_STATUSES]),
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
