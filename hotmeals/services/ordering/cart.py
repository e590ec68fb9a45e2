"""The cart: adding one line (AddToCart), changing its quantity, removing it, and the cart
grouped by child and date with what it costs.

The rules of a line are ``lines.check_line``; the cut-off and the allergy rule are checked
again when the cart is listed, so a line whose cut-off passed or whose child's allergies
changed is flagged and cannot be paid (the rest can). The cart's charges are
``domain.charges``. Every call runs a fixed number of statements whatever the number of lines
(``tests/api/test_cart_api.py`` counts them for 1 and 12 lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, delete
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import (
    AddOn,
    CartLine,
    CartLineAddOn,
    Child,
    Meal,
    MealOption,
    MenuDay,
    MenuOption,
    Portion,
    Vendor,
)
from hotmeals.domain.charges import (
    ChargeRates,
    OrderCharges,
    Promo,
    compute_charges,
)
from hotmeals.domain.cutoff import before_cutoff, cutoff_at, ensure_open
from hotmeals.domain.diet import Diet
from hotmeals.domain.errors import DomainError
from hotmeals.domain.pricing import (
    LineInput,
    LinePrice,
    price_line,
    validate_quantity,
)
from hotmeals.domain.pricing import PriceTier as TierRule
from hotmeals.i18n import t
from hotmeals.services import menu_cache
from hotmeals.services.children import child_diets
from hotmeals.services.ordering.allergens import (
    AllergyMark,
    Dish,
    Items,
    allergy_problem,
    item_allergies,
)
from hotmeals.services.ordering.days import cutoff_rule
from hotmeals.services.ordering.diets import DietFit, dish_marks, fit
from hotmeals.services.ordering.labels import is_french
from hotmeals.services.ordering.lines import (
    CART_MAX_LINES,
    MealChoice,
    cart_count,
    check_added_line,
    chosen_line,
    insert_lines,
)
from hotmeals.services.ordering.menu import tiers_of
from hotmeals.services.ordering.place import OrderItem
from hotmeals.settings import get_settings

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from Python 3.12


@dataclass(frozen=True)
class AddedLine:
    """A line AddToCart added, priced, and the cart's count with it."""

    cart_id: int
    child_id: int
    menu_day_id: int
    date: date
    meal_id: int
    portion_id: int
    quantity: int
    unit_price_cents: int
    line_total_cents: int
    allergy_ack: str | None  # what the parent acknowledged, if anything
    allergy_notice: str  # a Low allergen's notice, else ""
    cart_count: int


def add_to_cart(
    *,
    session: Session,
    parent_id: int,
    lang: str = "en",
    **choice: Unpack[MealChoice],
) -> AddedLine:
    """Add one line (``check_line``'s rules; High/Medium acknowledgement stored with the
    line). Answers the line and the cart count."""
    now = clock.now()
    batch, checked = check_added_line(
        session, parent_id=parent_id, request=chosen_line(choice), lang=lang, now=now
    )
    if batch.cart_count >= CART_MAX_LINES:
        raise DomainError("cart_full", max=CART_MAX_LINES)
    (line_id,) = insert_lines(session, parent_id=parent_id, lines=[checked], now=now)
    assert checked.child.id is not None and checked.menu_day.id is not None  # read rows
    assert checked.meal.id is not None and checked.portion.id is not None
    return AddedLine(
        cart_id=line_id,
        child_id=checked.child.id,
        menu_day_id=checked.menu_day.id,
        date=checked.menu_day.meal_date,
        meal_id=checked.meal.id,
        portion_id=checked.portion.id,
        quantity=checked.quantity,
        unit_price_cents=checked.price.unit_cents,
        line_total_cents=checked.price.total_cents,
        allergy_ack=checked.ack_text,
        allergy_notice=checked.notice,
        cart_count=batch.cart_count + 1,
    )


def update_quantity(
    *,
    session: Session,
    parent_id: int,
    cart_id: int,
    quantity: int | None,
    lang: str = "en",
) -> CartSummary:
    """Change one of the parent's lines to ``quantity`` (1-50) while its day is open; answers
    the whole cart summary (the totals and the tier price change with the quantity). Another
    parent's line, or no line (``cart_id`` 0), is 'not found'."""
    now = clock.now()
    found = session.exec(
        select(CartLine, MenuDay, Vendor)
        .join(MenuDay, col(MenuDay.id) == CartLine.menu_day_id)
        .join(Vendor, col(Vendor.id) == MenuDay.vendor_id)
        .where(CartLine.id == cart_id, CartLine.parent_id == parent_id)
    ).first()
    if found is None:
        raise DomainError("cart_line_not_found", field="cart_id")
    line, menu_day, vendor = found
    # Unlike AddToCart, no quantity is not 1 here: validate_quantity refuses it.
    qty = validate_quantity(quantity)
    ensure_open(cutoff_rule(vendor), menu_day.meal_date, now)
    line.quantity = qty
    session.add(line)
    session.flush()
    return summary_at(session, parent_id=parent_id, lang=lang, now=now)


def delete_line(*, session: Session, parent_id: int, cart_id: int) -> int:
    """Remove one of the parent's lines (another parent's, or ``cart_id`` 0, is 'not found');
    answers how many lines the cart holds now."""
    line = session.get(CartLine, cart_id)
    if line is None or line.parent_id != parent_id:
        raise DomainError("cart_line_not_found", field="cart_id")
    session.execute(delete(CartLineAddOn).where(col(CartLineAddOn.cart_line_id) == line.id))
    session.delete(line)
    session.flush()
    return cart_count(session, parent_id)


@dataclass(frozen=True)
class LineAddOn:
    """An add-on of a cart line, named in the parent's language."""

    id: int
    name: str
    price_cents: int


@dataclass(frozen=True)
class CartItem:
    """One line of the cart, priced from today's catalogue; ``payable`` False (with the
    ``problems``, in the parent's language) when it cannot be paid."""

    cart_id: int
    meal_id: int
    menu_day_id: int
    vendor: str
    name: str
    image: str | None
    portion_id: int
    size: str
    size_label: str
    quantity: int
    menu_option: str
    meal_option: str
    addons: tuple[LineAddOn, ...]
    special_note: str
    allergy_ack: str
    allergy: AllergyMark  # the line's allergy mark (``allergens.allergy_problem``)
    unit_price_cents: int
    special_note_fee_cents: int
    line_total_cents: int
    cutoff_at: datetime
    payable: bool
    problems: tuple[str, ...]
    # The line's meal as composed for the child's dietary needs (None: the child has none);
    # a preference, never a problem that stops payment.
    diet: DietFit | None = None


@dataclass(frozen=True)
class CartGroup:
    """The lines of one child on one day."""

    child_id: int
    child_name: str
    child_first_name: str
    date: date
    lines: tuple[CartItem, ...]


@dataclass(frozen=True)
class CartSummary:
    """The cart by child and date and the charges of its payable lines."""

    groups: tuple[CartGroup, ...]
    cart_count: int
    payable_count: int
    meal_count: int  # the payable meals (quantities): what the order gives back is per meal
    charges: OrderCharges
    promo_code: str | None
    tax_bps: int  # the tax line names its rate
    # What an order of the payable lines copies (the checkout writes it from these): each
    # payable line's rows and price, in the order of ``groups``.
    sold: tuple[OrderItem, ...] = ()


# Built once (statements built per call cost more CPU than SQLite takes to run them).
_CART_LINES = (
    select(CartLine, MenuDay, Child)
    .join(MenuDay, col(MenuDay.id) == CartLine.menu_day_id)
    .join(Child, col(Child.id) == CartLine.child_id)
    .where(col(CartLine.parent_id) == bindparam("parent_id"))
    .order_by(
        col(Child.is_default).desc(),
        col(Child.first_name),
        col(MenuDay.meal_date),
        col(CartLine.id),
    )
)
_ADDONS_OF_LINES = (
    select(col(CartLineAddOn.cart_line_id), AddOn)
    .join(AddOn, col(AddOn.id) == CartLineAddOn.addon_id)
    .where(col(CartLineAddOn.cart_line_id).in_(bindparam("ids", expanding=True)))
    .order_by(col(AddOn.name_en))
)

CartRow = tuple[
    CartLine, MenuDay, Vendor, Meal, Portion, Child, MenuOption | None, MealOption | None
]


def _with_menu(
    menus: menu_cache.Catalog, lines: Sequence[tuple[CartLine, MenuDay, Child]]
) -> list[CartRow]:
    """Each cart line with its vendor, meal, portion and options from the menus' copy; a line
    whose meal or portion is gone is left out (as an inner join would)."""
    rows: list[CartRow] = []
    for line, menu_day, child in lines:
        vendor = menus.vendors.get(menu_day.vendor_id)
        meal = menus.meals.get(line.meal_id)
        portion = menus.portion_by_id.get(line.portion_id)
        if vendor is None or meal is None or portion is None:
            continue
        menu_option = menus.menu_options.get(line.menu_option_id or 0)
        meal_option = menus.meal_options.get(line.meal_option_id or 0)
        rows.append((line, menu_day, vendor, meal, portion, child, menu_option, meal_option))
    return rows


def cart_summary(*, session: Session, parent_id: int, lang: str = "en") -> CartSummary:
    """The parent's cart now (``summary_at`` on the clock's now)."""
    return summary_at(session, parent_id=parent_id, lang=lang, now=clock.now())


def summary_at(
    session: Session,
    *,
    parent_id: int,
    lang: str = "en",
    now: datetime,
    rates: ChargeRates | None = None,
    promo: Promo | None = None,
    school_donation_cents: int = 0,
    with_diets: bool = True,
) -> CartSummary:
    """The parent's cart grouped by child and date, each line priced from today's catalogue
    and flagged when it cannot be paid (cut-off passed, day closed, meal withdrawn, or the
    child's allergies now refuse it or need an acknowledgement it lacks); the charges of the
    payable lines (``domain.charges.compute_charges``) and how many meals they are (what they
    give back is ``domain.pricing.giveback_summary`` of it). Names and problems in ``lang``.
    The meals, prices and allergens from the menus' cached copy (``services/menu_cache``);
    with the children's dietary needs (``with_diets``: each line's ``diet``), five statements
    whatever the number of lines. ``now``: the calling request's one instant."""
    rates = rates or get_settings().charge_rates
    french = is_french(lang)
    lines = session.execute(_CART_LINES, {"parent_id": parent_id}).tuples().all()
    menus = menu_cache.catalog(session)
    rows = _with_menu(menus, lines)
    line_ids = [row[0].id for row in rows]
    addons: dict[int, list[AddOn]] = {}
    tiers: dict[int, list[TierRule]] = {}
    items: Items = {}
    needs: dict[int, frozenset[Diet]] = {}
    if rows:
        if with_diets:
            needs = child_diets(session, {row[5].id or 0 for row in rows})
        for cart_line_id, addon in session.execute(_ADDONS_OF_LINES, {"ids": line_ids}).all():
            addons.setdefault(cart_line_id, []).append(addon)
        tiers = tiers_of(session, (row[4].id for row in rows))  # the menus' cached copy
        # One statement: the allergens of every meal, option and add-on of the cart, with the
        # children's allergies as they are now: checked again at payment.
        items = item_allergies(
            session,
            lang=lang,
            child_ids={row[5].id or 0 for row in rows},
            meal_ids={row[3].id or 0 for row in rows},
            menu_option_ids={row[6].id or 0 for row in rows if row[6] is not None},
            meal_option_ids={row[7].id or 0 for row in rows if row[7] is not None},
            addon_ids={a.id or 0 for found in addons.values() for a in found},
        )

    groups: dict[tuple[int, date], list[CartItem]] = {}
    children: dict[tuple[int, date], Child] = {}
    payable_prices: list[LinePrice] = []
    sold: dict[int, OrderItem] = {}
    for line, menu_day, vendor, meal, portion, child, menu_option, meal_option in rows:
        assert line.id is not None and child.id is not None and portion.id is not None  # read
        assert meal.id is not None and menu_day.id is not None
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
            dish=Dish(meal, menu_option, meal_option, line_addons),
            ack_text=line.allergy_ack,
            lang=lang,
        )
        if problem:
            problems.append(problem)
        dish = Dish(meal, menu_option, meal_option, line_addons)
        diet_fit = None
        if with_diets:
            diet_fit = fit(needs.get(child.id, frozenset()), dish_marks(menus.diets, dish))
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
        if payable and price is not None:
            payable_prices.append(price)
            sold[line.id] = OrderItem(
                line=line,
                menu_day=menu_day,
                meal=meal,
                portion=portion,
                menu_option=menu_option,
                meal_option=meal_option,
                addons=sorted((a for a in line_addons if a.is_active), key=lambda a: a.id or 0),
                tiers=tuple(tiers.get(portion.id, ())),
                price=price,
            )
        item = CartItem(
            cart_id=line.id,
            meal_id=meal.id,
            menu_day_id=menu_day.id,
            vendor=vendor.name,
            name=meal.name_fr if french else meal.name_en,
            image=meal.image,
            portion_id=portion.id,
            size=portion.size,
            size_label=t(f"portion_{portion.size}", lang)
            if portion.size in ("small", "large")
            else portion.size,
            quantity=line.quantity,
            menu_option=_name(menu_option, french),
            meal_option=_name(meal_option, french),
            addons=tuple(
                LineAddOn(a.id or 0, a.name_fr if french else a.name_en, a.price_cents)
                for a in line_addons
            ),
            special_note=line.special_note or "",
            allergy_ack=line.allergy_ack or "",
            allergy=allergy_mark,
            unit_price_cents=price.unit_cents if price else 0,
            special_note_fee_cents=price.special_note_fee_cents if price else 0,
            line_total_cents=price.total_cents if price else 0,
            cutoff_at=closes,
            payable=payable,
            problems=tuple(problems),
            diet=diet_fit,
        )
        key = (child.id, menu_day.meal_date)
        children.setdefault(key, child)
        groups.setdefault(key, []).append(item)

    charges = compute_charges(
        payable_prices, rates, promo=promo, school_donation_cents=school_donation_cents
    )
    every = [item for found in groups.values() for item in found]
    out: list[CartGroup] = []
    for (child_id, day), found in groups.items():
        child = children[(child_id, day)]
        name = f"{child.first_name} {child.last_name}"
        out.append(CartGroup(child_id, name, child.first_name, day, tuple(found)))
    return CartSummary(
        groups=tuple(out),
        cart_count=len(every),
        payable_count=sum(1 for item in every if item.payable),
        meal_count=sum(item.quantity for item in every if item.payable),
        charges=charges,
        promo_code=promo.code if promo else None,
        tax_bps=rates.tax_bps,
        sold=tuple(sold[item.cart_id] for item in every if item.cart_id in sold),
    )


def _name(option: MenuOption | MealOption | None, french: bool) -> str:
    if option is None:
        return ""
    return option.name_fr if french else option.name_en
