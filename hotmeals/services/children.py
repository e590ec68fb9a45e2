"""Children: where they go to school, their allergies and dietary needs, the default child
(docs/product.md §3, §5, "Dietary needs").

Every call that takes a child id answers ``child_not_found`` unless the child is an active
child of ``parent_id``: another parent's child looks exactly like one that does not exist.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Executable, bindparam, delete, func, join
from sqlalchemy import select as select_columns
from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import (
    AllergenIngredient,
    CartLine,
    Child,
    ChildAllergy,
    ChildDiet,
    City,
    Grade,
    School,
    Teacher,
)
from hotmeals.domain import diet
from hotmeals.domain.allergy import BY_SEVERITY, AlertLevel, parse_alert_level, severity_rank
from hotmeals.domain.diet import Diet
from hotmeals.domain.errors import DomainError
from hotmeals.domain.validation import (
    normalize_name,
    raise_first,
    validate_name,
    validate_required,
)
from hotmeals.i18n import normalize_lang
from hotmeals.services import reference
from hotmeals.services.ids import saved_id
from hotmeals.services.parents import (
    ADD_CHILD,
    ALLERGY,
    COMPLETE,
    advance_signup_step,
    get_parent,
    lock_parent,
)
from hotmeals.services.reference import CityRef, GradeRef, IngredientRef, SchoolRef

CHILD_MAX = 10
ALLERGY_MAX = 30
SUGGESTION_MAX = 50
_ID_MAX = 2**31 - 1


def _is_id(value: int) -> bool:
    """A row id can be ``value`` (0, a negative or a too large number cannot)."""
    return 1 <= value <= _ID_MAX


def own_child(session: Session, *, parent_id: int, child_id: int) -> Child:
    """The parent's active child, or ``child_not_found`` (also for another parent's child, and
    for 0: none given)."""
    child = session.get(Child, child_id) if _is_id(child_id) else None
    if child is None or child.parent_id != parent_id or not child.is_active:
        raise DomainError("child_not_found", field="child_id")
    return child


# --- places and grades -----------------------------------------------------------------------


@dataclass(frozen=True)
class TeacherView:
    """A teacher of a school with the grade of their class (None: no grade set)."""

    id: int
    name: str
    grade_id: int | None
    grade: GradeRef | None


def list_cities(*, session: Session) -> list[CityRef]:
    return list(reference.places(session).cities)


def list_schools(*, session: Session, city_id: int) -> list[SchoolRef]:
    """The active schools of the city (``city_not_found`` for a city that does not exist)."""
    places = reference.places(session)
    if city_id not in places.city_ids:
        raise DomainError("city_not_found", field="city_id")
    return list(places.schools_of_city.get(city_id, ()))


def list_teachers(*, session: Session, school_id: int) -> list[TeacherView]:
    """The teachers of an active school, each with the grade of their class."""
    places = reference.places(session)
    school = places.schools.get(school_id)
    if school is None or not school.is_active:
        raise DomainError("school_not_found", field="school_id")
    return [
        TeacherView(
            id=teacher.id,
            name=teacher.name,
            grade_id=teacher.grade_id,
            grade=places.grade_by_id.get(teacher.grade_id) if teacher.grade_id else None,
        )
        for teacher in places.teachers_of_school.get(school.id, ())
    ]


def list_grades(*, session: Session) -> list[GradeRef]:
    return list(reference.places(session).grades)


def list_alert_levels() -> list[AlertLevel]:
    """The allergy levels, most severe first."""
    return list(BY_SEVERITY)


# --- children ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChildAllergyView:
    """One of a child's allergies, named in both languages."""

    ingredient_id: int
    name_en: str
    name_fr: str
    alert_level: str

    def name(self, lang: str) -> str:
        return self.name_fr if normalize_lang(lang) == "fr" else self.name_en

    def alert_level_label(self, lang: str) -> str:
        """The level's label in ``lang``; a level that is no longer one, as it is stored."""
        try:
            return AlertLevel(self.alert_level).label(normalize_lang(lang))
        except ValueError:
            return self.alert_level


@dataclass(frozen=True)
class ChildView:
    """An active child with where they go to school (names "" when a place is gone), their
    allergies, most severe first, and their dietary needs (``diet.DIETS`` order)."""

    id: int
    first_name: str
    last_name: str
    is_default: bool
    city_id: int
    city: str
    school_id: int
    school: str
    teacher_id: int
    teacher: str
    grade_id: int
    grade_en: str
    grade_fr: str
    allergies: tuple[ChildAllergyView, ...]
    diets: tuple[Diet, ...] = ()

    def grade(self, lang: str) -> str:
        return self.grade_fr if normalize_lang(lang) == "fr" else self.grade_en


def _placement(
    session: Session, city_id: int, school_id: int, teacher_id: int, grade_id: int
) -> tuple[City, School, Teacher, Grade]:
    """City, school of that city, teacher of that school, grade; required (0: not chosen)
    and consistent."""
    for value, name in (
        (city_id, "city"),
        (school_id, "school"),
        (teacher_id, "teacher"),
        (grade_id, "grade"),
    ):
        raise_first(validate_required(value or "", name))
    city = session.get(City, city_id) if _is_id(city_id) else None
    if city is None:
        raise DomainError("city_not_found", field="city_id")
    school = session.get(School, school_id) if _is_id(school_id) else None
    if school is None or not school.is_active or school.city_id != city.id:
        raise DomainError("school_not_found", field="school_id")
    teacher = session.get(Teacher, teacher_id) if _is_id(teacher_id) else None
    if teacher is None or teacher.school_id != school.id:
        raise DomainError("teacher_not_found", field="teacher_id")
    grade = session.get(Grade, grade_id) if _is_id(grade_id) else None
    if grade is None:
        raise DomainError("grade_not_found", field="grade_id")
    return city, school, teacher, grade


def _form_columns(
    session: Session,
    first_name: str,
    last_name: str,
    city_id: int,
    school_id: int,
    teacher_id: int,
    grade_id: int,
) -> dict[str, Any]:
    """The child form checked (the names first, then the placement), as the columns of the
    child it adds or edits."""
    raise_first(validate_name(first_name, "first_name"))
    raise_first(validate_name(last_name, "last_name"))
    city, school, teacher, grade = _placement(session, city_id, school_id, teacher_id, grade_id)
    return {
        "first_name": normalize_name(first_name),
        "last_name": normalize_name(last_name),
        "city_id": saved_id(city),
        "school_id": saved_id(school),
        "teacher_id": saved_id(teacher),
        "grade_id": saved_id(grade),
    }


def add_child(
    *,
    session: Session,
    parent_id: int,
    first_name: str,
    last_name: str,
    city_id: int,
    school_id: int,
    teacher_id: int,
    grade_id: int,
    diets: frozenset[Diet] = frozenset(),
) -> ChildView:
    """A new child of the parent (the first becomes the default) with its dietary needs; the
    place ids are 0 when the form left them out."""
    columns = _form_columns(
        session, first_name, last_name, city_id, school_id, teacher_id, grade_id
    )
    parent = lock_parent(session, parent_id)  # before counting: parallel adds take turns
    active = session.exec(
        select(func.count()).select_from(Child).where(Child.parent_id == parent.id, Child.is_active)
    ).one()
    if active >= CHILD_MAX:
        raise DomainError("child_limit", max=CHILD_MAX)
    child = Child(
        parent_id=saved_id(parent),
        **columns,
        is_default=active == 0,
        created_at=utcnow(),
    )
    session.add(child)
    advance_signup_step(parent, from_step=ADD_CHILD, to_step=ALLERGY)
    session.add(parent)
    session.flush()
    _write_diets(session, saved_id(child), diets)
    return child_view(session, child)


def edit_child(
    *,
    session: Session,
    parent_id: int,
    child_id: int,
    first_name: str,
    last_name: str,
    city_id: int,
    school_id: int,
    teacher_id: int,
    grade_id: int,
    diets: frozenset[Diet] | None = None,
) -> ChildView:
    """The child's names and school changed (the child is checked first), and its dietary
    needs replaced when ``diets`` is given (None: as they are)."""
    child = own_child(session, parent_id=parent_id, child_id=child_id)
    columns = _form_columns(
        session, first_name, last_name, city_id, school_id, teacher_id, grade_id
    )
    for name, value in columns.items():
        setattr(child, name, value)
    session.add(child)
    session.flush()
    if diets is not None:
        _write_diets(session, saved_id(child), diets)
    return child_view(session, child)


def _write_diets(session: Session, child_id: int, diets: frozenset[Diet]) -> None:
    """Replace the child's dietary needs (stored as given: the implied ones are not added)."""
    session.execute(delete(ChildDiet).where(col(ChildDiet.child_id) == child_id))
    session.add_all(ChildDiet(child_id=child_id, diet=d.value) for d in diet.DIETS if d in diets)
    session.flush()


_DIETS_OF_CHILDREN = select_columns(col(ChildDiet.child_id), col(ChildDiet.diet)).where(
    col(ChildDiet.child_id).in_(bindparam("child_ids", expanding=True))
)


def child_diets(session: Session, child_ids: Iterable[int]) -> dict[int, frozenset[Diet]]:
    """The dietary needs of children (ids the caller checked): one statement; a child without
    needs is left out."""
    ids = sorted(set(child_ids))
    found: dict[int, set[Diet]] = {}
    if ids:
        for child_id, code in session.execute(_DIETS_OF_CHILDREN, {"child_ids": ids}).all():
            found.setdefault(child_id, set()).update(diet.parse(code))
    return {child_id: frozenset(needs) for child_id, needs in found.items() if needs}


def delete_child(*, session: Session, parent_id: int, child_id: int) -> None:
    """Soft delete: the child's orders stay in the history; its cart lines go; another child
    becomes the default."""
    child = own_child(session, parent_id=parent_id, child_id=child_id)
    was_default = child.is_default
    child.is_active = False
    child.is_default = False
    session.add(child)
    session.execute(delete(CartLine).where(col(CartLine.child_id) == child.id))
    session.flush()
    if was_default:
        heir = session.exec(
            select(Child)
            .where(Child.parent_id == parent_id, Child.is_active)
            .order_by(col(Child.created_at), col(Child.id))
        ).first()
        if heir is not None:
            heir.is_default = True
            session.add(heir)
            session.flush()


def set_default_child(*, session: Session, parent_id: int, child_id: int) -> None:
    child = own_child(session, parent_id=parent_id, child_id=child_id)
    others = session.exec(
        select(Child).where(Child.parent_id == parent_id, Child.is_default, Child.id != child.id)
    ).all()
    for other in others:
        other.is_default = False
        session.add(other)
    # Clear the old default first: one default child per parent is a unique index, and the
    # unit of work would otherwise write the rows in id order.
    session.flush()
    child.is_default = True
    session.add(child)
    session.flush()


def get_child(*, session: Session, parent_id: int, child_id: int) -> ChildView:
    """The parent's active child with its places and allergies, in two queries;
    ``child_not_found`` also for another parent's child (and for 0)."""
    found = (
        _child_views(session, _OWN_CHILD, child_id=child_id, parent_id=parent_id)
        if _is_id(child_id)
        else []
    )
    if not found:
        raise DomainError("child_not_found", field="child_id")
    return found[0]


def list_children(*, session: Session, parent_id: int) -> list[ChildView]:
    """The parent's active children, the default first: two queries whatever their number."""
    return _child_views(session, _CHILDREN_OF_PARENT, parent_id=parent_id)


def child_view(session: Session, child: Child) -> ChildView:
    return _child_views(session, _ONE_CHILD, child_id=child.id)[0]


# GetChilds is the parent's most frequent call: its statements are built once (bound
# parameters), and they read columns, not ORM objects - these rows are only shown. The
# dietary needs come in the same row, as the space-separated text ``diet.parse`` reads.
_DIETS_TEXT = (
    select_columns(func.aggregate_strings(col(ChildDiet.diet), " "))
    .where(col(ChildDiet.child_id) == col(Child.id))
    .correlate(Child)
    .scalar_subquery()
)
_CHILD_COLUMNS = select_columns(
    col(Child.id),
    col(Child.first_name),
    col(Child.last_name),
    col(Child.is_default),
    col(Child.city_id),
    col(City.name),
    col(Child.school_id),
    col(School.name),
    col(Child.teacher_id),
    col(Teacher.name),
    col(Child.grade_id),
    col(Grade.label_en),
    col(Grade.label_fr),
    _DIETS_TEXT,
).select_from(
    join(Child, City, col(City.id) == Child.city_id, isouter=True)
    .join(School, col(School.id) == Child.school_id, isouter=True)
    .join(Teacher, col(Teacher.id) == Child.teacher_id, isouter=True)
    .join(Grade, col(Grade.id) == Child.grade_id, isouter=True)
)
_CHILD_ORDER = (col(Child.is_default).desc(), col(Child.first_name), col(Child.id))
_CHILDREN_OF_PARENT = _CHILD_COLUMNS.where(
    col(Child.parent_id) == bindparam("parent_id"), col(Child.is_active)
).order_by(*_CHILD_ORDER)
_ONE_CHILD = _CHILD_COLUMNS.where(col(Child.id) == bindparam("child_id"))
_OWN_CHILD = _ONE_CHILD.where(col(Child.parent_id) == bindparam("parent_id"), col(Child.is_active))
_ALLERGIES_OF_CHILDREN = (
    select_columns(
        col(ChildAllergy.child_id),
        col(ChildAllergy.ingredient_id),
        col(AllergenIngredient.name_en),
        col(AllergenIngredient.name_fr),
        col(ChildAllergy.alert_level),
    )
    .join(AllergenIngredient, col(AllergenIngredient.id) == ChildAllergy.ingredient_id)
    .where(col(ChildAllergy.child_id).in_(bindparam("child_ids", expanding=True)))
    .order_by(col(ChildAllergy.child_id), col(AllergenIngredient.name_en))
)


def _child_views(session: Session, statement: Executable, **params: object) -> list[ChildView]:
    """Children with their places (one query with joins) and allergies (one query for all)."""
    rows = session.execute(statement, params).all()
    allergies: dict[int, list[ChildAllergyView]] = {}
    if rows:
        found = session.execute(
            _ALLERGIES_OF_CHILDREN, {"child_ids": [row[0] for row in rows]}
        ).all()
        for child_id, ingredient_id, name_en, name_fr, level in found:
            allergies.setdefault(child_id, []).append(
                ChildAllergyView(
                    ingredient_id=ingredient_id, name_en=name_en, name_fr=name_fr, alert_level=level
                )
            )
    for found_allergies in allergies.values():
        # Most severe first (Major ... Non-allergic), then by name as the query gave them.
        found_allergies.sort(key=lambda a: severity_rank(a.alert_level))
    return [
        ChildView(
            id=child_id,
            first_name=first_name,
            last_name=last_name,
            is_default=bool(is_default),
            city_id=city_id,
            city=city or "",
            school_id=school_id,
            school=school or "",
            teacher_id=teacher_id,
            teacher=teacher or "",
            grade_id=grade_id,
            grade_en=grade_en or "",
            grade_fr=grade_fr or "",
            allergies=tuple(allergies.get(child_id, [])),
            diets=tuple(d for d in diet.DIETS if d in diet.parse(diets_text)),
        )
        for (
            child_id,
            first_name,
            last_name,
            is_default,
            city_id,
            city,
            school_id,
            school,
            teacher_id,
            teacher,
            grade_id,
            grade_en,
            grade_fr,
            diets_text,
        ) in rows
    ]


# --- allergies -----------------------------------------------------------------------------------


def _items(items: Iterable[tuple[int, str]]) -> list[tuple[int, AlertLevel]]:
    """(ingredient_id, alert_level) pairs checked; the last of a duplicate wins."""
    chosen: dict[int, AlertLevel] = {}
    for ingredient, level in items:
        if not _is_id(ingredient):
            raise DomainError("ingredient_not_found", field="allergies")
        chosen[ingredient] = parse_alert_level(level)
    return list(chosen.items())


def set_child_allergies(
    *, session: Session, parent_id: int, child_id: int, items: Iterable[tuple[int, str]]
) -> ChildView:
    """Replace the child's allergies (an empty list is allowed) and finish the sign-up step."""
    child = own_child(session, parent_id=parent_id, child_id=child_id)
    pairs = _items(items)
    if len(pairs) > ALLERGY_MAX:
        raise DomainError("allergy_limit", field="allergies", max=ALLERGY_MAX)
    ids = [ingredient for ingredient, _ in pairs]
    if ids:
        known = set(
            session.exec(
                select(col(AllergenIngredient.id)).where(col(AllergenIngredient.id).in_(ids))
            ).all()
        )
        if known != set(ids):
            raise DomainError("ingredient_not_found", field="allergies")
    session.execute(delete(ChildAllergy).where(col(ChildAllergy.child_id) == child.id))
    for ingredient, level in pairs:
        session.add(
            ChildAllergy(child_id=saved_id(child), ingredient_id=ingredient, alert_level=level)
        )
    complete_allergy_step(session=session, parent_id=parent_id)
    session.flush()
    return child_view(session, child)


def complete_allergy_step(*, session: Session, parent_id: int) -> None:
    parent = get_parent(session, parent_id)
    advance_signup_step(parent, from_step=ALLERGY, to_step=COMPLETE)
    session.add(parent)


def _fold(text: str) -> str:
    """Lower case without accents: 'Œufs' and 'oeufs', 'Céleri' and 'celeri' match."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("œ", "oe"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def list_allergic_ingredients(*, session: Session, lang: str = "en") -> list[IngredientRef]:
    """Every ingredient, the priority allergens first, then by their name in ``lang``."""
    return sorted(
        reference.allergens(session), key=lambda r: (not r.is_priority, _fold(r.name(lang)))
    )


def allergy_suggestions(
    *, session: Session, query: str = "", lang: str = "en", limit: int = 10
) -> list[IngredientRef]:
    """Ingredients whose English or French name contains ``query`` (case and accents
    ignored), names starting with it first, then by their name in ``lang``."""
    needle = _fold(query.strip())[:80]
    limit = max(1, min(limit, SUGGESTION_MAX))
    found = []
    for row in reference.allergens(session):
        names = (_fold(row.name_en), _fold(row.name_fr))
        if needle and not any(needle in name for name in names):
            continue
        starts = any(name.startswith(needle) for name in names)
        found.append((not starts, not row.is_priority, _fold(row.name(lang)), row))
    found.sort(key=lambda item: item[:3])
    return [row for *_, row in found[:limit]]
