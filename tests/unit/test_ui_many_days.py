"""ManyDaysState ('Book several days', issue 9 screen 2) without a browser, on the demo data:
the panel loads the chosen child's open days with a meal each, 'Add N meals' adds them once
(a double tap adds nothing more) and updates the header count, 'Repeat' copies a week and
reports what could not be copied; a forged token or another parent's ids change nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
import reflex as rx
from sqlmodel import SQLModel, func, select

from hotmeals.db.engine import get_engine, session_scope
from hotmeals.db.models import CartLine, Child, Parent
from hotmeals.demo.seed import load_demo_data
from hotmeals.services.parents import start_session
from hotmeals.settings import get_settings
from hotmeals.ui.state.auth import AuthState
from hotmeals.ui.state.many_days import ManyDaysState
from tests.factories import make_child, make_parent

DEMO_EMAIL = "parent@example.com"


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("ui-many-days")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DATABASE_URL", f"sqlite:///{folder / 'ui.db'}")
        mp.setenv("DATA_DIR", str(folder))
        mp.delenv("SMTP_HOST", raising=False)
        get_settings.cache_clear()
        get_engine.cache_clear()
        SQLModel.metadata.create_all(get_engine())
        with session_scope() as session:
            load_demo_data(session)
        yield folder
        get_engine.cache_clear()
        get_settings.cache_clear()


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


def test_a_week_is_added_in_one_go_then_repeated(database):
    async def scenario():
        token, parent_id = _token()
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
        copied = len(panel.report_added)
        assert copied + len(panel.report_refused) == 5
        # The demo menu is weekly (the same vendor and first meals on a weekday): most days
        # copy; besides a closed day (PA day, winter break) at most two picks are extras of the
        # week that are not back.
        closed = [r for r in panel.report_refused if r.reason.startswith("No meals on")]
        assert copied + len(closed) >= 3, [r.reason for r in panel.report_refused]
        assert panel.report_title.startswith("Meals copied to your cart: ")
        assert all(line.reason for line in panel.report_refused)
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
