"""ManyDaysState ('Book several days') without a browser, on the demo data:
a family's own two weeks of menus at a set clock, and the demo parent for the attacks:
the panel loads the chosen child's open days with a meal each, 'Add N meals' adds them once
(a double tap adds nothing more) and updates the header count, 'Repeat' copies a week and
reports what could not be copied; a forged token or another parent's ids change nothing."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import reflex as rx
from sqlmodel import func, select

from hotmeals import clock
from hotmeals.db.engine import session_scope
from hotmeals.db.models import CartLine, Child, Parent
from hotmeals.domain.cutoff import TORONTO
from hotmeals.services.parents import start_session
from hotmeals.ui.screens.book_meal.many_days_state import ManyDaysState
from hotmeals.ui.shared_state.auth import AuthState
from tests.factories import (
    make_child,
    make_meal,
    make_menu_day,
    make_parent,
    make_school,
    make_vendor,
)

DEMO_EMAIL = "parent@example.com"


async def _run(result) -> list:
    if hasattr(result, "__aiter__"):
        return [event async for event in result]
    value = await result if asyncio.iscoroutine(result) else result
    return [] if value is None else [value]


def _token(email: str = DEMO_EMAIL) -> tuple[str, int]:
    with session_scope() as session:
        parent = session.exec(select(Parent).where(Parent.email == email)).one()
        return start_session(session, parent, "tests"), parent.id


def _cart_count(parent_id: int) -> int:
    with session_scope() as session:
        return session.exec(
            select(func.count()).select_from(CartLine).where(CartLine.parent_id == parent_id)
        ).one()


async def _panel(token: str) -> tuple[rx.State, ManyDaysState]:
    root = rx.State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth.token = token
    panel = await root.get_state(ManyDaysState)
    await _run(panel.open())
    return root, panel


# A Monday, 7 a.m. in Toronto. The test sets the clock there and makes its own two weeks of
# menus (docs/testing.md): the seeded rotation's next week may hold a PA day or the winter break.
MONDAY = datetime(2026, 3, 2, 7, 0, tzinfo=TORONTO)


def _family_with_two_weeks() -> str:
    """A parent of two at a school of their own whose vendor serves the same two meals every
    school day of the next two weeks (orders close at 17:00 the day before); their email."""
    clock.set_now(MONDAY)
    with session_scope() as s:
        parent = make_parent(s, first_name="Claire")
        school = make_school(s)
        for name, first in (("Mia", True), ("Noah", False)):
            make_child(s, parent, school=school, first_name=name, is_default=first)
        vendor = make_vendor(s, cutoff_days_before=1, cutoff_time="17:00")
        meals = [make_meal(s, vendor), make_meal(s, vendor)]
        for n in range(7, 19):
            day = MONDAY.date() + timedelta(days=n)
            if day.weekday() < 5:
                make_menu_day(s, school, vendor, day, meals)
        return parent.email


def test_a_week_is_added_in_one_go_then_repeated(database):
    async def scenario():
        token, parent_id = _token(_family_with_two_weeks())
        root, panel = await _panel(token)
        assert panel.loaded and len(panel.kids) == 2 and len(panel.chosen) == 1
        await _run(panel.pick_range("next_week"))
        open_rows = [r for r in panel.rows if r.state == "open"]
        assert len(open_rows) == 5 and all(r.picked and r.meal_id for r in open_rows)
        assert panel.picked_count == 5 and panel.add_label == "Add 5 meals to cart"
        # another meal and size on the first day; the choices are the day's own
        first = open_rows[0]
        other = next(m.value for m in first.meals if m.value != first.meal_id)
        panel.set_meal(first.key, other)
        panel.set_meal(first.key, "999999")  # not on that day's menu: ignored
        panel.set_size(first.key, "large")
        row = next(r for r in panel.rows if r.key == first.key)
        assert (row.meal_id, row.size) == (other, "large")
        before = _cart_count(parent_id)
        await _run(panel.add_all())
        assert _cart_count(parent_id) == before + 5
        assert panel.report_title == "Meals added to cart: 5. Not added: 0."
        assert len(panel.report_added) == 5
        auth = await root.get_state(AuthState)
        assert auth.cart_count == before + 5 and auth.cart_count_store == str(before + 5)
        assert not any(r.picked for r in panel.rows)  # what was added is no longer picked

        # repeat next week into the week after
        panel.set_source_week(panel.source_weeks[-1].value)  # next week
        panel.set_target_week(panel.target_weeks[2].value)  # the week after
        await _run(panel.repeat())
        # The week after serves the same meals every day: each of the five copies.
        copied = len(panel.report_added)
        assert copied == 5 and panel.report_refused == [], panel.report_refused
        assert panel.report_title.startswith("Meals copied to your cart: ")
        assert _cart_count(parent_id) == before + 5 + copied
        await _run(panel.repeat())  # again: nothing more
        assert _cart_count(parent_id) == before + 5 + copied
        assert len(panel.report_skipped) == copied and panel.report_added == []

    asyncio.run(scenario())


def test_forged_tokens_and_another_parents_ids_change_nothing(database):
    async def scenario():
        with session_scope() as session:
            eve = make_parent(session, first_name="Eve")
            make_child(session, eve, first_name="Evelyn", is_default=True)
            demo = session.exec(select(Parent).where(Parent.email == DEMO_EMAIL)).one()
            victim_kids = [
                str(c.id) for c in session.exec(select(Child).where(Child.parent_id == demo.id))
            ]
            eve_token, eve_id = start_session(session, eve, "tests"), eve.id
        before = _cart_count(demo.id)
        _, panel = await _panel(eve_token)
        assert [k.label for k in panel.kids] == ["Evelyn"]
        await _run(panel.toggle_child(victim_kids[0], True))
        assert victim_kids[0] not in panel.chosen
        panel.toggle_day(f"{victim_kids[0]}|2026-12-01", True)
        await _run(panel.add_all())
        assert _cart_count(demo.id) == before and _cart_count(eve_id) == 0

        _, forged = await _panel("forged-" + "x" * 40)
        assert not forged.loaded and forged.rows == []
        forged.chosen = victim_kids  # the browser can send any value
        events = await _run(forged.add_all()) + await _run(forged.repeat())
        assert events  # 'session expired'
        assert _cart_count(demo.id) == before

    asyncio.run(scenario())
