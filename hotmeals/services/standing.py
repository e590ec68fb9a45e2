"""Standing orders (issue 26, item 4): "every Monday, pizza for Emma, until the end of term".

The parent sets one up from Book meal (a meal on a day: "Repeat every <weekday>") or from a
booked meal, and lists, pauses, resumes and ends them on one screen (``create``, ``listing``,
``change``). The periodic job ``standing`` (``services/jobs.py``) calls ``run`` every few
minutes: a sweep over the active standing orders' dates whose day is within ``BOOK_AHEAD``
days and whose cut-off has not passed, so a missed round is made up while the cut-off lasts.

**One date, once.** Each date is dealt with in one transaction that first locks the parent's
row (a checkout of the same parent waits), then inserts the ``StandingOrderRun`` row of
(standing order, date) under a unique constraint, and books in that same transaction: two
workers, a retry or a restart find the row (or fail on the constraint and roll back
everything they wrote) and book nothing more.

**Booking** a date uses the rules of adding a meal (``cart.load_batch`` / ``cart.check_line``,
with no allergy acknowledgement): a closed day, a day the meal is not on the menu, a child
whose allergies refuse the meal or need an acknowledgement, a child no longer active are
skipped, each with an e-mail in the parent's language (the mail outbox, in the same
transaction). A child who already has a meal booked that day (or waiting in the cart) is
skipped quietly. The project has no "away" days (the children have no absence calendar), so
none is checked.

**Paying**: the line is put in the parent's cart and an order of that line ALONE is written
(nothing else in the cart is ever charged) with its payment, whose invoice number is derived
from (standing order, date) (``HMS-<id>-<yymmdd>``, unique: a second payment for the same
date cannot even be written), and the family's latest saved card's charge is begun in that
transaction (``steps.begin_card_sale``: the payment is UNKNOWN from then on, so nobody charges
it again). The charge itself runs after the commit (``charge_begun_card``) and its outcome is
settled as a checkout's is (``checkout._settle``: the order placed and its cart line removed,
or an approval that came too late voided). With no saved card, or when the card is declined,
the line stays in the cart and the parent is e-mailed. A round that died mid-charge leaves the
run "charging": the payment reconciliation settles the payment, and the next sweep finishes
the run from the payment's outcome (``_finish``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from hotmeals.db.models import (
    Child,
    Meal,
    Order,
    OrderLine,
    Parent,
    Payment,
    Portion,
    StandingOrder,
    StandingOrderRun,
    StoredCard,
)
from hotmeals.domain.charges import compute_charges
from hotmeals.domain.cutoff import cutoff_at
from hotmeals.domain.dates import long_day
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import LineStatus
from hotmeals.domain.payments import PaymentState, Purpose
from hotmeals.i18n import normalize_lang, t
from hotmeals.payments.gateway import PaymentGateway
from hotmeals.services import cart, clock, mail, school_year
from hotmeals.services.menu import ORDERED_STATUSES, cutoff_rule, toronto_today
from hotmeals.services.transaction import in_transaction
from hotmeals.settings import get_settings

log = logging.getLogger("hotmeals.standing")

ACTIVE, PAUSED, ENDED = "active", "paused", "ended"
STATUSES = (ACTIVE, PAUSED, ENDED)
CHARGING, BOOKED, IN_CART, SKIPPED = "charging", "booked", "in_cart", "skipped"
# A date is booked once its day is at most this many days ahead (and before its cut-off).
BOOK_AHEAD = 7
MAX_SPAN_DAYS = 400
MAX_PER_PARENT = 30
# The parent app's screens, under rxconfig's ``frontend_path`` ("/parent").
CART_PATH = "/parent/edit-profile/cart"
BOOK_MEAL_PATH = "/parent/edit-profile/meal-detailed"
SCREEN_PATH = "/parent/standing-orders"
UNTIL_TERM, UNTIL_YEAR, UNTIL_DATE = "term", "year", "date"
SKIP_REASONS = ("closed", "not_served", "allergy", "child")


# --- the school calendar's terms ----------------------------------------------------------------


def term_end(today: date) -> date:
    """The last day of the current term of the Ontario school year: January 31 for the fall
    term (August to January), June 30 for the spring term."""
    if today.month >= 8:
        return date(today.year + 1, 1, 31)
    if today.month == 1:
        return date(today.year, 1, 31)
    return date(today.year, 6, 30)


def year_end(today: date) -> date:
    """The last day of the current school year (June 30; from August on, next June's)."""
    return date(today.year + 1 if today.month >= 8 else today.year, 6, 30)


def next_weekday(day: date, weekday: int) -> date:
    return day + timedelta(days=(weekday - day.weekday()) % 7)


def last_weekday(day: date, weekday: int) -> date:
    """The last ``weekday`` on or before ``day``: a standing order ends on its own day."""
    return day - timedelta(days=(day.weekday() - weekday) % 7)


# --- the parent's side: create, list, pause, resume, end --------------------------------------


def _id(value: object, field_name: str, code: str) -> int:
    if isinstance(value, bool):
        raise DomainError(code, field=field_name)
    try:
        number = int(str(value))
    except (TypeError, ValueError):
        raise DomainError(code, field=field_name) from None
    if not 0 < number < 2**31:
        raise DomainError(code, field=field_name)
    return number


def _until(value: object, ends_on: object, today: date) -> date:
    if value in (None, "", UNTIL_TERM):
        return term_end(today)
    if value == UNTIL_YEAR:
        return year_end(today)
    if value == UNTIL_DATE:
        try:
            day = date.fromisoformat(str(ends_on))
        except ValueError:
            raise DomainError("standing_bad_end", field="ends_on") from None
        if day < today or day > today + timedelta(days=MAX_SPAN_DAYS):
            raise DomainError("standing_bad_end", field="ends_on")
        return day
    raise DomainError("standing_bad_end", field="until")


def create(
    *,
    session: Session,
    parent_id: int,
    child_id: object,
    meal_id: object,
    portion_id: object = None,
    size: object = None,
    weekday: object = None,
    from_date: object = None,
    until: object = UNTIL_TERM,
    ends_on: object = None,
    lang: str | None = None,
    now: datetime | None = None,
) -> dict:
    """A new ACTIVE standing order: every ``weekday`` (0 Monday .. 4 Friday; or the weekday of
    ``from_date``, the day the parent picked in Book meal), ``meal_id`` in ``portion_id`` (or
    ``size``) for ``child_id``, from today (or ``from_date``) until the end of term, of the
    school year, or ``ends_on``. The child must be the parent's and active, the meal active
    and the portion the meal's; the child's allergies must allow the meal without an
    acknowledgement (the job never acknowledges for the parent). Answers the listing's row."""
    now = now or clock.now()
    today = toronto_today(now)
    child = session.get(Child, _id(child_id, "child_id", "child_not_found"))
    if child is None or child.parent_id != parent_id or not child.is_active:
        raise DomainError("child_not_found", field="child_id")
    meal = session.get(Meal, _id(meal_id, "meal_id", "meal_not_found"))
    if meal is None or not meal.is_active:
        raise DomainError("meal_not_found", field="meal_id")
    start = today
    if from_date not in (None, ""):
        try:
            start = max(today, date.fromisoformat(str(from_date)))
        except ValueError:
            raise DomainError("standing_bad_day", field="from_date") from None
    if weekday in (None, ""):
        day_of_week = start.weekday()
    elif isinstance(weekday, int | str) and not isinstance(weekday, bool):
        try:
            day_of_week = int(weekday)
        except ValueError:
            raise DomainError("standing_bad_day", field="weekday") from None
    else:
        raise DomainError("standing_bad_day", field="weekday")
    if not 0 <= day_of_week <= 4:
        raise DomainError("standing_bad_day", field="weekday")
    portions = session.exec(select(Portion).where(Portion.meal_id == meal.id)).all()
    portion = None
    if portion_id not in (None, ""):
        wanted = _id(portion_id, "portion_id", "portion_not_found")
        portion = next((p for p in portions if p.id == wanted), None)
    elif size not in (None, ""):
        portion = next((p for p in portions if p.size == size), None)
    elif portions:
        portion = sorted(portions, key=lambda p: (p.size != "small", p.id))[0]
    if portion is None:
        raise DomainError("portion_not_found", field="portion_id")
    last = last_weekday(_until(until, ends_on, today), day_of_week)
    if last < start:
        raise DomainError("standing_bad_end", field="ends_on")
    _allergy_allows(session, parent_id=parent_id, child=child, meal=meal)
    count = len(
        session.exec(
            select(StandingOrder.id).where(
                StandingOrder.parent_id == parent_id, StandingOrder.status != ENDED
            )
        ).all()
    )
    if count >= MAX_PER_PARENT:
        raise DomainError("standing_too_many", max=MAX_PER_PARENT)
    row = StandingOrder(
        parent_id=parent_id,
        child_id=child.id or 0,
        meal_id=meal.id or 0,
        portion_id=portion.id or 0,
        weekday=day_of_week,
        starts_on=start,
        ends_on=last,
        status=ACTIVE,
        created_at=now,
        updated_at=now,
    )
    session.add(row)
    session.flush()
    if lang is None:
        parent = session.get(Parent, parent_id)
        lang = parent.language if parent else "en"
    lang = normalize_lang(lang)
    return listing(session=session, parent_id=parent_id, lang=lang, now=now, only=row.id)[0]


def booked_line(session: Session, *, parent_id: int, order_line_id: object) -> OrderLine:
    """A booked meal of the parent's (an order line, not cancelled, of a paid order) that a
    standing order can repeat: the ids a browser sends are checked here, and the child, meal,
    portion and weekday are the line's, never the browser's."""
    line_id = _id(order_line_id, "order_line_id", "order_change_line_not_found")
    found = session.exec(
        select(OrderLine)
        .join(Order, Order.id == OrderLine.order_id)
        .where(
            OrderLine.id == line_id,
            Order.parent_id == parent_id,
            Order.status.in_([str(s) for s in ORDERED_STATUSES]),
            OrderLine.status != LineStatus.CANCELLED,
        )
    ).first()
    if found is None:
        raise DomainError("order_change_line_not_found", field="order_line_id")
    return found


def create_from_line(
    *,
    session: Session,
    parent_id: int,
    order_line_id: object,
    until: object = UNTIL_TERM,
    ends_on: object = None,
    lang: str | None = None,
    now: datetime | None = None,
) -> dict:
    """ "Repeat every <weekday>" on a booked meal: ``create`` for the line's child, meal and
    portion, on the weekday of its date, from the day after it (or today, if later)."""
    line = booked_line(session, parent_id=parent_id, order_line_id=order_line_id)
    return create(
        session=session,
        parent_id=parent_id,
        child_id=line.child_id,
        meal_id=line.meal_id,
        portion_id=line.portion_id,
        weekday=line.meal_date.weekday(),
        from_date=(line.meal_date + timedelta(days=1)).isoformat(),
        until=until,
        ends_on=ends_on,
        lang=lang,
        now=now,
    )


def _allergy_allows(session: Session, *, parent_id: int, child: Child, meal: Meal) -> None:
    """The allergy rule on the meal alone (``domain.allergy`` through ``cart.components``):
    refused, or needing an acknowledgement, is refused here with the rule's own error."""
    from hotmeals.domain.allergy import ensure_can_add_composed
    from hotmeals.services.menu import item_allergies

    assert child.id is not None and meal.id is not None
    items = item_allergies(
        session,
        lang="en",
        child_ids=[child.id],
        meal_ids=[meal.id],
        menu_option_ids=set(),
        meal_option_ids=set(),
        addon_ids=set(),
    )
    parts = cart.components(
        items,
        child_id=child.id,
        meal=meal,
        menu_option=None,
        meal_option=None,
        addons=[],
        lang="en",
    )
    ensure_can_add_composed(parts, acknowledged=False, lang="en")


def _size_label(size: str, lang: str) -> str:
    return t(f"standing.size.{size}", lang) if size in ("small", "large") else size


def _weekday_name(weekday: int, lang: str) -> str:
    from babel.dates import get_day_names

    locale = "fr_CA" if lang == "fr" else "en_CA"
    return str(get_day_names("wide", locale=locale)[weekday])


def _next_date(row: StandingOrder, today: date) -> date | None:
    if row.status != ACTIVE:
        return None
    day = next_weekday(max(today, row.starts_on), row.weekday)
    return day if day <= row.ends_on else None


def listing(
    *,
    session: Session,
    parent_id: int,
    lang: str = "en",
    now: datetime | None = None,
    only: int | None = None,
) -> list[dict]:
    """The parent's standing orders (ended ones last), ready to show: two statements."""
    lang = normalize_lang(lang)
    today = toronto_today(now or clock.now())
    query = (
        select(StandingOrder, Child.first_name, Meal.name_en, Meal.name_fr, Portion.size)
        .join(Child, Child.id == StandingOrder.child_id)
        .join(Meal, Meal.id == StandingOrder.meal_id)
        .join(Portion, Portion.id == StandingOrder.portion_id)
        .where(StandingOrder.parent_id == parent_id)
        .order_by(StandingOrder.id)
    )
    if only is not None:
        query = query.where(StandingOrder.id == only)
    rows = session.exec(query).all()
    ids = [r[0].id for r in rows]
    last: dict[int, StandingOrderRun] = {}
    if ids:
        for run in session.exec(
            select(StandingOrderRun)
            .where(StandingOrderRun.standing_order_id.in_(ids))
            .order_by(StandingOrderRun.meal_date)
        ).all():
            last[run.standing_order_id] = run
    out = []
    for row, child_name, meal_en, meal_fr, size in rows:
        ended = row.status == ENDED or row.ends_on < today
        status = ENDED if ended else row.status
        upcoming = None if ended else _next_date(row, today)
        run = last.get(row.id or 0)
        out.append(
            {
                "id": row.id,
                "child_id": row.child_id,
                "child_name": child_name,
                "meal_id": row.meal_id,
                "meal_name": meal_fr if lang == "fr" else meal_en,
                "portion_id": row.portion_id,
                "size": size,
                "size_label": _size_label(size, lang),
                "weekday": row.weekday,
                "summary": t(
                    "standing.summary",
                    lang,
                    weekday=_weekday_name(row.weekday, lang),
                    meal=meal_fr if lang == "fr" else meal_en,
                    size=_size_label(size, lang),
                    child=child_name,
                ),
                "starts_on": row.starts_on.isoformat(),
                "ends_on": row.ends_on.isoformat(),
                "ends_label": t("standing.until", lang, day=long_day(row.ends_on, lang)),
                "status": status,
                "status_label": t(f"standing.status.{status}", lang),
                "next_date": upcoming.isoformat() if upcoming else None,
                "next_label": (
                    t("standing.next", lang, day=long_day(upcoming, lang))
                    if upcoming
                    else t("standing.paused_note", lang)
                    if status == PAUSED
                    else ""
                ),
                "last_label": (
                    t(
                        f"standing.last.{run.status}",
                        lang,
                        day=long_day(run.meal_date, lang),
                        reason=t(f"standing.reason.{run.reason}", lang) if run.reason else "",
                    )
                    if run is not None
                    else ""
                ),
            }
        )
    out.sort(key=lambda r: (r["status"] == ENDED, r["id"]))
    return out


ACTIONS = {"pause": (ACTIVE,), "resume": (PAUSED,), "end": (ACTIVE, PAUSED)}
TARGET = {"pause": PAUSED, "resume": ACTIVE, "end": ENDED}


def change(
    *,
    session: Session,
    parent_id: int,
    standing_id: object,
    action: object,
    lang: str = "en",
    now: datetime | None = None,
) -> dict:
    """Pause, resume or end one of the parent's standing orders (another parent's, or an
    unknown id: ``standing_not_found``). Pausing or ending stops the job from booking any date
    not booked yet; a date already booked stays booked (it can be cancelled in the orders).
    The same action twice is harmless. Answers the listing's row."""
    now = now or clock.now()
    if action not in ACTIONS:
        raise DomainError("standing_bad_action", field="action")
    key = _id(standing_id, "id", "standing_not_found")
    row = session.get(StandingOrder, key)
    if row is None or row.parent_id != parent_id:
        raise DomainError("standing_not_found", field="id")
    target = TARGET[str(action)]
    if row.status != target:
        if row.status not in ACTIONS[str(action)] or row.ends_on < toronto_today(now):
            raise DomainError("standing_ended", field="id")
        table: Any = StandingOrder
        session.execute(
            update(StandingOrder)
            .where(table.id == key, table.status == row.status)
            .values(status=target, updated_at=now)
            .execution_options(synchronize_session=False)
        )
        session.refresh(row)
    return listing(session=session, parent_id=parent_id, lang=lang, now=now, only=key)[0]


# --- the job ------------------------------------------------------------------------------------


@dataclass
class Round:
    booked: int = 0
    in_cart: int = 0
    skipped: int = 0
    pending: int = 0  # a charge whose answer is not known yet (the reconciliation asks)
    dates: list[tuple[int, date]] = field(default_factory=list)


def _due(session: Session, *, now: datetime) -> list[tuple[int, date]]:
    """(standing order id, date) of the active standing orders' dates from today to
    ``BOOK_AHEAD`` days ahead that have no run yet: three statements."""
    today = toronto_today(now)
    horizon = today + timedelta(days=BOOK_AHEAD)
    rows = session.exec(
        select(StandingOrder)
        .join(Child, Child.id == StandingOrder.child_id)
        .join(Parent, Parent.id == StandingOrder.parent_id)
        .where(
            StandingOrder.status == ACTIVE,
            StandingOrder.ends_on >= today,
            StandingOrder.starts_on <= horizon,
            Parent.is_active,
        )
        .order_by(StandingOrder.id)
    ).all()
    wanted: list[tuple[int, date]] = []
    for row in rows:
        day = next_weekday(max(today, row.starts_on), row.weekday)
        while day <= min(horizon, row.ends_on):
            wanted.append((row.id or 0, day))
            day += timedelta(days=7)
    if not wanted:
        return []
    done = set(
        session.exec(
            select(StandingOrderRun.standing_order_id, StandingOrderRun.meal_date).where(
                StandingOrderRun.standing_order_id.in_(sorted({s for s, _ in wanted})),
                StandingOrderRun.meal_date >= today,
            )
        ).all()
    )
    return [w for w in wanted if w not in done]


def _invoice(standing_id: int, day: date) -> str:
    """The payment's invoice number, derived from (standing order, date): unique, so a
    second payment for one date cannot be written (Converge has no idempotency key)."""
    return f"HMS-{standing_id:06d}-{day:%y%m%d}"


def _booked_already(session: Session, *, parent_id: int, child_id: int, day: date) -> bool:
    """The child has a meal booked that day, or one waiting in the parent's cart (the parent
    will pay it at checkout): the standing order adds none."""
    from hotmeals.db.models import CartLine, MenuDay

    in_cart = session.exec(
        select(CartLine.id)
        .join(MenuDay, MenuDay.id == CartLine.menu_day_id)
        .where(
            CartLine.parent_id == parent_id,
            CartLine.child_id == child_id,
            MenuDay.meal_date == day,
        )
    ).first()
    if in_cart is not None:
        return True
    return (
        session.exec(
            select(OrderLine.id)
            .join(Order, Order.id == OrderLine.order_id)
            .where(
                OrderLine.child_id == child_id,
                OrderLine.meal_date == day,
                OrderLine.status == LineStatus.ACTIVE,
                OrderLine.quantity > OrderLine.cancelled_quantity,
                Order.status.in_([str(s) for s in ORDERED_STATUSES]),
            )
        ).first()
        is not None
    )


def _reason_of(err: DomainError) -> str | None:
    """The skip reason of an add-a-meal refusal; None: the cut-off has passed (nothing to
    tell: the moment is gone)."""
    if err.code == "meal_day_closed":
        return None
    if err.code in ("menu_day_closed",):
        return "closed"
    if err.code.startswith("allergy"):
        return "allergy"
    if err.code == "child_not_found":
        return "child"
    if err.code == "school_year_unconfirmed":
        return "school_year"
    return "not_served"  # menu_date_not_served, meal_not_on_menu, meal_not_found, portion


def _notice(
    session: Session,
    *,
    parent: Parent,
    template: str,
    child: str,
    meal: str,
    day: date,
    **params: Any,
) -> None:
    lang = normalize_lang(parent.language)
    base = get_settings().public_base_url
    mail.send_templated(
        session=session,
        to=parent.email,
        template=template,
        language=lang,
        kind="standing_order",
        first_name=parent.first_name,
        child=child,
        meal=meal,
        day=long_day(day, lang),
        standing_url=f"{base}{SCREEN_PATH}",
        cart_url=f"{base}{CART_PATH}",
        book_url=f"{base}{BOOK_MEAL_PATH}?date={day.isoformat()}",
        **params,
    )


def _claim(
    session: Session, *, standing_id: int, day: date, now: datetime
) -> dict[str, Any] | None:
    """Deal with one (standing order, date) in one transaction: None when there is nothing
    to do (paused, ended, already dealt with, or its cut-off passed); else what happened, and
    for a saved card's charge begun, what ``charge_begun_card`` needs."""
    from hotmeals.services import checkout, payments
    from hotmeals.services.payments import steps
    from hotmeals.services.payments.records import lock_row

    row = session.get(StandingOrder, standing_id)
    if row is None:
        return None
    parent = lock_row(session, Parent, row.parent_id)  # checkouts of this parent wait
    session.refresh(row)
    if parent is None or not parent.is_active or row.status != ACTIVE:
        return None
    if not row.starts_on <= day <= row.ends_on or day.weekday() != row.weekday:
        return None
    found = session.exec(
        select(StandingOrderRun.id).where(
            StandingOrderRun.standing_order_id == standing_id, StandingOrderRun.meal_date == day
        )
    ).first()
    if found is not None:
        return None
    lang = normalize_lang(parent.language)
    meal = session.get(Meal, row.meal_id)
    child = session.get(Child, row.child_id)
    meal_name = (meal.name_fr if lang == "fr" else meal.name_en) if meal else ""
    child_name = child.first_name if child else ""
    request = cart.LineRequest(
        child_id=row.child_id,
        meal_id=row.meal_id,
        portion_id=row.portion_id,
        date=day.isoformat(),
        quantity=1,
        allergy_ack=False,
    )
    reason: str | None = ""
    checked = None
    try:
        # The start of a school year: a child not confirmed for it is not booked (told why).
        school_year.require_confirmed(
            session, parent_id=row.parent_id, child_ids=[row.child_id], now=now
        )
        batch = cart.load_batch(session, parent_id=row.parent_id, requests=[request], lang=lang)
        checked = cart.check_line(batch, request, lang=lang, now=now)
    except DomainError as err:
        reason = _reason_of(err)
        if reason is None:
            return None  # its cut-off has passed: the moment is gone
    run = StandingOrderRun(
        standing_order_id=standing_id,
        meal_date=day,
        status=SKIPPED,
        reason="",
        created_at=now,
        updated_at=now,
    )
    session.add(run)
    session.flush()  # the claim: a second one fails here on the unique constraint
    if checked is None:
        run.reason = reason or "not_served"
        session.add(run)
        _notice(
            session,
            parent=parent,
            template="standing_skipped",
            child=child_name,
            meal=meal_name,
            day=day,
            reason=t(f"standing.reason.{run.reason}", lang),
        )
        return {"status": SKIPPED}
    if _booked_already(session, parent_id=row.parent_id, child_id=row.child_id, day=day):
        run.reason = "booked"
        session.add(run)
        return {"status": SKIPPED}
    (cart_id,) = cart.insert_lines(session, parent_id=row.parent_id, lines=[checked], now=now)
    closes = cutoff_at(cutoff_rule(checked.vendor), day)
    card = session.exec(
        select(StoredCard)
        .where(StoredCard.parent_id == row.parent_id, StoredCard.deleted_at.is_(None))
        .order_by(StoredCard.created_at.desc(), StoredCard.id.desc())
    ).first()
    if card is None:
        run.status = IN_CART
        run.reason = "no_card"
        session.add(run)
        _notice(
            session,
            parent=parent,
            template="standing_in_cart",
            child=child_name,
            meal=meal_name,
            day=day,
            why=t("standing.why.no_card", lang),
            closes=_moment(closes, lang),
        )
        return {"status": IN_CART}
    # An order of this one line: nothing else in the cart is charged.
    charges = compute_charges([checked.price], get_settings().charge_rates)
    summary = {"charges": {name: getattr(charges, name) for name in checkout.CHARGE_FIELDS}}
    items = [checkout._cart_rows(session, [cart_id])[cart_id]]
    fingerprint = checkout._fingerprint(
        items, promo_code=None, donation_cents=0, total=charges.total_pay_cents
    )
    order = checkout._write_order(
        session,
        parent_id=row.parent_id,
        summary=summary,
        promo_row=None,
        items=items,
        fingerprint=fingerprint,
        now=now,
    )
    payment = payments.reserve_payment(
        session,
        parent_id=row.parent_id,
        purpose=Purpose.ORDER,
        amount_cents=order.total_pay_cents,
        order_id=order.id,
        actor="standing-order",
    )
    payment.invoice_number = _invoice(standing_id, day)
    session.add(payment)
    session.flush()  # unique invoice: never two payments for one (standing order, date)
    sale = steps.begin_card_sale(
        session,
        payment_id=payment.id or 0,
        parent_id=row.parent_id,
        card_id=card.id or 0,
        actor="standing-order",
    )
    run.status = CHARGING
    run.order_id = order.id
    run.payment_id = payment.id
    session.add(run)
    return {"status": CHARGING, "run_id": run.id, "payment_id": payment.id, "sale": sale}


def _moment(value: datetime, lang: str) -> str:
    from hotmeals.domain.dates import long_moment

    return long_moment(value, lang)


def _finish(session: Session, *, run_id: int) -> str:
    """A run whose charge has an outcome: BOOKED when its order is placed; IN_CART (the line
    stays in the cart) with an e-mail when the charge failed or the order could not be
    placed; CHARGING while the payment's answer is unknown. The move out of CHARGING is a
    conditional UPDATE: the e-mail is written once."""
    run = session.get(StandingOrderRun, run_id)
    if run is None or run.status != CHARGING or run.payment_id is None:
        return run.status if run else SKIPPED
    payment = session.get(Payment, run.payment_id)
    order = session.get(Order, run.order_id) if run.order_id else None
    if payment is None or order is None:
        return CHARGING
    if payment.state in (PaymentState.CREATED, PaymentState.UNKNOWN):
        return CHARGING
    from hotmeals.services.checkout import PLACED_STATUSES

    placed = payment.state == PaymentState.APPROVED and order.status in PLACED_STATUSES
    target = BOOKED if placed else IN_CART
    table: Any = StandingOrderRun
    moved = session.execute(
        update(StandingOrderRun)
        .where(table.id == run_id, table.status == CHARGING)
        .values(
            status=target,
            reason="" if placed else "declined",
            updated_at=clock.now(),
        )
        .execution_options(synchronize_session=False)
    ).rowcount
    if moved == 1 and not placed:
        row = session.get(StandingOrder, run.standing_order_id)
        parent = session.get(Parent, order.parent_id)
        if row is not None and parent is not None:
            lang = normalize_lang(parent.language)
            meal = session.get(Meal, row.meal_id)
            child = session.get(Child, row.child_id)
            _notice(
                session,
                parent=parent,
                template="standing_in_cart",
                child=child.first_name if child else "",
                meal=(meal.name_fr if lang == "fr" else meal.name_en) if meal else "",
                day=run.meal_date,
                why=t(
                    "standing.why.declined",
                    lang,
                    amount=format_money(payment.amount_cents, lang),
                ),
                closes=_closes_text(session, run, lang),
            )
    return target


def _closes_text(session: Session, run: StandingOrderRun, lang: str) -> str:
    from hotmeals.db.models import Vendor

    line = session.exec(
        select(Vendor)
        .join(OrderLine, OrderLine.vendor_id == Vendor.id)
        .where(OrderLine.order_id == run.order_id)
    ).first()
    if line is None:
        return long_day(run.meal_date, lang)
    return _moment(cutoff_at(cutoff_rule(line), run.meal_date), lang)


def _charging(session: Session) -> list[int]:
    return list(
        session.exec(
            select(StandingOrderRun.id)
            .where(StandingOrderRun.status == CHARGING)
            .order_by(StandingOrderRun.id)
        ).all()
    )


async def run(
    *,
    now: datetime | None = None,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> Round:
    """One sweep: every due (standing order, date) dealt with once, and the runs left
    charging by an earlier round finished when their payment has an outcome."""
    from hotmeals.services import checkout
    from hotmeals.services.payments import charge_begun_card
    from hotmeals.services.payments.runtime import db, gateway_or_default

    now = now or clock.now()
    done = Round()
    for run_id in await db(engine, _charging):
        _count(done, await db(engine, _finish, run_id=run_id))
    for standing_id, day in await db(engine, _due, now=now):
        try:
            claimed = await db(engine, _claim, standing_id=standing_id, day=day, now=now)
        except IntegrityError:
            continue  # another worker claimed this date first; this one rolled back
        except Exception:  # noqa: BLE001 - one date must not stop the round
            log.exception("standing order %s, %s: could not be booked", standing_id, day)
            continue
        if claimed is None:
            continue
        done.dates.append((standing_id, day))
        if claimed["status"] != CHARGING:
            _count(done, claimed["status"])
            continue
        token, amount, invoice = claimed["sale"]
        gw = gateway_or_default(gateway)
        try:
            view = await charge_begun_card(
                payment_id=claimed["payment_id"],
                token=token,
                amount_cents=amount,
                invoice=invoice,
                actor="standing-order",
                engine=engine,
                gateway=gw,
            )
            await checkout._settle(
                view, parent_id=view.parent_id, lang="en", engine=engine, gateway=gw
            )
        except Exception:  # noqa: BLE001 - the payment stays UNKNOWN: reconciled, then _finish
            log.exception("standing order %s, %s: charge not settled yet", standing_id, day)
        _count(done, await db(engine, _finish, run_id=claimed["run_id"]))
    return done


def _count(done: Round, status: str) -> None:
    if status == BOOKED:
        done.booked += 1
    elif status == IN_CART:
        done.in_cart += 1
    elif status == SKIPPED:
        done.skipped += 1
    else:
        done.pending += 1


def run_in_thread(*, engine: Engine | None = None) -> Round:
    """``run`` from synchronous code (a thread of its own, its own Converge client)."""
    from hotmeals.services.payments.runtime import run_sync

    return run_sync(run, engine=engine)


def booked_runs(*, engine: Engine | None = None) -> list[tuple[int, date, str]]:
    """(standing order id, date, status) of every run: for tests and the admin's eye."""

    def read(session: Session) -> list[tuple[int, date, str]]:
        return [
            (a, b, c)
            for a, b, c in session.exec(
                select(
                    StandingOrderRun.standing_order_id,
                    StandingOrderRun.meal_date,
                    StandingOrderRun.status,
                ).order_by(StandingOrderRun.standing_order_id, StandingOrderRun.meal_date)
            ).all()
        ]

    return in_transaction(read, engine=engine)
