"""/api/v1 card payments, saved cards and donations (docs/product.md §7
``order/getConvergeSessionToken``, plus the extensions documented in docs/api.md "Payments").

The routes only translate: every rule is in ``hotmeals.services.payments`` / ``cards`` /
``donations``, which the Reflex screens call too. Every call needs a parent token (401).

What is paid is chosen by ``purpose``: ``PURPOSES`` maps each one the API accepts to the
service function that reserves its payment (amount computed on the server). The Lightbox route
and the saved-card route both go through it, so both pay for the same things the same way.
``"order"`` (the parent's cart) goes through ``services.ordering.checkout.start_checkout`` on the
Lightbox route (with ``card_id`` for a saved card); AddOrder is in ``api/orders.py``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from types import MappingProxyType
from typing import Annotated, Any

from fastapi import Depends

from hotmeals.api.bodies import openapi_body
from hotmeals.api.deps import (
    CurrentParent,
    ParentClient,
    ParentWriting,
    answer_found,
    api_router,
    charge_once,
    json_body,
    payment_of,
    required,
    tags,
)
from hotmeals.api.envelope import Envelope, fail, ok, ok_or_fail
from hotmeals.api.payments_schemas import (
    AddCardOut,
    CardIdIn,
    CardOut,
    ConfirmIn,
    DeclinedIn,
    DonationOut,
    PaymentOut,
    SaveCardIn,
    SavedCardPayIn,
    SessionOut,
    SessionTokenIn,
)
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money, to_decimal_string
from hotmeals.domain.payment_states import PaymentState, Purpose
from hotmeals.i18n import t
from hotmeals.services import cards, donations, payments
from hotmeals.services.ordering import checkout, settle
from hotmeals.services.payment_outcome import confirm_and_save_card, outcome_message
from hotmeals.services.transaction import run_in_transaction

router = api_router()
PAYMENTS = tags("Parent payments")


# -- what is paid ---------------------------------------------------------------------------------

Reserver = Callable[[ParentClient, SessionTokenIn], Awaitable[int]]
"""Writes what is paid for and its CREATED payment; returns the payment id."""


async def _reserve_donation(who: ParentClient, body: SessionTokenIn) -> int:
    return await donations.reserve_donation(
        parent_id=who.parent_id, amount=body.amount or "", school_id=body.school_id
    )


PURPOSES: Mapping[str, Reserver] = MappingProxyType({"donation": _reserve_donation})


def _donation(body: SessionTokenIn) -> int | str | None:
    """The order's donation in the one unit the checkout takes: cents (an int), or the
    dollars text of older clients."""
    return body.donation_cents if body.donation_cents is not None else body.donation


def _reserver(body: SessionTokenIn) -> Reserver:
    reserver = PURPOSES.get(body.purpose or "")
    if reserver is None:
        raise DomainError("payment_purpose_invalid", field="purpose")
    return reserver


def card_out(card: cards.CardView) -> dict[str, Any]:
    return {
        "id": card.id,
        "brand": card.brand,
        "masked": card.masked,
        "last4": card.last4,
        "expiry": card.expiry,
        "created_at": card.created_at,
    }


def payment_out(view: payments.PaymentView, card: cards.CardView | None = None) -> dict:
    return {
        "id": view.id,
        "purpose": view.purpose,
        "state": view.state,
        "amount": to_decimal_string(view.amount_cents),
        "amount_cents": view.amount_cents,
        "invoice_number": view.invoice_number,
        "card_brand": view.card_brand,
        "card_masked": view.card_masked,
        "approval_code": view.approval_code,
        "result_message": view.result_message,
        "verified": view.verified,
        "refunded_cents": view.refunded_cents,
        "refundable_cents": view.refundable_cents,
        "created_at": view.created_at,
        "card": card_out(card) if card else None,
    }


def _answer(view: payments.PaymentView, lang: str, card: cards.CardView | None = None) -> Any:
    status, message = outcome_message(view, lang)
    data = payment_out(view, card)
    return ok_or_fail(status == "success", data, message)


# -- the routes, declared in this order --------------------------------------------------------


@router.post(
    "/Parent/order/getConvergeSessionToken",
    tags=PAYMENTS,
    summary="Start a card payment: a Converge Lightbox session token",
    response_model=Envelope[SessionOut],
    openapi_extra=openapi_body(SessionTokenIn),
)
async def get_converge_session_token(
    who: ParentWriting, body: Annotated[SessionTokenIn, Depends(json_body(SessionTokenIn))]
) -> Any:
    # A repeat of the key answers the first call: the same Lightbox session (or the saved
    # card's outcome), never a second attempt.
    return await charge_once(who, "pay_session", lambda: _session_token(who, body))


async def _session_token(who: ParentClient, body: SessionTokenIn) -> Any:
    if body.purpose == "order":
        return await _order_session(who, body)
    payment_id = await _reserver(body)(who, body)
    session = await payments.open_hosted_session(
        payment_id=payment_id, parent_id=who.parent_id, save_card=bool(body.save_card)
    )
    data = _lightbox(session.payment_id, session, session.amount_cents, session.purpose)
    return ok(data, t("pay.session_ready", who.lang))


def _lightbox(
    payment_id: int, hosted: payments.HostedSession | None, amount_cents: int, purpose: str
) -> dict[str, Any]:
    """A payment and its Lightbox session (empty when none is opened: a saved card paid)."""
    return {
        "payment_id": payment_id,
        "ssl_txn_auth_token": hosted.token if hosted else "",
        "lightbox_url": hosted.lightbox_url if hosted else "",
        "amount": to_decimal_string(amount_cents),
        "amount_cents": amount_cents,
        "invoice_number": hosted.invoice_number if hosted else "",
        "purpose": purpose,
    }


async def _order_session(who: ParentClient, body: SessionTokenIn) -> Any:
    """The parent's cart as an order (``services.ordering.checkout.start_checkout``: priced from the
    database, never from this body): the Lightbox session, or the saved card charged."""
    started = await checkout.start_checkout(
        parent_id=who.parent_id,
        promo_code=body.promo_code,
        donation=_donation(body),
        card_id=body.card_id,
        save_card=bool(body.save_card),
        lang=who.lang,
        use_credit=body.use_credit,
    )
    data = {
        **_lightbox(started.payment_id, started.hosted, started.amount_cents, Purpose.ORDER.value),
        "order_id": started.order_id,
        "order_number": started.order_number,
        "status": started.result.status if started.result else None,
        "credit_cents": started.credit_cents,
    }
    if started.result is None:
        amount = format_money(started.amount_cents, who.lang)
        message = t("orderpay.session_ready", who.lang, amount=amount, number=started.order_number)
        return ok(data, message)
    return ok_or_fail(started.result.status == settle.PLACED, data, started.result.message)


async def _order_with_saved_card(who: ParentClient, body: SavedCardPayIn) -> Any:
    card_id = required(body.card_id, "card_not_found", "card_id")  # before anything is reserved
    started = await checkout.start_checkout(
        parent_id=who.parent_id,
        promo_code=body.promo_code,
        donation=_donation(body),
        card_id=card_id,
        lang=who.lang,
        use_credit=body.use_credit,
    )
    view = await run_in_transaction(
        payments.get_payment_view, payment_id=started.payment_id, parent_id=who.parent_id
    )
    result = started.result
    assert result is not None  # a saved card was charged (or its charge is running)
    return ok_or_fail(result.status == settle.PLACED, payment_out(view), result.message)


@router.post(
    "/Parent/payment/ConfirmPayment",
    tags=PAYMENTS,
    summary="After onApproval: the server verifies the sale with Converge and records it",
    response_model=Envelope[PaymentOut],
    openapi_extra=openapi_body(ConfirmIn),
)
async def confirm_payment(
    who: CurrentParent, body: Annotated[ConfirmIn, Depends(json_body(ConfirmIn))]
) -> Any:
    view, card = await confirm_and_save_card(
        parent_id=who.parent_id,
        payment_id=payment_of(body),
        txn_id=body.ssl_txn_id or "",
        card_token=body.ssl_token,
    )
    return _answer(view, who.lang, card)


@router.post(
    "/Parent/payment/PaymentDeclined",
    tags=PAYMENTS,
    summary="After onDeclined: keep the decline message on the payment",
    response_model=Envelope[PaymentOut],
    openapi_extra=openapi_body(DeclinedIn),
)
async def payment_declined(
    who: CurrentParent, body: Annotated[DeclinedIn, Depends(json_body(DeclinedIn))]
) -> Any:
    # A hint, never Converge's word: Converge is asked first, and a sale it made
    # pays for the attempt (the client's answer was lost) instead of "your card was declined".
    asked = await payments.report_browser_failure(
        payment_id=payment_of(body),
        parent_id=who.parent_id,
        message=body.ssl_result_message or "",
    )
    if not asked.answered and asked.view.state != PaymentState.APPROVED:
        return fail(t("pay.not_confirmed", who.lang), data=payment_out(asked.view))
    return _answer(asked.view, who.lang)


@router.post(
    "/Parent/payment/PayWithSavedCard",
    tags=PAYMENTS,
    summary="Pay with a saved card (no Lightbox)",
    response_model=Envelope[PaymentOut],
    openapi_extra=openapi_body(SavedCardPayIn),
)
async def pay_with_saved_card(
    who: ParentWriting, body: Annotated[SavedCardPayIn, Depends(json_body(SavedCardPayIn))]
) -> Any:
    if body.purpose == "order":
        return await charge_once(who, "pay_saved_card", lambda: _order_with_saved_card(who, body))
    _reserver(body)  # the purposes the Lightbox route takes
    card_id = required(body.card_id, "card_not_found", "card_id")  # before anything is reserved
    # The service's own door: checks the card, reserves, charges once per Idempotency-Key (a
    # repeat answers that payment's outcome).
    view = await donations.donate_with_saved_card(
        parent_id=who.parent_id,
        amount=body.amount or "",
        card_id=card_id,
        school_id=body.school_id,
        request_key=who.key,
    )
    return _answer(view, who.lang)


@router.get(
    "/Parent/payment/GetCards",
    tags=PAYMENTS,
    summary="The parent's saved cards (brand, masked number, expiry)",
    response_model=Envelope[list[CardOut]],
)
async def get_cards(who: CurrentParent) -> Any:
    rows = await run_in_transaction(cards.list_cards, parent_id=who.parent_id)
    return answer_found([card_out(c) for c in rows], who.lang)


@router.post(
    "/Parent/payment/AddCardSession",
    tags=PAYMENTS,
    summary="A Lightbox session that saves a card without charging it (ccgettoken)",
    response_model=Envelope[AddCardOut],
)
async def add_card_session(who: CurrentParent) -> Any:
    session = await cards.start_add_card(parent_id=who.parent_id)
    data: dict[str, Any] = {
        "ssl_txn_auth_token": session.token,
        "lightbox_url": session.lightbox_url,
        "transaction_type": session.transaction_type,
    }
    return ok(data, t("pay.session_ready", who.lang))


@router.post(
    "/Parent/payment/SaveCard",
    tags=PAYMENTS,
    summary="Store the card behind a Lightbox token once Converge confirms it",
    response_model=Envelope[CardOut],
    openapi_extra=openapi_body(SaveCardIn),
)
async def save_card(
    who: CurrentParent, body: Annotated[SaveCardIn, Depends(json_body(SaveCardIn))]
) -> Any:
    card = await cards.save_card(parent_id=who.parent_id, token=body.ssl_token or "")
    return ok(card_out(card), t("pay.card_saved", who.lang))


@router.post(
    "/Parent/payment/DeleteCard",
    tags=PAYMENTS,
    summary="Delete a saved card (at Converge too)",
    response_model=Envelope[None],
    openapi_extra=openapi_body(CardIdIn),
)
async def delete_card(
    who: CurrentParent, body: Annotated[CardIdIn, Depends(json_body(CardIdIn))]
) -> Any:
    card_id = required(body.card_id, "card_not_found", "card_id")
    await cards.delete_card(parent_id=who.parent_id, card_id=card_id)
    return ok(None, t("pay.card_deleted", who.lang))


def donation_out(row: donations.DonationView, lang: str) -> dict[str, Any]:
    return {
        "id": row.id,
        "amount_cents": row.amount_cents,
        "amount": to_decimal_string(row.amount_cents),
        "amount_display": format_money(row.amount_cents, lang),
        "school_id": row.school_id,
        "school": row.school,
        "status": row.status.value,
        "date": row.created_at.date().isoformat(),
        "card": row.card,
    }


@router.get(
    "/Parent/payment/DonationHistory",
    tags=PAYMENTS,
    summary="The parent's donations (paid and refunded), newest first",
    response_model=Envelope[list[DonationOut]],
)
async def donation_history(who: CurrentParent) -> Any:
    rows = await run_in_transaction(donations.list_donations, parent_id=who.parent_id)
    return answer_found([donation_out(row, who.lang) for row in rows], who.lang)
