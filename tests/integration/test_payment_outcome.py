"""What both doors do once a Lightbox closes (``services/payment_outcome.py``): the Reflex
screens and ``/api/v1`` get the same checked outcome and the same words."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Engine

from hotmeals.converge.converge import ConvergeClient
from hotmeals.services import cards, donations
from hotmeals.services.payment_outcome import settle_card_lightbox, settle_lightbox
from hotmeals.services.runtime import Runtime
from tests.payments_support import (
    DECLINED_CARD,
    MASTERCARD,
    SimServer,
    lightbox_submit,
    payment_row,
)


async def _donation(engine, gateway, family, amount="12.00", save_card=False):
    return await donations.start_donation(
        parent_id=family["parent_id"],
        amount=amount,
        save_card=save_card,
        runtime=Runtime(engine=engine, gateway=gateway),
    )


async def test_an_approval_is_confirmed_the_card_saved_and_worded_in_the_parents_language(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    session = await _donation(pay_engine, gateway, family, save_card=True)
    answer = lightbox_submit(live_sim, session.token, number=MASTERCARD)
    settled = await settle_lightbox(
        parent_id=family["parent_id"],
        payment_id=session.payment_id,
        outcome="approval",
        txn_id=answer["response"]["ssl_txn_id"],
        card_token=answer["response"]["ssl_token"],
        lang="fr",
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert settled.ok and settled.view is not None and settled.view.approved
    assert settled.message == "Merci! Votre paiement de 12,00\u00a0$ a été approuvé."
    assert settled.card is not None and settled.card.masked == "51**********2124"
    assert payment_row(pay_engine, session.payment_id).state == "APPROVED"


async def test_a_forged_approval_is_an_error_and_pays_nothing(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    session = await _donation(pay_engine, gateway, family)
    settled = await settle_lightbox(
        parent_id=family["parent_id"],
        payment_id=session.payment_id,
        outcome="approval",
        txn_id="000000AD3-00000000-0000-0000-0000-000000000000",
        lang="en",
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert settled.status == "error" and "could not verify" in settled.message
    assert payment_row(pay_engine, session.payment_id).state == "CREATED"


async def test_a_decline_is_recorded_and_a_close_or_error_says_so(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    session = await _donation(pay_engine, gateway, family)
    answer = lightbox_submit(live_sim, session.token, number=DECLINED_CARD)
    common = dict(
        parent_id=family["parent_id"],
        payment_id=session.payment_id,
        lang="en",
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    declined = await settle_lightbox(
        outcome="declined", message=answer["response"]["ssl_result_message"], **common
    )
    assert declined.status == "declined"
    assert declined.message.startswith("Your card was declined. ")
    assert "DECLINED" not in declined.message  # no raw status
    assert payment_row(pay_engine, session.payment_id).state == "DECLINED"
    closed = await settle_lightbox(outcome="cancelled", **common)
    assert closed.status == "cancelled"
    assert closed.message == "Payment cancelled. No money was taken."
    broken = await settle_lightbox(outcome="error", message="script", **common)
    # A browser's error is a hint: Converge shows no sale, but the parent is told
    # only what is known.
    assert broken.status == "error" and broken.message.startswith("We could not confirm")
    row = payment_row(pay_engine, session.payment_id)
    assert row.state == "DECLINED" and row.closed_at is None  # asked again by the round


@pytest.mark.parametrize("outcome", ["declined", "error", "cancelled"])
async def test_a_lightbox_failure_after_a_real_sale_is_the_sale(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict, outcome: str
) -> None:
    """A failure a page reports is only a hint, on the screens' door (the donate page's
    ``lightbox_closed``): Converge made the sale, the page reports a failure; the server asks
    Converge and the payment is the sale: 'approved', the donation paid, one sale."""
    from sqlmodel import select

    from hotmeals.db.engine import session_scope
    from hotmeals.db.models import Donation
    from tests.payments_support import sim_txns

    session = await _donation(pay_engine, gateway, family)
    assert lightbox_submit(live_sim, session.token)["outcome"] == "approval"
    settled = await settle_lightbox(
        parent_id=family["parent_id"],
        payment_id=session.payment_id,
        outcome=outcome,
        message=outcome.upper(),
        lang="fr",
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert settled.status == "success", settled
    assert payment_row(pay_engine, session.payment_id).state == "APPROVED"
    with session_scope(pay_engine) as db:
        donation = db.get(Donation, payment_row(pay_engine, session.payment_id).donation_id)
        assert donation.status == "PAID"
        mine = db.exec(select(Donation).where(Donation.parent_id == family["parent_id"])).all()
        assert [d.id for d in mine] == [donation.id]
    assert len(sim_txns(live_sim, session.invoice_number, "SALE")) == 1


async def test_the_add_card_lightbox_saves_only_a_card_converge_vouches_for(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    session = await cards.start_add_card(parent_id=family["parent_id"], runtime=runtime)
    token = lightbox_submit(live_sim, session.token, number=MASTERCARD)["response"]["ssl_token"]
    common = dict(parent_id=family["parent_id"], lang="en", runtime=runtime)
    saved = await settle_card_lightbox(outcome="approval", card_token=token, **common)
    assert (saved.status, saved.message) == ("success", "Card saved")
    assert saved.card is not None and saved.card.last4 == "2124"
    forged = await settle_card_lightbox(outcome="approval", card_token="ABCDEFGH12345678", **common)
    assert forged.status == "error"
    assert (await settle_card_lightbox(outcome="cancelled", **common)).message == ""
    listed = await cards_of(pay_engine, family)
    assert [c.last4 for c in listed] == ["2124"]


async def cards_of(engine, family):
    from hotmeals.services.transaction import run_in_transaction

    return await run_in_transaction(cards.list_cards, parent_id=family["parent_id"], engine=engine)
