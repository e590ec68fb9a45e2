"""Property: over any sequence of charges, refunds and batch settlements, what was refunded
never exceeds what was paid (per payment and in total), the service refuses exactly the
refunds that would, and the database's sums agree with what Converge (the simulator) did."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine

from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.simulator_cards import NO_ANSWER_CENTS
from hotmeals.db.engine import session_scope
from hotmeals.domain.errors import DomainError
from hotmeals.services import cards, payments
from hotmeals.services.runtime import Runtime
from tests.factories import make_parent
from tests.payments_support import PATIENT, SimServer, lightbox_submit, reserve_donation_payment

# Not the simulator's "never answers" amount: that one is about time-outs (and a 5 s wait for
# its 4017), not about sums - it made this test fail with UNKNOWN whatever the machine's speed.
charge = st.tuples(
    st.just("charge"),
    st.integers(min_value=100, max_value=5000).filter(lambda cents: cents != NO_ANSWER_CENTS),
)
refund = st.tuples(
    st.just("refund"),
    st.integers(min_value=0, max_value=10),  # which payment (modulo how many there are)
    st.integers(min_value=1, max_value=6000),
)
settle = st.tuples(st.just("settle"))
operations = st.lists(st.one_of(charge, refund, refund, settle), min_size=1, max_size=10)


async def run_scenario(ops: list[tuple], engine: Engine, sim: SimServer) -> None:
    with session_scope(engine) as db:
        parent_id = make_parent(db).id  # a new parent per example: a fresh card limit
    sim.control("config", decline_by_cents="0")  # any amount is approved: this is about sums
    async with ConvergeClient(sim.settings, timeout=PATIENT) as gw:
        add = await cards.start_add_card(
            parent_id=parent_id, runtime=Runtime(engine=engine, gateway=gw)
        )
        token = lightbox_submit(sim, add.token)["response"]["ssl_token"]
        card = await cards.save_card(
            parent_id=parent_id, token=token, runtime=Runtime(engine=engine, gateway=gw)
        )
        paid: list[payments.PaymentView] = []
        model: dict[int, int] = {}  # payment id -> refundable, as a plain model of the rule
        for op in ops:
            if op[0] == "charge":
                with session_scope(engine) as db:
                    reserved = reserve_donation_payment(db, parent_id=parent_id, amount_cents=op[1])
                view = await payments.charge_stored_card(
                    payment_id=reserved.id,
                    parent_id=parent_id,
                    card_id=card.id,
                    runtime=Runtime(engine=engine, gateway=gw),
                )
                assert view.state == "APPROVED"
                paid.append(view)
                model[view.id] = view.amount_cents
            elif op[0] == "refund" and paid:
                target = paid[op[1] % len(paid)]
                amount = op[2]
                try:
                    result = await payments.refund(
                        payment_id=target.id,
                        amount_cents=amount,
                        runtime=Runtime(engine=engine, gateway=gw),
                    )
                except DomainError as err:
                    assert err.code == "refund_exceeds_paid"
                    assert amount > model[target.id]
                else:
                    assert amount <= model[target.id]
                    assert result.ok, result
                    model[target.id] -= amount
            elif op[0] == "settle":
                sim.control("settle")
            check(engine, sim, paid, model)


def check(engine: Engine, sim: SimServer, paid: list, model: dict[int, int]) -> None:
    sales = {t["txn_id"]: t for t in sim.get("transactions") if t["kind"] == "SALE"}
    total_paid = total_refunded = 0
    with session_scope(engine) as db:
        for view in paid:
            now = payments.get_payment_view(db, payment_id=view.id)
            assert 0 <= now.refunded_cents <= now.amount_cents
            assert now.refundable_cents == model[view.id]
            assert now.refunded_cents + now.refundable_cents == now.amount_cents
            sale = sales[now.txn_id]
            at_converge = sale["amount_cents"] if sale["voided"] else sale["refunded_cents"]
            assert at_converge == now.refunded_cents
            total_paid += now.amount_cents
            total_refunded += now.refunded_cents
    assert total_refunded <= total_paid


# One backend: the rule is the service's arithmetic, run one operation at a time (no lock is
# contended). PostgreSQL runs the other refund property (test_refund_sequences.py), and both
# backends run the example tests of these sums (test_service_refunds.py: partial refunds sum
# to the total and not a cent more, concurrent refunds never exceed the payment).
@pytest.mark.parametrize("pay_engine", ["sqlite"], indirect=True)
@pytest.mark.timeout(600)
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=operations)
def test_refunds_never_exceed_payments(
    ops: list[tuple], pay_engine: Engine, live_sim: SimServer
) -> None:
    asyncio.run(run_scenario(ops, pay_engine, live_sim))
