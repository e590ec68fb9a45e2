"""Confirming a school day's delivery (docs/product.md "Delivery"): the vendor or the school
says a day's meals were handed out, for one school and one vendor, or every vendor serving
that school that day (``python -m hotmeals.admin confirm-delivery`` or ``POST
/api/v1/Admin/ConfirmDelivery``).

Allowed on or after the meal date in Toronto (the clock), refused before. A confirmation is
one ``DayDelivery`` row per school, vendor and date (its unique constraint: two confirmations
at once write one, the other answers it); the same transaction moves every meal still to
serve at that school, vendor and date (an active line of a paid order) to DELIVERED through
the lifecycle (``lifecycle.deliver_lines``, in batches: a fixed number of statements whatever
the number of meals), and an order with no meal left to serve to DELIVERED. Confirming again
answers the first confirmation (its meals, when and by whom) and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import func, insert, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import DayDelivery, Order, OrderLine
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import PAID_STATUSES, LineStatus, OrderStatus
from hotmeals.services.booked import booked_meals
from hotmeals.services.closures import find_school
from hotmeals.services.ordering import lifecycle
from hotmeals.services.ordering.days import meal_date
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.school_days import served_menu_days
from hotmeals.services.transaction import run_in_transaction

ATTEMPTS = 3  # a confirmation that lost a race to another is read back, not written again


@dataclass(frozen=True)
class VendorDelivery:
    """One vendor's confirmed day at the school, as first confirmed."""

    vendor_id: int
    vendor: str
    meals: int  # meals delivered by the confirmation
    confirmed_at: datetime
    confirmed_by: str
    repeated: bool  # confirmed before this call (this call changed nothing)


@dataclass(frozen=True)
class DayDelivered:
    """A school day's delivery confirmed, for the vendors asked."""

    school_id: int
    school: str
    day: date
    vendors: tuple[VendorDelivery, ...]
    orders_delivered: int  # orders with a meal of this day that are now delivered in full

    @property
    def meals(self) -> int:
        return sum(v.meals for v in self.vendors)

    @property
    def repeated(self) -> bool:
        return all(v.repeated for v in self.vendors)


@dataclass(frozen=True)
class _Asked:
    """The checked question: the school, the day, the vendors and their menu days there."""

    school_id: int
    school: str
    day: date
    vendors: dict[int, str]  # id -> name
    menu_days: dict[int, int]  # menu day id -> vendor id


def _ask(session: Session, *, school: str, day: str, vendor: str, now: datetime) -> _Asked:
    found = find_school(session, school)
    when = meal_date(day, "date")
    today = clock.today(now)
    if when > today:
        raise DomainError(
            "delivery_too_early", field="date", date=when.isoformat(), today=today.isoformat()
        )
    served = served_menu_days(session, found, when, vendor)
    vendors = {seller.id or 0: seller.name for _, seller in served}
    return _Asked(
        school_id=found.id or 0,
        school=found.name,
        day=when,
        vendors=vendors,
        menu_days={d.id or 0: seller.id or 0 for d, seller in served},
    )


def _confirmations(session: Session, asked: _Asked) -> dict[int, DayDelivery]:
    rows = session.exec(
        select(DayDelivery).where(
            col(DayDelivery.school_id) == asked.school_id,
            col(DayDelivery.meal_date) == asked.day,
            col(DayDelivery.vendor_id).in_(sorted(asked.vendors)),
        )
    ).all()
    return {row.vendor_id: row for row in rows}


def _answer(session: Session, asked: _Asked, new: set[int]) -> DayDelivered:
    """The confirmations of the vendors asked, and the orders of the day now delivered."""
    rows = _confirmations(session, asked)
    delivered = session.exec(
        select(func.count(func.distinct(col(Order.id))))
        .join(OrderLine, col(OrderLine.order_id) == Order.id)
        .where(
            col(OrderLine.menu_day_id).in_(sorted(asked.menu_days) or [0]),
            col(OrderLine.meal_date) == asked.day,
            col(OrderLine.status) == LineStatus.DELIVERED,
            col(Order.status) == OrderStatus.DELIVERED,
        )
    ).one()
    return DayDelivered(
        school_id=asked.school_id,
        school=asked.school,
        day=asked.day,
        vendors=tuple(
            VendorDelivery(
                vendor_id=vid,
                vendor=name,
                meals=rows[vid].meals,
                confirmed_at=rows[vid].confirmed_at,
                confirmed_by=rows[vid].confirmed_by,
                repeated=vid not in new,
            )
            for vid, name in asked.vendors.items()
            if vid in rows
        ),
        orders_delivered=int(delivered or 0),
    )


def _read(
    session: Session, *, school: str, day: str, vendor: str, now: datetime
) -> tuple[_Asked, list[int], DayDelivered | None]:
    """The question checked, the vendors not confirmed yet, and the answer when none is left."""
    asked = _ask(session, school=school, day=day, vendor=vendor, now=now)
    done = _confirmations(session, asked)
    todo = [vid for vid in asked.vendors if vid not in done]
    return asked, todo, None if todo else _answer(session, asked, set())


def _confirm(
    session: Session, *, asked: _Asked, todo: list[int], actor: str, now: datetime
) -> DayDelivered:
    """Write the confirmations of ``todo`` and deliver their meals (the module's one write)."""
    # First statement: the write. It takes SQLite's write lock before anything is read, and
    # the unique constraint refuses a second confirmation of the same day (IntegrityError).
    session.execute(
        insert(DayDelivery).values(
            [
                {
                    "school_id": asked.school_id,
                    "vendor_id": vid,
                    "meal_date": asked.day,
                    "meals": 0,
                    "confirmed_by": actor[:40],
                    "confirmed_at": now,
                }
                for vid in todo
            ]
        )
    )
    menu_days = sorted(m for m, vid in asked.menu_days.items() if vid in todo)
    order_ids = sorted(
        session.exec(
            select(col(OrderLine.order_id))
            .join(Order, col(Order.id) == OrderLine.order_id)
            .where(
                col(OrderLine.menu_day_id).in_(menu_days or [0]),
                col(OrderLine.meal_date) == asked.day,
                *booked_meals(),
            )
            .distinct()
        ).all()
    )
    # Locked in id order (as every writer of several orders does), then read as they are now.
    orders = list(
        session.exec(
            select(Order)
            .where(col(Order.id).in_(order_ids or [0]))
            .order_by(col(Order.id))
            .with_for_update()
        ).all()
    )
    paid = {o.id for o in orders if OrderStatus(o.status) in PAID_STATUSES}
    lines = list(
        session.exec(
            select(OrderLine)
            .where(col(OrderLine.order_id).in_(sorted(paid) or [0]))
            .order_by(col(OrderLine.id))
            .execution_options(populate_existing=True)
        ).all()
    )
    today_lines = [
        x
        for x in lines
        if x.menu_day_id in menu_days
        and x.meal_date == asked.day
        and x.status == LineStatus.ACTIVE
        and x.quantity > x.cancelled_quantity
    ]
    meals: dict[int, int] = {}
    for x in today_lines:
        meals[x.vendor_id] = meals.get(x.vendor_id, 0) + x.quantity - x.cancelled_quantity
    lifecycle.deliver_lines(
        session,
        [o for o in orders if o.id in paid],
        lines,
        {x.id or 0 for x in today_lines},
        now=now,
        actor=actor,
        data={"school_id": asked.school_id, "date": asked.day.isoformat()},
    )
    for vid, count in sorted(meals.items()):
        session.execute(
            update(DayDelivery)
            .where(
                col(DayDelivery.school_id) == asked.school_id,
                col(DayDelivery.vendor_id) == vid,
                col(DayDelivery.meal_date) == asked.day,
            )
            .values(meals=count)
            .execution_options(synchronize_session=False)
        )
    session.flush()
    return _answer(session, asked, set(todo))


async def confirm_delivery(
    *,
    school: str,
    day: str,
    vendor: str = "",
    actor: str = "operator",
    runtime: Runtime = APP,
) -> DayDelivered:
    """Confirm that ``school``'s meals of ``day`` were delivered by ``vendor`` (id or exact
    name; empty: every vendor serving the school that day). Refused before the day (Toronto),
    for an unknown school or vendor, or a vendor not serving the school that day. Safe to
    repeat: a day already confirmed answers its first confirmation."""
    engine = runtime.engine
    now = runtime.now()
    for _ in range(ATTEMPTS):
        asked, todo, answer = await run_in_transaction(
            _read, engine=engine, school=school, day=day, vendor=vendor, now=now
        )
        if answer is not None:
            return answer
        try:
            return await run_in_transaction(
                _confirm, engine=engine, asked=asked, todo=todo, actor=actor, now=now
            )
        except (IntegrityError, OperationalError):
            # Another confirmation of this day came first: read it back on the next round.
            continue
    raise DomainError("delivery_busy")
