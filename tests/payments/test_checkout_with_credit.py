"""Family credit spent at checkout on SQLite and PostgreSQL against the simulator:
credit is used first; covering everything, the order is placed at once with no card and no
call to the card processor; covering part, the card pays the rest and the credit is spent only
when that approval places the order (a decline, or credit spent meanwhile by another tab,
spends nothing and never takes the balance below zero). A cancel gives credit's share back to
credit first, then the card's, never more than each paid."""

# ruff: noqa: F811 - pytest fixtures are imported from the support modules

from __future__ import annotations

import asyncio
import multiprocessing
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import col, select

from hotmeals.api.cart_present import order_summary_out
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import CartLine, CreditEntry, Order, Payment
from hotmeals.domain.credit import CreditKind
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.jobs import payment_round
from hotmeals.services import credit, receipts
from hotmeals.services.ordering import checkout, confirmation, pricing, queries, settle
from hotmeals.services.ordering.cancelling import cancel_order
from hotmeals.services.ordering.changing import modify
from hotmeals.services.ordering.changing.change_result import change_message
from hotmeals.services.ordering.mails import cancel_notice, refund_notice
from hotmeals.services.payments.credit_pay import CARD_PAY, FAMILY_CREDIT, CreditLine
from hotmeals.services.payments.records import order_paid_cents, order_refunded_cents
from hotmeals.services.runtime import Runtime
from tests.payments.orders_after_support import (  # noqa: F401 - fixtures
    add,
    monday_in,
    shop,
)
from tests.payments.service_support import (  # noqa: F401 - fixtures
    gateway,
    lightbox_submit,
    live_sim,
    pay_engine,
    sim_txns,
)
from tests.payments.support import VISA, SimServer


def _give(engine: Engine, parent_id: int, cents: int, key: str = "gift") -> None:
    with session_scope(engine) as s:
        credit.record(s, parent_id, CreditKind.ADJUST, cents, key=key, reason="test credit")


def _balance(engine: Engine, parent_id: int) -> int:
    with session_scope(engine) as s:
        return credit.balance(s, parent_id)


def _sums(engine: Engine, order_id: int) -> tuple[int, int]:
    with session_scope(engine) as s:
        return order_paid_cents(s, order_id), order_refunded_cents(s, order_id)


def _invoices(engine: Engine, order_id: int) -> dict[str, str]:
    """The order's payments: invoice -> method."""
    with session_scope(engine) as s:
        rows = s.exec(select(Payment).where(col(Payment.order_id) == order_id)).all()
        return {p.invoice_number: p.method for p in rows}


def _card_txns(sim: SimServer, engine: Engine, order_id: int, kind: str) -> list[int]:
    invoices = _invoices(engine, order_id)
    return sorted(t["amount_cents"] for inv in invoices for t in sim_txns(sim, inv, kind))


def _line_ids(engine: Engine, order_id: int) -> list[int]:
    from hotmeals.db.models import OrderLine

    with session_scope(engine) as s:
        rows = s.exec(
            select(OrderLine.id)
            .where(OrderLine.order_id == order_id)
            .order_by(col(OrderLine.meal_date), col(OrderLine.id))
        ).all()
        return [x for x in rows if x is not None]


async def _add_order(
    engine: Engine, gateway: ConvergeClient, parent_id: int, payment_id: int, answer: dict
) -> settle.CheckoutResult:
    """AddOrder after the stand-in Lightbox's ``answer``."""
    return await checkout.complete_checkout(
        parent_id=parent_id,
        payment_id=payment_id,
        txn_id=answer["response"]["ssl_txn_id"],
        runtime=Runtime(engine=engine, gateway=gateway),
    )


async def _cancel(
    engine: Engine, gateway: ConvergeClient, shop: dict, key: str, *, order_id=0, line_id=0
) -> cancel_order.CancelResult:
    """Cancel one meal (``line_id``) or every meal left of ``order_id``."""
    common = {
        "parent_id": shop["parent_id"],
        "reason_id": shop["reason_id"],
        "request_key": key,
        "runtime": Runtime(engine=engine, gateway=gateway),
    }
    if line_id:
        return await cancel_order.cancel_meal(order_line_id=line_id, **common)
    return await cancel_order.cancel_order(order_id=order_id, **common)


def _two_meals(engine: Engine, shop: dict) -> None:
    add(engine, shop, 0, 2, quantity=1)
    add(engine, shop, 1, 3, quantity=1)


async def test_credit_covering_everything_places_the_order_at_once_with_no_card(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    pid = shop["parent_id"]
    _two_meals(pay_engine, shop)
    _give(pay_engine, pid, 100_000)
    before = len(sim_txns(live_sim))
    started = await checkout.start_checkout(
        parent_id=pid, runtime=Runtime(engine=pay_engine, gateway=gateway)
    )
    assert started.hosted is None and started.amount_cents == 0
    assert started.result is not None and started.result.status == settle.PLACED
    assert "family credit" in started.result.message
    total = started.result.total_pay_cents
    assert started.credit_cents == total > 0
    assert len(sim_txns(live_sim)) == before  # the card processor was never called
    order_id = started.order_id
    assert _balance(pay_engine, pid) == 100_000 - total
    assert _sums(pay_engine, order_id) == (total, 0)
    assert set(_invoices(pay_engine, order_id).values()) == {"credit"}
    with session_scope(pay_engine) as s:
        assert s.get(Order, order_id).status == "placed"
        assert s.exec(select(CartLine).where(CartLine.parent_id == pid)).all() == []
        spends = s.exec(
            select(CreditEntry).where(CreditEntry.parent_id == pid, CreditEntry.kind == "spend")
        ).all()
    assert [(e.amount_cents, e.order_id) for e in spends] == [(-total, order_id)]

    # Cancelled (refund to the card by default): what credit paid goes back to credit.
    result = await _cancel(pay_engine, gateway, shop, "all-credit", order_id=order_id)
    assert result.refund_cents == total == result.credit_cents == result.refunded_cents
    assert _balance(pay_engine, pid) == 100_000
    assert _sums(pay_engine, order_id) == (total, total)
    assert len(sim_txns(live_sim)) == before
    with session_scope(pay_engine) as s:
        kinds = [e.kind for e in credit.history(s, pid)]
    assert kinds.count("restore") == 1


async def test_credit_covering_part_the_card_pays_the_rest_and_refunds_go_credit_first(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    pid = shop["parent_id"]
    _two_meals(pay_engine, shop)
    _give(pay_engine, pid, 300)
    with session_scope(pay_engine) as s:  # the summary says what each source would pay
        summary = pricing.priced_summary(session=s, parent_id=pid, lang="fr")
    assert summary.credit_cents == 300
    assert summary.card_cents == summary.summary.charges.total_pay_cents - 300
    assert summary.credit_lines == (
        CreditLine(FAMILY_CREDIT, -300, done=False),
        CreditLine(CARD_PAY, summary.card_cents, done=False),
    )
    assert [
        (x["label"], x["amount"]) for x in order_summary_out(summary, "fr")["credit_lines"]
    ] == [
        ("Crédit familial", "−3,00\u00a0$"),
        ("À payer par carte", format_money(summary.card_cents, "fr")),
    ]
    started = await checkout.start_checkout(
        parent_id=pid, runtime=Runtime(engine=pay_engine, gateway=gateway)
    )
    assert started.hosted is not None and started.credit_cents == 300
    card = started.amount_cents
    assert started.hosted.amount_cents == card
    assert _balance(pay_engine, pid) == 300  # nothing spent before the order is placed
    answer = lightbox_submit(live_sim, started.hosted.token, number=VISA)
    result = await _add_order(pay_engine, gateway, pid, started.payment_id, answer)
    assert result.status == settle.PLACED, result
    total = result.total_pay_cents
    assert total == card + 300
    order_id = result.order_id
    assert _balance(pay_engine, pid) == 0
    assert _sums(pay_engine, order_id) == (total, 0)
    assert sorted(_invoices(pay_engine, order_id).values()) == ["card", "credit"]
    with session_scope(pay_engine) as s:  # the movement names the order it paid
        spent = credit.family_credit(session=s, parent_id=pid).history[0]
    assert (spent.kind.value, credit.about_text(spent, "fr")) == (
        "spend",
        f"Commande {result.order_number}",
    )
    assert _card_txns(live_sim, pay_engine, order_id, "SALE") == [card]
    with session_scope(pay_engine) as s:
        shown = confirmation.order_confirmation(s, parent_id=pid, order_id=order_id)
    assert shown.credit_cents == 300
    assert [x.name for x in shown.charge_lines][-2:] == ["family_credit", "card_pay"]
    assert shown.charge_lines[-1].cents == card
    # AddOrder repeated: nothing more spent
    again = await _add_order(pay_engine, gateway, pid, started.payment_id, answer)
    assert again.status == settle.PLACED and _balance(pay_engine, pid) == 0

    first, _second = _line_ids(pay_engine, order_id)
    with session_scope(pay_engine) as s:  # what "Are you sure?" says, for either choice
        ahead = cancel_order.refund_preview(
            s, parent_id=pid, order_id=order_id, order_line_id=first
        )
        to_credit = cancel_order.refund_preview(
            s, parent_id=pid, order_id=order_id, order_line_id=first, refund_to="credit"
        )
    meal = await _cancel(pay_engine, gateway, shop, "part-1", line_id=first)
    back = meal.refund_cents
    assert back > 300  # more than credit paid: credit first (300), the card the rest
    assert meal.credit_cents == 300 and _balance(pay_engine, pid) == 300
    # The preview was the cancel's own split, and both say it by the same rule.
    assert (ahead.credit_cents, ahead.card_refund_cents) == (300, back - 300)
    assert (to_credit.credit_cents, to_credit.card_refund_cents) == (back, 0)
    assert (
        cancel_notice(back, "en", credit_cents=meal.credit_cents, failed_cents=meal.failed_cents)
        == refund_notice(back, "en", credit_cents=300)
        == (
            f"$3.00 goes back to your family credit at once and {format_money(back - 300, 'en')} "
            "to your card. Card refunds may take a few business days to appear."
        )
    )
    # The receipt and the order's details name each source: credit's share, its way back.
    with session_scope(pay_engine) as s:
        paper = receipts.order_receipt(s, parent_id=pid, order=result.order_number, lang="fr")
        details = queries.order_detail(s, parent_id=pid, order_id=order_id, lang="en")
    assert sorted(p.card for p in paper.payments)[0] == "Crédit familial"
    # Credit has no approval code: its line names it alone, the card's line gives its code.
    by_card = {p.card: p.paid_by for p in paper.payments}
    assert by_card.pop("Crédit familial") == "Crédit familial"
    [(card, card_line)] = by_card.items()
    assert card_line.startswith(f"{card} · autorisation ") and not card_line.endswith("—")
    assert {r.state_label for r in paper.refunds} == {
        "ajouté à votre crédit familial",
        "remboursé",
    }
    assert {r.state_label for r in details.refunds} == {"To family credit", "Refunded"}
    # The order's details split the total paid as the confirmation and the receipt do.
    split = [(c.label, c.cents) for c in details.charges][-4:]
    assert split == [
        ("Total paid", total),
        ("Family credit", -300),
        ("Paid by card", total - 300),
        ("Total refund", back),
    ]
    assert _card_txns(live_sim, pay_engine, order_id, "RETURN") == [back - 300]
    with session_scope(pay_engine) as s:  # credit's share is back: the rest is the card's
        rest_ahead = cancel_order.refund_preview(s, parent_id=pid, order_id=order_id)
    rest = await _cancel(pay_engine, gateway, shop, "part-2", order_id=order_id)
    assert (rest_ahead.credit_cents, rest_ahead.card_refund_cents) == (0, rest.refund_cents)
    assert rest.credit_cents == 0 and back + rest.refund_cents == total
    assert _sums(pay_engine, order_id) == (total, total)
    assert _balance(pay_engine, pid) == 300
    assert _card_txns(live_sim, pay_engine, order_id, "RETURN") == sorted(
        [back - 300, rest.refund_cents]
    )


async def test_a_declined_card_spends_no_credit(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    pid = shop["parent_id"]
    _two_meals(pay_engine, shop)
    _give(pay_engine, pid, 250)
    started = await checkout.start_checkout(parent_id=pid, runtime=runtime)
    assert started.hosted is not None and started.credit_cents == 250
    declined = await checkout.checkout_declined(
        parent_id=pid,
        payment_id=started.payment_id,
        message="CANCELLED",
        outcome="cancelled",
        runtime=runtime,
    )
    assert declined.status == settle.DECLINED
    assert _balance(pay_engine, pid) == 250
    with session_scope(pay_engine) as s:
        spends = s.exec(
            select(CreditEntry).where(CreditEntry.parent_id == pid, CreditEntry.kind == "spend")
        ).all()
    assert spends == []
    # Credit grew meanwhile and now covers everything: placed by credit alone, no card.
    _give(pay_engine, pid, 100_000, key="more")
    again = await checkout.start_checkout(parent_id=pid, runtime=runtime)
    assert again.result is not None and again.result.status == settle.PLACED
    assert again.order_id == started.order_id and again.hosted is None
    assert _balance(pay_engine, pid) == 100_250 - again.result.total_pay_cents


async def test_credit_spent_by_another_tab_meanwhile_places_nothing_and_voids_the_card(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    pid = shop["parent_id"]
    _two_meals(pay_engine, shop)
    _give(pay_engine, pid, 400)
    started = await checkout.start_checkout(
        parent_id=pid, runtime=Runtime(engine=pay_engine, gateway=gateway)
    )
    assert started.hosted is not None and started.credit_cents == 400
    with session_scope(pay_engine) as s:  # another tab spends some of it first
        credit.record(s, pid, CreditKind.SPEND, 150, key="spend:elsewhere")
    answer = lightbox_submit(live_sim, started.hosted.token, number=VISA)
    result = await _add_order(pay_engine, gateway, pid, started.payment_id, answer)
    assert result.status == settle.VOIDED, result
    assert _balance(pay_engine, pid) == 250  # never below zero, nothing spent twice
    assert _card_txns(live_sim, pay_engine, started.order_id, "VOID") == [started.amount_cents]
    with session_scope(pay_engine) as s:
        assert s.get(Order, started.order_id).status == "cancelled"
        assert s.exec(select(CartLine).where(CartLine.parent_id == pid)).all() != []


def _checkout_in_process(url: str, parent_id: int, barrier: Any, out: Any) -> None:
    """One tab's checkout, in a process of its own (what a second server worker is)."""
    engine = make_engine(url)
    try:
        barrier.wait(timeout=60)
        started = asyncio.run(
            checkout.start_checkout(parent_id=parent_id, runtime=Runtime(engine=engine))
        )
        out.put(started.result.status if started.result else "lightbox")
    except DomainError as exc:
        out.put(exc.code)
    except Exception as exc:  # noqa: BLE001 - the test reads what each process got
        out.put(repr(exc))
    finally:
        engine.dispose()


def test_two_tabs_checking_out_with_the_same_credit_spend_it_once(
    pay_engine: Engine, shop: dict
) -> None:
    pid = shop["parent_id"]
    _two_meals(pay_engine, shop)
    with session_scope(pay_engine) as s:
        total = pricing.priced_summary(session=s, parent_id=pid).summary.charges.total_pay_cents
    _give(pay_engine, pid, total + 50)
    url = pay_engine.url.render_as_string(hide_password=False)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(3)
    out = context.Queue()
    pay_engine.dispose()  # no pooled connection crosses the fork
    tabs = [
        context.Process(target=_checkout_in_process, args=(url, pid, barrier, out))
        for _ in range(3)
    ]
    for tab in tabs:
        tab.start()
    results = sorted(out.get(timeout=120) for _ in tabs)
    for tab in tabs:
        tab.join(timeout=60)
    # One tab places the order with credit; the others find the cart paid for already.
    assert results.count(settle.PLACED) == 1, results
    assert set(results) - {settle.PLACED} <= {"cart_empty", "cart_nothing_payable"}, results
    assert _balance(pay_engine, pid) == 50
    with session_scope(pay_engine) as s:
        spends = s.exec(
            select(CreditEntry).where(CreditEntry.parent_id == pid, CreditEntry.kind == "spend")
        ).all()
        placed = s.exec(select(Order).where(Order.parent_id == pid, Order.status == "placed")).all()
    assert [e.amount_cents for e in spends] == [-total] and len(placed) == 1


async def test_an_increase_credit_covers_is_paid_with_it_and_cancelled_back_to_it(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    pid = shop["parent_id"]
    add(pay_engine, shop, 0, 2, quantity=1)
    started = await checkout.start_checkout(parent_id=pid, runtime=runtime)
    assert started.hosted is not None and started.credit_cents == 0  # no credit yet
    answer = lightbox_submit(live_sim, started.hosted.token, number=VISA)
    placed = await _add_order(pay_engine, gateway, pid, started.payment_id, answer)
    order_id, paid = placed.order_id, placed.total_pay_cents
    _give(pay_engine, pid, 50_000)
    with session_scope(pay_engine) as s:
        info = modify.add_to_my_order(
            session=s,
            parent_id=pid,
            order_id=order_id,
            child_id=shop["children"][1],
            meal_id=shop["meal_id"],
            date=monday_in(4).isoformat(),
        )
    due = info.quote.to_pay_cents
    before = len(sim_txns(live_sim))
    confirm = {"parent_id": pid, "order_id": order_id, "request_key": "add-credit"}
    confirm |= {"runtime": runtime}
    result = await modify.modify_confirm_order(**confirm)
    assert result.status == "applied" and result.hosted is None, result
    assert result.credit_cents == due and "family credit" in change_message(result, "en")
    assert len(sim_txns(live_sim)) == before  # no card
    assert _balance(pay_engine, pid) == 50_000 - due
    assert _sums(pay_engine, order_id) == (paid + due, 0)
    again = await modify.modify_confirm_order(**confirm)
    assert again.change_id == result.change_id and again.credit_cents == due
    assert _balance(pay_engine, pid) == 50_000 - due
    # Cancelled: credit's share back to credit first, the card's to the card.
    done = await _cancel(pay_engine, gateway, shop, "all", order_id=order_id)
    assert done.refund_cents == paid + due and done.credit_cents == due
    assert _balance(pay_engine, pid) == 50_000
    assert _card_txns(live_sim, pay_engine, order_id, "VOID") == [paid]


async def test_a_late_card_approval_after_credit_placed_the_order_is_voided(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    """Tab 1 opens the Lightbox for the whole order (no credit then); credit arrives and tab 2
    places the same order with it; tab 1's card is then approved: it paid for nothing and is
    voided at once, the credit stays spent once, and the payment round changes nothing."""
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    pid = shop["parent_id"]
    _two_meals(pay_engine, shop)
    by_card = await checkout.start_checkout(parent_id=pid, runtime=runtime)
    assert by_card.hosted is not None and by_card.credit_cents == 0
    _give(pay_engine, pid, 100_000)
    by_credit = await checkout.start_checkout(parent_id=pid, runtime=runtime)
    assert by_credit.result is not None and by_credit.result.status == settle.PLACED
    assert by_credit.order_id == by_card.order_id
    total = by_credit.credit_cents
    answer = lightbox_submit(live_sim, by_card.hosted.token, number=VISA)
    late = await _add_order(pay_engine, gateway, pid, by_card.payment_id, answer)
    assert late.status == settle.VOIDED, late
    assert _card_txns(live_sim, pay_engine, by_card.order_id, "VOID") == [by_card.amount_cents]
    await payment_round.reconcile_round(runtime=runtime)
    assert _balance(pay_engine, pid) == 100_000 - total
    assert _sums(pay_engine, by_card.order_id)[0] - total == by_card.amount_cents  # voided
    with session_scope(pay_engine) as s:
        shown = confirmation.order_confirmation(s, parent_id=pid, order_id=by_card.order_id)
        assert s.get(Order, by_card.order_id).status == "placed"
    assert shown.credit_cents == total
