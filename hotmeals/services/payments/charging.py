"""Charging: a payment reserved for what the parent buys, its hosted session or saved-card
sale, and the outcome Converge vouches for, recorded once (the package docstring has the
reserve / call / record design)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Required, TypedDict, Unpack

from sqlmodel import Session

from hotmeals.clock import now as utcnow
from hotmeals.converge.gateway import (
    GatewayError,
    SessionTokenError,
    UnknownOutcome,
)
from hotmeals.db.models import Donation, Order, Payment
from hotmeals.domain.errors import DomainError, suppress_refusal
from hotmeals.services.payments import steps
from hotmeals.services.payments.duplicates import void_duplicate_sale, void_duplicate_txn
from hotmeals.services.payments.purposes import handler_for
from hotmeals.services.payments.records import (
    PaymentState,
    PaymentView,
    Purpose,
    audit_payment,
    clip,
    get_payment,
    new_invoice_number,
    saved_id,
)
from hotmeals.services.payments.runtime import actor_of, lightbox_script_url
from hotmeals.services.payments.steps import SessionInputs
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

MAX_PAYMENT_CENTS = 1_000_000  # $10,000: far above any order; a typo guard, not a business rule


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


def reserve_payment(
    session: Session,
    *,
    parent_id: int,
    purpose: str,
    amount_cents: int,
    order_id: int | None = None,
    donation_id: int | None = None,
    actor: str | None = None,
    order_written_here: bool = False,
) -> Payment:
    """A CREATED payment with a fresh invoice number, in the caller's transaction (so the
    order or donation it pays for is written in the same one). Amount and purpose come from
    the server: the order's total, the donation's amount. ``order_written_here``: the order
    (purpose ORDER) was written in the caller's transaction, PENDING_PAYMENT and seen by no
    other yet, so the purpose's ``reserved`` step (lock the order, a failed one pending
    again) has nothing to do."""
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
    if not (order_written_here and purpose == Purpose.ORDER):
        handler_for(purpose).reserved(session, payment)
    audit_payment(
        session,
        payment,
        actor=actor_of(parent_id, actor),
        kind="payment.created",
        data={
            "purpose": purpose,
            "amount_cents": amount_cents,
            "invoice": payment.invoice_number,
            "order_id": order_id,
            "donation_id": donation_id,
        },
    )
    return payment


async def open_hosted_session(
    *,
    payment_id: int,
    parent_id: int | None = None,
    save_card: bool = False,
    inputs: SessionInputs | None = None,
    runtime: Runtime = APP,
) -> HostedSession:
    """A Lightbox session token for a CREATED payment. A refused or unanswered token request
    closes the attempt as ERROR (nothing can have been charged) and raises
    ``payment_unavailable``; the parent may simply try again. ``inputs``: the payment's
    session inputs as the transaction that just reserved it (CREATED, the parent's) read
    them; None: read here."""
    engine, gw = runtime.engine, runtime.converge
    if inputs is None:
        inputs = await run_in_transaction(
            steps.session_inputs, engine=engine, payment_id=payment_id, parent_id=parent_id
        )
    try:
        token = await gw.create_session_token(
            inputs.amount_cents,
            inputs.invoice,
            first_name=inputs.first_name,
            last_name=inputs.last_name,
            email=inputs.email,
            save_card=save_card,
            merchant_txn_id=f"HM-P{payment_id}",
        )
    except SessionTokenError as exc:
        await run_in_transaction(
            steps.mark_failed,
            engine=engine,
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
        amount_cents=inputs.amount_cents,
        invoice_number=inputs.invoice,
        purpose=inputs.purpose,
    )


class PaymentFor(TypedDict, total=False):
    """What ``reserve_payment`` reserves a payment for, as a service names it: whose, why, how
    much, and the order or donation it pays."""

    parent_id: Required[int]
    purpose: Required[str]
    amount_cents: Required[int]
    order_id: int | None
    donation_id: int | None


def _reserved_id(session: Session, **paying: Unpack[PaymentFor]) -> int:
    return saved_id(reserve_payment(session, **paying))


async def start_payment(
    *,
    save_card: bool = False,
    runtime: Runtime = APP,
    **paying: Unpack[PaymentFor],
) -> HostedSession:
    """Reserve a payment (CREATED, own invoice number), commit, then get its hosted session."""
    payment = await run_in_transaction(_reserved_id, engine=runtime.engine, **paying)
    return await open_hosted_session(
        payment_id=payment,
        parent_id=paying["parent_id"],
        save_card=save_card,
        runtime=runtime,
    )


def _valid_txn_id(txn_id: str | None) -> str:
    text = txn_id.strip() if isinstance(txn_id, str) else ""
    if not text or len(text) > steps.TXN_ID_MAX or any(ch.isspace() or ch in "<>&" for ch in text):
        raise DomainError("payment_not_verified")
    return text


def _confirm_inputs(
    session: Session,
    *,
    payment_id: int,
    parent_id: int | None,
    txn_id: str | None,
    expect: Callable[[Session], object] | None,
) -> tuple[int, str, PaymentView | None]:
    """``steps.confirm_inputs``, after the caller's own check of the payment (``expect``, in
    the same transaction) and of ``txn_id``, in that order. What ``expect`` read is held
    meanwhile: the session's identity map keeps only rows still referenced, and the payment
    it loaded is the one ``confirm_inputs`` reads again."""
    checked = expect(session) if expect is not None else None
    inputs = steps.confirm_inputs(
        session, payment_id=payment_id, parent_id=parent_id, txn_id=_valid_txn_id(txn_id)
    )
    del checked
    return inputs


async def confirm_payment(
    *,
    payment_id: int,
    txn_id: str,
    parent_id: int | None = None,
    actor: str | None = None,
    expect: Callable[[Session], object] | None = None,
    runtime: Runtime = APP,
) -> PaymentView:
    """After the browser's ``onApproval``: check ``txn_id`` with ``txnquery`` and record the
    payment as APPROVED once. Returns the payment (state APPROVED, or UNKNOWN when Converge
    could not be asked: reconcile later). Raises ``payment_not_verified`` when Converge does
    not vouch for a sale of this amount and invoice, ``payment_already_paid`` for a second,
    different transaction. Safe to call any number of times, concurrently. ``expect``: the
    caller's check of the payment (its owner, its purpose: raising a ``DomainError``), run
    first, in the transaction that reads the payment."""
    engine, gw = runtime.engine, runtime.converge
    who = actor_of(parent_id, actor)
    if expect is None:
        txn_id = _valid_txn_id(txn_id)  # refused before the database is asked
    try:
        amount, invoice, done = await run_in_transaction(
            _confirm_inputs,
            engine=engine,
            payment_id=payment_id,
            parent_id=parent_id,
            txn_id=txn_id,
            expect=expect,
        )
    except DomainError as err:
        if err.code == "payment_already_paid":
            # Another sale for an attempt already paid: if Converge vouches for it (our
            # invoice and amount), it is a row of its own and voided at once.
            await void_duplicate_txn(payment_id, _valid_txn_id(txn_id), who, runtime=runtime)
        raise
    txn_id = _valid_txn_id(txn_id)
    if done is not None:
        return done
    query = await gw.txnquery(txn_id)
    if isinstance(query, GatewayError | UnknownOutcome):
        reason = (
            f"verification pending: {query.error_code} {query.error_name}"
            if isinstance(query, GatewayError)
            else f"verification pending: {query.reason}"
        )
        return await run_in_transaction(
            steps.mark_unknown, engine=engine, payment_id=payment_id, reason=reason, actor=who
        )
    if query.confirms_sale(amount_cents=amount, invoice_number=invoice):
        charge = steps.Charge.of_query(query, "txnquery")
        try:
            return await run_in_transaction(
                steps.record_approval,
                engine=engine,
                payment_id=payment_id,
                charge=charge,
                actor=who,
            )
        except DomainError as err:
            if err.code == "payment_already_paid":  # another sale was recorded meanwhile
                await void_duplicate_sale(
                    payment_id=payment_id, charge=charge, actor=who, runtime=runtime
                )
            raise
    if query.holds_sale(amount_cents=amount, invoice_number=invoice):
        # Approved but held for review: not paid yet, and not a forgery. Look again later.
        return await run_in_transaction(
            steps.mark_unknown,
            engine=engine,
            payment_id=payment_id,
            reason=f"held: {query.status}",
            actor=who,
        )
    await run_in_transaction(
        steps.verification_failed,
        engine=engine,
        payment_id=payment_id,
        txn_id=txn_id,
        query=query,
        actor=who,
    )
    raise DomainError("payment_not_verified")


async def confirm_approval(
    *,
    payment_id: int,
    txn_id: str,
    parent_id: int,
    expect: Callable[[Session], object] | None = None,
    runtime: Runtime = APP,
) -> PaymentView | None:
    """``confirm_payment`` after the Lightbox's ``onApproval`` for what the parent buys (an
    order, a change), whose caller then settles it: None when ``txn_id`` is a second sale of
    an attempt already paid (``confirm_payment`` recorded it as a row of its own and voided
    it when Converge vouched for it). ``expect``: as for ``confirm_payment``."""
    with suppress_refusal("payment_already_paid"):
        return await confirm_payment(
            payment_id=payment_id,
            txn_id=txn_id,
            parent_id=parent_id,
            expect=expect,
            runtime=runtime,
        )
    return None


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
    text = clip((message or "DECLINED").strip() or "DECLINED") or "DECLINED"
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


async def charge_stored_card(
    *,
    payment_id: int,
    parent_id: int,
    card_id: int,
    actor: str | None = None,
    runtime: Runtime = APP,
) -> PaymentView:
    """Charge a CREATED payment to one of the parent's saved cards (``ccsale`` with the
    token). Runs at most once per payment: the payment is moved to UNKNOWN before the call, so
    a second call (a double click) is refused with ``payment_not_open``. A lost answer leaves
    it UNKNOWN for ``reconcile_payment``."""
    sale = await run_in_transaction(
        steps.begin_card_sale,
        engine=runtime.engine,
        payment_id=payment_id,
        parent_id=parent_id,
        card_id=card_id,
        actor=actor_of(parent_id, actor),
    )
    return await charge_begun_card(sale, runtime=runtime)


async def charge_begun_card(
    sale: steps.CardSale,
    *,
    runtime: Runtime = APP,
) -> PaymentView:
    """Steps 2 and 3 of a saved-card charge whose payment ``steps.begin_card_sale`` already
    moved to UNKNOWN (in the caller's transaction, so no other tab can start another):
    ``ccsale`` with the card's token, then its outcome recorded."""
    outcome = await runtime.converge.sale_with_token(
        sale.token, sale.amount_cents, sale.invoice, merchant_txn_id=f"HM-P{sale.payment_id}"
    )
    return await run_in_transaction(
        steps.record_sale_outcome, engine=runtime.engine, sale=sale, outcome=outcome
    )


async def open_payment_attempt(
    *,
    payment_id: int,
    parent_id: int,
    card_id: int | None,
    save_card: bool = False,
    runtime: Runtime = APP,
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
            runtime=runtime,
        )
    return await open_hosted_session(
        payment_id=payment_id,
        parent_id=parent_id,
        save_card=save_card,
        runtime=runtime,
    )
