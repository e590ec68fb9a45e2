"""Cancelling paid meals (issue 10): the cancel cart (choose lines and quantities, see the
refund, confirm with a reason), cancelling a whole order, cancelling one meal; the refunds
they cause go back to the card through the payment service.

Plain Python, no Reflex. Every write locks the ``Order`` row first (see
``services/orders.py``); the three steps are those of the payment service:

1. **reserve**, one transaction per order under its row lock: ``orders.apply_cancel`` checks
   the cut-offs and quantities, records the ``OrderCancellation`` (unique per order and
   ``request_key``: a retry or a double click finds it and does nothing more), updates the
   lines and the order, reserves the refund rows and queues the e-mail;
2. **call** Converge with no transaction open (void before settlement, return after);
3. **record** the outcome (``orders.send_refunds``).

The refund is ``domain.refunds.plan_cancel_refund`` on what the order stored at payment: what
was paid minus what was refunded minus what the remaining meals cost, so the give-back and
the tax follow the cancelled meals, and cancelling everything refunds everything.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.engine import Engine
from sqlmodel import Session, func, select

from hotmeals.db.models import (
    CancelCartLine,
    CancelReason,
    Child,
    Meal,
    Order,
    OrderCancellation,
    OrderCancellationLine,
    OrderLine,
    Refund,
    Vendor,
)
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import LineStatus, OrderStatus, can_cancel
from hotmeals.domain.pricing import MAX_QUANTITY
from hotmeals.domain.refunds import plan_cancel_refund, refund_for_cancel
from hotmeals.i18n import normalize_lang, t
from hotmeals.payments.gateway import PaymentGateway
from hotmeals.services import orders
from hotmeals.services.orders import CancelPlan
from hotmeals.services.payments.records import RESERVING, owed_failed
from hotmeals.services.payments.runtime import actor_of, db

log = logging.getLogger("hotmeals.cancellations")


def _now() -> datetime:
    return orders._now()


def _quantity(value: object, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise DomainError("cancel_quantity_invalid", field="quantity", max=most)
    return value


# -- cancel reasons -------------------------------------------------------------------------------


def cancel_reasons(session: Session, *, lang: str = "en") -> list[dict]:
    """CancelOrderReason: every reason in the parent's language, the Other entry (free text
    required) last as seeded."""
    french = normalize_lang(lang) == "fr"
    rows = session.exec(select(CancelReason).order_by(CancelReason.sort, CancelReason.id)).all()
    return [
        {
            "reason_id": r.id,
            "code": r.code,
            "label": r.label_fr if french else r.label_en,
            "is_other": r.is_other,
        }
        for r in rows
    ]


# -- the cancel cart ------------------------------------------------------------------------------


def cancel_cart_count(session: Session, *, parent_id: int) -> int:
    """The header's cancel-cart count (spec §4: the UI shows its local count when above 0,
    otherwise this): the number of lines in the parent's cancel cart."""
    return int(
        session.exec(
            select(func.count())
            .select_from(CancelCartLine)
            .where(CancelCartLine.parent_id == parent_id)
        ).one()
    )


def _own_line(session: Session, parent_id: int, order_line_id: object) -> tuple:
    if isinstance(order_line_id, bool) or not isinstance(order_line_id, int):
        raise DomainError("order_line_not_found", field="order_line_id")
    row = session.exec(
        select(OrderLine, Order, Vendor)
        .join(Order, Order.id == OrderLine.order_id)
        .join(Vendor, Vendor.id == OrderLine.vendor_id)
        .where(OrderLine.id == order_line_id, Order.parent_id == parent_id)
    ).first()
    if row is None:
        raise DomainError("order_line_not_found", field="order_line_id")
    return row


def _check_cancellable(line: OrderLine, order: Order, vendor: Vendor, now, lang: str) -> int:
    """What is left of the line to cancel; refused when nothing can be."""
    if not can_cancel(OrderStatus(order.status)) or order.placed_at is None:
        raise DomainError("cancel_order_not_cancellable", field="order_id", number=order.number)
    left = line.quantity - line.cancelled_quantity
    if line.status != LineStatus.ACTIVE or left <= 0:
        raise DomainError("order_line_not_found", field="order_line_id")
    if not orders.line_is_open(line, vendor, now):
        raise DomainError(
            "cancel_cutoff_passed", field="order_line_id", day=orders._day(line.meal_date, lang)
        )
    return left


def add_to_cancel_cart(
    session: Session,
    *,
    parent_id: int,
    order_line_id: object,
    quantity: object = 1,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """AddToCancelCart: put ``quantity`` meals of one of the parent's paid lines in the cancel
    cart (a line already there gets this quantity: a repeat changes nothing). Refused after the
    line's cut-off, beyond what is left of it, for another parent's line."""
    lang = normalize_lang(lang)
    line, order, vendor = _own_line(session, parent_id, order_line_id)
    left = _check_cancellable(line, order, vendor, now or _now(), lang)
    qty = _quantity(quantity, min(left, MAX_QUANTITY))
    row = session.exec(
        select(CancelCartLine).where(
            CancelCartLine.parent_id == parent_id, CancelCartLine.order_line_id == line.id
        )
    ).first()
    if row is None:
        row = CancelCartLine(parent_id=parent_id, order_line_id=line.id or 0, quantity=qty)
    row.quantity = qty
    session.add(row)
    session.flush()
    return {
        "cancel_cart_id": row.id,
        "order_line_id": line.id,
        "quantity": qty,
        "cancel_cart_count": cancel_cart_count(session, parent_id=parent_id),
    }


def _own_cart_line(session: Session, parent_id: int, cancel_cart_id: object) -> CancelCartLine:
    if isinstance(cancel_cart_id, bool) or not isinstance(cancel_cart_id, int):
        raise DomainError("cancel_cart_line_not_found", field="cancel_cart_id")
    row = session.get(CancelCartLine, cancel_cart_id)
    if row is None or row.parent_id != parent_id:
        raise DomainError("cancel_cart_line_not_found", field="cancel_cart_id")
    return row


def update_cancel_cart_quantity(
    session: Session,
    *,
    parent_id: int,
    cancel_cart_id: object,
    quantity: object,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """UpdateCancelCartQuantity: 1..what is left of the line (before its cut-off)."""
    lang = normalize_lang(lang)
    row = _own_cart_line(session, parent_id, cancel_cart_id)
    line, order, vendor = _own_line(session, parent_id, row.order_line_id)
    left = _check_cancellable(line, order, vendor, now or _now(), lang)
    row.quantity = _quantity(quantity, min(left, MAX_QUANTITY))
    session.add(row)
    session.flush()
    return {
        "cancel_cart_id": row.id,
        "order_line_id": line.id,
        "quantity": row.quantity,
        "cancel_cart_count": cancel_cart_count(session, parent_id=parent_id),
    }


def delete_cancel_cart_item(session: Session, *, parent_id: int, cancel_cart_id: object) -> dict:
    """DeleteCancelCartItem: remove one line from the cancel cart."""
    row = _own_cart_line(session, parent_id, cancel_cart_id)
    session.delete(row)
    session.flush()
    return {"cancel_cart_count": cancel_cart_count(session, parent_id=parent_id)}


def cancel_cart_details(
    session: Session, *, parent_id: int, lang: str = "en", now: datetime | None = None
) -> dict:
    """CancelCartDetails: the cancel cart's lines grouped by order, each order with the
    refund it would get (``plan_cancel_refund`` with the order's stored terms), and the total.
    A line whose cut-off passed (or that was cancelled meanwhile) is flagged ``cancellable:
    False`` with the reason, and left out of the refund. Six statements whatever the number
    of lines and orders."""
    lang = normalize_lang(lang)
    current = now or _now()
    rows = session.exec(
        select(CancelCartLine, OrderLine, Order, Child, Meal.name_fr)
        .join(OrderLine, OrderLine.id == CancelCartLine.order_line_id)
        .join(Order, Order.id == OrderLine.order_id)
        .join(Child, Child.id == OrderLine.child_id)
        .outerjoin(Meal, Meal.id == OrderLine.meal_id)
        .where(CancelCartLine.parent_id == parent_id, Order.parent_id == parent_id)
        .order_by(Order.id, OrderLine.meal_date, OrderLine.id)
    ).all()
    order_ids = sorted({r[2].id or 0 for r in rows})
    loaded = _load_many(session, order_ids)
    groups = []
    total = 0
    for oid in order_ids:
        lo = loaded[oid]
        mine = [r for r in rows if r[2].id == oid]
        quantities: dict[int, int] = {}
        out_lines = []
        for cart_row, line, order, child, name_fr in mine:
            current_line = lo.line(line.id or 0) or line
            reason = ""
            try:
                left = _check_cancellable(
                    current_line, order, lo.vendors[line.vendor_id], current, lang
                )
                if cart_row.quantity > left:
                    raise DomainError("cancel_quantity_invalid", max=left)
            except DomainError as err:
                reason = err.message(lang)
                left = 0
            if not reason:
                quantities[line.id or 0] = cart_row.quantity
            out_lines.append(
                {
                    "cancel_cart_id": cart_row.id,
                    "order_line_id": line.id,
                    "child_name": f"{child.first_name} {child.last_name}",
                    "date": line.meal_date.isoformat(),
                    "day": orders._day(line.meal_date, lang),
                    # As sold; the French name of the catalogue in French (as order_detail).
                    "meal_name": (name_fr if lang == "fr" and name_fr else line.meal_name),
                    "size_label": orders.size_label(line.size, lang),
                    "quantity": cart_row.quantity,
                    "max_quantity": left,
                    "line_total": format_money(line.line_total_cents, lang),
                    "cancellable": not reason,
                    "reason": reason,
                }
            )
        refund = _planned_refund(lo, quantities) if quantities else 0
        total += refund
        groups.append(
            {
                "order_id": oid,
                "number": lo.order.number,
                "lines": out_lines,
                "refund_cents": refund,
                "refund": format_money(refund, lang),
            }
        )
    return {
        "orders": groups,
        "count": len(rows),
        "total_refund_cents": total,
        "total_refund": format_money(total, lang),
        "message": "" if rows else t("no_data_found", lang),
    }


def _load_many(session: Session, order_ids: list[int]) -> dict[int, orders.LoadedOrder]:
    """Several orders with their lines, vendors, add-ons, payments and refunds: five
    statements whatever their number."""
    from hotmeals.db.models import OrderLineAddOn, Payment
    from hotmeals.domain.payments import PaymentState

    if not order_ids:
        return {}
    found = {o.id or 0: o for o in session.exec(select(Order).where(Order.id.in_(order_ids))).all()}
    out = {oid: orders.LoadedOrder(found[oid], [], {}, {}, [], []) for oid in found}
    for line, vendor in session.exec(
        select(OrderLine, Vendor)
        .join(Vendor, Vendor.id == OrderLine.vendor_id)
        .where(OrderLine.order_id.in_(order_ids))
        .order_by(OrderLine.meal_date, OrderLine.id)
    ).all():
        out[line.order_id].lines.append(line)
        out[line.order_id].vendors[vendor.id or 0] = vendor
    line_order = {x.id: oid for oid, lo in out.items() for x in lo.lines}
    for addon in session.exec(
        select(OrderLineAddOn)
        .join(OrderLine, OrderLine.id == OrderLineAddOn.order_line_id)
        .where(OrderLine.order_id.in_(order_ids))
        .order_by(OrderLineAddOn.id)
    ).all():
        out[line_order[addon.order_line_id]].addons.setdefault(addon.order_line_id, []).append(
            addon
        )
    for payment in session.exec(
        select(Payment)
        .where(Payment.order_id.in_(order_ids), Payment.state == PaymentState.APPROVED)
        .order_by(Payment.id)
    ).all():
        out[payment.order_id or 0].payments.append(payment)
    for refund, oid in session.exec(
        select(Refund, Payment.order_id)
        .join(Payment, Payment.id == Refund.payment_id)
        .where(Payment.order_id.in_(order_ids))
        .order_by(Refund.id)
    ).all():
        out[oid or 0].refunds.append(refund)
    return out


def _planned_refund(lo: orders.LoadedOrder, quantities: dict[int, int]) -> int:
    sold = lo.sold_lines()
    try:
        plan = plan_cancel_refund(
            lines=[inp for _, inp in sold],
            cancel_quantities=[quantities.get(line.id or 0, 0) for line, _ in sold],
            paid_cents=lo.paid_cents,
            refunded_cents=min(lo.reserved_refund_cents, lo.paid_cents),
            terms=lo.terms(),
            school_donation_cents=lo.order.school_donation_cents,
            additional_charge_cents=lo.order.additional_charge_cents,
        )
    except DomainError:
        return 0
    return plan.refund_cents


# -- confirming -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CancelResult:
    order_ids: list[int]
    numbers: list[str]
    cancellation_ids: list[int]
    refund_cents: int  # what these cancels refund (reserved; see refunded/pending)
    refunded_cents: int  # confirmed by Converge in this call
    pending_cents: int  # not confirmed yet (the reconciliation finishes it)
    statuses: list[str]
    repeated: bool  # every order's cancel was already recorded under this key
    title: str  # 'Order Cancelled'
    message: str  # the refund notice, in the parent's language


def _reserve_one(
    session: Session,
    *,
    parent_id: int,
    order_id: int,
    quantities: dict[int, int] | None,
    kind: str,
    request_key: str,
    reason_id: int | None,
    other_text: str | None,
    lang: str,
    drop_cart_ids: list[int] | None = None,
    natural: bool = False,
) -> CancelPlan:
    """One order's cancel under its row lock (first statement). ``quantities`` None: every
    active meal of the order (cancel the whole order). ``natural``: the caller sent no request
    key (``request_key`` is a fresh one), so an identical recent cancel is a repeat
    (``_same_recent_cancel``)."""
    loaded = orders.load_order(session, order_id=order_id, parent_id=parent_id, lock=True)
    if loaded.order.placed_at is None:
        raise DomainError("order_not_found", field="order_id")
    wanted = quantities
    if wanted is None:
        found = orders.find_cancellation(session, order_id, request_key)
        if found is not None:
            return found
        if natural:
            found = _same_recent_cancel(
                session, loaded, kind=kind, lines=None, reason_id=reason_id, other_text=other_text
            )
            if found is not None:
                return found
        wanted = {
            line.id or 0: line.quantity - line.cancelled_quantity for line in loaded.active_lines()
        }
        if not wanted:
            raise DomainError(
                "cancel_order_not_cancellable", field="order_id", number=loaded.order.number
            )
    plan = orders.apply_cancel(
        session,
        loaded,
        wanted,
        kind=kind,
        request_key=request_key,
        reason_id=reason_id,
        other_text=other_text,
        actor=actor_of(parent_id),
        lang=lang,
        now=_now(),
    )
    if drop_cart_ids:
        session.execute(
            delete(CancelCartLine)
            .where(CancelCartLine.id.in_(drop_cart_ids), CancelCartLine.parent_id == parent_id)
            .execution_options(synchronize_session=False)
        )
    # Lines of this order that are cancelled now leave the cancel cart too.
    gone = [x.id for x in loaded.lines if x.status == LineStatus.CANCELLED]
    if gone:
        session.execute(
            delete(CancelCartLine)
            .where(CancelCartLine.order_line_id.in_(gone), CancelCartLine.parent_id == parent_id)
            .execution_options(synchronize_session=False)
        )
    return plan


def _check_inputs(
    session: Session, *, reason_id: object, other_text: object, request_key: object
) -> tuple[int | None, str | None, str]:
    key = orders.check_request_key(request_key)
    rid, text = orders.check_reason(session, reason_id, other_text)
    return rid, text, key


# A cancel sent with no request key (an API client that sends no Idempotency-Key and no
# request_key) is repeat-safe by its natural key: the same order, the same kind, the same lines
# and quantities and the same reason as the order's last cancellation, within this window,
# answer that cancellation (nothing more is cancelled or refunded). To cancel the same
# quantity of the same line again on purpose within the window, a client sends a new key.
NATURAL_REPEAT_WINDOW = timedelta(minutes=10)
NATURAL_KEY_PREFIX = "api-"


def _natural_key(request_key: object) -> tuple[object, bool]:
    """``request_key`` as given, or, when there is none, a fresh key and True (natural mode)."""
    if request_key is None:
        return f"{NATURAL_KEY_PREFIX}{uuid.uuid4().hex}", True
    return request_key, False


def _same_recent_cancel(
    session: Session,
    loaded: orders.LoadedOrder,
    *,
    kind: str,
    lines: dict[int, int | None] | None,
    reason_id: int | None,
    other_text: str | None,
) -> CancelPlan | None:
    """The order's last cancellation when this key-less cancel repeats it (see
    ``NATURAL_REPEAT_WINDOW``), under the order's row lock. ``lines`` None: the whole order
    (a repeat when nothing is left active); a quantity None: all that was left of that line
    (a repeat when the line has nothing left)."""
    order_id = loaded.order.id or 0
    last = session.exec(
        select(OrderCancellation)
        .where(OrderCancellation.order_id == order_id)
        .order_by(OrderCancellation.id.desc())
        .limit(1)
    ).first()
    if last is None or last.kind != kind or last.request_key is None:
        return None
    if last.reason_id != reason_id or (last.other_text or None) != (other_text or None):
        return None
    stamp = last.created_at if last.created_at.tzinfo else last.created_at.replace(tzinfo=UTC)
    if _now() - stamp > NATURAL_REPEAT_WINDOW:
        return None
    took = {
        line_id: qty
        for line_id, qty in session.exec(
            select(OrderCancellationLine.order_line_id, OrderCancellationLine.quantity).where(
                OrderCancellationLine.cancellation_id == last.id
            )
        ).all()
    }
    if lines is None:
        same = not loaded.active_lines()
    else:
        same = set(took) == set(lines)
        for line_id, qty in lines.items():
            line = loaded.line(line_id)
            if qty is None:
                same = same and line is not None and line.quantity <= line.cancelled_quantity
            else:
                same = same and took.get(line_id) == qty
    if not same:
        return None
    return orders.find_cancellation(session, order_id, last.request_key)


async def _finish(
    plans: list[CancelPlan],
    lang: str,
    engine: Engine | None,
    gateway: PaymentGateway | None,
) -> CancelResult:
    refunded = pending = failed = 0
    for plan in plans:
        if plan.repeated:  # what the first cancel's refunds are now
            refunded += plan.refunded_cents
            pending += plan.pending_cents
            failed += plan.failed_cents
            continue
        states = await orders.send_refunds(plan, engine=engine, gateway=gateway)
        for item, state in zip(plan.refunds, states, strict=True):
            if state == "SUCCEEDED":
                refunded += item.amount_cents
            elif state in ("PENDING", "UNKNOWN"):
                pending += item.amount_cents
            else:
                failed += item.amount_cents
    total = sum(p.refund_cents for p in plans)
    return CancelResult(
        order_ids=[p.order_id for p in plans],
        numbers=[p.order_number for p in plans],
        cancellation_ids=[p.cancellation_id for p in plans],
        refund_cents=total,
        refunded_cents=refunded,
        pending_cents=pending,
        statuses=[p.status for p in plans],
        repeated=bool(plans) and all(p.repeated for p in plans),
        title=t("orders_after.cancelled", lang),
        # Converge refused a refund: the cancel stands, the money is not on its way yet.
        message=t("cancel_refund_failed", lang) if failed else orders.refund_notice(total, lang),
    )


async def cancel_order(
    *,
    parent_id: int,
    order_id: object,
    reason_id: object,
    other_text: object = None,
    request_key: object,
    lang: str = "en",
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> CancelResult:
    """CancelOrder: every meal still active of the order (all must be before their cut-off),
    with a reason; refunds what the order still holds. Repeat-safe by ``request_key``; with
    none (None), by its natural key (``NATURAL_REPEAT_WINDOW``)."""
    lang = normalize_lang(lang)
    oid = orders._int_id(order_id, "order_not_found", "order_id")
    request_key, natural = _natural_key(request_key)
    rid, text, key = await db(
        engine, _check_inputs, reason_id=reason_id, other_text=other_text, request_key=request_key
    )
    plan = await db(
        engine,
        _reserve_one,
        parent_id=parent_id,
        order_id=oid,
        quantities=None,
        kind="order",
        request_key=key,
        reason_id=rid,
        other_text=text,
        lang=lang,
        natural=natural,
    )
    return await _finish([plan], lang, engine, gateway)


def _line_order(session: Session, *, parent_id: int, order_line_id: object) -> tuple[int, int]:
    line, order, _vendor = _own_line(session, parent_id, order_line_id)
    return order.id or 0, line.quantity - line.cancelled_quantity


async def cancel_meal(
    *,
    parent_id: int,
    order_line_id: object,
    quantity: object = None,
    reason_id: object,
    other_text: object = None,
    request_key: object,
    lang: str = "en",
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> CancelResult:
    """CancelMeal: ``quantity`` meals (None: all that is left) of one line, before its
    cut-off, with a reason. Repeat-safe by ``request_key``; with none (None), by its natural
    key (``NATURAL_REPEAT_WINDOW``)."""
    lang = normalize_lang(lang)
    request_key, natural = _natural_key(request_key)
    rid, text, key = await db(
        engine, _check_inputs, reason_id=reason_id, other_text=other_text, request_key=request_key
    )
    oid, left = await db(engine, _line_order, parent_id=parent_id, order_line_id=order_line_id)
    # Nothing left (a retry of this very cancel, or a line cancelled already): the locked
    # step below answers the retry or refuses.
    qty = max(left, 1) if quantity is None else quantity
    if isinstance(qty, bool) or not isinstance(qty, int) or qty < 1:
        raise DomainError("cancel_quantity_invalid", field="quantity", max=max(left, 1))
    plan = await db(
        engine,
        _reserve_meal,
        parent_id=parent_id,
        order_id=oid,
        order_line_id=order_line_id,
        quantity=qty,
        request_key=key,
        reason_id=rid,
        other_text=text,
        lang=lang,
        natural=natural,
        all_left=quantity is None,
    )
    return await _finish([plan], lang, engine, gateway)


def _reserve_meal(
    session: Session,
    *,
    parent_id: int,
    order_id: int,
    order_line_id: int,
    quantity: int,
    request_key: str,
    reason_id: int | None,
    other_text: str | None,
    lang: str,
    natural: bool = False,
    all_left: bool = False,
) -> CancelPlan:
    loaded = orders.load_order(session, order_id=order_id, parent_id=parent_id, lock=True)
    found = orders.find_cancellation(session, order_id, request_key)
    if found is not None:
        return found
    if natural:
        found = _same_recent_cancel(
            session,
            loaded,
            kind="meal",
            lines={order_line_id: None if all_left else quantity},
            reason_id=reason_id,
            other_text=other_text,
        )
        if found is not None:
            return found
    line = loaded.line(order_line_id)
    if line is None or line.status != LineStatus.ACTIVE:
        raise DomainError("order_line_not_found", field="order_line_id")
    left = line.quantity - line.cancelled_quantity
    if quantity > left:
        raise DomainError("cancel_quantity_invalid", field="quantity", max=left)
    return _reserve_loaded(
        session,
        loaded,
        {order_line_id: quantity},
        parent_id=parent_id,
        kind="meal",
        request_key=request_key,
        reason_id=reason_id,
        other_text=other_text,
        lang=lang,
    )


def _reserve_loaded(
    session: Session,
    loaded: orders.LoadedOrder,
    quantities: dict[int, int],
    *,
    parent_id: int,
    kind: str,
    request_key: str,
    reason_id: int | None,
    other_text: str | None,
    lang: str,
) -> CancelPlan:
    plan = orders.apply_cancel(
        session,
        loaded,
        quantities,
        kind=kind,
        request_key=request_key,
        reason_id=reason_id,
        other_text=other_text,
        actor=actor_of(parent_id),
        lang=lang,
        now=_now(),
    )
    gone = [x.id for x in loaded.lines if x.status == LineStatus.CANCELLED]
    if gone:
        session.execute(
            delete(CancelCartLine)
            .where(CancelCartLine.order_line_id.in_(gone), CancelCartLine.parent_id == parent_id)
            .execution_options(synchronize_session=False)
        )
    return plan


def _cart_plan(
    session: Session, *, parent_id: int, lang: str
) -> list[tuple[int, dict[int, int], list[int]]]:
    """The cancel cart by order: (order id, {line id: quantity}, cart line ids). Every line
    must still be cancellable (else the first problem is raised, naming its day)."""
    details = cancel_cart_details(session, parent_id=parent_id, lang=lang)
    if not details["orders"]:
        raise DomainError("cancel_cart_empty")
    out = []
    for group in details["orders"]:
        for line in group["lines"]:
            if not line["cancellable"]:
                raise DomainError("cancel_cart_line_blocked", reason=line["reason"])
        out.append(
            (
                group["order_id"],
                {x["order_line_id"]: x["quantity"] for x in group["lines"]},
                [x["cancel_cart_id"] for x in group["lines"]],
            )
        )
    return out


def _retried_cart(session: Session, *, parent_id: int, request_key: str) -> list[CancelPlan]:
    """The cancellations already made under this key for this parent's orders (a retried
    confirm whose cancel cart is empty now)."""
    from hotmeals.db.models import OrderCancellation

    ids = session.exec(
        select(OrderCancellation.order_id)
        .join(Order, Order.id == OrderCancellation.order_id)
        .where(
            Order.parent_id == parent_id,
            OrderCancellation.request_key == request_key,
            OrderCancellation.kind == "cart",
        )
        .order_by(OrderCancellation.order_id)
    ).all()
    plans = [orders.find_cancellation(session, oid, request_key) for oid in ids]
    return [p for p in plans if p is not None]


async def confirm_cancel_cart(
    *,
    parent_id: int,
    reason_id: object,
    other_text: object = None,
    request_key: object,
    lang: str = "en",
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> CancelResult:
    """CancelCart: cancel everything in the cancel cart, one ``OrderCancellation`` and one
    refund per order, with the reason; the cart is emptied. Any line past its cut-off refuses
    the whole confirm (nothing is cancelled) with its day. Repeat-safe by ``request_key``."""
    lang = normalize_lang(lang)
    rid, text, key = await db(
        engine, _check_inputs, reason_id=reason_id, other_text=other_text, request_key=request_key
    )
    try:
        groups = await db(engine, _cart_plan, parent_id=parent_id, lang=lang)
    except DomainError as err:
        if err.code != "cancel_cart_empty":
            raise
        done = await db(engine, _retried_cart, parent_id=parent_id, request_key=key)
        if not done:
            raise
        return await _finish(done, lang, engine, gateway)
    plans = await db(
        engine,
        _reserve_cart,
        parent_id=parent_id,
        groups=groups,
        request_key=key,
        reason_id=rid,
        other_text=text,
        lang=lang,
    )
    return await _finish(plans, lang, engine, gateway)


def _reserve_cart(
    session: Session,
    *,
    parent_id: int,
    groups: list[tuple[int, dict[int, int], list[int]]],
    request_key: str,
    reason_id: int | None,
    other_text: str | None,
    lang: str,
) -> list[CancelPlan]:
    """Every order of the cancel cart in one transaction, all or nothing (issue 21): when one
    is refused (another tab cancelled it meanwhile, a cut-off passed), no order is cancelled
    and no refund reserved, so nothing is left cancelled with refunds this call never sends.
    The orders are locked in id order (``groups`` is sorted), so two confirms never wait on
    each other in opposite orders."""
    return [
        _reserve_one(
            session,
            parent_id=parent_id,
            order_id=order_id,
            quantities=quantities,
            kind="cart",
            request_key=request_key,
            reason_id=reason_id,
            other_text=other_text,
            lang=lang,
            drop_cart_ids=cart_ids,
        )
        for order_id, quantities, cart_ids in sorted(groups, key=lambda g: g[0])
    ]


# -- refunds Converge refused: what an order still owes of one (issue 21) -------------------------


def still_owed_by_order(session: Session, refund: Refund) -> int:
    """How much of a FAILED ``refund`` of an order is still owed, under the order's lock (the
    payment service sends it again with ``refunds.resend_failed_refunds``): at most the
    refund itself, capped by the refund arithmetic (what was paid, minus what is refunded or
    on its way or still owed by other failed refunds, minus what the remaining meals cost), so
    money another refund already gave back is never sent twice."""
    if refund.order_id is None:
        return refund.amount_cents
    loaded = orders.load_order(session, order_id=refund.order_id, parent_id=None)
    held = sum(
        r.amount_cents
        for r in loaded.refunds
        if r.id != refund.id and (r.state in RESERVING or owed_failed(r))
    )
    sold = loaded.sold_lines()
    remaining = plan_cancel_refund(
        lines=[inp for _, inp in sold],
        cancel_quantities=[0] * len(sold),
        paid_cents=loaded.paid_cents,
        refunded_cents=min(held, loaded.paid_cents),
        terms=loaded.terms(),
        school_donation_cents=loaded.order.school_donation_cents,
        additional_charge_cents=loaded.order.additional_charge_cents,
    ).remaining.total_pay_cents
    due = refund_for_cancel(loaded.paid_cents, min(held, loaded.paid_cents), remaining)
    return max(0, min(refund.amount_cents, due))
