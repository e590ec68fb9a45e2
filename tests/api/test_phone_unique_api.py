"""A phone number identifies one account. Sign-up and edit profile refuse a number
another active account has, however it is written, with a clear message in EN and FR; the
database refuses it too (a partial unique index)."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from hotmeals.db.engine import session_scope
from hotmeals.db.models import Parent
from tests.api.helpers import (
    new_email,
    new_phone,
    ok,
    phone_of,
    post,
    refused,
    signed_up,
    signup_body,
)
from tests.factories import make_parent

TAKEN_EN = "This phone number is already used by another account"
TAKEN_FR = "Ce numéro de téléphone est déjà utilisé par un autre compte"


def _profile(phone: str) -> dict:
    return {"first_name": "Ann", "last_name": "Lee", "phone": phone}


@pytest.mark.parametrize("written", ["613-555-0142", "+1 (613) 555-0142", "6135550142"])
def test_sign_up_with_the_demo_parent_s_phone_is_refused(client, written):
    email = new_email()
    body = refused(post(client, "/Parent/auth/Signup", signup_body(email, phone=written)), TAKEN_EN)
    assert body["data"] == {"field": "phone"}
    with session_scope() as session:
        assert session.exec(select(Parent).where(Parent.email == email)).first() is None


def test_sign_up_refusal_in_french(client):
    refused(
        post(
            client, "/Parent/auth/Signup", signup_body(new_email(), phone="613 555 0142"), lang="fr"
        ),
        TAKEN_FR,
    )


def test_edit_profile_refuses_another_account_s_phone_and_keeps_its_own(client):
    token, _ = signed_up(client)
    own = phone_of(client, token)
    refused(post(client, "/Parent/auth/EditProfile", _profile("(613) 555-0142"), token), TAKEN_EN)
    refused(
        post(client, "/Parent/auth/EditProfile", _profile("613.555.0142"), token, lang="fr"),
        "Veuillez saisir un numéro de téléphone valide",
    )
    refused(
        post(client, "/Parent/auth/EditProfile", _profile("+1 613 555 0142"), token, lang="fr"),
        TAKEN_FR,
    )
    assert phone_of(client, token) == own
    # Its own number, written another way, is still its own; a free number is taken.
    digits = "".join(ch for ch in own if ch.isdigit())
    ok(post(client, "/Parent/auth/EditProfile", _profile(f"+1 {digits}"), token))
    free = new_phone()
    assert (
        ok(post(client, "/Parent/auth/EditProfile", _profile(free), token))["data"]["phone"] == free
    )


def test_phone_sign_in_opens_the_one_account_with_that_number(client):
    phone = new_phone()
    email = new_email()
    ok(post(client, "/Parent/auth/Signup", signup_body(email, phone=phone)))
    refused(post(client, "/Parent/auth/Signup", signup_body(new_email(), phone=phone)), TAKEN_EN)
    with session_scope() as session:
        holders = session.exec(
            select(Parent).where(Parent.phone_digits == phone.replace("-", ""))
        ).all()
    assert [p.email for p in holders] == [email]


def test_the_database_refuses_a_second_active_account_with_a_number(database):
    with pytest.raises(IntegrityError), session_scope() as session:
        make_parent(session, phone="(613) 558-4242")
        make_parent(session, phone="613-558-4242")
    # An inactive (closed) account does not hold its number.
    with session_scope() as session:
        closed = make_parent(session, phone="613-558-4343")
        closed.is_active = False
        session.add(closed)
        session.flush()
        make_parent(session, phone="613-558-4343")
