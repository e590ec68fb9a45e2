"""Manage one meal: the parent's upcoming meals, one meal's detail, the dates it can move to,
the price of a move, and the move itself (ModifyMeal: a change of kind ``move`` with one step,
confirmed at once through ``change_confirm``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

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
from hotmeals.domain.orders import KEPT_LINE_STATUSES, ORDERED_STATUSES
from hotmeals.i18n import normalize_lang
from hotmeals.services import credit
from hotmeals.services.ordering.changing.change_confirm import confirm, repeat
from hotmeals.services.ordering.changing.change_plan import (
    DRAFT,
    DROPPED,
    MOVE,
    MOVE_STEP,
    ChangeLoaded,
    ChangeQuote,
    ensure_change_open,
    ensure_changeable,
    line_order,
    load_for_change,
    new_change,
    plan_change,
    quote_of,
)
from hotmeals.services.ordering.changing.change_result import ChangeResult
from hotmeals.services.ordering.days import (
    DATES_DEFAULT_DAYS,
    closed_day,
    cutoff_rule,
    meal_date,
)
from hotmeals.services.ordering.labels import meal_name, order_day, size_label
from hotmeals.services.ordering.loaded_order import (
    active_quantity,
    line_closes,
    refuse_delivered,
)
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.submissions import checked_key
from hotmeals.services.transaction import run_in_transaction


@dataclass(frozen=True)
class MealView:
    """One of the parent's active meals (an order line of a paid order): whose, which day,
    which meal (``name`` and ``size_label`` in the parent's language), its options, add-ons,
    note, active quantity and price as sold, its order, whether it was moved (from
    ``moved_from_date``) and whether it can still change (its cut-off ahead)."""

    order_line_id: int
    order_id: int
    order_number: str
    child_id: int
    child_name: str
    meal_date: date
    meal_id: int
    name: str
    image: str
    size: str
    size_label: str
    menu_option: str | None
    meal_option: str | None
    addons: tuple[str, ...]
    special_note: str
    quantity: int
    price_cents: int
    vendor: str
    status: str  # active, or moved
    moved_from_date: date | None
    cutoff_at: datetime
    can_change: bool


@dataclass(frozen=True)
class MoveDay:
    """A day a meal can move to: its menu day, its cut-off, whether the same meal is on it."""

    meal_date: date
    menu_day_id: int
    cutoff_at: datetime
    meal_served: bool


@dataclass(frozen=True)
class MoveDates:
    """The days the meal ``order_line_id`` (on ``date``, closing at ``cutoff_at``, served by
    ``vendor``) can move to."""

    order_line_id: int
    meal_date: date
    cutoff_at: datetime
    vendor: str
    dates: tuple[MoveDay, ...]


def _meal_rows(session: Session, *, parent_id: int, line_id: int | None, today: date) -> list:
    query = (
        select_rows(OrderLine, Order, Vendor, Child, Meal)
        .join(Order, col(Order.id) == OrderLine.order_id)
        .join(Vendor, col(Vendor.id) == OrderLine.vendor_id)
        .join(Child, col(Child.id) == OrderLine.child_id)
        .outerjoin(Meal, col(Meal.id) == OrderLine.meal_id)
        .where(
            col(Order.parent_id) == parent_id,
            # a delivered meal is found (and refused by name), never listed (no meal left)
            col(Order.status).in_([str(s) for s in ORDERED_STATUSES]),
            col(OrderLine.status).in_([str(s) for s in KEPT_LINE_STATUSES]),
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


def _meal_view(row: tuple, addons: list[OrderLineAddOn], lang: str, now: datetime) -> MealView:
    line, order, vendor, child, meal = row
    closes = line_closes(line, vendor)
    return MealView(
        order_line_id=line.id or 0,
        order_id=order.id or 0,
        order_number=order.number,
        child_id=child.id or 0,
        child_name=f"{child.first_name} {child.last_name}",
        meal_date=line.meal_date,
        meal_id=line.meal_id,
        name=meal_name(meal, line.meal_name, lang),
        image=meal.image if meal else "",
        size=line.size,
        size_label=size_label(line.size, lang),
        menu_option=line.menu_option_name,
        meal_option=line.meal_option_name,
        addons=tuple(a.name for a in addons),
        special_note=line.special_note or "",
        quantity=active_quantity(line),
        price_cents=line.line_total_cents,
        vendor=vendor.name,
        status="moved" if line.moved_from_date else "active",
        moved_from_date=line.moved_from_date,
        cutoff_at=closes,
        can_change=before_cutoff(closes, now),
    )


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
    *, session: Session, parent_id: int, child_id: int | None = None, lang: str = "en"
) -> list[MealView]:
    """GetMealsList: the parent's upcoming meals (from today in Toronto), one per active
    order line of a paid order, by date (``child_id``: that child's only): child, meal, size,
    options, add-ons, note, quantity, price, order number, whether it was moved and whether it
    can still change (cut-off). Two statements whatever the number of meals (three with a
    ``child_id``, which must be one of the parent's children: ``child_not_found``)."""
    lang = normalize_lang(lang)
    now = clock.now()
    child = child_id
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
    return [_meal_view(r, addons.get(r[0].id, []), lang, now) for r in rows]


def _own_meal(
    session: Session, *, parent_id: int, order_line_id: int, now: datetime, lang: str
) -> tuple:
    rows = _meal_rows(session, parent_id=parent_id, line_id=order_line_id, today=clock.today(now))
    if rows:
        refuse_delivered(rows[0][0], lang)
    if not rows or active_quantity(rows[0][0]) <= 0:
        raise DomainError("order_change_line_not_found", field="order_line_id")
    return rows[0]


def meal_order_detail(
    *, session: Session, parent_id: int, order_line_id: int, lang: str = "en"
) -> MealView:
    """MealOrderDetail: one of the parent's active meals (as in GetMealsList). Another
    parent's line, a cancelled one or an unknown id: 'not found'."""
    lang = normalize_lang(lang)
    now = clock.now()
    row = _own_meal(session, parent_id=parent_id, order_line_id=order_line_id, now=now, lang=lang)
    addons = _addons_of(session, [row[0].id])
    return _meal_view(row, addons.get(row[0].id, []), lang, now)


def get_dates_for_modify_meal(
    *, session: Session, parent_id: int, order_line_id: int, lang: str = "en"
) -> MoveDates:
    """GetDatesForModifyMeal: the dates the meal can move to: days on which the same vendor
    serves the child's school, open, before their cut-off, other than the meal's own day, in
    the next eight weeks; each says whether the same meal is on that day's menu (a move needs
    it). The meal's own cut-off passed: refused with the day and the time. Four statements."""
    lang = normalize_lang(lang)
    now = clock.now()
    row = _own_meal(session, parent_id=parent_id, order_line_id=order_line_id, now=now, lang=lang)
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
            MoveDay(
                meal_date=day.meal_date,
                menu_day_id=day.id or 0,
                cutoff_at=target_closes,
                meal_served=day.id in served,
            )
        )
    return MoveDates(
        order_line_id=line.id or 0,
        meal_date=line.meal_date,
        cutoff_at=closes,
        vendor=vendor.name,
        dates=tuple(out),
    )


@dataclass(frozen=True)
class _MealMove:
    """What the parent asks: move the meal ``order_line_id`` to ``new_date`` (the form's
    text, checked after the meal)."""

    parent_id: int
    order_line_id: int
    new_date: str
    lang: str


def _move_step(session: Session, *, move: _MealMove) -> tuple[int, int]:
    """Check the move and write it as a change of kind ``move`` (confirmed by the caller):
    the order's id and the change's."""
    now = clock.now()
    order, _loaded, line, day = _move_target(session, move, now=now, lock=True)
    change = new_change(session, order, kind=MOVE, now=now)
    session.add(_move_line(change.id or 0, line, day))
    session.flush()
    return order.id or 0, change.id or 0


def _move_line(change_id: int, line: OrderLine, day: MenuDay) -> OrderChangeLine:
    return OrderChangeLine(
        change_id=change_id,
        action=MOVE_STEP,
        order_line_id=line.id,
        quantity=max(active_quantity(line), 1),
        menu_day_id=day.id,
    )


def quote_move(
    *, session: Session, parent_id: int, order_line_id: int, new_date: str, lang: str = "en"
) -> ChangeQuote:
    """What moving the meal ``order_line_id`` to ``new_date`` would cost or give back, before
    the parent confirms: the same checks and the same pricing as ``modify_meal`` (so the
    amount shown is the amount then charged or refunded), with nothing written. Refuses as
    ``modify_meal`` would. Answers the quote: ``difference_cents`` (> 0 to pay, < 0 to
    refund) and what family credit and the card would pay of an increase."""
    lang = normalize_lang(lang)
    now = clock.now()
    move = _MealMove(parent_id, order_line_id, new_date, lang)
    _order, loaded, line, day = _move_target(session, move, now=now, lock=False)
    plan, _ = plan_change(
        session, loaded, [_move_line(0, line, day)], lang=lang, now=now, strict=True
    )
    return quote_of(plan, credit_balance=credit.balance(session, parent_id))


def _move_target(
    session: Session, move: _MealMove, *, now: datetime, lock: bool
) -> tuple[Order, ChangeLoaded, OrderLine, MenuDay]:
    """The parent's line and the day it would move to, every move rule checked."""
    parent_id, order_line_id, lang = move.parent_id, move.order_line_id, move.lang
    order = line_order(session, parent_id=parent_id, order_line_id=order_line_id, lock=lock)
    loaded = load_for_change(session, order)
    line = loaded.line(order_line_id)
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


def _move_repeat(session: Session, *, parent_id: int, order_line_id: int, key: str) -> int | None:
    found = session.exec(
        select(col(OrderChange.id))
        .join(Order, col(Order.id) == OrderChange.order_id)
        .join(OrderLine, col(OrderLine.order_id) == Order.id)
        .where(
            col(OrderLine.id) == order_line_id,
            col(Order.parent_id) == parent_id,
            col(OrderChange.request_key) == key,
        )
    ).first()
    return found


async def modify_meal(
    *,
    parent_id: int,
    order_line_id: int,
    new_date: str,
    lang: str = "en",
    runtime: Runtime = APP,
    request_key: str | None = None,
    card_id: int | None = None,
    save_card: bool = False,
    refund_to: str = "",
    use_credit: bool = True,
) -> ChangeResult:
    """ModifyMeal: move one meal (its active quantity) to ``new_date``: a day on which the
    same vendor serves the child's school with the same meal, open and before its cut-off, the
    meal's own cut-off still ahead (otherwise refused with a message saying which). Priced at
    today's catalogue price of the same meal: a difference is refunded at once (to the card or
    to family credit: ``refund_to``; "": the family's standing choice), or paid first (family
    credit first, ``use_credit``; the saved card ``card_id`` or the Lightbox: ``status``
    ``pay``, then ``complete_change_payment``). The line keeps its id and shows as moved.
    ``request_key``: the same key again answers what the first call did."""
    lang = normalize_lang(lang)
    engine = runtime.engine
    key = checked_key(request_key)
    if key:
        seen = await run_in_transaction(
            _move_repeat, engine=engine, parent_id=parent_id, order_line_id=order_line_id, key=key
        )
        if seen is not None:  # a repeat: what the first did (the same Lightbox session)
            return await repeat(seen, parent_id, key, runtime=runtime)
    order_id, change_id = await run_in_transaction(
        _move_step, engine=engine, move=_MealMove(parent_id, order_line_id, new_date, lang)
    )
    try:
        return await confirm(
            parent_id=parent_id,
            order_id=order_id,
            change_id=change_id,
            lang=lang,
            runtime=runtime,
            request_key=request_key,
            card_id=card_id,
            save_card=save_card,
            refund_to=refund_to,
            use_credit=use_credit,
        )
    except DomainError:
        await run_in_transaction(_drop_draft_move, engine=engine, change_id=change_id)
        raise


def _drop_draft_move(session: Session, *, change_id: int) -> None:
    change = session.get(OrderChange, change_id)
    if change is not None and change.state == DRAFT and change.kind == MOVE:
        change.state = DROPPED
        change.updated_at = clock.now()
        session.add(change)
