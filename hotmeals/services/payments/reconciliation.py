"""Finding out what happened to charges and refunds whose answer was lost (or never
checked, or only a browser reported): Converge is asked by invoice (``find_by_invoice``) and
what it says is recorded once, whoever else confirms or reconciles at the same time. The
``reconcile_open_*`` functions are the periodic round's parts (``hotmeals/jobs``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import cast

from sqlmodel import Session, col, select

from hotmeals.converge.converge import SharedSearches
from hotmeals.converge.gateway import (
    HELD_STATUSES,
    GatewayError,
    PaymentGateway,
    UnknownOutcome,
)
from hotmeals.db.models import Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.services.payments import steps
from hotmeals.services.payments.charging import record_decline
from hotmeals.services.payments.duplicates import void_duplicate_sale
from hotmeals.services.payments.records import (
    PaymentState,
    PaymentView,
    RefundState,
    RefundView,
    converge_invoice,
    get_payment,
    refund_view,
)
from hotmeals.services.payments.refunds import VOID, RefundAnswer, settle_refund
from hotmeals.services.payments.runtime import actor_of
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

log = logging.getLogger("hotmeals.converge")

# A hosted session lives about 15 minutes; after this long with no charge at Converge, an
# attempt can be closed as EXPIRED. Also the wait before a lost stored-card sale is given up.
SESSION_WINDOW = timedelta(minutes=20)
REFUND_WINDOW = timedelta(minutes=20)


@dataclass(frozen=True)
class Asked:
    """What Converge said about one attempt: ``view`` after recording it; ``answered``
    False when Converge could not be asked (nothing was recorded)."""

    view: PaymentView
    answered: bool


async def ask_converge(
    *,
    payment_id: int,
    actor: str = "system",
    close_after: timedelta | None = SESSION_WINDOW,
    runtime: Runtime = APP,
) -> Asked:
    """Converge's word on one attempt, by its invoice (``find_by_invoice``), recorded once:

    - a confirming sale -> APPROVED, whatever the attempt's state (CREATED, UNKNOWN, or a
      failure a browser reported); further sales under the same invoice are duplicates,
      rows of their own, voided at once;
    - no sale and the attempt's session over (``close_after`` since it was created; None:
      never) -> closed: CREATED/UNKNOWN become EXPIRED, a reported failure keeps its state
      and is asked about no more;
    - otherwise (a sale held for review, the session may still be used) nothing changes.

    An attempt already approved or closed is not asked about again."""
    engine, gw = runtime.engine, runtime.converge
    payment, view = await run_in_transaction(
        steps.reconcile_inputs, engine=engine, payment_id=payment_id
    )
    if payment.state == PaymentState.APPROVED or payment.closed_at is not None:
        return Asked(view, True)
    current = runtime.now()
    # A sale of this attempt can only be made while its session lives: the search stops a
    # day after that (an old attempt asked about once is one short search, not months).
    last = min(current, payment.created_at + SESSION_WINDOW)
    found = await gw.find_by_invoice(
        payment.invoice_number,
        start=(payment.created_at - timedelta(days=1)).date(),
        end=(last + timedelta(days=1)).date(),
    )
    if isinstance(found, GatewayError | UnknownOutcome):
        log.warning("payment %s: could not ask Converge", payment_id)
        return Asked(view, False)
    sales = [
        q
        for q in found
        if q.confirms_sale(amount_cents=payment.amount_cents, invoice_number=payment.invoice_number)
    ]
    if sales:
        charge = steps.Charge.of_query(sales[0], "reconcile")
        try:
            view = await run_in_transaction(
                steps.record_approval,
                engine=engine,
                payment_id=payment_id,
                charge=charge,
                actor=actor,
            )
        except DomainError as err:
            if err.code != "payment_already_paid":
                raise
            _, view = await run_in_transaction(
                steps.reconcile_inputs, engine=engine, payment_id=payment_id
            )
        for other in sales:
            await void_duplicate_sale(
                payment_id=payment_id,
                charge=steps.Charge.of_query(other, "reconcile"),
                actor=actor,
                runtime=runtime,
            )
        return Asked(view, True)
    held = [
        q
        for q in found
        if q.transaction_type.upper() == "SALE"
        and q.status in HELD_STATUSES
        and q.amount_cents == payment.amount_cents
    ]
    if held or close_after is None or current - payment.created_at < close_after:
        return Asked(view, True)
    if payment.state in (PaymentState.CREATED, PaymentState.UNKNOWN):
        return Asked(
            await run_in_transaction(
                steps.expire, engine=engine, payment_id=payment_id, actor=actor
            ),
            True,
        )
    return Asked(
        await run_in_transaction(
            steps.close_attempt, engine=engine, payment_id=payment_id, actor=actor
        ),
        True,
    )


def browser_reason(message: str) -> str:
    """What a browser said of a failed attempt, as the screens keep it: its first 120
    characters, DECLINED when it said nothing."""
    return message[:120].strip() or "DECLINED"


async def report_browser_failure(
    *,
    payment_id: int,
    parent_id: int,
    message: str,
    runtime: Runtime = APP,
) -> Asked:
    """A browser (or an API client) says the attempt failed: ask Converge first. A sale it
    made is recorded (APPROVED: what it pays for is placed or applied); otherwise the
    report is kept as a hint (``record_decline``), and ``answered`` says whether Converge
    could be asked at all."""
    engine = runtime.engine
    await run_in_transaction(
        steps.reconcile_inputs_of, engine=engine, payment_id=payment_id, parent_id=parent_id
    )
    asked = await ask_converge(
        payment_id=payment_id,
        actor=actor_of(parent_id),
        close_after=None,
        runtime=runtime,
    )
    if asked.view.state == PaymentState.APPROVED:
        return asked
    view = await run_in_transaction(
        record_decline, engine=engine, payment_id=payment_id, message=message, parent_id=parent_id
    )
    return Asked(view, asked.answered)


async def reconcile_payment(
    *,
    payment_id: int,
    actor: str = "system",
    window: timedelta = SESSION_WINDOW,
    runtime: Runtime = APP,
) -> PaymentView:
    """Find out what happened to a payment whose answer we never got (or never checked, or
    only a browser reported): ``ask_converge`` with the session window. A confirming sale ->
    APPROVED (once, whoever else reconciles or confirms at the same time). No sale and the
    window over -> closed (EXPIRED when it was open). Otherwise nothing changes."""
    asked = await ask_converge(
        payment_id=payment_id,
        actor=actor,
        close_after=window,
        runtime=runtime,
    )
    return asked.view


async def reconcile_open_payments(
    *,
    unknown_after: timedelta = timedelta(minutes=1),
    window: timedelta = SESSION_WINDOW,
    runtime: Runtime = APP,
) -> list[PaymentView]:
    """The periodic job: reconcile UNKNOWN payments untouched for ``unknown_after``, CREATED
    ones whose hosted session is over (their browser never confirmed: paid and the
    confirmation lost, or abandoned), and failures only a browser reported, once their
    session is over (each asked about once, then closed)."""
    engine = runtime.engine
    current = runtime.now()  # fixed before the first search (``SharedSearches``)
    ids = await run_in_transaction(
        steps.open_payments,
        engine=engine,
        unknown_before=current - unknown_after,
        created_before=current - window,
    )
    # One search per day range for the whole round, not one per open attempt; the whole
    # round at one instant.
    shared = replace(
        runtime,
        gateway=cast(PaymentGateway, SharedSearches(runtime.converge)),
        clock=lambda: current,
    )
    views = []
    for pid in ids:
        views.append(await reconcile_payment(payment_id=pid, window=window, runtime=shared))
    return views


# -- refunds -----------------------------------------------------------------------------------


def _refund_inputs(session: Session, *, refund_id: int) -> tuple[Refund, Payment, str, set[str]]:
    row = session.get(Refund, refund_id)
    if row is None:
        raise DomainError("refund_not_found")
    payment = get_payment(session, row.payment_id)
    # A duplicate sale row's refund is found under the invoice its sale carries; the
    # refunds of every row of that invoice are the ones already claimed.
    invoice = converge_invoice(session, payment)
    root = payment.duplicate_of_id or payment.id
    rows = select(Payment.id).where(
        (col(Payment.id) == root) | (col(Payment.duplicate_of_id) == root)
    )
    known = session.exec(
        select(Refund.converge_txn_id).where(
            col(Refund.payment_id).in_(rows), col(Refund.converge_txn_id).is_not(None)
        )
    ).all()
    return row, payment, invoice, {t for t in known if t}


async def reconcile_refund(
    *,
    refund_id: int,
    actor: str = "system",
    window: timedelta = REFUND_WINDOW,
    runtime: Runtime = APP,
) -> RefundView:
    """A refund whose answer was lost: look for a VOID/RETURN of that amount under the
    payment's invoice that no other refund row claims. Found -> SUCCEEDED; none once the
    window is over -> FAILED (the money is refundable again); otherwise unchanged."""
    engine, gw = runtime.engine, runtime.converge
    row, payment, invoice, known = await run_in_transaction(
        _refund_inputs, engine=engine, refund_id=refund_id
    )
    if row.state not in (RefundState.PENDING, RefundState.UNKNOWN):
        return refund_view(row)
    current = runtime.now()
    found = await gw.find_by_invoice(
        invoice,
        start=(row.created_at - timedelta(days=1)).date(),
        end=(current + timedelta(days=1)).date(),
    )
    if isinstance(found, GatewayError | UnknownOutcome):
        return refund_view(row)
    kinds = {"VOID", "DELETE"} if row.kind == VOID else {"RETURN"}
    match = next(
        (
            q
            for q in found
            if q.transaction_type.upper() in kinds
            and q.amount_cents == row.amount_cents
            and q.txn_id not in known
        ),
        None,
    )
    if match is not None:
        answer = RefundAnswer(RefundState.SUCCEEDED, "refund.succeeded", match.txn_id, "reconciled")
    elif current - row.created_at < window:
        return refund_view(row)
    else:
        answer = RefundAnswer(
            RefundState.FAILED, "refund.failed", message="no refund at Converge (reconciled)"
        )
    return await run_in_transaction(
        settle_refund,
        engine=engine,
        refund_id=refund_id,
        payment_id=payment.id,
        answer=answer,
        actor=actor,
        from_states=(RefundState.PENDING, RefundState.UNKNOWN),
    )


def _open_refunds(session: Session, *, before: datetime) -> list[int]:
    rows = session.exec(
        select(Refund.id)
        .where(
            col(Refund.state).in_([RefundState.PENDING, RefundState.UNKNOWN]),
            Refund.updated_at <= before,
        )
        .order_by(col(Refund.id))
    ).all()
    return [rid for rid in rows if rid is not None]


async def reconcile_open_refunds(
    *,
    older_than: timedelta = timedelta(minutes=2),
    runtime: Runtime = APP,
) -> list[RefundView]:
    """The periodic job for refunds whose answer never came (PENDING or UNKNOWN)."""
    engine = runtime.engine
    current = runtime.now()  # fixed before the first search (``SharedSearches``)
    ids = await run_in_transaction(_open_refunds, engine=engine, before=current - older_than)
    shared = replace(
        runtime,
        gateway=cast(PaymentGateway, SharedSearches(runtime.converge)),
        clock=lambda: current,
    )
    return [await reconcile_refund(refund_id=rid, runtime=shared) for rid in ids]
