"""The property test of a family's money, on SQLite and PostgreSQL against the Converge simulator:
random sequences of what moves a family's money - a checkout paid with credit first and the card for
the rest, a meal cancelled (refund to the card or to credit), the whole order cancelled, an order
modified (a meal out, another in) or a meal moved to another day at today's price (the catalogue
price changes between steps: a cheaper day refunds, a dearer one is paid with credit first, then the
card), the school day closed (refund to the card, to credit, or a make-up meal) and a child marked
away - and after each step, to the cent:

- the family's credit balance is the sum of its ledger rows and never below zero, and each
  order's credit rows are exactly its credit payment (spent) and its refunds to credit (given);
- per source, money in = money out: no source gives back more than it paid; what the order kept
  (paid minus refunded) is what its remaining meals cost on its stored terms, and a fully
  cancelled order kept nothing; nothing more is owed (a new refund plan finds 0);
- the simulator's ledger (what the card processor holds) matches the card side: for each card
  payment, the sale less its voids and returns equals what the database says the card paid less
  what went back to the card.

Each example is a new family and a real checkout, so the examples are few (PROPERTY_EXAMPLES,
12 by default) and derandomized: the same sequences on every run, shrunk when one fails."""

from __future__ import annotations

import asyncio
import os
from datetime import timedelta

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import CreditEntry, OrderLine, Payment, Portion, PriceTier, Refund
from hotmeals.domain.credit import CreditKind
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import LineStatus
from hotmeals.domain.payment_states import PaymentState, RefundKind, RefundState
from hotmeals.services import away, closure_apply, credit
from hotmeals.services.ordering import checkout, settle
from hotmeals.services.ordering.cancelling import cancel_order
from hotmeals.services.ordering.cancelling.refund_plan import refund_plan
from hotmeals.services.ordering.changing import modify, move
from hotmeals.services.ordering.loaded_order import load_order
from hotmeals.services.runtime import Runtime
from tests.integration.meals_support import choose, family
from tests.payments_support import PATIENT, SimServer, lightbox_submit, sim_txns

EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "12"))
DESTINATIONS = st.sampled_from(["card", "credit"])
STEP = st.one_of(
    st.tuples(st.just("cancel_meal"), st.integers(0, 3), DESTINATIONS),
    st.tuples(st.just("cancel_order"), st.just(0), DESTINATIONS),
    st.tuples(st.just("close"), st.just(0), st.sampled_from(["card", "credit", "makeup"])),
    st.tuples(st.just("away"), st.integers(0, 1), DESTINATIONS),
    st.tuples(st.just("move"), st.integers(0, 3), DESTINATIONS),
    st.tuples(st.just("modify"), st.integers(0, 3), DESTINATIONS),
    st.tuples(st.just("reprice"), st.sampled_from([-150, 200]), st.just("catalogue")),
)


async def _checkout(engine: Engine, gw: ConvergeClient, sim: SimServer, fam: dict) -> int:
    """Every child booked on both Mondays, paid: credit first, the card (Lightbox) the rest."""
    runtime = Runtime(engine=engine, gateway=gw)
    from hotmeals.services.ordering import cart

    with session_scope(engine) as s:
        for menu_day_id in (fam["menu_day_id"], fam["later_id"]):
            for child in fam["children"]:
                cart.add_to_cart(
                    session=s,
                    parent_id=fam["parent_id"],
                    child_id=child,
                    meal_id=fam["meal_id"],
                    menu_day_id=menu_day_id,
                )
    started = await checkout.start_checkout(parent_id=fam["parent_id"], runtime=runtime)
    if started.hosted is None:  # credit covered it all: placed at once
        assert started.result is not None and started.result.status == settle.PLACED
        return started.result.order_id
    answer = lightbox_submit(sim, started.hosted.token)
    assert answer["outcome"] == "approval", answer
    result = await checkout.complete_checkout(
        parent_id=fam["parent_id"],
        payment_id=started.payment_id,
        txn_id=answer["response"]["ssl_txn_id"],
        runtime=runtime,
    )
    assert result.status == settle.PLACED, result
    return result.order_id


def _active_lines(engine: Engine, order_id: int) -> list[OrderLine]:
    with session_scope(engine) as s:
        lines = s.exec(
            select(OrderLine)
            .where(OrderLine.order_id == order_id, OrderLine.status == LineStatus.ACTIVE)
            .order_by(col(OrderLine.id))
        ).all()
        s.expunge_all()
        return list(lines)


def _reprice(engine: Engine, fam: dict, delta: int) -> None:
    """Today's catalogue price of the meal changes (orders keep what they were sold at)."""
    with session_scope(engine) as s:
        tiers = s.exec(
            select(PriceTier)
            .join(Portion, col(Portion.id) == PriceTier.portion_id)
            .where(Portion.meal_id == fam["meal_id"])
        ).all()
        for tier in tiers:
            tier.unit_price_cents = max(100, tier.unit_price_cents + delta)
            s.add(tier)


async def _pay_change(engine: Engine, gw: ConvergeClient, sim: SimServer, fam: dict, result):
    """A change that costs more than credit covers: the card pays the rest in the Lightbox."""
    if result.status == "pay":
        assert result.hosted is not None and result.payment_id is not None
        answer = lightbox_submit(sim, result.hosted.token)
        assert answer["outcome"] == "approval", answer
        result = await modify.complete_change_payment(
            parent_id=fam["parent_id"],
            payment_id=result.payment_id,
            txn_id=answer["response"]["ssl_txn_id"],
            runtime=Runtime(engine=engine, gateway=gw),
        )
    assert result.status == "applied", result


async def _modify(engine, gw, sim, fam: dict, order_id: int, line, n: int, where) -> None:
    """One meal out of the order and the meal added for the other child on the other Monday
    (at today's price), confirmed as one change: a decrease refunds, an increase is paid."""
    other = fam["day"] + timedelta(days=7) if line.meal_date == fam["day"] else fam["day"]
    kid = next((c for c in fam["children"] if c != line.child_id), line.child_id)
    with session_scope(engine) as s:
        modify.delete_from_modify_order(
            session=s, parent_id=fam["parent_id"], order_id=order_id, order_line_id=line.id
        )
        modify.add_to_my_order(
            session=s,
            parent_id=fam["parent_id"],
            order_id=order_id,
            child_id=kid,
            meal_id=fam["meal_id"],
            date=other.isoformat(),
        )
    result = await modify.modify_confirm_order(
        parent_id=fam["parent_id"],
        order_id=order_id,
        request_key=f"prop-{n}",
        refund_to=where,
        runtime=Runtime(engine=engine, gateway=gw),
    )
    await _pay_change(engine, gw, sim, fam, result)


async def _move(engine: Engine, gw: ConvergeClient, sim: SimServer, fam: dict, line, n, where):
    """The meal to the other Monday, at today's price: a cheaper day refunds the difference
    (card or credit), a dearer one is paid (credit first, then the card in the Lightbox)."""
    other = fam["day"] + timedelta(days=7) if line.meal_date == fam["day"] else fam["day"]
    result = await move.modify_meal(
        parent_id=fam["parent_id"],
        order_line_id=line.id,
        new_date=other.isoformat(),
        request_key=f"prop-{n}",
        refund_to=where,
        runtime=Runtime(engine=engine, gateway=gw),
    )
    await _pay_change(engine, gw, sim, fam, result)


async def _step(
    engine: Engine, gw: ConvergeClient, sim: SimServer, fam: dict, order_id: int, n: int, step
):
    runtime = Runtime(engine=engine, gateway=gw)
    kind, which, where = step
    pid = fam["parent_id"]
    if kind == "reprice":
        _reprice(engine, fam, which)
    elif kind in ("move", "modify"):
        lines = _active_lines(engine, order_id)
        if not lines:
            return
        line = lines[which % len(lines)]
        if kind == "move":
            await _move(engine, gw, sim, fam, line, n, where)
        else:
            await _modify(engine, gw, sim, fam, order_id, line, n, where)
    elif kind == "cancel_meal":
        lines = [line.id for line in _active_lines(engine, order_id)]
        if not lines:
            return
        await cancel_order.cancel_meal(
            parent_id=pid,
            order_line_id=lines[which % len(lines)],
            reason_id=fam["reason_id"],
            request_key=f"prop-{n}",
            refund_to=where,
            runtime=runtime,
        )
    elif kind == "cancel_order":
        await cancel_order.cancel_order(
            parent_id=pid,
            order_id=order_id,
            reason_id=fam["reason_id"],
            request_key=f"prop-{n}",
            refund_to=where,
            runtime=runtime,
        )
    elif kind == "close":
        choose(engine, fam, where)
        await closure_apply.close_day(
            school=str(fam["school_id"]),
            day=fam["day"].isoformat(),
            reason="storm",
            runtime=runtime,
        )
    else:  # a child away for both Mondays
        await away.mark_away(
            parent_id=pid,
            child_ids=[fam["children"][which % len(fam["children"])]],
            from_date=fam["day"].isoformat(),
            to_date=(fam["day"] + timedelta(days=7)).isoformat(),
            request_key=f"prop-{n}",
            refund_to=where,
            runtime=runtime,
        )


def _check_money(engine: Engine, sim: SimServer, fam: dict, order_id: int) -> None:
    pid = fam["parent_id"]
    with session_scope(engine) as s:
        rows = s.exec(select(CreditEntry).where(col(CreditEntry.parent_id) == pid)).all()
        assert credit.balance(s, pid) == sum(r.amount_cents for r in rows) >= 0
        payments = s.exec(
            select(Payment).where(
                Payment.order_id == order_id, Payment.state == PaymentState.APPROVED
            )
        ).all()
        refunds = s.exec(select(Refund).where(Refund.order_id == order_id)).all()
        assert all(r.state == RefundState.SUCCEEDED for r in refunds), refunds
        loaded = load_order(s, order_id=order_id, parent_id=pid)
        plan = refund_plan(loaded, {})
        active = [line for line in loaded.lines if line.status == LineStatus.ACTIVE]
        invoices = {p.id: p.invoice_number for p in payments if p.method == "card"}

    by_payment = {p.id: p for p in payments}
    to_credit = sum(r.amount_cents for r in refunds if r.kind == RefundKind.CREDIT)
    to_card = sum(r.amount_cents for r in refunds if r.kind != RefundKind.CREDIT)
    paid = sum(p.amount_cents for p in payments)
    # The order's credit rows: its credit payment spent, its refunds to credit given.
    spent = sum(p.amount_cents for p in payments if p.method == "credit")
    order_rows = [r for r in rows if r.order_id == order_id]
    assert -sum(r.amount_cents for r in order_rows if r.kind == CreditKind.SPEND) == spent
    given_back = sum(r.amount_cents for r in order_rows if r.kind != CreditKind.SPEND)
    assert given_back == to_credit, (order_rows, refunds)
    # Per source: never more back than it paid.
    for payment in payments:
        back = sum(r.amount_cents for r in refunds if r.payment_id == payment.id)
        assert 0 <= back <= payment.amount_cents, (payment, refunds)
        if payment.method == "credit":  # credit's share only ever goes back to credit
            assert all(r.kind == RefundKind.CREDIT for r in refunds if r.payment_id == payment.id)
    # Money in = money out: what the order kept is what its remaining meals cost.
    assert plan.refund_cents == 0, plan
    kept = paid - to_credit - to_card
    assert kept == plan.remaining.total_pay_cents, (kept, plan.remaining)
    if not active:
        assert kept == 0
    # The card processor's ledger: each sale less its voids and returns is what the card kept.
    for payment_id, invoice in invoices.items():
        sales = [t for t in sim_txns(sim, invoice) if t["kind"] == "SALE"]
        held = sum(t["amount_cents"] - t["refunded_cents"] for t in sales if not t["voided"])
        card_back = sum(
            r.amount_cents
            for r in refunds
            if r.payment_id == payment_id and r.kind != RefundKind.CREDIT
        )
        assert held == by_payment[payment_id].amount_cents - card_back, (invoice, sales)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(start_credit=st.sampled_from([0, 250, 5000]), steps=st.lists(STEP, max_size=4))
def test_money_in_equals_money_out_per_source(
    pay_engine: Engine, live_sim: SimServer, start_credit: int, steps: list
) -> None:
    async def scenario() -> None:
        fam = family(pay_engine, 2)
        fam["reason_id"] = _reason_id(pay_engine)
        if start_credit:
            with session_scope(pay_engine) as s:
                credit.record(
                    s,
                    fam["parent_id"],
                    CreditKind.ADJUST,
                    start_credit,
                    key="prop-start",
                    reason="property test",
                )
        async with ConvergeClient(live_sim.settings, timeout=PATIENT) as gw:
            order_id = await _checkout(pay_engine, gw, live_sim, fam)
            for n, step in enumerate(steps):
                try:
                    await _step(pay_engine, gw, live_sim, fam, order_id, n, step)
                    event(f"{step[0]} to {step[2]}: done")
                except DomainError as err:
                    # refused (nothing left to cancel, past a cut-off): no money moves
                    event(f"{step[0]}: refused ({err.code})")
                _check_money(pay_engine, live_sim, fam, order_id)
        _check_money(pay_engine, live_sim, fam, order_id)

    asyncio.run(scenario())


def _reason_id(engine: Engine) -> int:
    from hotmeals.db.models import CancelReason

    with session_scope(engine) as s:
        found = s.exec(select(CancelReason).where(col(CancelReason.is_other).is_(False))).first()
        if found is None:
            found = CancelReason(code="prop", label_en="Plans changed", label_fr="Autres plans")
            s.add(found)
            s.flush()
        return int(found.id or 0)
