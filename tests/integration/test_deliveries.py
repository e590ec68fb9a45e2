"""A school day's delivery confirmed (services/deliveries.py) on SQLite and PostgreSQL, with
orders paid through the real checkout against the Converge simulator: refused before the day;
the day's meals move to delivered through the lifecycle, once (a second confirmation answers
the first); an order with meals on later days stays placed until its last one is delivered; a
delivered meal is never cancelled, moved, refunded or made up (a cancel of the rest leaves the
order delivered, days away and a closure leave it as it is); the give-back, the calendar
feed and Book meal's calendar count it, and repeat a week copies it; two confirmations at once
write one; the operator's command; a fixed number of statements whatever the number of
orders."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest
from icalendar import Calendar
from sqlmodel import col, select

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import AuditEvent, CancelReason, DayDelivery, Order, OrderLine
from hotmeals.domain.errors import DomainError
from hotmeals.domain.orders import LineStatus, OrderStatus
from hotmeals.services import away, calendar_feed, closure_apply, deliveries, giveback
from hotmeals.services.ordering import days, lifecycle, queries
from hotmeals.services.ordering.cancelling import cancel_cart, cancel_order
from hotmeals.services.ordering.cancelling.refund_plan import refund_plan
from hotmeals.services.ordering.changing import move
from hotmeals.services.ordering.loaded_order import load_order
from hotmeals.services.runtime import Runtime
from tests.integration.meals_support import book, family, lines_of, refunds_of, rows_of
from tests.querycount import count_queries


def noon(day: date) -> datetime:
    """Midday in Toronto on ``day`` (17:00 UTC in winter, 16:00 in summer: both that day)."""
    return datetime(day.year, day.month, day.day, 16, 30, tzinfo=UTC)


async def confirm(engine, fam, day: date, vendor: str = "") -> deliveries.DayDelivered:
    return await deliveries.confirm_delivery(
        school=str(fam["school_id"]),
        day=day.isoformat(),
        vendor=vendor,
        actor="operator:test",
        runtime=Runtime(engine=engine),
    )


def order_of(engine, order_id: int) -> Order:
    (order,) = rows_of(engine, Order, col(Order.id) == order_id)
    return order


def statuses(engine, order_id: int) -> dict[date, list[str]]:
    out: dict[date, list[str]] = {}
    for line in lines_of(engine, order_id):
        out.setdefault(line.meal_date, []).append(line.status)
    return out


def reason_id(engine) -> int:
    with session_scope(engine) as s:
        found = s.exec(select(CancelReason).where(col(CancelReason.is_other).is_(False))).first()
        if found is None:
            found = CancelReason(code="plans", label_en="Plans changed", label_fr="Autres plans")
            s.add(found)
            s.flush()
        return int(found.id or 0)


@pytest.mark.asyncio
async def test_a_delivery_is_refused_before_its_day_in_toronto(pay_engine, gateway, live_sim):
    fam = family(pay_engine)
    order_id = await book(pay_engine, gateway, live_sim, fam)
    day = fam["day"]
    # 23:30 the evening before in Toronto is already the day in UTC: still refused
    clock.set_now(datetime(day.year, day.month, day.day, 4, 30, tzinfo=UTC))
    with pytest.raises(DomainError) as info:
        await confirm(pay_engine, fam, day)
    assert info.value.code == "delivery_too_early"
    before = (day - timedelta(days=1)).isoformat()
    assert info.value.message("en") == (
        f"The meals of {day.isoformat()} can be confirmed as delivered from that day on "
        f"(it is {before} in Toronto)."
    )
    assert info.value.message("fr").startswith(f"Les repas du {day.isoformat()} peuvent")
    assert rows_of(pay_engine, DayDelivery, col(DayDelivery.school_id) == fam["school_id"]) == []
    assert order_of(pay_engine, order_id).status == OrderStatus.PLACED


@pytest.mark.asyncio
async def test_confirming_delivers_the_days_meals_once_and_again_answers_the_first(
    pay_engine, gateway, live_sim
):
    fam = family(pay_engine, 2)
    order_id = await book(pay_engine, gateway, live_sim, fam)
    clock.set_now(noon(fam["day"]))
    done = await confirm(pay_engine, fam, fam["day"])
    assert (done.school, done.day, done.meals, done.orders_delivered) == (
        fam["school"],
        fam["day"],
        2,
        1,
    )
    (vendor,) = done.vendors
    assert (vendor.meals, vendor.confirmed_by, vendor.repeated) == (2, "operator:test", False)
    assert vendor.confirmed_at == noon(fam["day"])
    assert order_of(pay_engine, order_id).status == OrderStatus.DELIVERED
    assert statuses(pay_engine, order_id) == {fam["day"]: ["delivered", "delivered"]}
    with session_scope(pay_engine) as s:
        events = [
            (e.kind, json.loads(e.data))
            for e in s.exec(
                select(AuditEvent)
                .where(col(AuditEvent.entity_id) == str(order_id), AuditEvent.entity == "order")
                .order_by(col(AuditEvent.id))
            ).all()
        ]
    assert [kind for kind, _ in events][-2:] == ["order.lines_delivered", "order.delivered"]
    assert events[-1][1]["from"] == "placed" and events[-1][1]["to"] == "delivered"

    clock.set_now(noon(fam["day"]) + timedelta(hours=3))
    again = await confirm(pay_engine, fam, fam["day"], vendor=vendor.vendor)
    assert again.repeated and again.meals == 2 and again.orders_delivered == 1
    assert again.vendors[0].confirmed_at == vendor.confirmed_at  # the first confirmation
    assert (
        len(rows_of(pay_engine, DayDelivery, col(DayDelivery.school_id) == fam["school_id"])) == 1
    )


@pytest.mark.asyncio
async def test_an_order_with_meals_on_later_days_stays_placed_until_its_last_day(
    pay_engine, gateway, live_sim
):
    fam = family(pay_engine)
    later = fam["day"] + timedelta(days=7)
    order_id = await book(pay_engine, gateway, live_sim, fam, [fam["menu_day_id"], fam["later_id"]])
    clock.set_now(noon(fam["day"]))
    done = await confirm(pay_engine, fam, fam["day"])
    assert (done.meals, done.orders_delivered) == (1, 0)
    assert order_of(pay_engine, order_id).status == OrderStatus.PLACED
    assert statuses(pay_engine, order_id) == {fam["day"]: ["delivered"], later: ["active"]}
    with session_scope(pay_engine) as s:  # the parent's side: this meal delivered, the order not
        shown = queries.order_detail(s, parent_id=fam["parent_id"], order_id=order_id, lang="fr")
    assert shown.status == "placed" and shown.status_label == "Confirmée"
    assert [(x.state, x.state_label) for x in shown.lines] == [
        ("delivered", "Livré"),
        ("active", "Actif"),
    ]
    clock.set_now(noon(later))
    assert (await confirm(pay_engine, fam, later)).orders_delivered == 1
    assert order_of(pay_engine, order_id).status == OrderStatus.DELIVERED
    with session_scope(pay_engine) as s:
        shown = queries.order_detail(s, parent_id=fam["parent_id"], order_id=order_id, lang="fr")
        past = queries.order_history(s, parent_id=fam["parent_id"], tab="past", lang="en")
    assert (shown.status, shown.status_label) == ("delivered", "Livrée")
    assert [o.status_label for o in past.orders if o.order_id == order_id] == ["Delivered"]


@pytest.mark.asyncio
async def test_a_partly_cancelled_order_delivered_stays_delivered_when_its_rest_is_cancelled(
    pay_engine, gateway, live_sim
):
    fam = family(pay_engine, 2)
    later = fam["day"] + timedelta(days=7)
    order_id = await book(pay_engine, gateway, live_sim, fam, [fam["menu_day_id"], fam["later_id"]])
    runtime = Runtime(engine=pay_engine, gateway=gateway)
    common = {"parent_id": fam["parent_id"], "reason_id": reason_id(pay_engine)}
    first_day = [x for x in lines_of(pay_engine, order_id) if x.meal_date == fam["day"]]
    await cancel_order.cancel_meal(
        order_line_id=first_day[0].id, request_key="one", runtime=runtime, **common
    )
    assert order_of(pay_engine, order_id).status == OrderStatus.PARTIALLY_CANCELLED
    clock.set_now(noon(fam["day"]))
    assert (await confirm(pay_engine, fam, fam["day"])).meals == 1
    assert order_of(pay_engine, order_id).status == OrderStatus.PARTIALLY_CANCELLED
    # a delivered meal is refused by name, wherever the parent tries
    delivered = first_day[1].id
    with pytest.raises(DomainError) as info:
        await cancel_order.cancel_meal(
            order_line_id=delivered, request_key="two", runtime=runtime, **common
        )
    assert info.value.code == "meal_delivered"
    assert info.value.message("en").startswith("This meal was delivered on Monday, ")
    with session_scope(pay_engine) as s, pytest.raises(DomainError) as info:
        cancel_cart.add_to_cancel_cart(
            s, parent_id=fam["parent_id"], order_line_id=delivered, lang="fr"
        )
    assert info.value.message("fr").startswith("Ce repas a été livré le lundi ")
    with session_scope(pay_engine) as s, pytest.raises(DomainError) as info:
        move.meal_order_detail(session=s, parent_id=fam["parent_id"], order_line_id=delivered)
    assert info.value.code == "meal_delivered"
    # the later meals (before their cut-off) cancelled: the order is delivered, not cancelled,
    # and its delivered meal was not refunded
    clock.set_now(noon(later) - timedelta(days=3))
    for n, line in enumerate(x for x in lines_of(pay_engine, order_id) if x.meal_date == later):
        await cancel_order.cancel_meal(
            order_line_id=line.id, request_key=f"later-{n}", runtime=runtime, **common
        )
    order = order_of(pay_engine, order_id)
    assert order.status == OrderStatus.DELIVERED
    assert statuses(pay_engine, order_id) == {
        fam["day"]: ["cancelled", "delivered"],
        later: ["cancelled", "cancelled"],
    }
    refunded = sum(r.amount_cents for r in refunds_of(pay_engine, order_id))
    with session_scope(pay_engine) as s:
        loaded = load_order(s, order_id=order_id, parent_id=None)
        assert refund_plan(loaded, {}).refund_cents == 0  # nothing more is owed back
        (kept,) = loaded.kept_lines()
    assert kept.id == delivered
    assert order.total_pay_cents - refunded >= kept.line_total_cents


@pytest.mark.asyncio
async def test_a_child_marked_away_after_delivery_stays_delivered_with_no_refund(
    pay_engine, gateway, live_sim
):
    fam = family(pay_engine)
    order_id = await book(pay_engine, gateway, live_sim, fam)
    clock.set_now(noon(fam["day"]))
    await confirm(pay_engine, fam, fam["day"])
    done = await away.mark_away(
        parent_id=fam["parent_id"],
        child_ids=fam["children"],
        from_date=fam["day"].isoformat(),
        to_date=fam["day"].isoformat(),
        request_key="away-after",
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert (done.cancelled, done.refund_cents) == (0, 0)
    assert refunds_of(pay_engine, order_id) == []
    assert statuses(pay_engine, order_id) == {fam["day"]: ["delivered"]}
    assert order_of(pay_engine, order_id).status == OrderStatus.DELIVERED
    # nor does a closure of the day decided afterwards
    closed = await closure_apply.close_day(
        school=str(fam["school_id"]),
        day=fam["day"].isoformat(),
        reason="storm",
        runtime=Runtime(engine=pay_engine, gateway=gateway),
    )
    assert closed.meals == 0
    assert statuses(pay_engine, order_id) == {fam["day"]: ["delivered"]}


@pytest.mark.asyncio
async def test_the_give_back_and_the_calendar_feed_count_delivered_meals(
    pay_engine, gateway, live_sim
):
    fam = family(pay_engine, 2)
    await book(pay_engine, gateway, live_sim, fam)
    with session_scope(pay_engine) as s:
        before = giveback.family_giveback(session=s, parent_id=fam["parent_id"])
        url = calendar_feed.get_feed(s, parent_id=fam["parent_id"]).url
    token = url.partition("?")[0].rsplit("/", 1)[1].removesuffix(".ics")
    clock.set_now(noon(fam["day"]))
    await confirm(pay_engine, fam, fam["day"])
    with session_scope(pay_engine) as s:
        after = giveback.family_giveback(session=s, parent_id=fam["parent_id"])
        body = calendar_feed.build_feed(s, token=token)
    assert before.meals == 2 and after.meals == 2
    assert after.school_cents == before.school_cents > 0
    assert body is not None
    events = Calendar.from_ical(body).walk("VEVENT")
    assert len([e for e in events if "Pasta" in str(e["SUMMARY"])]) == 2
    with session_scope(pay_engine) as s:  # Book meal's calendar: the day is still ordered
        shown = days.get_dates(
            session=s,
            parent_id=fam["parent_id"],
            child_id=fam["children"][0],
            from_date=fam["day"].isoformat(),
            to_date=fam["day"].isoformat(),
        )
    assert [d.ordered_quantity for d in shown.days] == [1]


@pytest.mark.asyncio
async def test_a_stale_copy_of_a_line_delivered_meanwhile_is_refused(pay_engine, gateway, live_sim):
    fam = family(pay_engine)
    order_id = await book(pay_engine, gateway, live_sim, fam)
    clock.set_now(noon(fam["day"]))
    with session_scope(pay_engine) as stale:
        order = stale.get(Order, order_id)
        lines = list(stale.exec(select(OrderLine).where(OrderLine.order_id == order_id)).all())
        stale.commit()  # its copies stay, its read transaction ends
        await confirm(pay_engine, fam, fam["day"])
        assert order is not None and lines[0].status == LineStatus.ACTIVE
        with pytest.raises(DomainError) as info:
            lifecycle.deliver_lines(
                stale, [order], lines, {lines[0].id or 0}, now=clock.now(), actor="x", data={}
            )
        assert info.value.code == "invalid_line_transition"
        stale.rollback()
    assert [
        e.kind for e in rows_of(pay_engine, AuditEvent, AuditEvent.entity_id == str(order_id))
    ].count("order.lines_delivered") == 1


@pytest.mark.asyncio
async def test_unknown_schools_and_vendors_are_refused(pay_engine, gateway, live_sim):
    fam = family(pay_engine)
    clock.set_now(noon(fam["day"]))
    with pytest.raises(DomainError) as info:
        await confirm(pay_engine, fam, fam["day"], vendor="No Such Vendor")
    assert info.value.message("fr") == "Aucun traiteur No Such Vendor"
    with pytest.raises(DomainError) as info:
        await confirm(pay_engine, fam, fam["day"] - timedelta(days=1))
    assert info.value.code == "school_day_not_served"


@pytest.mark.parametrize("orders", [1, 3])
@pytest.mark.asyncio
async def test_a_confirmation_is_a_fixed_number_of_statements(
    pay_engine, gateway, live_sim, orders
):
    fam = family(pay_engine, 2)
    for _ in range(orders):
        await book(pay_engine, gateway, live_sim, fam)
    clock.set_now(noon(fam["day"]))
    with count_queries(pay_engine) as counted:
        done = await confirm(pay_engine, fam, fam["day"])
    assert (done.meals, done.orders_delivered) == (2 * orders, orders)
    assert counted.count == 14, counted.report()


def test_the_operator_command_confirms_a_delivery(pay_engine, capsys):
    from hotmeals import admin
    from hotmeals.db.models import Child, Meal, MenuDay, Parent
    from tests import factories as f

    fam = family(pay_engine)
    with session_scope(pay_engine) as s:
        parent = s.get(Parent, fam["parent_id"])
        child = s.get(Child, fam["children"][0])
        day = s.get(MenuDay, fam["menu_day_id"])
        meal = s.get(Meal, fam["meal_id"])
        assert parent and child and day and meal
        order_id = f.make_placed_order(s, parent, [(child, day, meal)]).id or 0
    url = ["--database-url", pay_engine.url.render_as_string(hide_password=False)]
    ask = ["confirm-delivery", "--school", fam["school"], "--date", fam["day"].isoformat()]
    clock.set_now(noon(fam["day"]) - timedelta(days=1))
    assert admin.main([*url, *ask]) == 1
    assert "can be confirmed as delivered from that day on" in capsys.readouterr().err
    clock.set_now(noon(fam["day"]))
    assert admin.main([*url, *ask]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        f"{fam['school']} on {fam['day'].isoformat()}: 1 meal delivered, 1 order now delivered\n"
    )
    assert "by operator:cli" in out and "already confirmed" not in out
    assert order_of(pay_engine, order_id).status == OrderStatus.DELIVERED
    assert admin.main([*url, *ask, "--vendor", "Nobody"]) == 1
    assert "No vendor Nobody" in capsys.readouterr().err
    assert admin.main([*url, *ask]) == 0
    assert "(already confirmed)" in capsys.readouterr().out


@pytest.mark.asyncio
async def test_two_confirmations_at_once_write_one_and_both_answer_it(
    pay_engine, gateway, live_sim
):
    import asyncio

    fam = family(pay_engine, 2)
    order_id = await book(pay_engine, gateway, live_sim, fam)
    clock.set_now(noon(fam["day"]))
    one, two = await asyncio.gather(
        confirm(pay_engine, fam, fam["day"]), confirm(pay_engine, fam, fam["day"])
    )
    assert sorted([one.repeated, two.repeated]) == [False, True]
    assert one.vendors[0].confirmed_at == two.vendors[0].confirmed_at
    assert one.meals == two.meals == 2
    assert (
        len(rows_of(pay_engine, DayDelivery, col(DayDelivery.school_id) == fam["school_id"])) == 1
    )
    kinds = [e.kind for e in rows_of(pay_engine, AuditEvent, AuditEvent.entity_id == str(order_id))]
    assert kinds.count("order.delivered") == 1


@pytest.mark.asyncio
async def test_a_delivered_week_is_repeated_into_the_next(pay_engine, gateway, live_sim):
    from hotmeals.services.ordering import repeat

    fam = family(pay_engine)
    await book(pay_engine, gateway, live_sim, fam)
    clock.set_now(noon(fam["day"]))
    await confirm(pay_engine, fam, fam["day"])
    with session_scope(pay_engine) as s:
        done = repeat.repeat_week_at(
            session=s,
            parent_id=fam["parent_id"],
            child_id=fam["children"][0],
            source_week_start=fam["day"].isoformat(),
            target_week_start=(fam["day"] + timedelta(days=7)).isoformat(),
            now=noon(fam["day"]),
        )
    assert [b.date for b in done.outcome.added] == [fam["day"] + timedelta(days=7)]
