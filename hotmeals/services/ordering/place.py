"""Writing the order a parent is about to pay: the order lines copied from cart lines, the
prices they are sold at, the charges and the terms in force, the fingerprint of what is paid
for. The checkout writes one from the payable cart; a standing order writes one of a single
line (``write_one_line_order``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from hotmeals.db.models import (
    AddOn,
    CartLine,
    CartLineAddOn,
    Meal,
    MealOption,
    MenuDay,
    MenuOption,
    Order,
    OrderLine,
    OrderLineAddOn,
    Portion,
)
from hotmeals.domain.charges import CHARGE_FIELDS, OrderTerms, compute_charges
from hotmeals.domain.orders import OrderStatus
from hotmeals.domain.pricing import LineInput, LinePrice, PriceTier, price_line, tiers_to_text
from hotmeals.services import promos
from hotmeals.services.ordering.menu import tiers_of
from hotmeals.services.ordering.order_events import audit_order
from hotmeals.services.payments.runtime import actor_of
from hotmeals.settings import get_settings


@dataclass(frozen=True)
class OrderItem:
    """A payable cart line with what its order line copies: the menu day, the meal and
    portion, the options, the active add-ons, the portion's price tiers and the price."""

    line: CartLine
    menu_day: MenuDay
    meal: Meal
    portion: Portion
    menu_option: MenuOption | None
    meal_option: MealOption | None
    addons: list[AddOn]
    tiers: tuple[PriceTier, ...]
    price: LinePrice


def order_items(session: Session, cart_ids: list[int]) -> dict[int, OrderItem]:
    """What an order line copies from each payable cart line, in three statements."""
    rows = session.exec(
        # six entities: sqlmodel's ``select`` is typed for four at most
        Select[CartLine, MenuDay, Meal, Portion, MenuOption | None, MealOption | None](
            CartLine, MenuDay, Meal, Portion, MenuOption, MealOption
        )
        .join(MenuDay, col(MenuDay.id) == CartLine.menu_day_id)
        .join(Meal, col(Meal.id) == CartLine.meal_id)
        .join(Portion, col(Portion.id) == CartLine.portion_id)
        .outerjoin(MenuOption, col(MenuOption.id) == CartLine.menu_option_id)
        .outerjoin(MealOption, col(MealOption.id) == CartLine.meal_option_id)
        .where(col(CartLine.id).in_(cart_ids))
    ).all()
    tiers = tiers_of(session, (r[3].id for r in rows))
    addons: dict[int, list[AddOn]] = {}
    for cart_line_id, addon in session.exec(
        select(col(CartLineAddOn.cart_line_id), AddOn)
        .join(AddOn, col(AddOn.id) == CartLineAddOn.addon_id)
        .where(col(CartLineAddOn.cart_line_id).in_(cart_ids), AddOn.is_active)
        .order_by(col(AddOn.id))
    ).all():
        addons.setdefault(cart_line_id, []).append(addon)
    out: dict[int, OrderItem] = {}
    for line, menu_day, meal, portion, menu_option, meal_option in rows:
        assert line.id is not None and portion.id is not None  # rows read from the database
        line_addons = addons.get(line.id, [])
        line_tiers = tuple(tiers.get(portion.id, ()))
        price = price_line(
            LineInput(
                portion_tiers=line_tiers,
                quantity=line.quantity,
                option_cents=[o.price_cents for o in (menu_option, meal_option) if o],
                addon_cents=[a.price_cents for a in line_addons],
                special_note=line.special_note,
            )
        )
        out[line.id] = OrderItem(
            line=line,
            menu_day=menu_day,
            meal=meal,
            portion=portion,
            menu_option=menu_option,
            meal_option=meal_option,
            addons=line_addons,
            tiers=line_tiers,
            price=price,
        )
    return out


def cart_fingerprint(
    items: list[OrderItem], *, promo_code: str | None, donation_cents: int, total: int
) -> str:
    """What the parent is paying for, to the cent: a second checkout of the same content is
    the same order."""
    content = sorted(
        [
            item.line.id,
            item.line.child_id,
            item.line.menu_day_id,
            item.line.meal_id,
            item.line.portion_id,
            item.line.quantity,
            item.line.menu_option_id,
            item.line.meal_option_id,
            [a.id for a in item.addons],
            item.line.special_note or "",
            item.line.allergy_ack or "",
            item.price.total_cents,
        ]
        for item in items
    )
    text = json.dumps([content, promo_code or "", donation_cents, total], default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def write_order(
    session: Session,
    *,
    parent_id: int,
    summary: dict,
    promo_row: Any,
    items: list[OrderItem],
    fingerprint: str,
    now: datetime,
) -> Order:
    charges = summary["charges"]
    terms = OrderTerms(
        get_settings().charge_rates, promos.to_promo(promo_row) if promo_row else None
    )
    stored: dict[str, Any] = terms.to_stored()
    order = Order(
        number=f"HM-T{secrets.token_hex(6).upper()}",  # the id's number once it has one
        parent_id=parent_id,
        status=OrderStatus.PENDING_PAYMENT,
        promo_code_id=promo_row.id if promo_row else None,
        cart_fingerprint=fingerprint,
        created_at=now,
        updated_at=now,
        **{name: charges[name] for name in CHARGE_FIELDS},
        **stored,
    )
    session.add(order)
    session.flush()
    assert order.id is not None  # flushed
    order.number = f"HM-{order.id:06d}"
    lines = []
    for item in items:
        cart_line, menu_day, meal, portion = item.line, item.menu_day, item.meal, item.portion
        menu_option, meal_option, price = item.menu_option, item.meal_option, item.price
        lines.append(
            OrderLine(
                order_id=order.id,
                child_id=cart_line.child_id,
                menu_day_id=cart_line.menu_day_id,  # the cart line's, joined on them
                vendor_id=menu_day.vendor_id,
                meal_id=cart_line.meal_id,
                portion_id=cart_line.portion_id,
                menu_option_id=cart_line.menu_option_id,
                meal_option_id=cart_line.meal_option_id,
                meal_date=menu_day.meal_date,
                meal_name=meal.name_en[:120],
                size=portion.size,
                menu_option_name=menu_option.name_en if menu_option else "",
                meal_option_name=meal_option.name_en if meal_option else "",
                quantity=cart_line.quantity,
                price_tiers=tiers_to_text(item.tiers),
                unit_price_cents=price.unit_cents,
                menu_option_cents=menu_option.price_cents if menu_option else 0,
                meal_option_cents=meal_option.price_cents if meal_option else 0,
                special_note=cart_line.special_note,
                special_note_fee_cents=price.special_note_fee_cents,
                line_total_cents=price.total_cents,
                allergy_ack=cart_line.allergy_ack,
                allergy_ack_at=cart_line.allergy_ack_at,
                cart_line_id=cart_line.id,
            )
        )
    # One executemany per table whatever the number of lines (the ORM would insert row by
    # row on SQLite to read each id back); the ids are read back in one statement.
    table: Any = OrderLine
    session.execute(insert(table.__table__), [line.model_dump(exclude={"id"}) for line in lines])
    ids = dict(
        session.exec(
            select(col(OrderLine.cart_line_id), col(OrderLine.id)).where(
                OrderLine.order_id == order.id
            )
        ).all()
    )
    sold = [
        {
            "order_line_id": ids[item.line.id],
            "addon_id": addon.id,
            "name": addon.name_en[:80],
            "price_cents": addon.price_cents,
        }
        for item in items
        for addon in item.addons
    ]
    if sold:
        addon_table: Any = OrderLineAddOn
        session.execute(insert(addon_table.__table__), sold)
    session.add(order)
    session.flush()
    audit_order(
        session,
        order,
        kind="order.created",
        actor=actor_of(parent_id),
        data={
            "number": order.number,
            "lines": len(lines),
            "total_pay_cents": order.total_pay_cents,
            "promo": order.promo_code,
        },
    )
    return order


def write_one_line_order(
    session: Session, *, parent_id: int, cart_id: int, price: LinePrice, now: datetime
) -> Order:
    """A PENDING_PAYMENT order of the cart line ``cart_id`` alone (priced ``price``, today's
    rates, no promo, no donation): nothing else in the parent's cart is charged."""
    charges = compute_charges([price], get_settings().charge_rates)
    summary = {"charges": {name: getattr(charges, name) for name in CHARGE_FIELDS}}
    items = [order_items(session, [cart_id])[cart_id]]
    fingerprint = cart_fingerprint(
        items, promo_code=None, donation_cents=0, total=charges.total_pay_cents
    )
    return write_order(
        session,
        parent_id=parent_id,
        summary=summary,
        promo_row=None,
        items=items,
        fingerprint=fingerprint,
        now=now,
    )
