"""Property (issue 21): over random sequences of checkouts, Lightbox sessions paid, paid with
the answer lost (the browser then reports an error), paid with no report at all, declined
cards, browser declines and cancels of sessions that may still be paid later, retries (a new
checkout of the same cart), order cancels, modifications paid through the Lightbox and
reconciliation rounds, once the rounds have run after every session's life:

- every approved sale at Converge is a payment row that pays for one placed order or an
  applied change, or is voided / returned in full with its own refund rows;
- the simulator's net equals the app's net for the parent, to the cent;
- no payment is refunded beyond what it paid;
- nothing is left CREATED, UNKNOWN, PENDING, and every failed attempt is closed."""

# ruff: noqa: F811 - pytest fixtures are imported from the support modules

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import Order, OrderChange, Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.domain.payments import PaymentState, RefundState
from hotmeals.payments.converge import ConvergeClient
from hotmeals.services import cancellations, checkout, order_changes, payments
from hotmeals.services.payments.records import CHANGE_PAID_STATES, split_order_payments
from tests.payments.orders_after_support import add, make_shop, monday_in
from tests.payments.service_support import (  # noqa: F401 - fixtures
    lightbox_submit,
    live_sim,
    pay_engine,
)
from tests.payments.support import DECLINED_CARD, PATIENT, SimServer

LATER = payments.SESSION_WINDOW + timedelta(minutes=1)
PAYING = ("pay", "pay_lost", "pay_silent", "browser_fail", "card_declined")

pick = st.integers(min_value=0, max_value=7)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("checkout"), pick),
        st.tuples(st.just("pay"), pick),
        st.tuples(st.just("pay_lost"), pick),
        st.tuples(st.just("pay_silent"), pick),
        st.tuples(st.just("browser_fail"), pick, st.sampled_from(["declined", "cancelled"])),
        st.tuples(st.just("card_declined"), pick),
        st.tuples(st.just("cancel"), pick),
        st.tuples(st.just("modify"), pick),
        st.tuples(st.just("round"), pick),
    ),
    min_size=3,
    max_size=10,
)


async def _round(engine: Engine, gw: ConvergeClient) -> None:
    """``payments.reconcile_round``, as if every session's life were over."""
    now = datetime.now(UTC) + LATER
    await payments.reconcile_open_payments(now=now, engine=engine, gateway=gw)
    await checkout.void_orphan_payments(engine=engine, gateway=gw)
    await order_changes.void_dropped_change_payments(engine=engine, gateway=gw)
    await payments.void_duplicate_payments(engine=engine, gateway=gw)
    await payments.reconcile_open_refunds(now=now, engine=engine, gateway=gw)


def _placed_orders(engine: Engine, parent_id: int) -> list[int]:
    with session_scope(engine) as s:
        return list(
            s.exec(
                select(Order.id)
                .where(Order.parent_id == parent_id, Order.status.in_(checkout.PLACED_STATUSES))
                .order_by(Order.id)
            ).all()
        )


async def run_scenario(ops: list[tuple], engine: Engine, sim: SimServer) -> None:
    shop = make_shop(engine)  # a new parent (and menu) per example
    pid = shop["parent_id"]
    sessions: list[dict] = []  # Lightbox sessions a tab still holds: kind, payment id, token
    async with ConvergeClient(sim.settings, timeout=PATIENT) as gw:
        for step, op in enumerate(ops):
            try:
                await _step(engine, gw, sim, shop, sessions, step, op)
            except DomainError:
                pass  # a refusal (nothing payable, a change in progress, ...) changes nothing
        sessions.clear()  # every session's life ends
        await _round(engine, gw)
        await _round(engine, gw)
        check(engine, sim, pid)


async def _step(engine, gw, sim, shop: dict, sessions: list[dict], step: int, op: tuple) -> None:
    kind, n = op[0], op[1]
    pid = shop["parent_id"]
    if kind == "checkout" or (kind in PAYING and not sessions):
        await _checkout(engine, gw, shop, n, sessions)
        if kind == "checkout" or not sessions:
            return
    if kind in PAYING:
        tab = sessions[n % len(sessions)]
        if kind == "browser_fail":  # the browser reports a failure; the tab keeps its session
            await _report(engine, gw, pid, tab, op[2])
            return
        sessions.remove(tab)
        card = {"number": DECLINED_CARD} if kind == "card_declined" else {}
        answer = lightbox_submit(sim, tab["token"], **card)
        if kind == "pay_silent" or "response" not in answer:
            return  # the tab was closed: nothing reaches the server
        if kind == "pay" and answer["outcome"] == "approval":
            await _approve(engine, gw, pid, tab, answer["response"]["ssl_txn_id"])
        else:  # a decline, or an approval whose answer the page lost: onError
            await _report(engine, gw, pid, tab, "declined" if card else "error")
    elif kind == "modify":
        placed = _placed_orders(engine, pid)
        if not placed:
            return
        order_id = placed[n % len(placed)]
        with session_scope(engine) as s:
            order_changes.add_to_my_order(
                session=s,
                parent_id=pid,
                order_id=order_id,
                child_id=shop["children"][n % 2],
                meal_id=shop["meal_id"],
                date=monday_in(2 + n % 3).isoformat(),
            )
        result = await order_changes.modify_confirm_order(
            parent_id=pid, order_id=order_id, request_key=f"m{step}", engine=engine, gateway=gw
        )
        if result.hosted is not None:
            sessions.append(
                {"kind": "change", "id": result.payment_id, "token": result.hosted.token}
            )
    elif kind == "cancel":
        placed = _placed_orders(engine, pid)
        if placed:
            await cancellations.cancel_order(
                parent_id=pid,
                order_id=placed[n % len(placed)],
                reason_id=shop["reason_id"],
                request_key=f"c{step}",
                engine=engine,
                gateway=gw,
            )
    elif kind == "round":
        sessions.clear()  # time passes: every session's life is over
        await _round(engine, gw)


async def _checkout(engine: Engine, gw, shop: dict, n: int, sessions: list[dict]) -> None:
    """A tab checks the cart out (a meal is added first when there is room)."""
    try:
        add(engine, shop, n % 2, 2 + n % 3)
    except DomainError:
        pass  # already in the cart: check out what is there
    started = await checkout.start_checkout(parent_id=shop["parent_id"], engine=engine, gateway=gw)
    if started.hosted is not None:
        sessions.append({"kind": "order", "id": started.payment_id, "token": started.hosted.token})


async def _approve(engine: Engine, gw, pid: int, tab: dict, txn: str) -> None:
    if tab["kind"] == "order":
        await checkout.complete_checkout(
            parent_id=pid, payment_id=tab["id"], txn_id=txn, engine=engine, gateway=gw
        )
    else:
        await order_changes.complete_change_payment(
            parent_id=pid, payment_id=tab["id"], txn_id=txn, engine=engine, gateway=gw
        )


async def _report(engine: Engine, gw, pid: int, tab: dict, outcome: str) -> None:
    if tab["kind"] == "order":
        await checkout.checkout_declined(
            parent_id=pid,
            payment_id=tab["id"],
            message=outcome.upper(),
            outcome=outcome,
            engine=engine,
            gateway=gw,
        )
    else:
        await order_changes.change_payment_declined(
            parent_id=pid,
            payment_id=tab["id"],
            message=outcome.upper(),
            outcome=outcome,
            engine=engine,
            gateway=gw,
        )


def check(engine: Engine, sim: SimServer, pid: int) -> None:
    with session_scope(engine) as s:
        mine = list(s.exec(select(Payment).where(Payment.parent_id == pid)).all())
        refunds = list(
            s.exec(select(Refund).where(Refund.payment_id.in_([p.id for p in mine]))).all()
        )
        by_id = {p.id: p for p in mine}
        kept: set[int] = set()
        for order in s.exec(select(Order).where(Order.parent_id == pid)).all():
            approved = [p for p in mine if p.order_id == order.id and p.state == "APPROVED"]
            changes = s.exec(
                select(OrderChange.payment_id).where(
                    OrderChange.order_id == order.id,
                    OrderChange.state.in_(CHANGE_PAID_STATES),
                )
            ).all()
            ours, _ = split_order_payments(order, approved, [c for c in changes if c])
            kept |= {p.id for p in ours}
    invoices = {p.invoice_number: p for p in mine if p.duplicate_of_id is None}
    sales = [
        t
        for t in sim.get("transactions")
        if t["kind"] == "SALE" and t["invoice_number"] in invoices
    ]
    # Nothing open, every failure closed.
    for p in mine:
        assert p.state not in (PaymentState.CREATED, PaymentState.UNKNOWN), p
        if p.state != PaymentState.APPROVED:
            assert p.closed_at is not None, p
    for r in refunds:
        assert r.state not in (RefundState.PENDING, RefundState.UNKNOWN), r
    # Every sale is a row; each approved row is kept by its order or given back in full.
    recorded = {p.converge_txn_id: p for p in mine if p.state == PaymentState.APPROVED}
    for sale in sales:
        assert sale["txn_id"] in recorded, sale
    back = {p.id: 0 for p in mine}
    for r in refunds:
        if r.state == RefundState.SUCCEEDED:
            back[r.payment_id] += r.amount_cents
    for p in mine:
        assert back[p.id] <= (p.amount_cents if p.state == PaymentState.APPROVED else 0), p
        if p.state == PaymentState.APPROVED and p.id not in kept:
            assert back[p.id] == p.amount_cents, (p, back[p.id])
    # The ledgers agree to the cent.
    app_net = sum(p.amount_cents - back[p.id] for p in mine if p.state == PaymentState.APPROVED)
    sim_net = sum(0 if t["voided"] else t["amount_cents"] - t["refunded_cents"] for t in sales)
    assert sim_net == app_net, (sim_net, app_net)
    assert all(by_id[p].state == PaymentState.APPROVED for p in kept)


@pytest.mark.timeout(900)
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=operations)
def test_money_ends_where_converge_says_whatever_the_browser_says(
    ops: list[tuple], pay_engine: Engine, live_sim: SimServer
) -> None:
    live_sim.control("config", decline_by_cents="0")
    asyncio.run(run_scenario(ops, pay_engine, live_sim))
