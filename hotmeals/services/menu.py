"""The menu a parent books from (issue 9): a child's school meal days, the day's meals with
their allergy marking for that child, one meal's details, the vendors' add-ons.

Ownership: every call that takes a child id goes through ``children.own_child`` (another
parent's child is 'Child not found'). Each call runs a fixed number of statements whatever the
number of days, meals, portions or allergens (joins and one ``IN`` query per related table);
``tests/api/test_menu_api.py`` counts them.

The allergy rule is ``domain.allergy`` (``meal_verdict``; for the meal as composed with its
options and add-ons, each with its own allergens, ``compose`` / ``ensure_can_add_composed``,
issue 20); ``item_allergies`` reads the allergens of any meals, options and add-ons in one
statement. The cut-off is ``domain.cutoff``. The cart (``services/cart.py``) reuses the
readers below.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import String, func, literal, or_, union_all
from sqlmodel import Session, select

from hotmeals.db.models import (
    AddOn,
    AddOnAllergen,
    AllergenIngredient,
    CartLine,
    ChildAllergy,
    Meal,
    MealAllergen,
    MealOption,
    MealOptionAllergen,
    MenuDay,
    MenuDayMeal,
    MenuOption,
    MenuOptionAllergen,
    Order,
    OrderLine,
    Portion,
    PriceTier,
    Vendor,
)
from hotmeals.domain.allergy import (
    Component,
    MealVerdict,
    compose,
    ensure_can_add_composed,
    meal_verdict,
    refused_extras_text,
)
from hotmeals.domain.cutoff import TORONTO, CutoffRule, before_cutoff, cutoff_at
from hotmeals.domain.dates import parse_iso, parse_mdy
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import PAID_STATUSES, LineStatus, OrderStatus
from hotmeals.domain.pricing import PortionSize
from hotmeals.domain.pricing import PriceTier as TierRule
from hotmeals.i18n import normalize_lang, t
from hotmeals.services.children import as_id as _as_id
from hotmeals.services.children import own_child
from hotmeals.services.clock import now as utcnow

DATES_DEFAULT_DAYS = 56  # the calendar shows eight weeks from today
DATES_MAX_DAYS = 186  # a school term at most per call
ORDERED_STATUSES = (*PAID_STATUSES, OrderStatus.DELIVERED)

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


def _fr(lang: str) -> bool:
    return normalize_lang(lang) == "fr"


def meal_date(value: object, field: str = "date") -> date:
    """A meal date as ``YYYY-MM-DD`` or the old client's ``M/D/YYYY``."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise DomainError("meal_date_required", field=field)
    text = str(value).strip()
    try:
        return parse_mdy(text) if "/" in text else parse_iso(text)
    except DomainError:
        raise DomainError("invalid_date", field=field) from None


def toronto_today(now: datetime | None = None) -> date:
    return (now or utcnow()).astimezone(TORONTO).date()


def cutoff_rule(vendor: Vendor) -> CutoffRule:
    """The vendor's stored rule (``cutoff_time`` is local HH:MM)."""
    hours, _, minutes = (vendor.cutoff_time or "17:00").partition(":")
    return CutoffRule(
        days_before=vendor.cutoff_days_before,
        at=time(int(hours), int(minutes or 0)),
        skip_weekends=vendor.cutoff_skip_weekends,
    )


# --- readers shared with the cart -------------------------------------------------------------


@dataclass(frozen=True)
class MealAllergy:
    allergens: tuple[str, ...]  # every allergen of the meal, in the request's language
    matches: tuple[tuple[str, str], ...]  # (name, child's level) of the child's allergens
    verdict: MealVerdict


# --- the allergens of meals, options and add-ons (issue 20: the meal as composed) -----------

MEAL, MENU_OPTION, MEAL_OPTION, ADDON = "meal", "menu_option", "meal_option", "addon"
FIELD_OF_KIND = {
    MEAL: "meal_id",
    MENU_OPTION: "menu_option_id",
    MEAL_OPTION: "meal_option_id",
    ADDON: "addons",
}


@dataclass
class ItemAllergy:
    """One meal, option or add-on: its name and every allergen (request language), and per
    child the child's allergens it contains with the child's level. ``owner_id``: the meal of
    an option, the vendor of an add-on, the meal itself for a meal."""

    kind: str
    item_id: int
    owner_id: int
    name: str
    allergens: list[str]
    matches: dict[int, list[tuple[str, str]]]
    both: dict[str, tuple[str, str]]  # allergen name shown -> (English, French)

    def child_matches(self, child_id: int | None) -> tuple[tuple[str, str], ...]:
        return tuple(self.matches.get(child_id or 0, ()))

    def component(self, child_id: int | None) -> Component:
        return Component(
            name=self.name,
            matches=self.child_matches(child_id),
            is_meal=self.kind == MEAL,
            field=FIELD_OF_KIND[self.kind],
        )

    def mark(self, child_id: int | None, lang: str) -> dict:
        """The AllergyMark of this item alone for the child (see ``allergy_out``)."""
        matches = self.child_matches(child_id)
        if self.kind == MEAL:
            verdict = meal_verdict(level for _, level in matches)
            return allergy_out(MealAllergy(tuple(self.allergens), matches, verdict), lang)
        composition = compose([self.component(child_id)], lang)
        relevant = [n for n, level in matches if level != "Non-allergic"]
        message = ""
        if composition.verdict is MealVerdict.REFUSED:
            message = t("allergy_refused_extra", lang, items=refused_extras_text(composition, lang))
        elif composition.verdict is MealVerdict.ACKNOWLEDGE:
            message = t("allergy_ack_text", lang, allergens=", ".join(composition.acknowledge))
        elif composition.verdict is MealVerdict.NOTICE:
            message = t("allergy_notice", lang, allergens=", ".join(composition.notice))
        if composition.verdict is MealVerdict.SAFE:
            relevant = []
        return {
            "verdict": composition.verdict.value,
            "allergens": relevant,
            "message": message,
            "levels": [[n, level] for n, level in matches],
        }


Items = dict[tuple[str, int], ItemAllergy]


def item_allergies(
    session: Session,
    *,
    lang: str,
    child_ids: Iterable[int] = (),
    meal_ids: Iterable[int] = (),
    menu_option_ids: Iterable[int] = (),
    meal_option_ids: Iterable[int] = (),
    addon_ids: Iterable[int] = (),
    options_of_meals: Iterable[int] = (),
    addons_of_vendors: Iterable[int] = (),
) -> Items:
    """The allergens of the meals, menu options, meal options and add-ons named (by id, or
    every option of ``options_of_meals`` and every active add-on of ``addons_of_vendors``),
    each with the levels of ``child_ids``' allergies: ONE statement (a UNION ALL) for any
    number of items and children, none when nothing is named. Only items with at least one
    allergen are answered: an absent key has none."""
    children = sorted(set(child_ids)) or [0]
    by_owner_meals = sorted(set(options_of_meals))
    parts = []
    for kind, item, link, link_id, owner, ids, owners, active in (
        (MEAL, Meal, MealAllergen, MealAllergen.meal_id, Meal.id, meal_ids, (), None),
        (
            MENU_OPTION,
            MenuOption,
            MenuOptionAllergen,
            MenuOptionAllergen.menu_option_id,
            MenuOption.meal_id,
            menu_option_ids,
            by_owner_meals,
            None,
        ),
        (
            MEAL_OPTION,
            MealOption,
            MealOptionAllergen,
            MealOptionAllergen.meal_option_id,
            MealOption.meal_id,
            meal_option_ids,
            by_owner_meals,
            None,
        ),
        (
            ADDON,
            AddOn,
            AddOnAllergen,
            AddOnAllergen.addon_id,
            AddOn.vendor_id,
            addon_ids,
            sorted(set(addons_of_vendors)),
            AddOn.is_active,
        ),
    ):
        conditions = []
        keys = sorted(set(ids))
        if keys:
            conditions.append(item.id.in_(keys))
        if owners:
            owned = owner.in_(list(owners))
            conditions.append(owned & active if active is not None else owned)
        if not conditions:
            continue
        parts.append(
            select(
                literal(kind, type_=String).label("kind"),
                owner.label("owner_id"),
                item.id.label("item_id"),
                item.name_en.label("item_en"),
                item.name_fr.label("item_fr"),
                AllergenIngredient.name_en.label("name_en"),
                AllergenIngredient.name_fr.label("name_fr"),
                ChildAllergy.child_id.label("child_id"),
                ChildAllergy.alert_level.label("level"),
            )
            .select_from(item)
            .join(link, link_id == item.id)
            .join(AllergenIngredient, AllergenIngredient.id == link.ingredient_id)
            .outerjoin(
                ChildAllergy,
                (ChildAllergy.ingredient_id == link.ingredient_id)
                & ChildAllergy.child_id.in_(children),
            )
            .where(or_(*conditions))
        )
    if not parts:
        return {}
    statement: Any = parts[0] if len(parts) == 1 else union_all(*parts)
    rows = sorted(
        session.execute(statement).all(),
        key=lambda r: (r.kind, r.item_id, r.name_en, r.child_id or 0),
    )
    french = _fr(lang)
    out: Items = {}
    for row in rows:
        key = (row.kind, row.item_id)
        found = out.get(key)
        if found is None:
            found = out[key] = ItemAllergy(
                kind=row.kind,
                item_id=row.item_id,
                owner_id=row.owner_id,
                name=row.item_fr if french else row.item_en,
                allergens=[],
                matches={},
                both={},
            )
        name = row.name_fr if french else row.name_en
        if name not in found.allergens:
            found.allergens.append(name)
            found.both[name] = (row.name_en, row.name_fr)
        if row.child_id is not None and row.level is not None:
            found.matches.setdefault(row.child_id, []).append((name, row.level))
    return out


def empty_item(kind: str, item_id: int, owner_id: int, name: str) -> ItemAllergy:
    """An item with no allergen (absent from ``item_allergies``' answer)."""
    return ItemAllergy(kind, item_id, owner_id, name, [], {}, {})


def allergy_out(allergy: MealAllergy, lang: str) -> dict:
    """The marking a menu shows for a child: the verdict and the allergens named."""
    relevant = [
        name
        for name, level in allergy.matches
        if allergy.verdict is not MealVerdict.SAFE and level != "Non-allergic"
    ]
    names = ", ".join(relevant)
    message = ""
    if allergy.verdict is MealVerdict.REFUSED:
        message = t("allergy_refused", lang, allergens=names)
    elif allergy.verdict is MealVerdict.ACKNOWLEDGE:
        message = t("allergy_ack_text", lang, allergens=names)
    elif allergy.verdict is MealVerdict.NOTICE:
        message = t("allergy_notice", lang, allergens=names)
    return {
        "verdict": allergy.verdict.value,
        "allergens": relevant,
        "message": message,
        "levels": [[n, level] for n, level in allergy.matches],
    }


@dataclass(frozen=True)
class PortionPrices:
    portion_id: int
    meal_id: int
    size: str
    tiers: tuple[TierRule, ...]


def portions_of(session: Session, meal_ids: Iterable[int]) -> dict[int, list[PortionPrices]]:
    """The meals' portions with their price tiers, small first: one statement."""
    ids = sorted(set(meal_ids))
    if not ids:
        return {}
    rows = session.exec(
        select(
            Portion.meal_id,
            Portion.id,
            Portion.size,
            PriceTier.min_quantity,
            PriceTier.unit_price_cents,
        )
        .join(PriceTier, PriceTier.portion_id == Portion.id)
        .where(Portion.meal_id.in_(ids))
        .order_by(Portion.meal_id, Portion.id, PriceTier.min_quantity)
    ).all()
    tiers: dict[int, list[TierRule]] = {}
    heads: dict[int, tuple[int, str]] = {}
    for meal_id, portion_id, size, min_quantity, cents in rows:
        heads[portion_id] = (meal_id, size)
        tiers.setdefault(portion_id, []).append(TierRule(min_quantity, cents))
    out: dict[int, list[PortionPrices]] = {meal_id: [] for meal_id in ids}
    for portion_id, (meal_id, size) in heads.items():
        out[meal_id].append(PortionPrices(portion_id, meal_id, size, tuple(tiers[portion_id])))
    for found in out.values():
        found.sort(key=lambda p: (p.size != PortionSize.SMALL, p.portion_id))
    return out


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


def _cutoff_out(vendor: Vendor, day: date, now: datetime) -> tuple[str, bool]:
    closes = cutoff_at(cutoff_rule(vendor), day)
    return closes.isoformat(), before_cutoff(closes, now)


# --- GetDates -----------------------------------------------------------------------------------


def get_dates(
    *,
    session: Session,
    parent_id: int,
    child_id: object,
    from_date: object = None,
    to_date: object = None,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """The child's school meal days from ``from_date`` (default: today in Toronto) to
    ``to_date`` (default: eight weeks on): open or closed with the reason, each day's cut-off
    and whether it is still open, and the meals already ordered or in the cart for the child.
    Four statements whatever the number of days."""
    child = own_child(session, parent_id=parent_id, child_id=child_id)
    now = now or utcnow()
    start = meal_date(from_date, "from_date") if from_date else toronto_today(now)
    end = meal_date(to_date, "to_date") if to_date else start + timedelta(days=DATES_DEFAULT_DAYS)
    if end < start or (end - start).days > DATES_MAX_DAYS:
        raise DomainError("date_range_invalid", field="to_date", max=DATES_MAX_DAYS)
    days = session.exec(
        select(MenuDay, Vendor)
        .join(Vendor, Vendor.id == MenuDay.vendor_id)
        .where(
            MenuDay.school_id == child.school_id,
            MenuDay.meal_date >= start,
            MenuDay.meal_date <= end,
        )
        .order_by(MenuDay.meal_date, Vendor.name)
    ).all()
    ordered: dict[date, int] = dict(
        session.exec(
            select(OrderLine.meal_date, func.sum(OrderLine.quantity - OrderLine.cancelled_quantity))
            .join(Order, Order.id == OrderLine.order_id)
            .where(
                OrderLine.child_id == child.id,
                OrderLine.meal_date >= start,
                OrderLine.meal_date <= end,
                OrderLine.status == LineStatus.ACTIVE,
                Order.status.in_([str(s) for s in ORDERED_STATUSES]),
            )
            .group_by(OrderLine.meal_date)
        ).all()
    )
    in_cart: dict[date, int] = dict(
        session.exec(
            select(MenuDay.meal_date, func.sum(CartLine.quantity))
            .join(MenuDay, MenuDay.id == CartLine.menu_day_id)
            .where(
                CartLine.parent_id == parent_id,
                CartLine.child_id == child.id,
                MenuDay.meal_date >= start,
                MenuDay.meal_date <= end,
            )
            .group_by(MenuDay.meal_date)
        ).all()
    )
    french = _fr(lang)
    out = []
    for day, vendor in days:
        closes, before_cutoff = _cutoff_out(vendor, day.meal_date, now)
        out.append(
            {
                "date": day.meal_date.isoformat(),
                "menu_day_id": day.id,
                "vendor_id": vendor.id,
                "vendor": vendor.name,
                "is_closed": day.is_closed,
                "closed_reason": (day.closed_reason_fr if french else day.closed_reason_en)
                if day.is_closed
                else "",
                "cutoff_at": closes,
                "is_open": before_cutoff and not day.is_closed and vendor.is_active,
                "ordered_quantity": int(ordered.get(day.meal_date) or 0),
                "cart_quantity": int(in_cart.get(day.meal_date) or 0),
            }
        )
    return {
        "child_id": child.id,
        "from_date": start.isoformat(),
        "to_date": end.isoformat(),
        "days": out,
    }


# --- GetMenu ------------------------------------------------------------------------------------


def _served_days(session: Session, *, school_id: int, day: date) -> list[tuple[MenuDay, Vendor]]:
    return list(
        session.exec(
            select(MenuDay, Vendor)
            .join(Vendor, Vendor.id == MenuDay.vendor_id)
            .where(MenuDay.school_id == school_id, MenuDay.meal_date == day)
            .order_by(Vendor.name)
        ).all()
    )


def open_days_or_refuse(
    session: Session, *, school_id: int, day: date, lang: str
) -> list[tuple[MenuDay, Vendor]]:
    """The vendors serving the school on ``day``; a day the school does not serve, or a closed
    one (with its reason), is refused (``open_or_refuse``)."""
    return open_or_refuse(_served_days(session, school_id=school_id, day=day), day=day, lang=lang)


def open_or_refuse(
    served: Sequence[tuple[MenuDay, Vendor]], *, day: date, lang: str
) -> list[tuple[MenuDay, Vendor]]:
    """Of the (menu day, vendor) pairs serving a school on ``day`` (by vendor name), the open
    ones; none at all is 'no meals on that date', none open is 'closed' with the first one's
    reason."""
    if not served:
        raise DomainError("menu_date_not_served", field="date", date=day.isoformat())
    open_days = [(d, v) for d, v in served if not d.is_closed and v.is_active]
    if not open_days:
        first = served[0][0]
        reason = (first.closed_reason_fr if _fr(lang) else first.closed_reason_en) or ""
        raise DomainError("menu_day_closed", field="date", date=day.isoformat(), reason=reason)
    return open_days


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
    many of it are in the parent's cart for the child that day. Six statements whatever the
    number of meals."""
    child = own_child(session, parent_id=parent_id, child_id=child_id)
    day = meal_date(date)
    now = now or utcnow()
    open_days = open_days_or_refuse(session, school_id=child.school_id, day=day, lang=lang)
    by_day = {d.id: (d, v) for d, v in open_days}
    rows = session.exec(
        select(MenuDayMeal.menu_day_id, Meal)
        .join(Meal, Meal.id == MenuDayMeal.meal_id)
        .where(MenuDayMeal.menu_day_id.in_(list(by_day)), Meal.is_active)
        .order_by(MenuDayMeal.menu_day_id, Meal.name_en)
    ).all()
    meal_ids = [meal.id for _, meal in rows]
    portions = portions_of(session, meal_ids)
    items = item_allergies(
        session,
        lang=lang,
        child_ids=[child.id] if child.id is not None else [],
        meal_ids=meal_ids,
        options_of_meals=meal_ids,
        addons_of_vendors=[v.id for _, v in open_days],
    )
    extras_of = _extras_by_owner(items, child.id)
    in_cart: dict[tuple[int, int], int] = {}
    if rows:  # the child's meals already in the parent's cart that day, one statement
        for menu_day_id, meal_id, quantity in session.exec(
            select(CartLine.menu_day_id, CartLine.meal_id, func.sum(CartLine.quantity))
            .where(
                CartLine.parent_id == parent_id,
                CartLine.child_id == child.id,
                CartLine.menu_day_id.in_(list(by_day)),
            )
            .group_by(CartLine.menu_day_id, CartLine.meal_id)
        ).all():
            in_cart[(menu_day_id, meal_id)] = int(quantity or 0)
    french = _fr(lang)
    meals = []
    for menu_day_id, meal in rows:
        menu_day, vendor = by_day[menu_day_id]
        closes, before_cutoff = _cutoff_out(vendor, day, now)
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
                "name": meal.name_fr if french else meal.name_en,
                "description": meal.description_fr if french else meal.description_en,
                "image": meal.image,
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


# --- MenuDetail ---------------------------------------------------------------------------------


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
    read them already, else one more statement."""
    statement = select(AddOn).where(AddOn.is_active).order_by(AddOn.vendor_id, AddOn.name_en)
    if vendor_ids is not None:
        statement = statement.where(AddOn.vendor_id.in_(list(vendor_ids)))
    rows = session.exec(statement).all()
    if items is None:
        items = item_allergies(
            session,
            lang=lang,
            child_ids=[child_id] if child_id else [],
            addon_ids=[a.id for a in rows if a.id is not None],
        )
    french = _fr(lang)
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
    model,
    meal_id: int,
    lang: str,
    items: Items | None = None,
    child_id: int | None = None,
) -> list[dict]:
    french = _fr(lang)
    kind = MENU_OPTION if model is MenuOption else MEAL_OPTION
    rows = session.exec(select(model).where(model.meal_id == meal_id).order_by(model.id)).all()
    return [
        {
            "id": o.id,
            "name": o.name_fr if french else o.name_en,
            "price_cents": o.price_cents,
            "price": format_money(o.price_cents, lang),
            **_marked((items or {}).get((kind, o.id)), child_id, lang),
        }
        for o in rows
    ]


def active_meal(session: Session, meal_id: object) -> tuple[Meal, Vendor]:
    key = _as_id(meal_id, "meal_id", "meal_not_found", "meal_not_found")
    found = session.exec(
        select(Meal, Vendor).join(Vendor, Vendor.id == Meal.vendor_id).where(Meal.id == key)
    ).first()
    if found is None or not found[0].is_active:
        raise DomainError("meal_not_found", field="meal_id")
    return found


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
    Seven statements at most."""
    child = own_child(session, parent_id=parent_id, child_id=child_id) if child_id else None
    meal, vendor = active_meal(session, meal_id)
    assert meal.id is not None and vendor.id is not None  # rows read from the database
    french = _fr(lang)
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
        "name": meal.name_fr if french else meal.name_en,
        "description": meal.description_fr if french else meal.description_en,
        "image": meal.image,
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


# --- AddsOn -------------------------------------------------------------------------------------


def list_addons(
    *,
    session: Session,
    vendor_id: object = None,
    lang: str = "en",
    parent_id: int | None = None,
    child_id: object = None,
) -> list[dict]:
    """The active add-ons, of one vendor when ``vendor_id`` is given, each with its allergens
    and, for ``child_id`` (one of ``parent_id``'s children), its AllergyMark: two statements
    (three with a child)."""
    child_key = None
    if child_id not in (None, "", 0, "0"):
        if parent_id is None:
            raise DomainError("child_not_found", field="child_id")
        child_key = own_child(session, parent_id=parent_id, child_id=child_id).id
    if vendor_id is None or (isinstance(vendor_id, str) and not vendor_id.strip()):
        return _addons(session, None, lang, child_id=child_key)
    key = _as_id(vendor_id, "vendor_id", "vendor_not_found", "vendor_not_found")
    return _addons(session, [key], lang, child_id=child_key)


# --- the meal as composed, in the dialog before the tap ------------------------------------------


def composed_allergy(
    detail: dict,
    *,
    menu_option_id: object = None,
    meal_option_id: object = None,
    addon_ids: object = (),
    lang: str = "en",
) -> dict:
    """What AddToCart will say about the meal of ``detail`` (``menu_detail``'s answer for a
    child) with these choices: the same rule (``domain.allergy.ensure_can_add_composed``) on
    the marks the detail carries, no statement. ``verdict`` the worst part's, ``message`` the
    refusal or what to acknowledge, ``ack_text`` the sentence the parent confirms."""
    parts: list[Component] = []
    own = detail.get("allergy") or {}
    parts.append(
        Component(
            name=str(detail.get("name") or ""),
            matches=tuple((str(n), str(lv)) for n, lv in own.get("levels", [])),
            is_meal=True,
        )
    )
    chosen: list[tuple[str, str, object]] = [
        ("menu_options", "menu_option_id", menu_option_id),
        ("meal_options", "meal_option_id", meal_option_id),
    ]
    wanted = addon_ids if isinstance(addon_ids, (list, tuple, set)) else [addon_ids]
    chosen += [("addons", "addons", a) for a in wanted]
    for list_name, field, key in chosen:
        if key in (None, "", 0, "0"):
            continue
        for item in detail.get(list_name) or []:
            if str(item.get("id")) == str(key):
                mark = item.get("allergy") or {}
                parts.append(
                    Component(
                        name=str(item.get("name") or ""),
                        matches=tuple((str(n), str(lv)) for n, lv in mark.get("levels", [])),
                        field=field,
                    )
                )
    composition = compose(parts, lang)
    ack_text = ""
    if composition.acknowledge:
        ack_text = t("allergy_ack_text", lang, allergens=", ".join(composition.acknowledge))
    try:
        ensure_can_add_composed(parts, acknowledged=True, lang=lang)
        message = ack_text
        if composition.verdict is MealVerdict.NOTICE:
            message = t("allergy_notice", lang, allergens=", ".join(composition.notice))
    except DomainError as err:
        message = err.message(lang)
    return {
        "verdict": composition.verdict.value,
        "message": message,
        "ack_required": composition.verdict is MealVerdict.ACKNOWLEDGE,
        "ack_text": ack_text,
        "can_add": composition.verdict is not MealVerdict.REFUSED,
    }
