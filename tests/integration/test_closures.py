"""School closures (services/closures.py, closure_apply.py) on SQLite and PostgreSQL, with orders
paid through the real checkout against the Converge simulator: each booked meal of a closed day
is handled by the family's choice (refund to the card or to credit, a make-up meal, the card
when no day serves the meal), once however often the day is closed, and two processes closing
it at once (what two workers are) handle each meal once."""

# ruff: noqa: F811 - pytest fixtures are imported from the support modules

from __future__ import annotations

import asyncio
import multiprocessing
from datetime import date, timedelta
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from hotmeals import clock
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import (
    ClosureMeal,
    EmailOutbox,
    MenuDay,
    Parent,
    SchoolClosure,
)
from hotmeals.domain.credit import ClosureChoice
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import LineStatus
from hotmeals.domain.payment_states import RefundKind, RefundState
from hotmeals.services import closure_apply, closures, credit
from hotmeals.services.ordering import cart, days
from hotmeals.services.runtime import Runtime
from tests.integration.meals_support import book, choose, family, lines_of, refunds_of, rows_of
from tests.mailparts import received
from tests.payments.conftest import sim, sim_server  # noqa: F401 - fixtures
from tests.payments.service_support import gateway, live_sim, pay_engine  # noqa: F401
from tests.payments.support import PATIENT
from tests.querycount import count_queries


def mails_to(engine: Engine, parent_id: int) -> list[EmailOutbox]:
    with session_scope(engine) as s:
        parent = s.get(Parent, parent_id)
        assert parent is not None
        email = parent.email
    return rows_of(
        engine,
        EmailOutbox,
        col(EmailOutbox.to_address) == email,
        col(EmailOutbox.kind) == "school_closed",
    )


async def close(engine: Engine, gw: ConvergeClient, fam: dict, day: date | None = None):
    return await closure_apply.close_day(
        school=str(fam["school_id"]),
        day=(day or fam["day"]).isoformat(),
        reason="storm",
        runtime=Runtime(engine=engine, gateway=gw),
    )


@pytest.mark.asyncio
async def test_a_closed_day_refunds_each_meal_to_the_card_once(pay_engine, gateway, live_sim):
    fam = family(pay_engine)
    order_id = await book(pay_engine, gateway, live_sim, fam)
    result = await close(pay_engine, gateway, fam)
    assert (result.meals, result.families, result.made_up) == (1, 1, 0)
    assert result.outcomes == {"card": 1} and result.refund_failures == 0
    (line,) = lines_of(pay_engine, order_id)
    assert line.status == LineStatus.CANCELLED
    (refund,) = refunds_of(pay_engine, order_id)
    assert refund.state == RefundState.SUCCEEDED
    assert refund.amount_cents == result.refunded_cents > 0
    (mail,) = mails_to(pay_engine, fam["parent_id"])
    assert "Storm" in mail.body_text and "refunded to your card" in mail.body_text
    got, html = received(mail)  # as the parent's mail program gets it: each meal's fate
    assert got.content_type == "multipart/alternative" and html.lang == "en"
    assert len(html.items) == 1 and "refunded to your card" in html.items[0]
    # The day shows closed with its reason, and cannot be booked.
    with session_scope(pay_engine) as s:
        shown = days.get_dates(
            session=s,
            parent_id=fam["parent_id"],
            child_id=fam["children"][0],
            from_date=fam["day"].isoformat(),
            to_date=fam["day"].isoformat(),
            lang="fr",
        ).days
        assert [(d.is_closed, d.closed_reason, d.is_open) for d in shown] == [
            (True, "Tempête", False)
        ]
        with pytest.raises(DomainError) as err:
            cart.add_to_cart(
                session=s,
                parent_id=fam["parent_id"],
                child_id=fam["children"][0],
                meal_id=fam["meal_id"],
                menu_day_id=fam["menu_day_id"],
            )
        assert err.value.code == "menu_day_closed"
    # Closed again: nothing more is handled, refunded or e-mailed.
    again = await close(pay_engine, gateway, fam)
    assert (again.meals, again.refunded_cents, again.closure_id) == (0, 0, result.closure_id)
    assert len(refunds_of(pay_engine, order_id)) == 1
    assert len(mails_to(pay_engine, fam["parent_id"])) == 1


@pytest.mark.asyncio
async def test_a_makeup_meal_moves_to_the_next_served_day_at_no_cost(pay_engine, gateway, live_sim):
    runtime = Runtime(engine=pay_engine)
    fam = family(pay_engine)
    choose(pay_engine, fam, "makeup")
    order_id = await book(pay_engine, gateway, live_sim, fam)
    (before,) = lines_of(pay_engine, order_id)
    result = await close(pay_engine, gateway, fam)
    assert result.outcomes == {"makeup": 1} and result.refunded_cents == 0
    (line,) = lines_of(pay_engine, order_id)
    assert line.status == LineStatus.ACTIVE and line.id == before.id
    assert (line.meal_date, line.moved_from_date) == (fam["day"] + timedelta(days=7), fam["day"])
    assert line.menu_day_id == fam["later_id"]
    assert line.line_total_cents == before.line_total_cents  # what it was sold at
    assert refunds_of(pay_engine, order_id) == []
    (mail,) = mails_to(pay_engine, fam["parent_id"])
    assert "moved to" in mail.body_text
    # Reopened: bookable again; the make-up meal stays where it went.
    done = await closures.reopen_day(
        school=fam["school"], day=fam["day"].isoformat(), runtime=runtime
    )
    assert done.day == fam["day"]
    with session_scope(pay_engine) as s:
        menu_day = s.get(MenuDay, fam["menu_day_id"])
        assert menu_day is not None and not menu_day.is_closed
        closure = s.exec(select(SchoolClosure)).all()
        assert all(c.reopened_at is not None for c in closure if c.school_id == fam["school_id"])
    (line,) = lines_of(pay_engine, order_id)
    assert line.meal_date == fam["day"] + timedelta(days=7)
    with pytest.raises(DomainError) as err:
        await closures.reopen_day(
            school=str(fam["school_id"]), day=fam["day"].isoformat(), runtime=runtime
        )
    assert err.value.code == "closure_not_found"


@pytest.mark.asyncio
async def test_a_makeup_with_no_day_serving_the_meal_refunds_the_card_and_says_so(
    pay_engine, gateway, live_sim
):
    fam = family(pay_engine, served_after=False)
    choose(pay_engine, fam, "makeup")
    order_id = await book(pay_engine, gateway, live_sim, fam)
    result = await close(pay_engine, gateway, fam)
    assert result.outcomes == {"makeup_card": 1} and result.refunded_cents > 0
    (line,) = lines_of(pay_engine, order_id)
    assert line.status == LineStatus.CANCELLED
    (mail,) = mails_to(pay_engine, fam["parent_id"])
    assert "no later day serves this meal" in mail.body_text


@pytest.mark.asyncio
async def test_a_family_that_chose_credit_gets_it_at_once_and_no_card_refund(
    pay_engine, gateway, live_sim
):
    fam = family(pay_engine, 2)
    choose(pay_engine, fam, "credit")
    order_id = await book(pay_engine, gateway, live_sim, fam)
    result = await close(pay_engine, gateway, fam)
    assert result.outcomes == {"credit": 2} and result.refunded_cents == 0
    (refund,) = refunds_of(pay_engine, order_id)
    assert refund.kind == RefundKind.CREDIT and refund.state == RefundState.SUCCEEDED
    assert result.credited_cents == refund.amount_cents > 0
    with session_scope(pay_engine) as s:
        assert credit.balance(s, fam["parent_id"]) == refund.amount_cents
    (mail,) = mails_to(pay_engine, fam["parent_id"])
    assert mail.body_text.count("added to your family credit") == 2
    again = await close(pay_engine, gateway, fam)
    assert (again.meals, again.credited_cents) == (0, 0)
    with session_scope(pay_engine) as s:
        assert credit.balance(s, fam["parent_id"]) == refund.amount_cents


def test_the_closure_choice_is_a_setting_with_the_card_by_default(pay_engine):
    fam = family(pay_engine)
    with session_scope(pay_engine) as s:
        shown = closures.closure_choice(session=s, parent_id=fam["parent_id"])
        assert shown is ClosureChoice.CARD
        with pytest.raises(DomainError) as err:
            closures.choose_closure(session=s, parent_id=fam["parent_id"], closure_choice="cash")
        assert err.value.code == "closure_choice_invalid"
    choose(pay_engine, fam, "makeup")
    with session_scope(pay_engine) as s:
        assert closures.closure_choice(s, fam["parent_id"]).value == "makeup"


def test_an_unknown_school_or_a_missing_reason_is_refused(pay_engine):
    with session_scope(pay_engine) as s, pytest.raises(DomainError) as err:
        closures.close_school_day(
            s, school="No Such School", day="2030-01-07", reason="storm", actor="t"
        )
    assert err.value.code == "closure_school_not_found"
    fam = family(pay_engine)
    with session_scope(pay_engine) as s, pytest.raises(DomainError) as err:
        closures.close_school_day(
            s, school=str(fam["school_id"]), day="2030-01-07", reason=" ", actor="t"
        )
    assert err.value.code == "closure_reason_required"


@pytest.mark.parametrize("children", [1, 10])
@pytest.mark.asyncio
async def test_handling_a_family_is_a_fixed_number_of_statements(
    pay_engine, gateway, live_sim, children
):
    fam = family(pay_engine, children)
    await book(pay_engine, gateway, live_sim, fam)
    with session_scope(pay_engine) as s:
        closure_id = closures.close_school_day(
            s,
            school=str(fam["school_id"]),
            day=fam["day"].isoformat(),
            reason="strike",
            actor="t",
        )
    with session_scope(pay_engine) as s, count_queries(pay_engine) as queries:
        result = closure_apply.handle_family(
            s, closure_id=closure_id, parent_id=fam["parent_id"], now=clock.now()
        )
    assert len(result.handled) == children
    # Whatever the number of meals: the same statements (no query per meal).
    expected = {"sqlite": 37, "postgresql": 35}[pay_engine.dialect.name]
    assert queries.count == expected, queries.report()
    with session_scope(pay_engine) as s:
        rows = s.exec(select(ClosureMeal).where(col(ClosureMeal.closure_id) == closure_id)).all()
        assert len(rows) == children


def _closer(url: str, settings: Any, kwargs: dict, barrier: Any, out: Any) -> None:
    engine = make_engine(url)

    async def main() -> Any:
        async with ConvergeClient(settings, timeout=PATIENT) as client:
            barrier.wait(timeout=60)
            return await closure_apply.close_day(
                runtime=Runtime(engine=engine, gateway=client), **kwargs
            )

    try:
        out.put(("ok", asyncio.run(main()).meals))
    except Exception as exc:  # noqa: BLE001 - the test reads what each process got
        out.put(("error", getattr(exc, "code", repr(exc))))
    finally:
        engine.dispose()


@pytest.mark.asyncio
async def test_two_processes_closing_the_same_day_handle_each_meal_once(
    pay_engine, gateway, live_sim
):
    fam = family(pay_engine, 3)
    order_id = await book(pay_engine, gateway, live_sim, fam)
    url = pay_engine.url.render_as_string(hide_password=False)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(2)
    out = context.Queue()
    pay_engine.dispose()  # no pooled connection crosses the fork
    kwargs = {"school": str(fam["school_id"]), "day": fam["day"].isoformat(), "reason": "storm"}
    processes = [
        context.Process(target=_closer, args=(url, live_sim.settings, kwargs, barrier, out))
        for _ in range(2)
    ]
    for process in processes:
        process.start()
    try:
        results = sorted(out.get(timeout=180) for _ in processes)
    finally:
        for process in processes:
            process.join(timeout=60)
    # Both succeed; the meals are handled once between them.
    assert [r[0] for r in results] == ["ok", "ok"], results
    assert sum(r[1] for r in results) == 3, results
    refunds = refunds_of(pay_engine, order_id)
    assert len(refunds) == 1 and refunds[0].state == RefundState.SUCCEEDED
    assert len(mails_to(pay_engine, fam["parent_id"])) == 1
    with session_scope(pay_engine) as s:
        assert (
            len(s.exec(select(ClosureMeal).where(ClosureMeal.parent_id == fam["parent_id"])).all())
            == 3
        )


def test_the_operator_command_closes_and_reopens_a_day(pay_engine, capsys):
    from hotmeals import admin

    fam = family(pay_engine)
    url = ["--database-url", pay_engine.url.render_as_string(hide_password=False)]
    day = ["--school", fam["school"], "--date", fam["day"].isoformat()]
    assert admin.main([*url, "close-day", *day, "--reason", "pa_day"]) == 0
    assert f"{fam['school']} closed on {fam['day'].isoformat()} (pa_day): 0 meals" in (
        capsys.readouterr().out
    )
    with session_scope(pay_engine) as s:
        menu_day = s.get(MenuDay, fam["menu_day_id"])
        assert menu_day is not None and menu_day.closed_reason_fr == "Journée pédagogique"
    assert admin.main([*url, "reopen-day", *day]) == 0
    assert "is open again" in capsys.readouterr().out
    assert admin.main([*url, "reopen-day", *day]) == 1
    assert "is not closed on" in capsys.readouterr().err
    assert (
        admin.main(
            [*url, "close-day", "--school", "Nowhere", "--date", "2031-01-06", "--reason", "storm"]
        )
        == 1
    )


@pytest.mark.asyncio
async def test_a_family_with_meals_in_two_orders_gets_both_refunds_and_one_email(
    pay_engine, gateway, live_sim
):
    from hotmeals.services.ordering.cancelling import cancel_cart

    fam = family(pay_engine, 2)
    first = await book(pay_engine, gateway, live_sim, {**fam, "children": fam["children"][:1]})
    second = await book(pay_engine, gateway, live_sim, {**fam, "children": fam["children"][1:]})
    (line,) = lines_of(pay_engine, first)
    with session_scope(pay_engine) as s:  # a meal waiting in the cancel cart
        cancel_cart.add_to_cancel_cart(
            session=s, parent_id=fam["parent_id"], order_line_id=line.id, quantity=1
        )
    result = await close(pay_engine, gateway, fam)
    assert (result.meals, result.families, result.outcomes) == (2, 1, {"card": 2})
    assert len(refunds_of(pay_engine, first)) == len(refunds_of(pay_engine, second)) == 1
    (mail,) = mails_to(pay_engine, fam["parent_id"])
    assert mail.body_text.count("refunded to your card") == 2
    with session_scope(pay_engine) as s:
        assert cancel_cart.cancel_cart_count(session=s, parent_id=fam["parent_id"]) == 0
