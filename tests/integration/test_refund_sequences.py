"""The refund arithmetic over random sequences (hypothesis) on PostgreSQL against
the simulator: a paid order of 1-3 lines (quantities, an add-on, a note), then partial
cancels through the cancel cart, cancels of one meal, modify-order decreases
(DeleteFromModifyOrder + ModifyConfirmOrder) and moves of a meal to another Monday (ModifyMeal),
in any order, then cancel-the-rest. After every step the total refunded never exceeds what was
paid; cancelling everything refunds everything; and the simulator's ledger (each sale's voided
or refunded amount) matches the order's succeeded refunds to the cent."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import Order, OrderLine, Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.domain.payment_states import PaymentState, RefundState
from hotmeals.services.ordering.cancelling import cancel_cart, cancel_order
from hotmeals.services.ordering.changing import modify, move
from hotmeals.services.runtime import Runtime
from tests.orders_support import WEEKS, make_shop, monday_in, order_sums, paid_order
from tests.payments_support import PATIENT, SimServer

_keys = itertools.count()

LINE = st.tuples(
    st.integers(0, 1),  # child
    st.integers(0, 2),  # week index
    st.integers(1, 3),  # quantity
    st.booleans(),  # add-on
    st.booleans(),  # special note
)
STEP = st.tuples(
    st.sampled_from(["cart", "meal", "modify", "move"]),
    st.integers(0, 11),  # which line
    st.integers(1, 3),  # how many
)


def _active(engine: Engine, order_id: int) -> list[tuple[int, int, int]]:
    """(line id, meals left, week index) of the order's active lines."""
    with session_scope(engine) as s:
        lines = s.exec(
            select(OrderLine)
            .where(OrderLine.order_id == order_id, OrderLine.status == "active")
            .order_by(OrderLine.id)
        ).all()
        weeks = {monday_in(w): i for i, w in enumerate(WEEKS)}
        return [
            (x.id, x.quantity - x.cancelled_quantity, weeks.get(x.meal_date, 0))
            for x in lines
            if x.quantity > x.cancelled_quantity
        ]


async def _step(engine, gateway, shop, order_id, step) -> None:

    runtime = Runtime(engine=engine, gateway=gateway)
    kind, pick, count = step
    active = _active(engine, order_id)
    if not active:
        return
    line_id, left, week = active[pick % len(active)]
    qty = min(count, left)
    pid = shop["parent_id"]
    key = f"seq-{next(_keys)}"
    try:
        if kind == "cart":
            with session_scope(engine) as s:
                cancel_cart.add_to_cancel_cart(
                    s, parent_id=pid, order_line_id=line_id, quantity=qty
                )
            await cancel_cart.confirm_cancel_cart(
                parent_id=pid,
                reason_id=shop["reason_id"],
                request_key=key,
                runtime=runtime,
            )
        elif kind == "meal":
            await cancel_order.cancel_meal(
                parent_id=pid,
                order_line_id=line_id,
                quantity=qty,
                reason_id=shop["reason_id"],
                request_key=key,
                runtime=runtime,
            )
        elif kind == "modify":
            with session_scope(engine) as s:
                modify.delete_from_modify_order(
                    session=s, parent_id=pid, order_id=order_id, order_line_id=line_id, quantity=qty
                )
            await modify.modify_confirm_order(
                parent_id=pid, order_id=order_id, request_key=key, runtime=runtime
            )
        else:
            target = monday_in(WEEKS[3 + (week + count) % 3])  # a Monday no line starts on
            await move.modify_meal(
                parent_id=pid,
                order_line_id=line_id,
                new_date=target.isoformat(),
                request_key=key,
                runtime=runtime,
            )
    except DomainError:
        pass  # a refusal the rules allow (e.g. a move to a day already taken); nothing changed


def _ledger(engine: Engine, sim: SimServer, order_id: int) -> None:
    sales = {t["txn_id"]: t for t in sim.get("transactions") if t["kind"] == "SALE"}
    with session_scope(engine) as s:
        payments = s.exec(
            select(Payment).where(
                Payment.order_id == order_id, Payment.state == PaymentState.APPROVED
            )
        ).all()
        for payment in payments:
            sale = sales[payment.converge_txn_id]
            at_converge = sale["amount_cents"] if sale["voided"] else sale["refunded_cents"]
            ours = sum(
                r.amount_cents
                for r in s.exec(
                    select(Refund).where(
                        Refund.payment_id == payment.id, Refund.state == RefundState.SUCCEEDED
                    )
                ).all()
            )
            assert at_converge == ours, (payment.invoice_number, at_converge, ours)


# One backend, the production one: the steps run one at a time (no lock is contended), so the
# sums do not depend on the database. SQLite runs the other refund property
# (test_service_refund_property.py); both backends run the example tests of cancels, meal
# changes and moves (test_service_cancellations.py, test_service_order_changes.py).
@pytest.mark.parametrize(
    "pay_engine", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
@given(
    lines=st.lists(LINE, min_size=1, max_size=3, unique_by=lambda x: (x[0], x[1])),
    steps=st.lists(STEP, max_size=4),
)
def test_refunds_over_any_sequence_add_up_to_what_was_paid(
    pay_engine: Engine, live_sim: SimServer, lines, steps
) -> None:
    live_sim.control("config", decline_by_cents="0")
    shop = make_shop(pay_engine)
    specs = [
        {
            "child": child,
            "weeks": WEEKS[week],
            "quantity": qty,
            **({"addons": [shop["addon_id"]]} if addon else {}),
            **({"special_note_text": "No onions"} if note else {}),
        }
        for child, week, qty, addon, note in lines
    ]

    async def run() -> None:
        async with ConvergeClient(live_sim.settings, timeout=PATIENT) as gateway:
            order_id, _ = await paid_order(pay_engine, gateway, live_sim, shop, specs)
            for step in steps:
                await _step(pay_engine, gateway, shop, order_id, step)
                paid, refunded = order_sums(pay_engine, order_id)
                assert 0 <= refunded <= paid, (step, paid, refunded)
            if _active(pay_engine, order_id):
                await cancel_order.cancel_order(
                    parent_id=shop["parent_id"],
                    order_id=order_id,
                    reason_id=shop["reason_id"],
                    request_key=f"rest-{next(_keys)}",
                    runtime=Runtime(engine=pay_engine, gateway=gateway),
                )
            paid, refunded = order_sums(pay_engine, order_id)
            assert refunded == paid, (steps, paid, refunded)
            with session_scope(pay_engine) as s:
                assert s.get(Order, order_id).status == "cancelled"
            _ledger(pay_engine, live_sim, order_id)

    asyncio.run(run())
