"""Manage one meal: the parent's upcoming meals, one meal's detail, the dates it can move to,
the price of a move, and the move itself (ModifyMeal: a change of kind ``move`` with one step,
confirmed at once through ``change_confirm``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import select as select_rows
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import (
    Child,
    Meal,
    MenuDay,
    MenuDayMeal,
    Order,
    OrderChange,
    OrderChangeLine,
    OrderLine,
    OrderLineAddOn,
    Vendor,
)
from hotmeals.domain.cutoff import before_cutoff, cutoff_at
from hotmeals.domain.dates import long_moment
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import PAID_STATUSES, LineStatus
from hotmeals.i18n import normalize_lang
from hotmeals.services import credit
from hotmeals.services.ordering.changing.change_confirm import ChangePaying, confirm, repeat
from hotmeals.services.ordering.changing.change_plan import (
    DRAFT,
    DROPPED,
    MOVE,
    MOVE_STEP,
    ChangeLoaded,
    difference_out,
    ensure_change_open,
    ensure_changeable,
    line_order,
    load_for_change,
    new_change,
    parse_id,
    plan_change,
)
from hotmeals.services.ordering.changing.change_result import ChangeResult
from hotmeals.services.ordering.days import (
    DATES_DEFAULT_DAYS,
    closed_day,
    cutoff_rule,
    meal_date,
)
from hotmeals.services.ordering.labels import meal_name, order_day, size_label
from hotmeals.services.ordering.loaded_order import active_quantity, line_closes
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.submissions import checked_key
from hotmeals.services.transaction import run_in_transaction

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from Python 3.12


def _meal_rows(session: Session, *, parent_id: int, line_id: int | None, today: date) -> list:
    query = (
        select_rows(OrderLine, Order, Vendor, Child, Meal)
        .join(Order, col(Order.id) == OrderLine.order_id)
        .join(Vendor, col(Vendor.id) == OrderLine.vendor_id)
        .join(Child, col(Child.id) == OrderLine.child_id)
        .outerjoin(Meal, col(Meal.id) == OrderLine.meal_id)
        .where(
            col(Order.parent_id) == parent_id,
            col(Order.status).in_([str(s) for s in PAID_STATUSES]),
            col(OrderLine.status) == LineStatus.ACTIVE,
        )
    )
    if line_id is not None:
        query = query.where(col(OrderLine.id) == line_id)
    else:
        query = query.where(col(OrderLine.meal_date) >= today)
    return list(
        session.execute(
            query.order_by(col(OrderLine.meal_date), col(Child.first_name), col(OrderLine.id))
        ).all()
    )


def _meal_out(row: tuple, addons: list[OrderLineAddOn], lang: str, now: datetime) -> dict:
    line, order, vendor, child, meal = row
    closes = line_closes(line, vendor)
    return {
        "order_line_id": line.id,
        "order_id": order.id,
        "order_number": order.number,
        "child_id": child.id,
        "child_name": f"{child.first_name} {child.last_name}",
        "date": line.meal_date.isoformat(),
        "day": order_day(line.meal_date, lang),
        "meal_id": line.meal_id,
        "name": meal_name(meal, line.meal_name, lang),
        "image": meal.image if meal else "",
        "size": line.size,
        "size_label": size_label(line.size, lang),
        "menu_option": line.menu_option_name,
        "meal_option": line.meal_option_name,
        "addons": [a.name for a in addons],
        "special_note": line.special_note or "",
        "quantity": active_quantity(line),
        "price_cents": line.line_total_cents,
        "price": format_money(line.line_total_cents, lang),
        "vendor": vendor.name,
        "status": "moved" if line.moved_from_date else "active",
        "moved_from_date": line.moved_from_date.isoformat() if line.moved_from_date else None,
        "cutoff_at": closes.isoformat(),
        "can_change": before_cutoff(closes, now),
    }


def _addons_of(session: Session, line_ids: list[int]) -> dict[int, list[OrderLineAddOn]]:
    out: dict[int, list[OrderLineAddOn]] = {}
    if line_ids:
        for row in session.exec(
            select(OrderLineAddOn)
            .where(col(OrderLineAddOn.order_line_id).in_(line_ids))
            .order_by(col(OrderLineAddOn.id))
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
    now = clock.now()
    child = None if child_id in (None, "") else parse_id(child_id, "child_id", "child_not_found")
    if child is not None:
        # Another parent's child (or none) is not found, not an empty list.
        own = session.exec(
            select(col(Child.id)).where(col(Child.id) == child, col(Child.parent_id) == parent_id)
        ).first()
        if own is None:
            raise DomainError("child_not_found", field="child_id")
    rows = [
        r
        for r in _meal_rows(session, parent_id=parent_id, line_id=None, today=clock.today(now))
        if active_quantity(r[0]) > 0 and (child is None or r[0].child_id == child)
    ]
    addons = _addons_of(session, [r[0].id for r in rows])
    return [_meal_out(r, addons.get(r[0].id, []), lang, now) for r in rows]


def _own_meal(session: Session, *, parent_id: int, order_line_id: object, now: datetime) -> tuple:
    key = parse_id(order_line_id, "order_line_id", "order_change_line_not_found")
    rows = _meal_rows(session, parent_id=parent_id, line_id=key, today=clock.today(now))
    if not rows or active_quantity(rows[0][0]) <= 0:
        raise DomainError("order_change_line_not_found", field="order_line_id")
    return rows[0]


def meal_order_detail(
    *, session: Session, parent_id: int, order_line_id: object, lang: str = "en"
) -> dict:
    """MealOrderDetail: one of the parent's active meals (as in GetMealsList). Another
    parent's line, a cancelled one or an unknown id: 'not found'."""
    lang = normalize_lang(lang)
    now = clock.now()
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
    now = clock.now()
    row = _own_meal(session, parent_id=parent_id, order_line_id=order_line_id, now=now)
    line, _, vendor, child, _ = row
    closes = line_closes(line, vendor)
    ensure_change_open(line, closes, now, lang)
    today = clock.today(now)
    days = session.exec(
        select(MenuDay)
        .where(
            col(MenuDay.school_id) == child.school_id,
            col(MenuDay.vendor_id) == line.vendor_id,
            col(MenuDay.meal_date) >= today,
            col(MenuDay.meal_date) <= today + timedelta(days=DATES_DEFAULT_DAYS),
            col(MenuDay.meal_date) != line.meal_date,
            col(MenuDay.is_closed) == False,  # noqa: E712 - SQL
        )
        .order_by(col(MenuDay.meal_date))
    ).all()
    served = set(
        session.exec(
            select(col(MenuDayMeal.menu_day_id)).where(
                col(MenuDayMeal.menu_day_id).in_([d.id for d in days] or [0]),
                col(MenuDayMeal.meal_id) == line.meal_id,
            )
        ).all()
    )
    rule = cutoff_rule(vendor)
    out = []
    for day in days:
        target_closes = cutoff_at(rule, day.meal_date)
        if not before_cutoff(target_closes, now) or not vendor.is_active:
            continue
        out.append(
            {
                "date": day.meal_date.isoformat(),
                "day": order_day(day.meal_date, lang),
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


@dataclass(frozen=True)
class _MealMove:
    """What the parent asks: move the meal ``order_line_id`` to ``new_date`` (raw values)."""

    parent_id: int
    order_line_id: object
    new_date: object
    lang: str


def _move_step(session: Session, *, move: _MealMove) -> dict:
    """Check the move and write it as a change of kind ``move`` (confirmed by the caller)."""
    now = clock.now()
    order, _loaded, line, day = _move_target(session, move, now=now, lock=True)
    change = new_change(session, order, kind=MOVE, now=now)
    session.add(_move_line(change.id or 0, line, day))
    session.flush()
    return {"order_id": order.id, "change_id": change.id}


def _move_line(change_id: int, line: OrderLine, day: MenuDay) -> OrderChangeLine:
    return OrderChangeLine(
        change_id=change_id,
        action=MOVE_STEP,
        order_line_id=line.id,
        quantity=max(active_quantity(line), 1),
        menu_day_id=day.id,
    )


def quote_move(
    *, session: Session, parent_id: int, order_line_id: object, new_date: object, lang: str = "en"
) -> dict:
    """What moving the meal ``order_line_id`` to ``new_date`` would cost or give back, before
    the parent confirms: the same checks and the same pricing as ``modify_meal`` (so the
    amount shown is the amount then charged or refunded), with nothing written. Refuses as
    ``modify_meal`` would. Answers ``change_plan.difference_out``: ``difference_cents`` (> 0 to pay,
    < 0 to refund), ``to_pay``/``to_refund`` formatted in ``lang`` and a ``message``."""
    lang = normalize_lang(lang)
    now = clock.now()
    move = _MealMove(parent_id, order_line_id, new_date, lang)
    _order, loaded, line, day = _move_target(session, move, now=now, lock=False)
    plan, _ = plan_change(
        session, loaded, [_move_line(0, line, day)], lang=lang, now=now, strict=True
    )
    return difference_out(plan, lang, credit_balance=credit.balance(session, parent_id))


def _move_target(
    session: Session, move: _MealMove, *, now: datetime, lock: bool
) -> tuple[Order, ChangeLoaded, OrderLine, MenuDay]:
    """The parent's line and the day it would move to, every move rule checked."""
    parent_id, order_line_id, lang = move.parent_id, move.order_line_id, move.lang
    order = line_order(session, parent_id=parent_id, order_line_id=order_line_id, lock=lock)
    loaded = load_for_change(session, order)
    line = loaded.line(parse_id(order_line_id, "order_line_id", "order_change_line_not_found"))
    if line is None:
        raise DomainError("order_change_line_not_found", field="order_line_id")
    ensure_changeable(loaded, line, now, lang)
    target = meal_date(move.new_date, "date")
    if target == line.meal_date:
        raise DomainError("order_change_same_date", field="date")
    child = loaded.children[line.child_id]
    day = session.exec(
        select(MenuDay).where(
            col(MenuDay.school_id) == child.school_id,
            col(MenuDay.vendor_id) == line.vendor_id,
            col(MenuDay.meal_date) == target,
        )
    ).first()
    vendor = loaded.vendors[line.vendor_id]
    if day is None:
        raise DomainError(
            "order_change_other_vendor",
            field="date",
            vendor=vendor.name,
            day=order_day(target, lang),
        )
    if day.is_closed or not vendor.is_active:
        raise closed_day(day, day=target, lang=lang)
    target_closes = cutoff_at(cutoff_rule(vendor), target)
    if not before_cutoff(target_closes, now):
        raise DomainError(
            "order_change_target_closed",
            field="date",
            day=order_day(target, lang),
            when=long_moment(target_closes, lang),
        )
    served = session.exec(
        select(col(MenuDayMeal.meal_id)).where(
            col(MenuDayMeal.menu_day_id) == day.id, col(MenuDayMeal.meal_id) == line.meal_id
        )
    ).first()
    if served is None:
        raise DomainError(
            "order_change_meal_not_served",
            field="date",
            meal=meal_name(loaded.meals.get(line.meal_id), line.meal_name, lang),
            day=order_day(target, lang),
        )
    return order, loaded, line, day


def _move_repeat(
    session: Session, *, parent_id: int, order_line_id: object, key: str
) -> int | None:
    line_key = parse_id(order_line_id, "order_line_id", "order_change_line_not_found")
    found = session.exec(
        select(col(OrderChange.id))
        .join(Order, col(Order.id) == OrderChange.order_id)
        .join(OrderLine, col(OrderLine.order_id) == Order.id)
        .where(
            col(OrderLine.id) == line_key,
            col(Order.parent_id) == parent_id,
            col(OrderChange.request_key) == key,
        )
    ).first()
    return found


async def modify_meal(
    *,
    parent_id: int,
    order_line_id: object,
    new_date: object,
    lang: str = "en",
    runtime: Runtime = APP,
    **paying: Unpack[ChangePaying],
) -> ChangeResult:
    """ModifyMeal: move one meal (its active quantity) to ``new_date``: a day on which the
    same vendor serves the child's school with the same meal, open and before its cut-off, the
    meal's own cut-off still ahead (otherwise refused with a message saying which). Priced at
    today's catalogue price of the same meal: a difference is refunded at once (to the card or
    to family credit: ``refund_to``; None: the family's standing choice), or paid first
    (saved card ``card_id`` or the Lightbox: ``status`` ``pay``, then
    ``complete_change_payment``). The line keeps its id and shows as moved."""
    lang = normalize_lang(lang)
    engine = runtime.engine
    key = checked_key(paying.get("request_key"))
    if key:
        seen = await run_in_transaction(
            _move_repeat, engine=engine, parent_id=parent_id, order_line_id=order_line_id, key=key
        )
        if seen is not None:  # a repeat: what the first did (the same Lightbox session)
            return await repeat(seen, parent_id, key, lang, runtime=runtime)
    step = await run_in_transaction(
        _move_step, engine=engine, move=_MealMove(parent_id, order_line_id, new_date, lang)
    )
    try:
        return await confirm(
            parent_id=parent_id,
            order_id=step["order_id"],
            change_id=step["change_id"],
            lang=lang,
            runtime=runtime,
            **paying,
        )
    except DomainError:
        await run_in_transaction(_drop_draft_move, engine=engine, change_id=step["change_id"])
        raise


def _drop_draft_move(session: Session, *, change_id: int) -> None:
    change = session.get(OrderChange, change_id)
    if change is not None and change.state == DRAFT and change.kind == MOVE:
        change.state = DROPPED
        change.updated_at = clock.now()
        session.add(change)
