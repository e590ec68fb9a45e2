"""Planning and applying a change to a paid order, directly (the doors, modify and move, are
tested in tests/integration/test_order_changes.py), on SQLite and PostgreSQL with an order
paid against the simulator: ``change_plan.plan_change`` checks every step against the order as
it is and prices what is left on the order's stored terms, leaving a broken step out with its
reason (or raising it when strict); ``change_apply.apply_change`` writes what the plan says,
the removed meals as a cancellation of kind ``modify`` moved by the order lifecycle, a moved
meal as the same line on its new day; ``change_plan.quote_of`` says what an added meal costs,
family credit first."""

from __future__ import annotations

import json

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from hotmeals import clock
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    AuditEvent,
    Order,
    OrderCancellation,
    OrderChange,
    OrderChangeLine,
    OrderLine,
    Portion,
)
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import OrderStatus
from hotmeals.domain.refunds import refund_for_cancel
from hotmeals.i18n import t
from hotmeals.services.ordering.changing import change_apply, change_plan
from tests.orders_support import monday_in, paid_order
from tests.payments_support import SimServer

TWO_LINES = [{"child": 0, "weeks": 2, "quantity": 2}, {"child": 1, "weeks": 3, "quantity": 1}]


def _draft(session: Session, order: Order, steps: list[tuple[str, int, int]]) -> OrderChange:
    change = change_plan.new_change(session, order, kind=change_plan.MODIFY, now=clock.now())
    for action, line_id, quantity in steps:
        session.add(
            OrderChangeLine(
                change_id=change.id or 0, action=action, order_line_id=line_id, quantity=quantity
            )
        )
    session.flush()
    return change


async def test_a_plan_prices_what_is_left_and_names_the_step_it_cannot_take(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    order_id, (first, second) = await paid_order(pay_engine, gateway, live_sim, shop, TWO_LINES)
    with session_scope(pay_engine) as session:
        order = session.get(Order, order_id)
        assert order is not None
        change = _draft(session, order, [("remove", first, 1), ("remove", second, 5)])
        steps = change_plan.draft_steps(session, change.id)
        loaded = change_plan.load_for_change(session, order)

        plan, problems = change_plan.plan_change(
            session, loaded, steps, lang="fr", now=clock.now(), strict=False
        )
        # The second step asks for more meals than the line has: left out, said in French.
        assert list(problems) == [steps[1].id]
        assert problems[steps[1].id] == t("order_change_quantity_invalid", "fr", max=1)
        assert plan.removed == {first: 1}
        # Removing only never costs anything: the refund is a cancel's, from what was paid.
        assert plan.difference == -refund_for_cancel(
            plan.paid, plan.refunded, plan.charges.total_pay_cents
        )
        assert plan.difference < 0 and plan.charges.total_pay_cents < order.total_pay_cents

        with pytest.raises(DomainError) as strict:
            change_plan.plan_change(session, loaded, steps, lang="en", now=clock.now(), strict=True)
        assert strict.value.code == "order_change_quantity_invalid"


async def test_applying_a_plan_cancels_the_removed_meals_through_the_lifecycle(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    order_id, (first, second) = await paid_order(pay_engine, gateway, live_sim, shop, TWO_LINES)
    with session_scope(pay_engine) as session:
        order = session.get(Order, order_id)
        assert order is not None
        change = _draft(session, order, [("remove", first, 1), ("remove", second, 1)])
        loaded = change_plan.load_for_change(session, order)
        plan, problems = change_plan.plan_change(
            session,
            loaded,
            change_plan.draft_steps(session, change.id),
            lang="en",
            now=clock.now(),
            strict=True,
        )
        assert problems == {}
        cancellation_id = change_apply.apply_change(session, change, plan, clock.now())
    with session_scope(pay_engine) as session:
        lines = {
            line.id: line
            for line in session.exec(select(OrderLine).where(OrderLine.order_id == order_id))
        }
        assert (lines[first].cancelled_quantity, lines[first].status) == (1, "active")
        assert (lines[second].cancelled_quantity, lines[second].status) == (1, "cancelled")
        cancellation = session.get(OrderCancellation, cancellation_id)
        assert cancellation is not None and cancellation.kind == "modify"
        order = session.get(Order, order_id)
        assert order is not None and order.status == OrderStatus.PARTIALLY_CANCELLED
        assert session.get(OrderChange, change.id).state == change_plan.APPLIED
        events = session.exec(
            select(AuditEvent)
            .where(AuditEvent.entity == "order", AuditEvent.entity_id == str(order_id))
            .order_by(col(AuditEvent.id))
        ).all()
        moved = [json.loads(e.data) for e in events if e.kind == "order.lines_cancelled"]
        assert moved == [
            {
                "cancellation_id": cancellation_id,
                "lines": {str(first): 1, str(second): 1},
                "from": "placed",
                "to": "partially_cancelled",
            }
        ]
        assert events[-1].kind == "order.changed"


def _small_portion(session: Session, meal_id: int) -> int:
    portion = session.exec(
        select(Portion).where(Portion.meal_id == meal_id, Portion.size == "small")
    ).one()
    assert portion.id is not None
    return portion.id


async def test_a_plan_prices_an_added_meal_and_its_quote_takes_credit_first(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    order_id, _ = await paid_order(pay_engine, gateway, live_sim, shop, TWO_LINES)
    day = monday_in(4)
    with session_scope(pay_engine) as session:
        order = session.get(Order, order_id)
        assert order is not None
        change = change_plan.new_change(session, order, kind=change_plan.MODIFY, now=clock.now())
        session.add(
            OrderChangeLine(
                change_id=change.id or 0,
                action=change_plan.ADD,
                quantity=1,
                child_id=shop["children"][0],
                menu_day_id=shop["days"][(shop["schools"][0], day)],
                meal_id=shop["meal_id"],
                portion_id=_small_portion(session, shop["meal_id"]),
            )
        )
        session.flush()
        loaded = change_plan.load_for_change(session, order)
        plan, problems = change_plan.plan_change(
            session,
            loaded,
            change_plan.draft_steps(session, change.id),
            lang="en",
            now=clock.now(),
            strict=True,
        )
        assert problems == {} and plan.removed == {} and plan.moved == []
        [(step, checked)] = plan.added
        assert (step.action, checked.menu_day.meal_date, checked.quantity) == ("add", day, 1)
        # Nothing was refunded: the difference is the new total less what was paid, more
        # than the added meal alone (the tax on it comes too).
        assert (plan.paid, plan.refunded) == (order.total_pay_cents, 0)
        assert plan.difference == plan.charges.total_pay_cents - order.total_pay_cents
        assert plan.difference > checked.price.total_cents > 0

        quote = change_plan.quote_of(plan, credit_balance=100)
        assert (quote.to_pay_cents, quote.to_refund_cents) == (plan.difference, 0)
        assert (quote.credit_cents, quote.card_cents) == (100, plan.difference - 100)
        by_card = change_plan.quote_of(plan)
        assert (by_card.credit_cents, by_card.card_cents) == (0, plan.difference)


async def test_applying_a_move_takes_the_line_to_its_new_day_under_the_same_id(
    pay_engine: Engine, gateway: ConvergeClient, live_sim: SimServer, shop: dict
) -> None:
    order_id, [line_id] = await paid_order(
        pay_engine, gateway, live_sim, shop, [{"child": 0, "weeks": 2, "quantity": 1}]
    )
    target = shop["days"][(shop["schools"][0], monday_in(4))]
    with session_scope(pay_engine) as session:
        order = session.get(Order, order_id)
        assert order is not None
        change = change_plan.new_change(session, order, kind=change_plan.MOVE, now=clock.now())
        session.add(
            OrderChangeLine(
                change_id=change.id or 0,
                action=change_plan.MOVE_STEP,
                order_line_id=line_id,
                quantity=1,
                menu_day_id=target,
            )
        )
        session.flush()
        loaded = change_plan.load_for_change(session, order)
        plan, problems = change_plan.plan_change(
            session,
            loaded,
            change_plan.draft_steps(session, change.id),
            lang="en",
            now=clock.now(),
            strict=True,
        )
        assert problems == {} and plan.removed == {} and plan.added == []
        [(moved, checked)] = plan.moved
        assert (moved.id, checked.menu_day.id) == (line_id, target)
        # The same meal at the same catalogue price: nothing to pay, nothing to refund.
        assert plan.difference == 0
        assert change_apply.apply_change(session, change, plan, clock.now()) is None
    with session_scope(pay_engine) as session:
        line = session.get(OrderLine, line_id)
        assert line is not None
        assert (line.menu_day_id, line.meal_date, line.moved_from_date) == (
            target,
            monday_in(4),
            monday_in(2),
        )
        assert line.status == "active" and line.cancelled_quantity == 0
        order = session.get(Order, order_id)
        assert order is not None and order.status == OrderStatus.PLACED
        assert session.get(OrderChange, change.id).state == change_plan.APPLIED
        last = session.exec(
            select(AuditEvent)
            .where(AuditEvent.entity == "order", AuditEvent.entity_id == str(order_id))
            .order_by(col(AuditEvent.id).desc())
        ).first()
        assert last is not None and last.kind == "order.meal_moved"
        assert json.loads(last.data)["moved"] == [[line_id, monday_in(2).isoformat()]]
