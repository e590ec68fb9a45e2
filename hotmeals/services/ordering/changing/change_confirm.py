"""Confirming a change (a modify's draft, or a move): every step checked again and priced
under the order's lock; a decrease (or no difference) applied at once with its refund reserved
and sent; an increase reserved as an ``ORDER_CHANGE`` payment, charged to a saved card or paid
in the Lightbox (``change_payment`` settles its outcome). A repeat of the request key answers
what the first confirm did."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import Order, OrderChange, StoredCard
from hotmeals.domain.credit import RefundDestination
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import PAID_STATUSES, OrderStatus
from hotmeals.domain.payment_states import PaymentState, Purpose, RefundState
from hotmeals.domain.refunds import change_refund_reason
from hotmeals.services.ordering.cancelling.cancel import (
    check_refund_to,
    credited_cents,
    refund_outcomes,
    reserve_order_refund,
    send_planned_refunds,
)
from hotmeals.services.ordering.changing.change_apply import apply_change, tax_within
from hotmeals.services.ordering.changing.change_payment import (
    ask_open_attempts,
    close_stale_payments,
    payment_state,
    settle,
)
from hotmeals.services.ordering.changing.change_plan import (
    DRAFT,
    PAYING,
    draft_steps,
    find_draft,
    load_for_change,
    plan_change,
)
from hotmeals.services.ordering.changing.change_result import ChangeResult, result_of
from hotmeals.services.ordering.mails import queue_change_mail
from hotmeals.services.payments import (
    HostedSession,
    PlannedRefund,
    open_payment_attempt,
    reserve_payment,
)
from hotmeals.services.payments.credit_pay import credit_split, pay_with_credit
from hotmeals.services.payments.records import lock_row
from hotmeals.services.payments.runtime import actor_of
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.submissions import checked_key, recall, remember
from hotmeals.services.transaction import run_in_transaction

PAY_ACTION = "modify_confirm_pay"


@dataclass(frozen=True)
class _Confirmed:
    """What the confirm's transaction did: a ``repeat`` of the request key (the first
    confirm's change), or the change confirmed with its card payment to open
    (``payment_id``) or its refunds reserved (``planned``)."""

    repeat: bool
    change_id: int
    payment_id: int | None = None
    planned: tuple[PlannedRefund, ...] = ()


def _confirm_step(
    session: Session,
    *,
    parent_id: int,
    order_id: int,
    change_id: int | None,
    request_key: str | None,
    card_id: int | None,
    lang: str,
    refund_to: RefundDestination | None = None,
    use_credit: bool = True,
) -> _Confirmed:
    """Step 1 under the order's lock: a repeat of ``request_key`` answers what the first did;
    otherwise every step is checked again and priced; a decrease (or no difference) is applied
    with its refund reserved; an increase family credit covers is paid with it and applied at
    once; any other increase reserves its ORDER_CHANGE card payment for what credit does not
    cover (credit's share is spent when the card's approval applies the change)."""
    now = clock.now()
    order = lock_row(session, Order, order_id)
    if order is None or order.parent_id != parent_id:
        raise DomainError("order_change_order_not_found", field="order_id")
    if request_key:
        seen = session.exec(
            select(OrderChange).where(
                col(OrderChange.order_id) == order_id, col(OrderChange.request_key) == request_key
            )
        ).first()
        if seen is not None:
            return _Confirmed(repeat=True, change_id=seen.id or 0)
    if OrderStatus(order.status) not in PAID_STATUSES:
        raise DomainError("order_change_not_modifiable", field="order_id", number=order.number)
    if card_id is not None:
        card = session.get(StoredCard, card_id)
        if card is None or card.parent_id != parent_id or card.deleted_at is not None:
            raise DomainError("card_not_found", field="card_id")
    close_stale_payments(session, order_id)
    change = (
        session.get(OrderChange, change_id)
        if change_id
        else find_draft(session, order, create=False, now=now)
    )
    if change is None or change.order_id != order_id or change.state != DRAFT:
        raise DomainError("order_change_empty", field="order_id")
    steps = draft_steps(session, change.id)
    if not steps:
        raise DomainError("order_change_empty", field="order_id")
    loaded = load_for_change(session, order)
    plan, _ = plan_change(session, loaded, steps, lang=lang, now=now, strict=True)
    diff = plan.difference
    change.request_key = request_key
    change.amount_cents = diff
    change.tax_cents = tax_within(plan, diff)
    change.updated_at = now
    split = credit_split(session, parent_id, diff, use_credit=use_credit)
    if diff > 0 and split.card_cents == 0:
        # Family credit covers the increase: paid and applied now (no card). The parent's row
        # is locked by the spend, so the balance read is the balance spent.
        credit_paid = pay_with_credit(
            session, order, diff, actor=actor_of(parent_id), change_id=change.id
        )
        change.payment_id = credit_paid.id
        apply_change(session, change, plan, now)
        queue_change_mail(session, order, change, plan)
        return _Confirmed(repeat=False, change_id=change.id or 0)
    if diff > 0:
        # The card pays what credit does not; credit's share is spent only when the card's
        # approval applies the change (``apply_paid_change``), never before.
        payment = reserve_payment(
            session,
            parent_id=parent_id,
            purpose=Purpose.ORDER_CHANGE,
            amount_cents=split.card_cents,
            order_id=order_id,
        )
        change.state = PAYING
        change.payment_id = payment.id
        session.add(change)
        session.flush()
        return _Confirmed(repeat=False, change_id=change.id or 0, payment_id=payment.id)
    # Applied without a payment: an earlier attempt of this draft no longer pays for it (a
    # late sale of it is voided, never counted as this change's money).
    change.payment_id = None
    cancellation_id = apply_change(session, change, plan, now)
    planned = (
        reserve_order_refund(
            session,
            order,
            -diff,
            reason=change_refund_reason(change.id),
            actor=actor_of(order.parent_id),
            cancellation_id=cancellation_id,
            refund_to=refund_to,
        )
        if diff < 0
        else []
    )
    queue_change_mail(session, order, change, plan)
    return _Confirmed(repeat=False, change_id=change.id or 0, planned=tuple(planned))


async def _send_refunds(
    planned: list[PlannedRefund], actor: str, *, runtime: Runtime
) -> tuple[int, bool]:
    """Converge voids or returns each reserved refund (one to family credit is done already).
    Returns (cents refunded, every refund succeeded)."""
    states = await send_planned_refunds(planned, actor=actor, runtime=runtime)
    done, _pending, _failed = refund_outcomes(planned, states)
    return done, all(state == RefundState.SUCCEEDED for state in states)


async def confirm(
    *,
    parent_id: int,
    order_id: int,
    change_id: int | None,
    lang: str,
    runtime: Runtime = APP,
    request_key: str | None = None,
    card_id: int | None = None,
    save_card: bool = False,
    refund_to: str = "",
    use_credit: bool = True,
) -> ChangeResult:
    """Confirm the change ``change_id`` (None: the order's draft modification) of the
    parent's order ``order_id``: ``request_key`` (the same key again answers what the first
    confirm did), an increase paid with the saved card ``card_id`` or in the Lightbox
    (``save_card``), family credit paying first (``use_credit``), a decrease refunded to
    ``refund_to`` ("card" or "credit"; "": the family's standing choice)."""
    key = checked_key(request_key)
    destination = check_refund_to(refund_to)
    engine = runtime.engine
    await ask_open_attempts(order_id, runtime=runtime)
    step = await run_in_transaction(
        _confirm_step,
        engine=engine,
        parent_id=parent_id,
        order_id=order_id,
        change_id=change_id,
        request_key=key,
        card_id=card_id,
        lang=lang,
        refund_to=destination,
        use_credit=use_credit,
    )
    if step.repeat:
        return await repeat(step.change_id, parent_id, key, runtime=runtime)
    if step.payment_id is None:
        planned = list(step.planned)
        done, ok = await _send_refunds(planned, actor_of(parent_id), runtime=runtime)
        return await run_in_transaction(
            result_of,
            engine=engine,
            change_id=step.change_id,
            refund_cents=done,
            refund_ok=ok,
            credit_cents=credited_cents(planned),
        )
    hosted = await open_payment_attempt(
        payment_id=step.payment_id,
        parent_id=parent_id,
        card_id=card_id,
        save_card=save_card,
        runtime=runtime,
    )
    if not isinstance(hosted, HostedSession):  # the saved card was charged: its outcome
        return await settle(step.change_id, parent_id=parent_id, runtime=runtime)
    # Kept under the request key so that a repeat opens this same Lightbox session.
    await run_in_transaction(
        remember,
        engine=engine,
        parent_id=parent_id,
        key=key,
        action=PAY_ACTION,
        result={"change_id": step.change_id, "hosted": asdict(hosted)},
    )
    return await _pay_answer(step.change_id, hosted, runtime=runtime)


async def _pay_answer(change_id: int, hosted: HostedSession, *, runtime: Runtime) -> ChangeResult:
    result = await run_in_transaction(result_of, engine=runtime.engine, change_id=change_id)
    return replace(
        result,
        status="pay",
        hosted=hosted,
        notice="order_change.pay",
        notice_cents=hosted.amount_cents,
    )


async def repeat(
    change_id: int, parent_id: int, key: str | None, *, runtime: Runtime = APP
) -> ChangeResult:
    """A repeat of a confirm answers what the first did: while its payment is still to be
    made in the Lightbox (nothing charged), the same Lightbox session, not "pending"."""
    engine = runtime.engine
    result = await run_in_transaction(result_of, engine=engine, change_id=change_id)
    if result.status != "pending" or result.payment_id is None:
        return result
    first = await run_in_transaction(
        recall, engine=engine, parent_id=parent_id, key=key, action=PAY_ACTION
    )
    state = await run_in_transaction(payment_state, engine=engine, payment_id=result.payment_id)
    if not first or first.get("change_id") != change_id or state != PaymentState.CREATED:
        return result
    return await _pay_answer(change_id, HostedSession(**first["hosted"]), runtime=runtime)
