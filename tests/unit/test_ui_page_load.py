"""A guarded page's one on_load event (``hotmeals/ui/shared_state/page_load.py``): the
session check first - a visitor goes to sign-in and no load runs - then the route's loads in
the same event, through the Reflex states, without a browser, on a fresh seeded database."""

from __future__ import annotations

import asyncio

import pytest
import reflex as rx

from hotmeals.ui.screens.order_history.state import HISTORY_ROUTE, OrderHistoryState
from hotmeals.ui.screens.sign_in.state import SignInState
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.page_load import (
    PageLoadState,
    _events,
    _is_redirect,
    register_loads,
    route_key,
)

DEMO_EMAIL, DEMO_PASSWORD = "parent@example.com", "Lunch@2026"


def _redirects(events: list) -> list[str]:
    return [
        str(getattr(value, "_var_value", value))
        for event in events
        for name, value in dict(getattr(event, "args", ())).items()
        if getattr(name, "_js_expr", name) == "path"
    ]


def test_routes_are_keyed_without_the_prefix_or_a_trailing_slash():
    assert route_key("/parent/edit-profile/cart/") == "/edit-profile/cart"
    assert route_key("/edit-profile/cart") == "/edit-profile/cart"


def test_a_redirect_is_told_from_other_events():
    assert _is_redirect(rx.redirect("/x"))
    assert not _is_redirect(rx.toast.info("hello")) and not _is_redirect("toast")


def test_a_load_with_arguments_is_refused():
    with pytest.raises(TypeError):
        register_loads("/x", [AuthState.require_signup_step("ADD_CHILD")])


def test_bare_yields_send_nothing_and_events_pass_in_order():
    async def loads():
        yield
        yield "toast"
        yield None
        yield ["a", None, "b"]

    async def collect():
        return [e async for e in _events(loads())]

    assert asyncio.run(collect()) == ["toast", "a", "b"]


def test_a_visitor_is_sent_to_sign_in_and_no_load_runs(database):
    register_loads(HISTORY_ROUTE, [OrderHistoryState.load])

    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        page = await root.get_state(PageLoadState)
        events = [e async for e in page._enter("/parent" + HISTORY_ROUTE)]
        assert any("/sign-in?next=/edit-profile/order-history" in p for p in _redirects(events))
        assert (await root.get_state(AuthState)).status == "visitor"
        assert (await root.get_state(OrderHistoryState)).loaded is False
        assert not root.is_hydrated

    asyncio.run(scenario())


def test_a_parent_gets_the_session_and_the_page_data_in_one_event(database):
    register_loads(HISTORY_ROUTE, [OrderHistoryState.load])

    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        sign_in = await root.get_state(SignInState)
        [e async for e in sign_in.submit({"identifier": DEMO_EMAIL, "password": DEMO_PASSWORD})]
        auth = await root.get_state(AuthState)
        auth.status = "unknown"  # as a fresh page load finds it
        page = await root.get_state(PageLoadState)
        events = [e async for e in page._enter("/parent" + HISTORY_ROUTE)]
        assert _redirects(events) == []
        assert auth.status == "parent"
        assert (await root.get_state(OrderHistoryState)).loaded is True
        assert root.is_hydrated  # the data shows with this answer

    asyncio.run(scenario())
