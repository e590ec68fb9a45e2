"""Repeat last week: a child's (or siblings') meals of one week copied to the same weekdays of
another, each through the rules of adding a line (``booking.add_lines``).

Safe to run twice: a meal the child already has in the cart or in a paid order on the target
day is skipped (reported as such), so a second run adds nothing more. A meal (as composed)
that does not fit the child's dietary needs is skipped too, saying what it misses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlmodel import Session, col, select

from hotmeals.clock import now as utcnow
from hotmeals.db.models import (
    CartLine,
    CartLineAddOn,
    MenuDay,
    Order,
    OrderLine,
    OrderLineAddOn,
)
from hotmeals.domain import diet
from hotmeals.domain.dates import long_day
from hotmeals.domain.errors import DomainError, suppress_refusal
from hotmeals.domain.orders import KEPT_LINE_STATUSES, ORDERED_STATUSES
from hotmeals.i18n import t
from hotmeals.services import menu_cache
from hotmeals.services.children import child_diets, own_child
from hotmeals.services.ordering.booking import (
    Booked,
    Day,
    Outcome,
    Refused,
    add_lines,
    meal_names,
)
from hotmeals.services.ordering.days import (
    meal_date,
    week_start,
)
from hotmeals.services.ordering.diets import choice_marks
from hotmeals.services.ordering.labels import is_french
from hotmeals.services.ordering.lines import LineRequest, cart_count


@dataclass(frozen=True)
class Skipped:
    """A meal not copied because the child already has it in the cart or ordered that day
    (``code``: ``repeat_already_in_cart`` or ``repeat_already_ordered``), or because it does
    not fit the child's dietary needs (``diet``); ``reason`` in the parent's language."""

    child_id: int
    child_name: str
    date: date
    meal_id: int
    meal: str
    code: str
    reason: str
    source_date: Day


@dataclass(frozen=True)
class Repeated:
    """What copying one child's week did."""

    child_id: int
    source_week_start: date
    target_week_start: date
    outcome: Outcome  # what was added and what could not be (day and reason)
    skipped: tuple[Skipped, ...]


def repeat_week(
    *,
    session: Session,
    parent_id: int,
    child_id: int,
    source_week_start: str,
    target_week_start: str,
    lang: str = "en",
) -> Repeated:
    """``repeat_week_at`` now (the clock's)."""
    return repeat_week_at(
        session=session,
        parent_id=parent_id,
        child_id=child_id,
        source_week_start=source_week_start,
        target_week_start=target_week_start,
        lang=lang,
        now=utcnow(),
    )


def repeat_week_at(
    *,
    session: Session,
    parent_id: int,
    child_id: int,
    source_week_start: str,
    target_week_start: str,
    lang: str = "en",
    now: datetime,
) -> Repeated:
    """Copy the child's meals of the source week (ordered and not cancelled, delivered ones
    too, and the lines now in the cart) to the same weekdays of the target week (any day of
    each week, as ``YYYY-MM-DD`` or ``M/D/YYYY``), each through the cart's rules. A meal
    already in the cart or ordered for the child on the target day is skipped, so a second run
    adds nothing.
    Another parent's child, or none (``child_id`` 0), is 'not found'. ``now``: the calling
    request's one instant."""
    child = own_child(session, parent_id=parent_id, child_id=child_id)
    assert child.id is not None
    source = week_start(meal_date(source_week_start, "source_week_start"))
    target = week_start(meal_date(target_week_start, "target_week_start"))
    if source == target:
        raise DomainError("repeat_same_week", field="target_week_start")
    shift = target - source
    source_end, target_end = source + timedelta(days=6), target + timedelta(days=6)

    ordered = session.exec(
        select(OrderLine)
        .join(Order, col(Order.id) == OrderLine.order_id)
        .where(
            Order.parent_id == parent_id,
            col(Order.status).in_([str(s) for s in ORDERED_STATUSES]),
            OrderLine.child_id == child.id,
            col(OrderLine.status).in_([str(s) for s in KEPT_LINE_STATUSES]),
            OrderLine.quantity > OrderLine.cancelled_quantity,
            OrderLine.meal_date >= source,
            OrderLine.meal_date <= source_end,
        )
        .order_by(col(OrderLine.meal_date), col(OrderLine.id))
    ).all()
    in_cart = _in_cart(session, parent_id, child.id, source)
    order_addons: dict[int, list[int]] = {}
    if ordered:
        for line_id, addon_id in session.exec(
            select(col(OrderLineAddOn.order_line_id), col(OrderLineAddOn.addon_id)).where(
                col(OrderLineAddOn.order_line_id).in_([o.id for o in ordered])
            )
        ).all():
            order_addons.setdefault(line_id, []).append(addon_id)
    cart_addons: dict[int, list[int]] = {}
    if in_cart:
        for line_id, addon_id in session.exec(
            select(col(CartLineAddOn.cart_line_id), col(CartLineAddOn.addon_id)).where(
                col(CartLineAddOn.cart_line_id).in_([c.id for c, _ in in_cart])
            )
        ).all():
            cart_addons.setdefault(line_id, []).append(addon_id)

    choices: dict[tuple[date, int], LineRequest] = {}
    for o in ordered:
        choices.setdefault(
            (o.meal_date, o.meal_id),
            LineRequest(
                child_id=child.id,
                meal_id=o.meal_id,
                portion_id=o.portion_id,
                date=(o.meal_date + shift).isoformat(),
                quantity=o.quantity - o.cancelled_quantity,
                menu_option_id=o.menu_option_id,
                meal_option_id=o.meal_option_id,
                addons=order_addons.get(o.id or 0, []),
                special_note=o.special_note,
            ),
        )
    for c, day in in_cart:
        choices.setdefault(
            (day, c.meal_id),
            LineRequest(
                child_id=child.id,
                meal_id=c.meal_id,
                portion_id=c.portion_id,
                date=(day + shift).isoformat(),
                quantity=c.quantity,
                menu_option_id=c.menu_option_id,
                meal_option_id=c.meal_option_id,
                addons=cart_addons.get(c.id or 0, []),
                special_note=c.special_note,
            ),
        )
    if not choices:
        raise DomainError(
            "repeat_week_empty", field="source_week_start", date=long_day(source, lang)
        )

    there_in_cart = {(day, c.meal_id) for c, day in _in_cart(session, parent_id, child.id, target)}
    there_ordered = set(
        session.exec(
            select(col(OrderLine.meal_date), col(OrderLine.meal_id))
            .join(Order, col(Order.id) == OrderLine.order_id)
            .where(
                col(Order.status).in_([str(s) for s in ORDERED_STATUSES]),
                OrderLine.child_id == child.id,
                col(OrderLine.status).in_([str(s) for s in KEPT_LINE_STATUSES]),
                OrderLine.meal_date >= target,
                OrderLine.meal_date <= target_end,
            )
        ).all()
    )
    names = meal_names(session, choices.values())
    needs = child_diets(session, [child.id]).get(child.id, frozenset())
    marks = menu_cache.catalog(session).diets
    french = is_french(lang)
    requests: list[LineRequest] = []
    sources: list[date] = []
    skipped: list[Skipped] = []
    for (day, meal_id), request in sorted(choices.items()):
        to_day = day + shift
        meal = names.get(meal_id)
        meal_name = (meal.name_fr if french else meal.name_en) if meal else ""
        reason = None
        said = ""
        missing = diet.unmet(
            needs,
            choice_marks(
                marks,
                meal_id=meal_id,
                menu_option_id=request.menu_option_id,
                meal_option_id=request.meal_option_id,
                addon_ids=request.addons,
            ),
        )
        if (to_day, meal_id) in there_in_cart:
            reason = "repeat_already_in_cart"
        elif (to_day, meal_id) in there_ordered:
            reason = "repeat_already_ordered"
        elif missing:  # a preference: the parent can still book it, after the notice
            reason = "diet"
            said = t(
                "diet_skipped",
                lang,
                meal=meal_name,
                whose=diet.whose(child.first_name, lang),
                missing=diet.missing_text(missing, lang),
            )
        if reason:
            skipped.append(
                Skipped(
                    child_id=child.id,
                    child_name=child.first_name,
                    date=to_day,
                    meal_id=meal_id,
                    meal=meal_name,
                    code=reason,
                    reason=said or t(reason, lang),
                    source_date=day,
                )
            )
            continue
        requests.append(request)
        sources.append(day)
    if requests:
        outcome = add_lines(
            session,
            parent_id=parent_id,
            requests=requests,
            lang=lang,
            now=now,
            sources=sources,
            names=names,
            drop_conflicting_extras=True,
        )
    else:
        outcome = Outcome((), (), cart_count(session, parent_id))
    return Repeated(child.id, source, target, outcome, tuple(skipped))


def _in_cart(
    session: Session, parent_id: int, child_id: int, monday: date
) -> Sequence[tuple[CartLine, date]]:
    """The child's lines in the parent's cart for the week of ``monday``, with their day."""
    return session.exec(
        select(CartLine, col(MenuDay.meal_date))
        .join(MenuDay, col(MenuDay.id) == CartLine.menu_day_id)
        .where(
            CartLine.parent_id == parent_id,
            CartLine.child_id == child_id,
            MenuDay.meal_date >= monday,
            MenuDay.meal_date <= monday + timedelta(days=6),
        )
        .order_by(col(MenuDay.meal_date), col(CartLine.id))
    ).all()


@dataclass(frozen=True)
class RepeatedWeeks:
    """What copying the week did for several children: the lines of all of them, and the
    first names of the children with nothing chosen that week (``empty``)."""

    added: tuple[Booked, ...]
    refused: tuple[Refused, ...]
    skipped: tuple[Skipped, ...]
    empty: tuple[str, ...]
    cart_count: int


def repeat_weeks(
    *,
    session: Session,
    parent_id: int,
    child_ids: Sequence[int],
    source_week_start: str,
    target_week_start: str,
    lang: str = "en",
) -> RepeatedWeeks:
    """``repeat_week`` for several of the parent's children (siblings) in one transaction;
    a child with nothing chosen that week is listed in ``empty`` (its name), not an error.
    Another parent's child refuses the whole call."""
    if not child_ids or len(child_ids) > 10:
        raise DomainError("child_not_found", field="child_id")
    added: list[Booked] = []
    refused: list[Refused] = []
    skipped: list[Skipped] = []
    empty: list[str] = []
    count = None
    now = utcnow()  # one instant for all the children
    for child_id in child_ids:
        one = None
        with suppress_refusal("repeat_week_empty"):
            one = repeat_week_at(
                session=session,
                parent_id=parent_id,
                child_id=child_id,
                source_week_start=source_week_start,
                target_week_start=target_week_start,
                lang=lang,
                now=now,
            )
        if one is None:
            child = own_child(session, parent_id=parent_id, child_id=child_id)
            empty.append(child.first_name)
            continue
        added += one.outcome.added
        refused += one.outcome.refused
        skipped += one.skipped
        count = one.outcome.cart_count
    return RepeatedWeeks(
        added=tuple(added),
        refused=tuple(refused),
        skipped=tuple(skipped),
        empty=tuple(empty),
        cart_count=cart_count(session, parent_id) if count is None else count,
    )
