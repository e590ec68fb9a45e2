"""One paid order as every reader and writer of its after-sale life sees it: the order, its
lines with their vendors and add-ons, the approved payments that pay for it and their refunds,
loaded in a fixed number of statements whatever the number of lines or orders.

**Every write to a paid order locks the ``Order`` row first** (``lock_order``, through
``services.payments.records.lock_row``: ``SELECT ... FOR UPDATE`` on PostgreSQL, a first write
on SQLite), in a fresh transaction, before anything of the order is read. Cancels, modifies
and moves of the same order therefore run one after the other, and the second one sees what
the first wrote (its lines, its cancelled quantities, its reserved refunds): a cancel racing a
move of the same meal, or the same cancel sent twice, refunds once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import and_, exists, or_
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from hotmeals.db.models import (
    Order,
    OrderChange,
    OrderLine,
    OrderLineAddOn,
    Payment,
    Refund,
    Vendor,
)
from hotmeals.domain.charges import OrderTerms
from hotmeals.domain.cutoff import before_cutoff, cutoff_at
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import KEPT_LINE_STATUSES, LineStatus
from hotmeals.domain.payment_states import PaymentMethod, PaymentState, Purpose, RefundState
from hotmeals.domain.pricing import LineInput
from hotmeals.domain.refunds import sold_line
from hotmeals.services.ordering.days import cutoff_rule
from hotmeals.services.ordering.labels import order_day
from hotmeals.services.payments.records import (
    CHANGE_PAID_STATES,
    RESERVING,
    lock_row,
    owed_failed,
    split_order_payments,
)


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
        again: a failed refund is not credit for the next cancel."""
        return sum(r.amount_cents for r in self.refunds if r.state in RESERVING or owed_failed(r))

    def line(self, line_id: int) -> OrderLine | None:
        return next((x for x in self.lines if x.id == line_id), None)

    def active_lines(self) -> list[OrderLine]:
        """The lines still to serve (what a cancel, a change or a closure may act on)."""
        return [
            x
            for x in self.lines
            if x.status == LineStatus.ACTIVE and x.quantity - x.cancelled_quantity > 0
        ]

    def kept_lines(self) -> list[OrderLine]:
        """The lines ordered and not cancelled: still to serve or delivered (what the order
        still costs: a delivered meal is never refunded)."""
        return [
            x
            for x in self.lines
            if x.status in KEPT_LINE_STATUSES and x.quantity - x.cancelled_quantity > 0
        ]

    def sold_lines(self) -> list[tuple[OrderLine, LineInput]]:
        """Each kept line (still to serve or delivered) with its remaining quantity, priced
        as it was sold: what a cancel or a change re-prices the order with."""
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
            for x in self.kept_lines()
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
    session: Session, *, order_id: int | None, parent_id: int | None, lock: bool = False
) -> LoadedOrder:
    """The order with its lines, vendors, add-ons, approved payments and refunds. Another
    parent's order (or a missing one: id 0, or None, a row's id as the ORM types it) raises
    ``DomainError("order_not_found")``; ``lock=True`` locks the order row first."""
    if order_id is None:
        raise DomainError("order_not_found", field="order_id")
    if lock:
        order = lock_order(session, order_id, parent_id)
    else:
        found = session.get(Order, order_id)
        if found is None or (parent_id is not None and found.parent_id != parent_id):
            raise DomainError("order_not_found", field="order_id")
        order = found
    return _load_rest(session, [order])[order_id]


def load_orders(session: Session, order_ids: list[int]) -> dict[int, LoadedOrder]:
    """Several orders (not locked), by id; an unknown id is left out."""
    if not order_ids:
        return {}
    found = list(session.exec(select(Order).where(col(Order.id).in_(order_ids))).all())
    return _load_rest(session, found)


def _load_rest(session: Session, orders: list[Order]) -> dict[int, LoadedOrder]:
    """The rest of each order: five statements whatever the number of orders and lines."""
    ids = [o.id or 0 for o in orders]
    out = {o.id or 0: LoadedOrder(o, [], {}, {}, [], []) for o in orders}
    if not ids:
        return out
    for line, vendor in session.exec(
        select(OrderLine, Vendor)
        .join(Vendor, col(Vendor.id) == OrderLine.vendor_id)
        .where(col(OrderLine.order_id).in_(ids))
        .order_by(col(OrderLine.meal_date), col(OrderLine.id))
        .execution_options(populate_existing=True)
    ).all():
        out[line.order_id].lines.append(line)
        out[line.order_id].vendors[vendor.id or 0] = vendor
    line_order = {x.id: oid for oid, lo in out.items() for x in lo.lines}
    if line_order:
        for addon in session.exec(
            select(OrderLineAddOn)
            .join(OrderLine, col(OrderLine.id) == OrderLineAddOn.order_line_id)
            .where(col(OrderLine.order_id).in_(ids))
            .order_by(col(OrderLineAddOn.id))
        ).all():
            lo = out[line_order[addon.order_line_id]]
            lo.addons.setdefault(addon.order_line_id, []).append(addon)
    approved: dict[int, list[Payment]] = {oid: [] for oid in ids}
    for payment in session.exec(
        select(Payment)
        .where(col(Payment.order_id).in_(ids), col(Payment.state) == PaymentState.APPROVED)
        .order_by(col(Payment.id))
    ).all():
        approved[payment.order_id or 0].append(payment)
    change_payments: dict[int, list[int]] = {oid: [] for oid in ids}
    for oid, pid in session.exec(
        select(col(OrderChange.order_id), col(OrderChange.payment_id)).where(
            col(OrderChange.order_id).in_(ids),
            col(OrderChange.state).in_(CHANGE_PAID_STATES),
            col(OrderChange.payment_id).is_not(None),
        )
    ).all():
        if pid:
            change_payments[oid].append(pid)
    kept: set[int | None] = set()
    for oid, lo in out.items():
        lo.payments, lo.strays = split_order_payments(lo.order, approved[oid], change_payments[oid])
        kept |= {p.id for p in lo.payments}
    for refund, order_id in session.exec(
        select(Refund, col(Payment.order_id))
        .join(Payment, col(Payment.id) == Refund.payment_id)
        .where(col(Payment.order_id).in_(ids))
        .order_by(col(Refund.id))
        .execution_options(populate_existing=True)
    ).all():
        lo = out[order_id or 0]
        (lo.refunds if refund.payment_id in kept else lo.stray_refunds).append(refund)
    return out


def earlier_approval() -> Any:
    """SQL: another approved ORDER payment of ``Payment``'s order was recorded before it (the
    first approval wins; a tie goes to the lower id)."""
    other = aliased(Payment)
    return exists().where(
        col(other.order_id) == Payment.order_id,
        col(other.purpose) == Purpose.ORDER,
        col(other.state) == PaymentState.APPROVED,
        col(other.duplicate_of_id).is_(None),
        col(other.id) != Payment.id,
        or_(
            col(other.verified_at) < Payment.verified_at,
            and_(col(other.verified_at) == Payment.verified_at, col(other.id) < Payment.id),
        ),
    )


def pays_for_order() -> Any:
    """SQL: ``Payment`` is one that pays for its order (``split_order_payments`` in one
    condition, for a list): the first approved ORDER attempt, family credit's share, or the
    payment of a change applied (or being applied)."""
    earlier = earlier_approval()
    changes = select(col(OrderChange.payment_id)).where(
        col(OrderChange.state).in_(CHANGE_PAID_STATES), col(OrderChange.payment_id).is_not(None)
    )
    return and_(
        col(Payment.duplicate_of_id).is_(None),
        or_(
            col(Payment.method) == PaymentMethod.CREDIT,
            and_(col(Payment.purpose) == Purpose.ORDER, ~earlier),
            and_(col(Payment.purpose) == Purpose.ORDER_CHANGE, col(Payment.id).in_(changes)),
        ),
    )


def line_closes(line: OrderLine, vendor: Vendor) -> datetime:
    """The cut-off instant of the line's meal day (its vendor's rule)."""
    return cutoff_at(cutoff_rule(vendor), line.meal_date)


def line_is_open(line: OrderLine, vendor: Vendor, now: datetime) -> bool:
    """Can this line still be cancelled or changed (strictly before its meal day's cut-off)?"""
    return before_cutoff(line_closes(line, vendor), now)


def active_quantity(line: OrderLine) -> int:
    """What is left of the line to deliver (0 once it is cancelled)."""
    if line.status != LineStatus.ACTIVE:
        return 0
    return line.quantity - line.cancelled_quantity


def refuse_delivered(line: OrderLine | None, lang: str) -> None:
    """A delivered meal is past every change: ``meal_delivered`` naming its day (the cancel,
    change and move doors' refusal, before their own "not found" or cut-off)."""
    if line is not None and line.status == LineStatus.DELIVERED:
        raise DomainError(
            "meal_delivered", field="order_line_id", day=order_day(line.meal_date, lang)
        )
