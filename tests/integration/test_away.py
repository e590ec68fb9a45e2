"""A child away (services/away.py) on SQLite and PostgreSQL, with orders paid through the real
checkout against the Converge simulator: the preview shows what would be cancelled and the
total, nothing written; marking away cancels the children's meals before their cut-off with one
refund per order, once per request key; a meal past its cut-off is kept, and may be given to the
school (no refund; counted in the give-back figures)."""

# ruff: noqa: F811 - pytest fixtures are imported from the support modules

from __future__ import annotations

import asyncio
import dataclasses
import multiprocessing
from datetime import timedelta
from typing import Any

import pytest
from sqlmodel import col

from hotmeals import clock
from hotmeals.converge.converge import ConvergeClient
from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import MealDonation
from hotmeals.domain.errors import DomainError
from hotmeals.domain.money import format_money
from hotmeals.domain.orders import LineStatus
from hotmeals.domain.payment_states import RefundKind, RefundState
from hotmeals.services import away, credit, giveback
from hotmeals.services.ordering import queries
from hotmeals.services.runtime import Runtime
from tests.integration.meals_support import book, family, lines_of, refunds_of, rows_of
from tests.payments.conftest import sim, sim_server  # noqa: F401 - fixtures
from tests.payments.orders_after_support import past_cutoff
from tests.payments.service_support import gateway, live_sim, pay_engine  # noqa: F401
from tests.payments.support import PATIENT
from tests.querycount import count_queries


def preview(engine, fam, children, first, last, **extra) -> away.AwayPreview:
    with session_scope(engine) as s:
        return away.away_preview(
            session=s,
            parent_id=fam["parent_id"],
            child_ids=children,
            from_date=first.isoformat(),
            to_date=last.isoformat(),
            **extra,
        )


async def mark(engine, gw, fam, children, first, last, key="away-1", **extra) -> away.AwayDone:
    return await away.mark_away(
        parent_id=fam["parent_id"],
        child_ids=children,
        from_date=first.isoformat(),
        to_date=last.isoformat(),
        request_key=key,
        runtime=Runtime(engine=engine, gateway=gw),
        **extra,
    )


@pytest.mark.asyncio
async def test_marking_a_child_away_cancels_and_refunds_its_meals_once(
    pay_engine, gateway, live_sim
):
    fam = family(pay_engine, 2)
    order_id = await book(pay_engine, gateway, live_sim, fam, [fam["menu_day_id"], fam["later_id"]])
    first, last = fam["day"], fam["day"] + timedelta(days=7)
    kid = fam["children"][0]
    shown = preview(pay_engine, fam, [kid], first, last)
    assert [m.state for m in shown.meals] == ["cancel", "cancel"]
    assert shown.cancel_count == 2 and shown.refund_cents > 0
    assert shown.refund_to == "card"
    assert all(x.status == LineStatus.ACTIVE for x in lines_of(pay_engine, order_id))
    done = await mark(
        pay_engine, gateway, fam, [kid], first, last, expected_refund_cents=shown.refund_cents
    )
    assert (done.cancelled, done.refund_cents, done.repeated) == (
        2,
        shown.refund_cents,
        False,
    )
    assert done.card_cents == done.refund_cents and done.credit_cents == 0
    lines = lines_of(pay_engine, order_id)
    assert {(x.child_id, x.status) for x in lines} == {
        (kid, LineStatus.CANCELLED),
        (fam["children"][1], LineStatus.ACTIVE),
    }
    (refund,) = refunds_of(pay_engine, order_id)
    assert refund.state == RefundState.SUCCEEDED and refund.amount_cents == done.refund_cents
    # The same confirmation again: its first answer, nothing more refunded.
    again = await mark(pay_engine, gateway, fam, [kid], first, last)
    assert again.repeated and again.refund_cents == done.refund_cents
    assert len(refunds_of(pay_engine, order_id)) == 1
    # A new confirmation over the same days finds nothing left to cancel.
    with pytest.raises(DomainError) as err:
        await mark(pay_engine, gateway, fam, [kid], first, last, key="away-2")
    assert err.value.code == "away_nothing"


@pytest.mark.asyncio
async def test_a_changed_total_or_another_parents_child_is_refused(pay_engine, gateway, live_sim):
    fam = family(pay_engine)
    await book(pay_engine, gateway, live_sim, fam)
    other = family(pay_engine)
    day = fam["day"]
    with pytest.raises(DomainError) as err:
        await mark(pay_engine, gateway, fam, fam["children"], day, day, expected_refund_cents=1)
    assert err.value.code == "away_total_changed"
    for children in ([], other["children"], [True]):
        with pytest.raises(DomainError) as err:
            preview(pay_engine, fam, children, day, day)
        assert err.value.code in ("away_children_required", "child_not_found")
    with pytest.raises(DomainError) as err:
        preview(pay_engine, fam, fam["children"], day, day - timedelta(days=1))
    assert err.value.code == "away_range_invalid"
    yesterday = clock.today() - timedelta(days=1)  # a day gone by is not marked away
    with pytest.raises(DomainError) as err:
        preview(pay_engine, fam, fam["children"], yesterday, day)
    assert err.value.code == "away_range_past"


@pytest.mark.asyncio
async def test_away_refunds_to_family_credit_when_asked(pay_engine, gateway, live_sim):
    fam = family(pay_engine)
    order_id = await book(pay_engine, gateway, live_sim, fam)
    day = fam["day"]
    done = await mark(pay_engine, gateway, fam, fam["children"], day, day, refund_to="credit")
    assert done.credit_cents == done.refund_cents > 0 and done.card_cents == 0
    amount = format_money(done.refund_cents, "en")
    assert away.done_message(done, "en") == (  # where the money went, in the plural of the count
        f"Done: 1 meal cancelled. {amount} has been added to your family credit. It is used "
        "first at your next checkout."
    )
    (refund,) = refunds_of(pay_engine, order_id)
    assert refund.kind == RefundKind.CREDIT
    with session_scope(pay_engine) as s:
        assert credit.balance(s, fam["parent_id"]) == done.refund_cents


@pytest.mark.asyncio
async def test_a_meal_past_its_cutoff_is_kept_and_may_be_given_to_the_school(
    pay_engine, gateway, live_sim, monkeypatch
):
    fam = family(pay_engine)
    order_id = await book(pay_engine, gateway, live_sim, fam, [fam["menu_day_id"], fam["later_id"]])
    first, last = fam["day"], fam["day"] + timedelta(days=7)
    clock.set_now(past_cutoff(fam["day"]))
    shown = preview(pay_engine, fam, fam["children"], first, last)
    assert [m.state for m in shown.meals] == ["past", "cancel"]
    past_line = shown.meals[0].order_line_id
    with pytest.raises(DomainError) as err:  # a meal before its cut-off is cancelled, not given
        await mark(
            pay_engine,
            gateway,
            fam,
            fam["children"],
            first,
            last,
            donate_line_ids=[shown.meals[1].order_line_id],
        )
    assert err.value.code == "away_donate_not_allowed"
    done = await mark(
        pay_engine,
        gateway,
        fam,
        fam["children"],
        first,
        last,
        donate_line_ids=[past_line],
        expected_refund_cents=shown.refund_cents,
    )
    assert (done.cancelled, done.donated) == (1, 1)
    message = away.done_message(done, "en")
    assert message.startswith("Done: 1 meal cancelled. A refund of ")
    assert message.endswith(
        " Thank you: 1 meal is given to the school's student-nutrition program."
    )
    french = away.done_message(
        dataclasses.replace(done, cancelled=0), "fr"
    )  # a gift alone: the thanks
    assert french == "Merci : 1 repas est donné au programme de nutrition des élèves de l'école."
    kept = next(x for x in lines_of(pay_engine, order_id) if x.id == past_line)
    assert kept.status == LineStatus.ACTIVE  # delivered: the school's program has it
    (gift,) = rows_of(pay_engine, MealDonation, col(MealDonation.order_line_id) == past_line)
    assert gift.value_cents == kept.line_total_cents and gift.school_id == fam["school_id"]
    again = preview(pay_engine, fam, fam["children"], first, first)
    assert [m.state for m in again.meals] == ["donated"]
    with session_scope(pay_engine) as s:  # the order's details say where the meal went
        shown = queries.order_detail(s, parent_id=fam["parent_id"], order_id=order_id)
    labels = {x.order_line_id: x.state_label for x in shown.lines}
    assert labels[past_line] == "Given to the school's student-nutrition program"
    with session_scope(pay_engine) as s:
        figures = giveback.family_giveback(session=s, parent_id=fam["parent_id"])
    (school,) = [x for x in figures.schools if x.school_id == fam["school_id"]]
    assert school.donation_cents == gift.value_cents  # in the give-back figures


@pytest.mark.parametrize("children", [1, 10])
@pytest.mark.asyncio
async def test_the_preview_is_a_fixed_number_of_statements(pay_engine, gateway, live_sim, children):
    fam = family(pay_engine, children)
    await book(pay_engine, gateway, live_sim, fam)
    with count_queries(pay_engine) as queries:
        shown = preview(pay_engine, fam, fam["children"], fam["day"], fam["day"])
    assert shown.cancel_count == children
    assert queries.count == 12, queries.report()


def _marker(url: str, settings: Any, kwargs: dict, barrier: Any, out: Any) -> None:
    engine = make_engine(url)

    async def main() -> Any:
        async with ConvergeClient(settings, timeout=PATIENT) as client:
            barrier.wait(timeout=60)
            return await away.mark_away(runtime=Runtime(engine=engine, gateway=client), **kwargs)

    try:
        done = asyncio.run(main())
        out.put(("ok", done.repeated, done.refund_cents))
    except Exception as exc:  # noqa: BLE001 - the test reads what each process got
        out.put(("error", getattr(exc, "code", repr(exc)), 0))
    finally:
        engine.dispose()


@pytest.mark.asyncio
async def test_the_same_confirmation_sent_by_two_processes_at_once_refunds_once(
    pay_engine, gateway, live_sim
):
    fam = family(pay_engine, 2)
    order_id = await book(pay_engine, gateway, live_sim, fam)
    url = pay_engine.url.render_as_string(hide_password=False)
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(2)
    out = context.Queue()
    pay_engine.dispose()  # no pooled connection crosses the fork
    kwargs = {
        "parent_id": fam["parent_id"],
        "child_ids": fam["children"],
        "from_date": fam["day"].isoformat(),
        "to_date": fam["day"].isoformat(),
        "request_key": "away-race",
    }
    processes = [
        context.Process(target=_marker, args=(url, live_sim.settings, kwargs, barrier, out))
        for _ in range(2)
    ]
    for process in processes:
        process.start()
    try:
        results = sorted(out.get(timeout=180) for _ in processes)
    finally:
        for process in processes:
            process.join(timeout=60)
    # One applied it, the other got its answer; one refund.
    assert [(r[0], r[1]) for r in results] == [("ok", False), ("ok", True)], results
    assert results[0][2] == results[1][2] > 0
    (refund,) = refunds_of(pay_engine, order_id)
    assert refund.amount_cents == results[0][2]
