"""The cancel write of a paid order, in the caller's transaction under the order's lock: the
checks (the order cancellable, the quantities, the cut-offs), the ``OrderCancellation`` and its
lines, the lines' cancelled quantities and statuses, the order's status, the refund rows
reserved and the e-mail queued. ``apply_cancel`` is the one door for a cancel;
``record_cancel`` the write it shares with an applied change that removes meals. Then, with
no transaction open, ``send_refunds`` calls Converge for the reserved refunds (a void before
settlement, a return after) and records each outcome.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Required, TypedDict

from sqlalchemy import insert
from sqlmodel import Session, col, select

from hotmeals.db.models import (
    CancelReason,
    Order,
    OrderCancellation,
    OrderCancellationLine,
    OrderLine,
    Refund,
    Vendor,
)
from hotmeals.domain.credit import RefundDestination
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import (
    OrderStatus,
    can_cancel,
)
from hotmeals.domain.payment_states import RefundKind, RefundState
from hotmeals.domain.refunds import cancel_refund_reason
from hotmeals.services import credit
from hotmeals.services.ordering import lifecycle
from hotmeals.services.ordering.cancelling.refund_plan import refund_plan
from hotmeals.services.ordering.labels import order_day
from hotmeals.services.ordering.loaded_order import LoadedOrder, line_is_open, refuse_delivered
from hotmeals.services.ordering.mails import queue_cancel_mail
from hotmeals.services.ordering.order_events import audit_order
from hotmeals.services.payments import PlannedRefund, execute_refund, reserve_refund
from hotmeals.services.payments.records import owed_failed
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

if TYPE_CHECKING:
    from typing_extensions import Unpack  # typing.Unpack from Python 3.12

OTHER_TEXT_MAX = 500
REQUEST_KEY_MAX = 64


@dataclass
class CancelPlan:
    order_id: int
    order_number: str
    parent_id: int
    cancellation_id: int
    refund_cents: int
    status: str
    repeated: bool  # the same request_key was already applied: nothing new was done
    refunds: list[PlannedRefund] = field(default_factory=list)
    actor: str = ""
    # A repeat: where the first cancel's refunds stand now: a retry answers what
    # the first did, not 0 while its refund is on its way).
    refunded_cents: int = 0
    pending_cents: int = 0
    failed_cents: int = 0
    credit_cents: int = 0  # of refund_cents, what went to family credit (done at once)


def check_reason(
    session: Session, reason_id: int | None, other_text: str
) -> tuple[int, str | None]:
    """A reason from ``CancelReason`` (None or 0: none chosen); the Other entry needs its free
    text (1..500)."""
    reason = session.get(CancelReason, reason_id) if reason_id else None
    if reason is None or reason.id is None:
        raise DomainError("cancel_reason_required", field="reason_id")
    text = other_text.strip()
    if reason.is_other and not text:
        raise DomainError("cancel_other_text_required", field="other_text")
    if len(text) > OTHER_TEXT_MAX:
        raise DomainError("cancel_other_text_too_long", field="other_text", max=OTHER_TEXT_MAX)
    return reason.id, (text or None)


@dataclass(frozen=True)
class CancelRequest:
    """Why and under which key the parent cancels: the reason (with the Other entry's text)
    and the request key that makes a retry answer the first cancel."""

    reason_id: int | None
    other_text: str | None
    request_key: str
    # Where the refund of the card's share goes; None: the family's standing choice.
    refund_to: RefundDestination | None = None


class CancelAsk(TypedDict, total=False):
    """Why and under which key the parent cancels, as the browser or the API sends it (every
    cancel door: CancelOrder, CancelMeal, CancelCart): checked into a ``CancelRequest``."""

    reason_id: Required[int | None]
    other_text: str  # "": none (only the Other reason needs one)
    request_key: Required[str | None]
    refund_to: str  # "card" or "credit"; "": the family's standing choice


def check_request(session: Session, **ask: Unpack[CancelAsk]) -> CancelRequest:
    """The reason, the request key and the refund's destination of a cancel, checked."""
    key = check_request_key(ask["request_key"])
    rid, text = check_reason(session, ask["reason_id"], ask.get("other_text", ""))
    return CancelRequest(
        reason_id=rid,
        other_text=text,
        request_key=key,
        refund_to=check_refund_to(ask.get("refund_to", "")),
    )


async def checked_request(*, runtime: Runtime = APP, **ask: Unpack[CancelAsk]) -> CancelRequest:
    """``check_request`` in a transaction of its own (the cancel doors' first step)."""
    return await run_in_transaction(check_request, engine=runtime.engine, **ask)


def check_refund_to(refund_to: str) -> RefundDestination | None:
    """``"card"`` or ``"credit"`` (or the enum); ``""``: the family's standing choice."""
    if not refund_to:
        return None
    try:
        return RefundDestination(refund_to)
    except ValueError:
        raise DomainError("refund_destination_invalid", field="refund_to") from None


def refund_destination(
    session: Session, parent_id: int, wanted: RefundDestination | None
) -> RefundDestination:
    """Where this refund goes: as asked, else the family's standing choice (the card)."""
    return wanted if wanted is not None else credit.refund_to(session, parent_id)


def reserve_order_refund(
    session: Session,
    order: Order,
    amount_cents: int,
    *,
    reason: str,
    actor: str,
    cancellation_id: int | None,
    refund_to: RefundDestination | None,
) -> list[PlannedRefund]:
    """The refund rows of what a change of ``order`` gives back (a cancel, a decrease),
    reserved in the transaction that changes it (the payment service's own reservation: under
    the order's and payments' locks, never more than refundable); sent to Converge once
    committed. To family credit (``refund_to``, else the family's standing choice): done here
    at once, nothing is sent."""
    to = refund_destination(session, order.parent_id, refund_to)
    return reserve_refund(
        session,
        amount_cents=amount_cents,
        reason=reason,
        order_id=order.id,
        parent_id=order.parent_id,
        actor=actor,
        cancellation_id=cancellation_id,
        to_credit=to is RefundDestination.CREDIT,
    )


def credited_cents(refunds: Sequence[Refund | PlannedRefund]) -> int:
    """Of these refunds, the cents that went to family credit."""
    return sum(r.amount_cents for r in refunds if r.kind == RefundKind.CREDIT)


def check_request_key(request_key: str | None) -> str:
    if request_key is None or not 1 <= len(request_key.strip()) <= REQUEST_KEY_MAX:
        raise DomainError("cancel_request_key_invalid", field="request_key")
    return request_key.strip()


def find_cancellation(session: Session, order_id: int, request_key: str) -> CancelPlan | None:
    """The cancellation already recorded for this order and key (a retry), if any."""
    row = session.exec(
        select(OrderCancellation).where(
            col(OrderCancellation.order_id) == order_id,
            col(OrderCancellation.request_key) == request_key,
        )
    ).first()
    if row is None:
        return None
    order = session.get(Order, order_id)
    assert order is not None
    refunds = session.exec(select(Refund).where(col(Refund.cancellation_id) == row.id)).all()
    refunded = sum(r.amount_cents for r in refunds if r.state == RefundState.SUCCEEDED)
    pending = sum(
        r.amount_cents for r in refunds if r.state in (RefundState.PENDING, RefundState.UNKNOWN)
    )
    failed = sum(r.amount_cents for r in refunds if owed_failed(r))
    return CancelPlan(
        order_id=order_id,
        order_number=order.number,
        parent_id=order.parent_id,
        cancellation_id=row.id or 0,
        refund_cents=refunded + pending + failed,
        status=order.status,
        repeated=True,
        actor=row.actor,
        refunded_cents=refunded,
        pending_cents=pending,
        failed_cents=failed,
        credit_cents=credited_cents(refunds),
    )


def ensure_cancellable_line(line: OrderLine, vendor: Vendor, now: datetime, lang: str) -> None:
    """The cancel doors' cut-off: ``cancel_cutoff_passed`` naming the line's day."""
    if not line_is_open(line, vendor, now):
        raise DomainError(
            "cancel_cutoff_passed", field="order_line_id", day=order_day(line.meal_date, lang)
        )


def ensure_lines_open(
    loaded: LoadedOrder, line_ids: list[int], now: datetime, lang: str = "en"
) -> None:
    """``ensure_cancellable_line`` for the earliest of ``line_ids`` that is closed."""
    for line in sorted((x for x in loaded.lines if x.id in line_ids), key=lambda x: x.meal_date):
        ensure_cancellable_line(line, loaded.vendors[line.vendor_id], now, lang)


def record_cancel(
    session: Session,
    loaded: LoadedOrder,
    quantities: Mapping[int, int],
    *,
    kind: str,
    request_key: str,
    actor: str,
    now: datetime,
    reason_id: int | None = None,
    other_text: str | None = None,
    adds_lines: bool = False,
) -> OrderCancellation:
    """Write the cancel of ``quantities[line_id]`` meals of ``loaded``'s lines (checked by the
    caller): the ``OrderCancellation`` and its lines, each line's cancelled quantity and
    status, and the order's status (``adds_lines``: the same change adds active lines), both
    moved by ``lifecycle.cancel_lines``."""
    order = loaded.order
    cancellation = OrderCancellation(
        order_id=order.id or 0,
        kind=kind,
        reason_id=reason_id,
        other_text=other_text,
        request_key=request_key,
        actor=actor[:40],
        created_at=now,
    )
    session.add(cancellation)
    session.flush()
    # One executemany whatever the number of lines (the ORM would insert row by row).
    table: Any = OrderCancellationLine
    session.execute(
        insert(table.__table__),
        [
            {"cancellation_id": cancellation.id, "order_line_id": line_id, "quantity": qty}
            for line_id, qty in sorted(quantities.items())
        ],
    )
    lifecycle.cancel_lines(
        session,
        order,
        list(loaded.lines),
        quantities,
        now=now,
        actor=actor[:40],
        cancellation_id=cancellation.id,
        adds_lines=adds_lines,
    )
    session.flush()
    return cancellation


def apply_cancel(
    session: Session,
    loaded: LoadedOrder,
    quantities: Mapping[int, int],
    *,
    kind: str,
    request: CancelRequest,
    actor: str,
    lang: str,
    now: datetime,
    mail: bool = True,
) -> CancelPlan:
    """Cancel ``quantities[line_id]`` meals of each line of ``loaded`` (loaded with
    ``lock=True`` in this transaction). Repeat-safe by ``request_key`` (per order): a key
    already used returns that cancellation with ``repeated=True`` and changes nothing.
    Refuses (``DomainError``): the order not cancellable, a line not of this order or not
    active, a quantity outside 1..what is left, a line past its cut-off. The refund is
    ``refund_plan`` (net of every refund already reserved); the Refund rows are reserved here
    (no Converge call) and returned in ``plan.refunds`` for ``send_refunds``; to family credit
    (``request.refund_to``, else the family's standing choice) they are done here at once."""
    order = loaded.order
    found = find_cancellation(session, order.id or 0, request.request_key)
    if found is not None:
        return found
    if not can_cancel(OrderStatus(order.status)):
        raise DomainError("cancel_order_not_cancellable", field="order_id", number=order.number)
    if not quantities:
        raise DomainError("cancel_nothing_selected")
    by_id = {line.id: line for line in loaded.active_lines()}
    for line_id, qty in quantities.items():
        line = by_id.get(line_id)
        if line is None:
            refuse_delivered(loaded.line(line_id), lang)
            raise DomainError("order_line_not_found", field="order_line_id")
        left = line.quantity - line.cancelled_quantity
        if isinstance(qty, bool) or not isinstance(qty, int) or not 1 <= qty <= left:
            raise DomainError("invalid_cancel_quantity", field="quantity", max=left)
    ensure_lines_open(loaded, list(quantities), now, lang)
    plan = refund_plan(loaded, quantities)
    cancellation = record_cancel(
        session,
        loaded,
        quantities,
        kind=kind,
        request_key=request.request_key,
        actor=actor,
        now=now,
        reason_id=request.reason_id,
        other_text=request.other_text,
    )
    refunds: list[PlannedRefund] = []
    if plan.refund_cents > 0:
        refunds = reserve_order_refund(
            session,
            order,
            plan.refund_cents,
            reason=cancel_refund_reason(kind, order.number),
            actor=actor,
            cancellation_id=cancellation.id,
            refund_to=request.refund_to,
        )
    credit_cents = credited_cents(refunds)
    audit_order(
        session,
        order,
        kind=f"order.cancel_{kind}",
        actor=actor,
        data={
            "number": order.number,
            "cancellation_id": cancellation.id,
            "lines": {str(k): v for k, v in quantities.items()},
            "refund_cents": plan.refund_cents,
            "credit_cents": credit_cents,
            "status": order.status,
        },
    )
    if mail:
        queue_cancel_mail(
            session,
            loaded,
            quantities,
            refund_cents=plan.refund_cents,
            credit_cents=credit_cents,
        )
    return CancelPlan(
        order_id=order.id or 0,
        order_number=order.number,
        parent_id=order.parent_id,
        cancellation_id=cancellation.id or 0,
        refund_cents=plan.refund_cents,
        status=order.status,
        repeated=False,
        refunds=refunds,
        actor=actor,
        credit_cents=credit_cents,
    )


async def send_refunds(plan: CancelPlan, *, runtime: Runtime = APP) -> list[str]:
    """Step 2 and 3 for the refunds ``apply_cancel`` reserved: ``send_planned_refunds``."""
    return await send_planned_refunds(plan.refunds, actor=plan.actor or "system", runtime=runtime)


async def send_planned_refunds(
    planned: list[PlannedRefund],
    *,
    actor: str,
    runtime: Runtime = APP,
) -> list[str]:
    """With no transaction open, Converge voids or returns each reserved refund and the
    outcome is recorded (a lost answer is left to the payment service's reconciliation).
    Returns each refund's final state."""
    states = []
    for item in planned:
        view = await execute_refund(item, actor=actor, runtime=runtime)
        states.append(str(view.state))
    return states


def refund_outcomes(
    planned: Sequence[PlannedRefund], states: Sequence[str]
) -> tuple[int, int, int]:
    """The cents of ``planned`` by the state each ended in once sent (``send_planned_refunds``):
    (refunded, still on its way: PENDING or UNKNOWN, refused)."""
    refunded = pending = failed = 0
    for item, state in zip(planned, states, strict=True):
        if state == RefundState.SUCCEEDED:
            refunded += item.amount_cents
        elif state in (RefundState.PENDING, RefundState.UNKNOWN):
            pending += item.amount_cents
        else:
            failed += item.amount_cents
    return refunded, pending, failed
