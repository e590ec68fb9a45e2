"""The modify-order and manage-one-meal states without a browser:
the owner sees the order's lines, removes one and takes it back (the difference follows); the
add-item step points the Book meal dialog at the order; another parent with a session of
their own who sends the victim's order or line id sees nothing, and nothing they send
(remove, undo, confirm, cancel, move) changes the victim's order; no session gets nothing.
Payments and refunds run in tests/e2e/test_order_changes_flow.py."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import reflex as rx
from reflex.istate.data import ReflexURL

from hotmeals.db.engine import session_scope
from hotmeals.db.models import Order, OrderChange, OrderLine, Parent
from hotmeals.services.parents import start_session
from hotmeals.ui.screens.book_meal.state import BookingState
from hotmeals.ui.screens.manage_meal.state import ManageMealState
from hotmeals.ui.screens.modify_order.state import ModifyOrderState
from hotmeals.ui.shared_state.auth import AuthState
from tests.factories import make_child, make_parent
from tests.unit.test_ui_orders_state import (  # noqa: F401
    _placed_order,
    _run,
    background,
    database,
    sqlite_only,
)

BASE = "http://localhost/parent"


async def _root(parent_id: int | None, path: str) -> rx.State:
    root = rx.State(_reflex_internal_init=True)
    root.router = dataclasses.replace(root.router, url=ReflexURL(BASE + path))
    if parent_id is not None:
        with session_scope() as session:
            token = start_session(session, session.get(Parent, parent_id), "tests")
        auth = await root.get_state(AuthState)
        auth.token = token
        await _run(auth.require_parent())
    return root


def _changes(order_id: int) -> list[tuple[str, str]]:
    with session_scope() as s:
        rows = s.exec(OrderChange.__table__.select().where(OrderChange.order_id == order_id))
        return [(r.kind, r.state) for r in rows]


@sqlite_only
def test_the_owner_removes_a_line_and_takes_it_back(database: Path) -> None:  # noqa: F811
    async def scenario():
        parent_id, order_id, line_id = _placed_order("HM-UC-0001")
        root = await _root(parent_id, f"/edit-profile/modify-order?id={order_id}")
        state = await root.get_state(ModifyOrderState)
        await _run(state.load())
        assert state.loaded and state.missing == "" and state.number == "HM-UC-0001"
        assert [(x["id"], x["can_remove"]) for x in state.lines] == [(str(line_id), "1")]
        assert not state.has_changes
        await _run(state.remove("999999"))  # not on screen: nothing sent
        assert not state.has_changes
        await _run(state.remove(str(line_id)))
        assert state.has_changes and state.lines[0]["removing"] == "2"
        assert state.difference != ""
        await _run(state.undo(state.lines[0]["undo"]))
        assert not state.has_changes and state.lines[0]["removing"] == ""

        # The add-item step: the Book meal dialog adds to this order.
        root2 = await _root(parent_id, f"/edit-profile/modify-order/add-item?id={order_id}")
        add = await root2.get_state(ModifyOrderState)
        await _run(add.load_add_item())
        booking = await root2.get_state(BookingState)
        assert booking._order_id == order_id and booking.order_number == "HM-UC-0001"

        # The manage list and the meal itself.
        root3 = await _root(parent_id, "/edit-profile/manage-meal-details")
        manage = await root3.get_state(ManageMealState)
        await _run(manage.load())
        assert manage.view == "list" and str(line_id) in [m["id"] for m in manage.meals]
        root4 = await _root(parent_id, f"/edit-profile/manage-meal-details?id={line_id}")
        one = await root4.get_state(ManageMealState)
        await _run(one.load())
        assert one.view == "meal" and one.missing == "" and one.meal["id"] == str(line_id)
        await _run(one.ask_cancel())  # no reason yet: said at the field, no dialog
        assert one.reason_error and not one.sure_open

    asyncio.run(scenario())


@sqlite_only
def test_another_parent_sees_and_changes_nothing(database: Path) -> None:  # noqa: F811
    async def scenario():
        victim_id, order_id, line_id = _placed_order("HM-UC-0002")
        with session_scope() as s:
            mallory = make_parent(s, email="mallory-changes@example.com")
            make_child(s, mallory, is_default=True)
            mallory_id = mallory.id

        root = await _root(mallory_id, f"/edit-profile/modify-order?id={order_id}")
        state = await root.get_state(ModifyOrderState)
        await _run(state.load())
        assert state.missing and state.lines == [] and state.number == ""
        await _run(state.remove(str(line_id)))
        await _run(state.undo("1"))
        state.can_confirm = True  # even forced, the service refuses another's order
        await _run(background(state, "pay"))
        assert state.status == "error"

        add_root = await _root(mallory_id, f"/edit-profile/modify-order/add-item?id={order_id}")
        add = await add_root.get_state(ModifyOrderState)
        await _run(add.load_add_item())
        booking = await add_root.get_state(BookingState)
        assert booking._order_id == 0 and booking.order_number == ""

        meal_root = await _root(mallory_id, f"/edit-profile/manage-meal-details?id={line_id}")
        meal = await meal_root.get_state(ManageMealState)
        await _run(meal.load())
        assert meal.missing and meal.meal == {} and meal.dates == []
        meal.reason_id = "1"
        await _run(meal.ask_cancel())
        await _run(background(meal, "confirm_cancel"))
        assert not meal.sure_open
        move_root = await _root(
            mallory_id,
            f"/edit-profile/manage-meal-details/manage-confirm-order?id={line_id}&date=2030-01-07",
        )
        move = await move_root.get_state(ManageMealState)
        await _run(move.load_confirm())
        assert move.missing and move.target == {}
        await _run(background(move, "pay"))

        with session_scope() as s:
            assert s.get(Order, order_id).status == "placed"
            assert s.get(OrderLine, line_id).cancelled_quantity == 0
        assert _changes(order_id) == []

    asyncio.run(scenario())


@sqlite_only
def test_no_session_gets_nothing(database: Path) -> None:  # noqa: F811
    async def scenario():
        _parent_id, order_id, line_id = _placed_order("HM-UC-0003")
        root = await _root(None, f"/edit-profile/modify-order?id={order_id}")
        state = await root.get_state(ModifyOrderState)
        await _run(state.load())
        assert not state.loaded and state.lines == []
        meal_root = await _root(None, f"/edit-profile/manage-meal-details?id={line_id}")
        meal = await meal_root.get_state(ManageMealState)
        await _run(meal.load())
        assert not meal.loaded and meal.meal == {}

    asyncio.run(scenario())


def test_a_modification_confirmed_twice_at_once_runs_once(database: Path) -> None:  # noqa: F811
    """Two taps on 'Confirm' reach the background handler together (SQLite and
    PostgreSQL): the change is applied once, one answer; the screen is not busy after."""

    async def scenario():
        parent_id, order_id, line_id = _placed_order("HM-UC-0004")
        root = await _root(parent_id, f"/edit-profile/modify-order?id={order_id}")
        state = await root.get_state(ModifyOrderState)
        await _run(state.load())
        await _run(state.remove(str(line_id)))
        assert state.has_changes and state.can_confirm
        first, second = await asyncio.gather(
            _run(background(state, "pay")), _run(background(state, "pay"))
        )
        said = [events for events in (first, second) if any(e is not None for e in events)]
        assert len(said) == 1, (first, second)
        assert not state.busy and state.status != "error", state.message
        assert _changes(order_id) == [("modify", "applied")]
        with session_scope() as s:
            line = s.get(OrderLine, line_id)
            assert line.quantity - line.cancelled_quantity == 0 or line.status != "active"

    asyncio.run(scenario())
