"""Book meal after a reload: the calendar shows the month of the chosen day, whose menu the
screen still shows, not the first month with an open day. The test sets the clock and makes
its own menu days in two months (docs/testing.md), so no date of the year finds a single month."""

from __future__ import annotations

import asyncio
from datetime import date, datetime

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.domain.cutoff import TORONTO
from hotmeals.ui.screens.book_meal.state import BookingState
from tests.factories import (
    make_child,
    make_meal,
    make_menu_day,
    make_parent,
    make_school,
    make_vendor,
)
from tests.unit.test_ui_booking import _run, _signed_in

# A Monday at 7 a.m. in Toronto, with menu days this week and in the next month.
MONDAY = datetime(2027, 1, 25, 7, 0, tzinfo=TORONTO)
DAYS = (date(2027, 1, 27), date(2027, 1, 28), date(2027, 2, 2), date(2027, 2, 3))


def _family_with_two_months() -> int:
    clock.set_now(MONDAY)
    with session_scope() as s:
        parent = make_parent(s, first_name="Claire")
        school = make_school(s)
        make_child(s, parent, school=school, first_name="Mia", is_default=True)
        vendor = make_vendor(s, cutoff_days_before=1, cutoff_time="17:00")
        meals = [make_meal(s, vendor), make_meal(s, vendor)]
        for day in DAYS:
            make_menu_day(s, school, vendor, day, meals)
        return parent.id


def test_a_reload_keeps_the_chosen_days_month_in_view(database):  # noqa: F811
    async def scenario():
        root = await _signed_in(_family_with_two_months())
        booking = await root.get_state(BookingState)
        await _run(booking.load())
        assert booking.months == ["2027-01", "2027-02"] and booking.month == "2027-01"
        await _run(booking.next_month())
        assert booking.month == "2027-02"
        day = next(c["date"] for c in booking.cells if c["kind"] == "open")
        assert day == "2027-02-02"
        await _run(booking.choose_day(day))
        assert booking.meals
        await _run(booking.load())  # the page's on_load again: a reload
        assert booking.selected_date == day and booking.meals
        assert booking.month == "2027-02"
        assert any(c["date"] == day for c in booking.cells)

    asyncio.run(scenario())
