"""A parent's paid orders as the order screens and the /api/v1 order calls read them: the
history (future and past) and one order's detail, both from ``loaded_order``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import case
from sqlalchemy import select as select_rows
from sqlmodel import Session, col, func, select

from hotmeals import clock
from hotmeals.db.models import (
    AddOn,
    Child,
    Meal,
    MealDonation,
    MealOption,
    MenuOption,
    Order,
    OrderLine,
    Payment,
    Refund,
)
from hotmeals.domain.cutoff import TORONTO
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import LineStatus, OrderStatus, can_cancel
from hotmeals.domain.payment_states import RefundKind, RefundState
from hotmeals.i18n import normalize_lang, t
from hotmeals.services.ids import rows_by_id
from hotmeals.services.ordering.confirmation import ChargeLine, paid_charge_lines
from hotmeals.services.ordering.labels import order_day, size_label
from hotmeals.services.ordering.loaded_order import (
    line_closes,
    line_is_open,
    load_order,
    pays_for_order,
)
from hotmeals.services.payments.records import RESERVING, owed_failed, paid_by_credit

HISTORY_STATUSES = (
    OrderStatus.PLACED,
    OrderStatus.PARTIALLY_CANCELLED,
    OrderStatus.CANCELLED,
    OrderStatus.DELIVERED,
)
FUTURE, PAST = "future", "past"


@dataclass(frozen=True)
class HistoryOrder:
    """A paid order as the history lists it."""

    order_id: int
    number: str
    status: str
    status_label: str
    delivery_dates: list[date]
    delivery_dates_label: list[str]
    ordered_on: date
    ordered_on_label: str
    total_items: int
    active_items: int
    total_pay_cents: int
    total_refund_cents: int
    children: list[str]  # whose meals, each named once
    meals: list[str]  # which meals, each named once


@dataclass(frozen=True)
class OrderHistory:
    """One tab of the parent's paid orders (``future`` or ``past``), newest first."""

    tab: str
    orders: list[HistoryOrder]


@dataclass(frozen=True)
class LineAddOn:
    name: str
    price_cents: int


@dataclass(frozen=True)
class DetailLine:
    """A line of a paid order, as sold and as it is now."""

    order_line_id: int
    child_id: int
    child_name: str
    moved_from: date | None  # the day it was moved from, if it was
    date: date
    day: str
    meal_id: int
    meal_name: str
    size: str
    size_label: str
    menu_option: str
    meal_option: str
    addons: list[LineAddOn]
    special_note: str
    quantity: int
    cancelled_quantity: int
    active_quantity: int
    unit_price_cents: int
    line_total_cents: int
    state: str  # active, moved, delivered or cancelled
    state_label: str
    can_cancel: bool
    cutoff_at: datetime


@dataclass(frozen=True)
class OrderRefund:
    refund_id: int
    amount_cents: int
    kind: str
    state: str
    state_label: str
    date: date
    date_label: str


@dataclass(frozen=True)
class VoidedAttempt:
    """A charge that paid for nothing, with how far its void went."""

    payment_id: int
    amount_cents: int
    refunded_cents: int
    state: str
    state_label: str
    date: date
    date_label: str


@dataclass(frozen=True)
class OrderDetail:
    order_id: int
    number: str
    status: str
    status_label: str
    ordered_on: date
    promo_code: str | None
    lines: list[DetailLine]
    charges: list[ChargeLine]  # docs/product.md §3, then the total refund
    total_pay_cents: int
    total_refund_cents: int
    refunds: list[OrderRefund]
    voided_attempts: list[VoidedAttempt]
    can_cancel: bool


def order_history(
    session: Session,
    *,
    parent_id: int,
    tab: str = FUTURE,
    lang: str = "en",
) -> OrderHistory:
    """The parent's paid orders (placed, partially cancelled, cancelled, delivered; never an
    unpaid attempt), newest first. ``tab`` ``future``: orders with an active meal on or after
    today (Toronto); ``past``: the others. Each: order id and number, delivery dates,
    ordered-on date, total items (meals still to deliver and ordered), total paid and total
    refunded. Three statements."""
    if tab not in (FUTURE, PAST):
        raise DomainError("invalid_history_tab", field="tab")
    lang = normalize_lang(lang)
    today = clock.today()
    active = (col(OrderLine.status) == LineStatus.ACTIVE) & (
        col(OrderLine.quantity) > OrderLine.cancelled_quantity
    )
    upcoming = func.max(case((active & (col(OrderLine.meal_date) >= today), 1), else_=0)).label(
        "upcoming"
    )
    rows = session.exec(
        select(
            Order,
            upcoming,
            func.sum(OrderLine.quantity).label("items"),
            func.sum(col(OrderLine.quantity) - OrderLine.cancelled_quantity).label("active_items"),
        )
        .join(OrderLine, col(OrderLine.order_id) == Order.id)
        .where(
            col(Order.parent_id) == parent_id,
            col(Order.status).in_([str(s) for s in HISTORY_STATUSES]),
            col(Order.placed_at).is_not(None),
        )
        .group_by(col(Order.id))
        .order_by(col(Order.placed_at).desc(), col(Order.id).desc())
    ).all()
    picked = [r for r in rows if bool(r[1]) == (tab == FUTURE)]
    ids = [r[0].id for r in picked]
    dates: dict[int, list[date]] = {}
    # Whose meals and which: each order's children and meals, in the order of the
    # days, each named once; from the same statement as the dates.
    kids: dict[int, list[str]] = {}
    meals: dict[int, list[str]] = {}
    refunded: dict[int, int] = {}
    if ids:
        for oid, day, kid, sold_as, meal_fr in session.execute(
            select_rows(
                col(OrderLine.order_id),
                col(OrderLine.meal_date),
                col(Child.first_name),
                col(OrderLine.meal_name),
                col(Meal.name_fr),
            )
            .join(Child, col(Child.id) == OrderLine.child_id)
            .outerjoin(Meal, col(Meal.id) == OrderLine.meal_id)
            .where(col(OrderLine.order_id).in_(ids))
            .order_by(col(OrderLine.order_id), col(OrderLine.meal_date), col(OrderLine.id))
        ).all():
            name = (meal_fr if lang == "fr" and meal_fr else None) or sold_as
            for found, value in ((dates, day), (kids, kid), (meals, name)):
                if value not in found.setdefault(oid, []):
                    found[oid].append(value)
        for oid, cents in session.exec(
            select(Payment.order_id, func.coalesce(func.sum(Refund.amount_cents), 0))
            .join(Payment, col(Payment.id) == Refund.payment_id)
            .where(
                col(Payment.order_id).in_(ids),
                col(Refund.state) == RefundState.SUCCEEDED,
                pays_for_order(),  # never the void of a charge that paid for nothing
            )
            .group_by(col(Payment.order_id))
        ).all():
            refunded[oid or 0] = int(cents)
    orders = []
    for order, up, items, active_items in picked:
        days = dates.get(order.id or 0, [])
        back = refunded.get(order.id or 0, 0)
        placed = (order.placed_at or order.created_at).astimezone(TORONTO).date()
        orders.append(
            HistoryOrder(
                order_id=order.id or 0,
                number=order.number,
                status=order.status,
                status_label=status_label(order.status, bool(active_items) and not up, lang),
                delivery_dates=days,
                delivery_dates_label=[order_day(d, lang) for d in days],
                ordered_on=placed,
                ordered_on_label=order_day(placed, lang),
                total_items=int(items or 0),
                active_items=int(active_items or 0),
                total_pay_cents=order.total_pay_cents,
                total_refund_cents=back,
                children=kids.get(order.id or 0, []),
                meals=meals.get(order.id or 0, []),
            )
        )
    return OrderHistory(tab=tab, orders=orders)


def status_label(status: str, served: bool, lang: str) -> str:
    """An order's status as the parent reads it: "Delivered" once every meal still booked is
    behind it (``served``: some are booked, none from today on), else its status's word."""
    if served and status in (OrderStatus.PLACED, OrderStatus.PARTIALLY_CANCELLED):
        return t("orderpay.status_delivered", lang)
    return t(f"orderpay.status_{status}", lang)


def line_label(
    state: str, meal_date: date, today: date, lang: str, *, donated: bool = False
) -> str:
    """A meal's state as the parent reads it: one given to the school's student-nutrition
    program says so; a delivered one (its school's delivery confirmed), and an active one
    whose day has passed, "Delivered" / "Livré"; else its state's word."""
    if donated and state in ("active", "delivered"):
        return t("away.item.donated", lang)
    if state == "active" and meal_date < today:
        return t("orders_after.line_delivered", lang)
    return t(f"orders_after.line_{state}", lang)


def line_state(line: OrderLine) -> str:
    """``cancelled`` (nothing left), ``delivered`` (handed out: its school's delivery was
    confirmed), ``moved`` (rescheduled to another date), ``active``."""
    if line.status == LineStatus.CANCELLED or line.cancelled_quantity >= line.quantity:
        return "cancelled"
    if line.status == LineStatus.DELIVERED:
        return "delivered"
    if getattr(line, "moved_from_date", None) is not None:
        return "moved"
    return "active"


def order_detail(
    session: Session,
    *,
    parent_id: int,
    order_id: int,
    lang: str = "en",
) -> OrderDetail:
    """One order as sold and as it is now: each line (child, date, meal, size, options,
    add-ons, note, quantity, cancelled quantity, price, state, whether it can still be
    cancelled), the charges of docs/product.md §3 with the total refund (the sum of succeeded
    refunds) and each refund with its date. Another parent's order (or id 0):
    ``order_not_found``. A fixed number of statements whatever the number of lines."""
    lang = normalize_lang(lang)
    french = lang == "fr"
    current = clock.now()
    loaded = load_order(session, order_id=order_id, parent_id=parent_id)
    order = loaded.order
    if order.status not in [str(s) for s in HISTORY_STATUSES] or order.placed_at is None:
        raise DomainError("order_not_found", field="order_id")
    lines = loaded.lines
    booked = loaded.active_lines()
    # the meals given to the school's program (a child away, past the cut-off): said so
    donated = set(
        session.exec(
            select(col(MealDonation.order_line_id)).where(
                col(MealDonation.order_line_id).in_([x.id for x in lines] or [0])
            )
        ).all()
    )
    children: dict[int, Child] = {}
    meals: dict[int, Meal] = {}
    menu_options: dict[int, MenuOption] = {}
    meal_options: dict[int, MealOption] = {}
    addon_rows: dict[int, AddOn] = {}
    if lines:
        children = rows_by_id(session, Child, (x.child_id for x in lines))
        if french:
            meals = rows_by_id(session, Meal, (x.meal_id for x in lines))
            menu_options = rows_by_id(session, MenuOption, (x.menu_option_id or 0 for x in lines))
            meal_options = rows_by_id(session, MealOption, (x.meal_option_id or 0 for x in lines))
            addon_rows = rows_by_id(
                session, AddOn, (a.addon_id for v in loaded.addons.values() for a in v)
            )
    out_lines = []
    for line in lines:
        child = children.get(line.child_id)
        meal = meals.get(line.meal_id)
        mo = menu_options.get(line.menu_option_id or 0)
        xo = meal_options.get(line.meal_option_id or 0)
        state = line_state(line)
        vendor = loaded.vendors[line.vendor_id]
        open_ = state not in ("cancelled", "delivered") and line_is_open(line, vendor, current)
        out_lines.append(
            DetailLine(
                order_line_id=line.id or 0,
                child_id=line.child_id,
                child_name=f"{child.first_name} {child.last_name}" if child else "",
                date=line.meal_date,
                day=order_day(line.meal_date, lang),
                meal_id=line.meal_id,
                meal_name=(meal.name_fr if (french and meal and meal.name_fr) else None)
                or line.meal_name,
                size=line.size,
                size_label=size_label(line.size, lang),
                menu_option=(mo.name_fr if (french and mo and mo.name_fr) else None)
                or line.menu_option_name,
                meal_option=(xo.name_fr if (french and xo and xo.name_fr) else None)
                or line.meal_option_name,
                addons=[
                    LineAddOn(
                        name=(
                            addon_rows[a.addon_id].name_fr
                            if french and a.addon_id in addon_rows
                            else a.name
                        ),
                        price_cents=a.price_cents,
                    )
                    for a in loaded.addons.get(line.id or 0, [])
                ],
                special_note=line.special_note or "",
                quantity=line.quantity,
                cancelled_quantity=line.cancelled_quantity,
                active_quantity=line.quantity - line.cancelled_quantity
                if state != "cancelled"
                else 0,
                unit_price_cents=line.unit_price_cents,
                line_total_cents=line.line_total_cents,
                state=state,
                state_label=line_label(
                    state, line.meal_date, clock.today(current), lang, donated=line.id in donated
                ),
                moved_from=getattr(line, "moved_from_date", None),
                can_cancel=bool(open_ and can_cancel(OrderStatus(order.status))),
                cutoff_at=line_closes(line, vendor),
            )
        )
    refunded = loaded.refunded_cents
    by_credit = sum(p.amount_cents for p in loaded.payments if paid_by_credit(p))
    charges = paid_charge_lines(order, by_credit, lang)
    charges.append(
        ChargeLine(
            name="total_refund_cents",
            label=t("orders_after.total_refund", lang),
            cents=refunded,
        )
    )
    refunds = [
        OrderRefund(
            refund_id=r.id or 0,
            amount_cents=r.amount_cents,
            kind=r.kind,
            state=r.state,
            state_label=t(_refund_label(r), lang),
            date=r.created_at.date(),
            date_label=order_day(r.created_at.date(), lang),
        )
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
        voiding = (
            RefundState.SUCCEEDED
            if done >= p.amount_cents
            else RefundState.PENDING
            if any(r.state in RESERVING for r in back)
            else RefundState.FAILED
            if back
            else RefundState.PENDING
        )
        day = (p.verified_at or p.created_at).astimezone(TORONTO).date()
        voided.append(
            VoidedAttempt(
                payment_id=p.id or 0,
                amount_cents=p.amount_cents,
                refunded_cents=done,
                state=voiding,
                state_label=t(f"orders_after.refund_{str(voiding).lower()}", lang),
                date=day,
                date_label=order_day(day, lang),
            )
        )
    return OrderDetail(
        order_id=order.id or 0,
        number=order.number,
        status=order.status,
        status_label=status_label(
            order.status,
            bool(booked) and all(x.meal_date < clock.today(current) for x in booked),
            lang,
        ),
        ordered_on=(order.placed_at or order.created_at).astimezone(TORONTO).date(),
        promo_code=order.promo_code,
        lines=out_lines,
        charges=charges,
        total_pay_cents=order.total_pay_cents,
        total_refund_cents=refunded,
        refunds=refunds,
        voided_attempts=voided,
        can_cancel=any(x.can_cancel for x in out_lines),
    )


def _refund_label(refund: Refund) -> str:
    """A refund's state for the parent: a failed one still owed is delayed, never 'failed';
    one to family credit says so."""
    if refund.kind == RefundKind.CREDIT:
        return "orders_after.refund_to_credit"
    if refund.state == RefundState.FAILED and refund.attention_at is not None:
        return "orders_after.refund_attention"
    if refund.state == RefundState.FAILED:
        return "orders_after.refund_delayed"
    return f"orders_after.refund_{str(refund.state).lower()}"
