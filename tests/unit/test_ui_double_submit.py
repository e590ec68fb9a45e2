"""One tap is one record, at the websocket's level: every Reflex handler that writes,
called twice with the same submission (what a double tap or a repeated event sends), changes
nothing the second time and shows nothing more - no second record, no second toast, no
"Child not found". Each handler also bumps its state's ``turn``, which releases the button
the page disabled at the first tap (assets/forms.js). The browser side: tests/e2e.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import reflex as rx
from sqlmodel import func, select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    Child,
    ChildAllergy,
    ChildDiet,
    ContactMessage,
    EmailOutbox,
    FormSubmission,
    NotificationPreference,
    Parent,
    ParentAltEmail,
)
from hotmeals.services.notifications import DEFAULTS
from hotmeals.services.parents import start_session
from hotmeals.ui.screens.allergy_profile.state import AllergyState
from hotmeals.ui.screens.parent_edit_profile.state import ParentEditState
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.children import ChildFormState, ChildrenState
from hotmeals.ui.shared_state.contact import ContactState
from hotmeals.ui.shared_state.settings import NotificationState
from tests.factories import make_child, make_parent


async def _run(result) -> list:
    """The events a handler sent (``None`` from a bare ``yield`` is only a state update)."""
    if hasattr(result, "__aiter__"):
        return [event async for event in result if event is not None]
    value = await result if asyncio.iscoroutine(result) else result
    return [] if value is None else [value]


def _count(model, *where) -> int:
    with session_scope() as session:
        return session.exec(select(func.count()).select_from(model).where(*where)).one()


def _family(step: str = "COMPLETE", kids: int = 1) -> dict[str, Any]:
    with session_scope() as session:
        parent = make_parent(session, signup_step=step)
        children = [
            make_child(session, parent, first_name=name, is_default=i == 0)
            for i, name in enumerate(("Noah", "Lily")[:kids])
        ]
        return {
            "id": parent.id,
            "email": parent.email,
            "phone": parent.phone,
            "token": start_session(session, parent, "tests"),
            "children": [c.id for c in children],
            "school_id": children[0].school_id if children else None,
        }


async def _signed_in(family: dict[str, Any]) -> rx.State:
    root = rx.State(_reflex_internal_init=True)
    auth = await root.get_state(AuthState)
    auth.token = family["token"]
    await _run(auth.require_parent())
    return root


def _submissions(parent_id: int, action: str) -> int:
    return _count(
        FormSubmission, FormSubmission.parent_id == parent_id, FormSubmission.action == action
    )


@pytest.mark.parametrize("step", ["ADD_CHILD", "COMPLETE"])  # /add-child and /add-another-child
def test_add_child_saved_twice_adds_one_child(database, step):
    async def scenario():
        family = _family(step, kids=0 if step == "ADD_CHILD" else 1)
        root = await _signed_in(family)
        form = await root.get_state(ChildFormState)
        await _run(form.start_add())
        assert form.mode == ("add" if step == "ADD_CHILD" else "another")
        # The first city, its first school and that school's first teacher (demo data).
        await _run(form.set_city(str(form.cities[0]["id"])))
        await _run(form.set_school(form.schools[0]["id"]))
        await _run(form.set_teacher(form.teachers[0]["id"]))
        await _run(form.set_grade(form.grades[0]["id"]))
        await _run(form.toggle_diet("halal", True))  # the dietary needs are saved with it
        data = {"first_name": "Zoë", "last_name": "O'Neil"}
        before = _count(Child, Child.parent_id == family["id"])

        first = await _run(form.save(data))
        second = await _run(form.save(data))

        assert len(first) == 2  # the toast and the way on to the allergies
        assert second == []
        assert _count(Child, Child.parent_id == family["id"]) == before + 1
        with session_scope() as session:
            zoe = session.exec(
                select(Child).where(Child.parent_id == family["id"], Child.first_name == "Zoë")
            ).one()
            assert session.exec(
                select(ChildDiet.diet).where(ChildDiet.child_id == zoe.id)
            ).all() == ["halal"]
        assert form.turn == 2 and not form.busy  # each answer releases the button

    asyncio.run(scenario())


def test_contact_message_sent_twice_is_stored_once(database):
    async def scenario():
        family = _family()
        root = await _signed_in(family)
        contact = await root.get_state(ContactState)
        message = {
            "first_name": "Ann",
            "last_name": "Lee",
            "email": family["email"],
            "phone": family["phone"],
            "subject": "Soup",
            "description": "More soup",
        }
        before = _count(ContactMessage)
        first = await _run(contact.submit(message))
        second = await _run(contact.submit(message))
        assert len(first) == 1 and second == []
        assert _count(ContactMessage) == before + 1
        # Another message from the same form is another submission (the control).
        await _run(contact.submit({**message, "description": "And bread"}))
        assert _count(ContactMessage) == before + 2
        assert contact.turn == 3

    asyncio.run(scenario())


def test_yes_delete_tapped_twice_deletes_once_without_an_error(database):
    async def scenario():
        family = _family(kids=2)
        root = await _signed_in(family)
        children = await root.get_state(ChildrenState)
        await _run(children.load())
        await _run(children.ask_delete(str(family["children"][1]), "Lily"))
        first = await _run(children.confirm_delete())
        second = await _run(children.confirm_delete())
        assert len(first) == 1 and second == []  # no "Child not found" toast
        assert [k["first_name"] for k in children.kids] == ["Noah"]
        assert _submissions(family["id"], "delete_child") == 1
        assert children.turn == 2

    asyncio.run(scenario())


def test_make_default_tapped_twice_answers_once(database):
    async def scenario():
        family = _family(kids=2)
        root = await _signed_in(family)
        children = await root.get_state(ChildrenState)
        await _run(children.load())
        lily = str(family["children"][1])
        first = await _run(children.set_default(lily))
        second = await _run(children.set_default(lily))
        assert len(first) == 1 and second == []
        assert _submissions(family["id"], "set_default_child") == 1
        with session_scope() as session:
            assert session.get(Child, family["children"][1]).is_default
        # Back to Noah, then Lily again: each is a change, each is saved (the control).
        await _run(children.set_default(str(family["children"][0])))
        await _run(children.set_default(lily))
        assert _submissions(family["id"], "set_default_child") == 3

    asyncio.run(scenario())


def test_profile_saved_twice_is_saved_once(database):
    async def scenario():
        family = _family()
        root = await _signed_in(family)
        form = await root.get_state(ParentEditState)
        await _run(form.load())
        data = {"first_name": "Émilie", "last_name": "Dubé", "phone": family["phone"]}
        first = await _run(form.save(data))
        second = await _run(form.save(data))
        assert len(first) == 1 and second == []
        assert _submissions(family["id"], "edit_profile") == 1
        with session_scope() as session:
            assert session.get(Parent, family["id"]).first_name == "Émilie"
        # A-B-A: going back to an earlier value is saved again.
        await _run(form.save({**data, "first_name": "Zoë"}))
        await _run(form.save(data))
        assert _submissions(family["id"], "edit_profile") == 3
        with session_scope() as session:
            assert session.get(Parent, family["id"]).first_name == "Émilie"

    asyncio.run(scenario())


def test_alternate_email_added_twice_sends_one_code_and_no_cooldown_error(database):
    async def scenario():
        family = _family()
        root = await _signed_in(family)
        form = await root.get_state(ParentEditState)
        await _run(form.load())
        address = f"work.{family['id']}@example.org"
        await _run(form.add_alt({"alt_email": address}))
        second = await _run(form.add_alt({"alt_email": address}))
        assert second == [] and form.alt_error == ""
        assert _count(ParentAltEmail, ParentAltEmail.email == address) == 1
        assert _count(EmailOutbox, EmailOutbox.to_address == address) == 1

    asyncio.run(scenario())


def test_allergies_saved_twice_are_saved_once(database):
    async def scenario():
        family = _family()
        root = await _signed_in(family)
        allergy = await root.get_state(AllergyState)
        await _run(allergy.start())
        pick = allergy.suggestions[0]
        allergy.add(pick["id"], pick["name"])
        first = await _run(allergy.save())
        second = await _run(allergy.save())
        assert len(first) == 2 and second == []  # toast and back to the profile; then nothing
        assert _submissions(family["id"], "set_child_allergies") == 1
        assert _count(ChildAllergy, ChildAllergy.child_id == family["children"][0]) == 1

    asyncio.run(scenario())


def test_notification_settings_saved_twice_answer_once(database):
    async def scenario():
        family = _family()
        root = await _signed_in(family)
        prefs = await root.get_state(NotificationState)
        prefs.prefs = {**DEFAULTS, "newsletter": True}  # as loaded, one switch changed
        first = await _run(prefs.save())
        second = await _run(prefs.save())
        assert len(first) == 1 and second == []
        assert _submissions(family["id"], "update_notifications") == 1
        assert (
            _count(
                NotificationPreference,
                NotificationPreference.parent_id == family["id"],
                NotificationPreference.kind == "newsletter",
                NotificationPreference.enabled,
            )
            == 1
        )

    asyncio.run(scenario())


def test_remove_alternate_email_tapped_twice_removes_once_without_an_error(database):
    async def scenario():
        family = _family()
        root = await _signed_in(family)
        form = await root.get_state(ParentEditState)
        await _run(form.load())
        address = f"old.{family['id']}@example.org"
        await _run(form.add_alt({"alt_email": address}))
        first = await _run(form.remove_alt(address))
        second = await _run(form.remove_alt(address))
        assert len(first) == 1 and second == []  # no "not found" toast
        assert _count(ParentAltEmail, ParentAltEmail.email == address) == 0
        assert _submissions(family["id"], "remove_alt_email") == 1

    asyncio.run(scenario())
