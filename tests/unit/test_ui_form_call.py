"""``form_call``, a form's one write: the busy mark while it runs and cleared however it ends,
the parent named by the token on that call, and a refusal turned into the form's message."""

from __future__ import annotations

import asyncio
from typing import Any

import reflex as rx

from hotmeals.db.engine import session_scope
from hotmeals.i18n import EN
from hotmeals.services.parents import start_session
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.children import ChildrenState
from hotmeals.ui.shared_state.settings import ChangePasswordState, NotificationState
from tests.factories import make_child, make_parent


async def _events(result: Any) -> list:
    """What a handler sent, the busy marks it showed on the way (``None``: a bare yield)."""
    return [event async for event in result]


async def _signed_in() -> tuple[rx.State, int]:
    with session_scope() as session:
        parent = make_parent(session, signup_step="COMPLETE")
        make_child(session, parent, first_name="Noah", is_default=True)
        token = start_session(session, parent, "tests")
    root = rx.State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth.token = token
    await auth.require_parent()
    return root, parent.id


def test_no_parent_on_the_call_ends_it_with_the_session_expired_toast(database):
    async def scenario():
        root = rx.State(_reflex_internal_init=True)
        form = await root.get_state(NotificationState)
        form.prefs = {"order": True}
        seen = []
        async for event in form._save():
            seen.append((event, form.busy))
        assert seen[0] == (None, True)  # the busy mark reached the browser first
        toast, redirect = seen[-1][0]
        assert EN["unauthorized"] in str(toast) and "/" in str(redirect)
        assert not form.busy and form.prefs == {"order": True}

    asyncio.run(scenario())


def test_a_refusal_shows_at_its_field_and_clears_the_busy_mark(database):
    async def scenario():
        root, _ = await _signed_in()
        form = await root.get_state(ChangePasswordState)
        events = await _events(
            form.submit(
                {
                    "current_password": "Not@ThePassword1",
                    "new_password": "Lunch@2027x",
                    "confirm_password": "Lunch@2027x",
                }
            )
        )
        assert form.errors == {"current_password": EN["current_password_wrong"]}
        assert not form.busy
        assert "password-current_password" in str(events[-1])  # the cursor goes there

    asyncio.run(scenario())


def test_a_refused_dialog_is_closed_with_the_toast(database):
    async def scenario():
        root, _ = await _signed_in()
        with session_scope() as session:
            stranger = make_parent(session, signup_step="COMPLETE")
            theirs = make_child(session, stranger, first_name="Ada").id
        kids = await root.get_state(ChildrenState)
        kids.ask_delete(str(theirs), "Ada")
        assert kids.delete_open
        events = [e for e in await _events(kids.confirm_delete()) if e is not None]
        assert not kids.delete_open and not kids.busy
        assert len(events) == 1 and "toast" in str(events[0]).lower()

    asyncio.run(scenario())
