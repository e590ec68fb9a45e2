"""A paid demo order, written by the checkout's own code (``price_line``, ``compute_charges``,
``place.write_order``): the demo's receipt (``seed.py``) and the order of its closed day
(``closure.py``) are both made here."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, select

from hotmeals.db.models import (
    CartLine,
    Child,
    Meal,
    MenuDay,
    Order,
    Parent,
    Payment,
    Portion,
    PriceTier,
)
from hotmeals.domain.charges import CHARGE_FIELDS, compute_charges
from hotmeals.domain.errors import DomainError
from hotmeals.domain.payment_states import PaymentState, Purpose
from hotmeals.domain.pricing import LineInput, price_line
from hotmeals.domain.pricing import PriceTier as TierRule
from hotmeals.services import standing
from hotmeals.services.ordering import lifecycle, place
from hotmeals.services.payments.records import new_invoice_number
from hotmeals.settings import get_settings


def paid_item(
    session: Session, parent: Parent, child: Child, menu_day: MenuDay, meal: Meal
) -> place.OrderItem | None:
    """One small ``meal`` for ``child`` on ``menu_day``, priced as a cart line is (what
    ``write_order`` copies); ``None`` when the child's allergies refuse the meal."""
    try:
        standing.allergy_allows(session, parent_id=parent.id or 0, child=child, meal=meal)
    except DomainError:
        return None
    portion = session.exec(
        select(Portion).where(Portion.meal_id == meal.id, Portion.size == "small")
    ).one()
    tiers = tuple(
        TierRule(t.min_quantity, t.unit_price_cents)
        for t in session.exec(
            select(PriceTier)
            .where(PriceTier.portion_id == portion.id)
            .order_by(col(PriceTier.min_quantity))
        ).all()
    )
    # Never added to the session: what ``write_order`` copies, as a cart line holds it.
    line = CartLine(
        parent_id=parent.id or 0,
        child_id=child.id or 0,
        menu_day_id=menu_day.id or 0,
        meal_id=meal.id or 0,
        portion_id=portion.id or 0,
    )
    return place.OrderItem(
        line=line,
        menu_day=menu_day,
        meal=meal,
        portion=portion,
        menu_option=None,
        meal_option=None,
        addons=[],
        tiers=tiers,
        price=price_line(LineInput(portion_tiers=tiers, quantity=1)),
    )


def write_paid_order(
    session: Session, parent: Parent, items: list[place.OrderItem], *, mark: str, when: datetime
) -> Order:
    """The order of ``items``, placed at ``when`` with ``mark`` as its fingerprint (its natural
    key), paid by an APPROVED payment whose answer is taken (``closed_at``), so the
    reconciliation never asks Converge about it, and the order PLACED, so no orphan void
    touches it."""
    charges = compute_charges([i.price for i in items], get_settings().charge_rates)
    summary = {"charges": {name: getattr(charges, name) for name in CHARGE_FIELDS}}
    order = place.write_order(
        session,
        parent_id=parent.id or 0,
        summary=summary,
        promo_row=None,
        items=items,
        fingerprint=mark,
        now=when,
    )
    lifecycle.place(session, order, now=when, data={"number": order.number, "demo": True})
    session.add(
        Payment(
            parent_id=parent.id or 0,
            order_id=order.id,
            purpose=Purpose.ORDER,
            invoice_number=new_invoice_number(Purpose.ORDER, when, order_number=order.number),
            amount_cents=order.total_pay_cents,
            state=PaymentState.APPROVED,
            approval_code="DEMO01",
            card_brand="VISA",
            card_masked="41**********1111",
            result_message="APPROVAL",
            verified_at=when,
            closed_at=when,
            created_at=when,
            updated_at=when,
        )
    )
    return order
