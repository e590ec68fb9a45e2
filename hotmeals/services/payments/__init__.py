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
from typing import Any, cast

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from hotmeals.db.models import Donation, Order, Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.payments.converge import SharedSearches
from hotmeals.payments.gateway import (
    Approved,
    Declined,
    GatewayError,
    PaymentGateway,
    SaleOutcome,
    SessionTokenError,
    TxnQueryResult,
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
DUPLICATE_REASON = "duplicate sale: voided"


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
    try:
        amount, invoice, done = await db(
            engine, steps.confirm_inputs, payment_id=payment_id, parent_id=parent_id, txn_id=txn_id
        )
    except DomainError as err:
        if err.code == "payment_already_paid":
            # Another sale for an attempt already paid: if Converge vouches for it (our
            # invoice and amount), it is a row of its own and voided at once (issue 21).
            await _duplicate_from_txn(engine, gw, payment_id, txn_id, who)
        raise
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
        try:
            return await db(
                engine, steps.record_approval, payment_id=payment_id, charge=charge, actor=who
            )
        except DomainError as err:
            if err.code == "payment_already_paid":  # another sale was recorded meanwhile
                await void_duplicate_sale(
                    payment_id=payment_id, charge=charge, actor=who, engine=engine, gateway=gw
                )
            raise
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
    """A decline, error or cancel a browser (the Lightbox's ``onDeclined``/``onError``/
    ``onCancelled``) or an API client reported: a hint, never Converge's word. A CREATED
    attempt becomes DECLINED with the message, but stays open (``closed_at`` empty): the next
    attempt for the same thing and the reconciliation (once the session is over) ask Converge
    about it, and a sale it made still moves it to APPROVED. Any other state is left alone.
    Callers that can wait for the network use ``report_browser_failure``, which asks first."""
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
        closed=False,
        only_from=(PaymentState.CREATED,),
    )


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
    now: datetime | None = None,
    close_after: timedelta | None = SESSION_WINDOW,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
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
    gw = gateway_or_default(gateway)
    payment, view = await db(engine, steps.reconcile_inputs, payment_id=payment_id)
    if payment.state == PaymentState.APPROVED or payment.closed_at is not None:
        return Asked(view, True)
    current = now or utcnow()
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
            view = await db(
                engine, steps.record_approval, payment_id=payment_id, charge=charge, actor=actor
            )
        except DomainError as err:
            if err.code != "payment_already_paid":
                raise
            view = await db(engine, steps.reconcile_inputs, payment_id=payment_id)
            view = view[1]
        for other in sales:
            await void_duplicate_sale(
                payment_id=payment_id,
                charge=steps.Charge.of_query(other, "reconcile"),
                actor=actor,
                engine=engine,
                gateway=gw,
            )
        return Asked(view, True)
    held = [
        q
        for q in found
        if q.transaction_type.upper() == "SALE"
        and q.status in ("PEN", "REV")
        and q.amount_cents == payment.amount_cents
    ]
    if held or close_after is None or current - payment.created_at < close_after:
        return Asked(view, True)
    if payment.state in (PaymentState.CREATED, PaymentState.UNKNOWN):
        return Asked(await db(engine, steps.expire, payment_id=payment_id, actor=actor), True)
    return Asked(await db(engine, steps.close_attempt, payment_id=payment_id, actor=actor), True)


async def report_browser_failure(
    *,
    payment_id: int,
    parent_id: int,
    message: str,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> Asked:
    """A browser (or an API client) says the attempt failed: ask Converge first. A sale it
    made is recorded (APPROVED: what it pays for is placed or applied); otherwise the
    report is kept as a hint (``record_decline``), and ``answered`` says whether Converge
    could be asked at all."""
    await db(engine, steps.reconcile_inputs_of, payment_id=payment_id, parent_id=parent_id)
    asked = await ask_converge(
        payment_id=payment_id,
        actor=actor_of(parent_id),
        close_after=None,
        engine=engine,
        gateway=gateway,
    )
    if asked.view.state == PaymentState.APPROVED:
        return asked
    view = await db(
        engine, record_decline, payment_id=payment_id, message=message, parent_id=parent_id
    )
    return Asked(view, asked.answered)


async def void_duplicate_sale(
    *,
    payment_id: int,
    charge: steps.Charge,
    actor: str = "system",
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> int | None:
    """Record a second approved sale under ``payment_id``'s invoice as a row of its own and
    void it (a refund row of its own; a return once settled). The sale's id is checked by
    the caller against Converge. Returns the duplicate row's id (None: it is the attempt's
    own sale). Safe to repeat: the same sale is the same row, refunded once."""
    dup = await db(
        engine, steps.record_duplicate, payment_id=payment_id, charge=charge, actor=actor
    )
    if dup is not None:
        await _void_whole(dup, reason=DUPLICATE_REASON, engine=engine, gateway=gateway)
    return dup


async def _duplicate_from_txn(
    engine: Engine | None, gw: PaymentGateway, payment_id: int, txn_id: str, actor: str
) -> int | None:
    payment = await db(
        engine, lambda session, **kw: get_payment(session, kw["pid"]), pid=payment_id
    )
    if payment.converge_txn_id == txn_id:
        return None
    query = await gw.txnquery(txn_id)
    if not isinstance(query, TxnQueryResult) or not query.confirms_sale(
        amount_cents=payment.amount_cents, invoice_number=payment.invoice_number
    ):
        return None  # not a sale of this attempt: nothing of ours to void
    return await void_duplicate_sale(
        payment_id=payment_id,
        charge=steps.Charge.of_query(query, "txnquery"),
        actor=actor,
        engine=engine,
        gateway=gw,
    )


async def _void_whole(
    payment_id: int, *, reason: str, engine: Engine | None, gateway: PaymentGateway | None
) -> bool:
    """Refund what is left of an approved payment (a void before settlement). True when it
    is back or on its way; False when Converge refused (the round tries again)."""
    amount = await db(engine, steps.refundable_of, payment_id=payment_id)
    if amount <= 0:
        return True
    try:
        result = await refund(
            amount_cents=amount,
            reason=reason,
            payment_id=payment_id,
            actor="system",
            engine=engine,
            gateway=gateway,
        )
    except DomainError as err:  # refunded meanwhile by another call
        if err.code in ("refund_exceeds_paid", "invalid_amount"):
            return True
        raise
    return not result.failed


async def void_duplicate_payments(
    *, engine: Engine | None = None, gateway: PaymentGateway | None = None
) -> list[int]:
    """The round's part: every duplicate sale row not refunded yet is voided."""
    ids = await db(engine, steps.unrefunded_duplicates)
    done = []
    for payment_id in ids:
        try:
            if await _void_whole(
                payment_id, reason=DUPLICATE_REASON, engine=engine, gateway=gateway
            ):
                done.append(payment_id)
        except Exception:  # noqa: BLE001 - one failure must not stop the round
            log.exception("payment %s: could not void a duplicate sale", payment_id)
    return done


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
    return await charge_begun_card(
        payment_id=payment_id,
        token=token,
        amount_cents=amount,
        invoice=invoice,
        actor=who,
        engine=engine,
        gateway=gw,
    )


async def charge_begun_card(
    *,
    payment_id: int,
    token: str,
    amount_cents: int,
    invoice: str,
    actor: str,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> PaymentView:
    """Steps 2 and 3 of a saved-card charge whose payment ``steps.begin_card_sale`` already
    moved to UNKNOWN (in the caller's transaction, so no other tab can start another):
    ``ccsale`` with the card's token, then its outcome recorded."""
    gw = gateway_or_default(gateway)
    outcome = await gw.sale_with_token(
        token, amount_cents, invoice, merchant_txn_id=f"HM-P{payment_id}"
    )
    return await _record_sale_outcome(engine, payment_id, outcome, amount_cents, invoice, actor)


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
    """Find out what happened to a payment whose answer we never got (or never checked, or
    only a browser reported): ``ask_converge`` with the session window. A confirming sale ->
    APPROVED (once, whoever else reconciles or confirms at the same time). No sale and the
    window over -> closed (EXPIRED when it was open). Otherwise nothing changes."""
    asked = await ask_converge(
        payment_id=payment_id,
        actor=actor,
        now=now,
        close_after=window,
        engine=engine,
        gateway=gateway,
    )
    return asked.view


async def reconcile_open_payments(
    *,
    unknown_after: timedelta = timedelta(minutes=1),
    window: timedelta = SESSION_WINDOW,
    now: datetime | None = None,
    engine: Engine | None = None,
    gateway: PaymentGateway | None = None,
) -> list[PaymentView]:
    """The periodic job: reconcile UNKNOWN payments untouched for ``unknown_after``, CREATED
    ones whose hosted session is over (their browser never confirmed: paid and the
    confirmation lost, or abandoned), and failures only a browser reported, once their
    session is over (each asked about once, then closed)."""
    current = now or utcnow()  # fixed before the first search (``SharedSearches``)
    ids = await db(
        engine,
        steps.open_payments,
        unknown_before=current - unknown_after,
        created_before=current - window,
    )
    # One search per day range for the whole round, not one per open attempt.
    shared = cast(PaymentGateway, SharedSearches(gateway_or_default(gateway)))
    views = []
    for pid in ids:
        views.append(
            await reconcile_payment(
                payment_id=pid, now=current, window=window, engine=engine, gateway=shared
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
    from hotmeals.services.ordering.settle import void_orphan_payments

    await void_orphan_payments(engine=engine, gateway=gateway)
    # Likewise an approved payment of an order change that could not be applied any more.
    from hotmeals.services.ordering.change_payment import void_dropped_change_payments

    await void_dropped_change_payments(engine=engine, gateway=gateway)
    # A second sale under one attempt's invoice is a row of its own, voided.
    await void_duplicate_payments(engine=engine, gateway=gateway)
    await reconcile_open_refunds(engine=engine, gateway=gateway)
    # Every refund Converge refused (or never made) is sent again when its next try is due,
    # finitely, then flagged for a person (refunds.py, "sent again").
    await resend_failed_refunds(engine=engine, gateway=gateway)


# -- public: refunds (in refunds.py, re-exported: this module is the one door) ---------------

from hotmeals.services.payments.refunds import (  # noqa: E402
    PlannedRefund,
    RefundResult,
    execute_refund,
    reconcile_open_refunds,
    reconcile_refund,
    refund,
    refunds_needing_attention,
    resend_failed_refunds,
    reserve_refund,
    resolve_refund,
    retry_refund,
)

__all__ = [
    "Asked",
    "HostedSession",
    "SESSION_WINDOW",
    "PaymentState",
    "PaymentView",
    "PlannedRefund",
    "Purpose",
    "RefundResult",
    "RefundState",
    "RefundView",
    "charge_begun_card",
    "charge_stored_card",
    "confirm_payment",
    "execute_refund",
    "get_payment_view",
    "lightbox_script_url",
    "list_payments",
    "list_refunds",
    "open_hosted_session",
    "open_payment_attempt",
    "ask_converge",
    "report_browser_failure",
    "void_duplicate_payments",
    "void_duplicate_sale",
    "reconcile_open_payments",
    "reconcile_open_refunds",
    "reconcile_round",
    "reconcile_payment",
    "reconcile_refund",
    "record_decline",
    "refund",
    "refunds_needing_attention",
    "resend_failed_refunds",
    "reserve_payment",
    "reserve_refund",
    "resolve_refund",
    "retry_refund",
    "run_sync",
    "start_payment",
]
