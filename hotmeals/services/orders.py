"""A parent's paid orders after the purchase (issue 10): order history, order details, and the
shared pieces every change of a paid order uses (``services/cancellations.py`` here; the
modify and move services may import them too).

Plain Python, no Reflex: the order screens and the /api/v1 order calls are thin callers.

**Every write to a paid order locks the ``Order`` row first** (``lock_order`` below, through
``services.payments.records.lock_row``: ``SELECT ... FOR UPDATE`` on PostgreSQL, a first write
on SQLite), in a fresh transaction, before anything of the order is read. Cancels, modifies
and moves of the same order therefore run one after the other, and the second one sees what
the first wrote (its lines, its cancelled quantities, its reserved refunds): a cancel racing a
move of the same meal, or the same cancel sent twice, refunds once.

Shared pieces (stable signatures):

- ``load_order(session, *, order_id, parent_id, lock=False) -> LoadedOrder``: the order, its
  lines with their vendors and add-ons, its approved payments and its refunds, in a fixed
  number of statements whatever the number of lines; another parent's order (or a missing
  one) raises ``DomainError("order_not_found")``. ``lock=True`` locks the order row first.
- ``LoadedOrder.sold_lines()``: each ACTIVE line's remaining quantity as a
  ``domain.pricing.LineInput`` priced as sold; ``LoadedOrder.terms()``: the stored terms.
- ``line_is_open(line, vendor, now)`` / ``ensure_lines_open(...)``: the cut-off rule.
- ``apply_cancel(session, loaded, quantities, ...) -> CancelPlan``: in the caller's
  transaction (the order locked): the refund planned by ``domain.refunds.plan_cancel_refund``
  with the order's stored terms, the ``OrderCancellation`` and its lines, the lines' cancelled
  quantities and statuses, the order's status, the refund rows reserved (``Refund`` PENDING,
  ``cancellation_id`` set) and the e-mail queued in the parent's language. Then, with no
  transaction open: ``await send_refunds(plan, engine=..., gateway=...)`` calls Converge and
  records the outcome (void before settlement, return after).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import and_, case, exists, insert, or_
from sqlalchemy.engine import Engine
from sqlalchemy.orm import aliased
from sqlmodel import Session, func, select

from hotmeals.db.models import (
    AddOn,
    CancelReason,
    Child,
    Meal,
    MealOption,
    MenuOption,
    Order,
    OrderCancellation,
    OrderCancellationLine,
    OrderChange,
    OrderLine,
    OrderLineAddOn,
    Parent,
    Payment,
    Refund,
    Vendor,
)
from hotmeals.domain.charges import OrderTerms, tax_label
from hotmeals.domain.cutoff import TORONTO, cutoff_at
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import (
    LineStatus,
    OrderStatus,
    can_cancel,
    status_after_cancel,
    transition,
    transition_line,
)
from hotmeals.domain.payments import PaymentState, Purpose, RefundState
from hotmeals.domain.pricing import LineInput
from hotmeals.domain.refunds import CancelRefund, plan_cancel_refund, sold_line
from hotmeals.i18n import normalize_lang, t
from hotmeals.payments.gateway import PaymentGateway
from hotmeals.services import clock
from hotmeals.services.payments import PlannedRefund, execute_refund, reserve_refund
from hotmeals.services.payments.records import (
    CHANGE_PAID_STATES,
    RESERVING,
    audit,
    lock_row,
    owed_failed,
    split_order_payments,
)

HISTORY_STATUSES = (
    OrderStatus.PLACED,
    OrderStatus.PARTIALLY_CANCELLED,
    OrderStatus.CANCELLED,
    OrderStatus.DELIVERED,
)
FUTURE, PAST = "future", "past"
OTHER_TEXT_MAX = 500
REQUEST_KEY_MAX = 64


def _now() -> datetime:
    return clock.now()


def toronto_today(now: datetime) -> date:
    return now.astimezone(TORONTO).date()


def _day(value: date, lang: str) -> str:
    from babel.dates import format_date

    locale = "fr_CA" if normalize_lang(lang) == "fr" else "en_CA"
    return format_date(value, format="full", locale=locale)


def _int_id(value: object, code: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise DomainError(code, field=name)
    return value


# -- loading one order ----------------------------------------------------------------------------


@dataclass
class LoadedOrder:
    order: Order
    lines: list[OrderLine]
    vendors: dict[int, Vendor]  # by vendor id
    addons: dict[int, list[OrderLineAddOn]]  # by order line id
    payments: list[Payment]  # approved payments that pay for the order (sale, increases)
    refunds: list[Refund]  # the refund rows of those payments, oldest first
    # Approved attempts that paid for nothing (a second attempt, a dropped or replaced
    # change's payment, a duplicate sale) and their refunds (voids): never the order's money.
    strays: list[Payment] = field(default_factory=list)
    stray_refunds: list[Refund] = field(default_factory=list)

    @property
    def paid_cents(self) -> int:
        return sum(p.amount_cents for p in self.payments)

    @property
    def refunded_cents(self) -> int:
        """Succeeded refunds: the order's "total refund"."""
        return sum(r.amount_cents for r in self.refunds if r.state == RefundState.SUCCEEDED)

    @property
    def reserved_refund_cents(self) -> int:
        """Refunds that succeeded or may still succeed, and failed ones still owed (sent
        again, or flagged for a person): what a later cancel or change must not refund
        again (issue 21: a failed refund is not credit for the next cancel)."""
        return sum(r.amount_cents for r in self.refunds if r.state in RESERVING or owed_failed(r))

    def line(self, line_id: int) -> OrderLine | None:
        return next((x for x in self.lines if x.id == line_id), None)

    def active_lines(self) -> list[OrderLine]:
        return [
            x
            for x in self.lines
            if x.status == LineStatus.ACTIVE and x.quantity - x.cancelled_quantity > 0
        ]

    def sold_lines(self) -> list[tuple[OrderLine, LineInput]]:
        """Each active line with its remaining quantity, priced as it was sold."""
        return [
            (
                x,
                sold_line(
                    price_tiers=x.price_tiers,
                    quantity=x.quantity - x.cancelled_quantity,
                    menu_option_cents=x.menu_option_cents,
                    meal_option_cents=x.meal_option_cents,
                    addon_cents=[a.price_cents for a in self.addons.get(x.id or 0, [])],
                    special_note=x.special_note,
                    special_note_fee_cents=x.special_note_fee_cents,
                ),
            )
            for x in self.active_lines()
        ]

    def terms(self) -> OrderTerms:
        o = self.order
        return OrderTerms.from_stored(
            tax_bps=o.tax_bps,
            processing_fee_bps=o.processing_fee_bps,
            processing_fee_fixed_cents=o.processing_fee_fixed_cents,
            promo_code=o.promo_code,
            promo_kind=o.promo_kind,
            promo_value=o.promo_value,
            promo_min_order_cents=o.promo_min_order_cents,
        )


def lock_order(session: Session, order_id: int, parent_id: int | None) -> Order:
    """The order row, locked (call first in a fresh transaction). Another parent's order or a
    missing one: ``order_not_found``."""
    order = lock_row(session, Order, order_id)
    if order is None or (parent_id is not None and order.parent_id != parent_id):
        raise DomainError("order_not_found", field="order_id")
    return order


def load_order(
    session: Session, *, order_id: object, parent_id: int | None, lock: bool = False
) -> LoadedOrder:
    """The order with its lines, vendors, add-ons, approved payments and refunds: five
    statements whatever the number of lines (six with ``lock`` on SQLite)."""
    oid = _int_id(order_id, "order_not_found", "order_id")
    if lock:
        order = lock_order(session, oid, parent_id)
    else:
        found = session.get(Order, oid)
        if found is None or (parent_id is not None and found.parent_id != parent_id):
            raise DomainError("order_not_found", field="order_id")
        order = found
    return _load_rest(session, order)


def _load_rest(session: Session, order: Order) -> LoadedOrder:
    rows = session.exec(
        select(OrderLine, Vendor)
        .join(Vendor, Vendor.id == OrderLine.vendor_id)
        .where(OrderLine.order_id == order.id)
        .order_by(OrderLine.meal_date, OrderLine.id)
        .execution_options(populate_existing=True)
    ).all()
    lines = [r[0] for r in rows]
    vendors = {r[1].id or 0: r[1] for r in rows}
    addons: dict[int, list[OrderLineAddOn]] = {}
    if lines:
        for addon in session.exec(
            select(OrderLineAddOn)
            .join(OrderLine, OrderLine.id == OrderLineAddOn.order_line_id)
            .where(OrderLine.order_id == order.id)
            .order_by(OrderLineAddOn.id)
        ).all():
            addons.setdefault(addon.order_line_id, []).append(addon)
    approved = list(
        session.exec(
            select(Payment)
            .where(Payment.order_id == order.id, Payment.state == PaymentState.APPROVED)
            .order_by(Payment.id)
        ).all()
    )
    change_payments = session.exec(
        select(OrderChange.payment_id).where(
            OrderChange.order_id == order.id,
            OrderChange.state.in_(CHANGE_PAID_STATES),
            OrderChange.payment_id.is_not(None),
        )
    ).all()
    payments, strays = split_order_payments(order, approved, [p for p in change_payments if p])
    kept = {p.id for p in payments}
    every_refund = list(
        session.exec(
            select(Refund)
            .join(Payment, Payment.id == Refund.payment_id)
            .where(Payment.order_id == order.id)
            .order_by(Refund.id)
            .execution_options(populate_existing=True)
        ).all()
    )
    refunds = [r for r in every_refund if r.payment_id in kept]
    stray_refunds = [r for r in every_refund if r.payment_id not in kept]
    return LoadedOrder(order, lines, vendors, addons, payments, refunds, strays, stray_refunds)


def _pays_for_order() -> Any:
    """SQL: ``Payment`` is one that pays for its order (``split_order_payments`` in one
    condition, for a list): the first approved ORDER attempt, or the payment of a change
    applied (or being applied)."""
    other = aliased(Payment)
    earlier = exists().where(
        other.order_id == Payment.order_id,
        other.purpose == Purpose.ORDER,
        other.state == PaymentState.APPROVED,
        other.duplicate_of_id.is_(None),
        other.id != Payment.id,
        or_(
            other.verified_at < Payment.verified_at,
            and_(other.verified_at == Payment.verified_at, other.id < Payment.id),
        ),
    )
    changes = select(OrderChange.payment_id).where(
        OrderChange.state.in_(CHANGE_PAID_STATES), OrderChange.payment_id.is_not(None)
    )
    return and_(
        Payment.duplicate_of_id.is_(None),
        or_(
            and_(Payment.purpose == Purpose.ORDER, ~earlier),
            and_(Payment.purpose == Purpose.ORDER_CHANGE, Payment.id.in_(changes)),
        ),
    )


# -- cut-offs -------------------------------------------------------------------------------------


def line_cutoff(line: OrderLine, vendor: Vendor) -> datetime:
    from hotmeals.services.ordering.days import cutoff_rule

    return cutoff_at(cutoff_rule(vendor), line.meal_date)


def line_is_open(line: OrderLine, vendor: Vendor, now: datetime) -> bool:
    """Can this line still be cancelled or changed (strictly before its meal day's cut-off)?"""
    return now < line_cutoff(line, vendor)


def ensure_lines_open(
    loaded: LoadedOrder, line_ids: list[int], now: datetime, lang: str = "en"
) -> None:
    """``DomainError("cancel_cutoff_passed", day=...)`` naming the first closed day."""
    closed = sorted(
        line.meal_date
        for line in loaded.lines
        if line.id in line_ids and not line_is_open(line, loaded.vendors[line.vendor_id], now)
    )
    if closed:
        raise DomainError("cancel_cutoff_passed", field="order_line_id", day=_day(closed[0], lang))


# -- history and details --------------------------------------------------------------------------


def order_history(
    session: Session,
    *,
    parent_id: int,
    tab: str = FUTURE,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """The parent's paid orders (placed, partially cancelled, cancelled, delivered; never an
    unpaid attempt), newest first. ``tab`` ``future``: orders with an active meal on or after
    today (Toronto); ``past``: the others. Each: order id and number, delivery dates,
    ordered-on date, total items (meals still to deliver and ordered), total paid and total
    refunded. Three statements."""
    if tab not in (FUTURE, PAST):
        raise DomainError("invalid_history_tab", field="tab")
    lang = normalize_lang(lang)
    today = toronto_today(now or _now())
    active = (OrderLine.status == LineStatus.ACTIVE) & (
        OrderLine.quantity > OrderLine.cancelled_quantity
    )
    upcoming = func.max(case((active & (OrderLine.meal_date >= today), 1), else_=0)).label(
        "upcoming"
    )
    rows = session.exec(
        select(
            Order,
            upcoming,
            func.sum(OrderLine.quantity).label("items"),
            func.sum(OrderLine.quantity - OrderLine.cancelled_quantity).label("active_items"),
        )
        .join(OrderLine, OrderLine.order_id == Order.id)
        .where(
            Order.parent_id == parent_id,
            Order.status.in_([str(s) for s in HISTORY_STATUSES]),
            Order.placed_at.is_not(None),
        )
        .group_by(Order.id)
        .order_by(Order.placed_at.desc(), Order.id.desc())
    ).all()
    picked = [r for r in rows if bool(r[1]) == (tab == FUTURE)]
    ids = [r[0].id for r in picked]
    dates: dict[int, list[date]] = {}
    # Whose meals and which (issue 20): each order's children and meals, in the order of the
    # days, each named once; from the same statement as the dates.
    kids: dict[int, list[str]] = {}
    meals: dict[int, list[str]] = {}
    refunded: dict[int, int] = {}
    if ids:
        for oid, day, kid, sold_as, meal_fr in session.exec(
            select(
                OrderLine.order_id,
                OrderLine.meal_date,
                Child.first_name,
                OrderLine.meal_name,
                Meal.name_fr,
            )
            .join(Child, Child.id == OrderLine.child_id)
            .outerjoin(Meal, Meal.id == OrderLine.meal_id)
            .where(OrderLine.order_id.in_(ids))
            .order_by(OrderLine.order_id, OrderLine.meal_date, OrderLine.id)
        ).all():
            name = (meal_fr if lang == "fr" and meal_fr else None) or sold_as
            for found, value in ((dates, day), (kids, kid), (meals, name)):
                if value not in found.setdefault(oid, []):
                    found[oid].append(value)
        for oid, cents in session.exec(
            select(Payment.order_id, func.coalesce(func.sum(Refund.amount_cents), 0))
            .join(Payment, Payment.id == Refund.payment_id)
            .where(
                Payment.order_id.in_(ids),
                Refund.state == RefundState.SUCCEEDED,
                _pays_for_order(),  # never the void of a charge that paid for nothing
            )
            .group_by(Payment.order_id)
        ).all():
            refunded[oid or 0] = int(cents)
    orders = []
    for order, _up, items, active_items in picked:
        days = dates.get(order.id or 0, [])
        back = refunded.get(order.id or 0, 0)
        placed = (order.placed_at or order.created_at).astimezone(TORONTO).date()
        orders.append(
            {
                "order_id": order.id,
                "number": order.number,
                "status": order.status,
                "status_label": t(f"orderpay.status_{order.status}", lang),
                "delivery_dates": [d.isoformat() for d in days],
                "delivery_dates_label": [_day(d, lang) for d in days],
                "ordered_on": placed.isoformat(),
                "ordered_on_label": _day(placed, lang),
                "total_items": int(items or 0),
                "active_items": int(active_items or 0),
                "total_pay_cents": order.total_pay_cents,
                "total_pay": format_money(order.total_pay_cents, lang),
                "total_refund_cents": back,
                "total_refund": format_money(back, lang),
                "children": kids.get(order.id or 0, []),
                "meals": meals.get(order.id or 0, []),
            }
        )
    return {
        "tab": tab,
        "orders": orders,
        "message": "" if orders else t("no_data_found", lang),
    }


def line_state(line: OrderLine) -> str:
    """``cancelled`` (nothing left), ``moved`` (rescheduled to another date), ``active``."""
    if line.status == LineStatus.CANCELLED or line.cancelled_quantity >= line.quantity:
        return "cancelled"
    if getattr(line, "moved_from_date", None) is not None:
        return "moved"
    return "active"


def size_label(size: str, lang: str) -> str:
    return t(f"portion_{size}", lang) if size in ("small", "large") else size


def order_detail(
    session: Session,
    *,
    parent_id: int,
    order_id: object,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """One order as sold and as it is now: each line (child, date, meal, size, options,
    add-ons, note, quantity, cancelled quantity, price, state, whether it can still be
    cancelled), the charges of docs/product.md §3 with the total refund (the sum of succeeded
    refunds) and each refund with its date. Another parent's order: ``order_not_found``.
    A fixed number of statements whatever the number of lines."""
    lang = normalize_lang(lang)
    french = lang == "fr"
    current = now or _now()
    loaded = load_order(session, order_id=order_id, parent_id=parent_id)
    order = loaded.order
    if order.status not in [str(s) for s in HISTORY_STATUSES] or order.placed_at is None:
        raise DomainError("order_not_found", field="order_id")
    lines = loaded.lines
    children: dict[int, Child] = {}
    meals: dict[int, Meal] = {}
    menu_options: dict[int, MenuOption] = {}
    meal_options: dict[int, MealOption] = {}
    addon_rows: dict[int, AddOn] = {}
    if lines:
        children = {
            c.id or 0: c
            for c in session.exec(
                select(Child).where(Child.id.in_(sorted({x.child_id for x in lines})))
            ).all()
        }
        if french:
            meals = {
                m.id or 0: m
                for m in session.exec(
                    select(Meal).where(Meal.id.in_(sorted({x.meal_id for x in lines})))
                ).all()
            }
            menu_options = {
                m.id or 0: m
                for m in session.exec(
                    select(MenuOption).where(
                        MenuOption.id.in_(sorted({x.menu_option_id or 0 for x in lines}))
                    )
                ).all()
            }
            meal_options = {
                m.id or 0: m
                for m in session.exec(
                    select(MealOption).where(
                        MealOption.id.in_(sorted({x.meal_option_id or 0 for x in lines}))
                    )
                ).all()
            }
            addon_ids = sorted({a.addon_id for v in loaded.addons.values() for a in v})
            addon_rows = {
                a.id or 0: a
                for a in session.exec(select(AddOn).where(AddOn.id.in_(addon_ids or [0]))).all()
            }
    out_lines = []
    for line in lines:
        child = children.get(line.child_id)
        meal = meals.get(line.meal_id)
        mo = menu_options.get(line.menu_option_id or 0)
        xo = meal_options.get(line.meal_option_id or 0)
        state = line_state(line)
        vendor = loaded.vendors[line.vendor_id]
        open_ = state != "cancelled" and line_is_open(line, vendor, current)
        moved_from = getattr(line, "moved_from_date", None)
        out_lines.append(
            {
                "order_line_id": line.id,
                "child_id": line.child_id,
                "child_name": f"{child.first_name} {child.last_name}" if child else "",
                "date": line.meal_date.isoformat(),
                "day": _day(line.meal_date, lang),
                "meal_id": line.meal_id,
                "meal_name": (meal.name_fr if (french and meal and meal.name_fr) else None)
                or line.meal_name,
                "size": line.size,
                "size_label": size_label(line.size, lang),
                "menu_option": (mo.name_fr if (french and mo and mo.name_fr) else None)
                or line.menu_option_name,
                "meal_option": (xo.name_fr if (french and xo and xo.name_fr) else None)
                or line.meal_option_name,
                "addons": [
                    {
                        "name": (
                            addon_rows[a.addon_id].name_fr
                            if french and a.addon_id in addon_rows
                            else a.name
                        ),
                        "price_cents": a.price_cents,
                        "price": format_money(a.price_cents, lang),
                    }
                    for a in loaded.addons.get(line.id or 0, [])
                ],
                "special_note": line.special_note or "",
                "quantity": line.quantity,
                "cancelled_quantity": line.cancelled_quantity,
                "active_quantity": line.quantity - line.cancelled_quantity
                if state != "cancelled"
                else 0,
                "unit_price_cents": line.unit_price_cents,
                "line_total_cents": line.line_total_cents,
                "line_total": format_money(line.line_total_cents, lang),
                "state": state,
                "state_label": t(f"orders_after.line_{state}", lang),
                "moved_from": moved_from.isoformat() if moved_from else None,
                "can_cancel": bool(open_ and can_cancel(OrderStatus(order.status))),
                "cutoff_at": line_cutoff(line, vendor).isoformat(),
            }
        )
    labels = (
        ("meal_net_cents", "orderpay.charge_meal_net"),
        ("special_note_fees_cents", "orderpay.charge_note_fees"),
        ("discount_cents", "orderpay.charge_discount"),
        ("processing_fee_cents", "orderpay.charge_processing"),
        ("tax_cents", "orderpay.charge_tax"),
        ("school_donation_cents", "orderpay.charge_donation"),
        ("additional_charge_cents", "orderpay.charge_additional"),
        ("total_pay_cents", "orderpay.charge_total"),
    )
    refunded = loaded.refunded_cents
    charges = [
        {
            "name": name,
            "label": tax_label(order.tax_bps, lang) if name == "tax_cents" else t(key, lang),
            "cents": getattr(order, name),
            "amount": format_money(
                -getattr(order, name) if name == "discount_cents" else getattr(order, name), lang
            ),
        }
        for name, key in labels
    ]
    charges.append(
        {
            "name": "total_refund_cents",
            "label": t("orders_after.total_refund", lang),
            "cents": refunded,
            "amount": format_money(refunded, lang),
        }
    )
    refunds = [
        {
            "refund_id": r.id,
            "amount_cents": r.amount_cents,
            "amount": format_money(r.amount_cents, lang),
            "kind": r.kind,
            "state": r.state,
            "state_label": t(_refund_label(r), lang),
            "date": r.created_at.date().isoformat(),
            "date_label": _day(r.created_at.date(), lang),
        }
        for r in loaded.refunds
        # A failed try is shown while it is still owed (delayed), not once sent again.
        if r.state != RefundState.FAILED or owed_failed(r)
    ]
    # Charges that paid for nothing (a second attempt, a replaced or dropped change's
    # payment, a duplicate sale): listed apart with their void, never in the order's money.
    voided = []
    for p in loaded.strays:
        back = [r for r in loaded.stray_refunds if r.payment_id == p.id]
        done = sum(r.amount_cents for r in back if r.state == RefundState.SUCCEEDED)
        state = (
            RefundState.SUCCEEDED
            if done >= p.amount_cents
            else RefundState.PENDING
            if any(r.state in RESERVING for r in back)
            else RefundState.FAILED
            if back
            else RefundState.PENDING
        )
        day = (p.verified_at or p.created_at).astimezone(TORONTO).date()
        state_label = t(f"orders_after.refund_{str(state).lower()}", lang)
        voided.append(
            {
                "payment_id": p.id,
                "amount_cents": p.amount_cents,
                "amount": format_money(p.amount_cents, lang),
                "refunded_cents": done,
                "state": state,
                "state_label": state_label,
                "date": day.isoformat(),
                "text": t(
                    "orders_after.voided_attempt",
                    lang,
                    amount=format_money(p.amount_cents, lang),
                    day=_day(day, lang),
                    state=state_label,
                ),
            }
        )
    return {
        "order_id": order.id,
        "number": order.number,
        "status": order.status,
        "status_label": t(f"orderpay.status_{order.status}", lang),
        "ordered_on": (order.placed_at or order.created_at).astimezone(TORONTO).date().isoformat(),
        "promo_code": order.promo_code,
        "lines": out_lines,
        "charges": charges,
        "total_pay_cents": order.total_pay_cents,
        "total_refund_cents": refunded,
        "total_refund": format_money(refunded, lang),
        "refunds": refunds,
        "voided_attempts": voided,
        "can_cancel": any(x["can_cancel"] for x in out_lines),
    }


def _refund_label(refund: Refund) -> str:
    """A refund's state for the parent: a failed one still owed is delayed, never 'failed'
    (issue 21)."""
    if refund.state == RefundState.FAILED and refund.attention_at is not None:
        return "orders_after.refund_attention"
    if refund.state == RefundState.FAILED:
        return "orders_after.refund_delayed"
    return f"orders_after.refund_{str(refund.state).lower()}"


# -- applying a cancel (shared) -------------------------------------------------------------------


@dataclass
class CancelPlan:
    order_id: int
    order_number: str
    parent_id: int
    cancellation_id: int
    refund_cents: int
    status: str
    repeated: bool  # the same request_key was already applied: nothing new was done
    refunds: list[PlannedRefund] = field(default_factory=list)
    actor: str = ""
    # A repeat: where the first cancel's refunds stand now (issue 21: a retry answers what
    # the first did, not 0 while its refund is on its way).
    refunded_cents: int = 0
    pending_cents: int = 0
    failed_cents: int = 0


def check_reason(
    session: Session, reason_id: object, other_text: object, *, required: bool = True
) -> tuple[int | None, str | None]:
    """A reason from ``CancelReason``; the Other entry needs its free text (1..500)."""
    if reason_id in (None, "", 0) and not required:
        return None, None
    rid = _int_id(reason_id, "cancel_reason_required", "reason_id")
    reason = session.get(CancelReason, rid)
    if reason is None:
        raise DomainError("cancel_reason_required", field="reason_id")
    text = other_text.strip() if isinstance(other_text, str) else ""
    if reason.is_other and not text:
        raise DomainError("cancel_other_text_required", field="other_text")
    if len(text) > OTHER_TEXT_MAX:
        raise DomainError("cancel_other_text_too_long", field="other_text", max=OTHER_TEXT_MAX)
    return rid, (text or None)


def check_request_key(request_key: object) -> str:
    if not isinstance(request_key, str) or not 1 <= len(request_key.strip()) <= REQUEST_KEY_MAX:
        raise DomainError("cancel_request_key_invalid", field="request_key")
    return request_key.strip()


def find_cancellation(session: Session, order_id: int, request_key: str) -> CancelPlan | None:
    """The cancellation already recorded for this order and key (a retry), if any."""
    row = session.exec(
        select(OrderCancellation).where(
            OrderCancellation.order_id == order_id,
            OrderCancellation.request_key == request_key,
        )
    ).first()
    if row is None:
        return None
    order = session.get(Order, order_id)
    assert order is not None
    refunds = session.exec(select(Refund).where(Refund.cancellation_id == row.id)).all()
    refunded = sum(r.amount_cents for r in refunds if r.state == RefundState.SUCCEEDED)
    pending = sum(
        r.amount_cents for r in refunds if r.state in (RefundState.PENDING, RefundState.UNKNOWN)
    )
    failed = sum(r.amount_cents for r in refunds if owed_failed(r))
    return CancelPlan(
        order_id=order_id,
        order_number=order.number,
        parent_id=order.parent_id,
        cancellation_id=row.id or 0,
        refund_cents=refunded + pending + failed,
        status=order.status,
        repeated=True,
        actor=row.actor,
        refunded_cents=refunded,
        pending_cents=pending,
        failed_cents=failed,
    )


def apply_cancel(
    session: Session,
    loaded: LoadedOrder,
    quantities: Mapping[int, int],
    *,
    kind: str,
    request_key: str,
    reason_id: int | None,
    other_text: str | None,
    actor: str,
    lang: str,
    now: datetime,
    mail: bool = True,
) -> CancelPlan:
    """Cancel ``quantities[line_id]`` meals of each line of ``loaded`` (loaded with
    ``lock=True`` in this transaction). Repeat-safe by ``request_key`` (per order): a key
    already used returns that cancellation with ``repeated=True`` and changes nothing.
    Refuses (``DomainError``): the order not cancellable, a line not of this order or not
    active, a quantity outside 1..what is left, a line past its cut-off. The refund is
    ``domain.refunds.plan_cancel_refund`` on the active lines with the order's stored terms,
    net of every refund already reserved; the Refund rows are reserved here (no Converge call)
    and returned in ``plan.refunds`` for ``send_refunds``."""
    order = loaded.order
    found = find_cancellation(session, order.id or 0, request_key)
    if found is not None:
        return found
    if not can_cancel(OrderStatus(order.status)):
        raise DomainError("cancel_order_not_cancellable", field="order_id", number=order.number)
    if not quantities:
        raise DomainError("cancel_nothing_selected")
    sold = loaded.sold_lines()
    by_id = {line.id: line for line, _ in sold}
    for line_id, qty in quantities.items():
        line = by_id.get(line_id)
        if line is None:
            raise DomainError("order_line_not_found", field="order_line_id")
        left = line.quantity - line.cancelled_quantity
        if isinstance(qty, bool) or not isinstance(qty, int) or not 1 <= qty <= left:
            raise DomainError("invalid_cancel_quantity", field="quantity", max=left)
    ensure_lines_open(loaded, list(quantities), now, lang)
    plan: CancelRefund = plan_cancel_refund(
        lines=[inp for _, inp in sold],
        cancel_quantities=[quantities.get(line.id or 0, 0) for line, _ in sold],
        paid_cents=loaded.paid_cents,
        refunded_cents=min(loaded.reserved_refund_cents, loaded.paid_cents),
        terms=loaded.terms(),
        school_donation_cents=order.school_donation_cents,
        additional_charge_cents=order.additional_charge_cents,
    )
    cancellation = OrderCancellation(
        order_id=order.id or 0,
        kind=kind,
        reason_id=reason_id,
        other_text=other_text,
        request_key=request_key,
        actor=actor[:40],
        created_at=now,
    )
    session.add(cancellation)
    session.flush()
    # One executemany whatever the number of lines (the ORM would insert row by row).
    table: Any = OrderCancellationLine
    session.execute(
        insert(table.__table__),
        [
            {"cancellation_id": cancellation.id, "order_line_id": line_id, "quantity": qty}
            for line_id, qty in quantities.items()
        ],
    )
    for line_id, qty in quantities.items():
        line = by_id[line_id]
        line.cancelled_quantity += qty
        if line.cancelled_quantity >= line.quantity:
            line.status = transition_line(line.status, LineStatus.CANCELLED)
        session.add(line)
    order.status = transition(
        order.status, status_after_cancel(LineStatus(x.status) for x in loaded.lines)
    )
    order.updated_at = now
    session.add(order)
    session.flush()
    refunds: list[PlannedRefund] = []
    if plan.refund_cents > 0:
        refunds = reserve_refund(
            session,
            amount_cents=plan.refund_cents,
            reason=f"{kind} cancel of {order.number}",
            order_id=order.id,
            actor=actor,
            cancellation_id=cancellation.id,
        )
    audit(
        session,
        actor=actor,
        kind=f"order.cancel_{kind}",
        entity="order",
        entity_id=order.id or 0,
        data={
            "number": order.number,
            "cancellation_id": cancellation.id,
            "lines": {str(k): v for k, v in quantities.items()},
            "refund_cents": plan.refund_cents,
            "status": order.status,
        },
    )
    if mail:
        queue_cancel_mail(session, loaded, quantities, refund_cents=plan.refund_cents)
    return CancelPlan(
        order_id=order.id or 0,
        order_number=order.number,
        parent_id=order.parent_id,
        cancellation_id=cancellation.id or 0,
        refund_cents=plan.refund_cents,
        status=order.status,
        repeated=False,
        refunds=refunds,
        actor=actor,
    )


def queue_cancel_mail(
    session: Session, loaded: LoadedOrder, quantities: Mapping[int, int], *, refund_cents: int
) -> None:
    """The 'Order Cancelled' e-mail in the parent's language: what was cancelled and the
    refund that is due (sent after the transaction commits; always sent: it confirms what the
    parent did). The refund itself is e-mailed once Converge answers (``queue_refund_mail``)."""
    from hotmeals.services import mail

    parent = session.get(Parent, loaded.order.parent_id)
    if parent is None or not parent.email:
        return
    lang = normalize_lang(parent.language)
    names = dict(
        session.exec(
            select(Child.id, Child.first_name).where(
                Child.id.in_(sorted({x.child_id for x in loaded.lines}) or [0])
            )
        ).all()
    )
    french: dict[int, str] = {}
    if lang == "fr":
        french = {
            mid: name
            for mid, name in session.exec(
                select(Meal.id, Meal.name_fr).where(
                    Meal.id.in_(sorted({x.meal_id for x in loaded.lines}) or [0])
                )
            ).all()
            if name
        }
    items = []
    for line in loaded.lines:
        qty = quantities.get(line.id or 0)
        if qty:
            items.append(
                t(
                    "orders_after.mail_line",
                    lang,
                    child=names.get(line.child_id, ""),
                    quantity=qty,
                    meal=french.get(line.meal_id, line.meal_name),
                    size=size_label(line.size, lang),
                    day=_day(line.meal_date, lang),
                )
            )
    mail.send_templated(
        session=session,
        to=parent.email,
        template="order_cancelled",
        language=lang,
        kind="order_cancelled",
        name=parent.first_name,
        number=loaded.order.number,
        lines="\n".join(items),
        refund=cancel_mail_refund(session, parent, refund_cents, lang),
    )


def queue_refund_mail(session: Session, refund: Refund, *, first: bool) -> None:
    """The parent's refund e-mail, once Converge has answered (called by the order payment
    handlers in the transaction that records the refund's new state, so once per refund and
    never twice, even with several workers), in the parent's language and only when the
    parent's 'refund' notification is on (docs/product.md, "Refund e-mails"):

    - SUCCEEDED: the amount refunded to the card;
    - FAILED or UNKNOWN as Converge's first answer: the refund is being processed (the
      periodic job retries it; its success sends the e-mail above). A later reconciliation
      and a failed retry send nothing more."""
    from hotmeals.services import mail, notifications

    if refund.order_id is None:
        return
    succeeded = refund.state == RefundState.SUCCEEDED
    # The last try failed: the parent is told the refund is delayed and a person is on it
    # (issue 21), once (the move to FAILED happens once).
    delayed = refund.state == RefundState.FAILED and refund.attention_at is not None
    if not succeeded and not delayed and (not first or refund.attempt > 1):
        return
    order = session.get(Order, refund.order_id)
    if order is None:
        return
    parent = session.get(Parent, order.parent_id)
    if parent is None or not parent.email:
        return
    if not notifications.is_enabled(session=session, parent_id=parent.id or 0, kind="refund"):
        return  # the parent turned refund e-mails off (settings, notifications)
    lang = normalize_lang(parent.language)
    kind = "refund_made" if succeeded else "refund_delayed" if delayed else "refund_processing"
    mail.send_templated(
        session=session,
        to=parent.email,
        template=kind,
        language=lang,
        kind=kind,
        name=parent.first_name,
        number=order.number,
        amount=format_money(refund.amount_cents, lang),
    )


def cancel_mail_refund(session: Session, parent: Parent, refund_cents: int, lang: str) -> str:
    """The cancel e-mail's refund line: what is due, never yet what was refunded (Converge
    has not answered when it is written); the refund e-mail follows when the parent wants it."""
    from hotmeals.services import notifications

    if refund_cents <= 0:
        return t("orders_after.no_refund", lang)
    amount = format_money(refund_cents, lang)
    if notifications.is_enabled(session=session, parent_id=parent.id or 0, kind="refund"):
        return t("orders_after.mail_refund_due", lang, amount=amount)
    return t("orders_after.mail_refund_due_quiet", lang, amount=amount)


def refund_notice(refund_cents: int, lang: str) -> str:
    if refund_cents <= 0:
        return t("orders_after.no_refund", lang)
    return t("orders_after.refund_notice", lang, amount=format_money(refund_cents, lang))


async def send_refunds(
    plan: CancelPlan, *, engine: Engine | None = None, gateway: PaymentGateway | None = None
) -> list[str]:
    """Step 2 and 3 for the refunds ``apply_cancel`` reserved, with no transaction open:
    Converge voids or returns each, and the outcome is recorded (a lost answer is left to the
    payment service's reconciliation). Returns each refund's final state."""
    from hotmeals.services.payments.runtime import gateway_or_default

    gw = gateway_or_default(gateway)
    states = []
    for item in plan.refunds:
        view = await execute_refund(item, actor=plan.actor or "system", engine=engine, gateway=gw)
        states.append(str(view.state))
    return states
