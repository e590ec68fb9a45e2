"""Money's properties against a real database and the Converge simulator over HTTP
(hypothesis: random sequences of what moves money, checked after every step). Four properties,
one section each below with its full statement:

- what the browser says and what Converge did (SQLite and PostgreSQL): after any sequence of
  checkouts, Lightbox sessions, saved-card charges, cancels, changes, faults and
  reconciliation rounds, every approved sale pays for one placed order or applied change or is
  voided / returned in full, and the simulator's net is the app's net to the cent;
- a family's money per source (SQLite and PostgreSQL): credit and card each give back no more
  than they paid, what an order kept is what its remaining meals cost, and the simulator's
  ledger matches the card side;
- refunds over any sequence of cancels, modifications and moves (PostgreSQL): never more than
  was paid, everything when everything is cancelled, the simulator's ledger to the cent;
- refunds through the payment service over any sequence of charges, refunds and settlements
  (SQLite): never more than was paid, per payment and in total.

The same rules on the pure functions: tests/unit/test_money_properties.py."""

from __future__ import annotations

import asyncio
import itertools
import os
from dataclasses import replace
from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from hotmeals import clock
from hotmeals.converge.converge import ConvergeClient
from hotmeals.converge.simulator_cards import NO_ANSWER_CENTS
from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    CreditEntry,
    Order,
    OrderChange,
    OrderLine,
    Payment,
    Portion,
    PriceTier,
    Refund,
)
from hotmeals.domain.credit import CreditKind
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import LineStatus
from hotmeals.domain.payment_states import PaymentState, RefundKind, RefundState
from hotmeals.services import away, cards, closure_apply, credit, payments
from hotmeals.services.ordering import checkout, settle
from hotmeals.services.ordering.cancelling import cancel_cart, cancel_order
from hotmeals.services.ordering.cancelling.refund_plan import refund_plan
from hotmeals.services.ordering.changing import change_payment, modify, move
from hotmeals.services.ordering.loaded_order import load_order
from hotmeals.services.payments.records import CHANGE_PAID_STATES, split_order_payments
from hotmeals.services.runtime import Runtime
from tests.factories import make_parent
from tests.integration.meals_support import choose, family
from tests.orders_support import (
    WEEKS,
    add,
    make_shop,
    monday_in,
    order_sums,
    paid_order,
    set_meal_price,
)
from tests.payments_support import (
    DECLINED_CARD,
    PATIENT,
    SHORT,
    VISA,
    VISA_2,
    SimServer,
    lightbox_submit,
    reserve_donation_payment,
    sim_txns,
)

# -- What the browser says and what Converge did: the app's money ends where Converge says ---------
#
# Property: over random sequences of checkouts, Lightbox sessions paid, paid with
# the answer lost (the browser then reports an error), paid with no report at all, declined
# cards, browser declines and cancels of sessions that may still be paid later, retries (a new
# checkout of the same cart), checkouts with a saved card (approved, declined, the answer lost,
# a 500, two taps at once, a tap again right after a lost answer), order cancels, modifications
# and meal moves (costing more, less or the same; a difference paid through the Lightbox or a
# saved card with the same outcomes), repeats of a modify or a move with its key, a 500 on the
# next Converge call, and reconciliation rounds, once the rounds have run after every session's
# life:
#
# - every approved sale at Converge is a payment row that pays for one placed order or an
#   applied change, or is voided / returned in full with its own refund rows;
# - the simulator's net equals the app's net for the parent, to the cent;
# - no payment is refunded beyond what it paid;
# - nothing is left CREATED, UNKNOWN, PENDING, and every failed attempt is closed;
# - and on the way: two saved-card taps at once, or a tap again after a lost answer, make one
#   sale at most;
# - with family credit given along the way (spent first by every checkout and by an
#   increase it covers, cancels refunded to the card or to credit): the card's ledgers above
#   count only the card, and the balance equals its rows, is never below zero, and is what was
#   given plus every refund to credit less what credit paid.

LATER = payments.SESSION_WINDOW + timedelta(minutes=1)
PAYING = ("pay", "pay_lost", "pay_silent", "browser_fail", "card_declined")
# How a difference or a cart is paid: a Lightbox session (paid later by a PAYING step), or a
# saved card whose charge is approved, declined, made with its answer lost, or answered 500.
PAY_WITH = ("lightbox", "approved", "declined", "lost", "http_500")
CARD_OUTCOMES = ("approved", "declined", "lost", "http_500", "double", "lost_retry")
PRICES = (None, 450, 700)  # today's price of the meal (made at 550): unchanged, lower, higher
# A cancel's refund to the family's standing choice (the card), the card, or credit;
# family credit given (an operator's adjustment), which every later checkout spends first.
REFUND_TO = (None, "card", "credit")
CREDIT_GIVEN = (300, 900, 2_000, 20_000)

pick = st.integers(min_value=0, max_value=7)
browser_operations = st.lists(
    st.one_of(
        st.tuples(st.just("checkout"), pick),
        st.tuples(st.just("pay"), pick),
        st.tuples(st.just("pay_lost"), pick),
        st.tuples(st.just("pay_silent"), pick),
        st.tuples(st.just("browser_fail"), pick, st.sampled_from(["declined", "cancelled"])),
        st.tuples(st.just("card_declined"), pick),
        st.tuples(st.just("card"), pick, st.sampled_from(CARD_OUTCOMES)),
        st.tuples(st.just("cancel"), pick, st.sampled_from(REFUND_TO)),
        st.tuples(st.just("credit"), pick),
        st.tuples(st.just("modify"), pick, st.sampled_from(PAY_WITH)),
        st.tuples(st.just("move"), pick, st.sampled_from(PRICES), st.sampled_from(PAY_WITH)),
        st.tuples(st.just("repeat"), pick),
        st.tuples(st.just("fault"), pick),
        st.tuples(st.just("round"), pick),
    ),
    min_size=3,
    max_size=10,
)


async def _round(engine: Engine, gw: ConvergeClient, *, later: timedelta = LATER) -> None:
    """``jobs.payment_round.reconcile_round``, as if every session's life were over."""
    runtime = Runtime(engine=engine, gateway=gw)
    now = clock.now() + later
    await payments.reconcile_open_payments(runtime=replace(runtime, clock=lambda: now))
    await settle.void_orphan_payments(runtime=runtime)
    await change_payment.void_dropped_change_payments(runtime=runtime)
    await payments.void_duplicate_payments(runtime=runtime)
    await payments.reconcile_open_refunds(runtime=replace(runtime, clock=lambda: now))
    await payments.resend_failed_refunds(runtime=runtime.at(now))


class FaultyCharge:
    """The Converge client whose next saved-card sale meets the simulator's fault ``kind``
    (``lost_answer``: the sale is made and its answer never comes back, so a client that
    waits a short time gives up; ``http_500``: nothing is made). Every other call is the
    client's own."""

    def __init__(self, inner: ConvergeClient, impatient: ConvergeClient, sim, kind: str) -> None:
        self.inner, self.impatient, self.sim, self.kind = inner, impatient, sim, kind

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    async def sale_with_token(self, *args, **kwargs):
        self.sim.control("fault", kind=self.kind, scope="xml")
        try:
            client = self.impatient if self.kind == "lost_answer" else self.inner
            return await client.sale_with_token(*args, **kwargs)
        finally:
            self.sim.control("fault", kind="none")


def _placed_orders(engine: Engine, parent_id: int) -> list[int]:
    with session_scope(engine) as s:
        return list(
            s.exec(
                select(Order.id)
                .where(Order.parent_id == parent_id, Order.status.in_(settle.PLACED_STATUSES))
                .order_by(Order.id)
            ).all()
        )


def _placed_lines(engine: Engine, parent_id: int) -> list[tuple[int, date]]:
    with session_scope(engine) as s:
        return [
            (line_id, day)
            for line_id, day in s.exec(
                select(OrderLine.id, OrderLine.meal_date)
                .join(Order, Order.id == OrderLine.order_id)
                .where(Order.parent_id == parent_id, Order.status.in_(settle.PLACED_STATUSES))
                .order_by(OrderLine.id)
            ).all()
        ]


async def _saved_card(engine: Engine, gw, sim: SimServer, shop: dict, *, declined: bool) -> int:
    """A card the parent saved through the add-card Lightbox (once each). The declined one
    has expired at Converge since (its token updated to a past expiry): every sale with it is
    declined."""
    runtime = Runtime(engine=engine, gateway=gw)
    cards_of = shop.setdefault("cards", {})
    if declined not in cards_of:
        pid = shop["parent_id"]
        started = await cards.start_add_card(parent_id=pid, runtime=runtime)
        number = VISA_2 if declined else VISA
        token = lightbox_submit(sim, started.token, number=number)["response"]["ssl_token"]
        card = await cards.save_card(parent_id=pid, token=token, runtime=runtime)
        if declined and not getattr(await gw.update_token(token, exp_date="0120"), "ok", False):
            raise DomainError("payment_unavailable")  # a 500 (a "fault" step): not this time
        cards_of[declined] = card.id
    return cards_of[declined]


async def _paying(engine: Engine, gw, sim: SimServer, shop: dict, how: str, impatient) -> tuple:
    """(card id, gateway) for paying ``how`` (see PAY_WITH)."""
    if how == "lightbox":
        return None, gw
    card = await _saved_card(engine, gw, sim, shop, declined=how == "declined")
    if how in ("lost", "http_500"):
        kind = "lost_answer" if how == "lost" else "http_500"
        return card, FaultyCharge(gw, impatient, sim, kind)
    return card, gw


async def run_browser_scenario(ops: list[tuple], engine: Engine, sim: SimServer) -> None:
    sim.control("fault", kind="none")  # the fixtures last across examples: no fault left over
    shop = make_shop(engine)  # a new parent (and menu) per example
    pid = shop["parent_id"]
    sessions: list[dict] = []  # Lightbox sessions a tab still holds: kind, payment id, token
    calls: list[tuple] = []  # modify and move calls made with a key, to be repeated
    async with (
        ConvergeClient(sim.settings, timeout=PATIENT) as gw,
        ConvergeClient(sim.settings, timeout=SHORT) as impatient,
    ):
        for step, op in enumerate(ops):
            try:
                await _browser_step(engine, gw, impatient, sim, shop, sessions, calls, step, op)
            except DomainError:
                pass  # a refusal (nothing payable, a change in progress, ...) changes nothing
        sessions.clear()  # every session's life ends
        sim.control("fault", kind="none")  # and Converge answers again
        await _round(engine, gw)
        await _round(engine, gw, later=LATER + timedelta(hours=1))
        check_browser_scenario(engine, sim, pid)


async def _browser_step(
    engine, gw, impatient, sim, shop: dict, sessions: list[dict], calls: list, step: int, op
) -> None:
    kind, n = op[0], op[1]
    pid = shop["parent_id"]
    if kind == "checkout" or (kind in PAYING and not sessions):
        await _browser_checkout(engine, gw, shop, n, sessions)
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
    elif kind == "card":
        await _card_checkout(engine, gw, impatient, sim, shop, n, op[2])
    elif kind == "modify":
        placed = _placed_orders(engine, pid)
        if not placed:
            return
        order_id = placed[n % len(placed)]
        with session_scope(engine) as s:
            modify.add_to_my_order(
                session=s,
                parent_id=pid,
                order_id=order_id,
                child_id=shop["children"][n % 2],
                meal_id=shop["meal_id"],
                date=monday_in(2 + n % 3).isoformat(),
            )
        card, pay_gw = await _paying(engine, gw, sim, shop, op[2], impatient)
        call = (
            modify.modify_confirm_order,
            {"parent_id": pid, "order_id": order_id, "request_key": f"m{step}", "card_id": card},
        )
        calls.append(call)
        await _change(engine, pay_gw, sessions, call)
    elif kind == "move":
        lines = _placed_lines(engine, pid)
        if not lines:
            return
        line_id, day = lines[n % len(lines)]
        targets = [monday_in(w) for w in WEEKS[:4] if monday_in(w) != day]
        if op[2] is not None:
            set_meal_price(engine, shop, op[2])
        card, pay_gw = await _paying(engine, gw, sim, shop, op[3], impatient)
        call = (
            move.modify_meal,
            {
                "parent_id": pid,
                "order_line_id": line_id,
                "new_date": targets[n % len(targets)].isoformat(),
                "request_key": f"v{step}",
                "card_id": card,
            },
        )
        calls.append(call)
        await _change(engine, pay_gw, sessions, call)
    elif kind == "repeat":  # a retry of an earlier confirm with its key (a lost answer)
        if calls:
            await _change(engine, gw, sessions, calls[n % len(calls)])
    elif kind == "fault":  # the next call to Converge (whatever it is) answers 500
        sim.control("fault", kind="http_500", scope=("xml", "token")[n % 2])
    elif kind == "cancel":
        placed = _placed_orders(engine, pid)
        if placed:
            await cancel_order.cancel_order(
                parent_id=pid,
                order_id=placed[n % len(placed)],
                reason_id=shop["reason_id"],
                request_key=f"c{step}",
                refund_to=op[2],
                runtime=Runtime(engine=engine, gateway=gw),
            )
    elif kind == "credit":
        with session_scope(engine) as s:
            credit.record(
                s,
                pid,
                CreditKind.ADJUST,
                CREDIT_GIVEN[n % len(CREDIT_GIVEN)],
                key=f"g{step}",
                reason="given",
            )
    elif kind == "round":
        sessions.clear()  # time passes: every session's life is over
        await _round(engine, gw)


async def _change(engine: Engine, gw, sessions: list[dict], call: tuple) -> None:
    """A modify or a move confirmed; a difference to pay in the Lightbox opens a session."""
    fn, kwargs = call
    result = await fn(runtime=Runtime(engine=engine, gateway=gw), **kwargs)
    if result.hosted is not None and all(t["id"] != result.payment_id for t in sessions):
        sessions.append({"kind": "change", "id": result.payment_id, "token": result.hosted.token})


def _add_to_cart(engine: Engine, shop: dict, n: int) -> None:
    try:
        add(engine, shop, n % 2, 2 + n % 3)
    except DomainError:
        pass  # already in the cart: check out what is there


async def _browser_checkout(engine: Engine, gw, shop: dict, n: int, sessions: list[dict]) -> None:
    """A tab checks the cart out (a meal is added first when there is room)."""
    _add_to_cart(engine, shop, n)
    started = await checkout.start_checkout(
        parent_id=shop["parent_id"], runtime=Runtime(engine=engine, gateway=gw)
    )
    if started.hosted is not None:
        sessions.append({"kind": "order", "id": started.payment_id, "token": started.hosted.token})


def _sales(engine: Engine, sim: SimServer, parent_id: int) -> set[str]:
    """The simulator's sales under the parent's invoices."""
    with session_scope(engine) as s:
        invoices = set(s.exec(select(Payment.invoice_number).where(Payment.parent_id == parent_id)))
    return {
        t["txn_id"]
        for t in sim.get("transactions")
        if t["kind"] == "SALE" and t["invoice_number"] in invoices
    }


async def _card_checkout(engine: Engine, gw, impatient, sim, shop: dict, n: int, how: str) -> None:
    """The cart paid with a saved card. ``double``: two taps (or tabs) at once;
    ``lost_retry``: the answer is lost, and the parent taps again at once. Either way the
    card is charged once at most."""
    _add_to_cart(engine, shop, n)
    kind = {"double": "approved", "lost_retry": "lost"}.get(how, how)
    card, pay_gw = await _paying(engine, gw, sim, shop, kind, impatient)
    before = _sales(engine, sim, shop["parent_id"])

    def tap(client):
        return checkout.start_checkout(
            parent_id=shop["parent_id"],
            card_id=card,
            runtime=Runtime(engine=engine, gateway=client),
        )

    taps = [[tap(pay_gw), tap(pay_gw)]] if how == "double" else [[tap(pay_gw)]]
    if how == "lost_retry":
        taps.append([tap(gw)])
    for together in taps:
        for outcome in await asyncio.gather(*together, return_exceptions=True):
            if isinstance(outcome, BaseException) and not isinstance(outcome, DomainError):
                raise outcome
    if how in ("double", "lost_retry"):
        made = _sales(engine, sim, shop["parent_id"]) - before
        assert len(made) <= 1, (how, made)


async def _approve(engine: Engine, gw, pid: int, tab: dict, txn: str) -> None:
    runtime = Runtime(engine=engine, gateway=gw)
    if tab["kind"] == "order":
        await checkout.complete_checkout(
            parent_id=pid, payment_id=tab["id"], txn_id=txn, runtime=runtime
        )
    else:
        await modify.complete_change_payment(
            parent_id=pid, payment_id=tab["id"], txn_id=txn, runtime=runtime
        )


async def _report(engine: Engine, gw, pid: int, tab: dict, outcome: str) -> None:
    runtime = Runtime(engine=engine, gateway=gw)
    if tab["kind"] == "order":
        await checkout.checkout_declined(
            parent_id=pid,
            payment_id=tab["id"],
            message=outcome.upper(),
            outcome=outcome,
            runtime=runtime,
        )
    else:
        await modify.change_payment_declined(
            parent_id=pid,
            payment_id=tab["id"],
            message=outcome.upper(),
            outcome=outcome,
            runtime=runtime,
        )


def check_browser_scenario(engine: Engine, sim: SimServer, pid: int) -> None:
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
    by_card = {p.id: 0 for p in mine}  # what the card processor gave back
    for r in refunds:
        if r.state == RefundState.SUCCEEDED:
            back[r.payment_id] += r.amount_cents
            by_card[r.payment_id] += 0 if r.kind == RefundKind.CREDIT else r.amount_cents
    for p in mine:
        assert back[p.id] <= (p.amount_cents if p.state == PaymentState.APPROVED else 0), p
        if p.state == PaymentState.APPROVED and p.id not in kept:
            assert back[p.id] == p.amount_cents, (p, back[p.id])
    # The card's ledgers agree to the cent (family credit never reaches the processor).
    cards_paid = [p for p in mine if p.state == PaymentState.APPROVED and p.method == "card"]
    app_net = sum(p.amount_cents - by_card[p.id] for p in cards_paid)
    sim_net = sum(0 if t["voided"] else t["amount_cents"] - t["refunded_cents"] for t in sales)
    assert sim_net == app_net, (sim_net, app_net)
    assert all(by_id[p].state == PaymentState.APPROVED for p in kept)
    # Family credit: the balance is its rows, never below zero, and equals what was
    # given, plus every refund made to credit, less what credit paid.
    credited = sum(r.amount_cents for r in refunds if r.state == "SUCCEEDED" and r.kind == "CREDIT")
    spent = sum(p.amount_cents for p in mine if p.method == "credit")
    assert all(p.converge_txn_id is None for p in mine if p.method == "credit")
    assert all(p.state == PaymentState.APPROVED for p in mine if p.method == "credit")
    with session_scope(engine) as s:
        have = credit.balance(s, pid)
        moves = credit.history(s, pid, limit=10_000)
    given = sum(m.amount_cents for m in moves if m.kind == CreditKind.ADJUST)
    assert have == sum(m.amount_cents for m in moves) >= 0, moves
    assert have == given + credited - spent, (have, given, credited, spent)


@pytest.mark.timeout(900)
def test_money_ends_where_converge_says_whatever_the_browser_says(
    pay_engine: Engine, live_sim: SimServer
) -> None:
    live_sim.control("config", decline_by_cents="0")

    # Fewer examples on PostgreSQL (each step is slower there); the same rules.
    @settings(
        max_examples=15 if pay_engine.dialect.name == "sqlite" else 8,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(ops=browser_operations)
    # Always run: an order paid by credit alone, one paid partly by credit, an
    # increase credit covers, cancels to credit and to the card.
    @example(
        ops=[
            ("credit", 3),
            ("checkout", 0),
            ("credit", 0),
            ("checkout", 1),
            ("pay", 0),
            ("credit", 2),
            ("modify", 1, "lightbox"),
            ("cancel", 0, "credit"),
            ("cancel", 1, None),
        ]
    )
    def each(ops: list[tuple]) -> None:
        asyncio.run(run_browser_scenario(ops, pay_engine, live_sim))

    each()


# -- A family's money per source: money in equals money out, credit and card -----------------------
#
# The property test of a family's money, on SQLite and PostgreSQL against the Converge simulator:
# random sequences of what moves a family's money - a checkout paid with credit first and the card
# for the rest, a meal cancelled (refund to the card or to credit), the whole order cancelled, an
# order modified (a meal out, another in) or a meal moved to another day at today's price (the
# catalogue price changes between steps: a cheaper day refunds, a dearer one is paid with credit
# first, then the card), the school day closed (refund to the card, to credit, or a make-up meal)
# and a child marked away - and after each step, to the cent:
#
# - the family's credit balance is the sum of its ledger rows and never below zero, and each
#   order's credit rows are exactly its credit payment (spent) and its refunds to credit (given);
# - per source, money in = money out: no source gives back more than it paid; what the order kept
#   (paid minus refunded) is what its remaining meals cost on its stored terms, and a fully
#   cancelled order kept nothing; nothing more is owed (a new refund plan finds 0);
# - the simulator's ledger (what the card processor holds) matches the card side: for each card
#   payment, the sale less its voids and returns equals what the database says the card paid less
#   what went back to the card.
#
# Each example is a new family and a real checkout, so the examples are few (PROPERTY_EXAMPLES,
# 12 by default) and derandomized: the same sequences on every run, shrunk when one fails.

EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "12"))
DESTINATIONS = st.sampled_from(["card", "credit"])
SOURCES_STEP = st.one_of(
    st.tuples(st.just("cancel_meal"), st.integers(0, 3), DESTINATIONS),
    st.tuples(st.just("cancel_order"), st.just(0), DESTINATIONS),
    st.tuples(st.just("close"), st.just(0), st.sampled_from(["card", "credit", "makeup"])),
    st.tuples(st.just("away"), st.integers(0, 1), DESTINATIONS),
    st.tuples(st.just("move"), st.integers(0, 3), DESTINATIONS),
    st.tuples(st.just("modify"), st.integers(0, 3), DESTINATIONS),
    st.tuples(st.just("reprice"), st.sampled_from([-150, 200]), st.just("catalogue")),
)


async def _sources_checkout(engine: Engine, gw: ConvergeClient, sim: SimServer, fam: dict) -> int:
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


async def _sources_step(
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
@given(start_credit=st.sampled_from([0, 250, 5000]), steps=st.lists(SOURCES_STEP, max_size=4))
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
            order_id = await _sources_checkout(pay_engine, gw, live_sim, fam)
            for n, step in enumerate(steps):
                try:
                    await _sources_step(pay_engine, gw, live_sim, fam, order_id, n, step)
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


# -- Refunds over any sequence of cancels, modifications and moves add up to what was paid ---------
#
# The refund arithmetic over random sequences (hypothesis) on PostgreSQL against
# the simulator: a paid order of 1-3 lines (quantities, an add-on, a note), then partial
# cancels through the cancel cart, cancels of one meal, modify-order decreases
# (DeleteFromModifyOrder + ModifyConfirmOrder) and moves of a meal to another Monday (ModifyMeal),
# in any order, then cancel-the-rest. After every step the total refunded never exceeds what was
# paid; cancelling everything refunds everything; and the simulator's ledger (each sale's voided
# or refunded amount) matches the order's succeeded refunds to the cent.

_keys = itertools.count()

LINE = st.tuples(
    st.integers(0, 1),  # child
    st.integers(0, 2),  # week index
    st.integers(1, 3),  # quantity
    st.booleans(),  # add-on
    st.booleans(),  # special note
)
CANCELS_STEP = st.tuples(
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


async def _cancels_step(engine, gateway, shop, order_id, step) -> None:

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
# sums do not depend on the database. SQLite runs the other refund property (the section
# below); both backends run the example tests of cancels, meal changes and moves
# (test_cancellations.py, test_order_changes.py).
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
    steps=st.lists(CANCELS_STEP, max_size=4),
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
                await _cancels_step(pay_engine, gateway, shop, order_id, step)
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


# -- Refunds through the payment service never exceed what was paid --------------------------------
#
# Property: over any sequence of charges, refunds and batch settlements, what was refunded
# never exceeds what was paid (per payment and in total), the service refuses exactly the
# refunds that would, and the database's sums agree with what Converge (the simulator) did.

# Not the simulator's "never answers" amount: that one is about time-outs (and a 5 s wait for
# its 4017), not about sums - it made this test fail with UNKNOWN whatever the machine's speed.
charge_op = st.tuples(
    st.just("charge"),
    st.integers(min_value=100, max_value=5000).filter(lambda cents: cents != NO_ANSWER_CENTS),
)
refund_op = st.tuples(
    st.just("refund"),
    st.integers(min_value=0, max_value=10),  # which payment (modulo how many there are)
    st.integers(min_value=1, max_value=6000),
)
settle_op = st.tuples(st.just("settle"))
refund_operations = st.lists(
    st.one_of(charge_op, refund_op, refund_op, settle_op), min_size=1, max_size=10
)


async def run_refund_scenario(ops: list[tuple], engine: Engine, sim: SimServer) -> None:
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
            check_refunds(engine, sim, paid, model)


def check_refunds(engine: Engine, sim: SimServer, paid: list, model: dict[int, int]) -> None:
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
# contended). PostgreSQL runs the other refund property (the section above), and both
# backends run the example tests of these sums (test_refunds.py: partial refunds sum
# to the total and not a cent more, concurrent refunds never exceed the payment).
@pytest.mark.parametrize("pay_engine", ["sqlite"], indirect=True)
@pytest.mark.timeout(600)
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=refund_operations)
def test_refunds_never_exceed_payments(
    ops: list[tuple], pay_engine: Engine, live_sim: SimServer
) -> None:
    asyncio.run(run_refund_scenario(ops, pay_engine, live_sim))
