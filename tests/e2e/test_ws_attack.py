"""Acting as another parent, attacked the way it was found: a raw websocket client on the real prod
server's ``/_event``, no browser. It claims to be the demo parent (the helpers that used to
set the signed-in parent, a forged token cookie, the victim's id in the storage it controls),
then sends every signed-in load and action, the background payment events included, aimed at
the victim's ids. Nothing of the victim comes back and nothing is written. A session revoked
through the API stops working on a socket that stays open.

The control runs the same client with a real session first, so the test can see a leak when
there is one.
"""

from __future__ import annotations

import json
import struct
import uuid
import zlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from reflex.state import UpdateVarsInternalState
from sqlmodel import func, select

from hotmeals.db.engine import make_engine, session_scope
from hotmeals.db.models import (
    AuditEvent,
    Child,
    ChildAllergy,
    ContactMessage,
    Donation,
    EmailOutbox,
    NotificationPreference,
    Parent,
    ParentAltEmail,
    Payment,
    SessionToken,
    StoredCard,
)
from hotmeals.services.parents import start_session
from hotmeals.ui.screens.allergy_profile.state import AllergyState
from hotmeals.ui.screens.donate_payment.state import DonateState
from hotmeals.ui.screens.parent_edit_profile.state import ParentEditState
from hotmeals.ui.screens.payment_methods.state import CardsState
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.children import ChildChoiceState, ChildFormState, ChildrenState
from hotmeals.ui.shared_state.contact import ContactState
from hotmeals.ui.shared_state.content import ContentState
from hotmeals.ui.shared_state.edit_profile import EditProfileState
from hotmeals.ui.shared_state.otp import OtpState
from hotmeals.ui.shared_state.settings import ChangePasswordState, LanguageState, NotificationState
from hotmeals.ui.shared_state.steps import ProfileStepState
from tests.e2e.rawsocket import RawReflexSocket
from tests.e2e.server import AppServer

DEMO_EMAIL = "parent@example.com"
CARD_LAST4 = "7391"
ALT_EMAIL = f"maria.{uuid.uuid4().hex[:6]}@example.com"
API_HEADERS = {"api-key": "hotmeals-dev-key", "app": "P", "content-type": "text/plain"}


def tiny_png() -> bytes:
    """A valid 1x1 PNG, so only the missing session can refuse it."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def ev(state: type, handler: str) -> str:
    return f"{state.get_full_name()}.{handler}"


@pytest.fixture(scope="module")
def db(app: AppServer) -> Iterator[Any]:
    engine = make_engine(f"sqlite:///{app.data_dir}/e2e.db")
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def victim(db) -> Iterator[dict[str, Any]]:
    """The demo parent, with a saved card and an alternate address to aim at (removed after,
    so the other browser tests find the demo data as seeded)."""
    with session_scope(db) as session:
        parent = session.exec(select(Parent).where(Parent.email == DEMO_EMAIL)).one()
        card = StoredCard(
            parent_id=parent.id,
            converge_token=uuid.uuid4().hex[:16],
            brand="VISA",
            masked=f"40**********{CARD_LAST4}",
            exp_month=12,
            exp_year=2031,
        )
        session.add(card)
        session.add(ParentAltEmail(parent_id=parent.id, email=ALT_EMAIL))
        session.flush()
        kids = session.exec(
            select(Child).where(Child.parent_id == parent.id, Child.is_active).order_by(Child.id)
        ).all()
        found = {
            "id": parent.id,
            "profile_image": parent.profile_image,
            "children": [k.id for k in kids],
            "card": card.id,
            # What only the victim's session may see, as it would appear in a delta.
            "secrets": [
                parent.email,
                f'"{parent.first_name}"',
                parent.phone,
                f'"{CARD_LAST4}"',
                *(f'"{k.first_name}"' for k in kids),
            ],
        }
    yield found
    with session_scope(db) as session:
        session.delete(session.get(StoredCard, found["card"]))
        for row in session.exec(select(ParentAltEmail).where(ParentAltEmail.email == ALT_EMAIL)):
            session.delete(row)


def snapshot(db, parent_id: int) -> dict[str, Any]:
    """Everything of the victim a forged call could have written, and the app-wide rows a
    forged payment, contact message or e-mail would add."""
    with session_scope(db) as session:

        def count(model, *where) -> int:
            return session.exec(select(func.count()).select_from(model).where(*where)).one()

        parent = session.get(Parent, parent_id)
        kids = session.exec(select(Child).where(Child.parent_id == parent_id)).all()
        kid_ids = [k.id for k in kids]
        return {
            "parent": (
                parent.first_name,
                parent.last_name,
                parent.phone,
                parent.language,
                parent.password_hash,
                parent.profile_image,
                parent.signup_step,
            ),
            "children": sorted(
                (k.id, k.first_name, k.last_name, k.is_default, k.is_active, k.teacher_id)
                for k in kids
            ),
            "allergies": sorted(
                (a.child_id, a.ingredient_id, a.alert_level)
                for a in session.exec(
                    select(ChildAllergy).where(ChildAllergy.child_id.in_(kid_ids))
                )
            ),
            "cards": sorted(
                (c.id, c.converge_token, c.deleted_at)
                for c in session.exec(select(StoredCard).where(StoredCard.parent_id == parent_id))
            ),
            "alt_emails": sorted(
                (a.email, a.verified_at)
                for a in session.exec(
                    select(ParentAltEmail).where(ParentAltEmail.parent_id == parent_id)
                )
            ),
            "prefs": sorted(
                (p.kind, p.enabled)
                for p in session.exec(
                    select(NotificationPreference).where(
                        NotificationPreference.parent_id == parent_id
                    )
                )
            ),
            "sessions": count(SessionToken, SessionToken.parent_id == parent_id),
            "contact": count(ContactMessage),
            "payments": count(Payment),
            "donations": count(Donation),
            "outbox": count(EmailOutbox),
            "audit": count(AuditEvent),
        }


def signed_in_calls(victim: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every signed-in load and action, with the victim's ids wherever one can be given."""
    child, other_child = victim["children"][0], victim["children"][-1]
    card = str(victim["card"])
    return [
        (ev(AuthState, "require_parent"), {}),
        (ev(EditProfileState, "enter"), {}),
        (ev(EditProfileState, "go"), {"step": "8", "settings_step": "1"}),
        (ev(EditProfileState, "go"), {"step": "6", "settings_step": "2"}),
        (ev(EditProfileState, "open_step"), {"step": "1", "settings_step": "1"}),
        (ev(ChildrenState, "load"), {}),
        (ev(ChildrenState, "set_default"), {"child_id": str(other_child)}),
        (ev(ChildrenState, "ask_delete"), {"child_id": str(child), "name": "x"}),
        (ev(ChildrenState, "confirm_delete"), {}),
        (ev(ChildFormState, "start_edit"), {}),
        (ev(ChildFormState, "save"), {"form_data": {"first_name": "Hacked", "last_name": "Child"}}),
        (ev(AllergyState, "start"), {}),
        (ev(AllergyState, "add"), {"ingredient_id": "1", "name": "x"}),
        (ev(AllergyState, "save"), {}),
        (ev(AllergyState, "skip"), {}),
        (ev(ParentEditState, "load"), {}),
        (
            ev(ParentEditState, "save"),
            {
                "form_data": {
                    "first_name": "Hacked",
                    "last_name": "Parent",
                    "phone": "(613) 555-0199",
                }
            },
        ),
        (ev(ParentEditState, "add_alt"), {"form_data": {"alt_email": "eve@evil.example"}}),
        (ev(ParentEditState, "verify_alt"), {"address": ALT_EMAIL}),
        (ev(ParentEditState, "remove_alt"), {"address": ALT_EMAIL}),
        (ev(NotificationState, "set_pref"), {"kind": "newsletter", "value": True}),
        (ev(NotificationState, "save"), {}),
        (ev(LanguageState, "choose"), {"lang": "fr"}),
        (
            ev(ChangePasswordState, "submit"),
            {
                "form_data": {
                    "current_password": "Lunch@2026",
                    "new_password": "Owned@2026",
                    "confirm_password": "Owned@2026",
                }
            },
        ),
        (
            ev(ContactState, "submit"),
            {
                "form_data": {
                    "first_name": "Eve",
                    "last_name": "Intruder",
                    "email": "eve@evil.example",
                    "phone": "(613) 555-0199",
                    "subject": "Refund",
                    "description": "Refund me",
                }
            },
        ),
        (ev(OtpState, "submit"), {"form_data": {"otp": "123456"}}),
        (ev(DonateState, "load"), {}),
        (ev(DonateState, "set_choice"), {"value": "10"}),
        (ev(DonateState, "pay"), {"form_data": {}}),
        (
            ev(DonateState, "lightbox_closed"),
            {"value": {"outcome": "approval", "txn_id": "123456", "token": "", "message": ""}},
        ),
        (ev(CardsState, "load"), {}),
        (ev(CardsState, "pay"), {}),
        (
            ev(CardsState, "lightbox_closed"),
            {
                "value": {
                    "outcome": "approval",
                    "txn_id": "",
                    "token": uuid.uuid4().hex[:16],
                    "message": "",
                }
            },
        ),
        (ev(CardsState, "ask_delete"), {"card_id": card, "label": "x"}),
        (ev(CardsState, "confirm_delete"), {}),
    ]


# A harmless handler whose answer tells that the calls sent before it were processed.
BARRIER = (f"{AuthState.get_full_name()}.set_logout_open", "logout_open")


def run_calls(sock: RawReflexSocket, calls) -> None:
    for name, payload in calls:
        sock.call(name, payload, barrier=BARRIER)
    sock.drain()  # background events (payments) may answer after the barrier


def test_a_real_session_sees_its_data_through_this_client(app, db, victim):
    """The control: the harness does see a parent's data when the session is real."""
    with session_scope(db) as session:
        token = start_session(session, session.get(Parent, victim["id"]), "ws-control")
    with RawReflexSocket(app.base_url) as sock:
        sock.call(
            ev(UpdateVarsInternalState, "update_vars_internal"),
            {"vars": {f"{AuthState.get_full_name()}.token": token}},
            barrier=BARRIER,
        )
        run_calls(
            sock,
            [
                (ev(ChildrenState, "load"), {}),
                (ev(CardsState, "load"), {}),
                (ev(ParentEditState, "load"), {}),
            ],
        )
        answer = httpx.post(
            f"{app.base_url}/_upload",
            files={"files": ("me.png", tiny_png(), "image/png")},
            headers={
                "reflex-client-token": sock.client_token,
                "reflex-event-handler": ev(ParentEditState, "upload_picture"),
                # What a browser sends along: the session cookie the guard checks.
                "cookie": f"hm_token={token}",
            },
            timeout=30,
        )
        sock.drain()
        text = sock.received_text()
    for secret in victim["secrets"]:
        assert secret in text, f"the control did not see {secret!r}"
    # The same upload does store a picture for a real session (then the demo is restored).
    assert answer.status_code == 200, answer.text
    stored = list((app.data_dir / "uploads" / "profile").iterdir())
    assert stored, "the control upload stored no picture"
    for path in stored:
        path.unlink()
    with session_scope(db) as session:
        session.get(Parent, victim["id"]).profile_image = victim["profile_image"]
    httpx.post(
        f"{app.base_url}/api/v1/Parent/auth/Logout",
        headers={**API_HEADERS, "token": token},
        timeout=30,
    )


def test_a_forged_identity_on_the_websocket_gets_nothing_and_changes_nothing(app, db, victim):
    before = snapshot(db, victim["id"])
    profile = {
        "id": victim["id"],
        "first_name": "Maria",
        "email": DEMO_EMAIL,
        "signup_step": "COMPLETE",
        "isLoginData": True,
    }
    claims = [
        # The helpers the attack first called, under their old names and their new ones.
        (ev(AuthState, "apply_profile"), {"profile": profile}),
        (ev(AuthState, "start_session"), {"token": "forged", "session_data": profile}),
        (ev(AuthState, "_apply_profile"), {"profile": profile}),
        (ev(AuthState, "_start_session"), {"token": "forged", "session_data": profile}),
        (ev(AuthState, "refresh"), {}),
        (ev(AuthState, "checked_parent_id"), {}),
        (ev(ProfileStepState, "set_steps"), {"step": "1"}),
        (ev(ProfileStepState, "load_for_step"), {}),
        (ev(ContentState, "ensure_loaded"), {"slug": "about"}),
        (ev(ContactState, "fill_from_profile"), {}),
        (ev(ChildrenState, "reload"), {}),
        (ev(NotificationState, "reload"), {}),
    ]
    with RawReflexSocket(app.base_url) as sock:
        for name, payload in claims:
            sock.call(name, payload, barrier=BARRIER)
        # What the browser does control: its cookie and storage. Claim the victim there.
        sock.call(
            ev(UpdateVarsInternalState, "update_vars_internal"),
            {
                "vars": {
                    f"{AuthState.get_full_name()}.token": "forged-" + uuid.uuid4().hex,
                    f"{AuthState.get_full_name()}.session_data": json.dumps(
                        {"id": victim["id"], "signup_step": "COMPLETE"}
                    ),
                    f"{ChildChoiceState.get_full_name()}.child_id": str(victim["children"][0]),
                }
            },
            barrier=BARRIER,
        )
        run_calls(sock, signed_in_calls(victim))
        # The picture upload travels over HTTP, in the name of this socket's client token.
        httpx.post(
            f"{app.base_url}/_upload",
            files={"files": ("me.png", tiny_png(), "image/png")},
            headers={
                "reflex-client-token": sock.client_token,
                "reflex-event-handler": ev(ParentEditState, "upload_picture"),
            },
            timeout=30,
        )
        sock.drain()
        text = sock.received_text()
    assert len(sock.updates) > 30  # the server did answer the calls
    uploads = app.data_dir / "uploads" / "profile"
    assert not uploads.exists() or not any(uploads.iterdir()), "a picture was stored"
    for secret in victim["secrets"]:
        assert secret not in text, f"{secret!r} was sent to the attacker"
    assert snapshot(db, victim["id"]) == before


def test_a_session_revoked_through_the_api_stops_on_the_open_socket(app, db, victim):
    with session_scope(db) as session:
        token = start_session(session, session.get(Parent, victim["id"]), "ws-revoked")
    with RawReflexSocket(app.base_url) as sock:
        sock.call(
            ev(UpdateVarsInternalState, "update_vars_internal"),
            {"vars": {f"{AuthState.get_full_name()}.token": token}},
            barrier=BARRIER,
        )
        run_calls(sock, [(ev(ChildrenState, "load"), {})])
        assert f'"{DEMO_EMAIL}"' not in sock.received_text()  # children only, so far
        assert any(s in sock.received_text() for s in victim["secrets"])  # it did work

        answer = httpx.post(
            f"{app.base_url}/api/v1/Parent/auth/Logout",
            headers={**API_HEADERS, "token": token},
            timeout=30,
        ).json()
        assert answer["code"] == 1, answer
        before = snapshot(db, victim["id"])
        seen = len(sock.frames)
        # Same socket, no reconnect, no navigation: the next calls act no more.
        run_calls(sock, signed_in_calls(victim))
        text = "\n".join(sock.frames[seen:])
    for secret in victim["secrets"]:
        assert secret not in text, f"{secret!r} was sent after the session was revoked"
    assert snapshot(db, victim["id"]) == before
