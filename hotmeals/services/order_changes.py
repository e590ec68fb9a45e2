"""Changing a paid order (issue 10): modify an order (add meals, remove meals, see the
difference, confirm) and move one meal to another date. Plain Python, no Reflex: the screens
(``/edit-profile/modify-order``, ``/add-item``, ``/edit-profile/manage-meal-details``) and the
/api/v1 ``order/...`` calls both call these functions.

**The draft.** A modification is written as a draft first (``OrderChange`` state ``draft``,
one per order, with one ``OrderChangeLine`` per step: ``add`` a meal, ``remove`` some
quantity of an order line). A move is a change with one ``move`` step, confirmed at once.

**The rules are the booking's.** An added meal goes through ``services.cart``'s
``load_batch``/``check_line`` (the child is the parent's, the meal on the child's school menu
that day, the day open and before its cut-off, the allergy rule, portion, options, add-ons),
when it is added and again when the change is confirmed and when its payment is approved. A
removed or moved meal must be active and before its cut-off; a move's target is a day on which
the same vendor serves the child's school, open, before its cut-off, with the same meal.

**The money.** The order after the change is priced with the order's stored terms
(``OrderTerms.from_stored``: tax, card fee, promo): the lines it keeps at the prices they were
sold at (``domain.refunds.sold_line``), added and moved meals at today's catalogue prices.
``difference = new total - (paid - refunded)`` (paid: approved payments of the order;
refunded: refunds succeeded or still pending). ``difference <= 0``: the change is applied at
once and ``-difference`` goes back to the card (``services.payments`` refunds: a void before
settlement, a return after; never more than is refundable on the order, exact to the cent;
nothing when the promo's minimum stops being met, as for a cancel). ``difference > 0``: an
``ORDER_CHANGE`` payment of exactly that amount (Lightbox or saved card); the order changes
only once Converge approves it (``OrderChangePayment.approved`` calls ``apply_paid_change``),
and if by then a step cannot be applied any more (a cut-off passed, the meal was cancelled
meanwhile) the change is dropped and the payment voided.

**Concurrency.** Every write locks the ``Order`` row first (``records.lock_row``), and re-reads
the lines under it, so a move racing a cancel (or another move) of the same meal applies once
and refunds once; the refund rows are reserved in the transaction that applies the change.

The order's charge columns (``Order.meal_net_cents`` ... ``total_pay_cents``) stay what was
charged, as for a cancel: a decrease shows as a refund (the order's "total refund"), an increase
adds its charges and its payment to them; what was paid and refunded stay sums over ``Payment``
and ``Refund`` rows. Removed meals are recorded as an ``OrderCancellation`` of kind ``modify``
(and their refund carries its id); a moved line keeps its id, gets the new day and
``moved_from_date``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import insert, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from hotmeals.db.models import (
    Child,
    Meal,
    MenuDay,
    MenuDayMeal,
    Order,
    OrderCancellation,
    OrderCancellationLine,
    OrderChange,
    OrderChangeLine,
    OrderLine,
    OrderLineAddOn,
    Parent,
    Payment,
    Refund,
    StoredCard,
    Vendor,
)
from hotmeals.domain.charges import OrderCharges, compute_charges
from hotmeals.domain.cutoff import cutoff_at
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import PAID_STATUSES, LineStatus, OrderStatus, status_after_cancel
from hotmeals.domain.orders import transition as order_transition
from hotmeals.domain.payments import PaymentState, Purpose, RefundState
from hotmeals.domain.pricing import LinePrice, price_line, tiers_to_text
from hotmeals.domain.refunds import refund_for_cancel
from hotmeals.i18n import normalize_lang, t
from hotmeals.payments.gateway import PaymentGateway
from hotmeals.services import clock, orders, school_year
from hotmeals.services.children import as_id as _as_id
from hotmeals.services.ordering import lines as cart
from hotmeals.services.ordering.days import (
    DATES_DEFAULT_DAYS,
    cutoff_rule,
    meal_date,
    toronto_today,
)
from hotmeals.services.payments import (
    SESSION_WINDOW,
    HostedSession,
    PlannedRefund,
    ask_converge,
    confirm_payment,
    open_payment_attempt,
    refund,
    report_browser_failure,
    reserve_payment,
    reserve_refund,
)
from hotmeals.services.payments.records import RESERVING, audit, get_payment, lock_row
from hotmeals.services.payments.runtime import actor_of, db

log = logging.getLogger("hotmeals.order_changes")

DRAFT, PAYING, APPLIED, DROPPED = "draft", "paying", "applied", "dropped"
MODIFY, MOVE = "modify", "move"
ADD, REMOVE, MOVE_STEP = "add", "remove", "move"
DRAFT_MAX_STEPS = 50
LIVE = (PaymentState.CREATED, PaymentState.UNKNOWN)
CHARGE_FIELDS = (
    "meal_net_cents",
    "special_note_fees_cents",
    "processing_fee_cents",
    "tax_cents",
    "discount_cents",
    "total_pay_cents",
)
VOID_REASON = "order change not applied: the charge is voided"


def _now() -> datetime:
    return clock.now()  # through the module: tests move the clock


def _fr(lang: str) -> bool:
    return normalize_lang(lang) == "fr"


def _day(value: date, lang: str) -> str:
    """``Monday, March 2, 2026`` / ``lundi 2 mars 2026``: the order screens' day
    (``services.orders``)."""
    return orders._day(value, lang)  # noqa: SLF001 - one format for every order message


def _when(moment: datetime, lang: str) -> str:
    """``Sunday, December 6, 10:00 a.m.`` / ``dimanche 6 décembre, 10 h 00`` (Toronto)."""
    from hotmeals.domain.dates import long_moment

    return long_moment(moment, lang)


def _id(value: object, field: str, code: str) -> int:
    return _as_id(value, field, code, code)


# -- reading the order ---------------------------------------------------------------------------


@dataclass
class _Loaded:
    """``services.orders.load_order``'s order (lines, vendors, add-ons, approved payments,
    refunds) with the lines' children and meals (their names): seven statements whatever the
    number of lines."""

    base: orders.LoadedOrder
    children: dict[int, Child]
    meals: dict[int, Meal]

    @property
    def order(self) -> Order:
        return self.base.order

    @property
    def lines(self) -> list[OrderLine]:
        return self.base.lines

    @property
    def vendors(self) -> dict[int, Vendor]:
        return self.base.vendors

    @property
    def addons(self) -> dict[int, list[OrderLineAddOn]]:
        return self.base.addons

    def line(self, line_id: int) -> OrderLine | None:
        return self.base.line(line_id)


def _load(session: Session, order: Order) -> _Loaded:
    base = orders.load_order(session, order_id=order.id, parent_id=order.parent_id)
    children: dict[int, Child] = {}
    meals: dict[int, Meal] = {}
    if base.lines:
        children = {
            c.id or 0: c
            for c in session.exec(
                select(Child).where(Child.id.in_(sorted({x.child_id for x in base.lines})))
            ).all()
        }
        meals = {
            m.id or 0: m
            for m in session.exec(
                select(Meal).where(Meal.id.in_(sorted({x.meal_id for x in base.lines})))
            ).all()
        }
    return _Loaded(base=base, children=children, meals=meals)


def _own_order(session: Session, *, parent_id: int, order_id: object, lock: bool) -> Order:
    """The parent's paid order (locked when ``lock``); another parent's or an unknown id is
    'not found', a cancelled or delivered one 'can no longer be changed'."""
    key = _id(order_id, "order_id", "order_change_order_not_found")
    order = lock_row(session, Order, key) if lock else session.get(Order, key)
    if order is None or order.parent_id != parent_id:
        raise DomainError("order_change_order_not_found", field="order_id")
    if OrderStatus(order.status) not in PAID_STATUSES:
        raise DomainError("order_change_not_modifiable", field="order_id", number=order.number)
    return order


def _line_order(session: Session, *, parent_id: int, order_line_id: object, lock: bool) -> Order:
    """The order of the parent's order line ``order_line_id`` (locked when ``lock``)."""
    key = _id(order_line_id, "order_line_id", "order_change_line_not_found")
    found = session.exec(
        select(OrderLine.order_id, Order.parent_id)
        .join(Order, Order.id == OrderLine.order_id)
        .where(OrderLine.id == key)
    ).first()
    if found is None or found[1] != parent_id:
        raise DomainError("order_change_line_not_found", field="order_line_id")
    return _own_order(session, parent_id=parent_id, order_id=found[0], lock=lock)


def _active(line: OrderLine) -> int:
    if line.status != LineStatus.ACTIVE:
        return 0
    return line.quantity - line.cancelled_quantity


def _closes(loaded: _Loaded, line: OrderLine) -> datetime:
    return orders.line_cutoff(line, loaded.vendors[line.vendor_id])


def _ensure_changeable(loaded: _Loaded, line: OrderLine, now: datetime, lang: str) -> None:
    """The line is active and its meal day's cut-off still ahead."""
    if _active(line) <= 0:
        raise DomainError("order_change_line_not_active", field="order_line_id")
    closes = _closes(loaded, line)
    if now >= closes:
        raise DomainError(
            "order_change_cutoff_passed",
            field="order_line_id",
            day=_day(line.meal_date, lang),
            when=_when(closes, lang),
        )


# -- the draft ------------------------------------------------------------------------------------


def _draft(session: Session, order: Order, *, create: bool, now: datetime) -> OrderChange | None:
    found = session.exec(
        select(OrderChange)
        .where(
            OrderChange.order_id == order.id,
            OrderChange.state == DRAFT,
            OrderChange.kind == MODIFY,
        )
        .order_by(OrderChange.id)
    ).first()
    if found is None and create:
        found = OrderChange(
            order_id=order.id or 0,
            parent_id=order.parent_id,
            kind=MODIFY,
            state=DRAFT,
            created_at=now,
            updated_at=now,
        )
        session.add(found)
        session.flush()
    return found


def _steps(session: Session, change_id: int | None) -> list[OrderChangeLine]:
    if change_id is None:
        return []
    return list(
        session.exec(
            select(OrderChangeLine)
            .where(OrderChangeLine.change_id == change_id)
            .order_by(OrderChangeLine.id)
        ).all()
    )


def _request(step: OrderChangeLine, *, quantity: int | None = None) -> cart.LineRequest:
    return cart.LineRequest(
        child_id=step.child_id,
        meal_id=step.meal_id,
        portion_id=step.portion_id,
        menu_day_id=step.menu_day_id,
        quantity=quantity if quantity is not None else step.quantity,
        menu_option_id=step.menu_option_id,
        meal_option_id=step.meal_option_id,
        addons=[int(x) for x in step.addon_ids.split(",") if x],
        special_note=step.special_note,
        allergy_ack=bool(step.allergy_ack),
        ack_given=step.allergy_ack or None,  # still naming what needs it when confirmed
    )


@dataclass
class _Plan:
    """What a change does to an order, checked: the quantities removed per line, the added
    meals (checked as the cart checks them), the moved lines with their target day, and the
    order's charges after it."""

    loaded: _Loaded
    removed: dict[int, int]
    added: list[tuple[OrderChangeLine, cart.CheckedLine]]
    moved: list[tuple[OrderLine, cart.CheckedLine]]
    charges: OrderCharges
    paid: int
    refunded: int
    batch: cart.Batch | None = None
    before: OrderCharges | None = None  # the charges of the order as it is, before the change

    @property
    def difference(self) -> int:
        """> 0: to pay; < 0: to refund (never more than is held). Removing meals only never
        costs the parent anything (as a cancel: ``domain.refunds.refund_for_cancel``)."""
        held = self.paid - self.refunded
        diff = max(self.charges.total_pay_cents - held, -held)
        if not self.added and not self.moved:
            return -refund_for_cancel(self.paid, self.refunded, self.charges.total_pay_cents)
        return diff


def _plan(
    session: Session,
    loaded: _Loaded,
    steps: Sequence[OrderChangeLine],
    *,
    lang: str,
    now: datetime,
    strict: bool,
) -> tuple[_Plan, dict[int, str]]:
    """Check every step against the order as it is now and price the result. ``strict``:
    the first broken rule raises; otherwise broken steps are left out and reported by id
    (the difference screen shows them). Fixed number of statements for any number of steps."""
    problems: dict[int, str] = {}
    removed: dict[int, int] = {}
    moved_steps: list[tuple[OrderChangeLine, OrderLine]] = []
    for step in steps:
        if step.action not in (REMOVE, MOVE_STEP):
            continue
        line = loaded.line(step.order_line_id or 0)
        try:
            if line is None:
                raise DomainError("order_change_line_not_found", field="order_line_id")
            _ensure_changeable(loaded, line, now, lang)
            if step.action == REMOVE:
                left = _active(line) - removed.get(line.id or 0, 0)
                if step.quantity > left:
                    raise DomainError("order_change_quantity_invalid", field="quantity", max=left)
                removed[line.id or 0] = removed.get(line.id or 0, 0) + step.quantity
            else:
                moved_steps.append((step, line))
        except DomainError as err:
            if strict:
                raise
            problems[step.id or 0] = err.message(lang)
    requests: list[tuple[OrderChangeLine, cart.LineRequest]] = [
        (step, _request(step)) for step in steps if step.action == ADD
    ]
    for step, line in moved_steps:
        requests.append(
            (
                step,
                cart.LineRequest(
                    child_id=line.child_id,
                    meal_id=line.meal_id,
                    portion_id=line.portion_id,
                    menu_day_id=step.menu_day_id,
                    quantity=_active(line),
                    menu_option_id=line.menu_option_id,
                    meal_option_id=line.meal_option_id,
                    addons=[a.addon_id for a in loaded.addons.get(line.id or 0, [])],
                    special_note=line.special_note,
                    # Acknowledged when booked: the line's acknowledgement must still name
                    # every allergen that needs one now; Major is refused still.
                    allergy_ack=True,
                    ack_given=line.allergy_ack or "",
                ),
            )
        )
    added: list[tuple[OrderChangeLine, cart.CheckedLine]] = []
    moved: list[tuple[OrderLine, cart.CheckedLine]] = []
    batch = None
    if requests:
        batch = cart.load_batch(
            session,
            parent_id=loaded.order.parent_id,
            requests=[r for _, r in requests],
            lang=lang,
        )
        moves = {step.id: line for step, line in moved_steps}
        for step, request in requests:
            try:
                checked = cart.check_line(batch, request, lang=lang, now=now)
                if step.action == MOVE_STEP:
                    line = moves[step.id]
                    if checked.vendor.id != line.vendor_id:
                        raise DomainError("order_change_other_vendor", field="date")
                    moved.append((line, checked))
                else:
                    added.append((step, checked))
            except DomainError as err:
                if strict:
                    raise
                problems[step.id or 0] = err.message(lang)
    moved_ids = {line.id for line, _ in moved}
    prices: list[LinePrice] = []
    for line, sold in loaded.base.sold_lines():  # what is kept, as it was sold
        if line.id in moved_ids:
            continue
        keep = sold.quantity - removed.get(line.id or 0, 0)
        if keep > 0:
            prices.append(price_line(replace(sold, quantity=keep)))
    prices += [checked.price for _, checked in added]
    prices += [checked.price for _, checked in moved]
    order = loaded.order
    terms = loaded.base.terms()
    charges = compute_charges(
        prices,
        terms.rates,
        terms.promo,
        school_donation_cents=order.school_donation_cents if prices else 0,
        additional_charge_cents=order.additional_charge_cents if prices else 0,
    )
    now_prices = [price_line(sold) for _, sold in loaded.base.sold_lines()]
    before = compute_charges(
        now_prices,
        terms.rates,
        terms.promo,
        school_donation_cents=order.school_donation_cents if now_prices else 0,
        additional_charge_cents=order.additional_charge_cents if now_prices else 0,
    )
    paid = loaded.base.paid_cents
    refunded = min(loaded.base.reserved_refund_cents, paid)
    return (
        _Plan(
            loaded=loaded,
            removed=removed,
            added=added,
            moved=moved,
            charges=charges,
            paid=paid,
            refunded=refunded,
            batch=batch,
            before=before,
        ),
        problems,
    )


# -- modify an order: the draft --------------------------------------------------------------------


def add_to_my_order(
    *,
    session: Session,
    parent_id: int,
    order_id: object,
    child_id: object,
    meal_id: object,
    menu_day_id: object = None,
    date: object = None,
    portion_id: object = None,
    size: object = None,
    quantity: object = 1,
    menu_option_id: object = None,
    meal_option_id: object = None,
    addons: object = None,
    special_note_text: object = None,
    allergy_ack: bool = False,
    lang: str = "en",
) -> dict:
    """AddToMyOrder: a meal for a child on a day, added to the order's draft change, with the
    rules of AddToCart (the same ``check_line``); priced from the catalogue when confirmed.
    Answers ``modify_order_info``."""
    lang = normalize_lang(lang)
    now = _now()
    order = _own_order(session, parent_id=parent_id, order_id=order_id, lock=True)
    request = cart.LineRequest(
        child_id=child_id,
        meal_id=meal_id,
        portion_id=portion_id,
        size=size,
        menu_day_id=menu_day_id,
        date=date,
        quantity=quantity,
        menu_option_id=menu_option_id,
        meal_option_id=meal_option_id,
        addons=addons,
        special_note=special_note_text,
        allergy_ack=bool(allergy_ack),
    )
    school_year.require_confirmed(session, parent_id=parent_id, child_ids=[child_id], now=now)
    batch = cart.load_batch(session, parent_id=parent_id, requests=[request], lang=lang)
    checked = cart.check_line(batch, request, lang=lang, now=now)
    change = _draft(session, order, create=True, now=now)
    assert change is not None
    if len(_steps(session, change.id)) >= DRAFT_MAX_STEPS:
        raise DomainError("order_change_too_many", max=DRAFT_MAX_STEPS)
    session.add(
        OrderChangeLine(
            change_id=change.id or 0,
            action=ADD,
            quantity=checked.quantity,
            child_id=checked.child.id,
            menu_day_id=checked.menu_day.id,
            meal_id=checked.meal.id,
            portion_id=checked.portion.id,
            menu_option_id=checked.menu_option_id,
            meal_option_id=checked.meal_option_id,
            addon_ids=",".join(str(a.id) for a in checked.addons),
            special_note=checked.note,
            allergy_ack=checked.ack_text,
            allergy_ack_at=now if checked.ack_text else None,
        )
    )
    change.updated_at = now
    session.add(change)
    session.flush()
    return modify_order_info(session=session, parent_id=parent_id, order_id=order.id, lang=lang)


def delete_from_modify_order(
    *,
    session: Session,
    parent_id: int,
    order_id: object,
    order_line_id: object = None,
    quantity: object = None,
    change_line_id: object = None,
    lang: str = "en",
) -> dict:
    """DeleteFromModifyOrder: remove ``quantity`` (default: all still active) meals of the
    order line ``order_line_id`` (before its cut-off), or take back a step of the draft
    (``change_line_id``: a meal added, or a removal). Answers ``modify_order_info``."""
    lang = normalize_lang(lang)
    now = _now()
    order = _own_order(session, parent_id=parent_id, order_id=order_id, lock=True)
    if change_line_id not in (None, ""):
        key = _id(change_line_id, "change_line_id", "order_change_step_not_found")
        change = _draft(session, order, create=False, now=now)
        step = session.get(OrderChangeLine, key)
        if change is None or step is None or step.change_id != change.id:
            raise DomainError("order_change_step_not_found", field="change_line_id")
        session.delete(step)
        change.updated_at = now
        session.add(change)
        session.flush()
        return modify_order_info(session=session, parent_id=parent_id, order_id=order.id, lang=lang)
    line_key = _id(order_line_id, "order_line_id", "order_change_line_not_found")
    loaded = _load(session, order)
    line = loaded.line(line_key)
    if line is None:
        raise DomainError("order_change_line_not_found", field="order_line_id")
    _ensure_changeable(loaded, line, now, lang)
    change = _draft(session, order, create=True, now=now)
    assert change is not None
    steps = _steps(session, change.id)
    already = sum(s.quantity for s in steps if s.action == REMOVE and s.order_line_id == line.id)
    left = _active(line) - already
    if quantity in (None, ""):
        count = left
    else:
        if isinstance(quantity, bool):
            raise DomainError("order_change_quantity_invalid", field="quantity", max=left)
        try:
            count = int(str(quantity).strip())
        except ValueError:
            raise DomainError("order_change_quantity_invalid", field="quantity", max=left) from None
    if not 1 <= count <= left:
        raise DomainError("order_change_quantity_invalid", field="quantity", max=max(left, 0))
    if len(steps) >= DRAFT_MAX_STEPS:
        raise DomainError("order_change_too_many", max=DRAFT_MAX_STEPS)
    session.add(
        OrderChangeLine(
            change_id=change.id or 0, action=REMOVE, order_line_id=line.id, quantity=count
        )
    )
    change.updated_at = now
    session.add(change)
    session.flush()
    return modify_order_info(session=session, parent_id=parent_id, order_id=order.id, lang=lang)


def _charges_out(charges: OrderCharges, lang: str) -> dict:
    out: dict[str, Any] = {name: getattr(charges, name) for name in CHARGE_FIELDS}
    out["school_donation_cents"] = charges.school_donation_cents
    out["additional_charge_cents"] = charges.additional_charge_cents
    out["total_pay"] = format_money(charges.total_pay_cents, lang)
    return out


def _meal_name(meal: Meal | None, fallback: str, lang: str) -> str:
    if meal is None:
        return fallback
    return meal.name_fr if _fr(lang) else meal.name_en


def _difference_out(plan: _Plan, lang: str) -> dict:
    diff = plan.difference
    if diff > 0:
        message = t("order_change.info_pay", lang, amount=format_money(diff, lang))
    elif diff < 0:
        message = t("order_change.info_refund", lang, amount=format_money(-diff, lang))
    else:
        message = t("order_change.info_even", lang)
    return {
        "paid_cents": plan.paid,
        "refunded_cents": plan.refunded,
        "new_total_cents": plan.charges.total_pay_cents,
        "difference_cents": diff,
        "to_pay_cents": max(diff, 0),
        "to_refund_cents": max(-diff, 0),
        "to_pay": format_money(max(diff, 0), lang),
        "to_refund": format_money(max(-diff, 0), lang),
        "message": message,
        "charges": _charges_out(plan.charges, lang),
    }


def modify_order_info(
    *, session: Session, parent_id: int, order_id: object, lang: str = "en"
) -> dict:
    """ModifyOrderInfo: the order's lines (each with what the draft removes and whether it
    can still change), the meals the draft adds (priced from today's catalogue; a meal that
    broke a rule since is flagged with the reason) and the difference: the new total against
    what is held (paid - refunded), to pay or to refund. A fixed number of statements."""
    lang = normalize_lang(lang)
    now = _now()
    order = _own_order(session, parent_id=parent_id, order_id=order_id, lock=False)
    loaded = _load(session, order)
    change = _draft(session, order, create=False, now=now)
    steps = _steps(session, change.id if change else None)
    plan, problems = _plan(session, loaded, steps, lang=lang, now=now, strict=False)
    removes: dict[int, list[OrderChangeLine]] = {}
    for step in steps:
        if step.action == REMOVE:
            removes.setdefault(step.order_line_id or 0, []).append(step)
    lines = []
    for line in loaded.lines:
        closes = _closes(loaded, line)
        child = loaded.children[line.child_id]
        lines.append(
            {
                "order_line_id": line.id,
                "child_id": line.child_id,
                "child_name": f"{child.first_name} {child.last_name}",
                "date": line.meal_date.isoformat(),
                "day": _day(line.meal_date, lang),
                "meal_id": line.meal_id,
                "name": _meal_name(loaded.meals.get(line.meal_id), line.meal_name, lang),
                "size": line.size,
                "quantity": line.quantity,
                "active_quantity": _active(line),
                "remove_quantity": plan.removed.get(line.id or 0, 0),
                "remove_steps": [s.id for s in removes.get(line.id or 0, [])],
                "price_cents": line.line_total_cents,
                "price": format_money(line.line_total_cents, lang),
                "status": "moved"
                if (line.moved_from_date and _active(line))
                else ("active" if _active(line) else LineStatus.CANCELLED.value),
                "cutoff_at": closes.isoformat(),
                "can_change": _active(line) > 0 and now < closes,
            }
        )
    checked_steps = {step.id: checked for step, checked in plan.added}
    added = []
    for step in steps:
        if step.action != ADD:
            continue
        checked = checked_steps.get(step.id)
        added.append(
            {
                "change_line_id": step.id,
                "child_id": step.child_id,
                "menu_day_id": step.menu_day_id,
                "meal_id": step.meal_id,
                "date": checked.menu_day.meal_date.isoformat() if checked else None,
                "name": _meal_name(checked.meal, "", lang) if checked else "",
                "size": checked.portion.size if checked else "",
                "quantity": step.quantity,
                "price_cents": checked.price.total_cents if checked else 0,
                "price": format_money(checked.price.total_cents if checked else 0, lang),
                "ok": checked is not None,
                "problem": problems.get(step.id or 0, ""),
            }
        )
    return {
        "order_id": order.id,
        "number": order.number,
        "change_id": change.id if change else None,
        "lines": lines,
        "added": added,
        "problems": [{"change_line_id": k, "message": v} for k, v in problems.items()],
        "has_changes": bool(steps),
        **_difference_out(plan, lang),
    }


# -- applying a change ----------------------------------------------------------------------------


def _apply(session: Session, change: OrderChange, plan: _Plan, now: datetime) -> int | None:
    """Write what ``plan`` does to the order (locked by the caller): removed quantities (and
    their cancellation of kind ``modify``), added lines, moved lines, the order's charges and
    status. Returns the cancellation id (None when nothing was removed). A fixed number of
    statements."""
    loaded, order = plan.loaded, plan.loaded.order
    cancellation_id = None
    if plan.removed:
        cancellation = OrderCancellation(
            order_id=order.id or 0,
            kind="modify",
            request_key=f"change-{change.id}",
            actor=actor_of(order.parent_id),
            created_at=now,
        )
        session.add(cancellation)
        session.flush()
        cancellation_id = cancellation.id
        session.execute(
            insert(OrderCancellationLine.__table__),
            [
                {"cancellation_id": cancellation_id, "order_line_id": line_id, "quantity": qty}
                for line_id, qty in sorted(plan.removed.items())
            ],
        )
        values = []
        for line_id, qty in sorted(plan.removed.items()):
            line = loaded.line(line_id)
            assert line is not None
            line.cancelled_quantity += qty
            if line.cancelled_quantity >= line.quantity:
                line.status = LineStatus.CANCELLED
            values.append(
                {
                    "id": line_id,
                    "cancelled_quantity": line.cancelled_quantity,
                    "status": line.status,
                }
            )
        session.execute(update(OrderLine), values)
    if plan.moved:
        _move_lines(session, plan)
    if plan.added:
        _insert_added(session, order, plan, now)
    if change.amount_cents > 0 and plan.before is not None:
        # The order's charges are what was charged (a decrease shows as its refund, as for a
        # cancel: services.orders.order_detail's "total refund"); an increase adds to them.
        for name in CHARGE_FIELDS[:-1]:
            grown = getattr(order, name) + getattr(plan.charges, name) - getattr(plan.before, name)
            setattr(order, name, max(grown, 0))
        order.total_pay_cents += change.amount_cents
    statuses = [LineStatus(ln.status) for ln in loaded.lines]
    if plan.added:
        statuses.append(LineStatus.ACTIVE)
    if plan.removed:
        order.status = order_transition(order.status, status_after_cancel(statuses))
    order.updated_at = now
    session.add(order)
    change.state = APPLIED
    change.updated_at = now
    session.add(change)
    session.flush()
    audit(
        session,
        actor=actor_of(order.parent_id),
        kind="order.changed" if change.kind == MODIFY else "order.meal_moved",
        entity="order",
        entity_id=order.id or 0,
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


def _sold(batch: cart.Batch | None, checked: cart.CheckedLine) -> _Sold:
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


def _move_lines(session: Session, plan: _Plan) -> None:
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
    plan: _Plan,
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
    table: Any = OrderLine.__table__
    returned = session.execute(insert(table).returning(table.c.id), rows).all()
    ids = sorted(row[0] for row in returned)  # one INSERT: ids ascend in row order
    sold = [
        {
            "order_line_id": line_id,
            "addon_id": addon.id,
            "name": addon.name_en[:80],
            "price_cents": addon.price_cents,
        }
        for line_id, (_, checked) in zip(ids, added, strict=True)
        for addon in checked.addons
    ]
    if sold:
        session.execute(insert(OrderLineAddOn.__table__), sold)


# -- confirming: apply and refund, or pay first ---------------------------------------------------


@dataclass(frozen=True)
class ChangeResult:
    """What a confirmed change (or a move) did. ``status``: ``applied`` (the order changed;
    ``refund_cents`` on its way back to the card, or nothing to pay), ``pay`` (open the
    Lightbox with ``hosted``), ``pending`` (the payment is being confirmed), ``declined``
    (nothing changed; the draft is kept for another try), ``dropped`` (the payment came but the
    change could no longer be applied: the charge is voided)."""

    status: str
    order_id: int
    order_number: str
    change_id: int
    difference_cents: int
    message: str
    payment_id: int | None = None
    hosted: HostedSession | None = None
    refund_cents: int = 0
    refund_ok: bool = True


def _mail_change(session: Session, order: Order, change: OrderChange, plan: _Plan) -> None:
    """The e-mail of an applied change, in the parent's language."""
    from hotmeals.services import mail

    parent = session.get(Parent, order.parent_id)
    if parent is None or not parent.email:
        return
    lang = normalize_lang(parent.language)
    diff = change.amount_cents
    if diff > 0:
        money = t("order_change.mail_paid", lang, amount=format_money(diff, lang))
    elif diff < 0:
        money = t("order_change.mail_refund", lang, amount=format_money(-diff, lang))
    else:
        money = t("order_change.mail_even", lang)
    steps = []
    for line_id, qty in sorted(plan.removed.items()):
        line = plan.loaded.line(line_id)
        assert line is not None
        name = _meal_name(plan.loaded.meals.get(line.meal_id), line.meal_name, lang)
        steps.append(
            t(
                "order_change.mail_removed",
                lang,
                quantity=qty,
                meal=name,
                day=_day(line.meal_date, lang),
            )
        )
    for _, checked in plan.added:
        steps.append(
            t(
                "order_change.mail_added",
                lang,
                quantity=checked.quantity,
                meal=_meal_name(checked.meal, "", lang),
                child=checked.child.first_name,
                day=_day(checked.menu_day.meal_date, lang),
            )
        )
    for line, _ in plan.moved:
        steps.append(
            t(
                "order_change.mail_moved",
                lang,
                meal=_meal_name(plan.loaded.meals.get(line.meal_id), line.meal_name, lang),
                old=_day(line.moved_from_date or line.meal_date, lang),
                new=_day(line.meal_date, lang),
            )
        )
    template = "meal_moved" if change.kind == MOVE else "order_changed"
    mail.send_templated(
        session=session,
        to=parent.email,
        template=template,
        language=lang,
        kind=template,
        name=parent.first_name,
        number=order.number,
        changes="\n".join(f"  - {step}" for step in steps),
        money=money,
        total=format_money(plan.charges.total_pay_cents, lang),
    )


def _applied_message(order: Order, change: OrderChange, lang: str) -> str:
    diff = change.amount_cents
    if diff < 0:
        return t(
            "order_change.applied_refund",
            lang,
            number=order.number,
            amount=format_money(-diff, lang),
        )
    if diff > 0:
        return t(
            "order_change.applied_paid", lang, number=order.number, amount=format_money(diff, lang)
        )
    return t("order_change.applied_even", lang, number=order.number)


def _tax_within(plan: _Plan, diff: int) -> int:
    """The HST part of a change's ``diff`` (what the receipt shows as its tax line): how much
    the order's tax changes (``_apply`` adds it to ``Order.tax_cents`` on an increase), of the
    same sign as ``diff`` and never more than it."""
    if plan.before is None or diff == 0:
        return 0
    tax = plan.charges.tax_cents - plan.before.tax_cents
    return min(max(tax, 0), diff) if diff > 0 else max(min(tax, 0), diff)


def _reserve_refund(
    session: Session, order: Order, change: OrderChange, amount: int, cancellation_id: int | None
) -> list[PlannedRefund]:
    """The refund rows of an applied decrease, reserved in the transaction that applies it
    (the payment service's own reservation: under the order's and payments' locks, never more
    than refundable); sent to Converge once committed."""
    return reserve_refund(
        session,
        amount_cents=amount,
        reason=f"order change {change.id}",
        order_id=order.id,
        parent_id=order.parent_id,
        actor=actor_of(order.parent_id),
        cancellation_id=cancellation_id,
    )


def _confirm_step(
    session: Session,
    *,
    parent_id: int,
    order_id: int,
    change_id: int | None,
    request_key: str | None,
    card_id: int | None,
    lang: str,
) -> dict:
    """Step 1 under the order's lock: a repeat of ``request_key`` answers what the first did;
    otherwise every step is checked again and priced; a decrease (or no difference) is applied
    with its refund reserved; an increase reserves its ORDER_CHANGE payment."""
    now = _now()
    order = lock_row(session, Order, order_id)
    if order is None or order.parent_id != parent_id:
        raise DomainError("order_change_order_not_found", field="order_id")
    if request_key:
        seen = session.exec(
            select(OrderChange).where(
                OrderChange.order_id == order_id, OrderChange.request_key == request_key
            )
        ).first()
        if seen is not None:
            return {"repeat": True, "change_id": seen.id}
    if OrderStatus(order.status) not in PAID_STATUSES:
        raise DomainError("order_change_not_modifiable", field="order_id", number=order.number)
    if card_id is not None:
        card = session.get(StoredCard, card_id)
        if card is None or card.parent_id != parent_id or card.deleted_at is not None:
            raise DomainError("card_not_found", field="card_id")
    _close_stale_payments(session, order_id)
    change = (
        session.get(OrderChange, change_id)
        if change_id
        else _draft(session, order, create=False, now=now)
    )
    if change is None or change.order_id != order_id or change.state != DRAFT:
        raise DomainError("order_change_empty", field="order_id")
    steps = _steps(session, change.id)
    if not steps:
        raise DomainError("order_change_empty", field="order_id")
    loaded = _load(session, order)
    plan, _ = _plan(session, loaded, steps, lang=lang, now=now, strict=True)
    diff = plan.difference
    change.request_key = request_key
    change.amount_cents = diff
    change.tax_cents = _tax_within(plan, diff)
    change.updated_at = now
    if diff > 0:
        payment = reserve_payment(
            session,
            parent_id=parent_id,
            purpose=Purpose.ORDER_CHANGE,
            amount_cents=diff,
            order_id=order_id,
        )
        change.state = PAYING
        change.payment_id = payment.id
        session.add(change)
        session.flush()
        return {"repeat": False, "change_id": change.id, "payment_id": payment.id, "planned": []}
    # Applied without a payment: an earlier attempt of this draft no longer pays for it (a
    # late sale of it is voided, never counted as this change's money).
    change.payment_id = None
    cancellation_id = _apply(session, change, plan, now)
    planned = _reserve_refund(session, order, change, -diff, cancellation_id) if diff < 0 else []
    _mail_change(session, order, change, plan)
    return {"repeat": False, "change_id": change.id, "payment_id": None, "planned": planned}


def _close_stale_payments(session: Session, order_id: int) -> None:
    """A change still waiting for its payment blocks another one, unless that payment is over
    (declined, expired): then it is a draft again or dropped."""
    for change, payment in session.exec(
        select(OrderChange, Payment)
        .join(Payment, Payment.id == OrderChange.payment_id)
        .where(OrderChange.order_id == order_id, OrderChange.state == PAYING)
    ).all():
        if payment.state in LIVE:
            raise DomainError("order_change_in_progress", field="order_id")
        if payment.state != PaymentState.APPROVED:
            _back_to_draft(session, change)


def _back_to_draft(session: Session, change: OrderChange) -> None:
    """A change whose payment failed: a draft again (so the parent can pay another way), or
    dropped when the order has another draft meanwhile."""
    other = session.exec(
        select(OrderChange.id).where(
            OrderChange.order_id == change.order_id,
            OrderChange.state == DRAFT,
            OrderChange.kind == MODIFY,
            OrderChange.id != change.id,
        )
    ).first()
    change.state = DRAFT if (change.kind == MODIFY and other is None) else DROPPED
    # The failed attempt stays linked (a draft pays with a new one): if Converge made its sale
    # after all, it is traced to this change and voided, never kept (issue 21).
    change.request_key = None
    change.updated_at = _now()
    session.add(change)
    session.flush()


async def _send_refunds(
    planned: list[PlannedRefund], engine: Engine | None, gateway: PaymentGateway | None, actor: str
) -> tuple[int, bool]:
    """Converge voids or returns each reserved refund (``services.orders.send_refunds``).
    Returns (cents refunded, every refund succeeded)."""
    plan = orders.CancelPlan(
        order_id=0,
        order_number="",
        parent_id=0,
        cancellation_id=0,
        refund_cents=sum(p.amount_cents for p in planned),
        status="",
        repeated=False,
        refunds=list(planned),
        actor=actor,
    )
    states = await orders.send_refunds(plan, engine=engine, gateway=gateway)
    done = sum(
        p.amount_cents
        for p, state in zip(planned, states, strict=True)
        if state == RefundState.SUCCEEDED
    )
    return done, all(state == RefundState.SUCCEEDED for state in states)


def _result_of(
    session: Session, *, change_id: int, lang: str, refund_cents: int = 0, refund_ok: bool = True
) -> ChangeResult:
    change = session.get(OrderChange, change_id)
    assert change is not None
    order = session.get(Order, change.order_id)
    assert order is not None
    payment = session.get(Payment, change.payment_id) if change.payment_id else None
    common = {
        "order_id": order.id or 0,
        "order_number": order.number,
        "change_id": change.id or 0,
        "difference_cents": change.amount_cents,
        "payment_id": change.payment_id,
    }
    if change.state == APPLIED:
        refund_cents = refund_cents or max(-change.amount_cents, 0)
        message = _applied_message(order, change, lang)
        if not refund_ok:
            message = t(
                "order_change.refund_later",
                lang,
                number=order.number,
                amount=format_money(-change.amount_cents, lang),
            )
        return ChangeResult(
            status="applied",
            message=message,
            refund_cents=refund_cents,
            refund_ok=refund_ok,
            **common,
        )
    if change.state == DROPPED:
        return ChangeResult(
            status="dropped",
            message=t(
                "order_change.dropped",
                lang,
                number=order.number,
                amount=format_money(max(change.amount_cents, 0), lang),
            ),
            **common,
        )
    if payment is not None and payment.state in LIVE:
        return ChangeResult(
            status="pending", message=t("order_change.pending", lang, number=order.number), **common
        )
    reason = (payment.result_message if payment else None) or "DECLINED"
    # The Lightbox closed (onCancelled) or failed (onError): not a decline of the card.
    key = (
        "order_change.not_completed"
        if reason.strip().upper() in ("CANCELLED", "CANCELED", "ERROR")
        else "order_change.declined"
    )
    return ChangeResult(status="declined", message=t(key, lang, reason=reason), **common)


async def _confirm(
    *,
    parent_id: int,
    order_id: int,
    change_id: int | None,
    request_key: object,
    card_id: object,
    save_card: bool,
    lang: str,
    engine: Engine | None,
    gateway: PaymentGateway | None,
) -> ChangeResult:
    from hotmeals.services.submissions import checked_key, remember

    key = checked_key(request_key)
    card = None if card_id in (None, "") else _id(card_id, "card_id", "card_not_found")
    await _ask_open_attempts(order_id, engine=engine, gateway=gateway)
    step = await db(
        engine,
        _confirm_step,
        parent_id=parent_id,
        order_id=order_id,
        change_id=change_id,
        request_key=key,
        card_id=card,
        lang=lang,
    )
    if step["repeat"]:
        return await _repeat(step["change_id"], parent_id, key, lang, engine)
    if step["payment_id"] is None:
        done, ok = await _send_refunds(step["planned"], engine, gateway, actor_of(parent_id))
        return await db(
            engine,
            _result_of,
            change_id=step["change_id"],
            lang=lang,
            refund_cents=done,
            refund_ok=ok,
        )
    hosted = await open_payment_attempt(
        payment_id=step["payment_id"],
        parent_id=parent_id,
        card_id=card,
        save_card=save_card,
        engine=engine,
        gateway=gateway,
    )
    if not isinstance(hosted, HostedSession):  # the saved card was charged: its outcome
        return await _settle(
            step["change_id"], parent_id=parent_id, lang=lang, engine=engine, gateway=gateway
        )
    # Kept under the request key so that a repeat opens this same Lightbox session (issue 21).
    await db(
        engine,
        remember,
        parent_id=parent_id,
        key=key,
        action=PAY_ACTION,
        result={"change_id": step["change_id"], "hosted": hosted.to_dict()},
    )
    return await _pay_answer(step["change_id"], hosted, lang, engine)


PAY_ACTION = "modify_confirm_pay"


async def _pay_answer(
    change_id: int, hosted: HostedSession, lang: str, engine: Engine | None
) -> ChangeResult:
    result = await db(engine, _result_of, change_id=change_id, lang=lang)
    return replace(
        result,
        status="pay",
        hosted=hosted,
        message=t("order_change.pay", lang, amount=format_money(hosted.amount_cents, lang)),
    )


async def _repeat(
    change_id: int, parent_id: int, key: str | None, lang: str, engine: Engine | None
) -> ChangeResult:
    """A repeat of a confirm answers what the first did: while its payment is still to be
    made in the Lightbox (nothing charged), the same Lightbox session, not "pending"."""
    from hotmeals.services.submissions import recall

    result = await db(engine, _result_of, change_id=change_id, lang=lang)
    if result.status != "pending" or result.payment_id is None:
        return result
    first = await db(engine, recall, parent_id=parent_id, key=key, action=PAY_ACTION)
    state = await db(engine, _payment_state, payment_id=result.payment_id)
    if not first or first.get("change_id") != change_id or state != PaymentState.CREATED:
        return result
    return await _pay_answer(change_id, HostedSession(**first["hosted"]), lang, engine)


def _payment_state(session: Session, *, payment_id: int) -> str | None:
    payment = session.get(Payment, payment_id)
    return None if payment is None else payment.state


async def _settle(
    change_id: int,
    *,
    parent_id: int,
    lang: str,
    engine: Engine | None,
    gateway: PaymentGateway | None,
    payment_id: int | None = None,
) -> ChangeResult:
    """After the payment's outcome is recorded: a dropped change's approved charge is voided;
    so is an approved attempt its change no longer waits for (``payment_id``: the attempt
    just settled, when it may not be the change's current one)."""
    result = await db(engine, _result_of, change_id=change_id, lang=lang)
    stray = await db(engine, _stray_attempt, change_id=change_id, payment_id=payment_id)
    if stray is not None:
        await _void(stray, engine=engine, gateway=gateway)
        return replace(
            result,
            status="dropped",
            payment_id=stray,
            message=t("order_change.attempt_voided", lang, number=result.order_number),
        )
    if result.status == "dropped" and result.payment_id is not None:
        await _void(result.payment_id, engine=engine, gateway=gateway)
    elif result.status == "declined":
        await db(engine, _declined_change, change_id=change_id)
    return result


def _stray_attempt(session: Session, *, change_id: int, payment_id: int | None) -> int | None:
    """``payment_id`` (else the change's payment) when it is approved but did not pay for
    the change (the change was set back to a draft, or paid by another attempt)."""
    change = session.get(OrderChange, change_id)
    if change is None:
        return None
    pid = payment_id or change.payment_id
    payment = session.get(Payment, pid) if pid else None
    if payment is None or payment.state != PaymentState.APPROVED:
        return None
    if change.state == APPLIED and change.payment_id == payment.id:
        return None
    if change.state == DROPPED and change.payment_id == payment.id:
        return None  # the dropped change's own charge: voided with the "dropped" answer
    return payment.id


def _open_attempts(session: Session, *, order_id: int) -> list[int]:
    """The order's change payments Converge has not had the last word on."""
    return list(
        session.exec(
            select(Payment.id)
            .where(
                Payment.order_id == order_id,
                Payment.purpose == Purpose.ORDER_CHANGE,
                Payment.state != PaymentState.APPROVED,
                Payment.closed_at.is_(None),
                Payment.duplicate_of_id.is_(None),
            )
            .order_by(Payment.id)
        ).all()
    )


async def _ask_open_attempts(
    order_id: int, *, engine: Engine | None, gateway: PaymentGateway | None
) -> None:
    """Before a new attempt for the order opens, Converge is asked about the earlier ones
    (issue 21): a sale it made applies its change, or is voided when the change no longer
    waits for it. Converge not answering: no new attempt now (``payment_unavailable``)."""
    for attempt in await db(engine, _open_attempts, order_id=order_id):
        asked = await ask_converge(
            payment_id=attempt, close_after=SESSION_WINDOW, engine=engine, gateway=gateway
        )
        if not asked.answered:
            raise DomainError("payment_unavailable")
        if asked.view.state == PaymentState.APPROVED:
            stray = await db(engine, _orphan_change_payment, payment_id=attempt)
            if stray:
                await _void(attempt, engine=engine, gateway=gateway)


def _orphan_change_payment(session: Session, *, payment_id: int) -> bool:
    return payment_id in set(_orphan_change_payments(session, payment_id=payment_id))


def _declined_change(session: Session, *, change_id: int) -> None:
    change = session.get(OrderChange, change_id)
    if change is None:
        return
    lock_row(session, Order, change.order_id)
    change = session.get(OrderChange, change_id, populate_existing=True)
    if change is not None and change.state == PAYING:
        _back_to_draft(session, change)


async def _void(payment_id: int, *, engine: Engine | None, gateway: PaymentGateway | None) -> None:
    def refundable(session: Session, *, pid: int) -> int:
        from hotmeals.services.payments.records import refundable_cents

        payment = session.get(Payment, pid)
        return refundable_cents(session, payment) if payment else 0

    amount = await db(engine, refundable, pid=payment_id)
    if amount > 0:
        try:
            await refund(
                amount_cents=amount,
                reason=VOID_REASON,
                payment_id=payment_id,
                actor="system",
                engine=engine,
                gateway=gateway,
            )
        except DomainError as err:  # refunded meanwhile by another call
            if err.code not in ("refund_exceeds_paid", "invalid_amount"):
                raise


async def modify_confirm_order(
    *,
    parent_id: int,
    order_id: object,
    request_key: object = None,
    card_id: object = None,
    save_card: bool = False,
    lang: str = "en",
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> ChangeResult:
    """ModifyConfirmOrder: confirm the order's draft. A decrease (or no difference) is applied
    at once and refunded to the card; an increase is charged to the saved card ``card_id`` or
    answers a Lightbox session (``status`` ``pay``; then ``complete_change_payment``), and the
    order changes once the payment is approved. ``request_key``: the same key again answers
    what the first call did."""
    lang = normalize_lang(lang)
    key = await db(engine, _own_id, parent_id=parent_id, order_id=order_id)
    return await _confirm(
        parent_id=parent_id,
        order_id=key,
        change_id=None,
        request_key=request_key,
        card_id=card_id,
        save_card=save_card,
        lang=lang,
        engine=engine,
        gateway=gateway,
    )


def _own_id(session: Session, *, parent_id: int, order_id: object) -> int:
    order = _own_order(session, parent_id=parent_id, order_id=order_id, lock=False)
    return order.id or 0


def _change_of_payment(session: Session, *, parent_id: int, payment_id: object) -> int:
    """The change a (parent's, ORDER_CHANGE) payment was made for: the change that holds it
    now, else the one it was last made for (audit), else ``payment_not_found``."""
    key = _id(payment_id, "payment_id", "payment_not_found")
    payment = get_payment(session, key, parent_id)
    if payment.purpose != Purpose.ORDER_CHANGE:
        raise DomainError("payment_not_found", field="payment_id")
    change = session.exec(select(OrderChange).where(OrderChange.payment_id == payment.id)).first()
    if change is None:
        # A draft paid again with a newer attempt: this one belongs to the same order's
        # latest change (its sale, if any, is voided by ``_settle``).
        change = session.exec(
            select(OrderChange)
            .where(OrderChange.order_id == payment.order_id)
            .order_by(OrderChange.id.desc())
        ).first()
    if change is None:
        raise DomainError("payment_not_found", field="payment_id")
    return change.id or 0


async def complete_change_payment(
    *,
    parent_id: int,
    payment_id: object,
    txn_id: str,
    lang: str = "en",
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> ChangeResult:
    """After the Lightbox's ``onApproval`` for a change: Converge confirms the sale and the
    change is applied in the same transaction (or, when it cannot be any more, dropped and the
    charge voided; so is the sale of an attempt its change no longer waits for). Safe to
    repeat."""
    lang = normalize_lang(lang)
    change_id = await db(engine, _change_of_payment, parent_id=parent_id, payment_id=payment_id)
    paid = _id(payment_id, "payment_id", "payment_not_found")
    try:
        await confirm_payment(
            payment_id=paid,
            txn_id=txn_id,
            parent_id=parent_id,
            engine=engine,
            gateway=gateway,
        )
    except DomainError as err:
        if err.code != "payment_already_paid":
            raise
        # A second sale of a paid attempt: recorded apart and voided by confirm_payment.
    return await _settle(
        change_id,
        parent_id=parent_id,
        lang=lang,
        engine=engine,
        gateway=gateway,
        payment_id=paid,
    )


async def change_payment_declined(
    *,
    parent_id: int,
    payment_id: object,
    message: str = "",
    outcome: str = "declined",
    lang: str = "en",
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> ChangeResult:
    """ModifyChangeDeclined: the Lightbox's ``onDeclined`` / ``onError`` / ``onCancelled``
    for a change (``outcome``). Only a hint: Converge is asked first (issue 21); a sale it
    made applies the change (or is voided). Otherwise nothing is charged as far as Converge
    shows, nothing changes, and the change is a draft again; the attempt stays open for the
    reconciliation and the next attempt to ask about."""
    lang = normalize_lang(lang)
    change_id = await db(engine, _change_of_payment, parent_id=parent_id, payment_id=payment_id)
    paid = _id(payment_id, "payment_id", "payment_not_found")
    reason = str(message or "")[:120].strip() or "DECLINED"
    asked = await report_browser_failure(
        payment_id=paid, parent_id=parent_id, message=reason, engine=engine, gateway=gateway
    )
    result = await _settle(
        change_id,
        parent_id=parent_id,
        lang=lang,
        engine=engine,
        gateway=gateway,
        payment_id=paid,
    )
    if result.status == "declined" and not (asked.answered and outcome == "declined"):
        result = replace(
            result, message=t("order_change.not_confirmed", lang, number=result.order_number)
        )
    return result


# -- the payment handler's part (OrderChangePayment) ----------------------------------------------


def apply_paid_change(session: Session, order: Order, payment: Payment) -> bool:
    """The approval of ``payment`` (purpose ORDER_CHANGE) for ``order`` (locked by the caller,
    same transaction as the recorded approval): the change it pays for is applied if every
    step still holds (cut-offs ahead, lines active, the meals still served) and the order
    still costs what was paid; otherwise it is dropped and the charge is voided by
    ``complete_change_payment`` (or the reconciliation). True when applied."""
    change = session.exec(select(OrderChange).where(OrderChange.payment_id == payment.id)).first()
    if change is None or change.state != PAYING:
        return False
    now = _now()
    lang = "en"
    try:
        if OrderStatus(order.status) not in PAID_STATUSES:
            raise DomainError("order_change_not_modifiable", number=order.number)
        loaded = _load(session, order)
        plan, _ = _plan(
            session, loaded, _steps(session, change.id), lang=lang, now=now, strict=True
        )
        # The payment is already among the approved ones: what is held now covers the change
        # exactly when the order costs what was held before plus this payment.
        if plan.difference != 0:
            raise DomainError("order_change_price_changed")
    except DomainError as err:
        change.state = DROPPED
        change.updated_at = now
        session.add(change)
        audit(
            session,
            actor="system",
            kind="order.change_dropped",
            entity="order",
            entity_id=order.id or 0,
            data={"change_id": change.id, "payment_id": payment.id, "why": err.code},
        )
        return False
    _apply(session, change, plan, now)
    _mail_change(session, order, change, plan)
    return True


def _orphan_change_payments(session: Session, *, payment_id: int | None = None) -> list[int]:
    """Approved ORDER_CHANGE payments that paid for no change and are not refunded yet: the
    change was dropped, set back to a draft (a browser reported a failure, Converge made the
    sale after all), or is paid by a newer attempt."""
    refunded = select(Refund.payment_id).where(Refund.state.in_(list(RESERVING)))
    applied = select(OrderChange.payment_id).where(
        OrderChange.state == APPLIED, OrderChange.payment_id.is_not(None)
    )
    query = select(Payment.id).where(
        Payment.purpose == Purpose.ORDER_CHANGE,
        Payment.state == PaymentState.APPROVED,
        Payment.duplicate_of_id.is_(None),  # voided on their own (payments service)
        Payment.id.not_in(refunded),
        Payment.id.not_in(applied),
    )
    if payment_id is not None:
        query = query.where(Payment.id == payment_id)
    return list(session.exec(query.order_by(Payment.id)).all())


def dropped_change_payments(session: Session) -> list[int]:
    """Approved ORDER_CHANGE payments that paid for no change, not refunded yet (for the
    reconciliation round: void them)."""
    return _orphan_change_payments(session)


# -- manage one meal: the list, the detail, the dates, the move -----------------------------------


def _meal_rows(session: Session, *, parent_id: int, line_id: int | None, today: date) -> list:
    query = (
        select(OrderLine, Order, Vendor, Child, Meal)
        .join(Order, Order.id == OrderLine.order_id)
        .join(Vendor, Vendor.id == OrderLine.vendor_id)
        .join(Child, Child.id == OrderLine.child_id)
        .outerjoin(Meal, Meal.id == OrderLine.meal_id)
        .where(
            Order.parent_id == parent_id,
            Order.status.in_([str(s) for s in PAID_STATUSES]),
            OrderLine.status == LineStatus.ACTIVE,
        )
    )
    if line_id is not None:
        query = query.where(OrderLine.id == line_id)
    else:
        query = query.where(OrderLine.meal_date >= today)
    return list(
        session.exec(query.order_by(OrderLine.meal_date, Child.first_name, OrderLine.id)).all()
    )


def _meal_out(row: tuple, addons: list[OrderLineAddOn], lang: str, now: datetime) -> dict:
    line, order, vendor, child, meal = row
    closes = cutoff_at(cutoff_rule(vendor), line.meal_date)
    return {
        "order_line_id": line.id,
        "order_id": order.id,
        "order_number": order.number,
        "child_id": child.id,
        "child_name": f"{child.first_name} {child.last_name}",
        "date": line.meal_date.isoformat(),
        "day": _day(line.meal_date, lang),
        "meal_id": line.meal_id,
        "name": _meal_name(meal, line.meal_name, lang),
        "image": meal.image if meal else "",
        "size": line.size,
        "size_label": t(f"portion_{line.size}", lang)
        if line.size in ("small", "large")
        else line.size,
        "menu_option": line.menu_option_name,
        "meal_option": line.meal_option_name,
        "addons": [a.name for a in addons],
        "special_note": line.special_note or "",
        "quantity": _active(line),
        "price_cents": line.line_total_cents,
        "price": format_money(line.line_total_cents, lang),
        "vendor": vendor.name,
        "status": "moved" if line.moved_from_date else "active",
        "moved_from_date": line.moved_from_date.isoformat() if line.moved_from_date else None,
        "cutoff_at": closes.isoformat(),
        "can_change": now < closes,
    }


def _addons_of(session: Session, line_ids: list[int]) -> dict[int, list[OrderLineAddOn]]:
    out: dict[int, list[OrderLineAddOn]] = {}
    if line_ids:
        for row in session.exec(
            select(OrderLineAddOn)
            .where(OrderLineAddOn.order_line_id.in_(line_ids))
            .order_by(OrderLineAddOn.id)
        ).all():
            out.setdefault(row.order_line_id, []).append(row)
    return out


def get_meals_list(
    *, session: Session, parent_id: int, child_id: object = None, lang: str = "en"
) -> list[dict]:
    """GetMealsList: the parent's upcoming meals (from today in Toronto), one per active
    order line of a paid order, by date (``child_id``: that child's only): child, meal, size,
    options, add-ons, note, quantity, price, order number, whether it was moved and whether it
    can still change (cut-off). Two statements whatever the number of meals (three with a
    ``child_id``, which must be one of the parent's children: ``child_not_found``)."""
    lang = normalize_lang(lang)
    now = _now()
    child = None if child_id in (None, "") else _id(child_id, "child_id", "child_not_found")
    if child is not None:
        # Another parent's child (or none) is not found, not an empty list (issue 21).
        from hotmeals.db.models import Child

        own = session.exec(
            select(Child.id).where(Child.id == child, Child.parent_id == parent_id)
        ).first()
        if own is None:
            raise DomainError("child_not_found", field="child_id")
    rows = [
        r
        for r in _meal_rows(session, parent_id=parent_id, line_id=None, today=toronto_today(now))
        if _active(r[0]) > 0 and (child is None or r[0].child_id == child)
    ]
    addons = _addons_of(session, [r[0].id for r in rows])
    return [_meal_out(r, addons.get(r[0].id, []), lang, now) for r in rows]


def _own_meal(session: Session, *, parent_id: int, order_line_id: object, now: datetime) -> tuple:
    key = _id(order_line_id, "order_line_id", "order_change_line_not_found")
    rows = _meal_rows(session, parent_id=parent_id, line_id=key, today=toronto_today(now))
    if not rows or _active(rows[0][0]) <= 0:
        raise DomainError("order_change_line_not_found", field="order_line_id")
    return rows[0]


def meal_order_detail(
    *, session: Session, parent_id: int, order_line_id: object, lang: str = "en"
) -> dict:
    """MealOrderDetail: one of the parent's active meals (as in GetMealsList). Another
    parent's line, a cancelled one or an unknown id: 'not found'."""
    lang = normalize_lang(lang)
    now = _now()
    row = _own_meal(session, parent_id=parent_id, order_line_id=order_line_id, now=now)
    addons = _addons_of(session, [row[0].id])
    return _meal_out(row, addons.get(row[0].id, []), lang, now)


def get_dates_for_modify_meal(
    *, session: Session, parent_id: int, order_line_id: object, lang: str = "en"
) -> dict:
    """GetDatesForModifyMeal: the dates the meal can move to: days on which the same vendor
    serves the child's school, open, before their cut-off, other than the meal's own day, in
    the next eight weeks; each says whether the same meal is on that day's menu (a move needs
    it). The meal's own cut-off passed: refused with the day and the time. Four statements."""
    lang = normalize_lang(lang)
    now = _now()
    row = _own_meal(session, parent_id=parent_id, order_line_id=order_line_id, now=now)
    line, _, vendor, child, _ = row
    closes = cutoff_at(cutoff_rule(vendor), line.meal_date)
    if now >= closes:
        raise DomainError(
            "order_change_cutoff_passed",
            field="order_line_id",
            day=_day(line.meal_date, lang),
            when=_when(closes, lang),
        )
    today = toronto_today(now)
    days = session.exec(
        select(MenuDay)
        .where(
            MenuDay.school_id == child.school_id,
            MenuDay.vendor_id == line.vendor_id,
            MenuDay.meal_date >= today,
            MenuDay.meal_date <= today + timedelta(days=DATES_DEFAULT_DAYS),
            MenuDay.meal_date != line.meal_date,
            MenuDay.is_closed == False,  # noqa: E712 - SQL
        )
        .order_by(MenuDay.meal_date)
    ).all()
    served = set(
        session.exec(
            select(MenuDayMeal.menu_day_id).where(
                MenuDayMeal.menu_day_id.in_([d.id for d in days] or [0]),
                MenuDayMeal.meal_id == line.meal_id,
            )
        ).all()
    )
    rule = cutoff_rule(vendor)
    out = []
    for day in days:
        target_closes = cutoff_at(rule, day.meal_date)
        if now >= target_closes or not vendor.is_active:
            continue
        out.append(
            {
                "date": day.meal_date.isoformat(),
                "day": _day(day.meal_date, lang),
                "menu_day_id": day.id,
                "cutoff_at": target_closes.isoformat(),
                "meal_served": day.id in served,
            }
        )
    return {
        "order_line_id": line.id,
        "date": line.meal_date.isoformat(),
        "cutoff_at": closes.isoformat(),
        "vendor": vendor.name,
        "dates": out,
    }


def _move_step(
    session: Session, *, parent_id: int, order_line_id: object, new_date: object, lang: str
) -> dict:
    """Check the move and write it as a change of kind ``move`` (confirmed by the caller)."""
    now = _now()
    order, _loaded, line, day = _move_target(
        session,
        parent_id=parent_id,
        order_line_id=order_line_id,
        new_date=new_date,
        lang=lang,
        now=now,
        lock=True,
    )
    change = OrderChange(
        order_id=order.id or 0,
        parent_id=parent_id,
        kind=MOVE,
        state=DRAFT,
        created_at=now,
        updated_at=now,
    )
    session.add(change)
    session.flush()
    session.add(_move_line(change.id or 0, line, day))
    session.flush()
    return {"order_id": order.id, "change_id": change.id}


def _move_line(change_id: int, line: OrderLine, day: MenuDay) -> OrderChangeLine:
    return OrderChangeLine(
        change_id=change_id,
        action=MOVE_STEP,
        order_line_id=line.id,
        quantity=max(_active(line), 1),
        menu_day_id=day.id,
    )


def quote_move(
    *, session: Session, parent_id: int, order_line_id: object, new_date: object, lang: str = "en"
) -> dict:
    """What moving the meal ``order_line_id`` to ``new_date`` would cost or give back, before
    the parent confirms: the same checks and the same pricing as ``modify_meal`` (so the
    amount shown is the amount then charged or refunded), with nothing written. Refuses as
    ``modify_meal`` would. Answers ``_difference_out``: ``difference_cents`` (> 0 to pay,
    < 0 to refund), ``to_pay``/``to_refund`` formatted in ``lang`` and a ``message``."""
    lang = normalize_lang(lang)
    now = _now()
    _order, loaded, line, day = _move_target(
        session,
        parent_id=parent_id,
        order_line_id=order_line_id,
        new_date=new_date,
        lang=lang,
        now=now,
        lock=False,
    )
    plan, _ = _plan(session, loaded, [_move_line(0, line, day)], lang=lang, now=now, strict=True)
    return _difference_out(plan, lang)


def _move_target(
    session: Session,
    *,
    parent_id: int,
    order_line_id: object,
    new_date: object,
    lang: str,
    now: datetime,
    lock: bool,
) -> tuple[Order, _Loaded, OrderLine, MenuDay]:
    """The parent's line and the day it would move to, every move rule checked."""
    order = _line_order(session, parent_id=parent_id, order_line_id=order_line_id, lock=lock)
    loaded = _load(session, order)
    line = loaded.line(_id(order_line_id, "order_line_id", "order_change_line_not_found"))
    if line is None:
        raise DomainError("order_change_line_not_found", field="order_line_id")
    _ensure_changeable(loaded, line, now, lang)
    target = meal_date(new_date, "date")
    if target == line.meal_date:
        raise DomainError("order_change_same_date", field="date")
    child = loaded.children[line.child_id]
    day = session.exec(
        select(MenuDay).where(
            MenuDay.school_id == child.school_id,
            MenuDay.vendor_id == line.vendor_id,
            MenuDay.meal_date == target,
        )
    ).first()
    vendor = loaded.vendors[line.vendor_id]
    if day is None:
        raise DomainError(
            "order_change_other_vendor", field="date", vendor=vendor.name, day=_day(target, lang)
        )
    if day.is_closed or not vendor.is_active:
        reason = (day.closed_reason_fr if _fr(lang) else day.closed_reason_en) or ""
        raise DomainError("menu_day_closed", field="date", date=target.isoformat(), reason=reason)
    target_closes = cutoff_at(cutoff_rule(vendor), target)
    if now >= target_closes:
        raise DomainError(
            "order_change_target_closed",
            field="date",
            day=_day(target, lang),
            when=_when(target_closes, lang),
        )
    served = session.exec(
        select(MenuDayMeal.meal_id).where(
            MenuDayMeal.menu_day_id == day.id, MenuDayMeal.meal_id == line.meal_id
        )
    ).first()
    if served is None:
        raise DomainError(
            "order_change_meal_not_served",
            field="date",
            meal=_meal_name(loaded.meals.get(line.meal_id), line.meal_name, lang),
            day=_day(target, lang),
        )
    return order, loaded, line, day


def _move_repeat(
    session: Session, *, parent_id: int, order_line_id: object, key: str
) -> int | None:
    line_key = _id(order_line_id, "order_line_id", "order_change_line_not_found")
    found = session.exec(
        select(OrderChange.id)
        .join(Order, Order.id == OrderChange.order_id)
        .join(OrderLine, OrderLine.order_id == Order.id)
        .where(
            OrderLine.id == line_key,
            Order.parent_id == parent_id,
            OrderChange.request_key == key,
        )
    ).first()
    return found


async def modify_meal(
    *,
    parent_id: int,
    order_line_id: object,
    new_date: object,
    request_key: object = None,
    card_id: object = None,
    save_card: bool = False,
    lang: str = "en",
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> ChangeResult:
    """ModifyMeal: move one meal (its active quantity) to ``new_date``: a day on which the
    same vendor serves the child's school with the same meal, open and before its cut-off, the
    meal's own cut-off still ahead (otherwise refused with a message saying which). Priced at
    today's catalogue price of the same meal: a difference is refunded at once, or paid first
    (saved card ``card_id`` or the Lightbox: ``status`` ``pay``, then
    ``complete_change_payment``). The line keeps its id and shows as moved."""
    from hotmeals.services.submissions import checked_key

    lang = normalize_lang(lang)
    key = checked_key(request_key)
    if key:
        seen = await db(
            engine, _move_repeat, parent_id=parent_id, order_line_id=order_line_id, key=key
        )
        if seen is not None:  # a repeat: what the first did (the same Lightbox session)
            return await _repeat(seen, parent_id, key, lang, engine)
    step = await db(
        engine,
        _move_step,
        parent_id=parent_id,
        order_line_id=order_line_id,
        new_date=new_date,
        lang=lang,
    )
    try:
        return await _confirm(
            parent_id=parent_id,
            order_id=step["order_id"],
            change_id=step["change_id"],
            request_key=key,
            card_id=card_id,
            save_card=save_card,
            lang=lang,
            engine=engine,
            gateway=gateway,
        )
    except DomainError:
        await db(engine, _drop_draft_move, change_id=step["change_id"])
        raise


def _drop_draft_move(session: Session, *, change_id: int) -> None:
    change = session.get(OrderChange, change_id)
    if change is not None and change.state == DRAFT and change.kind == MOVE:
        change.state = DROPPED
        change.updated_at = _now()
        session.add(change)


async def void_dropped_change_payments(
    *, engine: Engine | None = None, gateway: PaymentGateway | None = None
) -> list[int]:
    """The periodic job's part (``payments.reconcile_round``): void every approved change
    payment that paid for no change (dropped, set back to a draft, or replaced by a newer
    attempt; its completion call never came, or Converge refused the void then).
    Returns the ids it voided (or started to)."""
    ids = await db(engine, dropped_change_payments)
    done = []
    for payment_id in ids:
        try:
            await _void(payment_id, engine=engine, gateway=gateway)
            done.append(payment_id)
        except Exception:  # noqa: BLE001 - one failure must not stop the round
            log.exception("payment %s: could not void a dropped change's payment", payment_id)
    return done
