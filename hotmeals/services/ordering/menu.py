"""The menu a parent books from: the day's meals for a child with their prices and allergy
marking (GetMenu), one meal in full (MenuDetail), the vendors' add-ons (AddsOn), a portion's
price tiers.

Ownership: every call that takes a child id goes through ``children.own_child``. Each call
runs a fixed number of statements whatever the number of meals, portions or allergens (joins
and one ``IN`` query per related table); ``tests/api/test_menu_api.py`` counts them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from sqlalchemy import bindparam, func
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import (
    CartLine,
    Meal,
    MealOption,
    MenuOption,
    Portion,
    PriceTier,
    Vendor,
)
from hotmeals.domain.allergy import MealVerdict
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.pricing import PriceTier as TierRule
from hotmeals.i18n import t
from hotmeals.services import menu_cache
from hotmeals.services.children import as_id, own_child
from hotmeals.services.menu_cache import PortionPrices
from hotmeals.services.ordering.allergens import (
    ADDON,
    MEAL,
    MEAL_OPTION,
    MENU_OPTION,
    ItemAllergy,
    Items,
    empty_item,
    item_allergies,
)
from hotmeals.services.ordering.days import (
    cutoff_state,
    meal_date,
    open_days_or_refuse,
)
from hotmeals.services.ordering.labels import is_french

NUTRITION = (
    # (column, key, unit)
    ("calories", "calories", ""),
    ("fat_g", "fat", "g"),
    ("saturated_fat_g", "saturated_fat", "g"),
    ("trans_fat_g", "trans_fat", "g"),
    ("cholesterol_mg", "cholesterol", "mg"),
    ("sodium_mg", "sodium", "mg"),
    ("carbohydrate_g", "carbohydrate", "g"),
    ("potassium_mg", "potassium", "mg"),
    ("fibre_g", "fibres", "g"),
    ("sugars_g", "sugars", "g"),
    ("protein_g", "protein", "g"),
    ("vitamin_a_pct", "vitamin_a", "%"),
    ("vitamin_c_pct", "vitamin_c", "%"),
    ("calcium_pct", "calcium", "%"),
    ("iron_pct", "iron", "%"),
)


def portions_of(session: Session, meal_ids: Iterable[int]) -> dict[int, list[PortionPrices]]:
    """The meals' portions with their price tiers, small first (the menus' cached copy)."""
    cached = menu_cache.catalog(session).portions
    return {meal_id: list(cached.get(meal_id, ())) for meal_id in sorted(set(meal_ids))}


def tiers_of(session: Session, portion_ids: Iterable[int | None]) -> dict[int, list[TierRule]]:
    """The price tiers of each portion, smallest quantity first (the menus' cached copy)."""
    cached = menu_cache.catalog(session).tiers
    return {k: list(cached[k]) for k in {k for k in portion_ids if k is not None} if k in cached}


def portion_out(portion: PortionPrices, lang: str) -> dict:
    label_key = f"portion_{portion.size}" if portion.size in ("small", "large") else ""
    return {
        "id": portion.portion_id,
        "size": portion.size,
        "label": t(label_key, lang) if label_key else portion.size,
        "unit_price_cents": portion.tiers[0].unit_price_cents,
        "price": format_money(portion.tiers[0].unit_price_cents, lang),
        "tiers": [
            {
                "min_quantity": tier.min_quantity,
                "unit_price_cents": tier.unit_price_cents,
                "price": format_money(tier.unit_price_cents, lang),
            }
            for tier in portion.tiers
        ],
    }


# Built once (statements built per call cost more CPU than SQLite takes to run them): how
# many of each meal the parent's cart holds for a child on some menu days.
_IN_CART_BY_MEAL = (
    select(col(CartLine.menu_day_id), col(CartLine.meal_id), func.sum(col(CartLine.quantity)))
    .where(
        col(CartLine.parent_id) == bindparam("parent_id"),
        col(CartLine.child_id) == bindparam("child_id"),
        col(CartLine.menu_day_id).in_(bindparam("days", expanding=True)),
    )
    .group_by(col(CartLine.menu_day_id), col(CartLine.meal_id))
)


def get_menu(
    *,
    session: Session,
    parent_id: int,
    child_id: object,
    date: object,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """The meals the child's school serves on ``date``, each with its portions and prices and
    its allergy marking for the child, its options' and add-ons' allergens (``extras``) and how
    many of it are in the parent's cart for the child that day. The menu from its cached copy
    (``services/menu_cache``); five statements whatever the number of meals."""
    child = own_child(session, parent_id=parent_id, child_id=child_id)
    day = meal_date(date)
    now = now or clock.now()
    open_days = open_days_or_refuse(session, school_id=child.school_id, day=day, lang=lang)
    by_day = {d.id: (d, v) for d, v in open_days}
    served = menu_cache.catalog(session).school_days(session, child.school_id).meals
    rows = [
        (menu_day_id, meal)
        for menu_day_id in sorted(k for k in by_day if k is not None)
        for meal in served.get(menu_day_id, ())
        if meal.is_active
    ]
    meal_ids = [meal.id for _, meal in rows if meal.id is not None]
    portions = portions_of(session, meal_ids)
    items = item_allergies(
        session,
        lang=lang,
        child_ids=[child.id] if child.id is not None else [],
        meal_ids=meal_ids,
        options_of_meals=meal_ids,
        addons_of_vendors=[v.id for _, v in open_days if v.id is not None],
    )
    extras_of = _extras_by_owner(items, child.id)
    in_cart: dict[tuple[int, int], int] = {}
    if rows:  # the child's meals already in the parent's cart that day, one statement
        asked = {"parent_id": parent_id, "child_id": child.id, "days": list(by_day)}
        for menu_day_id, meal_id, quantity in session.execute(_IN_CART_BY_MEAL, asked).all():
            in_cart[(menu_day_id, meal_id)] = int(quantity or 0)
    french = is_french(lang)
    meals = []
    for menu_day_id, meal in rows:
        menu_day, vendor = by_day[menu_day_id]
        assert meal.id is not None and vendor.id is not None  # read from the database
        closes, before_cutoff = cutoff_state(vendor, day, now)
        sizes = portions.get(meal.id, [])
        if not sizes:
            continue  # a meal without a price cannot be sold
        cheapest = min(p.tiers[0].unit_price_cents for p in sizes)
        own = items.get((MEAL, meal.id)) or empty_item(MEAL, meal.id, meal.id, "")
        extras = extras_of.get((MEAL, meal.id), []) + extras_of.get((ADDON, vendor.id), [])
        meals.append(
            {
                "menu_day_id": menu_day_id,
                "vendor_id": vendor.id,
                "vendor": vendor.name,
                "meal_id": meal.id,
                **_meal_words(meal, french),
                "price_from_cents": cheapest,
                "price_from": format_money(cheapest, lang),
                "portions": [portion_out(p, lang) for p in sizes],
                "allergens": list(own.allergens),
                "allergy": own.mark(child.id, lang),
                "extras": extras,
                "extras_allergens": sorted({n for e in extras for n in e["allergens"]}),
                "in_cart_quantity": in_cart.get((menu_day_id, meal.id), 0),
                "cutoff_at": closes,
                "is_open": before_cutoff,
            }
        )
    return {"child_id": child.id, "date": day.isoformat(), "meals": meals}


def _meal_words(meal: Meal, french: bool) -> dict[str, str]:
    """A meal's name and description in the parent's language, and its picture."""
    return {
        "name": meal.name_fr if french else meal.name_en,
        "description": meal.description_fr if french else meal.description_en,
        "image": meal.image,
    }


def _extras_by_owner(items: Items, child_id: int | None) -> dict[tuple[str, int], list[dict]]:
    """The card's extras: the options of each meal (key ``(MEAL, meal id)``) and the add-ons
    of each vendor (key ``(ADDON, vendor id)``) that carry an allergen, options first."""
    out: dict[tuple[str, int], list[dict]] = {}
    order = {MENU_OPTION: 0, MEAL_OPTION: 1, ADDON: 2}
    for item in sorted(
        (i for i in items.values() if i.kind != MEAL),
        key=lambda i: (order[i.kind], i.name, i.item_id),
    ):
        owner = (ADDON if item.kind == ADDON else MEAL, item.owner_id)
        out.setdefault(owner, []).append(
            {
                "kind": item.kind,
                "id": item.item_id,
                "name": item.name,
                "allergens": list(item.allergens),
                "verdict": item.mark(child_id, "en")["verdict"],
            }
        )
    return out


def _marked(item: ItemAllergy | None, child_id: int | None, lang: str) -> dict:
    """An option's or add-on's allergens and, with a child, its AllergyMark."""
    if item is None:
        return {"allergens": [], "allergy": _SAFE_MARK if child_id else None}
    return {
        "allergens": list(item.allergens),
        "allergy": item.mark(child_id, lang) if child_id else None,
    }


_SAFE_MARK = {"verdict": MealVerdict.SAFE.value, "allergens": [], "message": "", "levels": []}


def _addons(
    session: Session,
    vendor_ids: Sequence[int] | None,
    lang: str,
    items: Items | None = None,
    child_id: int | None = None,
) -> list[dict]:
    """The active add-ons (of ``vendor_ids``) with their allergens: ``items`` when the caller
    read them already, else one more statement (the add-ons from the menus' cached copy)."""
    of_vendor = menu_cache.catalog(session).addons_of_vendor
    vendors = sorted(of_vendor if vendor_ids is None else set(vendor_ids))
    rows = [a for vendor_id in vendors for a in of_vendor.get(vendor_id, ())]
    if items is None:
        items = item_allergies(
            session,
            lang=lang,
            child_ids=[child_id] if child_id else [],
            addon_ids=[a.id for a in rows if a.id is not None],
        )
    french = is_french(lang)
    return [
        {
            "id": a.id,
            "vendor_id": a.vendor_id,
            "name": a.name_fr if french else a.name_en,
            "price_cents": a.price_cents,
            "price": format_money(a.price_cents, lang),
            "image": a.image,
            **_marked(items.get((ADDON, a.id or 0)), child_id, lang),
        }
        for a in rows
    ]


def _options(
    session: Session,
    model: type[MenuOption] | type[MealOption],
    meal_id: int,
    lang: str,
    items: Items | None = None,
    child_id: int | None = None,
) -> list[dict]:
    french = is_french(lang)
    kind = MENU_OPTION if model is MenuOption else MEAL_OPTION
    rows = menu_cache.catalog(session).options_of_meal.get((kind, meal_id), ())
    return [
        {
            "id": o.id,
            "name": o.name_fr if french else o.name_en,
            "price_cents": o.price_cents,
            "price": format_money(o.price_cents, lang),
            **_marked((items or {}).get((kind, o.id or 0)), child_id, lang),
        }
        for o in rows
    ]


def active_meal(session: Session, meal_id: object) -> tuple[Meal, Vendor]:
    """An active meal and its vendor (the menus' cached copy), or 'meal not found'."""
    key = as_id(meal_id, "meal_id", "meal_not_found", "meal_not_found")
    menus = menu_cache.catalog(session)
    meal = menus.meals.get(key)
    if meal is None or not meal.is_active:
        raise DomainError("meal_not_found", field="meal_id")
    return meal, menus.vendors[meal.vendor_id]


def menu_detail(
    *,
    session: Session,
    parent_id: int,
    meal_id: object,
    child_id: object = None,
    lang: str = "en",
) -> dict:
    """One meal in full: the 15 nutrition facts, ingredients, cooking method, allergens (marked
    for ``child_id`` when given), sizes with tiers, menu and meal options, the vendor's add-ons.
    The meal from the menus' cached copy (``services/menu_cache``); four statements at most."""
    child = own_child(session, parent_id=parent_id, child_id=child_id) if child_id else None
    meal, vendor = active_meal(session, meal_id)
    assert meal.id is not None and vendor.id is not None  # rows read from the database
    french = is_french(lang)
    child_key = child.id if child else None
    items = item_allergies(
        session,
        lang=lang,
        child_ids=[child_key] if child_key else [],
        meal_ids=[meal.id],
        options_of_meals=[meal.id],
        addons_of_vendors=[vendor.id],
    )
    own = items.get((MEAL, meal.id)) or empty_item(MEAL, meal.id, meal.id, meal.name_en)
    sizes = portions_of(session, [meal.id]).get(meal.id, [])
    return {
        "meal_id": meal.id,
        "vendor_id": vendor.id,
        "vendor": vendor.name,
        **_meal_words(meal, french),
        "ingredients": meal.ingredients_fr if french else meal.ingredients_en,
        "cooking_method": meal.cooking_method_fr if french else meal.cooking_method_en,
        "nutrition": [
            {
                "key": key,
                "label": t(f"nutrition_{key}", lang),
                "value": float(getattr(meal, column)),
                "unit": unit,
            }
            for column, key, unit in NUTRITION
        ],
        "allergens": list(own.allergens),
        "allergy": own.mark(child_key, lang) if child else None,
        "portions": [portion_out(p, lang) for p in sizes],
        "menu_options": _options(session, MenuOption, meal.id, lang, items, child_key),
        "meal_options": _options(session, MealOption, meal.id, lang, items, child_key),
        "addons": _addons(session, [vendor.id], lang, items, child_key),
    }


def list_addons(
    *,
    session: Session,
    vendor_id: object = None,
    lang: str = "en",
    parent_id: int | None = None,
    child_id: object = None,
) -> list[dict]:
    """The active add-ons, of one vendor when ``vendor_id`` is given, each with its allergens
    and, for ``child_id`` (one of ``parent_id``'s children), its AllergyMark (from the menus'
    cached copy; one statement more with a child)."""
    child_key = None
    if child_id not in (None, "", 0, "0"):
        if parent_id is None:
            raise DomainError("child_not_found", field="child_id")
        child_key = own_child(session, parent_id=parent_id, child_id=child_id).id
    if vendor_id is None or (isinstance(vendor_id, str) and not vendor_id.strip()):
        return _addons(session, None, lang, child_id=child_key)
    key = as_id(vendor_id, "vendor_id", "vendor_not_found", "vendor_not_found")
    return _addons(session, [key], lang, child_id=child_key)


def price_tiers(*, session: Session, portion_id: object, lang: str = "en") -> dict:
    """A portion's size and price tiers: one statement."""
    key = as_id(portion_id, "portion_id", "portion_not_found", "portion_not_found")
    rows = session.exec(
        select(Portion, PriceTier)
        .join(PriceTier, col(PriceTier.portion_id) == Portion.id)
        .join(Meal, col(Meal.id) == Portion.meal_id)
        .where(Portion.id == key, Meal.is_active)
        .order_by(col(PriceTier.min_quantity))
    ).all()
    if not rows:
        raise DomainError("portion_not_found", field="portion_id")
    portion = rows[0][0]
    assert portion.id is not None  # read from the database
    tiers = tuple(TierRule(tier.min_quantity, tier.unit_price_cents) for _, tier in rows)
    out = portion_out(PortionPrices(portion.id, portion.meal_id, portion.size, tiers), lang)
    return {"meal_id": portion.meal_id, **out}
