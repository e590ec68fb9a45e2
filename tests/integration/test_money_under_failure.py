"""Money under failure, on SQLite and PostgreSQL against the Converge simulator over
HTTP with its fault controls: a decline, error or cancel reported by a browser is only a hint
(Converge is asked before it is believed, before a new attempt for the same order opens, and
once by the reconciliation after the session's life); every hosted session or saved-card
charge has its own payment row and invoice; a duplicate sale is a row with its own void; the
order pages count only the money that pays for the order."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import timedelta

import httpx
import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals import clock
from hotmeals.api.orders_present import detail_out
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import AuditEvent, Order, OrderLine, Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import OrderStatus
from hotmeals.domain.payment_states import PaymentState, RefundState
from hotmeals.services import cards, payments
from hotmeals.services.ordering import checkout, queries, settle
from hotmeals.services.ordering.changing import change_payment, modify
from hotmeals.services.runtime import Runtime
from tests.orders_support import add, monday_in, paid_order
from tests.payments_support import CVV, EXP, VISA, SimServer, lightbox_submit, sim_txns

LATER = payments.SESSION_WINDOW + timedelta(minutes=1)


# -- helpers ----------------------------------------------------------------------------------


def pay_with_lost_answer(sim: SimServer, token: str, invoice: str) -> None:
    """The parent pays in the Lightbox; the simulator makes the sale and the answer never
    reaches the browser (fault ``lost_answer`` on the card form's post). Returns once the
    sale is in the simulator's ledger (a condition, with room for a busy machine)."""
    sim.control("fault", kind="lost_answer", scope="process")
    form = {
        "ssl_txn_auth_token": token,
        "ssl_card_number": VISA,
        "ssl_exp_date": EXP,
        "ssl_cvv2cvc2": CVV,
    }
    with pytest.raises(httpx.TimeoutException):
        httpx.post(f"{sim.url}/hosted-payments/process", data=form, timeout=httpx.Timeout(1.0))
    deadline = time.monotonic() + 60
    while not sim_txns(sim, invoice, "SALE"):
        assert time.monotonic() < deadline, "the simulator never made the sale"
        time.sleep(0.05)
    sim.control("fault", kind="none")


def net_at_converge(sim: SimServer, invoices: list[str]) -> int:
    """What the simulator kept of the sales under ``invoices``."""
    total = 0
    for t in sim.get("transactions"):
        if t["kind"] == "SALE" and t["invoice_number"] in invoices and not t["voided"]:
            total += t["amount_cents"] - t["refunded_cents"]
    return total


def invoices_of(engine: Engine, parent_id: int) -> list[str]:
    with session_scope(engine) as s:
        rows = s.exec(select(Payment).where(Payment.parent_id == parent_id)).all()
        return [p.invoice_number for p in rows if p.duplicate_of_id is None]


def rows(engine: Engine, model, **where):
    with session_scope(engine) as s:
        query = select(model)
        for name, value in where.items():
            query = query.where(getattr(model, name) == value)
        return list(s.exec(query.order_by(model.id)).all())


async def round_after_window(engine: Engine, gw, *, later: timedelta = LATER) -> None:
    """The periodic round (``jobs/payment_round.py``), run as if ``later`` had passed."""
    runtime = Runtime(engine=engine, gateway=gw)
    now = clock.now() + later
    await payments.reconcile_open_payments(runtime=replace(runtime, clock=lambda: now))
    await settle.void_orphan_payments(runtime=runtime)
    await change_payment.void_dropped_change_payments(runtime=runtime)
    await payments.void_duplicate_payments(runtime=runtime)
    await payments.reconcile_open_refunds(runtime=replace(runtime, clock=lambda: now))


class CountingGateway:
    """The client, counting the invoices it looks up (``find_by_invoice``) among ``mine``
    (the module's database holds other tests' attempts too)."""

    def __init__(self, inner: ConvergeClient, mine: list[str]) -> None:
        self.inner = inner
        self.mine = set(mine)
        self.asked: list[str] = []

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    async def find_by_invoice(self, invoice_number, **kw):
        if invoice_number in self.mine:
            self.asked.append(invoice_number)
        return await self.inner.find_by_invoice(invoice_number, **kw)


async def start(engine: Engine, gw, shop: dict, **kw) -> checkout.CheckoutStarted:
    return await checkout.start_checkout(
        parent_id=shop["parent_id"], runtime=Runtime(engine=engine, gateway=gw), **kw
    )


async def declined(engine: Engine, gw, shop: dict, payment_id: int, outcome: str, **kw):
    return await checkout.checkout_declined(
        parent_id=shop["parent_id"],
        payment_id=payment_id,
        message=kw.pop("message", outcome.upper()),
        outcome=outcome,
        runtime=Runtime(engine=engine, gateway=gw),
        **kw,
    )


# -- 1. the browser's word is not the gateway's ---------------------------------------------------


async def test_a_lost_lightbox_answer_then_onerror_places_the_order_and_never_charges_twice(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop, 0, 2)
    started = await start(pay_engine, gateway, shop)
    invoice = started.hosted.invoice_number
    pay_with_lost_answer(live_sim, started.hosted.token, invoice)
    # The page's onError sends OrderDeclined: Converge is asked, and it made the sale.
    result = await declined(pay_engine, gateway, shop, started.payment_id, "error")
    assert result.status == "placed", result
    [order] = rows(pay_engine, Order, parent_id=shop["parent_id"])
    assert order.status == OrderStatus.PLACED
    # "Pay again" finds nothing left to pay: one sale, kept by the order.
    with pytest.raises(DomainError) as err:
        await start(pay_engine, gateway, shop)
    assert err.value.code == "cart_nothing_payable"
    assert len(sim_txns(live_sim, invoice, "SALE")) == 1
    assert net_at_converge(live_sim, invoices_of(pay_engine, shop["parent_id"])) == (
        order.total_pay_cents
    )


@pytest.mark.parametrize("outcome", ["declined", "error", "cancelled"])
async def test_a_browser_failure_after_a_real_sale_is_not_believed(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict, outcome: str
) -> None:
    add(pay_engine, shop, 0, 2)
    started = await start(pay_engine, gateway, shop)
    assert lightbox_submit(live_sim, started.hosted.token)["outcome"] == "approval"
    result = await declined(pay_engine, gateway, shop, started.payment_id, outcome, lang="fr")
    assert result.status == "placed" and "Merci" in result.message
    [payment] = rows(pay_engine, Payment, order_id=started.order_id)
    assert payment.state == PaymentState.APPROVED and payment.closed_at is not None


async def test_a_decline_converge_cannot_confirm_says_so_in_both_languages(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop, 0, 2)
    started = await start(pay_engine, gateway, shop)
    live_sim.control("fault", kind="http_500", scope="xml", count=3)
    fr = await declined(pay_engine, gateway, shop, started.payment_id, "declined", lang="fr")
    assert fr.status == "declined"
    assert fr.message.startswith("Nous n'avons pas pu confirmer le paiement")
    assert "débité deux fois" in fr.message and "Rien n'a été facturé" not in fr.message
    live_sim.control("fault", kind="none")
    en = await declined(pay_engine, gateway, shop, started.payment_id, "error")
    assert en.message.startswith("We could not confirm the payment")
    assert "you have not been charged twice" in en.message
    [payment] = rows(pay_engine, Payment, order_id=started.order_id)
    # Kept as a hint: DECLINED on the browser's word, not closed.
    assert payment.state == PaymentState.DECLINED and payment.closed_at is None


async def test_a_retry_asks_converge_about_the_declined_attempt_before_opening_another(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop, 0, 2)
    first = await start(pay_engine, gateway, shop)
    # The browser says "declined" before the sale shows at Converge (or lies); then the
    # session is paid after all.
    told = await declined(pay_engine, gateway, shop, first.payment_id, "declined")
    assert told.status == "declined"
    assert lightbox_submit(live_sim, first.hosted.token)["outcome"] == "approval"
    again = await start(pay_engine, gateway, shop)
    assert again.hosted is None and again.result.status == "placed", again
    assert again.payment_id == first.payment_id  # no new attempt: the first one paid
    assert len(rows(pay_engine, Payment, order_id=first.order_id)) == 1
    assert len(sim_txns(live_sim, first.hosted.invoice_number, "SALE")) == 1


async def test_no_new_attempt_while_converge_cannot_say_whether_the_last_one_was_paid(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop, 0, 2)
    first = await start(pay_engine, gateway, shop)
    await declined(pay_engine, gateway, shop, first.payment_id, "error")
    for kind in ("http_500", "no_answer"):
        live_sim.control("fault", kind=kind, scope="xml", count=1)
        short = ConvergeClient(live_sim.settings, timeout=httpx.Timeout(2.0, connect=2.0))
        async with short as client:
            with pytest.raises(DomainError) as err:
                await start(pay_engine, client, shop)
        assert err.value.code == "payment_unavailable"
        live_sim.control("fault", kind="none")
        assert len(rows(pay_engine, Payment, order_id=first.order_id)) == 1
    second = await start(pay_engine, gateway, shop)  # Converge answers: no sale, a new one
    assert second.hosted is not None and second.payment_id != first.payment_id
    assert second.hosted.invoice_number != first.hosted.invoice_number


async def test_the_round_asks_once_about_a_browser_declined_attempt_and_voids_its_late_sale(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop, 0, 2)
    first = await start(pay_engine, gateway, shop)
    await declined(pay_engine, gateway, shop, first.payment_id, "cancelled")
    second = await start(pay_engine, gateway, shop)  # asked: no sale yet; a new attempt
    assert second.payment_id != first.payment_id
    txn = lightbox_submit(live_sim, second.hosted.token)["response"]["ssl_txn_id"]
    placed = await checkout.complete_checkout(
        parent_id=shop["parent_id"],
        payment_id=second.payment_id,
        txn_id=txn,
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert placed.status == "placed"
    # The first tab's session is paid after all, and its answer never comes back.
    lightbox_submit(live_sim, first.hosted.token)
    counting = CountingGateway(gateway, invoices_of(pay_engine, shop["parent_id"]))
    await round_after_window(pay_engine, counting)
    assert counting.asked == [first.hosted.invoice_number]
    [late] = rows(pay_engine, Payment, id=first.payment_id)
    assert late.state == PaymentState.APPROVED
    [void] = rows(pay_engine, Refund, payment_id=first.payment_id)
    assert (void.kind, void.state, void.amount_cents) == ("VOID", "SUCCEEDED", late.amount_cents)
    assert net_at_converge(live_sim, invoices_of(pay_engine, shop["parent_id"])) == (
        placed.total_pay_cents
    )
    counting.asked.clear()
    await round_after_window(pay_engine, counting)
    assert counting.asked == []  # each attempt is asked about once


async def test_a_browser_decline_with_no_sale_is_closed_by_one_round_and_never_asked_again(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop, 0, 2)
    first = await start(pay_engine, gateway, shop)
    await declined(pay_engine, gateway, shop, first.payment_id, "declined")
    counting = CountingGateway(gateway, invoices_of(pay_engine, shop["parent_id"]))
    await round_after_window(pay_engine, counting, later=timedelta(minutes=5))
    assert counting.asked == []  # its session may still be used: not yet
    await round_after_window(pay_engine, counting)
    assert counting.asked == [first.hosted.invoice_number]
    [row] = rows(pay_engine, Payment, id=first.payment_id)
    assert row.state == PaymentState.DECLINED and row.closed_at is not None
    await round_after_window(pay_engine, counting)
    assert counting.asked == [first.hosted.invoice_number]


async def test_modify_change_declined_after_a_real_sale_applies_the_change(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    order_id, _ = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": 2, "quantity": 1}]
    )
    pid = shop["parent_id"]
    with session_scope(pay_engine) as s:
        modify.add_to_my_order(
            session=s,
            parent_id=pid,
            order_id=order_id,
            child_id=shop["children"][1],
            meal_id=shop["meal_id"],
            date=monday_in(4).isoformat(),
        )
    started = await modify.modify_confirm_order(
        parent_id=pid, order_id=order_id, request_key="k1", runtime=runtime
    )
    assert started.status == "pay"
    pay_with_lost_answer(live_sim, started.hosted.token, started.hosted.invoice_number)
    result = await modify.change_payment_declined(
        parent_id=pid,
        payment_id=started.payment_id,
        message="error",
        outcome="error",
        runtime=runtime,
    )
    assert result.status == "applied", result
    assert len(rows(pay_engine, OrderLine, order_id=order_id)) == 2
    await round_after_window(pay_engine, gateway)
    assert sim_txns(live_sim, started.hosted.invoice_number, "VOID") == []  # kept: it paid


async def test_a_change_attempt_paid_after_its_decline_is_voided_before_the_next_one(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    order_id, _ = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": 2, "quantity": 1}]
    )
    pid = shop["parent_id"]
    with session_scope(pay_engine) as s:
        modify.add_to_my_order(
            session=s,
            parent_id=pid,
            order_id=order_id,
            child_id=shop["children"][1],
            meal_id=shop["meal_id"],
            date=monday_in(4).isoformat(),
        )
    first = await modify.modify_confirm_order(
        parent_id=pid, order_id=order_id, request_key="k1", runtime=runtime
    )
    told = await modify.change_payment_declined(
        parent_id=pid,
        payment_id=first.payment_id,
        message="DECLINED",
        runtime=runtime,
    )
    assert told.status == "declined"
    lightbox_submit(live_sim, first.hosted.token)  # paid after all, answer lost
    second = await modify.modify_confirm_order(
        parent_id=pid, order_id=order_id, request_key="k2", runtime=runtime
    )
    assert second.status == "pay" and second.payment_id != first.payment_id
    # Asked before the new attempt: the late sale paid for no change, so it is voided.
    [void] = rows(pay_engine, Refund, payment_id=first.payment_id)
    assert (void.kind, void.state) == ("VOID", "SUCCEEDED")
    txn = lightbox_submit(live_sim, second.hosted.token)["response"]["ssl_txn_id"]
    done = await modify.complete_change_payment(
        parent_id=pid, payment_id=second.payment_id, txn_id=txn, runtime=runtime
    )
    assert done.status == "applied"
    with session_scope(pay_engine) as s:
        shown = queries.order_detail(s, parent_id=pid, order_id=order_id)
    assert shown.total_refund_cents == 0 and shown.refunds == []
    assert [v.payment_id for v in shown.voided_attempts] == [first.payment_id]


# -- 2. one attempt, one payment row, one invoice -----------------------------------------------


async def test_a_second_checkout_opens_its_own_attempt_and_expiry_runs_on_each_ones_clock(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop, 0, 2)
    first = await start(pay_engine, gateway, shop)
    second = await start(pay_engine, gateway, shop)  # the Lightbox opened again
    assert second.order_id == first.order_id and second.payment_id != first.payment_id
    assert second.hosted.invoice_number != first.hosted.invoice_number
    with session_scope(pay_engine) as s:  # the second attempt's session is its own, later
        newer = s.get(Payment, second.payment_id)
        newer.created_at = clock.now() + timedelta(minutes=10)
        s.add(newer)
    await round_after_window(pay_engine, gateway)  # the first is over, the second is not
    states = {p.id: p.state for p in rows(pay_engine, Payment, order_id=first.order_id)}
    assert states == {first.payment_id: "EXPIRED", second.payment_id: "CREATED"}
    txn = lightbox_submit(live_sim, second.hosted.token)["response"]["ssl_txn_id"]
    placed = await checkout.complete_checkout(
        parent_id=shop["parent_id"],
        payment_id=second.payment_id,
        txn_id=txn,
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert placed.status == "placed"


async def test_a_duplicate_sale_under_one_invoice_is_a_row_with_its_own_void(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    session = await cards.start_add_card(parent_id=shop["parent_id"], runtime=runtime)
    token = lightbox_submit(live_sim, session.token)["response"]["ssl_token"]
    add(pay_engine, shop, 0, 2)
    started = await start(pay_engine, gateway, shop)
    txn = lightbox_submit(live_sim, started.hosted.token)["response"]["ssl_txn_id"]
    placed = await checkout.complete_checkout(
        parent_id=shop["parent_id"],
        payment_id=started.payment_id,
        txn_id=txn,
        runtime=runtime,
    )
    assert placed.status == "placed"
    # Converge made a second sale under the same invoice and amount.
    dup = await gateway.sale_with_token(token, started.amount_cents, started.hosted.invoice_number)
    voided = await checkout.complete_checkout(
        parent_id=shop["parent_id"],
        payment_id=started.payment_id,
        txn_id=dup.txn_id,
        runtime=runtime,
    )
    assert voided.status == "voided" and "already paid" in voided.message
    [row] = rows(pay_engine, Payment, duplicate_of_id=started.payment_id)
    assert (row.state, row.converge_txn_id, row.amount_cents) == (
        "APPROVED",
        dup.txn_id,
        started.amount_cents,
    )
    [void] = rows(pay_engine, Refund, payment_id=row.id)
    assert (void.kind, void.state) == ("VOID", "SUCCEEDED")
    assert rows(pay_engine, Refund, payment_id=started.payment_id) == []
    # Repeated: the same row, voided once.
    await checkout.complete_checkout(
        parent_id=shop["parent_id"],
        payment_id=started.payment_id,
        txn_id=dup.txn_id,
        runtime=runtime,
    )
    assert len(rows(pay_engine, Payment, duplicate_of_id=started.payment_id)) == 1
    assert len(sim_txns(live_sim, started.hosted.invoice_number, "VOID")) == 1
    with session_scope(pay_engine) as s:
        shown = queries.order_detail(s, parent_id=shop["parent_id"], order_id=placed.order_id)
        kinds = [e.kind for e in s.exec(select(AuditEvent)).all()]
    assert shown.total_refund_cents == 0 and shown.refunds == []
    assert [(v.payment_id, v.state) for v in shown.voided_attempts] == [(row.id, "SUCCEEDED")]
    assert "payment.duplicate_recorded" in kinds


async def test_two_sales_found_by_the_reconciliation_are_one_approval_and_one_voided_row(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    session = await cards.start_add_card(
        parent_id=shop["parent_id"], runtime=Runtime(engine=pay_engine, gateway=gateway)
    )
    token = lightbox_submit(live_sim, session.token)["response"]["ssl_token"]
    add(pay_engine, shop, 0, 2)
    started = await start(pay_engine, gateway, shop)
    invoice = started.hosted.invoice_number
    lightbox_submit(live_sim, started.hosted.token)  # the answer never comes back
    await gateway.sale_with_token(token, started.amount_cents, invoice)
    await round_after_window(pay_engine, gateway)
    [kept] = rows(pay_engine, Payment, id=started.payment_id)
    [dup] = rows(pay_engine, Payment, duplicate_of_id=started.payment_id)
    assert kept.state == dup.state == PaymentState.APPROVED
    assert rows(pay_engine, Order, id=started.order_id)[0].status == OrderStatus.PLACED
    [void] = rows(pay_engine, Refund, payment_id=dup.id)
    assert void.state == RefundState.SUCCEEDED
    assert net_at_converge(live_sim, [invoice]) == started.amount_cents


async def test_order_pages_count_this_orders_refunds_only(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    add(pay_engine, shop, 0, 2)
    tabs = [await start(pay_engine, gateway, shop) for _ in range(2)]
    txns = [lightbox_submit(live_sim, t.hosted.token)["response"]["ssl_txn_id"] for t in tabs]
    results = [
        await checkout.complete_checkout(
            parent_id=shop["parent_id"],
            payment_id=tab.payment_id,
            txn_id=txn,
            runtime=Runtime(engine=pay_engine, gateway=gateway),
        )
        for tab, txn in zip(tabs, txns, strict=True)
    ]
    assert [r.status for r in results] == ["placed", "voided"]
    order_id = results[0].order_id
    with session_scope(pay_engine) as s:
        shown = queries.order_detail(s, parent_id=shop["parent_id"], order_id=order_id, lang="fr")
        listed = queries.order_history(s, parent_id=shop["parent_id"], tab="future")
    assert shown.total_refund_cents == 0 and shown.refunds == []
    [extra] = detail_out(shown, "fr")["voided_attempts"]
    assert extra["payment_id"] == tabs[1].payment_id and extra["state"] == "SUCCEEDED"
    assert extra["text"].startswith("Un deuxième paiement de")
    [row] = [o for o in listed.orders if o.order_id == order_id]
    assert row.total_refund_cents == 0
