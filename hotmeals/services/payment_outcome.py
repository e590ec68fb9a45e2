"""What both doors (the Reflex screens and ``/api/v1``) do once the Lightbox has closed: confirm
the payment with Converge, then save the card if the payer asked, and say what happened in the
parent's language. One copy, so the screens and the API never disagree.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from hotmeals.db.models import Payment
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.payment_states import PaymentState
from hotmeals.i18n import t
from hotmeals.services import cards
from hotmeals.services.payments.charging import confirm_payment
from hotmeals.services.payments.reconciliation import report_browser_failure
from hotmeals.services.payments.records import PaymentView
from hotmeals.services.runtime import APP, Runtime
from hotmeals.services.transaction import run_in_transaction

# What a closed Lightbox can report (``ui/shared_state/lightbox.py`` builds it from the
# callbacks).
APPROVAL, DECLINED, CANCELLED, ERROR = "approval", "declined", "cancelled", "error"


@dataclass(frozen=True)
class Settled:
    """``status``: success, pending, declined, cancelled or error; ``message`` in the
    parent's language; ``view`` the payment when the server recorded something."""

    status: str
    message: str
    view: PaymentView | None = None
    card: cards.CardView | None = None

    @property
    def ok(self) -> bool:
        return self.status == "success"


def outcome_message(view: PaymentView, lang: str | None) -> tuple[str, str]:
    """A recorded payment -> (status, message)."""
    if view.state == PaymentState.APPROVED:
        return "success", t("pay.approved", lang, amount=format_money(view.amount_cents, lang))
    if view.state in (PaymentState.UNKNOWN, PaymentState.CREATED):
        return "pending", t("pay.pending", lang)
    reason = view.result_message or view.state
    if view.state == PaymentState.DECLINED:
        return "declined", t("pay.declined", lang, reason=reason)
    return "error", t("pay.error", lang, reason=reason)


async def confirm_and_save_card(
    *,
    parent_id: int,
    payment_id: int,
    txn_id: str,
    card_token: str | None = None,
    runtime: Runtime = APP,
) -> tuple[PaymentView, cards.CardView | None]:
    """Confirm the payment with Converge; once it is approved, save the card behind
    ``card_token`` (only if it is the card that paid). The payment stands even when the card
    cannot be saved."""
    view = await confirm_payment(
        payment_id=payment_id, txn_id=txn_id, parent_id=parent_id, runtime=runtime
    )
    if not view.approved:
        return view, None
    card = await cards.save_paying_card(view, card_token, runtime=runtime)
    return view, card


async def settle_lightbox(
    *,
    parent_id: int,
    payment_id: int,
    outcome: str,
    txn_id: str = "",
    card_token: str = "",
    message: str = "",
    lang: str | None = "en",
    runtime: Runtime = APP,
) -> Settled:
    """What the Lightbox said, checked and recorded by the server -> ``Settled``."""
    try:
        if outcome == APPROVAL:
            view, card = await confirm_and_save_card(
                parent_id=parent_id,
                payment_id=payment_id,
                txn_id=txn_id,
                card_token=card_token,
                runtime=runtime,
            )
            status, text = outcome_message(view, lang)
            return Settled(status, text, view, card)
        # Anything but an approval is a hint: Converge is asked first, and a sale
        # it made counts; otherwise the report is kept on the attempt (still open).
        reason = message or ("DECLINED" if outcome == DECLINED else outcome or "—")
        asked = await report_browser_failure(
            payment_id=payment_id,
            parent_id=parent_id,
            message=reason,
            runtime=runtime,
        )
        view = asked.view
        if view.state in (PaymentState.APPROVED, PaymentState.UNKNOWN):
            status, text = outcome_message(view, lang)
            return Settled(status, text, view)
        if not asked.answered:
            return Settled("error", t("pay.not_confirmed", lang), view)
        if outcome == DECLINED:
            return Settled("declined", t("pay.declined", lang, reason=reason), view)
        if outcome == CANCELLED:
            return Settled("cancelled", t("pay.cancelled", lang), view)
        return Settled("error", t("pay.not_confirmed", lang), view)
    except DomainError as err:
        return Settled("error", err.message(lang))


async def settle_card_lightbox(
    *,
    parent_id: int,
    outcome: str,
    card_token: str = "",
    message: str = "",
    lang: str | None = "en",
    runtime: Runtime = APP,
) -> Settled:
    """The add-card Lightbox (``ccgettoken``, no money) has closed: save the card Converge
    vouches for -> ``Settled`` (``card`` set on success). Closing it is no message at all."""
    try:
        if outcome == APPROVAL and card_token:
            card = await cards.save_card(parent_id=parent_id, token=card_token, runtime=runtime)
            return Settled("success", t("pay.card_saved", lang), card=card)
        if outcome == DECLINED:
            return Settled("declined", t("pay.declined", lang, reason=message or "DECLINED"))
        if outcome == ERROR:
            return Settled("error", t("pay.error", lang, reason=message or "—"))
        return Settled("cancelled", "")
    except DomainError as err:
        return Settled("error", err.message(lang))


# -- a charge another call is running (a double tap, a retried request) --------------------------

IN_FLIGHT = "in flight"  # the result message ``steps.begin_card_sale`` writes
CHARGE_WAIT = 40  # seconds: longer than one Converge call may take


def _charge_state(
    session: Session, *, payment_id: int, now: datetime
) -> tuple[str, str | None, float]:
    payment = session.get(Payment, payment_id)
    if payment is None:
        return "", None, 0.0
    return payment.state, payment.result_message, (now - payment.updated_at).total_seconds()


async def await_charge(*, payment_id: int, runtime: Runtime = APP, poll: float = 0.1) -> None:
    """Return once the saved-card charge another call started on this payment has an
    outcome (approved, declined, or unknown after a lost answer), so a repeat answers what
    happened ("placed") instead of "we are confirming your payment". Bounded by
    ``CHARGE_WAIT`` from the charge's start."""
    while True:
        state, message, age = await run_in_transaction(
            _charge_state, engine=runtime.engine, payment_id=payment_id, now=runtime.now()
        )
        if state != PaymentState.UNKNOWN or message != IN_FLIGHT or age > CHARGE_WAIT:
            return
        await asyncio.sleep(poll)
