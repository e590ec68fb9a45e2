"""Family credit paying part of an order change's increase on SQLite and PostgreSQL
against the simulator: the quote and the answer say the split; the card attempt is for the
increase less the credit; the credit is spent only when the card's approval applies the change
(one SPEND, whatever the repeats); a decline spends nothing; credit spent meanwhile by another
tab drops the change and voids the card's charge; a saved card's charge (a dearer move) goes
through the same apply."""

from __future__ import annotations

from sqlalchemy.engine import Engine
from sqlmodel import col, select

from hotmeals.api.order_changes_present import quote_out
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import CreditEntry, OrderChange, OrderLine, Payment
from hotmeals.domain.credit import CreditKind
from hotmeals.services import cards, credit
from hotmeals.services.ordering.cancelling import cancel_order
from hotmeals.services.ordering.changing import modify, move
from hotmeals.services.ordering.changing.change_result import change_message
from hotmeals.services.runtime import Runtime
from tests.orders_support import (
    credit_balance,
    give_credit,
    monday_in,
    order_sums,
    paid_order,
    set_meal_price,
)
from tests.payments_support import DECLINED_CARD, MASTERCARD, SimServer, lightbox_submit, sim_txns

SHORT = 300  # what the card pays: the increase less the credit given


def _spends(engine: Engine, parent_id: int) -> list[tuple[str, int]]:
    with session_scope(engine) as s:
        rows = s.exec(
            select(CreditEntry).where(
                col(CreditEntry.parent_id) == parent_id,
                col(CreditEntry.kind) == CreditKind.SPEND,
            )
        ).all()
        return [(row.key, row.amount_cents) for row in rows]


def _change_payments(engine: Engine, order_id: int) -> list[tuple[str, str, int]]:
    """The order's approved ORDER_CHANGE payments: (method, state, cents)."""
    with session_scope(engine) as s:
        rows = s.exec(
            select(Payment)
            .where(col(Payment.order_id) == order_id, col(Payment.purpose) == "ORDER_CHANGE")
            .order_by(col(Payment.id))
        ).all()
        return [(p.method, p.state, p.amount_cents) for p in rows]


async def _add_meal(engine: Engine, shop: dict, order_id: int, weeks: int = 4) -> modify.ModifyInfo:
    with session_scope(engine) as s:
        return modify.add_to_my_order(
            session=s,
            parent_id=shop["parent_id"],
            order_id=order_id,
            child_id=shop["children"][1],
            meal_id=shop["meal_id"],
            date=monday_in(weeks).isoformat(),
            addons=[shop["addon_id"]],
        )


async def _confirm(engine, gateway, pid: int, order_id: int, key: str):
    """Confirm the draft: the Lightbox opens for the card's share only."""
    started = await modify.modify_confirm_order(
        parent_id=pid,
        order_id=order_id,
        request_key=key,
        runtime=Runtime(engine=engine, gateway=gateway),
    )
    assert started.status == "pay" and started.hosted.amount_cents == SHORT, started
    return started


def _line_count(engine: Engine, order_id: int) -> int:
    with session_scope(engine) as s:
        return len(s.exec(select(OrderLine).where(OrderLine.order_id == order_id)).all())


async def _complete(engine, gateway, pid: int, payment_id, answer: dict):
    return await modify.complete_change_payment(
        parent_id=pid,
        payment_id=payment_id,
        txn_id=answer["response"]["ssl_txn_id"],
        runtime=Runtime(engine=engine, gateway=gateway),
    )


async def _added_with_short_credit(engine, gateway, sim, shop) -> tuple[int, int, int]:
    """A paid order, a meal added to it (the increase ``due``), and family credit of
    ``due - SHORT``: (order id, paid, due)."""
    order_id, _ = await paid_order(
        engine, gateway, sim, shop, [{"child": 0, "weeks": 2, "quantity": 1}]
    )
    due = (await _add_meal(engine, shop, order_id)).quote.to_pay_cents
    assert due > SHORT
    give_credit(engine, shop["parent_id"], due - SHORT)
    return order_id, order_sums(engine, order_id)[0], due


async def test_an_increase_paid_partly_by_credit_charges_the_card_only_the_rest(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    pid = shop["parent_id"]
    order_id, paid, due = await _added_with_short_credit(pay_engine, gateway, live_sim, shop)
    with session_scope(pay_engine) as s:
        quote = modify.modify_order_info(session=s, parent_id=pid, order_id=order_id).quote
    assert (quote.credit_cents, quote.card_cents) == (due - SHORT, SHORT)
    shown = quote_out(quote, "en")["credit_lines"]
    assert [line["cents"] for line in shown] == [-(due - SHORT), SHORT]

    started = await _confirm(pay_engine, gateway, pid, order_id, "part")
    assert credit_balance(pay_engine, pid) == due - SHORT  # nothing spent before the approval
    answer = lightbox_submit(live_sim, started.hosted.token)
    done = await _complete(pay_engine, gateway, pid, started.payment_id, answer)
    assert done.status == "applied" and done.credit_cents == due - SHORT, done
    # the card's share alone
    assert "$3.00 was charged to your card" in change_message(done, "en")
    assert [t["amount_cents"] for t in sim_txns(live_sim, started.hosted.invoice_number)] == [SHORT]
    assert _change_payments(pay_engine, order_id) == [
        ("card", "APPROVED", SHORT),
        ("credit", "APPROVED", due - SHORT),
    ]
    assert credit_balance(pay_engine, pid) == 0
    assert order_sums(pay_engine, order_id) == (paid + due, 0)
    spent = [(f"spend:change:{done.change_id}", -(due - SHORT))]
    assert _spends(pay_engine, pid) == spent
    again = await _complete(pay_engine, gateway, pid, started.payment_id, answer)
    assert again.status == "applied" and again.credit_cents == due - SHORT
    assert _spends(pay_engine, pid) == spent  # no second SPEND
    assert len(_change_payments(pay_engine, order_id)) == 2
    assert _line_count(pay_engine, order_id) == 2
    # Cancelling everything gives each payment back: credit's share to credit (a RESTORE).
    await cancel_order.cancel_order(
        parent_id=pid,
        order_id=order_id,
        reason_id=shop["reason_id"],
        request_key="all",
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert (order_sums(pay_engine, order_id), credit_balance(pay_engine, pid)) == (
        (paid + due, paid + due),
        due - SHORT,
    )


async def test_a_declined_card_spends_no_credit(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    pid = shop["parent_id"]
    order_id, paid, due = await _added_with_short_credit(pay_engine, gateway, live_sim, shop)
    started = await _confirm(pay_engine, gateway, pid, order_id, "decl")
    lightbox_submit(live_sim, started.hosted.token, number=DECLINED_CARD)
    result = await modify.change_payment_declined(
        parent_id=pid,
        payment_id=started.payment_id,
        message="DECLINED",
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert result.status == "declined", result
    assert credit_balance(pay_engine, pid) == due - SHORT and _spends(pay_engine, pid) == []
    assert order_sums(pay_engine, order_id) == (paid, 0)


async def test_credit_spent_by_another_tab_drops_the_change_and_voids_the_card(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    pid = shop["parent_id"]
    order_id, paid, due = await _added_with_short_credit(pay_engine, gateway, live_sim, shop)
    started = await _confirm(pay_engine, gateway, pid, order_id, "tab")
    with session_scope(pay_engine) as s:  # another tab spends the credit meanwhile
        credit.record(s, pid, CreditKind.SPEND, 1, key="other-tab")
    answer = lightbox_submit(live_sim, started.hosted.token)
    done = await _complete(pay_engine, gateway, pid, started.payment_id, answer)
    told = change_message(done, "en")
    assert done.status == "dropped" and "charge of $3.00 is cancelled" in told, done
    assert sim_txns(live_sim, started.hosted.invoice_number, "VOID")
    assert credit_balance(pay_engine, pid) == due - SHORT - 1  # what the other tab left
    assert _spends(pay_engine, pid) == [("other-tab", -1)]
    assert order_sums(pay_engine, order_id) == (paid + SHORT, SHORT)  # the card's charge voided
    with session_scope(pay_engine) as s:
        assert s.get(OrderChange, done.change_id).state == "dropped"
    assert _line_count(pay_engine, order_id) == 1


async def test_a_dearer_move_paid_partly_by_credit_with_a_saved_card(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    pid = shop["parent_id"]
    order_id, (line_id,) = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": 2, "quantity": 1}]
    )
    paid = order_sums(pay_engine, order_id)[0]
    session = await cards.start_add_card(parent_id=pid, runtime=runtime)
    token = lightbox_submit(live_sim, session.token, number=MASTERCARD)["response"]["ssl_token"]
    card = await cards.save_card(parent_id=pid, token=token, runtime=runtime)
    set_meal_price(pay_engine, shop, 2000)
    with session_scope(pay_engine) as s:
        due = move.quote_move(
            session=s, parent_id=pid, order_line_id=line_id, new_date=monday_in(3).isoformat()
        ).to_pay_cents
    assert due > SHORT
    give_credit(pay_engine, pid, due - SHORT)
    moved = await move.modify_meal(
        parent_id=pid,
        order_line_id=line_id,
        new_date=monday_in(3).isoformat(),
        request_key="dearer",
        card_id=card.id,
        runtime=runtime,
    )
    assert moved.status == "applied" and moved.credit_cents == due - SHORT, moved
    assert _change_payments(pay_engine, order_id) == [
        ("card", "APPROVED", SHORT),
        ("credit", "APPROVED", due - SHORT),
    ]
    assert credit_balance(pay_engine, pid) == 0
    assert order_sums(pay_engine, order_id) == (paid + due, 0)
    assert _spends(pay_engine, pid) == [(f"spend:change:{moved.change_id}", -(due - SHORT))]
