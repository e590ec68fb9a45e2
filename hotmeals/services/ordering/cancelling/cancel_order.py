"""Cancelling a whole paid order or one meal of it, with a reason: the doors CancelOrder and
CancelMeal, and the per-order reserve step the cancel cart shares.

The three steps are those of the payment service:

1. **reserve**, one transaction per order under its row lock: ``cancel.apply_cancel`` checks
   the cut-offs and quantities, records the ``OrderCancellation`` (unique per order and
   ``request_key``: a retry or a double click finds it and does nothing more), updates the
   lines and the order, reserves the refund rows and queues the e-mail;
2. **call** Converge with no transaction open (void before settlement, return after);
3. **record** the outcome (``cancel.send_refunds``).

The refund is ``refund_plan.refund_plan`` on what the order stored at payment: what was paid
minus what was refunded minus what the remaining meals cost, so the give-back and the tax
follow the cancelled meals, and cancelling everything refunds everything.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import delete
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import (
    CancelCartLine,
    CancelReason,
    Order,
    OrderCancellation,
    OrderCancellationLine,
    OrderLine,
    Vendor,
)
from hotmeals.domain.credit import RefundSplit
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import LineStatus, OrderStatus, can_cancel
from hotmeals.i18n import normalize_lang
from hotmeals.services.ordering.cancelling.cancel import (
    CancelAsk,
    CancelPlan,
    CancelRequest,
    apply_cancel,
    check_refund_to,
    checked_request,
    ensure_cancellable_line,
    find_cancellation,
    refund_destination,
    refund_outcomes,
    send_refunds,
)
from hotmeals.services.ordering.cancelling.refund_plan import refund_plan, refund_sources
from hotmeals.services.ordering.labels import is_french
from hotmeals.services.ordering.loaded_order import LoadedOrder, load_order, refuse_delivered
from hotmeals.services.payments.runtime import actor_of
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from Python 3.12

# A cancel sent with no request key (an API client that sends no Idempotency-Key and no
# request_key) is repeat-safe by its natural key: the same order, the same kind, the same lines
# and quantities and the same reason as the order's last cancellation, within this window,
# answer that cancellation (nothing more is cancelled or refunded). To cancel the same
# quantity of the same line again on purpose within the window, a client sends a new key.
NATURAL_REPEAT_WINDOW = timedelta(minutes=10)
NATURAL_KEY_PREFIX = "api-"


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
    credit_cents: int = 0  # of refund_cents, what went to family credit (in refunded_cents)
    failed_cents: int = 0  # refused by Converge: the cancel stands, the money is still owed


@dataclass(frozen=True)
class CancelReasonView:
    """A cancel reason the parent picks from; the Other entry needs its free text."""

    reason_id: int
    code: str
    label_en: str
    label_fr: str
    is_other: bool

    def label(self, lang: str) -> str:
        return self.label_fr if is_french(lang) else self.label_en


def cancel_reasons(session: Session) -> list[CancelReasonView]:
    """CancelOrderReason: every reason, the Other entry (free text required) last as seeded."""
    rows = session.exec(
        select(CancelReason).order_by(col(CancelReason.sort), col(CancelReason.id))
    ).all()
    return [
        CancelReasonView(
            reason_id=r.id or 0,
            code=r.code,
            label_en=r.label_en,
            label_fr=r.label_fr,
            is_other=r.is_other,
        )
        for r in rows
    ]


def own_line(
    session: Session, parent_id: int, order_line_id: int
) -> tuple[OrderLine, Order, Vendor]:
    """(line, order, vendor) of one of the parent's order lines, else ``order_line_not_found``."""
    row = session.exec(
        select(OrderLine, Order, Vendor)
        .join(Order, col(Order.id) == OrderLine.order_id)
        .join(Vendor, col(Vendor.id) == OrderLine.vendor_id)
        .where(col(OrderLine.id) == order_line_id, col(Order.parent_id) == parent_id)
    ).first()
    if row is None:
        raise DomainError("order_line_not_found", field="order_line_id")
    line, order, vendor = row
    return line, order, vendor


def cancellable_quantity(
    line: OrderLine, order: Order, vendor: Vendor, now: datetime, lang: str
) -> int:
    """What is left of the line to cancel; refused when nothing can be."""
    refuse_delivered(line, lang)
    if not can_cancel(OrderStatus(order.status)) or order.placed_at is None:
        raise DomainError("cancel_order_not_cancellable", field="order_id", number=order.number)
    left = line.quantity - line.cancelled_quantity
    if line.status != LineStatus.ACTIVE or left <= 0:
        raise DomainError("order_line_not_found", field="order_line_id")
    ensure_cancellable_line(line, vendor, now, lang)
    return left


def refund_preview(
    session: Session,
    *,
    parent_id: int,
    order_id: int,
    order_line_id: int | None = None,
    refund_to: str = "",
) -> RefundSplit:
    """What cancelling the order's remaining meals (or, with ``order_line_id``, that line's
    remaining meals) would refund and where (``refund_plan.refund_sources``), writing nothing:
    what "Are you sure?" says before the cancel. ``refund_to`` as for ``cancel_order``."""
    loaded = load_order(session, order_id=order_id, parent_id=parent_id)
    lines = loaded.active_lines()
    if order_line_id is not None:
        lines = [x for x in lines if x.id == order_line_id]
        if not lines:
            raise DomainError("order_line_not_found", field="order_line_id")
    wanted = {x.id or 0: x.quantity - x.cancelled_quantity for x in lines}
    refund = refund_plan(loaded, wanted).refund_cents
    to = refund_destination(session, parent_id, check_refund_to(refund_to))
    return refund_sources(loaded, refund, to)


def leave_cancel_cart(
    session: Session, loaded: LoadedOrder, parent_id: int, cart_ids: list[int] | None = None
) -> None:
    """The cancel cart's rows ``cart_ids`` and those of the order's lines cancelled now."""
    if cart_ids:
        session.execute(
            delete(CancelCartLine)
            .where(col(CancelCartLine.id).in_(cart_ids), col(CancelCartLine.parent_id) == parent_id)
            .execution_options(synchronize_session=False)
        )
    gone = [x.id for x in loaded.lines if x.status == LineStatus.CANCELLED]
    if gone:
        session.execute(
            delete(CancelCartLine)
            .where(
                col(CancelCartLine.order_line_id).in_(gone),
                col(CancelCartLine.parent_id) == parent_id,
            )
            .execution_options(synchronize_session=False)
        )


@dataclass(frozen=True)
class Canceller:
    """Who cancels, why and under which key (the checked ask) and in which language: the same
    for every order a cancel door reserves. ``natural``: the caller sent no request key
    (``request.request_key`` is a fresh one), so an identical recent cancel is a repeat
    (``same_recent_cancel``)."""

    parent_id: int
    request: CancelRequest
    lang: str
    natural: bool = False


def reserve_cancel(
    session: Session,
    *,
    by: Canceller,
    order_id: int,
    quantities: dict[int, int] | None,
    kind: str,
    drop_cart_ids: list[int] | None = None,
) -> CancelPlan:
    """One order's cancel under its row lock (first statement). ``quantities`` None: every
    active meal of the order (cancel the whole order)."""
    parent_id, request = by.parent_id, by.request
    loaded = load_order(session, order_id=order_id, parent_id=parent_id, lock=True)
    if loaded.order.placed_at is None:
        raise DomainError("order_not_found", field="order_id")
    wanted = quantities
    if wanted is None:
        found = find_cancellation(session, order_id, request.request_key)
        if found is not None:
            return found
        if by.natural:
            found = same_recent_cancel(session, loaded, kind=kind, lines=None, request=request)
            if found is not None:
                return found
        wanted = {
            line.id or 0: line.quantity - line.cancelled_quantity for line in loaded.active_lines()
        }
        if not wanted:
            raise DomainError(
                "cancel_order_not_cancellable", field="order_id", number=loaded.order.number
            )
    plan = apply_cancel(
        session,
        loaded,
        wanted,
        kind=kind,
        request=request,
        actor=actor_of(parent_id),
        lang=by.lang,
        now=clock.now(),
    )
    leave_cancel_cart(session, loaded, parent_id, drop_cart_ids)
    return plan


def natural_key(request_key: str | None) -> tuple[str, bool]:
    """``request_key`` as given, or, when there is none, a fresh key and True (natural mode)."""
    if request_key is None:
        return f"{NATURAL_KEY_PREFIX}{uuid.uuid4().hex}", True
    return request_key, False


def same_recent_cancel(
    session: Session,
    loaded: LoadedOrder,
    *,
    kind: str,
    lines: dict[int, int | None] | None,
    request: CancelRequest,
) -> CancelPlan | None:
    """The order's last cancellation when this key-less cancel repeats it (see
    ``NATURAL_REPEAT_WINDOW``), under the order's row lock. ``lines`` None: the whole order
    (a repeat when nothing is left active); a quantity None: all that was left of that line
    (a repeat when the line has nothing left)."""
    order_id = loaded.order.id or 0
    last = session.exec(
        select(OrderCancellation)
        .where(col(OrderCancellation.order_id) == order_id)
        .order_by(col(OrderCancellation.id).desc())
        .limit(1)
    ).first()
    if last is None or last.kind != kind or last.request_key is None:
        return None
    if last.reason_id != request.reason_id or (last.other_text or None) != (
        request.other_text or None
    ):
        return None
    stamp = last.created_at if last.created_at.tzinfo else last.created_at.replace(tzinfo=UTC)
    if clock.now() - stamp > NATURAL_REPEAT_WINDOW:
        return None
    took = {
        line_id: qty
        for line_id, qty in session.exec(
            select(
                col(OrderCancellationLine.order_line_id), col(OrderCancellationLine.quantity)
            ).where(col(OrderCancellationLine.cancellation_id) == last.id)
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
    return find_cancellation(session, order_id, last.request_key)


async def finish_cancels(plans: list[CancelPlan], *, runtime: Runtime = APP) -> CancelResult:
    refunded = pending = failed = 0
    for plan in plans:
        if plan.repeated:  # what the first cancel's refunds are now
            refunded += plan.refunded_cents
            pending += plan.pending_cents
            failed += plan.failed_cents
            continue
        states = await send_refunds(plan, runtime=runtime)
        done, waiting, refused = refund_outcomes(plan.refunds, states)
        refunded += done
        pending += waiting
        failed += refused
    total = sum(p.refund_cents for p in plans)
    credited = sum(p.credit_cents for p in plans)
    return CancelResult(
        order_ids=[p.order_id for p in plans],
        numbers=[p.order_number for p in plans],
        cancellation_ids=[p.cancellation_id for p in plans],
        refund_cents=total,
        refunded_cents=refunded,
        pending_cents=pending,
        statuses=[p.status for p in plans],
        repeated=bool(plans) and all(p.repeated for p in plans),
        credit_cents=credited,
        failed_cents=failed,
    )


async def cancel_order(
    *,
    parent_id: int,
    order_id: int,
    lang: str = "en",
    runtime: Runtime = APP,
    **ask: Unpack[CancelAsk],
) -> CancelResult:
    """CancelOrder: every meal still active of the order (all must be before their cut-off),
    with a reason; refunds what the order still holds (the card's share to the card or to
    family credit: ``refund_to``, None for the family's standing choice). Repeat-safe by
    ``request_key``; with none (None), by its natural key (``NATURAL_REPEAT_WINDOW``)."""
    lang = normalize_lang(lang)
    engine = runtime.engine
    by = await _naturally_keyed(parent_id, lang, ask, runtime=runtime)
    plan = await run_in_transaction(
        reserve_cancel, engine=engine, by=by, order_id=order_id, quantities=None, kind="order"
    )
    return await finish_cancels([plan], runtime=runtime)


async def _naturally_keyed(
    parent_id: int, lang: str, ask: CancelAsk, *, runtime: Runtime
) -> Canceller:
    """The ask checked (``checked_request``); one with no request key gets a fresh one and
    is repeat-safe by its natural key (``natural_key``)."""
    key, natural = natural_key(ask["request_key"])
    keyed: CancelAsk = {**ask, "request_key": key}
    return Canceller(parent_id, await checked_request(runtime=runtime, **keyed), lang, natural)


def _line_order(session: Session, *, parent_id: int, order_line_id: int) -> tuple[int, int]:
    line, order, _vendor = own_line(session, parent_id, order_line_id)
    return order.id or 0, line.quantity - line.cancelled_quantity


async def cancel_meal(
    *,
    parent_id: int,
    order_line_id: int,
    quantity: int | None = None,
    lang: str = "en",
    runtime: Runtime = APP,
    **ask: Unpack[CancelAsk],
) -> CancelResult:
    """CancelMeal: ``quantity`` meals (None: all that is left) of one line, before its
    cut-off, with a reason; ``refund_to`` as for ``cancel_order``. Repeat-safe by
    ``request_key``; with none (None), by its natural key (``NATURAL_REPEAT_WINDOW``)."""
    lang = normalize_lang(lang)
    engine = runtime.engine
    by = await _naturally_keyed(parent_id, lang, ask, runtime=runtime)
    oid, left = await run_in_transaction(
        _line_order, engine=engine, parent_id=parent_id, order_line_id=order_line_id
    )
    # Nothing left (a retry of this very cancel, or a line cancelled already): the locked
    # step below answers the retry or refuses.
    qty = max(left, 1) if quantity is None else quantity
    if qty < 1:
        raise DomainError("cancel_quantity_invalid", field="quantity", max=max(left, 1))
    plan = await run_in_transaction(
        _reserve_meal,
        engine=engine,
        by=by,
        order_id=oid,
        order_line_id=order_line_id,
        quantity=qty,
        all_left=quantity is None,
    )
    return await finish_cancels([plan], runtime=runtime)


def _reserve_meal(
    session: Session,
    *,
    by: Canceller,
    order_id: int,
    order_line_id: int,
    quantity: int,
    all_left: bool = False,
) -> CancelPlan:
    parent_id, request = by.parent_id, by.request
    loaded = load_order(session, order_id=order_id, parent_id=parent_id, lock=True)
    found = find_cancellation(session, order_id, request.request_key)
    if found is not None:
        return found
    if by.natural:
        found = same_recent_cancel(
            session,
            loaded,
            kind="meal",
            lines={order_line_id: None if all_left else quantity},
            request=request,
        )
        if found is not None:
            return found
    line = loaded.line(order_line_id)
    if line is None or line.status != LineStatus.ACTIVE:
        refuse_delivered(line, by.lang)
        raise DomainError("order_line_not_found", field="order_line_id")
    left = line.quantity - line.cancelled_quantity
    if quantity > left:
        raise DomainError("cancel_quantity_invalid", field="quantity", max=left)
    plan = apply_cancel(
        session,
        loaded,
        {order_line_id: quantity},
        kind="meal",
        request=request,
        actor=actor_of(parent_id),
        lang=by.lang,
        now=clock.now(),
    )
    leave_cancel_cart(session, loaded, parent_id)
    return plan
