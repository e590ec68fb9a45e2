"""Reference data that only an operator changes - cities, schools, teachers, grades, allergens,
CMS pages, FAQ - read from a per-process cache (these lists are on every form and every
visitor's first screens, and a query per call bought nothing).

- What is cached are immutable copies (frozen dataclasses, tuples, read-only mappings), never
  ORM objects: one copy is read by many threads at once. Each carries both languages, so a
  caller still gets its own language from the same copy.
- Entries expire after ``TTL_SECONDS``: another process (a second backend worker, the seed
  CLI) changing these tables is seen within that time.
- In this process, a commit that wrote any of these tables through the ORM (rows added,
  changed or deleted, or an ORM ``update()``/``delete()``) empties the cache when it commits;
  ``invalidate()`` is there for writes the ORM cannot see (raw SQL, another process's seed).
- A session that holds uncommitted changes to these tables reads them from the database and
  caches nothing, so a rolled-back edit never reaches other callers.

The cache is per engine (weakly held), so tests that switch databases never see another
database's rows.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session, col, select

from hotmeals.db.models import AllergenIngredient, City, CmsPage, Faq, Grade, School, Teacher
from hotmeals.i18n import normalize_lang
from hotmeals.services.ids import saved_id
from hotmeals.services.write_watch import WriteWatch

TTL_SECONDS = 60.0
REFERENCE_MODELS: tuple[type, ...] = (
    City,
    School,
    Teacher,
    Grade,
    AllergenIngredient,
    CmsPage,
    Faq,
)

T = TypeVar("T")


# --- the immutable copies -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CityRef:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class SchoolRef:
    id: int
    city_id: int
    name: str
    address: str
    is_active: bool


@dataclass(frozen=True, slots=True)
class GradeRef:
    id: int
    code: str
    label_en: str
    label_fr: str

    def label(self, lang: str) -> str:
        return self.label_fr if normalize_lang(lang) == "fr" else self.label_en


@dataclass(frozen=True, slots=True)
class TeacherRef:
    id: int
    school_id: int
    name: str
    grade_id: int | None


@dataclass(frozen=True, slots=True)
class Places:
    cities: tuple[CityRef, ...]  # by name
    city_ids: frozenset[int]
    schools: Mapping[int, SchoolRef]  # every school, active or not
    schools_of_city: Mapping[int, tuple[SchoolRef, ...]]  # active ones, by name
    teachers_of_school: Mapping[int, tuple[TeacherRef, ...]]  # by name
    grades: tuple[GradeRef, ...]  # by sort order
    grade_by_id: Mapping[int, GradeRef]


@dataclass(frozen=True, slots=True)
class IngredientRef:
    id: int
    name_en: str
    name_fr: str
    is_priority: bool

    def name(self, lang: str) -> str:
        return self.name_fr if normalize_lang(lang) == "fr" else self.name_en


@dataclass(frozen=True, slots=True)
class PageRef:
    slug: str
    language: str
    title: str
    body: str
    updated_at: str  # ISO, seconds


@dataclass(frozen=True, slots=True)
class FaqRef:
    id: int
    question: str
    answer: str


# --- loaders (one query per table) ------------------------------------------------------------


def _load_places(session: Session) -> Places:
    cities = tuple(
        CityRef(saved_id(c), c.name) for c in session.exec(select(City).order_by(City.name)).all()
    )
    schools = [
        SchoolRef(saved_id(s), s.city_id, s.name, s.address, bool(s.is_active))
        for s in session.exec(select(School).order_by(col(School.name), col(School.id))).all()
    ]
    teachers = [
        TeacherRef(saved_id(t), t.school_id, t.name, t.grade_id)
        for t in session.exec(select(Teacher).order_by(col(Teacher.name), col(Teacher.id))).all()
    ]
    grades = tuple(
        GradeRef(saved_id(g), g.code, g.label_en, g.label_fr)
        for g in session.exec(select(Grade).order_by(col(Grade.sort), col(Grade.id))).all()
    )
    by_city: dict[int, list[SchoolRef]] = {}
    for school in schools:
        if school.is_active:
            by_city.setdefault(school.city_id, []).append(school)
    by_school: dict[int, list[TeacherRef]] = {}
    for teacher in teachers:
        by_school.setdefault(teacher.school_id, []).append(teacher)
    return Places(
        cities=cities,
        city_ids=frozenset(c.id for c in cities),
        schools=MappingProxyType({s.id: s for s in schools}),
        schools_of_city=MappingProxyType({k: tuple(v) for k, v in by_city.items()}),
        teachers_of_school=MappingProxyType({k: tuple(v) for k, v in by_school.items()}),
        grades=grades,
        grade_by_id=MappingProxyType({g.id: g for g in grades}),
    )


def _load_allergens(session: Session) -> tuple[IngredientRef, ...]:
    rows = session.exec(select(AllergenIngredient).order_by(col(AllergenIngredient.id))).all()
    return tuple(
        IngredientRef(saved_id(r), r.name_en, r.name_fr, bool(r.is_priority)) for r in rows
    )


def _load_pages(session: Session) -> Mapping[tuple[str, str], PageRef]:
    pages = {
        (p.slug, p.language): PageRef(
            p.slug, p.language, p.title, p.body, p.updated_at.isoformat(timespec="seconds")
        )
        for p in session.exec(select(CmsPage)).all()
    }
    return MappingProxyType(pages)


def _load_faq(session: Session) -> Mapping[str, tuple[FaqRef, ...]]:
    by_lang: dict[str, list[FaqRef]] = {}
    for row in session.exec(select(Faq).order_by(col(Faq.sort), col(Faq.id))).all():
        by_lang.setdefault(row.language, []).append(FaqRef(saved_id(row), row.question, row.answer))
    return MappingProxyType({lang: tuple(rows) for lang, rows in by_lang.items()})


# --- the cache --------------------------------------------------------------------------------

_clock: Callable[[], float] = time.monotonic  # tests move it to expire entries
_lock = threading.Lock()
_generation = 0
_entries: weakref.WeakKeyDictionary[Engine, dict[str, tuple[float, Any]]] = (
    weakref.WeakKeyDictionary()
)


def invalidate() -> None:
    """Forget every cached copy (all engines). Called on each commit that wrote reference rows
    through the ORM, and by the seed CLI."""
    global _generation
    with _lock:
        _generation += 1
        _entries.clear()


def _engine_of(session: Session) -> Engine:
    return session.get_bind().engine  # a Connection's engine, or the Engine itself


def _cached(session: Session, kind: str, load: Callable[[Session], T]) -> T:
    if _WRITES.pending(session):
        return load(session)  # this transaction's own edits: fresh, and never shared
    engine = _engine_of(session)
    now = _clock()
    with _lock:
        entry = _entries.get(engine, {}).get(kind)
        generation = _generation
    if entry is not None and entry[0] > now:
        return entry[1]
    value = load(session)
    with _lock:
        if generation == _generation:  # no invalidation while loading
            _entries.setdefault(engine, {})[kind] = (now + TTL_SECONDS, value)
    return value


def places(session: Session) -> Places:
    return _cached(session, "places", _load_places)


def allergens(session: Session) -> tuple[IngredientRef, ...]:
    return _cached(session, "allergens", _load_allergens)


def pages(session: Session) -> Mapping[tuple[str, str], PageRef]:
    return _cached(session, "pages", _load_pages)


def faq(session: Session) -> Mapping[str, tuple[FaqRef, ...]]:
    return _cached(session, "faq", _load_faq)


# --- invalidation on commit -------------------------------------------------------------------

_WRITES = WriteWatch("reference", REFERENCE_MODELS)


@event.listens_for(OrmSession, "after_commit")
def _invalidate_after_commit(session: OrmSession) -> None:
    if _WRITES.take(session):
        invalidate()
