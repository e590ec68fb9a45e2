"""Standing orders' job: the periodic sweep that books each standing
order's date before its cut-off, once (a unique run row per standing order and date), pays it
with the family's saved card, and tells the parent of every skip or of a meal left in the cart.
The parent's side (create, list, pause, resume, end) is ``services/standing.py``."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, cast

from sqlalchemy import update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import (
    CartLine,
    Child,
    Meal,
    MenuDay,
    Order,
    OrderLine,
    Parent,
    Payment,
    StandingOrder,
    StandingOrderRun,
    StoredCard,
    Vendor,
)
from hotmeals.domain.cutoff import cutoff_at
from hotmeals.domain.dates import long_day, long_moment
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import KEPT_LINE_STATUSES, ORDERED_STATUSES
from hotmeals.domain.payment_states import PaymentState, Purpose
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import mail, payments
from hotmeals.services.links import BOOK_MEAL_PATH, CART_PATH, STANDING_PATH, parent_url
from hotmeals.services.ordering.days import cutoff_rule
from hotmeals.services.ordering.lines import LineRequest, check_line, insert_lines, load_batch
from hotmeals.services.ordering.place import write_one_line_order
from hotmeals.services.ordering.settle import PLACED_STATUSES, settle_approved
from hotmeals.services.payments import charge_begun_card, steps
from hotmeals.services.payments.records import lock_row
from hotmeals.services.payments.runtime import run_sync
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.standing import (
    ACTIVE,
    BOOK_AHEAD,
    BOOKED,
    CHARGING,
    IN_CART,
    SKIPPED,
    next_weekday,
)
from hotmeals.services.transaction import in_transaction, run_in_transaction

log = logging.getLogger("hotmeals.standing")


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
    today = clock.today(now)
    horizon = today + timedelta(days=BOOK_AHEAD)
    rows = session.exec(
        select(StandingOrder)
        .join(Child, col(Child.id) == StandingOrder.child_id)
        .join(Parent, col(Parent.id) == StandingOrder.parent_id)
        .where(
            StandingOrder.status == ACTIVE,
            StandingOrder.ends_on >= today,
            StandingOrder.starts_on <= horizon,
            Parent.is_active,
        )
        .order_by(col(StandingOrder.id))
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
            select(col(StandingOrderRun.standing_order_id), col(StandingOrderRun.meal_date)).where(
                col(StandingOrderRun.standing_order_id).in_(sorted({s for s, _ in wanted})),
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
    in_cart = session.exec(
        select(col(CartLine.id))
        .join(MenuDay, col(MenuDay.id) == CartLine.menu_day_id)
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
            select(col(OrderLine.id))
            .join(Order, col(Order.id) == OrderLine.order_id)
            .where(
                OrderLine.child_id == child_id,
                OrderLine.meal_date == day,
                col(OrderLine.status).in_([str(s) for s in KEPT_LINE_STATUSES]),
                OrderLine.quantity > OrderLine.cancelled_quantity,
                col(Order.status).in_([str(s) for s in ORDERED_STATUSES]),
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
    if err.code == "diet_ack_required":
        return "diet"  # the meal does not fit the child's dietary needs: skipped, told why
    if err.code == "child_not_found":
        return "child"
    if err.code == "child_away":
        return "away"  # marked away (services/away.py): skipped without a mail
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
        standing_url=parent_url(STANDING_PATH),
        cart_url=parent_url(CART_PATH),
        book_url=parent_url(BOOK_MEAL_PATH, date=day.isoformat()),
        **params,
    )


def _claim(
    session: Session, *, standing_id: int, day: date, now: datetime
) -> dict[str, Any] | None:
    """Deal with one (standing order, date) in one transaction: None when there is nothing
    to do (paused, ended, already dealt with, or its cut-off passed); else what happened, and
    for a saved card's charge begun, what ``charge_begun_card`` needs."""
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
        select(col(StandingOrderRun.id)).where(
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
    request = LineRequest(
        child_id=row.child_id,
        meal_id=row.meal_id,
        portion_id=row.portion_id,
        date=day.isoformat(),
        quantity=1,
        allergy_ack=False,
    )
    reason: str | None = ""
    said = ""  # the reason as the mail says it, when it names more than its code
    checked = None
    try:
        # The start of a school year: a child not confirmed for it is not booked (told why).
        batch = load_batch(
            session, parent_id=row.parent_id, requests=[request], lang=lang, confirmed_at=now
        )
        checked = check_line(batch, request, lang=lang, now=now)
    except DomainError as err:
        reason = _reason_of(err)
        if reason is None:
            return None  # its cut-off has passed: the moment is gone
        if reason == "diet":  # "Butter Chicken does not fit Emma's diet (Not vegetarian)"
            said = t("diet_skipped", lang, **err.params)
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
        if run.reason == "away":
            return {"status": SKIPPED}
        _notice(
            session,
            parent=parent,
            template="standing_skipped",
            child=child_name,
            meal=meal_name,
            day=day,
            reason=said or t(f"standing.reason.{run.reason}", lang),
        )
        return {"status": SKIPPED}
    if _booked_already(session, parent_id=row.parent_id, child_id=row.child_id, day=day):
        run.reason = "booked"
        session.add(run)
        return {"status": SKIPPED}
    (cart_id,) = insert_lines(session, parent_id=row.parent_id, lines=[checked], now=now)
    closes = cutoff_at(cutoff_rule(checked.vendor), day)
    card = session.exec(
        select(StoredCard)
        .where(StoredCard.parent_id == row.parent_id, col(StoredCard.deleted_at).is_(None))
        .order_by(col(StoredCard.created_at).desc(), col(StoredCard.id).desc())
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
            closes=long_moment(closes, lang),
        )
        return {"status": IN_CART}
    # An order of this one line: nothing else in the cart is charged.
    order = write_one_line_order(
        session, parent_id=row.parent_id, cart_id=cart_id, price=checked.price, now=now
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
    placed = payment.state == PaymentState.APPROVED and order.status in PLACED_STATUSES
    target = BOOKED if placed else IN_CART
    result = cast(  # an UPDATE answers a cursor result (its rowcount)
        "CursorResult[Any]",
        session.execute(
            update(StandingOrderRun)
            .where(col(StandingOrderRun.id) == run_id, col(StandingOrderRun.status) == CHARGING)
            .values(
                status=target,
                reason="" if placed else "declined",
                updated_at=clock.now(),
            )
            .execution_options(synchronize_session=False)
        ),
    )
    if result.rowcount == 1 and not placed:
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
    line = session.exec(
        select(Vendor)
        .join(OrderLine, col(OrderLine.vendor_id) == Vendor.id)
        .where(OrderLine.order_id == run.order_id)
    ).first()
    if line is None:
        return long_day(run.meal_date, lang)
    return long_moment(cutoff_at(cutoff_rule(line), run.meal_date), lang)


def _charging(session: Session) -> list[int]:
    rows = session.exec(
        select(col(StandingOrderRun.id))
        .where(StandingOrderRun.status == CHARGING)
        .order_by(col(StandingOrderRun.id))
    ).all()
    return [run_id for run_id in rows if run_id is not None]


async def run(*, runtime: Runtime = APP) -> Round:
    """One sweep at ``runtime.now()``: every due (standing order, date) dealt with once, and
    the runs left charging by an earlier round finished when their payment has an outcome."""
    engine = runtime.engine
    now = runtime.now()
    done = Round()
    for run_id in await run_in_transaction(_charging, engine=engine):
        _count(done, await run_in_transaction(_finish, engine=engine, run_id=run_id))
    for standing_id, day in await run_in_transaction(_due, engine=engine, now=now):
        try:
            claimed = await run_in_transaction(
                _claim, engine=engine, standing_id=standing_id, day=day, now=now
            )
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
        try:
            view = await charge_begun_card(claimed["sale"], runtime=runtime)
            await settle_approved(view, parent_id=view.parent_id, lang="en", runtime=runtime)
        except Exception:  # noqa: BLE001 - the payment stays UNKNOWN: reconciled, then _finish
            log.exception("standing order %s, %s: charge not settled yet", standing_id, day)
        _count(done, await run_in_transaction(_finish, engine=engine, run_id=claimed["run_id"]))
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


def run_in_thread(*, runtime: Runtime = APP) -> Round:
    """``run`` from synchronous code (a thread of its own, its own Converge client)."""
    return run_sync(run, runtime=runtime)


def booked_runs(*, runtime: Runtime = APP) -> list[tuple[int, date, str]]:
    """(standing order id, date, status) of every run: for tests and the admin's eye."""

    def read(session: Session) -> list[tuple[int, date, str]]:
        return [
            (a, b, c)
            for a, b, c in session.exec(
                select(
                    col(StandingOrderRun.standing_order_id),
                    col(StandingOrderRun.meal_date),
                    col(StandingOrderRun.status),
                ).order_by(col(StandingOrderRun.standing_order_id), col(StandingOrderRun.meal_date))
            ).all()
        ]

    return in_transaction(read, engine=runtime.engine)
