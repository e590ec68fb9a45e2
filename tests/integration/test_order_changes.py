"""services/order_changes.py (modify an order, move a meal) on SQLite and PostgreSQL
against the Converge simulator over HTTP: a decrease refunded exactly (the simulator's ledger
matches), an increase paid through the Lightbox before the order changes, a move with the same
price and with a lower one, the refusals (after the cut-off in EN and FR, another vendor's
day, a day without the meal), ownership, two moves of one meal at once refunding once, a move
racing a cancel of the same meal, and the statement count for 1 and 12 lines."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

from hotmeals import clock
from hotmeals.api.order_changes_present import quote_out
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    EmailOutbox,
    Order,
    OrderCancellation,
    OrderChange,
    OrderLine,
    Refund,
)
from hotmeals.domain.errors import DomainError
from hotmeals.services.ordering import queries
from hotmeals.services.ordering.cancelling import cancel_order
from hotmeals.services.ordering.changing import change_payment, modify, move
from hotmeals.services.ordering.changing.change_plan import ChangeQuote
from hotmeals.services.ordering.changing.change_result import change_message
from hotmeals.services.runtime import Runtime
from tests import factories as f
from tests.orders_support import (
    make_shop,
    monday_in,
    order_sums,
    paid_order,
    past_cutoff,
    set_meal_price,
    twelve_lines,
)
from tests.payments_support import SimServer, in_new_loop, lightbox_submit, sim_txns
from tests.querycount import count_queries


def _info(engine: Engine, pid: int, order_id: int, lang: str = "en") -> modify.ModifyInfo:
    with session_scope(engine) as s:
        return modify.modify_order_info(session=s, parent_id=pid, order_id=order_id, lang=lang)


def _ledger(sim: SimServer, engine: Engine, order_id: int, kind: str) -> list[int]:
    with session_scope(engine) as s:
        from hotmeals.db.models import Payment

        invoices = [
            p.invoice_number for p in s.exec(select(Payment).where(Payment.order_id == order_id))
        ]
    return sorted(t["amount_cents"] for inv in invoices for t in sim_txns(sim, inv, kind))


async def test_removing_meals_refunds_exactly_once_and_the_ledger_matches(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    order_id, (first, second) = await paid_order(
        pay_engine,
        gateway,
        live_sim,
        shop,
        [{"child": 0, "weeks": 2, "quantity": 2}, {"child": 1, "weeks": 3, "quantity": 1}],
    )
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    with session_scope(pay_engine) as s:
        info = modify.delete_from_modify_order(
            session=s, parent_id=pid, order_id=order_id, order_line_id=second, lang="fr"
        )
        info = modify.delete_from_modify_order(
            session=s, parent_id=pid, order_id=order_id, order_line_id=first, quantity=1
        )
    assert info.has_changes and info.quote.to_pay_cents == 0
    expected = info.quote.to_refund_cents
    assert 0 < expected < paid and info.quote.new_total_cents == paid - expected
    assert [ln.remove_quantity for ln in info.lines] == [1, 1]
    with session_scope(pay_engine) as s, pytest.raises(DomainError) as too_many:
        modify.delete_from_modify_order(
            session=s, parent_id=pid, order_id=order_id, order_line_id=first, quantity=2
        )
    assert too_many.value.code == "order_change_quantity_invalid"

    result = await modify.modify_confirm_order(
        parent_id=pid, order_id=order_id, request_key="mod-1", runtime=runtime
    )
    assert result.status == "applied" and result.refund_cents == expected, result
    assert result.difference_cents == -expected and result.refund_ok
    again = await modify.modify_confirm_order(
        parent_id=pid, order_id=order_id, request_key="mod-1", runtime=runtime
    )
    assert again.status == "applied" and again.change_id == result.change_id
    assert order_sums(pay_engine, order_id) == (paid, expected)
    assert _ledger(live_sim, pay_engine, order_id, "RETURN") == [expected]
    with session_scope(pay_engine) as s:
        lines = {
            ln.id: ln for ln in s.exec(select(OrderLine).where(OrderLine.order_id == order_id))
        }
        assert (lines[first].cancelled_quantity, lines[first].status) == (1, "active")
        assert lines[second].status == "cancelled"
        cancellation = s.exec(
            select(OrderCancellation).where(OrderCancellation.order_id == order_id)
        ).one()
        assert cancellation.kind == "modify"
        refund_row = s.exec(select(Refund).where(Refund.order_id == order_id)).one()
        assert refund_row.cancellation_id == cancellation.id
        order = s.get(Order, order_id)
        assert order.status == "partially_cancelled" and order.total_pay_cents == paid
        mails = s.exec(select(EmailOutbox).where(EmailOutbox.kind == "order_changed")).all()
        assert any(order.number in m.subject for m in mails)
        shown = queries.order_detail(s, parent_id=pid, order_id=order_id)
        assert shown.total_pay_cents - shown.total_refund_cents == paid - expected
    # Nothing left in the draft: confirming again with a new key is refused.
    with pytest.raises(DomainError) as empty:
        await modify.modify_confirm_order(
            parent_id=pid,
            order_id=order_id,
            request_key="mod-2",
            runtime=runtime,
        )
    assert empty.value.code == "order_change_empty"
    # Cancelling what remains refunds the rest: everything paid is back.
    await cancel_order.cancel_order(
        parent_id=pid,
        order_id=order_id,
        reason_id=shop["reason_id"],
        request_key="rest",
        runtime=runtime,
    )
    assert order_sums(pay_engine, order_id) == (paid, paid)


async def test_adding_a_meal_is_paid_through_the_lightbox_before_the_order_changes(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    order_id, (first,) = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": 2, "quantity": 1}]
    )
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    with session_scope(pay_engine) as s:
        tax_before = s.get(Order, order_id).tax_cents
        info = modify.add_to_my_order(
            session=s,
            parent_id=pid,
            order_id=order_id,
            child_id=shop["children"][1],
            meal_id=shop["meal_id"],
            date=monday_in(4).isoformat(),
            addons=[shop["addon_id"]],
        )
    due = info.quote.to_pay_cents
    assert due > 0 and info.quote.new_total_cents == paid + due
    assert [a.ok for a in info.added] == [True]
    started = await modify.modify_confirm_order(
        parent_id=pid, order_id=order_id, request_key="add-1", runtime=runtime
    )
    assert started.status == "pay" and started.hosted is not None
    assert started.hosted.amount_cents == due and started.hosted.purpose == "ORDER_CHANGE"
    # A retry with the same key (a lost answer) opens the same Lightbox session (before,
    # it answered "pending" with none, though nothing was charged).
    retried = await modify.modify_confirm_order(
        parent_id=pid, order_id=order_id, request_key="add-1", runtime=runtime
    )
    assert retried.status == "pay" and retried.hosted == started.hosted, retried
    assert retried.hosted.token == started.hosted.token
    assert retried.payment_id == started.payment_id and retried.change_id == started.change_id
    with session_scope(pay_engine) as s:  # not applied before it is paid
        count = len(s.exec(select(OrderLine).where(OrderLine.order_id == order_id)).all())
        assert count == 1
    # a second confirm while the payment is open is refused
    with pytest.raises(DomainError) as busy:
        with session_scope(pay_engine) as s:
            modify.delete_from_modify_order(
                session=s, parent_id=pid, order_id=order_id, order_line_id=first
            )
        await modify.modify_confirm_order(
            parent_id=pid,
            order_id=order_id,
            request_key="add-2",
            runtime=runtime,
        )
    assert busy.value.code == "order_change_in_progress"
    with session_scope(pay_engine) as s:  # take the removal back
        draft = modify.modify_order_info(session=s, parent_id=pid, order_id=order_id)
        modify.delete_from_modify_order(
            session=s,
            parent_id=pid,
            order_id=order_id,
            change_line_id=draft.lines[0].remove_steps[0],
        )
    answer = lightbox_submit(live_sim, started.hosted.token)
    done = await modify.complete_change_payment(
        parent_id=pid,
        payment_id=started.payment_id,
        txn_id=answer["response"]["ssl_txn_id"],
        runtime=runtime,
    )
    assert done.status == "applied" and "modifiée" in change_message(done, "fr"), done
    assert order_sums(pay_engine, order_id) == (paid + due, 0)
    assert _ledger(live_sim, pay_engine, order_id, "SALE") == sorted([paid, due])
    with session_scope(pay_engine) as s:
        lines = s.exec(
            select(OrderLine).where(OrderLine.order_id == order_id).order_by(OrderLine.meal_date)
        ).all()
        assert [(ln.child_id, ln.meal_date) for ln in lines] == [
            (shop["children"][0], monday_in(2)),
            (shop["children"][1], monday_in(4)),
        ]
        assert s.get(Order, order_id).total_pay_cents == paid + due
        change = s.get(OrderChange, done.change_id)
        assert change.state == "applied" and change.amount_cents == due
        # The HST within the difference (its receipt's tax line) is what the order's tax grew.
        assert 0 < change.tax_cents < due
        assert s.get(Order, order_id).tax_cents == tax_before + change.tax_cents
    # repeat-safe: completing again changes nothing
    again = await modify.complete_change_payment(
        parent_id=pid,
        payment_id=started.payment_id,
        txn_id=answer["response"]["ssl_txn_id"],
        runtime=runtime,
    )
    assert again.status == "applied"
    with session_scope(pay_engine) as s:
        assert len(s.exec(select(OrderLine).where(OrderLine.order_id == order_id)).all()) == 2
    # cancelling everything then refunds both payments to the cent
    await cancel_order.cancel_order(
        parent_id=pid,
        order_id=order_id,
        reason_id=shop["reason_id"],
        request_key="all",
        runtime=runtime,
    )
    assert order_sums(pay_engine, order_id) == (paid + due, paid + due)


async def test_move_a_meal_same_price_then_cheaper_and_the_refusals(
    pay_engine: Engine,
    gateway: ConvergeClient,
    live_sim: SimServer,
    shop: dict,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    order_id, (line_id,) = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": 2, "quantity": 1}]
    )
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    with session_scope(pay_engine) as s:
        meals = move.get_meals_list(session=s, parent_id=pid, lang="fr")
        detail = move.meal_order_detail(session=s, parent_id=pid, order_line_id=line_id)
        dates = move.get_dates_for_modify_meal(session=s, parent_id=pid, order_line_id=line_id)
    assert [m.order_line_id for m in meals] == [line_id] and meals[0].can_change
    assert detail.status == "active" and detail.quantity == 1
    assert [d.meal_date for d in dates.dates] == [monday_in(w) for w in (3, 4, 5, 6, 7)]
    assert all(d.meal_served for d in dates.dates)

    moved = await move.modify_meal(
        parent_id=pid,
        order_line_id=line_id,
        new_date=monday_in(3).isoformat(),
        request_key="move-1",
        runtime=runtime,
    )
    assert moved.status == "applied" and moved.difference_cents == 0, moved
    with session_scope(pay_engine) as s:
        line = s.get(OrderLine, line_id)
        assert (line.meal_date, line.moved_from_date) == (monday_in(3), monday_in(2))
        shown = queries.order_detail(s, parent_id=pid, order_id=order_id)
        assert [x.state for x in shown.lines] == ["moved"]
        assert s.exec(select(EmailOutbox).where(EmailOutbox.kind == "meal_moved")).first()

    # cheaper today: moving again refunds the difference (and its tax) exactly
    set_meal_price(pay_engine, shop, 500)
    cheaper = await move.modify_meal(
        parent_id=pid,
        order_line_id=line_id,
        new_date=monday_in(4).isoformat(),
        request_key="move-2",
        runtime=runtime,
    )
    assert cheaper.status == "applied" and cheaper.difference_cents < 0, cheaper
    back = -cheaper.difference_cents
    assert order_sums(pay_engine, order_id) == (paid, back)
    assert _ledger(live_sim, pay_engine, order_id, "RETURN") == [back]
    with session_scope(pay_engine) as s:
        line = s.get(OrderLine, line_id)
        assert (line.meal_date, line.moved_from_date, line.unit_price_cents) == (
            monday_in(4),
            monday_in(2),
            500,
        )
        assert s.get(Order, order_id).total_pay_cents == paid  # the refund shows apart

    async def refused(lang: str = "en", **kw) -> DomainError:
        with pytest.raises(DomainError) as info:
            await move.modify_meal(
                parent_id=kw.pop("parent_id", pid),
                order_line_id=kw.pop("order_line_id", line_id),
                lang=lang,
                runtime=Runtime(engine=pay_engine, gateway=gateway),
                **kw,
            )
        return info.value

    assert (await refused(new_date=monday_in(4).isoformat())).code == "order_change_same_date"
    # a day of another vendor, and a day of the same vendor without this meal
    with session_scope(pay_engine) as s:
        from hotmeals.db.models import Child, School, Vendor

        school = s.get(School, s.get(Child, shop["children"][0]).school_id)
        other = f.make_vendor(s, cutoff_days_before=1, cutoff_time="10:00")
        f.make_menu_day(s, school, other, monday_in(8), [f.make_meal(s, other)])
        vendor = s.get(Vendor, s.get(OrderLine, line_id).vendor_id)
        f.make_menu_day(s, school, vendor, monday_in(1), [f.make_meal(s, vendor)])
    err = await refused(new_date=monday_in(8).isoformat())
    assert err.code == "order_change_other_vendor"
    err = await refused(new_date=monday_in(1).isoformat(), lang="fr")
    assert err.code == "order_change_meal_not_served" and "au menu" in err.message("fr")
    assert (await refused(new_date="not a date")).code in ("invalid_date", "meal_date_invalid")
    # another parent's meal is not found
    other_parent = make_shop(pay_engine)["parent_id"]
    err = await refused(parent_id=other_parent, new_date=monday_in(5).isoformat())
    assert err.code == "order_change_line_not_found"
    with session_scope(pay_engine) as s, pytest.raises(DomainError) as info:
        move.meal_order_detail(session=s, parent_id=other_parent, order_line_id=line_id)
    assert info.value.code == "order_change_line_not_found"
    with session_scope(pay_engine) as s, pytest.raises(DomainError) as info:
        modify.modify_order_info(session=s, parent_id=other_parent, order_id=order_id)
    assert info.value.code == "order_change_order_not_found"
    with session_scope(pay_engine) as s, pytest.raises(DomainError) as info:
        modify.add_to_my_order(
            session=s,
            parent_id=other_parent,
            order_id=order_id,
            child_id=shop["children"][0],
            meal_id=shop["meal_id"],
            date=monday_in(5).isoformat(),
        )
    assert info.value.code == "order_change_order_not_found"
    # after the meal's cut-off: refused with the day, in English and in French
    clock.set_now(past_cutoff(monday_in(4)))
    err = await refused(new_date=monday_in(6).isoformat())
    assert err.code == "order_change_cutoff_passed"
    assert "deadline" in err.message("en") and "date limite" in err.message("fr")
    with session_scope(pay_engine) as s, pytest.raises(DomainError) as info:
        move.get_dates_for_modify_meal(session=s, parent_id=pid, order_line_id=line_id)
    assert info.value.code == "order_change_cutoff_passed"
    assert order_sums(pay_engine, order_id) == (paid, back)


async def test_a_move_is_quoted_before_confirming_and_the_quote_is_what_moves(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    """quote_move: the same checks and pricing as modify_meal, nothing written; the amount
    quoted is the amount then refunded (or to pay)."""
    from sqlmodel import func

    order_id, (line_id,) = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": 2, "quantity": 1}]
    )
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)

    def quote(new_date: str, lang: str = "en", parent_id: int = pid) -> ChangeQuote:
        with session_scope(pay_engine) as s:
            return move.quote_move(
                session=s,
                parent_id=parent_id,
                order_line_id=line_id,
                new_date=new_date,
                lang=lang,
            )

    def changes() -> int:
        with session_scope(pay_engine) as s:
            return s.exec(select(func.count()).select_from(OrderChange)).one()

    before = changes()
    even = quote(monday_in(3).isoformat())
    assert even.difference_cents == 0 and even.to_pay_cents == even.to_refund_cents == 0
    set_meal_price(pay_engine, shop, 2000)
    dearer = quote(monday_in(3).isoformat())
    assert dearer.difference_cents > 0 and dearer.to_pay_cents == dearer.difference_cents
    set_meal_price(pay_engine, shop, 500)
    cheaper = quote(monday_in(4).isoformat(), "fr")
    back = -cheaper.difference_cents
    assert back > 0 and cheaper.to_refund_cents == back
    to_refund = quote_out(cheaper, "fr")["to_refund"]
    assert to_refund.endswith("$") and "," in to_refund  # 5,65 $
    assert changes() == before  # a quote writes nothing

    moved = await move.modify_meal(
        parent_id=pid,
        order_line_id=line_id,
        new_date=monday_in(4).isoformat(),
        request_key="quoted-move",
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert moved.status == "applied" and moved.difference_cents == -back
    assert order_sums(pay_engine, order_id) == (paid, back)
    assert _ledger(live_sim, pay_engine, order_id, "RETURN") == [back]

    for new_date, who, code in (
        (monday_in(4).isoformat(), pid, "order_change_same_date"),
        (
            monday_in(5).isoformat(),
            make_shop(pay_engine)["parent_id"],
            "order_change_line_not_found",
        ),
    ):
        with pytest.raises(DomainError) as info:
            quote(new_date, parent_id=who)
        assert info.value.code == code


async def test_two_moves_of_one_meal_at_once_refund_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    order_id, (line_id,) = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": 2, "quantity": 1}]
    )
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    set_meal_price(pay_engine, shop, 500)
    results = await asyncio.gather(
        *[
            asyncio.to_thread(
                in_new_loop,
                live_sim,
                move.modify_meal,
                parent_id=pid,
                order_line_id=line_id,
                new_date=monday_in(week).isoformat(),
                request_key=f"race-{week}",
                runtime=Runtime(engine=pay_engine),
            )
            for week in (3, 4)
        ]
    )
    applied = [r for r in results if isinstance(r, modify.ChangeResult)]
    assert applied, results
    refunded = sum(r.refund_cents for r in applied)
    assert refunded > 0 and [r.refund_cents > 0 for r in applied].count(True) == 1
    assert order_sums(pay_engine, order_id) == (paid, refunded)
    assert _ledger(live_sim, pay_engine, order_id, "RETURN") == [refunded]


async def test_a_move_racing_a_cancel_of_the_same_meal_refunds_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine)
    order_id, (line_id, keep_id) = await paid_order(
        pay_engine,
        gateway,
        live_sim,
        shop,
        [{"child": 0, "weeks": 2, "quantity": 1}, {"child": 1, "weeks": 3, "quantity": 1}],
    )
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    set_meal_price(pay_engine, shop, 500)  # the move would refund too
    moved, cancel = await asyncio.gather(
        asyncio.to_thread(
            in_new_loop,
            live_sim,
            move.modify_meal,
            parent_id=pid,
            order_line_id=line_id,
            new_date=monday_in(4).isoformat(),
            request_key="race-move",
            runtime=runtime,
        ),
        asyncio.to_thread(
            in_new_loop,
            live_sim,
            cancel_order.cancel_meal,
            parent_id=pid,
            order_line_id=line_id,
            reason_id=shop["reason_id"],
            request_key="race-cancel",
            runtime=runtime,
        ),
    )
    assert not isinstance(cancel, Exception), cancel
    if isinstance(moved, Exception):
        assert isinstance(moved, DomainError), moved  # the cancel came first
    _, refunded = order_sums(pay_engine, order_id)
    with session_scope(pay_engine) as s:
        assert s.get(OrderLine, line_id).status == "cancelled"
        assert s.get(OrderLine, keep_id).status == "active"
    # What is held is exactly what the meal that is left costs as sold: nothing refunded twice.
    assert 0 < refunded < paid
    assert _info(pay_engine, pid, order_id).quote.new_total_cents == paid - refunded
    assert sum(_ledger(live_sim, pay_engine, order_id, "RETURN")) == refunded


@pytest.mark.parametrize("size", [1, 12])
async def test_statement_count_does_not_grow_with_the_lines(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict, size: int
) -> None:
    lines = [{"child": 0, "weeks": 2, "quantity": 1}] if size == 1 else twelve_lines()
    order_id, ids = await paid_order(pay_engine, gateway, live_sim, shop, lines)
    pid = shop["parent_id"]
    with session_scope(pay_engine) as s:
        modify.delete_from_modify_order(
            session=s, parent_id=pid, order_id=order_id, order_line_id=ids[0]
        )
        modify.add_to_my_order(
            session=s,
            parent_id=pid,
            order_id=order_id,
            child_id=shop["children"][1],
            meal_id=shop["meal_id"],
            date=monday_in(2).isoformat(),
        )
    counts = {}
    with count_queries(pay_engine) as q:
        _info(pay_engine, pid, order_id)
    counts["info"] = q.count
    with count_queries(pay_engine) as q, session_scope(pay_engine) as s:
        move.get_meals_list(session=s, parent_id=pid)
    counts["meals"] = q.count
    with count_queries(pay_engine) as q:
        result = await modify.modify_confirm_order(
            parent_id=pid,
            order_id=order_id,
            request_key="qc",
            runtime=Runtime(engine=pay_engine, gateway=gateway),
        )
    counts["confirm"] = q.count
    assert result.status in ("applied", "pay")
    expected = _BUDGET.setdefault(pay_engine.dialect.name, counts)
    assert counts == expected, (size, counts, expected)


_BUDGET: dict[str, dict[str, int]] = {}


async def test_an_increase_paid_with_a_saved_card_at_once(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    from hotmeals.services import cards
    from tests.payments_support import MASTERCARD

    order_id, _ = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": 2, "quantity": 1}]
    )
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    session = await cards.start_add_card(parent_id=pid, runtime=runtime)
    token = lightbox_submit(live_sim, session.token, number=MASTERCARD)["response"]["ssl_token"]
    card = await cards.save_card(parent_id=pid, token=token, runtime=runtime)
    with session_scope(pay_engine) as s:
        due = modify.add_to_my_order(
            session=s,
            parent_id=pid,
            order_id=order_id,
            child_id=shop["children"][0],
            meal_id=shop["meal_id"],
            date=monday_in(5).isoformat(),
            size="large",
        ).quote.to_pay_cents
    result = await modify.modify_confirm_order(
        parent_id=pid,
        order_id=order_id,
        request_key="card-1",
        card_id=card.id,
        runtime=runtime,
    )
    assert result.status == "applied" and result.difference_cents == due > 0, result
    assert order_sums(pay_engine, order_id) == (paid + due, 0)
    with session_scope(pay_engine) as s:
        sizes = sorted(
            ln.size for ln in s.exec(select(OrderLine).where(OrderLine.order_id == order_id))
        )
    assert sizes == ["large", "small"]


async def test_a_change_whose_cutoff_passes_before_the_payment_is_dropped_and_voided(
    pay_engine: Engine,
    gateway: ConvergeClient,
    live_sim: SimServer,
    shop: dict,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    order_id, _ = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": 3, "quantity": 1}]
    )
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    with session_scope(pay_engine) as s:
        modify.add_to_my_order(
            session=s,
            parent_id=pid,
            order_id=order_id,
            child_id=shop["children"][0],
            meal_id=shop["meal_id"],
            date=monday_in(2).isoformat(),
        )
    started = await modify.modify_confirm_order(
        parent_id=pid, order_id=order_id, request_key="late", runtime=runtime
    )
    assert started.status == "pay"
    answer = lightbox_submit(live_sim, started.hosted.token)
    clock.set_now(past_cutoff(monday_in(2)))
    done = await modify.complete_change_payment(
        parent_id=pid,
        payment_id=started.payment_id,
        txn_id=answer["response"]["ssl_txn_id"],
        runtime=runtime,
    )
    assert done.status == "dropped" and "annulé" in change_message(done, "fr"), done
    due = started.difference_cents
    assert order_sums(pay_engine, order_id) == (paid + due, due)  # the change's charge is voided
    assert sim_txns(live_sim, started.hosted.invoice_number, "VOID")
    with session_scope(pay_engine) as s:
        assert len(s.exec(select(OrderLine).where(OrderLine.order_id == order_id)).all()) == 1
        assert change_payment.dropped_change_payments(s) == []
    assert await change_payment.void_dropped_change_payments(runtime=runtime) == []


async def test_a_failed_refund_of_a_move_is_sent_again_and_never_said_to_be_on_its_way(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    """A move to a cheaper day refunds with no cancellation row; when Converge
    refuses that refund it is sent again by the periodic job (it was never, before), and the
    answer says it is delayed, never 'will reach your card shortly'."""
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    from datetime import timedelta

    from hotmeals.services import payments

    order_id, (line_id,) = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": 2, "quantity": 1}]
    )
    pid = shop["parent_id"]
    paid, _ = order_sums(pay_engine, order_id)
    set_meal_price(pay_engine, shop, 500)
    live_sim.control("fault", kind="http_500")
    cheaper = await move.modify_meal(
        parent_id=pid,
        order_line_id=line_id,
        new_date=monday_in(3).isoformat(),
        request_key="move-fail",
        runtime=runtime,
    )
    back = -cheaper.difference_cents
    assert cheaper.status == "applied" and back > 0 and not cheaper.refund_ok, cheaper
    told = change_message(cheaper, "en")
    assert "shortly" not in told and "delayed" in told
    with session_scope(pay_engine) as s:
        [row] = s.exec(select(Refund).where(Refund.order_id == order_id)).all()
    assert row.cancellation_id is None
    view = await payments.reconcile_refund(refund_id=row.id, window=timedelta(0), runtime=runtime)
    assert view.state == "FAILED"
    assert order_sums(pay_engine, order_id) == (paid, 0)
    [again] = await payments.resend_failed_refunds(
        runtime=runtime.at(clock.now() + timedelta(minutes=3))
    )
    assert again.state == "SUCCEEDED" and again.amount_cents == back
    assert order_sums(pay_engine, order_id) == (paid, back)
    assert _ledger(live_sim, pay_engine, order_id, "RETURN") == [back]
    assert (
        await payments.resend_failed_refunds(runtime=runtime.at(clock.now() + timedelta(days=1)))
        == []
    )
