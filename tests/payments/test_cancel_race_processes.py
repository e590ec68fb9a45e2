"""Cancels racing in separate PROCESSES, on SQLite and PostgreSQL: each forked process
has its own engine, connections and Converge client, and only the database is shared (what two
server workers see). The same cancel sent twice at once refunds once; a cancel of a meal racing
a move of the same meal refunds that meal once, whichever wins."""

# ruff: noqa: F811 - pytest fixtures are imported from the support modules

from __future__ import annotations

import asyncio
import multiprocessing
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import OrderCancellation, Payment, Refund
from hotmeals.domain.payment_states import RefundState
from hotmeals.services.payments.records import order_paid_cents, order_refunded_cents
from hotmeals.services.runtime import Runtime
from tests.payments.orders_after_support import (  # noqa: F401 - fixtures
    WEEKS,
    monday_in,
    paid_order,
    shop,
)
from tests.payments.service_support import gateway, live_sim, pay_engine  # noqa: F401
from tests.payments.support import PATIENT, SimServer


def _racer(url: str, settings: Any, call: str, kwargs: dict, barrier: Any, out: Any) -> None:
    from hotmeals.services.ordering.cancelling import cancel_order
    from hotmeals.services.ordering.changing import move

    fn = {
        "cancel_meal": cancel_order.cancel_meal,
        "modify_meal": move.modify_meal,
    }[call]
    engine = make_engine(url)

    async def main() -> Any:
        async with ConvergeClient(settings, timeout=PATIENT) as client:
            barrier.wait(timeout=60)
            return await fn(runtime=Runtime(engine=engine, gateway=client), **kwargs)

    try:
        result = asyncio.run(main())
        out.put((call, "ok", getattr(result, "refund_cents", None)))
    except Exception as exc:  # noqa: BLE001 - the test reads what each process got
        out.put((call, "error", getattr(exc, "code", repr(exc))))
    finally:
        engine.dispose()


def race(engine: Engine, sim: SimServer, calls: list[tuple[str, dict]]) -> list[tuple]:
    url = engine.url.render_as_string(hide_password=False)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(len(calls))
    out = context.Queue()
    engine.dispose()  # no pooled connection is inherited by the children
    processes = [
        context.Process(target=_racer, args=(url, sim.settings, call, kw, barrier, out))
        for call, kw in calls
    ]
    for process in processes:
        process.start()
    try:
        return [out.get(timeout=180) for _ in processes]
    finally:
        for process in processes:
            process.join(timeout=60)


def _state(engine: Engine, order_id: int) -> tuple[int, int, int, list[Refund]]:
    with session_scope(engine) as s:
        cancels = s.exec(
            select(OrderCancellation).where(OrderCancellation.order_id == order_id)
        ).all()
        refunds = list(s.exec(select(Refund).where(Refund.order_id == order_id)).all())
        return (
            order_paid_cents(s, order_id),
            order_refunded_cents(s, order_id),
            len(cancels),
            refunds,
        )


def _ledger_matches(engine: Engine, sim: SimServer, order_id: int) -> None:
    sales = {t["txn_id"]: t for t in sim.get("transactions") if t["kind"] == "SALE"}
    with session_scope(engine) as s:
        for payment in s.exec(
            select(Payment).where(Payment.order_id == order_id, Payment.state == "APPROVED")
        ).all():
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
            assert at_converge == ours


@pytest.mark.timeout(300)
async def test_the_same_cancel_from_two_processes_refunds_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    order_id, (line_id,) = await paid_order(pay_engine, gateway, live_sim, shop)
    call = {
        "parent_id": shop["parent_id"],
        "order_line_id": line_id,
        "quantity": 1,
        "reason_id": shop["reason_id"],
        "request_key": "same-click",
    }
    answers = race(pay_engine, live_sim, [("cancel_meal", call), ("cancel_meal", call)])
    assert [a[1] for a in answers] == ["ok", "ok"], answers
    assert answers[0][2] == answers[1][2] > 0
    paid, refunded, cancels, refunds = _state(pay_engine, order_id)
    assert cancels == 1 and len(refunds) == 1 and refunded == answers[0][2] < paid
    _ledger_matches(pay_engine, live_sim, order_id)


@pytest.mark.timeout(300)
async def test_a_cancel_racing_a_move_of_the_same_meal_refunds_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    order_id, (line_id,) = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": WEEKS[0], "quantity": 1}]
    )
    cancel = {
        "parent_id": shop["parent_id"],
        "order_line_id": line_id,
        "reason_id": shop["reason_id"],
        "request_key": "cancel-it",
    }
    move = {
        "parent_id": shop["parent_id"],
        "order_line_id": line_id,
        "new_date": monday_in(WEEKS[1]).isoformat(),
        "request_key": "move-it",
    }
    answers = race(pay_engine, live_sim, [("cancel_meal", cancel), ("modify_meal", move)])
    by_call = {a[0]: a for a in answers}
    assert by_call["cancel_meal"][1] == "ok", answers  # the meal is cancelled either way
    paid, refunded, cancels, refunds = _state(pay_engine, order_id)
    # One meal paid, one meal cancelled: the whole payment back, once (the move, at the same
    # price, moved no money; or it was refused because the meal was cancelled first).
    assert cancels == 1 and refunded == paid
    assert sum(r.amount_cents for r in refunds if r.state == RefundState.SUCCEEDED) == paid
    _ledger_matches(pay_engine, live_sim, order_id)
