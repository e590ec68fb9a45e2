"""Refunds through the payment service on SQLite and PostgreSQL against the simulator: partial
refunds summing to the total, never beyond it (also concurrently), void before settlement,
return after it (a refused void falls back), refunds of an order spread over its payments."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy.engine import Engine

from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import Donation, Order, OrderChange
from hotmeals.domain.charges import ChargeRates, OrderTerms
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import OrderStatus
from hotmeals.domain.payment_states import Purpose
from hotmeals.services import donations, payments
from hotmeals.services.payments.records import order_refunded_cents
from hotmeals.services.runtime import Runtime
from tests.payments_support import (
    SimServer,
    all_at_once,
    audit_kinds,
    in_new_loop,
    lightbox_submit,
    payment_row,
    refund_rows,
    sim_txns,
)


async def paid_donation(
    engine: Engine, gateway: ConvergeClient, sim: SimServer, family: dict, cents: int
) -> payments.PaymentView:
    runtime = Runtime(engine=engine, gateway=gateway)
    session = await donations.start_donation(
        parent_id=family["parent_id"], amount=cents, runtime=runtime
    )
    txn_id = lightbox_submit(sim, session.token)["response"]["ssl_txn_id"]
    view = await payments.confirm_payment(
        payment_id=session.payment_id, txn_id=txn_id, runtime=runtime
    )
    assert view.state == "APPROVED"
    return view


def sim_sale(sim: SimServer, txn_id: str) -> dict:
    return next(t for t in sim.get("transactions") if t["txn_id"] == txn_id)


async def test_partial_refunds_sum_to_the_total_and_not_a_cent_more(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    paid = await paid_donation(pay_engine, gateway, live_sim, family, 3000)
    for cents in (1000, 1500, 500):
        result = await payments.refund(
            payment_id=paid.id,
            amount_cents=cents,
            reason="partial",
            runtime=runtime,
        )
        assert result.ok and result.refunded_cents == cents
        assert [r.kind for r in result.refunds] == ["RETURN"]
    with pytest.raises(DomainError) as info:
        await payments.refund(payment_id=paid.id, amount_cents=1, runtime=runtime)
    assert info.value.code == "refund_exceeds_paid" and info.value.params["refundable_cents"] == 0

    with session_scope(pay_engine) as db:
        view = payments.get_payment_view(db, payment_id=paid.id)
        assert db.get(Donation, view.donation_id).status == "REFUNDED"
    assert view.refunded_cents == 3000 and view.refundable_cents == 0
    assert sim_sale(live_sim, paid.txn_id)["refunded_cents"] == 3000
    assert len(sim_txns(live_sim, paid.invoice_number, "RETURN")) == 3
    assert [r.state for r in refund_rows(pay_engine, paid.id)] == ["SUCCEEDED"] * 3


async def test_a_refund_beyond_the_total_is_refused_before_converge_is_asked(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    paid = await paid_donation(pay_engine, gateway, live_sim, family, 2000)
    with pytest.raises(DomainError) as info:
        await payments.refund(payment_id=paid.id, amount_cents=2001, runtime=runtime)
    assert (
        info.value.code == "refund_exceeds_paid" and info.value.params["refundable_cents"] == 2000
    )
    assert refund_rows(pay_engine, paid.id) == []
    assert sim_txns(live_sim, paid.invoice_number, "RETURN") == []
    for bad in (0, -5):
        with pytest.raises(DomainError):
            await payments.refund(payment_id=paid.id, amount_cents=bad, runtime=runtime)


async def test_an_unpaid_payment_cannot_be_refunded(
    pay_engine: Engine, gateway: ConvergeClient, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    session = await donations.start_donation(
        parent_id=family["parent_id"], amount=1000, runtime=runtime
    )
    with pytest.raises(DomainError) as info:
        await payments.refund(payment_id=session.payment_id, amount_cents=1000, runtime=runtime)
    assert info.value.code == "refund_exceeds_paid"


async def test_a_whole_refund_before_settlement_is_a_void(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    paid = await paid_donation(pay_engine, gateway, live_sim, family, 1800)
    result = await payments.refund(
        payment_id=paid.id,
        amount_cents=1800,
        reason="changed mind",
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert result.ok and [r.kind for r in result.refunds] == ["VOID"]
    assert sim_sale(live_sim, paid.txn_id)["voided"] is True
    assert len(sim_txns(live_sim, paid.invoice_number, "VOID")) == 1
    refund_id = result.refunds[0].id
    assert audit_kinds(pay_engine, "refund", refund_id) == ["refund.requested", "refund.succeeded"]


async def test_a_void_after_settlement_falls_back_to_a_return(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    paid = await paid_donation(pay_engine, gateway, live_sim, family, 2200)
    assert payment_row(pay_engine, paid.id).settled is False  # confirmed while open
    live_sim.control("settle")
    result = await payments.refund(
        payment_id=paid.id, amount_cents=2200, runtime=Runtime(engine=pay_engine, gateway=gateway)
    )
    assert result.ok and [r.kind for r in result.refunds] == ["RETURN"]
    assert sim_sale(live_sim, paid.txn_id)["voided"] is False
    assert sim_sale(live_sim, paid.txn_id)["refunded_cents"] == 2200
    assert audit_kinds(pay_engine, "refund", result.refunds[0].id) == [
        "refund.requested",
        "refund.void_refused",
        "refund.succeeded",
    ]
    assert payment_row(pay_engine, paid.id).settled is True


async def test_converge_refusing_a_refund_is_recorded_and_frees_the_amount(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    paid = await paid_donation(pay_engine, gateway, live_sim, family, 1000)
    live_sim.control("fault", kind="http_500", scope="xml")
    result = await payments.refund(payment_id=paid.id, amount_cents=400, runtime=runtime)
    assert not result.ok and result.pending_cents == 400  # no answer: still reserved
    refund_id = result.refunds[0].id
    view = await payments.reconcile_refund(refund_id=refund_id, runtime=runtime)
    assert view.state == "UNKNOWN"  # nothing at Converge yet, window not over
    from datetime import timedelta

    from hotmeals.clock import now as utcnow

    later = utcnow() + timedelta(hours=1)
    view = await payments.reconcile_refund(
        refund_id=refund_id, runtime=replace(runtime, clock=lambda: later)
    )
    assert view.state == "FAILED"
    result = await payments.refund(payment_id=paid.id, amount_cents=1000, runtime=runtime)
    assert result.ok


@pytest.mark.timeout(120)
def test_concurrent_refunds_never_exceed_the_payment(
    pay_engine: Engine, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine)
    paid = in_new_loop(
        live_sim, _paid_sync, runtime=runtime, sim=live_sim, family=family, cents=3000
    )
    results = all_at_once(
        10,
        lambda: in_new_loop(
            live_sim, payments.refund, payment_id=paid.id, amount_cents=500, runtime=runtime
        ),
    )
    done = [r for r in results if isinstance(r, payments.RefundResult)]
    refused = [r for r in results if isinstance(r, DomainError)]
    assert len(done) == 6 and all(r.ok for r in done), results
    assert len(refused) == 4 and {e.code for e in refused} == {"refund_exceeds_paid"}
    assert sim_sale(live_sim, paid.txn_id)["refunded_cents"] == 3000
    assert sum(r.amount_cents for r in refund_rows(pay_engine, paid.id)) == 3000


async def _paid_sync(*, runtime, sim, family, cents):
    return await paid_donation(runtime.engine, runtime.gateway, sim, family, cents)


async def test_an_order_refund_is_spread_over_its_payments(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, family: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    with session_scope(pay_engine) as db:
        order = Order(
            number=f"HM-T{family['parent_id']:06d}",
            parent_id=family["parent_id"],
            total_pay_cents=2000,
            **OrderTerms(ChargeRates()).to_stored(),
        )
        db.add(order)
        db.flush()
        order_id = order.id
    paid = []
    # The order, then a change that cost more.
    for purpose, cents in ((Purpose.ORDER, 2000), (Purpose.ORDER_CHANGE, 1500)):
        session = await payments.start_payment(
            parent_id=family["parent_id"],
            purpose=purpose,
            amount_cents=cents,
            order_id=order_id,
            runtime=runtime,
        )
        txn_id = lightbox_submit(live_sim, session.token)["response"]["ssl_txn_id"]
        paid.append(
            await payments.confirm_payment(
                payment_id=session.payment_id,
                txn_id=txn_id,
                runtime=runtime,
            )
        )
    with session_scope(pay_engine) as db:  # the change the second payment paid for
        db.add(
            OrderChange(
                order_id=order_id,
                parent_id=family["parent_id"],
                state="applied",
                payment_id=paid[1].id,
                amount_cents=1500,
            )
        )
    result = await payments.refund(
        order_id=order_id,
        amount_cents=2500,
        parent_id=family["parent_id"],
        runtime=runtime,
    )
    assert result.ok
    # Newest first: the whole second payment (a void), then 10.00 of the first.
    assert [(r.payment_id, r.amount_cents, r.kind) for r in result.refunds] == [
        (paid[1].id, 1500, "VOID"),
        (paid[0].id, 1000, "RETURN"),
    ]
    with session_scope(pay_engine) as db:
        # The ORDER handler placed the order; its total refund is the sum of its refunds.
        assert OrderStatus(db.get(Order, order_id).status) is OrderStatus.PLACED
        assert order_refunded_cents(db, order_id) == 2500
    with pytest.raises(DomainError) as info:
        await payments.refund(order_id=order_id, amount_cents=1001, runtime=runtime)
    assert info.value.code == "refund_exceeds_paid"
    with pytest.raises(DomainError) as info:
        await payments.refund(
            order_id=order_id,
            amount_cents=100,
            parent_id=family["parent_id"] + 999,
            runtime=runtime,
        )
    assert info.value.code == "payment_order_not_found"
