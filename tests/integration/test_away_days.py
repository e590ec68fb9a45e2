"""A child's away days, stored (services/away_days.py) on SQLite and
PostgreSQL: MarkAway stores the range once per child (a repeat, or the same range again, adds
nothing); GetDates shows those days away and not open; every door that adds a meal refuses
them (the cart, several days at once) while a brother or sister is not affected; a standing
order skips them without an e-mail; GetDates costs the same for one or ten stored ranges."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
from sqlmodel import col

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import ChildAway, EmailOutbox, StandingOrderRun
from hotmeals.domain.cutoff import TORONTO
from hotmeals.domain.errors import DomainError
from hotmeals.services import away, standing, standing_job
from hotmeals.services.away_days import record_away, upcoming_away
from hotmeals.services.ordering import booking, cart
from hotmeals.services.ordering.days import MealDay, get_dates
from hotmeals.services.ordering.lines import LineRequest
from hotmeals.services.runtime import Runtime
from tests.integration.meals_support import family, rows_of
from tests.integration.test_away import mark
from tests.querycount import count_queries


def dates(engine, fam, child_id, lang="en") -> dict[str, MealDay]:
    with session_scope(engine) as s:
        shown = get_dates(
            session=s,
            parent_id=fam["parent_id"],
            child_id=child_id,
            from_date=fam["day"].isoformat(),
            to_date=(fam["day"] + timedelta(days=7)).isoformat(),
            lang=lang,
        )
    return {d.day.isoformat(): d for d in shown.days}


def add(engine, fam, child_id, **where) -> cart.AddedLine:
    with session_scope(engine) as s:
        return cart.add_to_cart(
            session=s,
            parent_id=fam["parent_id"],
            child_id=child_id,
            meal_id=fam["meal_id"],
            **where,
        )


@pytest.mark.asyncio
async def test_away_days_are_stored_once_shown_away_and_refused_at_every_door(pay_engine, gateway):
    fam = family(pay_engine, 2)
    kid, sister = fam["children"]
    first, last = fam["day"], fam["day"] + timedelta(days=7)
    # Nothing booked: marking away still stores the days (nothing to cancel).
    done = await mark(pay_engine, gateway, fam, [kid], first, last)
    assert (done.cancelled, done.refund_cents, done.repeated) == (0, 0, False)
    assert away.done_message(done, "en").startswith("Done: these days are marked away")
    again = await mark(pay_engine, gateway, fam, [kid], first, last)  # the same request key
    assert again.repeated
    with pytest.raises(DomainError) as err:  # a new key, the same range: nothing new to do
        await mark(pay_engine, gateway, fam, [kid], first, last, key="away-2")
    assert err.value.code == "away_nothing"
    (row,) = rows_of(pay_engine, ChildAway, col(ChildAway.parent_id) == fam["parent_id"])
    assert (row.child_id, row.first_date, row.last_date) == (kid, first, last)
    with session_scope(pay_engine) as s:  # listed as lasting until its last day has passed
        listed = upcoming_away(s, fam["parent_id"], first)
        assert [(r.child_id, r.first, r.last) for r in listed] == [(kid, first, last)]
        assert upcoming_away(s, fam["parent_id"], last + timedelta(days=1)) == []

    shown = dates(pay_engine, fam, kid)
    assert [(d.is_away, d.is_open, d.away_label) for d in shown.values()] == [
        (True, False, "Kid0 is away"),
        (True, False, "Kid0 is away"),
    ]
    assert {d.away_label for d in dates(pay_engine, fam, kid, "fr").values()} == {
        "Kid0 n'est pas là"
    }
    assert [(d.is_away, d.is_open) for d in dates(pay_engine, fam, sister).values()] == [
        (False, True),
        (False, True),
    ]

    for where in ({"menu_day_id": fam["menu_day_id"]}, {"date": last.isoformat()}):
        with pytest.raises(DomainError) as err:
            add(pay_engine, fam, kid, **where)
        assert err.value.code == "child_away"
        assert err.value.message("en").startswith("Kid0 is away on Monday, ")
    with session_scope(pay_engine) as s:
        many = booking.add_many(
            session=s,
            parent_id=fam["parent_id"],
            items=[
                LineRequest(child_id=c, meal_id=fam["meal_id"], menu_day_id=fam["later_id"])
                for c in (kid, sister)
            ],
        )
    assert len(many.added) == 1 and len(many.refused) == 1
    assert "Kid0 is away" in many.refused[0].reason
    assert add(pay_engine, fam, sister, menu_day_id=fam["menu_day_id"])  # her days are open


@pytest.mark.asyncio
async def test_a_standing_order_skips_the_away_days_without_an_email(
    pay_engine, gateway, live_sim, monkeypatch
):
    fam = family(pay_engine, 2)
    kid, sister = fam["children"]
    # The Wednesday before the Monday, at noon in Toronto: the job books that Monday.
    now = datetime.combine(fam["day"] - timedelta(days=5), time(12, 0), tzinfo=TORONTO)
    clock.set_now(now.astimezone(UTC))
    with session_scope(pay_engine) as s:
        for child in (kid, sister):
            standing.create(
                session=s,
                parent_id=fam["parent_id"],
                child_id=child,
                meal_id=fam["meal_id"],
                weekday=0,
            )
    await mark(pay_engine, gateway, fam, [kid], fam["day"], fam["day"])
    done = await standing_job.run(runtime=Runtime(engine=pay_engine, gateway=gateway))
    assert (done.skipped, done.in_cart) == (1, 1)  # hers in the cart: no saved card
    runs = {(r.status, r.reason) for r in rows_of(pay_engine, StandingOrderRun)}
    assert ("skipped", "away") in runs
    mails = rows_of(pay_engine, EmailOutbox, col(EmailOutbox.kind) == "standing_order")
    assert len(mails) == 1 and "Kid1" in mails[0].body_text  # only hers: no mail for the away day


@pytest.mark.parametrize("ranges", [1, 10])
def test_get_dates_costs_the_same_for_one_or_ten_away_ranges(pay_engine, ranges):
    fam = family(pay_engine)
    (kid,) = fam["children"]
    with session_scope(pay_engine) as s:
        for n in range(ranges):
            start = fam["day"] - timedelta(days=n)
            record_away(s, parent_id=fam["parent_id"], child_ids=[kid], first=start, last=start)
    with count_queries(pay_engine) as queries:
        shown = dates(pay_engine, fam, kid)
    assert [d.is_away for d in shown.values()] == [True, False]
    assert queries.count == 5, queries.report()  # as get_dates says
