"""The cart (issue 9): adding a meal for a child on a meal day, price tiers, removing a line,
and the cart grouped by child and date with what it costs.

Prices, options and add-ons are read from the database on every call, never taken from the
client: a line stores only ids, a quantity, the note and the allergy acknowledgement, and is
priced with ``domain.pricing.price_line``; the cart's charges are ``domain.charges``. The
allergy rule is ``domain.allergy.ensure_can_add``, the cut-off ``domain.cutoff``; both are
checked again when the cart is listed, so a line whose cut-off passed or whose child's
allergies changed is flagged and cannot be paid (the rest can).

Every call runs a fixed number of statements whatever the number of lines
(``tests/api/test_cart_api.py`` counts them for 1 and 12 lines).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import delete, func
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
from hotmeals.domain.allergy import MealVerdict, ensure_can_add, meal_verdict
from hotmeals.domain.charges import ChargeRates, Promo, compute_charges
from hotmeals.domain.cutoff import cutoff_at, ensure_open
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
from hotmeals.services.children import _as_id, own_child
from hotmeals.services.clock import now as utcnow
from hotmeals.services.menu import cutoff_rule, meal_date, open_days_or_refuse, portion_out
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


# --- AddToCart ----------------------------------------------------------------------------------


def _served(
    session: Session, *, school_id: int, meal_id: int, menu_day_id: int | None, day: date | None
) -> tuple[MenuDay, Vendor, Meal] | None:
    """The menu day at the child's school that serves ``meal_id`` (by id or by date); None
    when no day of that date serves it."""
    statement = (
        select(MenuDay, Vendor, Meal)
        .join(MenuDayMeal, MenuDayMeal.menu_day_id == MenuDay.id)
        .join(Vendor, Vendor.id == MenuDay.vendor_id)
        .join(Meal, Meal.id == MenuDayMeal.meal_id)
        .where(MenuDay.school_id == school_id, MenuDayMeal.meal_id == meal_id)
    )
    if menu_day_id is not None:
        statement = statement.where(MenuDay.id == menu_day_id)
    else:
        statement = statement.where(MenuDay.meal_date == day)
    found = session.exec(statement).first()
    if found is None:
        if menu_day_id is not None:
            raise DomainError("meal_not_on_menu", field="meal_id")
        return None
    return found


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
    """Add one line: the meal must be on the child's school menu that day (``menu_day_id`` from
    GetMenu, or ``date``), the day open and before its cut-off, the child's allergies allow it
    (Major refused; High/Medium need ``allergy_ack``, stored with the line), the portion,
    options and add-ons the meal's or its vendor's. Answers the line and the cart count."""
    now = now or utcnow()
    child = own_child(session, parent_id=parent_id, child_id=child_id)
    meal_key = _as_id(meal_id, "meal_id", "meal_not_found", "meal_not_found")
    day_key = _optional_id(menu_day_id, "menu_day_id", "meal_not_on_menu")
    day = None if day_key is not None else meal_date(date)
    qty = _quantity(quantity)
    note = special_note(special_note_text)
    addon_keys = _addon_ids(addons)
    found = _served(
        session, school_id=child.school_id, meal_id=meal_key, menu_day_id=day_key, day=day
    )
    if found is None:
        assert day is not None
        open_days_or_refuse(session, school_id=child.school_id, day=day, lang=lang)
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

    matches = _matches(session, [(child.id, meal.id)], lang).get((child.id, meal.id), [])
    verdict = ensure_can_add(matches, acknowledged=bool(allergy_ack))
    ack_text = None
    if verdict is MealVerdict.ACKNOWLEDGE:
        named = ", ".join(n for n, level in matches if level in ("High", "Medium"))
        ack_text = t("allergy_ack_text", lang, allergens=named)

    portion, tiers = _portion(session, meal.id, portion_id, size)
    menu_option_key = _optional_id(menu_option_id, "menu_option_id", "option_not_found")
    meal_option_key = _optional_id(meal_option_id, "meal_option_id", "option_not_found")
    option_cents = _option_prices(session, meal.id, menu_option_key, meal_option_key)
    addon_rows = _addons(session, vendor.id, addon_keys)
    price = price_line(
        LineInput(
            portion_tiers=tiers,
            quantity=qty,
            option_cents=option_cents,
            addon_cents=[a.price_cents for a in addon_rows],
            special_note=note,
        )
    )
    lines = session.exec(
        select(func.count()).select_from(CartLine).where(CartLine.parent_id == parent_id)
    ).one()
    if lines >= CART_MAX_LINES:
        raise DomainError("cart_full", max=CART_MAX_LINES)
    line = CartLine(
        parent_id=parent_id,
        child_id=child.id,
        menu_day_id=menu_day.id,
        meal_id=meal.id,
        portion_id=portion.id,
        quantity=qty,
        menu_option_id=menu_option_key,
        meal_option_id=meal_option_key,
        special_note=note,
        allergy_ack=ack_text,
        allergy_ack_at=now if ack_text else None,
        created_at=now,
    )
    session.add(line)
    session.flush()
    session.add_all(CartLineAddOn(cart_line_id=line.id, addon_id=a.id) for a in addon_rows)
    session.flush()
    notice = ""
    if verdict is MealVerdict.NOTICE:
        notice = t("allergy_notice", lang, allergens=", ".join(n for n, _ in matches))
    return {
        "cart_id": line.id,
        "child_id": child.id,
        "menu_day_id": menu_day.id,
        "date": menu_day.meal_date.isoformat(),
        "meal_id": meal.id,
        "portion_id": portion.id,
        "quantity": qty,
        "unit_price_cents": price.unit_cents,
        "line_total_cents": price.total_cents,
        "line_total": format_money(price.total_cents, lang),
        "allergy_ack": ack_text,
        "allergy_notice": notice,
        "cart_count": lines + 1,
    }


def _portion(
    session: Session, meal_id: int, portion_id: object, size: object
) -> tuple[Portion, tuple[TierRule, ...]]:
    """The meal's portion, by id or by size ('small' when neither is given), with its tiers."""
    statement = select(Portion, PriceTier).join(PriceTier, PriceTier.portion_id == Portion.id)
    statement = statement.where(Portion.meal_id == meal_id).order_by(PriceTier.min_quantity)
    if portion_id not in (None, "", 0):
        statement = statement.where(
            Portion.id == _as_id(portion_id, "portion_id", "portion_not_found", "portion_not_found")
        )
    else:
        wanted = str(size or "small").strip().lower()
        if wanted not in ("small", "large"):
            raise DomainError("portion_not_found", field="size")
        statement = statement.where(Portion.size == wanted)
    rows = session.exec(statement).all()
    if not rows:
        raise DomainError("portion_not_found", field="portion_id")
    portion = rows[0][0]
    return portion, tuple(TierRule(tier.min_quantity, tier.unit_price_cents) for _, tier in rows)


def _option_prices(
    session: Session, meal_id: int, menu_option_id: int | None, meal_option_id: int | None
) -> list[int]:
    cents: list[int] = []
    for model, key, field in (
        (MenuOption, menu_option_id, "menu_option_id"),
        (MealOption, meal_option_id, "meal_option_id"),
    ):
        if key is None:
            continue
        row = session.get(model, key)
        if row is None or row.meal_id != meal_id:
            raise DomainError("option_not_found", field=field)
        cents.append(row.price_cents)
    return cents


def _addons(session: Session, vendor_id: int, ids: Sequence[int]) -> list[AddOn]:
    if not ids:
        return []
    rows = session.exec(
        select(AddOn).where(AddOn.id.in_(list(ids)), AddOn.vendor_id == vendor_id, AddOn.is_active)
    ).all()
    if len(rows) != len(ids):
        raise DomainError("addon_not_found", field="addons")
    return list(rows)


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
    matches: dict[tuple[int, int], list[tuple[str, str]]] = {}
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
        matches = _matches(session, {(row[5].id, row[3].id) for row in rows}, lang)

    groups: dict[tuple[int, date], dict] = {}
    priced: list[PricedLine] = []
    for line, menu_day, vendor, meal, portion, child, menu_option, meal_option in rows:
        problems = []
        closes = cutoff_at(cutoff_rule(vendor), menu_day.meal_date)
        if now >= closes:
            problems.append(t("cart_line_past_cutoff", lang))
        if (
            menu_day.is_closed
            or not vendor.is_active
            or not meal.is_active
            or menu_day.school_id != child.school_id  # the child changed school since
        ):
            problems.append(t("cart_line_unavailable", lang))
        found = matches.get((child.id, meal.id), [])
        verdict = meal_verdict(level for _, level in found)
        if verdict is MealVerdict.REFUSED:
            problems.append(t("allergy_refused", lang, allergens=", ".join(n for n, _ in found)))
        elif verdict is MealVerdict.ACKNOWLEDGE and not line.allergy_ack:
            problems.append(
                t(
                    "allergy_ack_required",
                    lang,
                    allergens=", ".join(n for n, lv in found if lv in ("High", "Medium")),
                )
            )
        line_addons = addons.get(line.id, [])
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
    }


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
