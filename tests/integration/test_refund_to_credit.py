"""Refunds to family credit on SQLite and PostgreSQL against the simulator: a cancel
(meal, order, cancel cart), a modify's decrease and a cheaper move refund the card's share to
the family's credit at once when the parent asks (or chose it as a setting): the balance rises
by exactly the refund, nothing reaches the card processor, the order's refunded sum counts it,
a repeat writes no second credit row, the reconciliation and the resends leave it alone, and
the e-mails say where the money went."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from hotmeals import clock
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import CreditEntry, EmailOutbox, Payment, Refund
from hotmeals.domain.errors import DomainError
from hotmeals.services import credit, payments
from hotmeals.services.ordering.cancelling import cancel_cart, cancel_order
from hotmeals.services.ordering.changing import modify, move
from hotmeals.services.ordering.changing.change_result import change_message
from hotmeals.services.ordering.mails import cancel_notice
from hotmeals.services.runtime import Runtime
from tests.orders_support import credit_balance, monday_in, order_sums, paid_order, set_meal_price
from tests.payments_support import SimServer, sim_txns

TWO_MEALS = [{"child": 0, "weeks": 2, "quantity": 1}, {"child": 1, "weeks": 3, "quantity": 1}]


def _credit_rows(engine: Engine, parent_id: int) -> list[CreditEntry]:
    with session_scope(engine) as s:
        rows = s.exec(select(CreditEntry).where(col(CreditEntry.parent_id) == parent_id)).all()
        s.expunge_all()
        return list(rows)


def _card_refunds(sim: SimServer, engine: Engine, order_id: int) -> list[dict]:
    """What the card processor saw refunded (voids and returns) for the order's payments."""
    with session_scope(engine) as s:
        invoices = [
            p.invoice_number for p in s.exec(select(Payment).where(Payment.order_id == order_id))
        ]
    return [t for inv in invoices for t in sim_txns(sim, inv) if t["kind"] in ("VOID", "RETURN")]


def _mail_kinds(engine: Engine) -> list[str]:
    with session_scope(engine) as s:
        return [m.kind for m in s.exec(select(EmailOutbox)).all()]


async def test_a_meal_cancelled_to_credit_credits_exactly_once_and_sends_nothing(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    order_id, (first, _second) = await paid_order(pay_engine, gateway, live_sim, shop, TWO_MEALS)
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    before = credit_balance(pay_engine, pid)

    async def cancel(lang: str = "en"):
        return await cancel_order.cancel_meal(
            parent_id=pid,
            order_line_id=first,
            reason_id=shop["reason_id"],
            request_key="to-credit-1",
            refund_to="credit",
            lang=lang,
            runtime=Runtime(engine=pay_engine, gateway=gateway),
        )

    result = await cancel()
    back = result.refund_cents
    assert 0 < back < paid
    assert result.credit_cents == back == result.refunded_cents and result.pending_cents == 0
    notice = cancel_notice(
        back, "en", credit_cents=result.credit_cents, failed_cents=result.failed_cents
    )
    assert "family credit" in notice
    assert credit_balance(pay_engine, pid) == before + back
    assert _card_refunds(live_sim, pay_engine, order_id) == []  # nothing sent to the card
    assert order_sums(pay_engine, order_id) == (paid, back)
    with session_scope(pay_engine) as s:
        [row] = s.exec(select(Refund).where(Refund.order_id == order_id)).all()
        assert (row.kind, row.state, row.converge_txn_id) == ("CREDIT", "SUCCEEDED", None)
        assert row.cancellation_id == result.cancellation_ids[0]
    [entry] = _credit_rows(pay_engine, pid)
    assert (entry.kind, entry.amount_cents, entry.order_id) == ("refund", back, order_id)
    assert entry.key == f"refund:{row.id}"
    kinds = _mail_kinds(pay_engine)
    assert "refund_to_credit" in kinds and "refund_made" not in kinds

    again = await cancel("fr")  # the same request again: the same answer, no second credit
    assert again.repeated and again.credit_cents == back and again.refunded_cents == back
    notice = cancel_notice(
        again.refund_cents, "fr", credit_cents=again.credit_cents, failed_cents=again.failed_cents
    )
    assert "crédit familial" in notice
    assert len(_credit_rows(pay_engine, pid)) == 1
    assert credit_balance(pay_engine, pid) == before + back

    # Neither the reconciliation nor the resends touch a refund to credit.
    await payments.reconcile_open_refunds(runtime=runtime)
    later = clock.now() + timedelta(days=1)
    assert await payments.resend_failed_refunds(runtime=runtime.at(later)) == []
    assert _card_refunds(live_sim, pay_engine, order_id) == []
    assert credit_balance(pay_engine, pid) == before + back


async def test_the_standing_choice_applies_and_one_refund_can_override_it(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    order_id, (first, second) = await paid_order(pay_engine, gateway, live_sim, shop, TWO_MEALS)
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    with session_scope(pay_engine) as s:
        credit.set_refund_to(s, pid, "credit")
    start = credit_balance(pay_engine, pid)
    by_choice = await cancel_order.cancel_meal(
        parent_id=pid,
        order_line_id=first,
        reason_id=shop["reason_id"],
        request_key="choice-1",
        runtime=runtime,
    )
    assert by_choice.credit_cents == by_choice.refund_cents > 0
    assert credit_balance(pay_engine, pid) == start + by_choice.refund_cents
    # This one refund to the card, whatever the setting.
    to_card = await cancel_order.cancel_order(
        parent_id=pid,
        order_id=order_id,
        reason_id=shop["reason_id"],
        request_key="choice-2",
        refund_to="card",
        runtime=runtime,
    )
    assert to_card.credit_cents == 0 and to_card.refunded_cents == to_card.refund_cents > 0
    assert by_choice.refund_cents + to_card.refund_cents == paid
    assert order_sums(pay_engine, order_id) == (paid, paid)
    assert credit_balance(pay_engine, pid) == start + by_choice.refund_cents
    assert [t["amount_cents"] for t in _card_refunds(live_sim, pay_engine, order_id)] == [
        to_card.refund_cents
    ]
    assert second  # both lines cancelled
    with pytest.raises(DomainError) as bad:
        await cancel_order.cancel_meal(
            parent_id=pid,
            order_line_id=first,
            reason_id=shop["reason_id"],
            request_key="choice-3",
            refund_to="cash",
            runtime=runtime,
        )
    assert bad.value.code == "refund_destination_invalid"


async def test_the_cancel_cart_refunds_each_order_to_credit(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    order_id, (first, second) = await paid_order(pay_engine, gateway, live_sim, shop, TWO_MEALS)
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    start = credit_balance(pay_engine, pid)
    with session_scope(pay_engine) as s:
        for line_id in (first, second):
            cancel_cart.add_to_cancel_cart(s, parent_id=pid, order_line_id=line_id, quantity=1)
    result = await cancel_cart.confirm_cancel_cart(
        parent_id=pid,
        reason_id=shop["reason_id"],
        request_key="cart-credit",
        refund_to="credit",
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert result.refund_cents == paid == result.credit_cents
    assert credit_balance(pay_engine, pid) == start + paid
    assert _card_refunds(live_sim, pay_engine, order_id) == []
    assert order_sums(pay_engine, order_id) == (paid, paid)


async def test_a_modify_decrease_and_a_cheaper_move_refund_to_credit(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)

    order_id, (first, second) = await paid_order(pay_engine, gateway, live_sim, shop, TWO_MEALS)
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    start = credit_balance(pay_engine, pid)
    with session_scope(pay_engine) as s:
        info = modify.delete_from_modify_order(
            session=s, parent_id=pid, order_id=order_id, order_line_id=second
        )
    expected = info.quote.to_refund_cents
    result = await modify.modify_confirm_order(
        parent_id=pid,
        order_id=order_id,
        request_key="mod-credit",
        refund_to="credit",
        runtime=runtime,
    )
    assert result.status == "applied" and result.refund_cents == expected == result.credit_cents
    assert "family credit" in change_message(result, "en")
    again = await modify.modify_confirm_order(
        parent_id=pid,
        order_id=order_id,
        request_key="mod-credit",
        runtime=runtime,
    )
    assert again.change_id == result.change_id and again.credit_cents == expected
    assert credit_balance(pay_engine, pid) == start + expected

    set_meal_price(pay_engine, shop, 500)
    cheaper = await move.modify_meal(
        parent_id=pid,
        order_line_id=first,
        new_date=monday_in(4).isoformat(),
        request_key="move-credit",
        refund_to="credit",
        runtime=runtime,
    )
    back = -cheaper.difference_cents
    assert cheaper.status == "applied" and back > 0 and cheaper.credit_cents == back, cheaper
    assert credit_balance(pay_engine, pid) == start + expected + back
    assert _card_refunds(live_sim, pay_engine, order_id) == []
    assert order_sums(pay_engine, order_id) == (paid, expected + back)
    assert len(_credit_rows(pay_engine, pid)) == 2
