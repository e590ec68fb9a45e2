"""The menus' reference data - meals, menu and meal options, add-ons, the allergens and dietary
marks of each, portions and their price tiers - read from a per-process copy that every write
invalidates on every worker at once.

The lunch rush reads the same few meals thousands of times an evening, and an operator changes
them a few times a week. So each process keeps one immutable ``Catalog`` per engine, tagged
with the version it was read at; the version lives in the database (``CacheVersion``, the row
``menu``), not in a worker's memory:

- a transaction that writes any of these tables through the ORM (rows added, changed or
  deleted, or an ORM ``update()``/``delete()``/``insert()``) bumps the row in that same
  transaction, just before it commits; ``bump()`` is there for writes the ORM cannot see;
- a read takes the version once per transaction (one primary-key lookup) and uses the copy
  only when it was read at that version, so the very next call on any worker after a commit
  sees the change;
- a transaction holding its own uncommitted changes to these tables reads them from the
  database and caches nothing (a rolled-back edit never reaches other callers).

The copy holds no child's data: a child's allergies are read per call and matched against the
cached allergens (``ordering.allergens.item_allergies``), so the allergy rule is exactly as
before; likewise a child's dietary needs against the cached marks (``diets``). The calendar
(each school's menu days: served, closed and why, the vendor and its cut-off rule) is part of
the copy, read per school the first time it is asked for; whether a cut-off has passed is always
decided against ``clock.now()`` at the call."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Session, col, select

from hotmeals.db.models import (
    AddOn,
    AddOnAllergen,
    AddOnDiet,
    AllergenIngredient,
    CacheVersion,
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
    Portion,
    PriceTier,
    Vendor,
)
from hotmeals.domain.diet import Diet
from hotmeals.domain.pricing import PortionSize
from hotmeals.domain.pricing import PriceTier as TierRule
from hotmeals.services.write_watch import WriteWatch

T = TypeVar("T")

MENU = "menu"
MENU_MODELS: tuple[type, ...] = (
    Vendor,
    Meal,
    MealAllergen,
    Portion,
    PriceTier,
    MenuOption,
    MenuOptionAllergen,
    MealOption,
    MealOptionAllergen,
    AddOn,
    AddOnAllergen,
    AllergenIngredient,
    MenuDay,
    MenuDayMeal,
    MealDiet,
    MenuOptionDiet,
    MealOptionDiet,
    AddOnDiet,
)
_VERSION = "hotmeals.menu_version"

# The kinds of item that carry allergens (the same strings as ``ordering.allergens``).
MEAL, MENU_OPTION, MEAL_OPTION, ADDON = "meal", "menu_option", "meal_option", "addon"


@dataclass(frozen=True, slots=True)
class Allergen:
    ingredient_id: int
    name_en: str
    name_fr: str


@dataclass(frozen=True, slots=True)
class ItemRef:
    """A meal, option or add-on that carries at least one allergen. ``owner_id``: the meal of
    an option, the vendor of an add-on, the meal itself for a meal."""

    kind: str
    item_id: int
    owner_id: int
    name_en: str
    name_fr: str
    is_active: bool
    allergens: tuple[Allergen, ...]  # by English name, then ingredient id


@dataclass(frozen=True, slots=True)
class PortionPrices:
    portion_id: int
    meal_id: int
    size: str
    tiers: tuple[TierRule, ...]  # smallest quantity first


@dataclass(frozen=True, slots=True)
class SchoolDays:
    """A school's menu days (every date, every vendor) and the meals each serves."""

    at: Mapping[date, tuple[tuple[MenuDay, Vendor], ...]]  # by vendor name
    by_id: Mapping[int, tuple[MenuDay, Vendor]]
    meals: Mapping[int, tuple[Meal, ...]]  # menu day id -> its meals (active or not), by name


@dataclass(frozen=True)
class Catalog:
    """The menus as of one version. The rows are detached ORM objects shared by every thread:
    read them, never change them or add them to a session. A school's days are read the first
    time one of its days is asked for, at this version (``school_days``)."""

    vendors: Mapping[int, Vendor]
    meals: Mapping[int, Meal]
    menu_options: Mapping[int, MenuOption]
    meal_options: Mapping[int, MealOption]
    options_of_meal: Mapping[tuple[str, int], tuple[MenuOption | MealOption, ...]]  # by id
    addons: Mapping[int, AddOn]
    addons_of_vendor: Mapping[int, tuple[AddOn, ...]]  # active ones, by English name
    items: Mapping[tuple[str, int], ItemRef]
    items_of_owner: Mapping[tuple[str, int], tuple[ItemRef, ...]]  # (kind, owner) -> items
    diets: Mapping[tuple[str, int], frozenset[Diet]]  # (kind, item id) -> its stored marks
    portions: Mapping[int, tuple[PortionPrices, ...]]  # meal id -> portions, small first
    portion_rows: Mapping[int, tuple[tuple[Portion, tuple[TierRule, ...]], ...]]  # by meal
    tiers: Mapping[int, tuple[TierRule, ...]]  # portion id -> tiers
    portion_by_id: Mapping[int, Portion]  # every portion, priced or not
    _schools: dict[int, SchoolDays] = field(default_factory=dict)

    def school_days(self, session: Session, school_id: int) -> SchoolDays:
        found = self._schools.get(school_id)
        if found is None:
            found = self._schools[school_id] = _detached(session, _load_school, school_id)
        return found


def _detached(session: Session, load: Callable[..., T], *args: Any) -> T:
    """``load(reader, *args)`` in ``session``'s transaction through a session of its own, so
    the rows it answers are detached (never in ``session``'s identity map) and fully loaded."""
    reader = Session(bind=session.connection(), expire_on_commit=False, autoflush=False)
    try:
        return load(reader, *args)
    finally:
        reader.close()


# --- the loaders ------------------------------------------------------------------------------


_ITEM_SPECS: tuple[tuple[str, Any, Any, Any, Any], ...] = (
    (MEAL, Meal, MealAllergen, MealAllergen.meal_id, Meal.id),
    (MENU_OPTION, MenuOption, MenuOptionAllergen, MenuOptionAllergen.menu_option_id, None),
    (MEAL_OPTION, MealOption, MealOptionAllergen, MealOptionAllergen.meal_option_id, None),
    (ADDON, AddOn, AddOnAllergen, AddOnAllergen.addon_id, AddOn.vendor_id),
)


def _load(session: Session) -> Catalog:
    """Fifteen statements (the dietary marks one per table), once per version and process."""
    vendors = {v.id: v for v in session.exec(select(Vendor)).all() if v.id is not None}
    meals = {m.id: m for m in session.exec(select(Meal)).all() if m.id is not None}
    menu_options = {o.id: o for o in session.exec(select(MenuOption)).all() if o.id is not None}
    meal_options = {o.id: o for o in session.exec(select(MealOption)).all() if o.id is not None}
    addons = {a.id: a for a in session.exec(select(AddOn)).all() if a.id is not None}
    options: dict[tuple[str, int], list[MenuOption | MealOption]] = {}
    for kind, rows in ((MENU_OPTION, menu_options), (MEAL_OPTION, meal_options)):
        for key in sorted(rows):
            options.setdefault((kind, rows[key].meal_id), []).append(rows[key])
    of_vendor: dict[int, list[AddOn]] = {}
    for addon in sorted(addons.values(), key=lambda a: (a.name_en, a.id or 0)):
        if addon.is_active:
            of_vendor.setdefault(addon.vendor_id, []).append(addon)
    items = _load_items(session)
    by_owner: dict[tuple[str, int], list[ItemRef]] = {}
    for ref in items.values():
        by_owner.setdefault((ref.kind, ref.owner_id), []).append(ref)
    portion_rows, tiers, portion_by_id = _load_portions(session)
    return Catalog(
        vendors=MappingProxyType(vendors),
        meals=MappingProxyType(meals),
        menu_options=MappingProxyType(menu_options),
        meal_options=MappingProxyType(meal_options),
        options_of_meal=MappingProxyType({k: tuple(v) for k, v in options.items()}),
        addons=MappingProxyType(addons),
        addons_of_vendor=MappingProxyType({k: tuple(v) for k, v in of_vendor.items()}),
        items=MappingProxyType(items),
        diets=MappingProxyType(_load_diets(session)),
        items_of_owner=MappingProxyType(
            {k: tuple(sorted(v, key=lambda r: r.item_id)) for k, v in by_owner.items()}
        ),
        portions=MappingProxyType(
            {
                meal_id: tuple(
                    sorted(
                        (PortionPrices(p.id or 0, meal_id, p.size, t) for p, t in found),
                        key=lambda p: (p.size != PortionSize.SMALL, p.portion_id),
                    )
                )
                for meal_id, found in portion_rows.items()
            }
        ),
        portion_rows=MappingProxyType({k: tuple(v) for k, v in portion_rows.items()}),
        tiers=MappingProxyType(tiers),
        portion_by_id=MappingProxyType(portion_by_id),
    )


def _load_items(session: Session) -> dict[tuple[str, int], ItemRef]:
    """Every meal, option and add-on that carries an allergen, with its allergens."""
    found: dict[tuple[str, int], dict[str, Any]] = {}
    for kind, item, link, link_id, owner in _ITEM_SPECS:
        owner_column = owner if owner is not None else item.meal_id
        active = item.is_active if hasattr(item, "is_active") else True
        rows = session.execute(
            select(  # type: ignore[call-overload]
                item.id,
                owner_column,
                item.name_en,
                item.name_fr,
                active,
                col(AllergenIngredient.id),
                col(AllergenIngredient.name_en),
                col(AllergenIngredient.name_fr),
            )
            .select_from(item)
            .join(link, link_id == item.id)
            .join(AllergenIngredient, col(AllergenIngredient.id) == link.ingredient_id)
        ).all()
        for item_id, owner_id, name_en, name_fr, is_active, ing_id, ing_en, ing_fr in rows:
            entry = found.setdefault(
                (kind, item_id),
                {
                    "kind": kind,
                    "item_id": item_id,
                    "owner_id": owner_id,
                    "name_en": name_en,
                    "name_fr": name_fr,
                    "is_active": bool(is_active),
                    "allergens": [],
                },
            )
            entry["allergens"].append(Allergen(ing_id, ing_en, ing_fr))
    for entry in found.values():
        entry["allergens"] = tuple(
            sorted(entry["allergens"], key=lambda a: (a.name_en, a.ingredient_id))
        )
    return {key: ItemRef(**entry) for key, entry in found.items()}


_DIET_SPECS: tuple[tuple[str, Any, Any], ...] = (
    (MEAL, MealDiet, MealDiet.meal_id),
    (MENU_OPTION, MenuOptionDiet, MenuOptionDiet.menu_option_id),
    (MEAL_OPTION, MealOptionDiet, MealOptionDiet.meal_option_id),
    (ADDON, AddOnDiet, AddOnDiet.addon_id),
)


def _load_diets(session: Session) -> dict[tuple[str, int], frozenset[Diet]]:
    """Every item's stored dietary marks (a code that is no longer a mark is left out): one
    statement per table. An item without a row carries no mark."""
    found: dict[tuple[str, int], set[Diet]] = {}
    known = {d.value for d in Diet}
    for kind, model, item_id in _DIET_SPECS:
        for key, code in session.execute(select(item_id, model.diet)).all():
            if code in known:
                found.setdefault((kind, key), set()).add(Diet(code))
    return {key: frozenset(marks) for key, marks in found.items()}


def _load_portions(
    session: Session,
) -> tuple[
    dict[int, list[tuple[Portion, tuple[TierRule, ...]]]],
    dict[int, tuple[TierRule, ...]],
    dict[int, Portion],
]:
    """The portions that have a price (with their tiers, by meal), the tiers by portion, and
    every portion by id."""
    rows = session.exec(
        select(Portion, PriceTier)
        .outerjoin(PriceTier, col(PriceTier.portion_id) == Portion.id)
        .order_by(col(Portion.meal_id), col(Portion.id), col(PriceTier.min_quantity))
    ).all()
    heads: dict[int, Portion] = {}
    tiers: dict[int, list[TierRule]] = {}
    for portion, tier in rows:
        assert portion.id is not None
        heads[portion.id] = portion
        if tier is not None:
            tiers.setdefault(portion.id, []).append(
                TierRule(tier.min_quantity, tier.unit_price_cents)
            )
    by_meal: dict[int, list[tuple[Portion, tuple[TierRule, ...]]]] = {}
    for key, portion in heads.items():
        if key in tiers:
            by_meal.setdefault(portion.meal_id, []).append((portion, tuple(tiers[key])))
    return by_meal, {k: tuple(v) for k, v in tiers.items()}, heads


def _load_school(session: Session, school_id: int) -> SchoolDays:
    """A school's menu days with their vendors, and their meals: two statements."""
    days = session.exec(
        select(MenuDay, Vendor)
        .join(Vendor, col(Vendor.id) == MenuDay.vendor_id)
        .where(MenuDay.school_id == school_id)
        .order_by(col(MenuDay.meal_date), col(Vendor.name), col(MenuDay.id))
    ).all()
    at: dict[date, list[tuple[MenuDay, Vendor]]] = {}
    by_id: dict[int, tuple[MenuDay, Vendor]] = {}
    for menu_day, vendor in days:
        assert menu_day.id is not None
        by_id[menu_day.id] = (menu_day, vendor)
        at.setdefault(menu_day.meal_date, []).append((menu_day, vendor))
    meals: dict[int, list[Meal]] = {}
    for menu_day_id, meal in session.exec(
        select(col(MenuDayMeal.menu_day_id), Meal)
        .join(Meal, col(Meal.id) == MenuDayMeal.meal_id)
        .join(MenuDay, col(MenuDay.id) == MenuDayMeal.menu_day_id)
        .where(MenuDay.school_id == school_id)
        .order_by(col(MenuDayMeal.menu_day_id), col(Meal.name_en), col(Meal.id))
    ).all():
        meals.setdefault(menu_day_id, []).append(meal)
    return SchoolDays(
        at=MappingProxyType({k: tuple(v) for k, v in at.items()}),
        by_id=MappingProxyType(by_id),
        meals=MappingProxyType({k: tuple(v) for k, v in meals.items()}),
    )


# --- the version and the cache ----------------------------------------------------------------

_lock = threading.Lock()
_entries: weakref.WeakKeyDictionary[Engine, tuple[int, Catalog]] = weakref.WeakKeyDictionary()
loads = 0  # how many times this process read the catalog (the tests watch it)


# Built once (statements built per call cost more CPU than SQLite takes to run them).
_VERSION_OF_MENU = select(CacheVersion.version).where(CacheVersion.name == MENU)


def version(session: Session) -> int:
    """The menu data's version in the database: read once per transaction."""
    known = session.info.get(_VERSION)
    if known is None:
        found = session.execute(_VERSION_OF_MENU).scalar_one_or_none()
        known = session.info[_VERSION] = int(found or 0)
    return int(known)


def bump(session: Session) -> None:
    """Count one more version of the menu data, in ``session``'s transaction (every worker's
    copy is then stale once it commits): for writes the ORM does not see (raw SQL)."""
    session.execute(_bump_statement(session))
    session.info.pop(_VERSION, None)


def catalog(session: Session) -> Catalog:
    """The menus' reference data as of the database's current version."""
    if _WRITES.pending(session):
        session.flush()  # this transaction's own edits: read fresh, and never shared
        return _detached(session, _load)
    global loads
    engine = session.get_bind().engine
    current = version(session)
    with _lock:
        entry = _entries.get(engine)
    if entry is not None and entry[0] == current:
        return entry[1]
    value = _detached(session, _load)
    with _lock:
        loads += 1
        stored = _entries.get(engine)
        if stored is None or stored[0] <= current:
            _entries[engine] = (current, value)
    return value


def forget() -> None:
    """Drop every process copy (tests; the next read loads again)."""
    with _lock:
        _entries.clear()


# --- the bump, in the writing transaction -----------------------------------------------------

_WRITES = WriteWatch("menu", MENU_MODELS)


@event.listens_for(OrmSession, "before_commit")
def _bump_before_commit(session: OrmSession) -> None:
    if _WRITES.unflushed(session):
        session.flush()  # pending rows: flushed now, so the bump commits with them
    if _WRITES.take(session):
        session.execute(_bump_statement(session))
        session.info.pop(_VERSION, None)


def _bump_statement(session: OrmSession) -> Any:
    """An upsert (one statement, safe when two writers race; the row may be missing in a
    database made by ``create_all``)."""
    insert: Callable[..., Any] = (
        pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    )
    return (
        insert(CacheVersion)
        .values(name=MENU, version=1)
        .on_conflict_do_update(
            index_elements=[col(CacheVersion.name)],
            set_={"version": CacheVersion.version + 1},
        )
    )


@event.listens_for(OrmSession, "after_commit")
@event.listens_for(OrmSession, "after_rollback")
def _forget_version(session: OrmSession) -> None:
    session.info.pop(_VERSION, None)
