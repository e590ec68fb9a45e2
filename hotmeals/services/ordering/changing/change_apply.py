"""Applying a checked change to a paid order (the order locked by the caller): removed meals
(a cancellation of kind ``modify``, through ``cancel.record_cancel``), added lines, moved lines,
the order's charges and status; and the payment handler's part, applying the change an
approved ``ORDER_CHANGE`` payment pays for (or dropping it).

The order's charge columns (``Order.meal_net_cents`` ... ``total_pay_cents``) stay what was
charged, as for a cancel: a decrease shows as a refund (the order's "total refund"), an increase
adds its charges and its payment to them; what was paid and refunded stay sums over ``Payment``
and ``Refund`` rows. A moved line keeps its id, gets the new day and ``moved_from_date``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, update
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import Order, OrderChange, OrderLine, OrderLineAddOn, Payment
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import PAID_STATUSES, LineStatus, OrderStatus
from hotmeals.domain.pricing import tiers_to_text
from hotmeals.services.ordering import lines as line_rules
from hotmeals.services.ordering.cancelling.cancel import record_cancel
from hotmeals.services.ordering.changing.change_plan import (
    APPLIED,
    CHARGE_FIELDS,
    DROPPED,
    MODIFY,
    PAYING,
    ChangePlan,
    change_credit_share,
    draft_steps,
    load_for_change,
    plan_change,
)
from hotmeals.services.ordering.mails import queue_change_mail
from hotmeals.services.ordering.order_events import audit_order
from hotmeals.services.payments.credit_pay import credit_covers, pay_with_credit
from hotmeals.services.payments.runtime import actor_of


def apply_change(
    session: Session, change: OrderChange, plan: ChangePlan, now: datetime
) -> int | None:
    """Write what ``plan`` does to the order (locked by the caller): removed quantities (and
    their cancellation of kind ``modify``), added lines, moved lines, the order's charges and
    status. Returns the cancellation id (None when nothing was removed)."""
    loaded, order = plan.loaded, plan.loaded.order
    cancellation_id = None
    if plan.removed:
        cancellation = record_cancel(
            session,
            loaded.base,
            plan.removed,
            kind="modify",
            request_key=f"change-{change.id}",
            actor=actor_of(order.parent_id),
            now=now,
            adds_lines=bool(plan.added),
        )
        cancellation_id = cancellation.id
    if plan.moved:
        _move_lines(session, plan)
    if plan.added:
        _insert_added(session, order, plan, now)
    if change.amount_cents > 0 and plan.before is not None:
        # The order's charges are what was charged (a decrease shows as its refund, as for a
        # cancel: the order detail's "total refund"); an increase adds to them.
        for name in CHARGE_FIELDS[:-1]:
            grown = getattr(order, name) + getattr(plan.charges, name) - getattr(plan.before, name)
            setattr(order, name, max(grown, 0))
        order.total_pay_cents += change.amount_cents
    order.updated_at = now
    session.add(order)
    change.state = APPLIED
    change.updated_at = now
    session.add(change)
    session.flush()
    audit_order(
        session,
        order,
        kind="order.changed" if change.kind == MODIFY else "order.meal_moved",
        actor=actor_of(order.parent_id),
        data={
            "change_id": change.id,
            "removed": {str(k): v for k, v in plan.removed.items()},
            "added": len(plan.added),
            "moved": [
                [line.id, line.moved_from_date.isoformat() if line.moved_from_date else None]
                for line, _ in plan.moved
            ],
            "difference_cents": change.amount_cents,
        },
    )
    return cancellation_id


@dataclass(frozen=True)
class _Sold:
    """What an order line copies from a checked meal: tiers, options (name, cents)."""

    tiers: str
    menu_option: tuple[str, int]
    meal_option: tuple[str, int]


def _sold(batch: line_rules.Batch | None, checked: line_rules.CheckedLine) -> _Sold:
    assert batch is not None
    tiers = next(
        (
            found
            for portion, found in batch.portions.get(checked.meal.id or 0, [])
            if portion.id == checked.portion.id
        ),
        (),
    )
    menu = batch.menu_options.get(checked.menu_option_id or 0)
    meal = batch.meal_options.get(checked.meal_option_id or 0)
    return _Sold(
        tiers=tiers_to_text(tiers),
        menu_option=(menu.name_en[:80], menu.price_cents) if menu else ("", 0),
        meal_option=(meal.name_en[:80], meal.price_cents) if meal else ("", 0),
    )


def _move_lines(session: Session, plan: ChangePlan) -> None:
    """Each moved line keeps its id, takes the new day (``moved_from_date``: the first day it
    was ordered for) and today's prices of the same meal; its add-ons' prices too."""
    values, addon_values = [], []
    for line, checked in plan.moved:
        sold = _sold(plan.batch, checked)
        line.moved_from_date = line.moved_from_date or line.meal_date
        line.menu_day_id = checked.menu_day.id or 0
        line.meal_date = checked.menu_day.meal_date
        values.append(
            {
                "id": line.id,
                "menu_day_id": line.menu_day_id,
                "meal_date": line.meal_date,
                "moved_from_date": line.moved_from_date,
                "price_tiers": sold.tiers,
                "unit_price_cents": checked.price.unit_cents,
                "menu_option_cents": sold.menu_option[1],
                "meal_option_cents": sold.meal_option[1],
                "special_note_fee_cents": checked.price.special_note_fee_cents,
                "line_total_cents": checked.price.total_cents,
            }
        )
        prices = {a.id: a.price_cents for a in checked.addons}
        for row in plan.loaded.addons.get(line.id or 0, []):
            addon_values.append({"id": row.id, "price_cents": prices.get(row.addon_id, 0)})
    session.execute(update(OrderLine), values)
    if addon_values:
        session.execute(update(OrderLineAddOn), addon_values)


def _insert_added(
    session: Session,
    order: Order,
    plan: ChangePlan,
    now: datetime,
) -> None:
    """The added meals as order lines (one executemany) and their add-ons (one more), sold at
    the prices they were checked at."""
    rows = []
    added = plan.added
    for step, checked in added:
        sold = _sold(plan.batch, checked)
        rows.append(
            {
                "order_id": order.id,
                "child_id": checked.child.id,
                "menu_day_id": checked.menu_day.id,
                "vendor_id": checked.vendor.id,
                "meal_id": checked.meal.id,
                "portion_id": checked.portion.id,
                "menu_option_id": checked.menu_option_id,
                "meal_option_id": checked.meal_option_id,
                "meal_date": checked.menu_day.meal_date,
                "meal_name": checked.meal.name_en[:120],
                "size": checked.portion.size,
                "menu_option_name": sold.menu_option[0],
                "meal_option_name": sold.meal_option[0],
                "quantity": checked.quantity,
                "cancelled_quantity": 0,
                "price_tiers": sold.tiers,
                "unit_price_cents": checked.price.unit_cents,
                "menu_option_cents": sold.menu_option[1],
                "meal_option_cents": sold.meal_option[1],
                "special_note": checked.note,
                "special_note_fee_cents": checked.price.special_note_fee_cents,
                "line_total_cents": checked.price.total_cents,
                "allergy_ack": step.allergy_ack,
                "allergy_ack_at": step.allergy_ack_at,
                "status": LineStatus.ACTIVE.value,
                "cart_line_id": None,
                "moved_from_date": None,
            }
        )
    table: Any = OrderLine
    returned = session.execute(insert(table.__table__).returning(table.__table__.c.id), rows).all()
    ids = sorted(row[0] for row in returned)  # one INSERT: ids ascend in row order
    addon_rows = [
        {
            "order_line_id": line_id,
            "addon_id": addon.id,
            "name": addon.name_en[:80],
            "price_cents": addon.price_cents,
        }
        for line_id, (_, checked) in zip(ids, added, strict=True)
        for addon in checked.addons
    ]
    if addon_rows:
        addon_table: Any = OrderLineAddOn
        session.execute(insert(addon_table.__table__), addon_rows)


def tax_within(plan: ChangePlan, diff: int) -> int:
    """The HST part of a change's ``diff`` (what the receipt shows as its tax line): how much
    the order's tax changes (``apply_change`` adds it to ``Order.tax_cents`` on an increase),
    of the same sign as ``diff`` and never more than it."""
    if plan.before is None or diff == 0:
        return 0
    tax = plan.charges.tax_cents - plan.before.tax_cents
    return min(max(tax, 0), diff) if diff > 0 else max(min(tax, 0), diff)


def apply_paid_change(session: Session, order: Order, payment: Payment) -> bool:
    """The approval of ``payment`` (purpose ORDER_CHANGE) for ``order`` (locked by the caller,
    same transaction as the recorded approval): the change it pays for is applied if every
    step still holds (cut-offs ahead, lines active, the meals still served) and the order
    still costs what was paid (with family credit's share, ``change_credit_share``, spent
    here: ``pay_with_credit``, the parent's row locked); otherwise (the credit no longer
    covering its share too) it is dropped and the charge is voided by
    ``complete_change_payment`` (or the reconciliation). True when applied."""
    change = session.exec(
        select(OrderChange).where(col(OrderChange.payment_id) == payment.id)
    ).first()
    if change is None or change.state != PAYING:
        return False
    now = clock.now()
    lang = "en"
    try:
        if OrderStatus(order.status) not in PAID_STATUSES:
            raise DomainError("order_change_not_modifiable", number=order.number)
        loaded = load_for_change(session, order)
        plan, _ = plan_change(
            session, loaded, draft_steps(session, change.id), lang=lang, now=now, strict=True
        )
        # The payment is already among the approved ones: what is held now covers the change
        # exactly when the order costs what was held before plus this payment and credit's
        # share (the card attempt was for the increase less the credit it planned to use).
        credit_share = change_credit_share(change, payment)
        if plan.difference != credit_share:
            raise DomainError("order_change_price_changed")
        # Credit's share is spent now, with the card's approval, under the parent's lock;
        # spent meanwhile (another tab): the change is dropped and the card voided.
        if credit_share > 0 and not credit_covers(session, order.parent_id, credit_share):
            raise DomainError("credit_insufficient")
    except DomainError as err:
        change.state = DROPPED
        change.updated_at = now
        session.add(change)
        audit_order(
            session,
            order,
            kind="order.change_dropped",
            data={"change_id": change.id, "payment_id": payment.id, "why": err.code},
        )
        return False
    if credit_share > 0:
        pay_with_credit(
            session,
            order,
            credit_share,
            actor="system",
            verified_at=payment.verified_at,
            change_id=change.id,
        )
    apply_change(session, change, plan, now)
    queue_change_mail(session, order, change, plan)
    return True
