"""Applying a school closure: a school day closed after parents booked it (a storm, a strike, a
PA day decided late), and what happens to each booked meal (docs/product.md "Closures").

An operator closes the day (``python -m hotmeals.admin close-day`` or ``POST
/api/v1/Admin/CloseDay``); hotmeals then, at once:

1. records the closure (``SchoolClosure``, one row per school and date) and closes the school's
   open menu days of that date with the reason, so the calendar, the menus and every booking
   door show the day closed and refuse it (they already read ``MenuDay.is_closed``);
2. handles every booked meal of that school and date (active line, paid order) by the family's
   standing closure choice (``domain.credit.ClosureChoice``): a make-up meal on the next day
   the same vendor serves the school, at no extra cost (the line moves, keeping what it was
   sold at; when that day's menu lacks the meal, or no day is left, the card is refunded
   instead); family credit; or a refund to the card (the default). One transaction per
   family, under the closure's row lock and each order's: a ``ClosureMeal`` row per handled
   line (unique per closure and line), so closing twice, or two workers at once, handle each
   meal once. The family's one e-mail is queued in the same transaction;
3. sends the reserved card refunds with no transaction open (``cancel.send_planned_refunds``);
   a refusal is left to the payment service's refund retries.

A closure ignores the cut-off: the parent did not choose it. Reopening the day makes it bookable
again (the menu days the closure closed, never one a vendor closed); meals already handled stay
as they were handled (a refund is not taken back, a make-up meal stays on its new day).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from enum import StrEnum
from typing import Any

from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import (
    Child,
    ClosureMeal,
    Meal,
    MenuDay,
    MenuDayMeal,
    Order,
    OrderLine,
    Parent,
    School,
    SchoolClosure,
    Vendor,
)
from hotmeals.domain.credit import ClosureChoice
from hotmeals.domain.cutoff import before_cutoff, cutoff_at
from hotmeals.domain.dates import full_day
from hotmeals.domain.money import format_money
from hotmeals.domain.refunds import cancel_refund_reason
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import mail
from hotmeals.services.booked import booked_meals
from hotmeals.services.closures import close_school_day, closure_choice, reason_text
from hotmeals.services.ordering.cancelling.cancel import (
    credited_cents,
    record_cancel,
    send_planned_refunds,
)
from hotmeals.services.ordering.cancelling.cancel_order import leave_cancel_cart
from hotmeals.services.ordering.cancelling.refund_plan import refund_plan
from hotmeals.services.ordering.days import DATES_DEFAULT_DAYS, cutoff_rule
from hotmeals.services.ordering.labels import meal_name
from hotmeals.services.ordering.loaded_order import LoadedOrder, load_orders, lock_order
from hotmeals.services.payments import PlannedRefund, reserve_refund
from hotmeals.services.payments.records import audit, lock_row
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

CLOSURE_KIND = "closure"  # OrderCancellation.kind of a closure's refunds


class Outcome(StrEnum):
    """What a closure did to one booked meal."""

    MAKEUP = "makeup"  # moved to the next day the vendor serves the school
    CARD = "card"  # refunded to the card
    CREDIT = "credit"  # refunded to family credit
    MAKEUP_TO_CARD = "makeup_card"  # a make-up was chosen, no day serves the meal: the card


# --- the booked meals ------------------------------------------------------------------------


def _booked_rows(session: Session, closure: SchoolClosure, parent_id: int | None = None) -> Any:
    query = (
        select(OrderLine, Order.parent_id)
        .join(Order, col(Order.id) == OrderLine.order_id)
        .join(MenuDay, col(MenuDay.id) == OrderLine.menu_day_id)
        .where(
            col(MenuDay.school_id) == closure.school_id,
            col(OrderLine.meal_date) == closure.closed_date,
            *booked_meals(),
        )
    )
    if parent_id is not None:
        query = query.where(col(Order.parent_id) == parent_id)
    return session.exec(query.order_by(col(OrderLine.order_id), col(OrderLine.id))).all()


def families_to_handle(session: Session, *, closure_id: int) -> list[int]:
    """The families with a booked meal on the closed day (one statement)."""
    closure = session.get(SchoolClosure, closure_id)
    if closure is None or closure.reopened_at is not None:
        return []
    return sorted({pid for _, pid in _booked_rows(session, closure)})


@dataclass
class Handled:
    """One meal handled: for the e-mail, the answer and the ``ClosureMeal`` row."""

    line: OrderLine
    outcome: Outcome
    amount_cents: int = 0
    new_date: date | None = None


@dataclass
class FamilyResult:
    parent_id: int
    handled: list[Handled] = field(default_factory=list)
    refunds: list[PlannedRefund] = field(default_factory=list)


def _makeup_days(
    session: Session,
    closure: SchoolClosure,
    lines: list[OrderLine],
    vendors: dict[int, Vendor],
    now: datetime,
) -> tuple[dict[int, MenuDay], set[tuple[int, int]]]:
    """The make-up day of each vendor (the first day after the closed one on which it serves
    the school, open and before its cut-off) and the (menu day, meal) pairs those days serve
    (two statements)."""
    days = session.exec(
        select(MenuDay)
        .where(
            col(MenuDay.school_id) == closure.school_id,
            col(MenuDay.vendor_id).in_(sorted({x.vendor_id for x in lines})),
            col(MenuDay.meal_date) > closure.closed_date,
            col(MenuDay.meal_date) <= closure.closed_date + timedelta(days=DATES_DEFAULT_DAYS),
            col(MenuDay.is_closed) == False,  # noqa: E712 - SQL
        )
        .order_by(col(MenuDay.meal_date))
    ).all()
    first: dict[int, MenuDay] = {}
    for day in days:
        vendor = vendors[day.vendor_id]
        if day.vendor_id in first or not vendor.is_active:
            continue
        if before_cutoff(cutoff_at(cutoff_rule(vendor), day.meal_date), now):
            first[day.vendor_id] = day
    served = set(
        session.exec(
            select(col(MenuDayMeal.menu_day_id), col(MenuDayMeal.meal_id)).where(
                col(MenuDayMeal.menu_day_id).in_([d.id for d in first.values()] or [0]),
                col(MenuDayMeal.meal_id).in_(sorted({x.meal_id for x in lines})),
            )
        ).all()
    )
    return first, served


def _move_to(line: OrderLine, day: MenuDay) -> None:
    """The make-up: the line keeps its id and what it was sold at, takes the new day."""
    line.moved_from_date = line.moved_from_date or line.meal_date
    line.menu_day_id = day.id or 0
    line.meal_date = day.meal_date


def refund_lines(
    session: Session,
    loaded: LoadedOrder,
    quantities: dict[int, int],
    *,
    kind: str,
    request_key: str,
    actor: str,
    now: datetime,
    to_credit: bool = False,
) -> tuple[int, list[PlannedRefund], dict[int, int]]:
    """Cancel ``quantities`` of ``loaded``'s lines whatever their cut-off (an operator's
    closure) and reserve the refund: ``cancel.record_cancel`` (the cancel write and its
    transitions), ``refund_plan`` (net of what is already refunded) and ``reserve_refund``
    (to the card, or with ``to_credit`` to family credit at once). Returns the refund, its
    planned rows and each line's share of it. ``cancel.apply_cancel`` is not used because it
    refuses a line past its cut-off, which a closure decided on the morning must not."""
    plan = refund_plan(loaded, quantities)
    shares = _shares(loaded, quantities, plan.refund_cents)
    cancellation = record_cancel(
        session, loaded, quantities, kind=kind, request_key=request_key, actor=actor, now=now
    )
    planned: list[PlannedRefund] = []
    if plan.refund_cents > 0:
        planned = reserve_refund(
            session,
            amount_cents=plan.refund_cents,
            reason=cancel_refund_reason(kind, loaded.order.number),
            order_id=loaded.order.id,
            actor=actor,
            cancellation_id=cancellation.id,
            to_credit=to_credit,
        )
    audit(
        session,
        actor=actor,
        kind=f"order.cancel_{kind}",
        entity="order",
        entity_id=loaded.order.id or 0,
        data={
            "number": loaded.order.number,
            "cancellation_id": cancellation.id,
            "lines": {str(k): v for k, v in quantities.items()},
            "refund_cents": plan.refund_cents,
            "status": loaded.order.status,
        },
    )
    return plan.refund_cents, planned, shares


def _shares(loaded: LoadedOrder, quantities: dict[int, int], total: int) -> dict[int, int]:
    """Each line's part of ``total`` for the e-mail: its own refund alone, the last line
    taking what is left so the parts add up to the order's refund."""
    ids = sorted(quantities)
    out: dict[int, int] = {}
    for line_id in ids[:-1]:
        out[line_id] = min(
            refund_plan(loaded, {line_id: quantities[line_id]}).refund_cents,
            total - sum(out.values()),
        )
    if ids:
        out[ids[-1]] = total - sum(out.values())
    return out


def handle_family(
    session: Session, *, closure_id: int, parent_id: int, now: datetime
) -> FamilyResult:
    """Step 2 for one family, in one transaction: the closure's row lock first (two workers
    applying it run one after the other, per family), then each of the family's orders with a
    meal on the day, locked; each meal not handled yet is handled by the family's choice and
    gets its ``ClosureMeal`` row; the family's e-mail is queued. ``now``: the moment it is
    applied at (one instant for the whole closure), which decides the make-up days whose
    cut-off is still ahead."""
    result = FamilyResult(parent_id=parent_id)
    closure = lock_row(session, SchoolClosure, closure_id)
    if closure is None or closure.reopened_at is not None:
        return result
    rows = _booked_rows(session, closure, parent_id)
    booked = {line.id for line, _ in rows}
    order_ids = sorted({line.order_id for line, _ in rows})
    if not order_ids:
        return result
    for order_id in order_ids:  # by id: every worker locks them in the same order
        lock_order(session, order_id, parent_id)
    loaded = load_orders(session, order_ids)
    done = set(
        session.exec(
            select(col(ClosureMeal.order_line_id)).where(col(ClosureMeal.closure_id) == closure_id)
        ).all()
    )
    # The lines as they are now that the orders are locked (a parent's cancel or move that
    # committed meanwhile is seen): still active and still on the closed day.
    todo = {
        oid: [
            x
            for x in order.active_lines()
            if x.id in booked and x.id not in done and x.meal_date == closure.closed_date
        ]
        for oid, order in loaded.items()
    }
    lines = [x for found in todo.values() for x in found]
    if not lines:
        return result
    choice = closure_choice(session, parent_id)
    vendors = {vid: v for order in loaded.values() for vid, v in order.vendors.items()}
    first: dict[int, MenuDay] = {}
    served: set[tuple[int, int]] = set()
    if choice is ClosureChoice.MAKEUP:
        first, served = _makeup_days(session, closure, lines, vendors, now)
    actor = f"closure:{closure_id}"
    for oid, found in todo.items():
        refund: dict[int, int] = {}
        for line in found:
            day = first.get(line.vendor_id)
            if day is not None and (day.id or 0, line.meal_id) in served:
                _move_to(line, day)
                session.add(line)
                result.handled.append(Handled(line, Outcome.MAKEUP, new_date=day.meal_date))
            else:
                refund[line.id or 0] = line.quantity - line.cancelled_quantity
        if not refund:
            continue
        outcome = {
            ClosureChoice.MAKEUP: Outcome.MAKEUP_TO_CARD,
            ClosureChoice.CREDIT: Outcome.CREDIT,
        }.get(choice, Outcome.CARD)
        total, planned, shares = refund_lines(
            session,
            loaded[oid],
            refund,
            kind=CLOSURE_KIND,
            request_key=f"closure-{closure_id}",
            actor=actor,
            now=now,
            to_credit=outcome is Outcome.CREDIT,
        )
        result.refunds.extend(planned)
        leave_cancel_cart(session, loaded[oid], parent_id)  # its cancelled lines leave it
        for line in found:
            if line.id in refund:
                result.handled.append(Handled(line, outcome, amount_cents=shares[line.id or 0]))
    _record_handled(session, closure_id, parent_id, result.handled)
    session.flush()
    _queue_family_mail(session, closure, result)
    return result


def _record_handled(
    session: Session, closure_id: int, parent_id: int, handled: list[Handled]
) -> None:
    """One ``ClosureMeal`` row per handled line, in one executemany; the unique constraint
    refuses a line handled twice (a second worker that slipped past the lock)."""
    if not handled:
        return
    table: Any = ClosureMeal
    session.execute(
        insert(table.__table__),
        [
            {
                "closure_id": closure_id,
                "order_line_id": item.line.id,
                "parent_id": parent_id,
                "outcome": item.outcome.value,
                "amount_cents": item.amount_cents,
                "new_date": item.new_date,
                "created_at": clock.now(),
            }
            for item in handled
        ],
    )


def _queue_family_mail(session: Session, closure: SchoolClosure, result: FamilyResult) -> None:
    """The family's one e-mail, in its language: the day, the reason and each meal's fate."""
    parent = session.get(Parent, result.parent_id)
    if parent is None or not parent.email or not result.handled:
        return
    lang = normalize_lang(parent.language)
    lines = [item.line for item in result.handled]
    children = dict(
        session.exec(
            select(col(Child.id), col(Child.first_name)).where(
                col(Child.id).in_(sorted({x.child_id for x in lines}))
            )
        ).all()
    )
    meals = {
        m.id: m
        for m in session.exec(
            select(Meal).where(col(Meal.id).in_(sorted({x.meal_id for x in lines})))
        ).all()
    }
    school = session.get(School, closure.school_id)
    items = [
        t(
            f"closures.outcome.{item.outcome.value}",
            lang,
            child=children.get(item.line.child_id, ""),
            meal=meal_name(meals.get(item.line.meal_id), item.line.meal_name, lang),
            amount=format_money(item.amount_cents, lang),
            day=full_day(item.new_date, lang) if item.new_date else "",
        )
        for item in result.handled
    ]
    mail.send_templated(
        session=session,
        to=parent.email,
        template="school_closed",
        language=lang,
        school=school.name if school else "",
        day=full_day(closure.closed_date, lang),
        reason=reason_text(closure.reason, lang),
        meals="\n".join(f"- {item}" for item in items),
    )


# --- the whole closure -----------------------------------------------------------------------


@dataclass(frozen=True)
class ClosureResult:
    closure_id: int
    school: str
    date: str
    reason: str
    families: int  # families whose meals this call handled
    meals: int  # meals this call handled (0 when closed again: all were handled before)
    made_up: int
    refunded_cents: int  # to the card (reserved; sent in this call)
    credited_cents: int  # to family credit (done at once)
    refund_failures: int  # refunds Converge refused now: the refund retries send them again
    outcomes: dict[str, int]


def _closure_view(session: Session, *, closure_id: int) -> tuple[str, str, str]:
    closure = session.get(SchoolClosure, closure_id)
    assert closure is not None
    school = session.get(School, closure.school_id)
    return (school.name if school else "", closure.closed_date.isoformat(), closure.reason)


async def close_day(
    *,
    school: str,
    day: str,
    reason: str,
    actor: str = "operator",
    runtime: Runtime = APP,
) -> ClosureResult:
    """Close ``school`` on ``day`` for ``reason`` and handle every booked meal at once (the
    module's three steps). Safe to repeat: closing again handles only meals not handled yet."""
    engine = runtime.engine
    try:
        closure_id = await run_in_transaction(
            close_school_day, engine=engine, school=school, day=day, reason=reason, actor=actor
        )
    except (IntegrityError, OperationalError):
        # Another worker created the same closure at the same moment: take its row.
        closure_id = await run_in_transaction(
            close_school_day, engine=engine, school=school, day=day, reason=reason, actor=actor
        )
    families = await run_in_transaction(families_to_handle, engine=engine, closure_id=closure_id)
    now = runtime.now()
    results = [
        await run_in_transaction(
            handle_family, engine=engine, closure_id=closure_id, parent_id=parent_id, now=now
        )
        for parent_id in families
    ]
    failures = 0
    for result in results:
        states = await send_planned_refunds(
            result.refunds, actor=f"closure:{closure_id}", runtime=runtime
        )
        failures += sum(1 for s in states if s not in ("SUCCEEDED", "PENDING", "UNKNOWN"))
    handled = [item for result in results for item in result.handled]
    credited = sum(credited_cents(r.refunds) for r in results)
    name, when, text = await run_in_transaction(_closure_view, engine=engine, closure_id=closure_id)
    outcomes: dict[str, int] = {}
    for item in handled:
        outcomes[item.outcome.value] = outcomes.get(item.outcome.value, 0) + 1
    return ClosureResult(
        closure_id=closure_id,
        school=name,
        date=when,
        reason=text,
        families=sum(1 for r in results if r.handled),
        meals=len(handled),
        made_up=outcomes.get(Outcome.MAKEUP.value, 0),
        refunded_cents=sum(p.amount_cents for r in results for p in r.refunds) - credited,
        credited_cents=credited,
        refund_failures=failures,
        outcomes=outcomes,
    )
