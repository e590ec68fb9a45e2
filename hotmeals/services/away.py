"""A child away ("Emma is away" from one day to another, for one or several children): every
booked meal in those days that is still before its cut-off is cancelled with its refund (to
the card or to family credit: as asked, else the family's standing choice), in one step; a meal
past its cut-off is delivered anyway, and the parent may give it to the school's
student-nutrition program (a ``MealDonation`` row: no refund, counted in the give-back
figures, ``services/giveback.py``).

Two calls, so the parent confirms once, seeing the total: ``away_preview`` (nothing written)
and ``mark_away``, repeat-safe by its request key (an ``AwayRequest`` row, unique per parent
and key, written first: a retry or a second tap answers the first call's answer). The cancels
are ``cancel.apply_cancel`` per order (kind ``away``), under each order's row lock, in the one
transaction; the card refunds are sent after the commit (``cancel.send_planned_refunds``), a
refusal left to the payment service's refund retries. The same transaction stores the days
(a ``ChildAway`` row per child, ``away_days.record_away``): booking them is refused from then
on; marking days away with no meal booked is allowed (it only stores them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, TypedDict

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import (
    AwayRequest,
    Child,
    Meal,
    MealDonation,
    MenuDay,
    Order,
    OrderLine,
    Vendor,
)
from hotmeals.domain.credit import RefundDestination
from hotmeals.domain.cutoff import before_cutoff
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import normalize_lang, t, tn
from hotmeals.services.away_days import record_away
from hotmeals.services.booked import booked_meals
from hotmeals.services.ordering.cancelling.cancel import (
    CancelRequest,
    apply_cancel,
    check_refund_to,
    check_request_key,
    credited_cents,
    refund_destination,
    send_planned_refunds,
)
from hotmeals.services.ordering.cancelling.cancel_order import leave_cancel_cart
from hotmeals.services.ordering.cancelling.refund_plan import refund_plan
from hotmeals.services.ordering.days import meal_date
from hotmeals.services.ordering.labels import is_french, meal_name
from hotmeals.services.ordering.loaded_order import (
    active_quantity,
    line_closes,
    load_order,
    load_orders,
)
from hotmeals.services.ordering.mails import refund_notice
from hotmeals.services.payments import PlannedRefund
from hotmeals.services.payments.runtime import actor_of
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from Python 3.12

AWAY_MAX_DAYS = 62  # two months at most in one step
AWAY_KIND = "away"  # OrderCancellation.kind


@dataclass(frozen=True)
class AwayAsk:
    """The checked question: which children, which days."""

    child_ids: list[int]
    first: date
    last: date


class AwayDays(TypedDict):
    """The question as the browser or the API sends it: which children, from which day to
    which (both included)."""

    child_ids: list[int]
    from_date: str
    to_date: str


def check_ask(session: Session, *, parent_id: int, **days: Unpack[AwayDays]) -> AwayAsk:
    """The children (each the parent's, active) and the days, checked (one statement)."""
    child_ids = days["child_ids"]
    if not child_ids:
        raise DomainError("away_children_required", field="child_ids")
    ids = sorted({c for c in child_ids if isinstance(c, int) and not isinstance(c, bool)})
    if len(ids) != len(set(child_ids)):
        raise DomainError("child_not_found", field="child_ids")
    own = session.exec(
        select(col(Child.id)).where(
            col(Child.id).in_(ids), col(Child.parent_id) == parent_id, col(Child.is_active)
        )
    ).all()
    if sorted(x for x in own if x is not None) != ids:
        raise DomainError("child_not_found", field="child_ids")
    start, end = meal_date(days["from_date"], "from_date"), meal_date(days["to_date"], "to_date")
    if end < start or (end - start).days >= AWAY_MAX_DAYS:
        raise DomainError("away_range_invalid", field="to_date", max=AWAY_MAX_DAYS)
    if start < clock.today():  # a day gone by: nothing left to cancel or to keep from booking
        raise DomainError("away_range_past", field="from_date")
    return AwayAsk(child_ids=ids, first=start, last=end)


@dataclass(frozen=True)
class AwayMeal:
    """A booked meal of the children in the days, and what marking them away does to it."""

    order_line_id: int
    order_id: int
    child_id: int
    child_name: str
    day: date
    name_en: str  # the catalogue's name (as sold, without one)
    name_fr: str
    quantity: int
    state: str  # cancel (before its cut-off), past, or donated (past, given to the school)

    def name(self, lang: str) -> str:
        return self.name_fr if is_french(lang) else self.name_en


@dataclass
class AwayPlan:
    """What marking the children away would do, now."""

    cancel: dict[int, dict[int, int]]  # order id → {line id: quantity}: before the cut-off
    past: list[tuple[OrderLine, int]]  # lines past their cut-off, with their school
    donated: set[int]  # of those, the lines already given to the school
    refund_cents: int
    items: list[AwayMeal]


def plan_away(session: Session, *, parent_id: int, ask: AwayAsk, now: datetime) -> AwayPlan:
    """Every booked meal of the children in the days: cancelled (before its cut-off) or past
    its cut-off (may be given to the school); the refund the cancels would make (per order,
    ``refund_plan`` on its stored terms). A fixed number of statements."""
    rows = session.exec(
        select(OrderLine, Vendor, MenuDay.school_id)
        .join(Order, col(Order.id) == OrderLine.order_id)
        .join(Vendor, col(Vendor.id) == OrderLine.vendor_id)
        .join(MenuDay, col(MenuDay.id) == OrderLine.menu_day_id)
        .where(
            col(Order.parent_id) == parent_id,
            *booked_meals(),
            col(OrderLine.child_id).in_(ask.child_ids),
            col(OrderLine.meal_date) >= ask.first,
            col(OrderLine.meal_date) <= ask.last,
        )
        .order_by(col(OrderLine.meal_date), col(OrderLine.child_id), col(OrderLine.id))
    ).all()
    cancel: dict[int, dict[int, int]] = {}
    past: list[tuple[OrderLine, int]] = []
    for line, vendor, school_id in rows:
        if before_cutoff(line_closes(line, vendor), now):
            cancel.setdefault(line.order_id, {})[line.id or 0] = active_quantity(line)
        else:
            past.append((line, school_id))
    donated = set(
        session.exec(
            select(col(MealDonation.order_line_id)).where(
                col(MealDonation.order_line_id).in_([x.id for x, _ in past] or [0])
            )
        ).all()
    )
    loaded = load_orders(session, sorted(cancel))
    refunds = {oid: refund_plan(loaded[oid], qty).refund_cents for oid, qty in cancel.items()}
    names, meals = _labels(session, [line for line, _, _ in rows])
    cancelled = {lid for qty in cancel.values() for lid in qty}
    items = []
    for line, _, _ in rows:
        state = "cancel" if line.id in cancelled else "donated" if line.id in donated else "past"
        meal = meals.get(line.meal_id)
        items.append(
            AwayMeal(
                order_line_id=line.id or 0,
                order_id=line.order_id,
                child_id=line.child_id,
                child_name=names.get(line.child_id, ""),
                day=line.meal_date,
                name_en=meal_name(meal, line.meal_name, "en"),
                name_fr=meal_name(meal, line.meal_name, "fr"),
                quantity=active_quantity(line),
                state=state,
            )
        )
    return AwayPlan(
        cancel=cancel,
        past=past,
        donated=donated,
        refund_cents=sum(refunds.values()),
        items=items,
    )


def _labels(session: Session, lines: list[OrderLine]) -> tuple[dict[int, str], dict[int, Meal]]:
    """The children's first names and the meals of ``lines`` (two statements)."""
    names = {
        cid or 0: name
        for cid, name in session.exec(
            select(col(Child.id), col(Child.first_name)).where(
                col(Child.id).in_(sorted({x.child_id for x in lines}) or [0])
            )
        ).all()
    }
    meals = {
        m.id or 0: m
        for m in session.exec(
            select(Meal).where(col(Meal.id).in_(sorted({x.meal_id for x in lines}) or [0]))
        ).all()
    }
    return names, meals


@dataclass(frozen=True)
class AwayPreview:
    meals: list[AwayMeal]
    cancel_count: int
    refund_cents: int
    refund_to: RefundDestination


def away_preview(
    *,
    session: Session,
    parent_id: int,
    refund_to: str = "",
    **days: Unpack[AwayDays],
) -> AwayPreview:
    """``POST /Parent/child/AwayPreview``: what ``mark_away`` would do now, nothing written:
    each meal (cancelled, or past its cut-off and may be given to the school), how many are
    cancelled, the refund and where it goes (``refund_to`` "": the family's choice)."""
    ask = check_ask(session, parent_id=parent_id, **days)
    plan = plan_away(session, parent_id=parent_id, ask=ask, now=clock.now())
    to = refund_destination(session, parent_id, check_refund_to(refund_to))
    return AwayPreview(
        meals=plan.items,
        cancel_count=sum(len(x) for x in plan.cancel.values()),
        refund_cents=plan.refund_cents,
        refund_to=to,
    )


@dataclass(frozen=True)
class AwayDone:
    """What ``mark_away`` did (``repeated``: this key was applied before, its first answer,
    which was said in ``lang``: a repeat is answered in the first call's language)."""

    cancelled: int
    donated: int
    refund_cents: int
    credit_cents: int  # of refund_cents, what went to family credit
    card_cents: int
    repeated: bool
    lang: str


def _mark(
    session: Session,
    *,
    parent_id: int,
    ask: AwayAsk,
    key: str,
    refund_to: RefundDestination | None,
    donate: list[int],
    expected_refund_cents: int | None,
    lang: str,
) -> tuple[AwayDone, list[PlannedRefund]]:
    """The one transaction of ``mark_away``: the request row first (a racing duplicate waits
    on its unique key, then fails), then the cancels under each order's lock, the donations
    and the answer stored for a retry."""
    request = AwayRequest(
        parent_id=parent_id,
        request_key=key,
        first_date=ask.first,
        last_date=ask.last,
        child_ids=",".join(str(c) for c in ask.child_ids),
    )
    session.add(request)
    session.flush()
    now = clock.now()
    plan = plan_away(session, parent_id=parent_id, ask=ask, now=now)
    if expected_refund_cents is not None and expected_refund_cents != plan.refund_cents:
        raise DomainError("away_total_changed", field="expected_refund_cents")
    donatable = {x.id: school for x, school in plan.past if x.id not in plan.donated}
    if any(line_id not in donatable for line_id in donate):
        raise DomainError("away_donate_not_allowed", field="donate_line_ids")
    stored = record_away(  # the days the booking doors refuse from now on
        session, parent_id=parent_id, child_ids=ask.child_ids, first=ask.first, last=ask.last
    )
    if not plan.cancel and not donate and not stored:
        raise DomainError("away_nothing", field="from_date")
    cancel = CancelRequest(
        reason_id=None, other_text=None, request_key=f"away-{key}"[:64], refund_to=refund_to
    )
    refunds: list[PlannedRefund] = []
    total = 0
    for order_id in sorted(plan.cancel):  # by id: every writer locks orders in one order
        loaded = load_order(session, order_id=order_id, parent_id=parent_id, lock=True)
        done = apply_cancel(
            session,
            loaded,
            plan.cancel[order_id],
            kind=AWAY_KIND,
            request=cancel,
            actor=actor_of(parent_id),
            lang=lang,
            now=now,
        )
        refunds.extend(done.refunds)
        leave_cancel_cart(session, loaded, parent_id)  # its cancelled lines leave it
        total += done.refund_cents
    _donate(session, parent_id, [(x, donatable[x.id]) for x, _ in plan.past if x.id in donate])
    count = sum(len(x) for x in plan.cancel.values())
    credit = credited_cents(refunds)
    answer = AwayDone(
        cancelled=count,
        donated=len(donate),
        refund_cents=total,
        credit_cents=credit,
        card_cents=total - credit,
        repeated=False,
        lang=lang,
    )
    request.refund_cents = total
    request.result = json.dumps(
        {
            "cancelled": answer.cancelled,
            "donated": answer.donated,
            "refund_cents": answer.refund_cents,
            "credit_cents": answer.credit_cents,
            "card_cents": answer.card_cents,
            "lang": answer.lang,
        }
    )
    session.add(request)
    return answer, refunds


def done_message(answer: AwayDone, lang: str) -> str:
    """What the parent reads once the days are marked (``answer`` is ``mark_away``'s): the
    meals cancelled and where their refund goes (``mails.refund_notice``, the sentence of
    every cancel door), the meals given to the school with thanks, or that the days are
    stored; counts in their CLDR plural."""
    parts = []
    if answer.cancelled:
        refund = refund_notice(answer.refund_cents, lang, credit_cents=answer.credit_cents)
        parts.append(tn("away.done", answer.cancelled, lang, refund=refund))
    if answer.donated:
        parts.append(tn("away.donated", answer.donated, lang))
    return " ".join(parts) or t("away.days_stored", lang)


def _donate(session: Session, parent_id: int, lines: list[tuple[OrderLine, int]]) -> None:
    """A meal past its cut-off given to its school's student-nutrition program: no refund,
    its value counted in the give-back figures (unique per line: given once)."""
    for line, school_id in lines:
        left = active_quantity(line)
        session.add(
            MealDonation(
                order_line_id=line.id or 0,
                parent_id=parent_id,
                school_id=school_id,
                quantity=left,
                value_cents=line.line_total_cents * left // max(line.quantity, 1),
            )
        )
    session.flush()


def _stored(session: Session, *, parent_id: int, key: str) -> AwayDone | None:
    row = session.exec(
        select(AwayRequest).where(
            col(AwayRequest.parent_id) == parent_id, col(AwayRequest.request_key) == key
        )
    ).first()
    if row is None or not row.result:
        return None
    data = json.loads(row.result)
    return AwayDone(
        cancelled=data["cancelled"],
        donated=data["donated"],
        refund_cents=data["refund_cents"],
        credit_cents=data["credit_cents"],
        card_cents=data["card_cents"],
        repeated=True,
        lang=data.get("lang", "en"),
    )


async def mark_away(
    *,
    parent_id: int,
    request_key: str | None,
    refund_to: str = "",
    donate_line_ids: list[int] | None = None,
    expected_refund_cents: int | None = None,
    lang: str = "en",
    runtime: Runtime = APP,
    **days: Unpack[AwayDays],
) -> AwayDone:
    """``POST /Parent/child/MarkAway``: cancel every meal of the children in the days that is
    before its cut-off, with its refund, and give the meals ``donate_line_ids`` (past their
    cut-off) to the school. ``expected_refund_cents``: the total the parent confirmed
    (``away_preview``); when the meals changed meanwhile, refused (``away_total_changed``).
    Repeat-safe by ``request_key``: a repeat answers the first call (``repeated``: True).
    ``lang``: the refund mail's language."""
    lang = normalize_lang(lang)
    key = check_request_key(request_key)
    to = check_refund_to(refund_to)
    donate = sorted(set(donate_line_ids or []))
    engine = runtime.engine
    seen = await run_in_transaction(_stored, engine=engine, parent_id=parent_id, key=key)
    if seen is not None:
        return seen
    ask = await run_in_transaction(check_ask, engine=engine, parent_id=parent_id, **days)
    try:
        answer, refunds = await run_in_transaction(
            _mark,
            engine=engine,
            parent_id=parent_id,
            ask=ask,
            key=key,
            refund_to=to,
            donate=donate,
            expected_refund_cents=expected_refund_cents,
            lang=lang,
        )
    except IntegrityError:
        # The same request at the same moment (a second tap, a retry): its answer.
        seen = await run_in_transaction(_stored, engine=engine, parent_id=parent_id, key=key)
        if seen is None:
            raise
        return seen
    await send_planned_refunds(refunds, actor=actor_of(parent_id), runtime=runtime)
    return answer
