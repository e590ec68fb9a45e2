"""Book meal after a reload (issue 20): the calendar shows the month of the chosen day, whose
menu the screen still shows, not the first month with an open day."""

from __future__ import annotations

import asyncio

from hotmeals.ui.state.booking import BookingState
from tests.unit.test_ui_booking import _demo, _run, _signed_in


def test_a_reload_keeps_the_chosen_days_month_in_view(database):  # noqa: F811
    async def scenario():
        parent_id, _kids = _demo()
        root = await _signed_in(parent_id)
        booking = await root.get_state(BookingState)
        await _run(booking.load())
        first = booking.month
        assert len(booking.months) > 1, booking.months  # the demo menu spans two months
        await _run(booking.next_month())
        later = booking.month
        assert later != first
        day = next(c["date"] for c in booking.cells if c["kind"] == "open")
        await _run(booking.choose_day(day))
        assert booking.meals
        await _run(booking.load())  # the page's on_load again: a reload
        assert booking.selected_date == day and booking.meals
        assert booking.month == later
        assert any(c["date"] == day for c in booking.cells)

    asyncio.run(scenario())
