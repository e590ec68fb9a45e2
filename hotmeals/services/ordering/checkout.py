"""The checkout (`/payment`, and ``order/getConvergeSessionToken`` + ``order/AddOrder``): the
parent's cart becomes one paid order.

Plain Python, no Reflex: the `/payment` screen and the /api/v1 order calls both call
``start_checkout``, then ``complete_checkout`` (the Lightbox's ``onApproval``) or
``checkout_declined`` (``onDeclined`` / ``onError`` / ``onCancelled``: only a hint,
checked with Converge), then ``confirmation.order_confirmation``.

The payment service's three steps (``services/payments``: reserve -> call -> record):

1. **reserve** (``start_checkout``), one transaction under the lock of the parent's row: the
   cart is priced from the DATABASE (``pricing.price_cart``: today's catalogue, the cut-offs,
   the allergies, the promo code and the donation), never from the client, once: the PAYABLE
   lines as priced (``CartSummary.sold``) become a PENDING_PAYMENT ``Order``
   (``place.write_order``: the charges, the rates and promo
   terms in force, every line with the prices it is sold at and the cart line it came from)
   and its ``Payment`` (purpose ORDER) of exactly ``order.total_pay_cents``. Flagged lines
   (cut-off passed, withdrawn, allergy) stay in the cart; a cart with nothing payable is
   refused, naming the day whose cut-off passed. The same cart content checked out again (two
   tabs, a double tap, a retry) finds the pending order (``Order.cart_fingerprint``) instead
   of writing another; a changed cart cancels the old pending order first. Every checkout is
   a new attempt (its own ``Payment`` row, invoice and session), opened only once Converge
   has been asked about the order's earlier attempts it has not had the last word on (open,
   or failed on a browser's word only): one it was paid for places the order instead, and a
   saved card's charge in flight is waited for, never doubled.
2. **call**: the Lightbox (``open_payment_attempt``) or a saved card (``charge_begun_card``),
   no transaction open.
3. **record**: ``settle``: the approval places the order, or is voided when it cannot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.db.models import (
    Order,
    Parent,
    Payment,
    StoredCard,
)
from hotmeals.domain.charges import CHARGE_FIELDS
from hotmeals.domain.credit import payment_split
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import OrderStatus
from hotmeals.domain.payment_states import PaymentState, Purpose
from hotmeals.i18n import normalize_lang, t
from hotmeals.services import cards, credit, school_year
from hotmeals.services.ordering import lifecycle
from hotmeals.services.ordering.place import cart_fingerprint, write_order
from hotmeals.services.ordering.pricing import price_cart
from hotmeals.services.ordering.settle import (
    DECLINED,
    LIVE,
    PENDING,
    PLACED,
    VOIDED,
    CheckoutResult,
    checkout_result,
    final_result,
    order_payment_view,
    order_state,
    place_or_cancel,
    settle_approved,
)
from hotmeals.services.payment_outcome import await_charge
from hotmeals.services.payments import (
    SESSION_WINDOW,
    HostedSession,
    SessionInputs,
    ask_converge,
    charge_begun_card,
    confirm_approval,
    open_hosted_session,
    report_browser_failure,
    reserve_payment,
    steps,
)
from hotmeals.services.payments.credit_pay import pay_with_credit
from hotmeals.services.payments.reconciliation import browser_reason
from hotmeals.services.payments.records import (
    PaymentView,
    get_payment,
    lock_row,
)
from hotmeals.services.payments.runtime import actor_of
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction


@dataclass(frozen=True)
class CheckoutStarted:
    order_id: int
    order_number: str
    payment_id: int
    amount_cents: int
    hosted: HostedSession | None  # the Lightbox session; None when a saved card was charged
    result: CheckoutResult | None  # set when a saved card was charged (or a charge is running)
    credit_cents: int = 0  # family credit's share (spent once the order is placed)


def _reserve_checkout(
    session: Session,
    *,
    parent_id: int,
    promo_code: str | None,
    donation: int | str | None,
    card_id: int | None,
    lang: str,
    asked: frozenset[int] = frozenset(),
    use_credit: bool = True,
) -> dict:
    """Step 1, under the lock of the parent's row: two checkouts of one parent run one after
    the other, so the second finds what the first wrote. Returns the order and either the
    earlier attempts to ask Converge about first (``ask``: none of them in ``asked``), the
    attempt in flight to report on (``settle``), or the new attempt (``payment_id``, and
    ``card_sale`` when a saved card is to be charged)."""
    parent = lock_row(session, Parent, parent_id)
    if parent is None:
        raise DomainError("payment_order_not_found")
    now = clock.now()
    if card_id is not None:
        card = session.get(StoredCard, card_id)
        if card is None or card.parent_id != parent_id or card.deleted_at is not None:
            raise DomainError("card_not_found", field="card_id")
    priced = price_cart(
        session,
        parent_id=parent_id,
        promo_code=promo_code,
        donation=donation,
        lang=lang,
        now=now,
        require_payable=True,
        name_past_cutoff=True,
        with_diets=False,  # a preference: never a reason not to charge
    )
    summary, promo_row = priced.summary, priced.promo_row
    # The order's lines are the payable lines as the summary priced them (one read, one
    # pricing, under the parent's lock): what is charged is what is written.
    items = list(summary.sold)
    school_year.require_confirmed(
        session, parent_id=parent_id, child_ids=[i.line.child_id for i in items], now=now
    )
    charges = summary.charges
    fingerprint = cart_fingerprint(
        items,
        promo_code=promo_row.code if promo_row else None,
        donation_cents=charges.school_donation_cents,
        total=charges.total_pay_cents,
    )

    waiting = session.exec(
        select(Order)
        .where(
            Order.parent_id == parent_id,
            col(Order.status).in_([OrderStatus.PENDING_PAYMENT, OrderStatus.PAYMENT_FAILED]),
        )
        .order_by(col(Order.id))
    ).all()
    order: Order | None = None
    for old in waiting:
        if order is None and old.cart_fingerprint == fingerprint:
            order = old
        else:
            lifecycle.drop_unpaid(
                session,
                old,
                now=now,
                kind="order.abandoned",
                data={"number": old.number, "why": "cart changed"},
            )
    attempts: Sequence[Payment] = ()  # an order written just now has none
    written = order is None
    if order is None:
        order = write_order(
            session,
            parent_id=parent_id,
            summary={"charges": {name: getattr(charges, name) for name in CHARGE_FIELDS}},
            promo_row=promo_row,
            items=items,
            fingerprint=fingerprint,
            now=now,
        )
    else:
        # Every earlier attempt of this order that Converge has not had the last word on
        # (open, in flight, or failed on a browser's word only) is asked about before a new
        # one opens: its sale, if any, pays for the order.
        attempts = session.exec(
            select(Payment)
            .where(
                Payment.order_id == order.id,
                Payment.purpose == Purpose.ORDER,
                col(Payment.duplicate_of_id).is_(None),
            )
            .order_by(col(Payment.id))
        ).all()
    common = {"order_id": order.id, "order_number": order.number}
    to_ask = [
        p.id
        for p in attempts
        if p.state != PaymentState.APPROVED and p.closed_at is None and p.id not in asked
    ]
    if to_ask:
        return {**common, "ask": to_ask}
    in_flight = [p for p in attempts if p.state in (PaymentState.UNKNOWN, PaymentState.APPROVED)]
    if in_flight:  # a charge may be under way (or was just recorded): never a second one
        return {**common, "ask": [], "settle": in_flight[-1].id}
    # Family credit first (the parent's row is locked: the balance read is the one spent).
    split = payment_split(
        order.total_pay_cents, credit.balance(session, parent_id), use_credit=use_credit
    )
    if split.card_cents == 0:
        return {**common, "ask": [], **_place_with_credit(session, order, split.credit_cents)}
    # One attempt, one payment row, one invoice: every session or saved-card charge is new.
    # For less than the total when credit pays the rest (spent when the order is placed).
    payment = reserve_payment(
        session,
        parent_id=parent_id,
        purpose=Purpose.ORDER,
        amount_cents=split.card_cents,
        order_id=order.id,
        order_written_here=written,
    )
    card_sale = None
    # What the Lightbox session is asked for, read here (the payment just written CREATED,
    # the parent's locked row) rather than in a transaction of its own.
    hosted = SessionInputs(
        amount_cents=payment.amount_cents,
        invoice=payment.invoice_number,
        purpose=payment.purpose,
        first_name=parent.first_name,
        last_name=parent.last_name,
        email=parent.email,
    )
    if card_id is not None:
        # In flight from the moment it is written: a second tab finds it UNKNOWN and waits.
        card_sale = steps.begin_card_sale(
            session,
            payment_id=payment.id or 0,
            parent_id=parent_id,
            card_id=card_id,
            actor=actor_of(parent_id),
        )
    return {
        **common,
        "ask": [],
        "payment_id": payment.id,
        "amount_cents": payment.amount_cents,
        "credit_cents": split.credit_cents,
        "card_sale": card_sale,
        "session": hosted,
    }


def _place_with_credit(session: Session, order: Order, amount_cents: int) -> dict:
    """Family credit covers the whole order: it is paid and placed in this transaction (no
    card, no Lightbox). A cut-off that passed meanwhile refuses it and nothing is spent (the
    transaction is rolled back)."""
    lifecycle.retry_payment(session, order, now=clock.now(), payment_id=None, why="credit")
    payment = pay_with_credit(session, order, amount_cents, actor=actor_of(order.parent_id))
    if not place_or_cancel(session, order, payment):
        raise DomainError("cart_nothing_payable")
    return {"credit_placed": payment.id, "amount_cents": 0, "credit_cents": amount_cents}


async def start_checkout(
    *,
    parent_id: int,
    promo_code: str | None = None,
    donation: int | str | None = None,
    card_id: int | None = None,
    save_card: bool = False,
    lang: str = "en",
    use_credit: bool = True,
    runtime: Runtime = APP,
) -> CheckoutStarted:
    """The parent pays their cart: the order (or the pending one of the same cart) and a new
    attempt to pay it, then the Lightbox session, or the saved card ``card_id`` charged at
    once (then ``result`` says what happened). Earlier attempts of the same order are first
    asked about at Converge: one that was paid places the order and no new attempt opens.
    Family credit is used first (``use_credit``): covering everything, the order is placed
    at once (``result`` placed, no ``hosted``); covering part, the card attempt is for the
    rest (``amount_cents``) and the credit is spent when that approval places the order."""
    lang = normalize_lang(lang)
    engine = runtime.engine

    async def placed(reserved: dict, view: PaymentView) -> CheckoutStarted:
        """An approved payment, found or made here: the order placed (or the sale voided)."""
        result = await settle_approved(view, parent_id=parent_id, lang=lang, runtime=runtime)
        return _started(reserved, view.id, view.amount_cents, result=result)

    asked: set[int] = set()
    for _ in range(5):  # each turn asks about attempts another tab opened meanwhile
        reserved = await run_in_transaction(
            _reserve_checkout,
            engine=engine,
            parent_id=parent_id,
            promo_code=promo_code,
            donation=donation,
            card_id=card_id,
            lang=lang,
            asked=frozenset(asked),
            use_credit=use_credit,
        )
        if not reserved["ask"]:
            break
        for attempt in reserved["ask"]:
            found = await ask_converge(
                payment_id=attempt, close_after=SESSION_WINDOW, runtime=runtime
            )
            if not found.answered:
                # Converge cannot say whether the earlier attempt was paid: no new one now.
                raise DomainError("payment_unavailable")
            asked.add(attempt)
            if found.view.state == PaymentState.APPROVED:
                return await placed(reserved, found.view)
    else:  # pragma: no cover - five rounds of new tabs while asking
        raise DomainError("payment_unavailable")
    if "credit_placed" in reserved:
        state = await run_in_transaction(
            order_state, engine=engine, payment_id=reserved["credit_placed"]
        )
        number = reserved["order_number"]
        paid = format_money(reserved["credit_cents"], lang)
        result = CheckoutResult(
            status=PLACED,
            order_id=reserved["order_id"],
            order_number=number,
            total_pay_cents=state.total_pay_cents,
            message=t("credit.placed", lang, number=number, amount=paid),
            payment_id=reserved["credit_placed"],
        )
        return _started(
            reserved,
            reserved["credit_placed"],
            0,
            result=result,
            credit_cents=reserved["credit_cents"],
        )
    if "settle" in reserved:
        # Another tap is charging this order (a saved card): answer its outcome ("placed"),
        # not "we are confirming your payment" while it is on its way.
        await await_charge(payment_id=reserved["settle"], runtime=runtime)
        view = await run_in_transaction(
            order_payment_view, engine=engine, payment_id=reserved["settle"], parent_id=parent_id
        )
        return await placed(reserved, view)
    payment_id = reserved["payment_id"]
    if reserved["card_sale"] is not None:
        view = await charge_begun_card(reserved["card_sale"], runtime=runtime)
        return await placed(reserved, view)
    hosted = await open_hosted_session(
        payment_id=payment_id,
        parent_id=parent_id,
        save_card=save_card,
        inputs=reserved["session"],
        runtime=runtime,
    )
    return _started(
        reserved,
        payment_id,
        reserved["amount_cents"],
        hosted=hosted,
        credit_cents=reserved["credit_cents"],
    )


def _started(
    reserved: dict,
    payment_id: int,
    amount_cents: int,
    *,
    hosted: HostedSession | None = None,
    result: CheckoutResult | None = None,
    credit_cents: int = 0,
) -> CheckoutStarted:
    """The checkout of the order ``_reserve_checkout`` answered, with its attempt
    ``payment_id`` of ``amount_cents``: the Lightbox session to open, or what happened."""
    return CheckoutStarted(
        order_id=reserved["order_id"],
        order_number=reserved["order_number"],
        payment_id=payment_id,
        amount_cents=amount_cents,
        hosted=hosted,
        result=result,
        credit_cents=credit_cents,
    )


async def complete_checkout(
    *,
    parent_id: int,
    payment_id: int,
    txn_id: str,
    lang: str = "en",
    card_token: str | None = None,
    confirm: bool = False,
    runtime: Runtime = APP,
) -> CheckoutResult:
    """AddOrder, after the Lightbox's ``onApproval``: Converge confirms the sale
    (``confirm_payment``), the order is placed in the same transaction, or, when it cannot be
    any more (a cut-off passed, the cart was checked out again differently), the charge is
    voided at once. ``card_token``: the Lightbox's ``ssl_token`` when the parent ticked "save
    this card" (saved once the order is placed, only if it is the card that paid; the order
    stands either way). Another parent's payment: ``payment_not_found``. Safe to repeat.
    ``confirm``: the result carries the order's confirmation (``settle_approved``)."""
    lang = normalize_lang(lang)
    engine = runtime.engine
    view = await confirm_approval(
        payment_id=payment_id,
        txn_id=txn_id,
        parent_id=parent_id,
        # The parent's own order's payment, or ``payment_not_found`` (before the sale is
        # looked at, in the transaction that reads the payment):
        expect=partial(_own_order_payment, payment_id=payment_id, parent_id=parent_id),
        runtime=runtime,
    )
    if view is None:
        # A second sale for an attempt already paid: ``confirm_payment`` recorded it as a row
        # of its own and voided it when Converge vouched for it.
        duplicate = await run_in_transaction(
            _duplicate_of, engine=engine, payment_id=payment_id, txn_id=txn_id
        )
        if duplicate is None:
            # not a sale of this attempt: nothing of ours was voided
            raise DomainError("payment_already_paid")
        view = await run_in_transaction(
            order_payment_view, engine=engine, payment_id=payment_id, parent_id=parent_id
        )
        state = await run_in_transaction(order_state, engine=engine, payment_id=payment_id)
        amount = format_money(view.amount_cents, lang)
        return checkout_result(
            view,
            state,
            VOIDED,
            t("orderpay.duplicate_voided", lang, number=state.number, amount=amount),
        )
    result = await settle_approved(
        view, parent_id=parent_id, lang=lang, confirm=confirm, runtime=runtime
    )
    if result.status == PLACED:  # the order stands whether the card is saved or not
        await cards.save_paying_card(view, card_token, runtime=runtime)
    return result


def _own_order_payment(session: Session, *, payment_id: int, parent_id: int) -> Payment:
    """The payment ``payment_id`` if it is one of the parent's order payments, else
    ``payment_not_found`` (the check of ``settle.order_payment_view``, without the view)."""
    payment = get_payment(session, payment_id, parent_id)
    if payment.purpose != Purpose.ORDER or payment.order_id is None:
        raise DomainError("payment_not_found", field="payment_id")
    return payment


def _duplicate_of(session: Session, *, payment_id: int, txn_id: str) -> int | None:
    """The duplicate sale row recorded for ``txn_id`` under ``payment_id``, if any."""
    return session.exec(
        select(col(Payment.id)).where(
            Payment.duplicate_of_id == payment_id, Payment.converge_txn_id == txn_id
        )
    ).first()


async def checkout_declined(
    *,
    parent_id: int,
    payment_id: int,
    message: str,
    outcome: str = "declined",
    lang: str = "en",
    runtime: Runtime = APP,
) -> CheckoutResult:
    """OrderDeclined: the Lightbox's ``onDeclined`` / ``onError`` / ``onCancelled``
    (``outcome``: declined, error or cancelled). Only a hint: Converge is asked
    first. A sale it made places the order (or is voided, as for ``AddOrder``);
    otherwise the attempt is DECLINED on the browser's word (still open: the next checkout
    and the reconciliation ask again), the order PAYMENT_FAILED, the cart untouched. The
    message says what is known: a decline Converge shows no charge for is a decline; an
    error, or no answer from Converge, is "we could not confirm the payment"."""
    lang = normalize_lang(lang)
    engine = runtime.engine
    await run_in_transaction(
        order_payment_view, engine=engine, payment_id=payment_id, parent_id=parent_id
    )
    reason = browser_reason(message)
    asked = await report_browser_failure(
        payment_id=payment_id, parent_id=parent_id, message=reason, runtime=runtime
    )
    view = asked.view
    if view.state == PaymentState.APPROVED:
        return await settle_approved(view, parent_id=parent_id, lang=lang, runtime=runtime)
    state = await run_in_transaction(order_state, engine=engine, payment_id=payment_id)
    if view.state in LIVE:  # a saved card's charge in flight: the browser knows nothing
        return final_result(view, state, lang) or checkout_result(
            view, state, PENDING, t("orderpay.pending", lang, number=state.number)
        )
    if asked.answered and outcome == "declined":
        text = t("orderpay.declined", lang, reason=view.result_message or reason)
    else:
        text = t("orderpay.not_confirmed", lang, number=state.number)
    return checkout_result(view, state, DECLINED, text)
