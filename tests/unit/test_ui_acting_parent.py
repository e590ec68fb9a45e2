"""Who may act as a parent, through the Reflex states without a browser: a browser that has no
session, a forged one, one that claims an identity in the storage it controls, or one whose
session was revoked, gets none of a parent's data from any signed-in load or action, and
changes nothing. A browser with its own valid session cannot reach another parent's children
or cards by sending their ids. (The same attack over a real websocket: tests/e2e/test_ws_attack.py.)
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import reflex as rx
from sqlmodel import func, select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import (
    AuditEvent,
    Child,
    ChildAllergy,
    ContactMessage,
    Donation,
    NotificationPreference,
    Parent,
    ParentAltEmail,
    Payment,
    SessionToken,
    StoredCard,
)
from hotmeals.services import accounts
from hotmeals.services.parents import start_session
from hotmeals.ui.screens.allergy_profile.state import AllergyState
from hotmeals.ui.screens.donate_payment.state import DonateState
from hotmeals.ui.screens.parent_edit_profile.state import ParentEditState
from hotmeals.ui.screens.payment_methods.state import CardsState
from hotmeals.ui.screens.sign_in.state import SignInState
from hotmeals.ui.shared_state.auth import AuthState, acting_parent
from hotmeals.ui.shared_state.children import ChildChoiceState, ChildFormState, ChildrenState
from hotmeals.ui.shared_state.contact import ContactState
from hotmeals.ui.shared_state.edit_profile import EditProfileState
from hotmeals.ui.shared_state.otp import ALT_EMAIL, OtpState
from hotmeals.ui.shared_state.settings import (
    ChangePasswordState,
    LanguageState,
    NotificationState,
)
from hotmeals.ui.shared_state.steps import ProfileStepState
from tests.databases import app_database
from tests.factories import make_child, make_parent

DEMO_EMAIL, DEMO_PASSWORD = "parent@example.com", "Lunch@2026"


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Iterator[Path]:
    with app_database("sqlite", tmp_path_factory.mktemp("ui-acting")) as folder:
        with session_scope() as session:
            victim = session.exec(select(Parent).where(Parent.email == DEMO_EMAIL)).one()
            # A saved card and an alternate address of the victim, for the attacks to aim at.
            session.add(
                StoredCard(
                    parent_id=victim.id,
                    converge_token="4421912014039990",
                    brand="VISA",
                    masked="40**********7777",
                    exp_month=12,
                    exp_year=2030,
                )
            )
            session.add(
                ParentAltEmail(
                    parent_id=victim.id, email="maria.work@example.com", verified_at=None
                )
            )
        yield folder


def _victim() -> dict[str, Any]:
    with session_scope() as session:
        parent = session.exec(select(Parent).where(Parent.email == DEMO_EMAIL)).one()
        kids = session.exec(
            select(Child).where(Child.parent_id == parent.id).order_by(Child.id)
        ).all()
        card = session.exec(select(StoredCard).where(StoredCard.parent_id == parent.id)).one()
        return {
            "id": parent.id,
            "children": [k.id for k in kids],
            # What only the victim's session may see (the alternate address is not here: the
            # attack itself names it, and the screens echo what the browser typed).
            "secrets": [
                parent.email,
                parent.first_name,
                parent.phone or "",
                card.masked[-4:],
                *(k.first_name for k in kids),
            ],
        }


def _snapshot() -> dict[str, Any]:
    """Everything a forged call could have written."""
    with session_scope() as session:

        def count(model) -> int:
            return session.exec(select(func.count()).select_from(model)).one()

        return {
            "parents": [
                (
                    p.id,
                    p.first_name,
                    p.last_name,
                    p.phone,
                    p.language,
                    p.password_hash,
                    p.profile_image,
                    p.signup_step,
                )
                for p in session.exec(select(Parent).order_by(Parent.id))
            ],
            "children": [
                (c.id, c.first_name, c.last_name, c.is_default, c.is_active, c.teacher_id)
                for c in session.exec(select(Child).order_by(Child.id))
            ],
            "allergies": sorted(
                (a.child_id, a.ingredient_id, a.alert_level)
                for a in session.exec(select(ChildAllergy))
            ),
            "cards": [(c.id, c.deleted_at) for c in session.exec(select(StoredCard))],
            "alt_emails": sorted(
                (a.parent_id, a.email) for a in session.exec(select(ParentAltEmail))
            ),
            "prefs": sorted(
                (p.parent_id, p.kind, p.enabled)
                for p in session.exec(select(NotificationPreference))
            ),
            "contact": count(ContactMessage),
            "payments": count(Payment),
            "donations": count(Donation),
            "audit": count(AuditEvent),
        }


async def _run(result) -> list:
    """Run an event handler's result: a coroutine, an async generator, or a sync value."""
    if hasattr(result, "__aiter__"):
        return [event async for event in result]
    value = await result if asyncio.iscoroutine(result) else result
    return [] if value is None else [value]


class _Upload:
    """A stand-in upload that records whether anyone read it."""

    name = "me.png"

    def __init__(self) -> None:
        self.read_called = False

    async def read(self) -> bytes:
        self.read_called = True
        return b"\x89PNG\r\n\x1a\n"


async def _every_signed_in_call(root: rx.State, victim: dict[str, Any]) -> _Upload:
    """Each signed-in load and action (not the background payment events: the websocket test
    drives those), aimed at the victim's ids wherever an id can be given."""
    first_child, second_child = victim["children"][:2]
    choice = await root.get_state(ChildChoiceState)
    choice.child_id = str(first_child)  # browser storage: any value
    auth = await root.get_state(AuthState)
    steps = await root.get_state(ProfileStepState)

    await _run(auth.load_session())
    await _run(auth.require_parent())
    editor = await root.get_state(EditProfileState)
    await _run(editor.enter())
    for step, sub in (("1", "1"), ("8", "1"), ("6", "2"), ("6", "3"), ("7", "1")):
        await _run(editor.go(step, sub))
        await _run(editor.open_step(step, sub))
    steps.step = "1"

    children = await root.get_state(ChildrenState)
    await _run(children.load())
    await _run(children.set_default(str(second_child)))
    await _run(children.ask_delete(str(first_child), "x"))
    await _run(children.confirm_delete())

    form = await root.get_state(ChildFormState)
    await _run(form.start_add())
    await _run(form.start_edit())
    form.mode, form.child_id = "edit", first_child
    form.city_id, form.school_id, form.teacher_id, form.grade_id = "1", "1", "1", "1"
    await _run(form.save({"first_name": "Hacked", "last_name": "Name"}))

    allergy = await root.get_state(AllergyState)
    await _run(allergy.start())
    allergy.child_id, allergy.in_signup = first_child, True
    allergy.items = [{"ingredient_id": "1", "name": "x", "alert_level": "Low"}]
    await _run(allergy.save())
    await _run(allergy.skip())

    profile = await root.get_state(ParentEditState)
    await _run(profile.load())
    await _run(
        profile.save({"first_name": "Hacked", "last_name": "Name", "phone": "(613) 555-0199"})
    )
    await _run(profile.add_alt({"alt_email": "attacker@evil.example"}))
    await _run(profile.verify_alt("maria.work@example.com"))
    await _run(profile.remove_alt("maria.work@example.com"))
    upload = _Upload()
    await _run(profile.upload_picture([upload]))
    await _run(profile.choose_language("fr"))

    otp = await root.get_state(OtpState)
    otp._begin(ALT_EMAIL, "maria.work@example.com")
    await _run(otp.submit({"otp": "123456"}))
    otp._begin(ALT_EMAIL, "maria.work@example.com", resend_after=0)
    await _run(otp.resend())

    notifications = await root.get_state(NotificationState)
    notifications.prefs = {"order_confirmation": False, "newsletter": True}
    await _run(notifications.save())
    await _run((await root.get_state(LanguageState)).choose("fr"))
    await _run(
        (await root.get_state(ChangePasswordState)).submit(
            {
                "current_password": DEMO_PASSWORD,
                "new_password": "Other@2026",
                "confirm_password": "Other@2026",
            }
        )
    )

    await _run(
        (await root.get_state(ContactState)).submit(
            {
                "first_name": "Eve",
                "last_name": "Intruder",
                "email": "eve@evil.example",
                "phone": "(613) 555-0199",
                "subject": "Refund",
                "description": "Send me a refund",
            }
        )
    )

    await _run((await root.get_state(DonateState)).load())
    await _run((await root.get_state(CardsState)).load())
    return upload


def _shown(root: rx.State) -> str:
    """Every var of every state the browser would receive, as one text."""
    return json.dumps(root.dict(), default=str)


def _assert_nothing_leaked_or_written(root, victim, before, upload) -> None:
    shown = _shown(root)
    for secret in victim["secrets"]:
        assert secret and secret not in shown, f"{secret!r} reached the browser"
    assert _snapshot() == before
    assert not upload.read_called


async def _attack(prepare) -> None:
    victim = _victim()
    before = _snapshot()
    root = rx.State(_reflex_internal_init=True)
    await prepare(root, victim)
    upload = await _every_signed_in_call(root, victim)
    _assert_nothing_leaked_or_written(root, victim, before, upload)
    auth = await root.get_state(AuthState)
    assert auth.status in ("visitor", "unknown") and auth.token == ""


def test_no_token_gets_nothing_and_changes_nothing(database):
    async def nothing(root, victim):
        return None

    asyncio.run(_attack(nothing))


def test_a_forged_token_gets_nothing_and_changes_nothing(database):
    async def forged(root, victim):
        auth = await root.get_state(AuthState)
        auth.token = "forged-" + "x" * 40

    asyncio.run(_attack(forged))


def test_an_identity_claimed_in_browser_storage_is_not_believed(database):
    """The browser controls its cookie and localStorage: a session_data naming the victim,
    with a status left at 'parent' by some earlier code path, proves nothing."""

    async def claimed(root, victim):
        auth = await root.get_state(AuthState)
        auth.token = "forged"
        auth.session_data = json.dumps({"id": victim["id"], "signup_step": "COMPLETE"})
        auth.status, auth.signup_step = "parent", "COMPLETE"

    asyncio.run(_attack(claimed))


def test_acting_parent_is_the_token_s_parent_and_nobody_for_a_bad_token(database):
    async def scenario():
        victim = _victim()
        with session_scope() as session:
            parent = session.get(Parent, victim["id"])
            token = start_session(session, parent, "tests")
        root = rx.State(_reflex_internal_init=True)
        auth = await root.get_state(AuthState)
        auth.token = token
        who = await acting_parent(auth)
        assert who is not None and who.parent_id == victim["id"] and who.complete
        auth.token = token + "x"
        assert await acting_parent(auth) is None
        assert auth.token == "" and auth.status == "visitor"

    asyncio.run(scenario())


def test_a_parent_cannot_reach_another_parent_s_children_by_their_ids(database):
    """An attacker with an account of their own sends the victim's child ids: the services
    answer for the attacker's own family only."""

    async def scenario():
        victim = _victim()
        with session_scope() as session:
            attacker = make_parent(session, first_name="Eve", last_name="Attacker")
            own = make_child(session, attacker, first_name="Evelyn", is_default=True)
            token = start_session(session, attacker, "tests")
            own_id = own.id
        before = _snapshot()
        root = rx.State(_reflex_internal_init=True)
        auth = await root.get_state(AuthState)
        auth.token = token
        await _run(auth.require_parent())
        assert auth.first_name == "Eve"  # the control: this session does work

        children = await root.get_state(ChildrenState)
        await _run(children.load())
        assert [k["id"] for k in children.kids] == [str(own_id)]
        first_child, second_child = victim["children"][:2]
        await _run(children.set_default(str(second_child)))
        await _run(children.ask_delete(str(first_child), "x"))
        await _run(children.confirm_delete())

        (await root.get_state(ChildChoiceState)).child_id = str(first_child)
        form = await root.get_state(ChildFormState)
        await _run(form.start_edit())
        assert form.missing and form.child_id == 0  # "not found", never the victim's child

        allergy = await root.get_state(AllergyState)
        await _run(allergy.start())
        assert allergy.child_id == own_id
        allergy.child_id = first_child
        await _run(allergy.save())

        after = _snapshot()
        assert after["children"] == before["children"]
        assert after["allergies"] == before["allergies"]
        for secret in victim["secrets"]:
            assert secret not in _shown(root)

    asyncio.run(scenario())


def test_a_session_revoked_elsewhere_stops_at_the_next_call(database):
    async def scenario():
        victim = _victim()
        root = rx.State(_reflex_internal_init=True)
        sign_in = await root.get_state(SignInState)
        await _run(sign_in.submit({"identifier": DEMO_EMAIL, "password": DEMO_PASSWORD}))
        auth = await root.get_state(AuthState)
        children = await root.get_state(ChildrenState)
        await _run(children.load())
        assert len(children.kids) == 2  # the control: a live session sees its children
        before = _snapshot()

        with session_scope() as session:  # Logout through the API, from another device
            accounts.logout(session=session, token=auth.token)

        # No page navigation, no refresh: the very next call on this open socket.
        await _run(children.set_default(str(victim["children"][1])))
        assert _snapshot() == before
        assert auth.token == "" and auth.status == "visitor"
        await _run(children.load())
        assert children.kids == []

    asyncio.run(scenario())


def test_a_password_change_ends_the_other_open_sessions_at_their_next_call(database):
    async def scenario():
        with session_scope() as session:
            parent = make_parent(session, first_name="Pat", last_name="Changer")
            make_child(session, parent, first_name="Robin", is_default=True)
            email, parent_id = parent.email, parent.id

        async def signed_in() -> rx.State:
            root = rx.State(_reflex_internal_init=True)
            sign_in = await root.get_state(SignInState)
            await _run(sign_in.submit({"identifier": email, "password": DEMO_PASSWORD}))
            assert (await root.get_state(AuthState)).token
            return root

        here, elsewhere = await signed_in(), await signed_in()
        form = await here.get_state(ChangePasswordState)
        await _run(
            form.submit(
                {
                    "current_password": DEMO_PASSWORD,
                    "new_password": "Changed@2027",
                    "confirm_password": "Changed@2027",
                }
            )
        )
        assert form.errors == {}
        # The browser that changed it carries on; the other one acts no more.
        mine = await here.get_state(ChildrenState)
        await _run(mine.load())
        assert [k["first_name"] for k in mine.kids] == ["Robin"]
        theirs = await elsewhere.get_state(ChildrenState)
        await _run(theirs.load())
        assert theirs.kids == []
        assert (await elsewhere.get_state(AuthState)).status == "visitor"
        with session_scope() as session:
            live = session.exec(
                select(func.count())
                .select_from(SessionToken)
                .where(SessionToken.parent_id == parent_id, SessionToken.revoked_at.is_(None))
            ).one()
        assert live == 1

    asyncio.run(scenario())
