"""One handler per purpose, the same whichever door the outcome came through: an order
payment places its order (or marks it failed, then placed on a retry), a payment must pay for
something that exists and is the parent's."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Engine

from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import Donation, Order
from hotmeals.domain.charges import ChargeRates, OrderTerms
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import OrderStatus
from hotmeals.domain.payment_states import Purpose
from hotmeals.services import cards, payments
from hotmeals.services.payments.purposes import HANDLERS
from hotmeals.services.runtime import Runtime
from tests.factories import make_parent
from tests.payments_support import DECLINED_CARD, SimServer, lightbox_submit


def test_every_purpose_has_exactly_one_handler():
    assert set(HANDLERS) == set(Purpose)
    assert all(handler.purpose is purpose for purpose, handler in HANDLERS.items())


def _order(engine: Engine, parent_id: int, number: str) -> int:
    with session_scope(engine) as db:
        order = Order(
            number=number,
            parent_id=parent_id,
            total_pay_cents=1850,
            **OrderTerms(ChargeRates()).to_stored(),
        )
        db.add(order)
        db.flush()
        return order.id


def _status(engine: Engine, order_id: int) -> OrderStatus:
    with session_scope(engine) as db:
        return OrderStatus(db.get(Order, order_id).status)


async def test_a_declined_order_payment_fails_the_order_and_a_retry_places_it(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    order_id = _order(pay_engine, family["parent_id"], f"HM-P{family['parent_id']:06d}")
    first = await payments.start_payment(
        parent_id=family["parent_id"],
        purpose=Purpose.ORDER,
        amount_cents=1850,
        order_id=order_id,
        runtime=runtime,
    )
    declined = lightbox_submit(live_sim, first.token, number=DECLINED_CARD)["response"]
    with session_scope(pay_engine) as db:
        payments.record_decline(
            db,
            payment_id=first.payment_id,
            message=declined["ssl_result_message"],
            parent_id=family["parent_id"],
        )
    assert _status(pay_engine, order_id) is OrderStatus.PAYMENT_FAILED

    retry = await payments.start_payment(
        parent_id=family["parent_id"],
        purpose=Purpose.ORDER,
        amount_cents=1850,
        order_id=order_id,
        runtime=runtime,
    )
    assert _status(pay_engine, order_id) is OrderStatus.PENDING_PAYMENT  # a new attempt
    txn = lightbox_submit(live_sim, retry.token)["response"]["ssl_txn_id"]
    view = await payments.confirm_payment(payment_id=retry.payment_id, txn_id=txn, runtime=runtime)
    assert view.approved
    assert _status(pay_engine, order_id) is OrderStatus.PLACED


@pytest.mark.parametrize(
    "purpose, what",
    [
        (Purpose.ORDER, {}),
        (Purpose.ORDER_CHANGE, {}),
        (Purpose.DONATION, {}),
        (Purpose.CARD_CHECK, {}),
        (Purpose.DONATION, {"donation_id": "other"}),
    ],
)
def test_a_payment_pays_for_something_of_the_parents(pay_engine: Engine, family, purpose, what):
    with session_scope(pay_engine) as db:
        if what.get("donation_id") == "other":
            stranger = make_parent(db)
            gift = Donation(parent_id=stranger.id, amount_cents=500)
            db.add(gift)
            db.flush()
            what = {"donation_id": gift.id}
    with pytest.raises(DomainError) as info, session_scope(pay_engine) as db:
        payments.reserve_payment(
            db, parent_id=family["parent_id"], purpose=purpose, amount_cents=500, **what
        )
    assert info.value.code == "payment_purpose_invalid"


async def test_a_saved_card_order_payment_places_the_order_like_the_lightbox(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    # The saved-card door records its sale through the same ORDER handler as the Lightbox.
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    adding = await cards.start_add_card(parent_id=family["parent_id"], runtime=runtime)
    token = lightbox_submit(live_sim, adding.token)["response"]["ssl_token"]
    card = await cards.save_card(parent_id=family["parent_id"], token=token, runtime=runtime)
    order_id = _order(pay_engine, family["parent_id"], f"HM-S{family['parent_id']:06d}")
    with session_scope(pay_engine) as db:
        payment_id = payments.reserve_payment(
            db,
            parent_id=family["parent_id"],
            purpose=Purpose.ORDER,
            amount_cents=1850,
            order_id=order_id,
        ).id
    view = await payments.charge_stored_card(
        payment_id=payment_id,
        parent_id=family["parent_id"],
        card_id=card.id,
        runtime=runtime,
    )
    assert view.approved
    assert _status(pay_engine, order_id) is OrderStatus.PLACED
