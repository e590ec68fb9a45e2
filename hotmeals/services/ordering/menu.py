"""The menu a parent books from: the day's meals for a child with their prices, allergy
marking and dietary marks (and whether each fits the child's needs) (GetMenu), one meal in full
(MenuDetail), the vendors' add-ons (AddsOn), a portion's price tiers.

Ownership: every call that takes a child id goes through ``children.own_child``. Each call
runs a fixed number of statements whatever the number of meals, portions or allergens (joins
and one ``IN`` query per related table); ``tests/api/test_menu_api.py`` counts them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

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
from hotmeals.domain import diet
from hotmeals.domain.allergy import MealVerdict
from hotmeals.domain.diet import Diet
from hotmeals.domain.errors import DomainError
from hotmeals.domain.pricing import PriceTier as TierRule
from hotmeals.services import menu_cache
from hotmeals.services.children import child_diets, own_child
from hotmeals.services.menu_cache import PortionPrices
from hotmeals.services.ordering.allergens import (
    ADDON,
    MEAL,
    MEAL_OPTION,
    MENU_OPTION,
    SAFE_MARK,
    AllergyMark,
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
from hotmeals.services.ordering.diets import DietFit, fit, item_marks, shown
from hotmeals.services.ordering.labels import is_french


@dataclass(frozen=True)
class Extra:
    """An option of a meal, or an add-on of its vendor, that carries an allergen: its
    allergens and its verdict for the child."""

    kind: str  # MENU_OPTION, MEAL_OPTION or ADDON
    id: int
    name: str
    allergens: tuple[str, ...]
    verdict: MealVerdict


@dataclass(frozen=True)
class MenuMeal:
    """A meal of the day's menu for a child (``get_menu``)."""

    menu_day_id: int
    vendor_id: int
    vendor: str
    meal_id: int
    name: str  # in the parent's language, as the description
    description: str
    image: str
    price_from_cents: int  # the cheapest size's first tier
    portions: tuple[PortionPrices, ...]  # small first
    allergens: tuple[str, ...]  # the meal's own
    allergy: AllergyMark  # the meal's own verdict for the child
    extras: tuple[Extra, ...]  # its options', then its vendor's add-ons', with an allergen
    extras_allergens: tuple[str, ...]  # every allergen of the extras, sorted
    in_cart_quantity: int  # of this meal in the parent's cart for the child that day
    cutoff_at: datetime
    is_open: bool  # before the cut-off
    diets: tuple[Diet, ...] = ()  # the meal's own marks with the ones they imply
    diet: DietFit | None = None  # the meal's fit for the child's needs (None: no needs)

    @property
    def safe_for_child(self) -> bool:
        """It fits the child's diet (or the child has no needs) and the child may have it (no
        Major allergen: its own verdict is not refused): what the "Safe for Emma" filter keeps.
        A Low, Medium or High allergen stays shown, with its mark and its rule at the add."""
        fits = self.diet is None or self.diet.fits
        return fits and self.allergy.verdict is not MealVerdict.REFUSED


@dataclass(frozen=True)
class DayMenu:
    """The meals a child's school serves on a day (``get_menu``)."""

    child_id: int
    day: date
    meals: tuple[MenuMeal, ...]
    needs: tuple[Diet, ...] = ()  # the child's dietary needs, in ``diet.DIETS`` order


@dataclass(frozen=True)
class Nutrient:
    """One of a meal's 15 nutrition facts (``NUTRITION``'s key and unit)."""

    key: str
    value: float
    unit: str


@dataclass(frozen=True)
class OptionView:
    """A menu or meal option of a meal: its price, allergens and, with a child, its mark."""

    id: int
    name: str
    price_cents: int
    allergens: tuple[str, ...]
    allergy: AllergyMark | None  # None without a child
    diets: tuple[Diet, ...] = ()  # its own marks with the ones they imply
    diet: DietFit | None = None  # its fit for the child's needs (None: no child, no needs)


@dataclass(frozen=True)
class AddOnView:
    """An active add-on of a vendor: its price, picture, allergens and, with a child, its
    mark."""

    id: int
    vendor_id: int
    name: str
    price_cents: int
    image: str
    allergens: tuple[str, ...]
    allergy: AllergyMark | None  # None without a child
    diets: tuple[Diet, ...] = ()  # its own marks with the ones they imply
    diet: DietFit | None = None  # its fit for the child's needs (None: no child, no needs)


@dataclass(frozen=True)
class MealDetail:
    """One meal in full (``menu_detail``)."""

    meal_id: int
    vendor_id: int
    vendor: str
    name: str
    description: str
    image: str
    ingredients: str
    cooking_method: str
    nutrition: tuple[Nutrient, ...]  # NUTRITION's order
    allergens: tuple[str, ...]
    allergy: AllergyMark | None  # None without a child
    portions: tuple[PortionPrices, ...]  # small first
    menu_options: tuple[OptionView, ...]
    meal_options: tuple[OptionView, ...]
    addons: tuple[AddOnView, ...]
    diets: tuple[Diet, ...] = ()  # the meal's own marks with the ones they imply
    diet: DietFit | None = None  # the meal alone for the child's needs (None: none given)
    needs: tuple[Diet, ...] = ()  # the child's needs (empty without a child)


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
    child_id: int,
    date: str,
    lang: str = "en",
) -> DayMenu:
    """The meals the child's school serves on ``date`` (the client's text: ``meal_date``),
    each with its portions and prices and its allergy marking for the child, its options'
    and add-ons' allergens (``extras``), its dietary marks and their fit for the child's needs,
    and how many of it are in the parent's cart for the child that day. The menu from its
    cached copy (``services/menu_cache``); six statements whatever the number of meals."""
    child = own_child(session, parent_id=parent_id, child_id=child_id)
    assert child.id is not None  # read from the database
    day = meal_date(date)
    now = clock.now()
    open_days = open_days_or_refuse(session, school_id=child.school_id, day=day, lang=lang)
    by_day = {d.id: (d, v) for d, v in open_days}
    menus = menu_cache.catalog(session)
    served = menus.school_days(session, child.school_id).meals
    rows = [
        (menu_day_id, meal)
        for menu_day_id in sorted(k for k in by_day if k is not None)
        for meal in served.get(menu_day_id, ())
        if meal.is_active
    ]
    meal_ids = [meal.id for _, meal in rows if meal.id is not None]
    items = item_allergies(
        session,
        lang=lang,
        child_ids=[child.id],
        meal_ids=meal_ids,
        options_of_meals=meal_ids,
        addons_of_vendors=[v.id for _, v in open_days if v.id is not None],
    )
    extras_of = _extras_by_owner(items, child.id)
    needs = child_diets(session, [child.id]).get(child.id, frozenset())
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
        sizes = tuple(menus.portions.get(meal.id, ()))
        if not sizes:
            continue  # a meal without a price cannot be sold
        own = items.get((MEAL, meal.id)) or empty_item(MEAL, meal.id, meal.id, "")
        extras = extras_of.get((MEAL, meal.id), ()) + extras_of.get((ADDON, vendor.id), ())
        meals.append(
            MenuMeal(
                menu_day_id=menu_day_id,
                vendor_id=vendor.id,
                vendor=vendor.name,
                meal_id=meal.id,
                name=meal.name_fr if french else meal.name_en,
                description=meal.description_fr if french else meal.description_en,
                image=meal.image,
                price_from_cents=min(p.tiers[0].unit_price_cents for p in sizes),
                portions=sizes,
                allergens=tuple(own.allergens),
                allergy=own.mark(child.id, lang),
                extras=extras,
                extras_allergens=tuple(sorted({n for e in extras for n in e.allergens})),
                in_cart_quantity=in_cart.get((menu_day_id, meal.id), 0),
                cutoff_at=closes,
                is_open=before_cutoff,
                diets=shown(item_marks(menus.diets, MEAL, meal.id)),
                diet=fit(needs, item_marks(menus.diets, MEAL, meal.id)),
            )
        )
    return DayMenu(
        child_id=child.id,
        day=day,
        meals=tuple(meals),
        needs=tuple(d for d in diet.DIETS if d in needs),
    )


def _extras_by_owner(
    items: Items, child_id: int | None
) -> dict[tuple[str, int], tuple[Extra, ...]]:
    """The card's extras: the options of each meal (key ``(MEAL, meal id)``) and the add-ons
    of each vendor (key ``(ADDON, vendor id)``) that carry an allergen, options first."""
    out: dict[tuple[str, int], list[Extra]] = {}
    order = {MENU_OPTION: 0, MEAL_OPTION: 1, ADDON: 2}
    for item in sorted(
        (i for i in items.values() if i.kind != MEAL),
        key=lambda i: (order[i.kind], i.name, i.item_id),
    ):
        owner = (ADDON if item.kind == ADDON else MEAL, item.owner_id)
        out.setdefault(owner, []).append(
            Extra(
                kind=item.kind,
                id=item.item_id,
                name=item.name,
                allergens=tuple(item.allergens),
                verdict=item.mark(child_id, "en").verdict,
            )
        )
    return {owner: tuple(extras) for owner, extras in out.items()}


def _mark(item: ItemAllergy | None, child_id: int | None, lang: str) -> AllergyMark | None:
    """An option's or add-on's AllergyMark for the child (None without one)."""
    if not child_id:
        return None
    return item.mark(child_id, lang) if item is not None else SAFE_MARK


def _addons(
    session: Session,
    vendor_ids: Sequence[int] | None,
    lang: str,
    items: Items | None = None,
    child_id: int | None = None,
    needs: frozenset[Diet] = frozenset(),
) -> tuple[AddOnView, ...]:
    """The active add-ons (of ``vendor_ids``) with their allergens: ``items`` when the caller
    read them already, else one more statement (the add-ons from the menus' cached copy)."""
    menus = menu_cache.catalog(session)
    of_vendor = menus.addons_of_vendor
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
    out = []
    for a in rows:
        assert a.id is not None  # read from the database
        item = items.get((ADDON, a.id))
        out.append(
            AddOnView(
                id=a.id,
                vendor_id=a.vendor_id,
                name=a.name_fr if french else a.name_en,
                price_cents=a.price_cents,
                image=a.image,
                allergens=tuple(item.allergens) if item is not None else (),
                allergy=_mark(item, child_id, lang),
                diets=shown(item_marks(menus.diets, ADDON, a.id)),
                diet=fit(needs, item_marks(menus.diets, ADDON, a.id)),
            )
        )
    return tuple(out)


def _options(
    session: Session,
    model: type[MenuOption] | type[MealOption],
    meal_id: int,
    lang: str,
    items: Items,
    child_id: int | None = None,
    needs: frozenset[Diet] = frozenset(),
) -> tuple[OptionView, ...]:
    french = is_french(lang)
    kind = MENU_OPTION if model is MenuOption else MEAL_OPTION
    menus = menu_cache.catalog(session)
    out = []
    for o in menus.options_of_meal.get((kind, meal_id), ()):
        assert o.id is not None  # read from the database
        item = items.get((kind, o.id))
        out.append(
            OptionView(
                id=o.id,
                name=o.name_fr if french else o.name_en,
                price_cents=o.price_cents,
                allergens=tuple(item.allergens) if item is not None else (),
                allergy=_mark(item, child_id, lang),
                diets=shown(item_marks(menus.diets, kind, o.id)),
                diet=fit(needs, item_marks(menus.diets, kind, o.id)),
            )
        )
    return tuple(out)


def active_meal(session: Session, meal_id: int) -> tuple[Meal, Vendor]:
    """An active meal and its vendor (the menus' cached copy), or 'meal not found' (also for
    0)."""
    menus = menu_cache.catalog(session)
    meal = menus.meals.get(meal_id)
    if meal is None or not meal.is_active:
        raise DomainError("meal_not_found", field="meal_id")
    return meal, menus.vendors[meal.vendor_id]


def menu_detail(
    *,
    session: Session,
    parent_id: int,
    meal_id: int,
    child_id: int | None = None,
    lang: str = "en",
) -> MealDetail:
    """One meal in full: the 15 nutrition facts, ingredients, cooking method, allergens (marked
    for ``child_id`` when given), sizes with tiers, menu and meal options, the vendor's add-ons,
    each with its dietary marks and, for a child with needs, whether it fits them.
    The meal from the menus' cached copy (``services/menu_cache``); five statements at most."""
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
    needs = _needs(session, child_key)
    menus = menu_cache.catalog(session)
    return MealDetail(
        meal_id=meal.id,
        vendor_id=vendor.id,
        vendor=vendor.name,
        name=meal.name_fr if french else meal.name_en,
        description=meal.description_fr if french else meal.description_en,
        image=meal.image,
        ingredients=meal.ingredients_fr if french else meal.ingredients_en,
        cooking_method=meal.cooking_method_fr if french else meal.cooking_method_en,
        nutrition=tuple(
            Nutrient(key=key, value=float(getattr(meal, column)), unit=unit)
            for column, key, unit in NUTRITION
        ),
        allergens=tuple(own.allergens),
        allergy=own.mark(child_key, lang) if child else None,
        portions=tuple(menu_cache.catalog(session).portions.get(meal.id, ())),
        menu_options=_options(session, MenuOption, meal.id, lang, items, child_key, needs),
        meal_options=_options(session, MealOption, meal.id, lang, items, child_key, needs),
        addons=_addons(session, [vendor.id], lang, items, child_key, needs),
        diets=shown(item_marks(menus.diets, MEAL, meal.id)),
        diet=fit(needs, item_marks(menus.diets, MEAL, meal.id)),
        needs=tuple(d for d in diet.DIETS if d in needs),
    )


def _needs(session: Session, child_id: int | None) -> frozenset[Diet]:
    """The dietary needs of a child the caller checked (none without one): one statement."""
    if not child_id:
        return frozenset()
    return child_diets(session, [child_id]).get(child_id, frozenset())


def composed_diet(
    detail: MealDetail,
    *,
    menu_option_id: int = 0,
    meal_option_id: int = 0,
    addon_ids: Sequence[int] = (),
) -> DietFit | None:
    """What the diet rule of AddToCart will say about the meal of ``detail`` (``menu_detail``'s
    answer for a child) with these choices (0: none): the needs the meal as composed does not
    meet (None for a child without needs), on the marks the detail carries, no statement."""
    if not detail.needs:
        return None
    parts = [detail.diets]
    parts += [o.diets for o in detail.menu_options if menu_option_id and o.id == menu_option_id]
    parts += [o.diets for o in detail.meal_options if meal_option_id and o.id == meal_option_id]
    parts += [a.diets for a in detail.addons if a.id in set(addon_ids)]
    return fit(frozenset(detail.needs), diet.composed(*parts))


def list_addons(
    *,
    session: Session,
    vendor_id: int | None = None,
    lang: str = "en",
    parent_id: int | None = None,
    child_id: int | None = None,
) -> tuple[AddOnView, ...]:
    """The active add-ons, of one vendor when ``vendor_id`` is given (0, not an id: 'vendor
    not found'), each with its allergens and, for ``child_id`` (one of ``parent_id``'s
    children; 0 is none of them), its AllergyMark and its fit for the child's dietary needs
    (from the menus' cached copy; two statements more with a child)."""
    child_key = None
    if child_id is not None:
        if parent_id is None:
            raise DomainError("child_not_found", field="child_id")
        child_key = own_child(session, parent_id=parent_id, child_id=child_id).id
    if vendor_id is not None and vendor_id < 1:
        raise DomainError("vendor_not_found", field="vendor_id")
    vendors = None if vendor_id is None else [vendor_id]
    return _addons(session, vendors, lang, child_id=child_key, needs=_needs(session, child_key))


def price_tiers(*, session: Session, portion_id: int) -> PortionPrices:
    """A portion of an active meal with its size and price tiers (0, or a portion not sold:
    'portion not found'): one statement."""
    rows = session.exec(
        select(Portion, PriceTier)
        .join(PriceTier, col(PriceTier.portion_id) == Portion.id)
        .join(Meal, col(Meal.id) == Portion.meal_id)
        .where(Portion.id == portion_id, Meal.is_active)
        .order_by(col(PriceTier.min_quantity))
    ).all()
    if not rows:
        raise DomainError("portion_not_found", field="portion_id")
    portion = rows[0][0]
    assert portion.id is not None  # read from the database
    tiers = tuple(TierRule(tier.min_quantity, tier.unit_price_cents) for _, tier in rows)
    return PortionPrices(portion.id, portion.meal_id, portion.size, tiers)
