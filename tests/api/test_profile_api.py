"""Profile, alternate e-mails, picture, notifications, CMS pages and the contact form."""

from __future__ import annotations

import base64
import io
import re
from datetime import timedelta

import pytest
from PIL import Image
from sqlmodel import select

from hotmeals.clock import now
from hotmeals.db.engine import session_scope
from hotmeals.db.models import ContactMessage, Parent, RateLimitHit
from hotmeals.settings import get_settings
from tests.api.helpers import (
    get,
    last_otp,
    login,
    mails_to,
    new_email,
    new_phone,
    ok,
    post,
    refused,
    signed_up,
)


def _picture(fmt: str, size=(64, 48)) -> bytes:
    """A real picture (profile pictures are decoded, so first bytes alone no longer pass)."""
    out = io.BytesIO()
    Image.new("RGB", size, (209, 52, 21)).save(out, fmt)
    return out.getvalue()


PNG, JPEG, WEBP = _picture("PNG"), _picture("JPEG"), _picture("WEBP")


def _profile_body(**changes) -> dict:
    """A new number each time: a phone number is one account's."""
    return {"first_name": "Ann", "last_name": "Lee", "phone": new_phone(), **changes}


def _forget_cooldowns() -> None:
    with session_scope() as session:
        for row in session.exec(select(RateLimitHit)).all():
            row.created_at = now() - timedelta(minutes=2)
            session.add(row)


# --- GetUserDetails ------------------------------------------------------------------------------


def test_get_user_details_has_the_spec_fields(client):
    token = login(client)
    body = ok(get(client, "/Parent/user/GetUserDetails", token))
    data = body["data"]
    for key in (
        "id",
        "email",
        "first_name",
        "last_name",
        "alt_emails",
        "token",
        "signup_step",
        "profile_image",
        "cart_count",
        "cancel_cart_count",
        "active_child_count",
    ):
        assert key in data
    assert data["token"] == token and data["active_child_count"] == 2
    assert data["notifications"]["newsletter"] is False
    fr = ok(get(client, "/Parent/user/GetUserDetails", token, lang="fr"))
    assert fr["message"] == "Détails du profil"


# --- EditProfile ----------------------------------------------------------------------------------


def test_edit_profile_details_and_language(client):
    token, data = signed_up(client)
    body = ok(
        post(
            client,
            "/Parent/auth/EditProfile",
            _profile_body(first_name="Anna", language="fr", phone="613-555-0111"),
            token,
        )
    )
    assert body["message"] == "Profile updated successfully"
    assert body["data"]["first_name"] == "Anna" and body["data"]["language"] == "fr"
    assert body["data"]["phone"] == "613-555-0111"
    # mail now goes out in French
    ok(post(client, "/Parent/auth/Forgot_Password", {"email": data["email"]}))
    assert mails_to(data["email"])[-1].subject.startswith("Réinitialiser")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"first_name": ""}, "Please enter first name"),
        (
            {"last_name": "L3e"},
            "Please enter only letters (A-Z, a-z) with no special characters or numbers",
        ),
        ({"phone": ""}, "Please enter phone number"),
        ({"phone": "12345"}, "Please enter atleast 8 digits for phone number"),
        ({"alt_emails": ["nope"]}, "Please enter valid email address"),
        (
            {"alt_emails": ["a@x.org", "b@x.org", "c@x.org", "d@x.org"]},
            "You can add at most 3 alternate email addresses",
        ),
        ({"language": "de"}, "Please check the value of language"),
        ({"profile_image": "!!!not base64!!!"}, "Please choose a PNG, JPEG or WebP picture"),
        (
            {"profile_image": base64.b64encode(b"GIF89a....").decode()},
            "Please choose a PNG, JPEG or WebP picture",
        ),
        ({"profile_image": "data:image/png,rawdata"}, "Please choose a PNG, JPEG or WebP picture"),
        (
            {"profile_image": base64.b64encode(PNG + b"\x00" * (2 * 1024 * 1024)).decode()},
            "The picture must be 2 MB or smaller",
        ),
    ],
)
def test_edit_profile_refuses_each_bad_field(client, changes, message):
    token = login(client)
    refused(post(client, "/Parent/auth/EditProfile", _profile_body(**changes), token), message)


def test_edit_profile_keeps_a_phone_already_on_file(client):
    token = login(client)
    body = _profile_body(first_name="Maria", last_name="Tremblay", phone="613-555-0142")
    assert ok(post(client, "/Parent/auth/EditProfile", body, token))["data"]["phone"] == (
        "613-555-0142"
    )
    refused(
        post(client, "/Parent/auth/EditProfile", {**body, "phone": "(613) 555-0142 9999"}, token),
        "Phone number should not exceed 13 characters",
    )


def test_edit_profile_refuses_the_main_address_as_alternate_in_french(client):
    token = login(client)
    body = _profile_body(alt_emails=["PARENT@example.com"])
    refused(
        post(client, "/Parent/auth/EditProfile", body, token, lang="fr"),
        "C'est déjà votre adresse courriel principale",
    )


def test_edit_profile_needs_a_session(client):
    refused(post(client, "/Parent/auth/EditProfile", _profile_body()), status=401)


@pytest.mark.parametrize(("raw", "kind"), [(PNG, "png"), (JPEG, "jpg"), (WEBP, "webp")])
def test_profile_picture_is_stored_and_served(client, database, raw, kind):
    token, _ = signed_up(client)
    encoded = base64.b64encode(raw).decode()
    image = f"data:image/{kind};base64,{encoded}" if kind == "png" else encoded
    data = ok(post(client, "/Parent/auth/EditProfile", _profile_body(profile_image=image), token))[
        "data"
    ]
    url = data["profile_image"]
    assert re.fullmatch(rf"/api/v1/uploads/profile/p\d+-[0-9a-f]{{16}}\.{kind}", url)
    stored = get_settings().data_dir / "uploads" / "profile" / url.rsplit("/", 1)[-1]
    # a re-encoded copy of the same picture is stored, never the bytes as sent
    with Image.open(stored) as copy:
        assert copy.format == Image.open(io.BytesIO(raw)).format and copy.size == (64, 48)
    served = client.get(url)
    assert served.status_code == 200 and served.content == stored.read_bytes()
    assert served.headers["content-type"].startswith("image/")
    # a new picture replaces the old file
    data2 = ok(
        post(client, "/Parent/auth/EditProfile", _profile_body(profile_image=encoded), token)
    )["data"]
    assert data2["profile_image"] != url and not stored.exists()


@pytest.mark.parametrize("name", ["..%2Fapi.db", "p1-x.gif", "api.db", "p1-0000000000000000.png"])
def test_profile_picture_route_serves_nothing_else(client, name):
    assert client.get(f"/api/v1/uploads/profile/{name}").status_code == 404


# --- alternate e-mails ----------------------------------------------------------------------------


def test_alternate_email_verification(client):
    token, data = signed_up(client)
    alt = new_email("alt")
    body = ok(post(client, "/Parent/auth/EditProfile", _profile_body(alt_emails=[alt]), token))
    assert body["data"]["alt_emails"] == [{"email": alt, "verified": False}]
    code = last_otp(alt)
    wrong = "000000" if code != "000000" else "111111"
    refused(
        post(client, "/Parent/auth/VerifyAltEmail", {"email": alt, "otp": wrong}, token),
        "Invalid or expired verification code",
    )
    refused(
        post(client, "/Parent/auth/VerifyAltEmail", {"email": "x@y.org", "otp": code}, token),
        "This alternate email address is not on your profile",
    )
    verified = ok(post(client, "/Parent/auth/VerifyAltEmail", {"email": alt, "otp": code}, token))
    assert verified["data"]["alt_emails"] == [{"email": alt, "verified": True}]
    login_data = ok(
        post(client, "/Parent/auth/Login", {"email": data["email"], "password": "Passw0rd!"})
    )["data"]
    assert login_data["alt_emails"] == [{"email": alt, "verified": True}]
    refused(
        post(client, "/Parent/auth/AddAltEmail", {"email": alt}, token),
        "This alternate email address is already added",
    )
    # removing it from the list deletes it
    body = ok(post(client, "/Parent/auth/EditProfile", _profile_body(alt_emails=[]), token))
    assert body["data"]["alt_emails"] == []


def test_add_alt_email_sends_a_code_with_cooldown(client):
    token, _ = signed_up(client)
    alt = new_email("alt")
    sent = ok(post(client, "/Parent/auth/AddAltEmail", {"email": alt}, token))
    assert sent["data"]["email"] == alt and mails_to(alt)[-1].kind == "otp_alt_email"
    again = refused(post(client, "/Parent/auth/AddAltEmail", {"email": alt}, token))
    assert again["message"].startswith("Please wait")
    _forget_cooldowns()
    ok(post(client, "/Parent/auth/AddAltEmail", {"email": alt}, token))
    ok(post(client, "/Parent/auth/VerifyAltEmail", {"email": alt, "otp": last_otp(alt)}, token))
    refused(
        post(client, "/Parent/auth/AddAltEmail", {"email": ""}, token), "Please enter email address"
    )


# --- notifications --------------------------------------------------------------------------------


def test_update_notification_preferences(client):
    token, _ = signed_up(client)
    path = "/Parent/user/update_parent_email_noti_details"
    body = ok(post(client, path, {"newsletter": True, "order_reminder": False}, token))
    assert body["message"] == "Notification preferences saved"
    assert body["data"] == {
        "order_confirmation": True,
        "order_reminder": False,
        "cutoff_reminder": True,
        "refund": True,
        "menu_updates": True,
        "newsletter": True,
    }
    again = ok(post(client, path, {"newsletter": False}, token))["data"]
    assert again["order_reminder"] is False and again["newsletter"] is False
    profile = ok(get(client, "/Parent/user/GetUserDetails", token))["data"]
    assert profile["notifications"] == again
    refused(post(client, path, {"newsletter": [1]}, token), "Please check the value of newsletter")
    refused(post(client, path, {"newsletter": True}), status=401)
    fr = ok(post(client, path, {}, token, lang="fr"))
    assert fr["message"] == "Préférences de notification enregistrées"


# --- content --------------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ["about", "terms", "privacy"])
def test_cms_pages_in_both_languages(client, slug):
    en = ok(post(client, "/Parent/user/cms_pages", {"slug": slug}))["data"]
    fr = ok(post(client, "/Parent/user/cms_pages", {"slug": slug}, lang="fr"))["data"]
    assert en["language"] == "en" and fr["language"] == "fr"
    assert en["title"] != fr["title"] and en["body"] and fr["body"]


def test_cms_faq_and_unknown_pages(client):
    faq = ok(post(client, "/Parent/user/cms_pages", {"slug": "faq"}))["data"]
    assert faq["items"] and {"question", "answer"} <= set(faq["items"][0])
    faq_fr = ok(post(client, "/Parent/user/cms_pages", {"type": "faq"}, lang="fr"))["data"]
    assert faq_fr["title"] == "Foire aux questions"
    refused(post(client, "/Parent/user/cms_pages", {"slug": "nope"}), "Page not found")
    refused(post(client, "/Parent/user/cms_pages", {}, lang="fr"), "Page introuvable")


CONTACT = {
    "first_name": "Ann",
    "last_name": "Lee",
    "email": "ann@example.org",
    "phone": "613-555-0123",
    "subject": "Menu question",
    "description": "Is the pasta nut-free?",
}


def test_contact_us_stores_and_mails_the_provider(client):
    token = login(client)
    body = ok(post(client, "/Parent/user/contact_us", CONTACT, token))
    assert body["message"].startswith("Thank you!")
    with session_scope() as session:
        message = session.exec(select(ContactMessage).order_by(ContactMessage.id.desc())).first()
        parent = session.exec(select(Parent).where(Parent.email == "parent@example.com")).one()
    assert message.subject == "Menu question" and message.parent_id == parent.id
    mail = mails_to(get_settings().provider_email)[-1]
    assert mail.kind == "contact" and "Is the pasta nut-free?" in mail.body_text
    # a visitor may write too
    ok(post(client, "/Parent/user/contact_us", CONTACT))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"first_name": ""}, "Please enter first name"),
        (
            {"last_name": "Lee2"},
            "Please enter only letters (A-Z, a-z) with no special characters or numbers",
        ),
        ({"email": "bad"}, "Please enter valid email address"),
        ({"phone": ""}, "Please enter phone number"),
        ({"subject": " "}, "Please enter subject"),
        ({"description": ""}, "Please tell us how we can help"),
        ({"subject": "x" * 201}, "Subject should not exceed 200 characters"),
        ({"description": "x" * 5001}, "Description should not exceed 5000 characters"),
    ],
)
def test_contact_us_refuses_each_bad_field(client, changes, message):
    refused(post(client, "/Parent/user/contact_us", {**CONTACT, **changes}), message)


def test_contact_us_in_french_and_rate_limited(client):
    refused(
        post(client, "/Parent/user/contact_us", {**CONTACT, "subject": ""}, lang="fr"),
        "Veuillez saisir l'objet",
    )
    for _ in range(10):
        ok(post(client, "/Parent/user/contact_us", CONTACT))
    body = refused(post(client, "/Parent/user/contact_us", CONTACT))
    assert body["message"].startswith("Too many attempts")

    # A signed-in parent on the same (shared) address is counted on the account, not on the
    # visitors' use of the address; ten an hour, then the same refusal.
    token = login(client)
    for _ in range(10):
        ok(post(client, "/Parent/user/contact_us", CONTACT, token))
    body = refused(post(client, "/Parent/user/contact_us", CONTACT, token))
    assert body["message"].startswith("Too many attempts")
