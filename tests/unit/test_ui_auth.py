"""The session in the UI: after-login routing (docs/product.md §2), safe return paths, the
guards, and logout - through the Reflex states, without a browser, on a fresh seeded database."""

from __future__ import annotations

import asyncio

import pytest
import reflex as rx

from hotmeals.db.engine import session_scope
from hotmeals.services import accounts
from hotmeals.ui.screens.sign_in.state import SignInState
from hotmeals.ui.shared_state.auth import AuthState, after_login_path, page_path, safe_next
from hotmeals.ui.shared_state.settings import ChangePasswordState
from hotmeals.ui.shared_state.steps import ProfileStepState

DEMO_EMAIL, DEMO_PASSWORD = "parent@example.com", "Lunch@2026"


@pytest.mark.parametrize(
    ("step", "is_login_data", "next_path", "expected"),
    [
        ("ADD_CHILD", False, None, "/add-child"),
        ("ALLERGY", False, "/edit-profile", "/allergy-profile"),
        ("COMPLETE", True, None, "/edit-profile"),
        ("COMPLETE", True, "/edit-profile/edit-child", "/edit-profile/edit-child"),
        ("COMPLETE", False, None, "/"),
    ],
)
def test_after_login_goes_where_spec_section_2_says(step, is_login_data, next_path, expected):
    assert after_login_path(step, is_login_data, next_path) == expected


@pytest.mark.parametrize(
    "path", ["//evil.example/x", "https://evil.example", "evil", "/\\evil", "/sign-in", ""]
)
def test_unsafe_or_pointless_return_paths_are_dropped(path):
    assert safe_next(path) is None


def test_return_path_loses_the_app_prefix():
    assert safe_next("/parent/edit-profile") == "/edit-profile"
    assert page_path("/parent/edit-profile/edit-child") == "/edit-profile/edit-child"
    assert page_path("/parent") == "/"


async def _run(result) -> list:
    """Run an event handler's result: a coroutine or an async generator of events."""
    if hasattr(result, "__aiter__"):
        return [event async for event in result]
    value = await result
    return [] if value is None else [value]


def _redirect_path(events: list) -> str | None:
    for event in events:
        if getattr(getattr(event, "handler", None), "fn", None) is not None:
            args = dict(getattr(event, "args", ()))
            for name, value in args.items():
                if getattr(name, "_js_expr", name) == "path":
                    return str(getattr(value, "_var_value", value))
    return None


def test_sign_in_keeps_the_session_and_routes_to_edit_profile(database):
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        sign_in = await root.get_state(SignInState)
        events = await _run(sign_in.submit({"identifier": DEMO_EMAIL, "password": DEMO_PASSWORD}))
        auth = await root.get_state(AuthState)
        assert auth.token and auth.is_parent
        assert auth.first_name == "Maria"
        assert '"isLoginData": true' in auth.session_data
        assert auth.token not in auth.session_data  # the token lives in the cookie only
        assert _redirect_path(events) == "/edit-profile"

        # A guarded page lets the parent in (and loads the profile's counts); logout
        # answers, goes home, then forgets.
        assert _redirect_path(await _run(auth.require_parent())) is None
        assert auth.active_child_count == 2
        steps = await root.get_state(ProfileStepState)
        steps._set_steps("9")
        events = await _run(auth.confirm_logout())
        assert _redirect_path(events) == "/"
        assert auth.token == "" and auth.status == "visitor" and auth.session_data == ""
        assert steps.current == "1"

    asyncio.run(scenario())


def test_a_wrong_password_is_shown_on_the_form(database):
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        sign_in = await root.get_state(SignInState)
        await _run(sign_in.submit({"identifier": DEMO_EMAIL, "password": "Wrong@2026"}))
        assert sign_in.form_error == "Invalid email or password"
        assert (await root.get_state(AuthState)).token == ""

    asyncio.run(scenario())


def test_a_visitor_on_a_guarded_page_is_sent_to_sign_in_with_the_way_back(database):
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        auth = await root.get_state(AuthState)
        # The router is empty outside a browser: the guard falls back to the home path.
        events = await _run(auth.require_parent())
        assert _redirect_path(events).startswith("/sign-in?next=/")
        assert auth.status == "visitor"

    asyncio.run(scenario())


def test_a_revoked_token_ends_the_session(database):
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        auth = await root.get_state(AuthState)
        auth.token = "not-a-real-token"
        await _run(auth.load_session())
        assert auth.status == "visitor" and auth.token == ""

    asyncio.run(scenario())


def test_unknown_stored_steps_fall_back_to_the_profile():
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        steps = await root.get_state(ProfileStepState)
        steps.step, steps.settings_step = "42", "x"
        assert steps.current == "1" and steps.current_settings == "1"
        steps._set_steps("6", "3")
        assert (steps.step, steps.settings_step) == ("6", "3")

    asyncio.run(scenario())


def test_an_action_after_the_session_was_revoked_goes_home_and_changes_nothing(database):
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        sign_in = await root.get_state(SignInState)
        await _run(sign_in.submit({"identifier": DEMO_EMAIL, "password": DEMO_PASSWORD}))
        auth = await root.get_state(AuthState)
        await _run(auth.require_parent())
        with session_scope() as session:  # logged out elsewhere
            accounts.logout(session=session, token=auth.token)
        form = await root.get_state(ChangePasswordState)
        events = await _run(
            form.submit(
                {
                    "current_password": DEMO_PASSWORD,
                    "new_password": "Other@2026",
                    "confirm_password": "Other@2026",
                }
            )
        )
        flat = [e for item in events for e in (item if isinstance(item, list) else [item])]
        assert _redirect_path(flat) == "/"
        assert auth.status == "visitor" and auth.token == ""
        with session_scope() as session:  # the password did not change
            assert accounts.login(session=session, email=DEMO_EMAIL, password=DEMO_PASSWORD).token

    asyncio.run(scenario())
