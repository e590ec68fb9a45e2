"""The cart (issue 9): adding a meal for a child on a meal day, price tiers, removing a line,
and the cart grouped by child and date with what it costs.

Prices, options and add-ons are read from the database on every call, never taken from the
client: a line stores only ids, a quantity, the note and the allergy acknowledgement, and is
priced with ``domain.pricing.price_line``; the cart's charges are ``domain.charges``. The
allergy rule is ``domain.allergy.ensure_can_add_composed`` on the meal as composed (the meal,
its options and add-ons, each with its own allergens: issue 20), the cut-off
``domain.cutoff``; both are checked again when the cart is listed, so a line whose cut-off
passed or whose child's allergies changed is flagged and cannot be paid (the rest can).

Every call runs a fixed number of statements whatever the number of lines
(``tests/api/test_cart_api.py`` counts them for 1 and 12 lines).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import delete, func, insert, or_
from sqlmodel import Session, select

from hotmeals.db.models import (
    AddOn,
    AllergenIngredient,
    CartLine,
    CartLineAddOn,
    Child,
    ChildAllergy,
    Meal,
    MealAllergen,
    MealOption,
    MenuDay,
    MenuDayMeal,
    MenuOption,
    Portion,
    PriceTier,
    Vendor,
)
from hotmeals.domain.allergy import (
    Component,
    MealVerdict,
    ack_covers,
    ack_needed,
    compose,
    ensure_can_add_composed,
)
from hotmeals.domain.charges import ChargeRates, Promo, compute_charges
from hotmeals.domain.cutoff import before_cutoff, cutoff_at, ensure_open
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.pricing import (
    LineInput,
    LinePrice,
    giveback,
    price_line,
    validate_quantity,
)
from hotmeals.domain.pricing import PriceTier as TierRule
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import school_year
from hotmeals.services.children import as_id as _as_id
from hotmeals.services.clock import now as utcnow
from hotmeals.services.menu import (
    ADDON,
    FIELD_OF_KIND,
    MEAL,
    MEAL_OPTION,
    MENU_OPTION,
    Items,
    cutoff_rule,
    item_allergies,
    meal_date,
    open_or_refuse,
    portion_out,
)
from hotmeals.settings import get_settings

SPECIAL_NOTE_MAX = 120
CART_MAX_LINES = 100
ADDONS_MAX = 10


def _fr(lang: str) -> bool:
    return normalize_lang(lang) == "fr"


def special_note(value: object) -> str | None:
    """The note printed on the label: blank is none; at most 120 characters."""
    if value is None:
        return None
    text = " ".join(str(value).split())
    if not text:
        return None
    if len(text) > SPECIAL_NOTE_MAX:
        raise DomainError("special_note_too_long", field="special_note", max=SPECIAL_NOTE_MAX)
    return text


def _quantity(value: object) -> int:
    if value is None or value == "":
        return 1
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip())
    return validate_quantity(value)


def _optional_id(value: object, field: str, code: str) -> int | None:
    if value is None or value == "" or value == 0 or value == "0":
        return None
    return _as_id(value, field, code, code)


def _addon_ids(values: object) -> list[int]:
    if values is None or values == "":
        return []
    if not isinstance(values, (list, tuple)):
        values = [values]
    ids = sorted({_as_id(v, "addons", "addon_not_found", "addon_not_found") for v in values})
    if len(ids) > ADDONS_MAX:
        raise DomainError("addon_not_found", field="addons")
    return ids


# --- AddToCart (and services/booking.py's many days at once) ------------------------------------
#
# One rule for one line or many: ``_keys`` reads a request's ids loosely (only to know what to
# load), ``load_batch`` loads everything the requests name in a fixed number of statements,
# ``check_line`` applies every rule to one request against that batch (raising the same
# DomainError the single AddToCart always raised, in the same order), ``insert_lines`` writes
# the accepted lines in two statements.


@dataclass(frozen=True)
class LineRequest:
    """One line as asked (raw client values: ``check_line`` parses them)."""

    child_id: object
    meal_id: object
    portion_id: object = None
    size: object = None
    menu_day_id: object = None
    date: object = None
    quantity: object = 1
    menu_option_id: object = None
    meal_option_id: object = None
    addons: object = None
    special_note: object = None
    allergy_ack: bool = False
    # An acknowledgement given earlier and stored (a draft order change's step, a moved order
    # line's): it must still name every allergen that needs one (``domain.allergy.ack_covers``).
    ack_given: str | None = None


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


def _loose_id(value: object) -> int | None:
    try:
        return _as_id(value, "id", "x", "x")
    except DomainError:
        return None


def _loose_date(value: object) -> date | None:
    try:
        return meal_date(value)
    except DomainError:
        return None


def _loose_ids(values: object) -> list[int]:
    if not isinstance(values, (list, tuple)):
        values = [values]
    return [k for k in (_loose_id(v) for v in values[: ADDONS_MAX + 1]) if k is not None]


def load_batch(
    session: Session, *, parent_id: int, requests: Sequence[LineRequest], lang: str
) -> Batch:
    """The parent's children, menu days, meals, allergy matches, portions, options and add-ons
    the requests name, and the cart's size: at most nine statements for any number of lines."""
    child_keys = {k for k in (_loose_id(r.child_id) for r in requests) if k is not None}
    children: dict[int, Child] = {}
    if child_keys:
        children = {
            c.id: c
            for c in session.exec(
                select(Child).where(
                    Child.id.in_(sorted(child_keys)),
                    Child.parent_id == parent_id,
                    Child.is_active,
                )
            ).all()
            if c.id is not None
        }
    day_keys = {k for k in (_loose_id(r.menu_day_id) for r in requests) if k is not None}
    schools = {c.school_id for c in children.values()}
    dates = {d for d in (_loose_date(r.date) for r in requests if r.date) if d is not None}
    days_by_id: dict[int, tuple[MenuDay, Vendor]] = {}
    days_at: dict[tuple[int, date], list[tuple[MenuDay, Vendor]]] = {}
    meals_of_day: dict[int, dict[int, Meal]] = {}
    conditions = []
    if day_keys:
        conditions.append(MenuDay.id.in_(sorted(day_keys)))
    if schools and dates:
        conditions.append(
            MenuDay.school_id.in_(sorted(schools)) & MenuDay.meal_date.in_(sorted(dates))
        )
    if conditions:
        for menu_day, vendor in session.exec(
            select(MenuDay, Vendor)
            .join(Vendor, Vendor.id == MenuDay.vendor_id)
            .where(or_(*conditions))
            .order_by(MenuDay.meal_date, Vendor.name, MenuDay.id)
        ).all():
            assert menu_day.id is not None
            days_by_id[menu_day.id] = (menu_day, vendor)
            days_at.setdefault((menu_day.school_id, menu_day.meal_date), []).append(
                (menu_day, vendor)
            )
    meal_keys = {k for k in (_loose_id(r.meal_id) for r in requests) if k is not None}
    if days_by_id and meal_keys:
        for menu_day_id, meal in session.exec(
            select(MenuDayMeal.menu_day_id, Meal)
            .join(Meal, Meal.id == MenuDayMeal.meal_id)
            .where(
                MenuDayMeal.menu_day_id.in_(sorted(days_by_id)),
                MenuDayMeal.meal_id.in_(sorted(meal_keys)),
            )
        ).all():
            assert meal.id is not None
            meals_of_day.setdefault(menu_day_id, {})[meal.id] = meal
    served_meals = sorted({m for found in meals_of_day.values() for m in found})
    items: Items = {}
    if children and served_meals:  # one statement: the meals', options' and add-ons' allergens
        items = item_allergies(
            session,
            lang=lang,
            child_ids=children,
            meal_ids=served_meals,
            menu_option_ids=_loose_keys(requests, "menu_option_id"),
            meal_option_ids=_loose_keys(requests, "meal_option_id"),
            addon_ids={k for r in requests if r.addons for k in _loose_ids(r.addons)},
        )
    matches = {
        (c, m): list(items[(MEAL, m)].child_matches(c))
        for c in children
        for m in served_meals
        if (MEAL, m) in items and items[(MEAL, m)].child_matches(c)
    }
    portions: dict[int, list[tuple[Portion, tuple[TierRule, ...]]]] = {}
    if served_meals:
        rows = session.exec(
            select(Portion, PriceTier)
            .join(PriceTier, PriceTier.portion_id == Portion.id)
            .where(Portion.meal_id.in_(served_meals))
            .order_by(Portion.meal_id, Portion.id, PriceTier.min_quantity)
        ).all()
        tiers: dict[int, list[TierRule]] = {}
        heads: dict[int, Portion] = {}
        for portion, tier in rows:
            assert portion.id is not None
            heads[portion.id] = portion
            tiers.setdefault(portion.id, []).append(
                TierRule(tier.min_quantity, tier.unit_price_cents)
            )
        for portion_key, portion in heads.items():
            portions.setdefault(portion.meal_id, []).append((portion, tuple(tiers[portion_key])))
    menu_options: dict[int, MenuOption] = {}
    meal_options: dict[int, MealOption] = {}
    for model, field, target in (
        (MenuOption, "menu_option_id", menu_options),
        (MealOption, "meal_option_id", meal_options),
    ):
        keys = {k for k in (_loose_id(getattr(r, field)) for r in requests) if k is not None}
        if keys:
            for row in session.exec(select(model).where(model.id.in_(sorted(keys)))).all():
                target[row.id] = row
    addon_keys = {k for r in requests if r.addons for k in _loose_ids(r.addons)}
    addons: dict[int, AddOn] = {}
    if addon_keys:
        for row in session.exec(
            select(AddOn).where(AddOn.id.in_(sorted(addon_keys)), AddOn.is_active)
        ).all():
            assert row.id is not None
            addons[row.id] = row
    count = session.exec(
        select(func.count()).select_from(CartLine).where(CartLine.parent_id == parent_id)
    ).one()
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
        cart_count=int(count),
        items=items,
    )


def _loose_keys(requests: Sequence[LineRequest], field: str) -> set[int]:
    return {k for k in (_loose_id(getattr(r, field)) for r in requests) if k is not None}


def components(
    items: Items,
    *,
    child_id: int,
    meal: Meal,
    menu_option: MenuOption | None,
    meal_option: MealOption | None,
    addons: Sequence[AddOn],
    lang: str,
) -> list[Component]:
    """The meal as composed, for the allergy rule: the meal and each chosen option and add-on
    with the child's allergens it contains (``menu.item_allergies``)."""
    french = _fr(lang)
    parts = []
    for kind, row in (
        (MEAL, meal),
        (MENU_OPTION, menu_option),
        (MEAL_OPTION, meal_option),
        *((ADDON, a) for a in addons),
    ):
        if row is None or row.id is None:
            continue
        found = items.get((kind, row.id))
        parts.append(
            Component(
                name=row.name_fr if french else row.name_en,
                matches=found.child_matches(child_id) if found else (),
                is_meal=kind == MEAL,
                field=FIELD_OF_KIND[kind],
            )
        )
    return parts


def _needed_names(items: Items, parts: Sequence[Component], rows: Sequence) -> list[tuple]:
    """For each allergen that needs an acknowledgement, its names in both languages."""
    needed = set(ack_needed(parts))
    out = []
    for kind, row in rows:
        if row is None:
            continue
        found = items.get((kind, row.id))
        if found is None:
            continue
        for name in found.allergens:
            if name in needed:
                out.append(found.both.get(name, (name,)))
    return out


def check_line(batch: Batch, request: LineRequest, *, lang: str, now: datetime) -> CheckedLine:
    """Every rule of adding one line, against ``batch``: the child is the parent's, the meal
    is on the child's school menu that day (by ``menu_day_id`` from GetMenu, or ``date``), the
    day open and before its cut-off, the child's allergies allow it (Major refused; High/Medium
    need ``allergy_ack``), the portion, options and add-ons the meal's or its vendor's. Raises
    the DomainError that says why not."""
    key = _as_id(request.child_id, "child_id", "child_not_found", "child_not_found")
    child = batch.children.get(key)
    if child is None:
        raise DomainError("child_not_found", field="child_id")
    meal_key = _as_id(request.meal_id, "meal_id", "meal_not_found", "meal_not_found")
    day_key = _optional_id(request.menu_day_id, "menu_day_id", "meal_not_on_menu")
    day = None if day_key is not None else meal_date(request.date)
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
        reason = menu_day.closed_reason_fr if _fr(lang) else menu_day.closed_reason_en
        raise DomainError(
            "menu_day_closed", field="date", date=menu_day.meal_date.isoformat(), reason=reason
        )
    ensure_open(cutoff_rule(vendor), menu_day.meal_date, now)

    # The allergy rule on the meal as composed (issue 20): the options and add-ons asked for
    # that are the meal's / its vendor's (any other is refused below, after this rule).
    asked_menu = batch.menu_options.get(_loose_id(request.menu_option_id) or 0)
    asked_meal = batch.meal_options.get(_loose_id(request.meal_option_id) or 0)
    asked_addons = [
        a
        for a in (batch.addons.get(k) for k in _loose_ids(request.addons or []))
        if a is not None and a.vendor_id == vendor.id
    ]
    menu_row = asked_menu if asked_menu and asked_menu.meal_id == meal.id else None
    meal_row = asked_meal if asked_meal and asked_meal.meal_id == meal.id else None
    parts = components(
        batch.items,
        child_id=child.id,
        meal=meal,
        menu_option=menu_row,
        meal_option=meal_row,
        addons=asked_addons,
        lang=lang,
    )
    composition = ensure_can_add_composed(parts, acknowledged=bool(request.allergy_ack), lang=lang)
    verdict = composition.verdict
    if verdict is MealVerdict.ACKNOWLEDGE and request.ack_given is not None:
        rows = [(MEAL, meal), (MENU_OPTION, menu_row), (MEAL_OPTION, meal_row)]
        rows += [(ADDON, a) for a in asked_addons]
        if not ack_covers(request.ack_given, _needed_names(batch.items, parts, rows)):
            raise DomainError(
                "allergy_ack_required",
                field="allergy_ack",
                allergens=", ".join(composition.acknowledge),
            )
    ack_text = None
    if verdict is MealVerdict.ACKNOWLEDGE:
        ack_text = t("allergy_ack_text", lang, allergens=", ".join(composition.acknowledge))

    portion, tiers = _portion(batch, meal.id, request.portion_id, request.size)
    menu_option_key = _optional_id(request.menu_option_id, "menu_option_id", "option_not_found")
    meal_option_key = _optional_id(request.meal_option_id, "meal_option_id", "option_not_found")
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
    )


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
    table = CartLine.__table__
    returned = session.execute(insert(table).returning(table.c.id), values).all()
    ids = sorted(row[0] for row in returned)  # one INSERT: ids ascend in row order
    extras = [
        {"cart_line_id": line_id, "addon_id": a.id}
        for line_id, line in zip(ids, lines, strict=True)
        for a in line.addons
    ]
    if extras:
        session.execute(insert(CartLineAddOn.__table__), extras)
    return ids


def add_to_cart(
    *,
    session: Session,
    parent_id: int,
    child_id: object,
    meal_id: object,
    portion_id: object = None,
    size: object = None,
    menu_day_id: object = None,
    date: object = None,
    quantity: object = 1,
    menu_option_id: object = None,
    meal_option_id: object = None,
    addons: object = None,
    special_note_text: object = None,
    allergy_ack: bool = False,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """Add one line (``check_line``'s rules; High/Medium acknowledgement stored with the
    line). Answers the line and the cart count."""
    now = now or utcnow()
    request = LineRequest(
        child_id=child_id,
        meal_id=meal_id,
        portion_id=portion_id,
        size=size,
        menu_day_id=menu_day_id,
        date=date,
        quantity=quantity,
        menu_option_id=menu_option_id,
        meal_option_id=meal_option_id,
        addons=addons,
        special_note=special_note_text,
        allergy_ack=allergy_ack,
    )
    school_year.require_confirmed(session, parent_id=parent_id, child_ids=[child_id], now=now)
    batch = load_batch(session, parent_id=parent_id, requests=[request], lang=lang)
    checked = check_line(batch, request, lang=lang, now=now)
    if batch.cart_count >= CART_MAX_LINES:
        raise DomainError("cart_full", max=CART_MAX_LINES)
    (line_id,) = insert_lines(session, parent_id=parent_id, lines=[checked], now=now)
    return {
        "cart_id": line_id,
        "child_id": checked.child.id,
        "menu_day_id": checked.menu_day.id,
        "date": checked.menu_day.meal_date.isoformat(),
        "meal_id": checked.meal.id,
        "portion_id": checked.portion.id,
        "quantity": checked.quantity,
        "unit_price_cents": checked.price.unit_cents,
        "line_total_cents": checked.price.total_cents,
        "line_total": format_money(checked.price.total_cents, lang),
        "allergy_ack": checked.ack_text,
        "allergy_notice": checked.notice,
        "cart_count": batch.cart_count + 1,
    }


def _portion(
    batch: Batch, meal_id: int, portion_id: object, size: object
) -> tuple[Portion, tuple[TierRule, ...]]:
    """The meal's portion, by id or by size ('small' when neither is given), with its tiers."""
    choices = batch.portions.get(meal_id, [])
    if portion_id not in (None, "", 0):
        key = _as_id(portion_id, "portion_id", "portion_not_found", "portion_not_found")
        found = [p for p in choices if p[0].id == key]
    else:
        wanted = str(size or "small").strip().lower()
        if wanted not in ("small", "large"):
            raise DomainError("portion_not_found", field="size")
        found = [p for p in choices if p[0].size == wanted]
    if not found:
        raise DomainError("portion_not_found", field="portion_id")
    return found[0]


def _matches(
    session: Session, pairs: Iterable[tuple[int, int]], lang: str
) -> dict[tuple[int, int], list[tuple[str, str]]]:
    """For (child, meal) pairs: the child's allergens the meal contains with the child's level,
    in one statement for any number of children and meals."""
    pairs = set(pairs)
    if not pairs:
        return {}
    child_ids = sorted({c for c, _ in pairs})
    meal_ids = sorted({m for _, m in pairs})
    rows = session.exec(
        select(
            ChildAllergy.child_id,
            MealAllergen.meal_id,
            AllergenIngredient.name_en,
            AllergenIngredient.name_fr,
            ChildAllergy.alert_level,
        )
        .join(MealAllergen, MealAllergen.ingredient_id == ChildAllergy.ingredient_id)
        .join(AllergenIngredient, AllergenIngredient.id == ChildAllergy.ingredient_id)
        .where(ChildAllergy.child_id.in_(child_ids), MealAllergen.meal_id.in_(meal_ids))
        .order_by(AllergenIngredient.name_en)
    ).all()
    french = _fr(lang)
    found: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for child_id, meal_id, name_en, name_fr, level in rows:
        if (child_id, meal_id) in pairs:
            found.setdefault((child_id, meal_id), []).append(
                (name_fr if french else name_en, level)
            )
    return found


# --- GetPriceTiersByPortionId -------------------------------------------------------------------


def price_tiers(*, session: Session, portion_id: object, lang: str = "en") -> dict:
    """A portion's size and price tiers: one statement."""
    key = _as_id(portion_id, "portion_id", "portion_not_found", "portion_not_found")
    rows = session.exec(
        select(Portion, PriceTier)
        .join(PriceTier, PriceTier.portion_id == Portion.id)
        .join(Meal, Meal.id == Portion.meal_id)
        .where(Portion.id == key, Meal.is_active)
        .order_by(PriceTier.min_quantity)
    ).all()
    if not rows:
        raise DomainError("portion_not_found", field="portion_id")
    portion = rows[0][0]
    from hotmeals.services.menu import PortionPrices

    tiers = tuple(TierRule(tier.min_quantity, tier.unit_price_cents) for _, tier in rows)
    out = portion_out(PortionPrices(portion.id, portion.meal_id, portion.size, tiers), lang)
    return {"meal_id": portion.meal_id, **out}


# --- DeleteCart ---------------------------------------------------------------------------------


def delete_line(*, session: Session, parent_id: int, cart_id: object) -> dict:
    """Remove one of the parent's lines (another parent's is 'not found'); answers the count."""
    key = _as_id(cart_id, "cart_id", "cart_line_not_found", "cart_line_not_found")
    line = session.get(CartLine, key)
    if line is None or line.parent_id != parent_id:
        raise DomainError("cart_line_not_found", field="cart_id")
    session.execute(delete(CartLineAddOn).where(CartLineAddOn.cart_line_id == line.id))
    session.delete(line)
    session.flush()
    count = session.exec(
        select(func.count()).select_from(CartLine).where(CartLine.parent_id == parent_id)
    ).one()
    return {"cart_count": count}


# --- the cart, grouped by child and date, with its charges --------------------------------------


@dataclass(frozen=True)
class PricedLine:
    line: dict
    price: LinePrice | None  # None: the line cannot be priced any more (meal or tier gone)
    payable: bool


def cart_summary(
    *,
    session: Session,
    parent_id: int,
    lang: str = "en",
    now: datetime | None = None,
    rates: ChargeRates | None = None,
    promo: Promo | None = None,
    school_donation_cents: int = 0,
) -> dict:
    """The parent's cart grouped by child and date, each line priced from today's catalogue
    and flagged when it cannot be paid (cut-off passed, day closed, meal withdrawn, or the
    child's allergies now refuse it or need an acknowledgement it lacks); the charges of the
    payable lines (``domain.charges.compute_charges``) and what they give back. Five
    statements whatever the number of lines."""
    now = now or utcnow()
    rates = rates or get_settings().charge_rates
    french = _fr(lang)
    rows = session.exec(
        select(CartLine, MenuDay, Vendor, Meal, Portion, Child, MenuOption, MealOption)
        .join(MenuDay, MenuDay.id == CartLine.menu_day_id)
        .join(Vendor, Vendor.id == MenuDay.vendor_id)
        .join(Meal, Meal.id == CartLine.meal_id)
        .join(Portion, Portion.id == CartLine.portion_id)
        .join(Child, Child.id == CartLine.child_id)
        .outerjoin(MenuOption, MenuOption.id == CartLine.menu_option_id)
        .outerjoin(MealOption, MealOption.id == CartLine.meal_option_id)
        .where(CartLine.parent_id == parent_id)
        .order_by(Child.is_default.desc(), Child.first_name, MenuDay.meal_date, CartLine.id)
    ).all()
    line_ids = [row[0].id for row in rows]
    addons: dict[int, list[AddOn]] = {}
    tiers: dict[int, list[TierRule]] = {}
    items: Items = {}
    if rows:
        for cart_line_id, addon in session.exec(
            select(CartLineAddOn.cart_line_id, AddOn)
            .join(AddOn, AddOn.id == CartLineAddOn.addon_id)
            .where(CartLineAddOn.cart_line_id.in_(line_ids))
            .order_by(AddOn.name_en)
        ).all():
            addons.setdefault(cart_line_id, []).append(addon)
        for tier in session.exec(
            select(PriceTier)
            .where(PriceTier.portion_id.in_(sorted({row[4].id for row in rows})))
            .order_by(PriceTier.portion_id, PriceTier.min_quantity)
        ).all():
            tiers.setdefault(tier.portion_id, []).append(
                TierRule(tier.min_quantity, tier.unit_price_cents)
            )
        # One statement: the allergens of every meal, option and add-on of the cart, with the
        # children's allergies as they are now (issue 20: checked again at payment).
        items = item_allergies(
            session,
            lang=lang,
            child_ids={row[5].id for row in rows},
            meal_ids={row[3].id for row in rows},
            menu_option_ids={row[6].id for row in rows if row[6] is not None},
            meal_option_ids={row[7].id for row in rows if row[7] is not None},
            addon_ids={a.id for found in addons.values() for a in found},
        )

    groups: dict[tuple[int, date], dict] = {}
    priced: list[PricedLine] = []
    for line, menu_day, vendor, meal, portion, child, menu_option, meal_option in rows:
        problems = []
        closes = cutoff_at(cutoff_rule(vendor), menu_day.meal_date)
        if not before_cutoff(closes, now):
            problems.append(t("cart_line_past_cutoff", lang))
        if (
            menu_day.is_closed
            or not vendor.is_active
            or not meal.is_active
            or menu_day.school_id != child.school_id  # the child changed school since
        ):
            problems.append(t("cart_line_unavailable", lang))
        line_addons = addons.get(line.id, [])
        problem, allergy_mark = allergy_problem(
            items,
            child_id=child.id,
            meal=meal,
            menu_option=menu_option,
            meal_option=meal_option,
            addons=line_addons,
            ack_text=line.allergy_ack,
            lang=lang,
        )
        if problem:
            problems.append(problem)
        try:
            price: LinePrice | None = price_line(
                LineInput(
                    portion_tiers=tiers.get(portion.id, ()),
                    quantity=line.quantity,
                    option_cents=[o.price_cents for o in (menu_option, meal_option) if o],
                    addon_cents=[a.price_cents for a in line_addons if a.is_active],
                    special_note=line.special_note,
                )
            )
        except DomainError:
            price = None
            problems.append(t("cart_line_unavailable", lang))
        payable = not problems
        out = {
            "cart_id": line.id,
            "meal_id": meal.id,
            "menu_day_id": menu_day.id,
            "vendor": vendor.name,
            "name": meal.name_fr if french else meal.name_en,
            "image": meal.image,
            "portion_id": portion.id,
            "size": portion.size,
            "size_label": t(f"portion_{portion.size}", lang)
            if portion.size in ("small", "large")
            else portion.size,
            "quantity": line.quantity,
            "menu_option": _name(menu_option, french),
            "meal_option": _name(meal_option, french),
            "addons": [
                {
                    "id": a.id,
                    "name": a.name_fr if french else a.name_en,
                    "price_cents": a.price_cents,
                    "price": format_money(a.price_cents, lang),
                }
                for a in line_addons
            ],
            "special_note": line.special_note or "",
            "allergy_ack": line.allergy_ack or "",
            "allergy": allergy_mark,
            "unit_price_cents": price.unit_cents if price else 0,
            "special_note_fee_cents": price.special_note_fee_cents if price else 0,
            "line_total_cents": price.total_cents if price else 0,
            "line_total": format_money(price.total_cents if price else 0, lang),
            "cutoff_at": closes.isoformat(),
            "payable": payable,
            "problems": problems,
        }
        priced.append(PricedLine(out, price, payable))
        key = (child.id, menu_day.meal_date)
        if key not in groups:
            groups[key] = {
                "child_id": child.id,
                "child_name": f"{child.first_name} {child.last_name}",
                "child_first_name": child.first_name,
                "date": menu_day.meal_date.isoformat(),
                "lines": [],
            }
        groups[key]["lines"].append(out)

    payable_prices = [p.price for p in priced if p.payable and p.price is not None]
    charges = compute_charges(
        payable_prices, rates, promo=promo, school_donation_cents=school_donation_cents
    )
    meals = sum(p.line["quantity"] for p in priced if p.payable)
    school, nutrition = giveback(meals)
    charge_out = {
        name: getattr(charges, name)
        for name in (
            "meal_net_cents",
            "special_note_fees_cents",
            "processing_fee_cents",
            "tax_cents",
            "discount_cents",
            "school_donation_cents",
            "additional_charge_cents",
            "total_pay_cents",
            "total_refund_cents",
        )
    }
    return {
        "groups": list(groups.values()),
        "cart_count": len(priced),
        "payable_count": sum(1 for p in priced if p.payable),
        "meal_count": meals,
        "charges": charge_out,
        "total_pay": format_money(charges.total_pay_cents, lang),
        "giveback": {
            "school_cents": school,
            "nutrition_cents": nutrition,
            "message": t(
                "giveback_line",
                lang,
                school=format_money(school, lang),
                nutrition=format_money(nutrition, lang),
            ),
        },
        "promo_code": promo.code if promo else None,
        "tax_bps": rates.tax_bps,  # the tax line names its rate (issue 20)
    }


def allergy_problem(
    items: Items,
    *,
    child_id: int,
    meal: Meal,
    menu_option: MenuOption | None,
    meal_option: MealOption | None,
    addons: Sequence[AddOn],
    ack_text: str | None,
    lang: str,
) -> tuple[str, dict]:
    """Why a line (a meal as composed, with the acknowledgement it stores) cannot be paid
    because of the child's allergies as they are now ("" when it can), and the line's mark for
    the cart (``{"verdict", "message"}``: the refusal, what was acknowledged, the Low notice).
    The same rule as AddToCart's (``domain.allergy.ensure_can_add_composed``): a Major allergen
    of the meal or of one of its options or add-ons; or one that needs an acknowledgement the
    line lacks (none stored, or one that does not name it: an allergy raised since)."""
    parts = components(
        items,
        child_id=child_id,
        meal=meal,
        menu_option=menu_option,
        meal_option=meal_option,
        addons=addons,
        lang=lang,
    )
    composition = compose(parts, lang)
    levels = [[n, level] for part in parts for n, level in part.matches]
    names = list(dict.fromkeys(n for n, level in levels if level != "Non-allergic"))

    def mark(message: str) -> dict:
        verdict = composition.verdict
        return {
            "verdict": verdict.value,
            "allergens": names if verdict is not MealVerdict.SAFE else [],
            "message": message,
            "levels": levels,
        }

    try:
        ensure_can_add_composed(parts, acknowledged=bool(ack_text), lang=lang)
    except DomainError as err:
        return err.message(lang), mark(err.message(lang))
    message = ""
    if composition.verdict is MealVerdict.ACKNOWLEDGE:
        message = t("allergy_ack_text", lang, allergens=", ".join(composition.acknowledge))
        rows = [(MEAL, meal), (MENU_OPTION, menu_option), (MEAL_OPTION, meal_option)]
        rows += [(ADDON, a) for a in addons]
        if not ack_covers(ack_text, _needed_names(items, parts, rows)):
            problem = t("allergy_ack_required", lang, allergens=", ".join(composition.acknowledge))
            return problem, mark(problem)
    elif composition.notice:
        message = t("allergy_notice", lang, allergens=", ".join(composition.notice))
    return "", mark(message)


def _name(option: MenuOption | MealOption | None, french: bool) -> str:
    if option is None:
        return ""
    return option.name_fr if french else option.name_en


# --- OrderSummary / CheckOrderSummary with a promo code and a donation --------------------------


def priced_summary(
    *,
    session: Session,
    parent_id: int,
    promo_code: object = None,
    donation_cents: object = None,
    require_payable: bool = False,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """``cart_summary`` with the parent's promo code (``services.promos.usable_promo``, its
    minimum checked against the payable meal net by ``domain.charges.check_promo``) and an
    optional donation ($1 to $500, ``services.donations.parse_amount``). With
    ``require_payable`` (CheckOrderSummary, before paying) a cart with nothing payable is
    refused."""
    from hotmeals.domain.charges import check_promo
    from hotmeals.services import donations, promos

    now = now or utcnow()
    promo = None
    if promo_code not in (None, ""):
        promo = promos.to_promo(
            promos.usable_promo(session=session, parent_id=parent_id, code=promo_code, now=now)
        )
    donation = 0
    if donation_cents not in (None, "", 0, "0"):
        donation = donations.parse_amount(donation_cents)
    summary = cart_summary(
        session=session,
        parent_id=parent_id,
        lang=lang,
        now=now,
        promo=promo,
        school_donation_cents=donation,
    )
    if require_payable and summary["payable_count"] == 0:
        raise DomainError("cart_nothing_payable")
    if promo is not None:
        check_promo(promo, summary["charges"]["meal_net_cents"], lang)
    return summary


# --- UpdateCartQuantity (extension: the cart screen's quantity stepper) -------------------------


def update_quantity(
    *,
    session: Session,
    parent_id: int,
    cart_id: object,
    quantity: object,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """Change one of the parent's lines to ``quantity`` (1-50) while its day is open; answers
    the whole cart summary (the totals and the tier price change with the quantity)."""
    now = now or utcnow()
    key = _as_id(cart_id, "cart_id", "cart_line_not_found", "cart_line_not_found")
    found = session.exec(
        select(CartLine, MenuDay, Vendor)
        .join(MenuDay, MenuDay.id == CartLine.menu_day_id)
        .join(Vendor, Vendor.id == MenuDay.vendor_id)
        .where(CartLine.id == key, CartLine.parent_id == parent_id)
    ).first()
    if found is None:
        raise DomainError("cart_line_not_found", field="cart_id")
    line, menu_day, vendor = found
    # Unlike AddToCart, no quantity is not 1 here: validate_quantity refuses it.
    qty = validate_quantity(quantity) if quantity in (None, "") else _quantity(quantity)
    ensure_open(cutoff_rule(vendor), menu_day.meal_date, now)
    line.quantity = qty
    session.add(line)
    session.flush()
    return cart_summary(session=session, parent_id=parent_id, lang=lang, now=now)
