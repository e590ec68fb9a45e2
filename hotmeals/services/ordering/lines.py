"""The rules of adding a meal for a child: ONE ``check_line`` for every door that adds a line
(AddToCart, Book meal many days at once, Repeat last week, a change adding a meal to an order,
a standing order's date).

``load_batch`` loads everything a set of requests names in a fixed number of statements,
``check_line`` applies every rule to one request against that batch (raising the DomainError
that says why not, always in the same order), ``insert_lines`` writes the accepted lines as
cart lines in two statements. A line stores only ids, a quantity, the note and the allergy
acknowledgement: prices, options and add-ons are read from the database, never taken from the
client, and priced with ``domain.pricing.price_line``. A meal that does not fit the child's
dietary needs is added only with ``diet_ack`` (``domain.diet.ensure_can_add``, after the
allergy rule); nothing of it is stored: a diet is a preference, not a safety rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Required, TypedDict

from sqlalchemy import and_, bindparam, func, insert
from sqlmodel import Session, col, select

from hotmeals.db.models import (
    AddOn,
    CartLine,
    CartLineAddOn,
    Child,
    ChildSchoolYear,
    Meal,
    MealOption,
    MenuDay,
    MenuOption,
    Portion,
    Vendor,
)
from hotmeals.domain import diet
from hotmeals.domain.allergy import (
    MealVerdict,
    ack_covers,
    ensure_can_add_composed,
)
from hotmeals.domain.cutoff import ensure_open
from hotmeals.domain.dates import long_day
from hotmeals.domain.errors import DomainError
from hotmeals.domain.pricing import (
    LineInput,
    LinePrice,
    price_line,
    validate_quantity,
)
from hotmeals.domain.pricing import PriceTier as TierRule
from hotmeals.i18n import t
from hotmeals.services import menu_cache, school_year
from hotmeals.services.away_days import Ranges, away_ranges, is_away
from hotmeals.services.children import child_diets
from hotmeals.services.ordering.allergens import (
    MEAL,
    Dish,
    Items,
    ack_names,
    components,
    item_allergies,
)
from hotmeals.services.ordering.days import (
    closed_day,
    cutoff_rule,
    meal_date,
    open_or_refuse,
)
from hotmeals.services.ordering.diets import dish_marks
from hotmeals.services.ordering.labels import is_french

SPECIAL_NOTE_MAX = 120
CART_MAX_LINES = 100
ADDONS_MAX = 10


def special_note(value: str | None) -> str | None:
    """The note printed on the label: blank is none; at most 120 characters."""
    if value is None:
        return None
    text = " ".join(value.split())
    if not text:
        return None
    if len(text) > SPECIAL_NOTE_MAX:
        raise DomainError("special_note_too_long", field="special_note", max=SPECIAL_NOTE_MAX)
    return text


def _quantity(value: int | None) -> int:
    """A line's quantity: none is 1; else 1 to 50 (``validate_quantity``)."""
    return 1 if value is None else validate_quantity(value)


def _addon_ids(values: Sequence[int]) -> list[int]:
    """The add-ons asked for, each once; 0 (not an id) or more than ``ADDONS_MAX`` refused."""
    ids = sorted(set(values))
    if len(ids) > ADDONS_MAX or any(k < 1 for k in ids):
        raise DomainError("addon_not_found", field="addons")
    return ids


@dataclass(frozen=True)
class LineRequest:
    """One line as asked, its ids as ints (0: none given, which ``check_line`` refuses as not
    found for the child and the meal; for the portion, the day and the options it means "not
    chosen": the portion by ``size``, the day by ``date``, no option)."""

    child_id: int
    meal_id: int
    portion_id: int | None = None
    size: str | None = None
    menu_day_id: int | None = None
    date: str | None = None  # when no ``menu_day_id``: YYYY-MM-DD or M/D/YYYY
    quantity: int | None = 1  # none is 1
    menu_option_id: int | None = None
    meal_option_id: int | None = None
    addons: Sequence[int] = ()
    special_note: str | None = None
    allergy_ack: bool = False
    # An acknowledgement given earlier and stored (a draft order change's step, a moved order
    # line's): it must still name every allergen that needs one (``domain.allergy.ack_covers``).
    ack_given: str | None = None
    # The parent saw that the meal does not fit the child's dietary needs and wants it.
    diet_ack: bool = False


class MealChoice(TypedDict, total=False):
    """A meal as the Book meal dialog or the API asks for it, for a cart (AddToCart) or an
    order's draft (AddToMyOrder): the fields of ``LineRequest``, the note as
    ``special_note_text``."""

    child_id: Required[int]
    meal_id: Required[int]
    portion_id: int | None
    size: str | None
    menu_day_id: int | None
    date: str | None
    quantity: int | None
    menu_option_id: int | None
    meal_option_id: int | None
    addons: Sequence[int]
    special_note_text: str | None
    allergy_ack: bool
    diet_ack: bool


def chosen_line(choice: MealChoice) -> LineRequest:
    """The request of a meal choice (a quantity left out is 1)."""
    return LineRequest(
        child_id=choice["child_id"],
        meal_id=choice["meal_id"],
        portion_id=choice.get("portion_id"),
        size=choice.get("size"),
        menu_day_id=choice.get("menu_day_id"),
        date=choice.get("date"),
        quantity=choice.get("quantity", 1),
        menu_option_id=choice.get("menu_option_id"),
        meal_option_id=choice.get("meal_option_id"),
        addons=choice.get("addons") or (),
        special_note=choice.get("special_note_text"),
        allergy_ack=bool(choice.get("allergy_ack", False)),
        diet_ack=bool(choice.get("diet_ack", False)),
    )


@dataclass
class Batch:
    """What a set of requests needs, loaded at once."""

    children: dict[int, Child]
    days_by_id: dict[int, tuple[MenuDay, Vendor]]
    days_at: dict[tuple[int, date], list[tuple[MenuDay, Vendor]]]  # (school, date), by vendor
    meals_of_day: dict[int, dict[int, Meal]]  # menu day id -> meal id -> meal
    matches: dict[tuple[int, int], list[tuple[str, str]]]
    portions: dict[int, list[tuple[Portion, tuple[TierRule, ...]]]]  # meal id -> portions
    menu_options: dict[int, MenuOption]
    meal_options: dict[int, MealOption]
    addons: dict[int, AddOn]
    cart_count: int
    items: Items  # the allergens of the meals, options and add-ons named (menu.item_allergies)
    away: Ranges  # the children's days away (away_days.away_ranges)
    needs: dict[int, frozenset[diet.Diet]]  # the children's dietary needs (those with any)
    marks: Mapping[tuple[str, int], frozenset[diet.Diet]]  # the menus' dietary marks


@dataclass(frozen=True)
class CheckedLine:
    child: Child
    menu_day: MenuDay
    vendor: Vendor
    meal: Meal
    portion: Portion
    quantity: int
    menu_option_id: int | None
    meal_option_id: int | None
    addons: list[AddOn]
    note: str | None
    ack_text: str | None
    notice: str
    price: LinePrice
    diet_unmet: tuple[diet.Diet, ...] = ()  # the child's needs the meal as composed misses


def _loose_date(value: str | None) -> date | None:
    try:
        return meal_date(value or "")
    except DomainError:
        return None


def asked_addons(request: LineRequest) -> list[int]:
    """The add-on ids a request names (at most one more than allowed: enough to refuse)."""
    return [k for k in request.addons[: ADDONS_MAX + 1] if k > 0]


# Built once (statements built per call cost more CPU than SQLite takes to run them).
_CART_SIZE = (
    select(func.count())
    .select_from(CartLine)
    .where(col(CartLine.parent_id) == bindparam("parent_id"))
)


def cart_count(session: Session, parent_id: int) -> int:
    """How many lines the parent's cart holds."""
    return int(session.execute(_CART_SIZE, {"parent_id": parent_id}).scalar_one())


_CHILDREN_OF_PARENT = select(Child).where(
    col(Child.id).in_(bindparam("ids", expanding=True)),
    col(Child.parent_id) == bindparam("parent_id"),
    col(Child.is_active),
)
# The same, each child with the school year it was confirmed for (that year's, or none).
_CHILDREN_WITH_YEAR = (
    select(Child, col(ChildSchoolYear.school_year))
    .outerjoin(
        ChildSchoolYear,
        and_(
            col(ChildSchoolYear.child_id) == Child.id,
            col(ChildSchoolYear.school_year) == bindparam("year"),
        ),
    )
    .where(
        col(Child.id).in_(bindparam("ids", expanding=True)),
        col(Child.parent_id) == bindparam("parent_id"),
        col(Child.is_active),
    )
)


def load_batch(
    session: Session,
    *,
    parent_id: int,
    requests: Sequence[LineRequest],
    lang: str,
    confirmed_at: datetime | None = None,
) -> Batch:
    """The parent's children, menu days, meals, allergy matches, portions, options and add-ons
    the requests name, the cart's size and the children's days away: the menus from their
    cached copy (``services/menu_cache``, as current as the database), the children, their
    allergies, their dietary needs, the cart's size and the days away read here: at most seven
    statements for any number of lines. ``confirmed_at`` (booking's instant): the children
    are read with their school-year confirmation, and one not confirmed for the school year
    then is refused first (``school_year.refuse_unconfirmed``: booking's rule, in the same
    statement)."""
    child_keys = {r.child_id for r in requests if r.child_id > 0}
    children: dict[int, Child] = {}
    if child_keys:
        params: dict[str, Any] = {"ids": sorted(child_keys), "parent_id": parent_id}
        if confirmed_at is None:
            found = [(c, None) for c in session.scalars(_CHILDREN_OF_PARENT, params).all()]
        else:
            year = school_year.year_at(confirmed_at)
            found = list(
                session.execute(_CHILDREN_WITH_YEAR, {**params, "year": year.year}).tuples()
            )
            school_year.refuse_unconfirmed(found, year)
        children = {c.id: c for c, _ in found if c.id is not None}
    day_keys = {r.menu_day_id for r in requests if r.menu_day_id}
    dates = {d for d in (_loose_date(r.date) for r in requests if r.date) if d is not None}
    menus = menu_cache.catalog(session)
    days_by_id: dict[int, tuple[MenuDay, Vendor]] = {}
    days_at: dict[tuple[int, date], list[tuple[MenuDay, Vendor]]] = {}
    meals_of_day: dict[int, dict[int, Meal]] = {}
    for school_id in sorted({c.school_id for c in children.values()}):
        school = menus.school_days(session, school_id)
        for day_key in day_keys:
            if day_key in school.by_id:
                days_by_id[day_key] = school.by_id[day_key]
        for day in dates:
            served = school.at.get(day, ())
            days_at[(school_id, day)] = list(served)
            days_by_id.update((d.id, (d, v)) for d, v in served if d.id is not None)
    meal_keys = {r.meal_id for r in requests if r.meal_id > 0}
    for menu_day_id, (menu_day, _vendor) in days_by_id.items():
        school = menus.school_days(session, menu_day.school_id)
        for meal in school.meals.get(menu_day_id, ()):
            if meal.id in meal_keys:
                meals_of_day.setdefault(menu_day_id, {})[meal.id] = meal
    served_meals = sorted({m for found in meals_of_day.values() for m in found})
    menu_option_ids = {r.menu_option_id for r in requests if r.menu_option_id}
    meal_option_ids = {r.meal_option_id for r in requests if r.meal_option_id}
    items: Items = {}
    if children and served_meals:  # one statement: the meals', options' and add-ons' allergens
        items = item_allergies(
            session,
            lang=lang,
            child_ids=children,
            meal_ids=served_meals,
            menu_option_ids=menu_option_ids,
            meal_option_ids=meal_option_ids,
            addon_ids={k for r in requests for k in asked_addons(r)},
        )
    matches = {
        (c, m): list(items[(MEAL, m)].child_matches(c))
        for c in children
        for m in served_meals
        if (MEAL, m) in items and items[(MEAL, m)].child_matches(c)
    }
    portions = {m: list(menus.portion_rows[m]) for m in served_meals if m in menus.portion_rows}
    menu_options = {k: menus.menu_options[k] for k in menu_option_ids if k in menus.menu_options}
    meal_options = {k: menus.meal_options[k] for k in meal_option_ids if k in menus.meal_options}
    addons = {
        k: menus.addons[k]
        for r in requests
        for k in asked_addons(r)
        if k in menus.addons and menus.addons[k].is_active
    }
    count = cart_count(session, parent_id)
    needs = child_diets(session, children) if children and served_meals else {}
    booked = [d.meal_date for d, _ in days_by_id.values()]
    away = away_ranges(session, children, min(booked), max(booked)) if booked else {}
    return Batch(
        children=children,
        days_by_id=days_by_id,
        days_at=days_at,
        meals_of_day=meals_of_day,
        matches=matches,
        portions=portions,
        menu_options=menu_options,
        meal_options=meal_options,
        addons=addons,
        cart_count=count,
        items=items,
        away=away,
        needs=needs,
        marks=menus.diets,
    )


def check_added_line(
    session: Session, *, parent_id: int, request: LineRequest, lang: str, now: datetime
) -> tuple[Batch, CheckedLine]:
    """One line a parent adds (to the cart, or to an order's draft change): the child's
    school year confirmed, then every rule of ``check_line``. Returns the batch it was
    checked against (its ``cart_count``) and the checked line."""
    batch = load_batch(
        session, parent_id=parent_id, requests=[request], lang=lang, confirmed_at=now
    )
    return batch, check_line(batch, request, lang=lang, now=now)


def check_line(batch: Batch, request: LineRequest, *, lang: str, now: datetime) -> CheckedLine:
    """Every rule of adding one line, against ``batch``: the child is the parent's, the meal
    is on the child's school menu that day (by ``menu_day_id`` from GetMenu, or ``date``), the
    day open, before its cut-off and not one the child is away, the child's allergies allow it
    (Major refused; High/Medium need ``allergy_ack``), then its dietary needs (a meal as
    composed that misses one needs ``diet_ack``), the portion, options and add-ons the
    meal's or its vendor's. Raises the DomainError that says why not."""
    child = batch.children.get(request.child_id)
    if child is None:
        raise DomainError("child_not_found", field="child_id")
    meal_key = request.meal_id
    if meal_key < 1:
        raise DomainError("meal_not_found", field="meal_id")
    day_key = request.menu_day_id or None
    day = None if day_key is not None else meal_date(request.date or "")
    qty = _quantity(request.quantity)
    note = special_note(request.special_note)
    addon_keys = _addon_ids(request.addons)
    found: tuple[MenuDay, Vendor, Meal] | None = None
    if day_key is not None:
        menu_day_vendor = batch.days_by_id.get(day_key)
        if menu_day_vendor is None or menu_day_vendor[0].school_id != child.school_id:
            raise DomainError("meal_not_on_menu", field="meal_id")
        meal = batch.meals_of_day.get(day_key, {}).get(meal_key)
        if meal is None:
            raise DomainError("meal_not_on_menu", field="meal_id")
        found = (*menu_day_vendor, meal)
    else:
        assert day is not None
        served = batch.days_at.get((child.school_id, day), [])
        for menu_day, vendor in served:
            meal = batch.meals_of_day.get(menu_day.id or 0, {}).get(meal_key)
            if meal is not None:
                found = (menu_day, vendor, meal)
                break
        if found is None:
            open_or_refuse(served, day=day, lang=lang)
            raise DomainError("meal_not_on_menu", field="meal_id")
    menu_day, vendor, meal = found
    assert child.id is not None and meal.id is not None and vendor.id is not None
    if not meal.is_active:
        raise DomainError("meal_not_found", field="meal_id")
    if menu_day.is_closed or not vendor.is_active:
        raise closed_day(menu_day, day=menu_day.meal_date, lang=lang)
    ensure_open(cutoff_rule(vendor), menu_day.meal_date, now)
    if is_away(batch.away, child.id, menu_day.meal_date):  # marked away (services/away.py)
        day_text = long_day(menu_day.meal_date, lang)
        raise DomainError("child_away", field="date", child=child.first_name, day=day_text)

    # The allergy rule on the meal as composed: the options and add-ons asked for
    # that are the meal's / its vendor's (any other is refused below, after this rule).
    asked_menu = batch.menu_options.get(request.menu_option_id or 0)
    asked_meal = batch.meal_options.get(request.meal_option_id or 0)
    extras = [
        a
        for a in (batch.addons.get(k) for k in asked_addons(request))
        if a is not None and a.vendor_id == vendor.id
    ]
    menu_row = asked_menu if asked_menu and asked_menu.meal_id == meal.id else None
    meal_row = asked_meal if asked_meal and asked_meal.meal_id == meal.id else None
    dish = Dish(meal, menu_row, meal_row, extras)
    parts = components(batch.items, child_id=child.id, dish=dish, lang=lang)
    composition = ensure_can_add_composed(parts, acknowledged=bool(request.allergy_ack), lang=lang)
    verdict = composition.verdict
    if verdict is MealVerdict.ACKNOWLEDGE and request.ack_given is not None:
        if not ack_covers(request.ack_given, ack_names(batch.items, parts, dish)):
            raise DomainError(
                "allergy_ack_required",
                field="allergy_ack",
                allergens=", ".join(composition.acknowledge),
            )
    ack_text = None
    if verdict is MealVerdict.ACKNOWLEDGE:
        ack_text = t("allergy_ack_text", lang, allergens=", ".join(composition.acknowledge))
    # The diet rule, on the same meal as composed: a preference, after the allergy rule.
    missing = diet.ensure_can_add(
        batch.needs.get(child.id, frozenset()),
        dish_marks(batch.marks, dish),
        acknowledged=request.diet_ack,
        child=child.first_name,
        meal=meal.name_fr if is_french(lang) else meal.name_en,
        lang=lang,
    )

    portion, tiers = _portion(batch, meal.id, request.portion_id, request.size)
    menu_option_key = request.menu_option_id or None
    meal_option_key = request.meal_option_id or None
    option_cents: list[int] = []
    for options, option_key, field in (
        (batch.menu_options, menu_option_key, "menu_option_id"),
        (batch.meal_options, meal_option_key, "meal_option_id"),
    ):
        if option_key is None:
            continue
        row = options.get(option_key)
        if row is None or row.meal_id != meal.id:
            raise DomainError("option_not_found", field=field)
        option_cents.append(row.price_cents)
    addon_rows = [batch.addons.get(k) for k in addon_keys]
    if any(a is None or a.vendor_id != vendor.id for a in addon_rows):
        raise DomainError("addon_not_found", field="addons")
    chosen = [a for a in addon_rows if a is not None]
    price = price_line(
        LineInput(
            portion_tiers=tiers,
            quantity=qty,
            option_cents=option_cents,
            addon_cents=[a.price_cents for a in chosen],
            special_note=note,
        )
    )
    notice = ""
    if composition.notice:
        notice = t("allergy_notice", lang, allergens=", ".join(composition.notice))
    return CheckedLine(
        child=child,
        menu_day=menu_day,
        vendor=vendor,
        meal=meal,
        portion=portion,
        quantity=qty,
        menu_option_id=menu_option_key,
        meal_option_id=meal_option_key,
        addons=chosen,
        note=note,
        ack_text=ack_text,
        notice=notice,
        price=price,
        diet_unmet=missing,
    )


def _portion(
    batch: Batch, meal_id: int, portion_id: int | None, size: str | None
) -> tuple[Portion, tuple[TierRule, ...]]:
    """The meal's portion, by id or by size ('small' when neither is given), with its tiers."""
    choices = batch.portions.get(meal_id, [])
    if portion_id:
        found = [p for p in choices if p[0].id == portion_id]
    else:
        wanted = (size or "small").strip().lower()
        if wanted not in ("small", "large"):
            raise DomainError("portion_not_found", field="size")
        found = [p for p in choices if p[0].size == wanted]
    if not found:
        raise DomainError("portion_not_found", field="portion_id")
    return found[0]


def insert_lines(
    session: Session, *, parent_id: int, lines: Sequence[CheckedLine], now: datetime
) -> list[int]:
    """Write accepted lines and their add-ons; answers the new lines' ids in order. Two
    statements for any number of lines (one multi-row INSERT ... RETURNING, whose ids are
    given in row order on both databases, and one for the add-ons)."""
    if not lines:
        return []
    values = [
        {
            "parent_id": parent_id,
            "child_id": line.child.id,
            "menu_day_id": line.menu_day.id,
            "meal_id": line.meal.id,
            "portion_id": line.portion.id,
            "quantity": line.quantity,
            "menu_option_id": line.menu_option_id,
            "meal_option_id": line.meal_option_id,
            "special_note": line.note,
            "allergy_ack": line.ack_text,
            "allergy_ack_at": now if line.ack_text else None,
            "created_at": now,
        }
        for line in lines
    ]
    # Core inserts (not the ORM's bulk mode, which splits rows by the keys they leave empty)
    cart_line: Any = CartLine
    table = cart_line.__table__
    returned = session.execute(insert(table).returning(table.c.id), values).all()
    ids = sorted(row[0] for row in returned)  # one INSERT: ids ascend in row order
    extras = [
        {"cart_line_id": line_id, "addon_id": a.id}
        for line_id, line in zip(ids, lines, strict=True)
        for a in line.addons
    ]
    if extras:
        line_addon: Any = CartLineAddOn
        session.execute(insert(line_addon.__table__), extras)
    return ids
