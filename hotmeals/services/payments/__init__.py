"""The only door to money movement: charges, their confirmation and reconciliation, refunds.

No Reflex, no FastAPI here. A Reflex background handler and an ``/api/v1`` route both
``await`` the same functions; synchronous code (a thread, a CLI) uses ``run_sync``.

Design
------
Rows, not flags. Every charge attempt is a ``Payment`` row and every refund attempt a
``Refund`` row, each with its own state (``domain/payments.py`` lists them and their moves).
What a payment pays for reacts to its outcomes through one handler per purpose
(``purposes.py``), the same for the Lightbox and the saved-card paths. What was paid is
the sum of APPROVED payments; what can still be refunded is that minus every refund that
succeeded or may still succeed (PENDING, UNKNOWN). Nothing stores "paid" or "refunded".

No transaction is held open across a network call. Converge can take 30 s to answer; a
database transaction (and on SQLite the single write lock) must not wait that long. So each
operation is three short steps:

1. **reserve** in one transaction, under the row lock: check the rules against the sums and
   write what we are about to do (a CREATED/UNKNOWN payment, a PENDING refund), then commit;
2. **call** Converge with no transaction open;
3. **record** the outcome in a new transaction, again under the row lock, with a conditional
   UPDATE that only moves the row from the state step 1 left it in.

"Assume every operation runs concurrently with itself." The lock (``lock_row``:
``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite a write to the row as the transaction's
first statement, which takes the database's write lock before anything is read) serialises
the checks, and the conditional UPDATE means a second writer changes nothing even if it got
past a check. So twenty confirmations of one approval record one APPROVED payment and one
``payment.approved`` event, and two refunds at once can never add up to more than was paid.

Never trust the browser. After the Lightbox's ``onApproval`` the browser only tells us a
transaction id; ``confirm_payment`` asks Converge (``txnquery``) and counts the payment as
paid only if that transaction is an approved, unvoided SALE for exactly our amount and our
invoice number (unique per payment, so one transaction can confirm one payment only).

Never charge twice. Converge has no idempotency key: every charge has its own invoice number.
When an answer is lost (``UnknownOutcome``) the payment stays UNKNOWN and ``reconcile_payment``
looks the invoice up (``find_by_invoice``); only when Converge has no such charge after the
session window is the attempt marked EXPIRED and may the parent try again, with a new payment.

Refunds: a VOID when the whole payment is refunded before settlement, else a RETURN
(``ccreturn``); a void refused with 4018 (settled meanwhile) falls back to a return.

Every movement writes an ``AuditEvent`` (``payment.created``, ``payment.approved``,
``payment.declined``, ``refund.succeeded``, ...) with ids, amounts, invoice numbers and masked
cards, never a PIN, card number, CVV or token.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from hotmeals.db.models import Donation, Order, Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.payments.gateway import (
    Approved,
    Declined,
    GatewayError,
    PaymentGateway,
    SaleOutcome,
    SessionTokenError,
    UnknownOutcome,
)
from hotmeals.services.clock import now as utcnow
from hotmeals.services.payments import steps
from hotmeals.services.payments.purposes import handler_for
from hotmeals.services.payments.records import (
    PaymentState,
    PaymentView,
    Purpose,
    RefundState,
    RefundView,
    audit,
    clip,
    get_payment,
    new_invoice_number,
    payment_view,
    refund_sums,
    refund_view,
)
from hotmeals.services.payments.runtime import (
    actor_of,
    db,
    gateway_or_default,
    lightbox_script_url,
    run_sync,
)

log = logging.getLogger("hotmeals.payments")

MAX_PAYMENT_CENTS = 1_000_000  # $10,000: far above any order; a typo guard, not a business rule
# A hosted session lives about 15 minutes; after this long with no charge at Converge, an
# attempt can be closed as EXPIRED. Also the wait before a lost stored-card sale is given up.
SESSION_WINDOW = timedelta(minutes=20)
TXN_ID_MAX = steps.TXN_ID_MAX


# -- results ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HostedSession:
    """What the browser needs to open the Lightbox: the token and the script's URL. The
    amount and invoice are the server's, shown for the parent's information only."""

    payment_id: int
    token: str = field(repr=False)
    lightbox_url: str
    amount_cents: int
    invoice_number: str
    purpose: str
    transaction_type: str = "ccsale"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# -- step helpers (each runs in one transaction) -------------------------------------------------


def reserve_payment(
    session: Session,
    *,
    parent_id: int,
    purpose: str,
    amount_cents: int,
    order_id: int | None = None,
    donation_id: int | None = None,
    actor: str | None = None,
) -> Payment:
    """A CREATED payment with a fresh invoice number, in the caller's transaction (so the
    order or donation it pays for is written in the same one). Amount and purpose come from
    the server: the order's total, the donation's amount."""
    if isinstance(amount_cents, bool) or not isinstance(amount_cents, int):
        raise TypeError("amount_cents must be an int")
    if not 0 < amount_cents <= MAX_PAYMENT_CENTS:
        raise DomainError("invalid_amount", field="amount")
    purpose = Purpose(purpose).value
    # What each purpose pays for must exist and be the parent's (its handler acts on it).
    if purpose in (Purpose.ORDER, Purpose.ORDER_CHANGE) and order_id is None:
        raise DomainError("payment_purpose_invalid", field="purpose")
    if purpose == Purpose.DONATION and donation_id is None:
        raise DomainError("payment_purpose_invalid", field="purpose")
    if purpose == Purpose.CARD_CHECK:
        # A card check moves no money: it has no payment row (services/cards.py).
        raise DomainError("payment_purpose_invalid", field="purpose")
    order = None
    if order_id is not None:
        order = session.get(Order, order_id)
        if order is None or order.parent_id != parent_id:
            raise DomainError("payment_order_not_found")
    if donation_id is not None:
        donation = session.get(Donation, donation_id)
        if donation is None or donation.parent_id != parent_id:
            raise DomainError("payment_purpose_invalid", field="purpose")
    now = utcnow()
    payment = Payment(
        parent_id=parent_id,
        order_id=order_id,
        donation_id=donation_id,
        purpose=purpose,
        invoice_number=new_invoice_number(
            purpose, now, order_number=order.number if order is not None else None
        ),
        amount_cents=amount_cents,
        state=PaymentState.CREATED,
        created_at=now,
        updated_at=now,
    )
    session.add(payment)
    session.flush()
    handler_for(purpose).reserved(session, payment)
    audit(
        session,
        actor=actor_of(parent_id, actor),
        kind="payment.created",
        entity="payment",
        entity_id=payment.id,
        data={
            "purpose": purpose,
            "amount_cents": amount_cents,
            "invoice": payment.invoice_number,
            "order_id": order_id,
            "donation_id": donation_id,
        },
    )
    return payment


# -- public: reading -----------------------------------------------------------------------------


def get_payment_view(session: Session, *, payment_id: int, parent_id: int | None = None):
    """One payment with its sums (``payment_not_found`` for another parent's)."""
    return payment_view(session, get_payment(session, payment_id, parent_id))


def list_payments(session: Session, *, parent_id: int) -> list[PaymentView]:
    rows = session.exec(
        select(Payment).where(Payment.parent_id == parent_id).order_by(Payment.id.desc())
    ).all()
    sums = refund_sums(session, [p.id for p in rows])
    return [payment_view(session, p, sums[p.id]) for p in rows]


def list_refunds(session: Session, *, payment_id: int) -> list[RefundView]:
    rows = session.exec(
        select(Refund).where(Refund.payment_id == payment_id).order_by(Refund.id)
    ).all()
    return [refund_view(r) for r in rows]


# -- public: charging ----------------------------------------------------------------------------


async def open_hosted_session(
    *,
    payment_id: int,
    parent_id: int | None = None,
    save_card: bool = False,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> HostedSession:
    """A Lightbox session token for a CREATED payment. A refused or unanswered token request
    closes the attempt as ERROR (nothing can have been charged) and raises
    ``payment_unavailable``; the parent may simply try again."""
    gw = gateway_or_default(gateway)
    inputs = await db(engine, steps.session_inputs, payment_id=payment_id, parent_id=parent_id)
    try:
        token = await gw.create_session_token(
            inputs["amount_cents"],
            inputs["invoice"],
            first_name=inputs["first_name"],
            last_name=inputs["last_name"],
            email=inputs["email"],
            save_card=save_card,
            merchant_txn_id=f"HM-P{payment_id}",
        )
    except SessionTokenError as exc:
        await db(
            engine,
            steps.mark_failed,
            payment_id=payment_id,
            to=PaymentState.ERROR,
            message=str(exc),
            kind="payment.session_failed",
            actor="converge",
        )
        raise DomainError("payment_unavailable") from None
    return HostedSession(
        payment_id=payment_id,
        token=token,
        lightbox_url=lightbox_script_url(gw),
        amount_cents=inputs["amount_cents"],
        invoice_number=inputs["invoice"],
        purpose=inputs["purpose"],
    )


async def start_payment(
    *,
    parent_id: int,
    purpose: str,
    amount_cents: int,
    order_id: int | None = None,
    donation_id: int | None = None,
    save_card: bool = False,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> HostedSession:
    """Reserve a payment (CREATED, own invoice number), commit, then get its hosted session."""
    payment = await db(
        engine,
        lambda session, **kw: reserve_payment(session, **kw).id,
        parent_id=parent_id,
        purpose=purpose,
        amount_cents=amount_cents,
        order_id=order_id,
        donation_id=donation_id,
    )
    return await open_hosted_session(
        payment_id=payment,
        parent_id=parent_id,
        save_card=save_card,
        engine=engine,
        gateway=gateway,
    )


def _valid_txn_id(txn_id: object) -> str:
    text = txn_id.strip() if isinstance(txn_id, str) else ""
    if not text or len(text) > TXN_ID_MAX or any(ch.isspace() or ch in "<>&" for ch in text):
        raise DomainError("payment_not_verified")
    return text


async def confirm_payment(
    *,
    payment_id: int,
    txn_id: str,
    parent_id: int | None = None,
    actor: str | None = None,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> PaymentView:
    """After the browser's ``onApproval``: check ``txn_id`` with ``txnquery`` and record the
    payment as APPROVED once. Returns the payment (state APPROVED, or UNKNOWN when Converge
    could not be asked: reconcile later). Raises ``payment_not_verified`` when Converge does
    not vouch for a sale of this amount and invoice, ``payment_already_paid`` for a second,
    different transaction. Safe to call any number of times, concurrently."""
    gw = gateway_or_default(gateway)
    who = actor_of(parent_id, actor)
    txn_id = _valid_txn_id(txn_id)
    amount, invoice, done = await db(
        engine, steps.confirm_inputs, payment_id=payment_id, parent_id=parent_id, txn_id=txn_id
    )
    if done is not None:
        return done
    query = await gw.txnquery(txn_id)
    if isinstance(query, GatewayError | UnknownOutcome):
        reason = (
            f"verification pending: {query.error_code} {query.error_name}"
            if isinstance(query, GatewayError)
            else f"verification pending: {query.reason}"
        )
        return await db(engine, steps.mark_unknown, payment_id=payment_id, reason=reason, actor=who)
    if query.confirms_sale(amount_cents=amount, invoice_number=invoice):
        charge = steps.Charge.of_query(query, "txnquery")
        return await db(
            engine, steps.record_approval, payment_id=payment_id, charge=charge, actor=who
        )
    if (
        query.approved
        and query.transaction_type.upper() == "SALE"
        and query.status in ("PEN", "REV")
        and query.amount_cents == amount
        and query.invoice_number == invoice
    ):
        # Approved but held for review: not paid yet, and not a forgery. Look again later.
        return await db(
            engine,
            steps.mark_unknown,
            payment_id=payment_id,
            reason=f"held: {query.status}",
            actor=who,
        )
    await db(
        engine,
        steps.verification_failed,
        payment_id=payment_id,
        txn_id=txn_id,
        query=query,
        actor=who,
    )
    raise DomainError("payment_not_verified")


def record_decline(
    session: Session,
    *,
    payment_id: int,
    message: str,
    parent_id: int | None = None,
    actor: str | None = None,
) -> PaymentView:
    """The Lightbox's ``onDeclined``: keep the decline message on a CREATED payment. Only the
    browser says so, which is harmless: nothing is paid, and a sale Converge later confirms
    still moves the payment to APPROVED."""
    get_payment(session, payment_id, parent_id)
    text = clip((message or "DECLINED").strip() or "DECLINED")
    return steps.mark_failed(
        session,
        payment_id=payment_id,
        to=PaymentState.DECLINED,
        message=text,
        kind="payment.declined",
        actor=actor_of(parent_id, actor),
        data={"source": "browser"},
    )


async def _record_sale_outcome(
    engine: Engine | None,
    payment_id: int,
    outcome: SaleOutcome,
    amount: int,
    invoice: str,
    actor: str,
) -> PaymentView:
    if isinstance(outcome, Approved):
        if outcome.amount_cents != amount or (
            outcome.invoice_number and outcome.invoice_number != invoice
        ):
            return await db(
                engine,
                steps.mark_unknown,
                payment_id=payment_id,
                actor=actor,
                reason="approval does not match: reconcile",
                kind="payment.mismatch",
            )
        charge = steps.Charge.of_sale(outcome)
        return await db(
            engine, steps.record_approval, payment_id=payment_id, charge=charge, actor=actor
        )
    if isinstance(outcome, Declined):
        return await db(
            engine,
            steps.mark_failed,
            payment_id=payment_id,
            to=PaymentState.DECLINED,
            message=outcome.result_message,
            kind="payment.declined",
            actor=actor,
        )
    if isinstance(outcome, GatewayError):
        return await db(
            engine,
            steps.mark_failed,
            payment_id=payment_id,
            to=PaymentState.ERROR,
            message=f"{outcome.error_code} {outcome.error_name}: {outcome.error_message}",
            kind="payment.error",
            actor=actor,
            data={"code": outcome.error_code},
        )
    return await db(
        engine, steps.mark_unknown, payment_id=payment_id, reason=outcome.reason, actor=actor
    )


async def charge_stored_card(
    *,
    payment_id: int,
    parent_id: int,
    card_id: int,
    actor: str | None = None,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> PaymentView:
    """Charge a CREATED payment to one of the parent's saved cards (``ccsale`` with the
    token). Runs at most once per payment: the payment is moved to UNKNOWN before the call, so
    a second call (a double click) is refused with ``payment_not_open``. A lost answer leaves
    it UNKNOWN for ``reconcile_payment``."""
    gw = gateway_or_default(gateway)
    who = actor_of(parent_id, actor)
    token, amount, invoice = await db(
        engine,
        steps.begin_card_sale,
        payment_id=payment_id,
        parent_id=parent_id,
        card_id=card_id,
        actor=who,
    )
    outcome = await gw.sale_with_token(token, amount, invoice, merchant_txn_id=f"HM-P{payment_id}")
    return await _record_sale_outcome(engine, payment_id, outcome, amount, invoice, who)


async def open_payment_attempt(
    *,
    payment_id: int,
    parent_id: int,
    card_id: int | None,
    save_card: bool = False,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> PaymentView | HostedSession:
    """Step 2 of a payment a service reserved (``reserve_payment``) for what the parent is
    buying, the way the parent chose to pay: the saved card ``card_id`` charged at once (its
    recorded ``PaymentView``; a second call for the same payment is refused with
    ``payment_not_open``), or with no card the Lightbox session to open (``HostedSession``;
    the outcome comes back through ``confirm_payment`` or ``record_decline``)."""
    if card_id is not None:
        return await charge_stored_card(
            payment_id=payment_id,
            parent_id=parent_id,
            card_id=card_id,
            engine=engine,
            gateway=gateway,
        )
    return await open_hosted_session(
        payment_id=payment_id,
        parent_id=parent_id,
        save_card=save_card,
        engine=engine,
        gateway=gateway,
    )


async def reconcile_payment(
    *,
    payment_id: int,
    actor: str = "system",
    now: datetime | None = None,
    window: timedelta = SESSION_WINDOW,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> PaymentView:
    """Find out what happened to a payment whose answer we never got (or never checked):
    look its invoice number up at Converge. A confirming sale -> APPROVED (once, whoever
    else reconciles or confirms at the same time). No sale and the session window over ->
    EXPIRED (the parent may pay again, with a new invoice). Otherwise nothing changes."""
    gw = gateway_or_default(gateway)
    payment, view = await db(engine, steps.reconcile_inputs, payment_id=payment_id)
    if payment.state == PaymentState.APPROVED:
        return view
    current = now or utcnow()
    found = await gw.find_by_invoice(
        payment.invoice_number,
        start=(payment.created_at - timedelta(days=1)).date(),
        end=(current + timedelta(days=1)).date(),
    )
    if isinstance(found, GatewayError | UnknownOutcome):
        log.warning("payment %s: reconciliation could not ask Converge", payment_id)
        return view
    sales = [
        q
        for q in found
        if q.confirms_sale(amount_cents=payment.amount_cents, invoice_number=payment.invoice_number)
    ]
    if sales:
        if len(sales) > 1:
            await db(engine, steps.note_duplicates, payment_id=payment_id, sales=sales, actor=actor)
        charge = steps.Charge.of_query(sales[0], "reconcile")
        return await db(
            engine, steps.record_approval, payment_id=payment_id, charge=charge, actor=actor
        )
    held = [
        q
        for q in found
        if q.transaction_type.upper() == "SALE"
        and q.status in ("PEN", "REV")
        and q.amount_cents == payment.amount_cents
    ]
    if held or current - payment.created_at < window:
        return view
    return await db(engine, steps.expire, payment_id=payment_id, actor=actor)


async def reconcile_open_payments(
    *,
    unknown_after: timedelta = timedelta(minutes=1),
    window: timedelta = SESSION_WINDOW,
    now: datetime | None = None,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> list[PaymentView]:
    """The periodic job: reconcile UNKNOWN payments untouched for ``unknown_after`` and
    CREATED ones whose hosted session is over (their browser never confirmed: paid and the
    confirmation lost, or abandoned)."""
    current = now or utcnow()
    ids = await db(
        engine,
        steps.open_payments,
        unknown_before=current - unknown_after,
        created_before=current - window,
    )
    views = []
    for pid in ids:
        views.append(
            await reconcile_payment(
                payment_id=pid, now=current, window=window, engine=engine, gateway=gateway
            )
        )
    return views


async def reconcile_round(
    *, engine: Engine | None = None, gateway: PaymentGateway | None = None
) -> None:
    """One round of the periodic job (``services/jobs.py`` runs it in one worker at a time):
    reconcile open payments, void order payments that paid for nothing, then open refunds.
    Each step also takes its row lock, so a round that overlaps another (a lease that ran out)
    still records every outcome once."""
    await reconcile_open_payments(engine=engine, gateway=gateway)
    # An approved order payment whose order was not placed (a cut-off passed before the
    # approval, the cart was checked out again) is voided: no money kept without an order.
    from hotmeals.services.checkout import void_orphan_payments

    await void_orphan_payments(engine=engine, gateway=gateway)
    # Likewise an approved payment of an order change that could not be applied any more.
    from hotmeals.services.order_changes import void_dropped_change_payments

    await void_dropped_change_payments(engine=engine, gateway=gateway)
    await reconcile_open_refunds(engine=engine, gateway=gateway)
    # A cancel's refund Converge refused (or never made) is sent again, capped by the refund
    # arithmetic so nothing a later cancel gave back is sent twice.
    from hotmeals.services.cancellations import resend_failed_cancel_refunds

    await resend_failed_cancel_refunds(engine=engine, gateway=gateway)


# -- public: refunds (in refunds.py, re-exported: this module is the one door) ---------------

from hotmeals.services.payments.refunds import (  # noqa: E402
    PlannedRefund,
    RefundResult,
    execute_refund,
    reconcile_open_refunds,
    reconcile_refund,
    refund,
    reserve_refund,
)

__all__ = [
    "HostedSession",
    "PaymentState",
    "PaymentView",
    "PlannedRefund",
    "Purpose",
    "RefundResult",
    "RefundState",
    "RefundView",
    "charge_stored_card",
    "confirm_payment",
    "execute_refund",
    "get_payment_view",
    "lightbox_script_url",
    "list_payments",
    "list_refunds",
    "open_hosted_session",
    "open_payment_attempt",
    "reconcile_open_payments",
    "reconcile_open_refunds",
    "reconcile_round",
    "reconcile_payment",
    "reconcile_refund",
    "record_decline",
    "refund",
    "reserve_payment",
    "reserve_refund",
    "run_sync",
    "start_payment",
]
