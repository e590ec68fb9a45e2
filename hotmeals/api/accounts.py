"""/api/v1/Parent/auth/* and the profile, content and notification calls of /Parent/user/*.

Thin: parse the body, call one service transaction, answer the envelope. See docs/api.md.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import FileResponse
from sqlmodel import Session

from hotmeals.api.account_schemas import (
    AltEmailVerifyIn,
    ChangePasswordIn,
    CmsPageIn,
    ContactIn,
    EditProfileIn,
    EmailIn,
    LoginIn,
    NewPasswordIn,
    NotificationsIn,
    NotificationsOut,
    OtpSentOut,
    OtpValidOut,
    ProfileOut,
    ResendOtpIn,
    SessionDataOut,
    SignupIn,
    VerifyOtpIn,
)
from hotmeals.api.account_schemas import CmsPageOut as CmsPageOutModel
from hotmeals.api.bodies import openapi_body
from hotmeals.api.deps import (
    PARENT_USER,
    Caller,
    Client,
    CurrentParent,
    ParentWriting,
    SignedIn,
    answer,
    answered,
    api_router,
    idempotency_key,
    json_body,
    optional_parent,
    tags,
)
from hotmeals.api.envelope import Envelope, fail, ok
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t
from hotmeals.services import accounts, content, notifications, profile, submissions
from hotmeals.services.notifications import Preferences
from hotmeals.services.parents import AltEmail, SessionData
from hotmeals.services.profile import Profile
from hotmeals.services.transaction import run_in_transaction

router = api_router()
AUTH = tags("Parent auth")


# --- sign-up, verification, sign-in ------------------------------------------------------------


@router.post(
    "/Parent/auth/Signup",
    tags=AUTH,
    summary="Create an account and e-mail a 6-digit verification code",
    response_model=Envelope[OtpSentOut],
    openapi_extra=openapi_body(SignupIn),
)
async def signup(who: Caller, body: Annotated[SignupIn, Depends(json_body(SignupIn))]) -> Any:
    return await _code_sent(
        who,
        "signup_success",
        accounts.signup,
        first_name=body.first_name or "",
        last_name=body.last_name or "",
        email=body.email or "",
        phone=body.phone or "",
        password=body.password or "",
        confirm_password=body.confirm_password or "",
        terms=body.terms is True,
        language=who.lang,
    )


async def _code_sent(
    client: Client, message: str, fn: Callable[..., Any], /, **kwargs: Any
) -> dict[str, Any]:
    """``fn`` e-mails a code: answered with the address it went to, in the catalog's
    ``message``."""
    sent = await run_in_transaction(fn, **kwargs, address=client.address)
    return answer(asdict(sent), client.lang, message, email=sent.email)


@router.post(
    "/Parent/auth/VerifyOtp",
    tags=AUTH,
    summary="Verify the sign-up e-mail (signs in) or check a password-reset code",
    response_model=Envelope[SessionDataOut | OtpValidOut],
    openapi_extra=openapi_body(VerifyOtpIn),
)
async def verify_otp(
    who: Caller, body: Annotated[VerifyOtpIn, Depends(json_body(VerifyOtpIn))]
) -> Any:
    if body.purpose == "RESET_PASSWORD":
        await run_in_transaction(
            accounts.check_reset_otp,
            email=body.email or "",
            otp=body.otp or "",
            address=who.address,
        )
        email = accounts.normalize_email(body.email or "")
        return ok({"email": email, "otp_valid": True}, t("otp_valid", who.lang))
    result = await _signing_in(who, accounts.verify_otp, email=body.email or "", otp=body.otp or "")
    return ok(session_data_out(result.session_data, result.token), t("email_verified", who.lang))


async def _signing_in(client: Client, fn: Callable[..., Any], /, **kwargs: Any) -> Any:
    """``fn`` opening a session for the caller: its attempts counted by the caller's address,
    the session recorded with the caller's user agent."""
    return await run_in_transaction(
        fn, **kwargs, address=client.address, user_agent=client.user_agent
    )


@router.post(
    "/Parent/auth/ResendOtp",
    tags=AUTH,
    summary="Send a new code (60 s cooldown); the same answer for any address",
    response_model=Envelope[OtpSentOut],
    openapi_extra=openapi_body(ResendOtpIn),
)
async def resend_otp(
    who: Caller, body: Annotated[ResendOtpIn, Depends(json_body(ResendOtpIn))]
) -> Any:
    return await _code_sent(
        who,
        "otp_on_its_way",
        accounts.resend_otp,
        email=body.email or "",
        purpose=body.purpose or "VERIFY_EMAIL",
    )


@router.post(
    "/Parent/auth/Login",
    tags=AUTH,
    summary="Sign in with e-mail or phone and password; answers the session data",
    response_model=Envelope[SessionDataOut],
    openapi_extra=openapi_body(LoginIn),
)
async def login(who: Caller, body: Annotated[LoginIn, Depends(json_body(LoginIn))]) -> Any:
    result = await _signing_in(
        who,
        accounts.login,
        email=body.email or "",
        phone=body.phone or "",
        password=body.password or "",
    )
    if result.needs_verification:
        key = "login_code_sent" if result.second_factor else "email_not_verified"
        return fail(
            t(key, who.lang, email=result.email),
            data={"email": result.email, "verify_email": True},
        )
    return ok(session_data_out(result.session_data, result.token), t("login_success", who.lang))


@router.post(
    "/Parent/auth/Logout",
    tags=AUTH,
    summary="Revoke the session token (always succeeds)",
    response_model=Envelope[None],
)
async def logout(who: Caller) -> Any:
    await run_in_transaction(accounts.logout, token=who.token)
    return ok(None, t("logout_success", who.lang))


# --- passwords ---------------------------------------------------------------------------------


@router.post(
    "/Parent/auth/Forgot_Password",
    tags=AUTH,
    summary="E-mail a password-reset code; the same answer for any address",
    response_model=Envelope[OtpSentOut],
    openapi_extra=openapi_body(EmailIn),
)
async def forgot_password(
    who: Caller, body: Annotated[EmailIn, Depends(json_body(EmailIn))]
) -> Any:
    return await _code_sent(
        who, "forgot_password_sent", accounts.forgot_password, email=body.email or ""
    )


@router.post(
    "/Parent/auth/NewPassword",
    tags=AUTH,
    summary="Set a new password with the reset code (signs out every session)",
    response_model=Envelope[None],
    openapi_extra=openapi_body(NewPasswordIn),
)
async def new_password(
    who: Caller, body: Annotated[NewPasswordIn, Depends(json_body(NewPasswordIn))]
) -> Any:
    await run_in_transaction(
        accounts.new_password,
        email=body.email or "",
        otp=body.otp or "",
        password=body.password or "",
        confirm_password=body.confirm_password or "",
        address=who.address,
    )
    return ok(None, t("password_reset_success", who.lang))


@router.post(
    "/Parent/auth/ChangePassword",
    tags=AUTH,
    summary="Change the password (other sessions are signed out)",
    response_model=Envelope[None],
    openapi_extra=openapi_body(ChangePasswordIn),
)
async def change_password(
    who: CurrentParent, body: Annotated[ChangePasswordIn, Depends(json_body(ChangePasswordIn))]
) -> Any:
    await run_in_transaction(
        accounts.change_password,
        parent_id=who.parent_id,
        current_password=body.current_password or "",
        new_password=body.new_password or "",
        confirm_password=body.confirm_password or "",
        keep_session_id=who.parent.session_id,
    )
    return ok(None, t("password_changed", who.lang))


# --- profile -----------------------------------------------------------------------------------


def alt_emails_out(alt_emails: tuple[AltEmail, ...]) -> list[dict[str, Any]]:
    return [{"email": alt.email, "verified": alt.verified} for alt in alt_emails]


def session_data_out(data: SessionData | None, token: str | None) -> dict[str, Any]:
    """docs/product.md §3 session data, with the session's ``token``."""
    if data is None:
        return {}
    return {
        "id": data.id,
        "token": token,
        "first_name": data.first_name,
        "last_name": data.last_name,
        "email": data.email,
        "alt_emails": alt_emails_out(data.alt_emails),
        "signup_step": data.signup_step,
        "isLoginData": data.signup_complete,
    }


def preferences_out(preferences: Preferences) -> dict[str, bool]:
    return {kind: preferences.is_on(kind) for kind in notifications.NOTIFICATION_KINDS}


def profile_out(found: Profile, token: str | None) -> dict[str, Any]:
    """docs/product.md §3 parent profile, with the session's ``token``."""
    return {
        "id": found.id,
        "email": found.email,
        "first_name": found.first_name,
        "last_name": found.last_name,
        "alt_emails": alt_emails_out(found.alt_emails),
        "token": token,
        "signup_step": found.signup_step,
        "isLoginData": found.signup_complete,
        "profile_image": found.profile_image,
        "cart_count": found.cart_count,
        "cancel_cart_count": found.cancel_cart_count,
        "active_child_count": found.active_child_count,
        "phone": found.phone,
        "language": found.language,
        "notifications": preferences_out(found.notifications),
    }


def decode_image(value: str) -> bytes:
    """A base64 picture or ``data:image/...;base64,`` URL as bytes (type checked later)."""
    text = value.strip()
    if text.startswith("data:"):
        header, _, text = text.partition(",")
        if ";base64" not in header:
            raise DomainError("image_type_invalid", field="profile_image")
    if len(text) > profile.IMAGE_MAX_BYTES * 4 // 3 + 8:
        raise DomainError("image_too_large", field="profile_image")
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise DomainError("image_type_invalid", field="profile_image") from None


def _edit_profile(
    *,
    session: Session,
    parent_id: int,
    body: EditProfileIn,
    image: bytes | None,
) -> Profile:
    """One transaction for the whole form: details, picture, language."""
    profile.edit_profile(
        session=session,
        parent_id=parent_id,
        first_name=body.first_name or "",
        last_name=body.last_name or "",
        phone=body.phone or "",
        alt_emails=body.alt_emails,
    )
    if image is not None:
        profile.save_profile_image(
            session=session, parent_id=parent_id, filename="upload", data=image
        )
    if body.language:
        profile.set_language(session=session, parent_id=parent_id, language=body.language)
    return profile.get_profile(session=session, parent_id=parent_id)


@router.post(
    "/Parent/auth/EditProfile",
    tags=AUTH,
    summary="Edit names, phone, alternate e-mails, picture and language",
    response_model=Envelope[ProfileOut],
    openapi_extra=openapi_body(EditProfileIn),
)
async def edit_profile(
    who: ParentWriting, body: Annotated[EditProfileIn, Depends(json_body(EditProfileIn))]
) -> Any:
    image = decode_image(body.profile_image) if body.profile_image else None
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="edit_profile",
        fn=_edit_profile,
        # the answer is stored for a repeat: never with the session token
        present=lambda found: profile_out(found, None),
        body=body,
        image=image,
    )
    data = {**done.result, "token": who.client.token}
    return ok(data, t("profile_updated", who.lang))


@router.post(
    "/Parent/auth/AddAltEmail",
    tags=AUTH,
    summary="Add an alternate e-mail (or resend its code); a code is e-mailed to it",
    response_model=Envelope[OtpSentOut],
    openapi_extra=openapi_body(EmailIn),
)
async def add_alt_email(
    who: ParentWriting, body: Annotated[EmailIn, Depends(json_body(EmailIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="add_alt_email",
        fn=profile.add_alt_email,
        email=body.email or "",
    )
    return ok(done.result, t("otp_sent", who.lang, email=done.result["email"]))


@router.post(
    "/Parent/auth/VerifyAltEmail",
    tags=AUTH,
    summary="Verify an alternate e-mail with its code",
    response_model=Envelope[ProfileOut],
    openapi_extra=openapi_body(AltEmailVerifyIn),
)
async def verify_alt_email(
    who: CurrentParent, body: Annotated[AltEmailVerifyIn, Depends(json_body(AltEmailVerifyIn))]
) -> Any:
    found = await run_in_transaction(
        profile.verify_alt_email,
        parent_id=who.parent_id,
        email=body.email or "",
        otp=body.otp or "",
    )
    return ok(profile_out(found, who.client.token), t("alt_email_verified", who.lang))


@router.get(
    "/Parent/user/GetUserDetails",
    tags=PARENT_USER,
    summary="The parent profile with cart counts",
    response_model=Envelope[ProfileOut],
)
async def get_user_details(who: SignedIn) -> Any:
    found = await run_in_transaction(profile.get_profile, parent_token=who.token)
    return ok(profile_out(found, who.token), t("profile_loaded", who.lang))


@router.post(
    "/Parent/user/update_parent_email_noti_details",
    tags=PARENT_USER,
    summary="Turn e-mail notification kinds on or off; answers every kind",
    response_model=Envelope[NotificationsOut],
    openapi_extra=openapi_body(NotificationsIn),
)
async def update_notifications(
    who: ParentWriting, body: Annotated[NotificationsIn, Depends(json_body(NotificationsIn))]
) -> Any:
    done = await run_in_transaction(
        submissions.submit_once,
        parent_id=who.parent_id,
        key=who.key,
        action="update_notifications",
        fn=notifications.update_preferences,
        present=preferences_out,
        # the kinds the body turns on or off (the others are left as they are)
        preferences=body.model_dump(exclude_none=True),
    )
    return answered(done, who.lang, "notifications_updated")


# --- content -------------------------------------------------------------------------------------


def page_out(page: content.Page) -> dict[str, Any]:
    """A page: a CMS page's Markdown, or the FAQ's questions in ``items``."""
    shown: dict[str, Any] = {
        "slug": page.slug,
        "language": page.language,
        "title": page.title,
        "body": page.body,
        "updated_at": page.updated_at,
    }
    if page.items is not None:
        shown["items"] = [
            {"id": item.id, "question": item.question, "answer": item.answer} for item in page.items
        ]
    return shown


@router.post(
    "/Parent/user/cms_pages",
    tags=PARENT_USER,
    summary="About, terms, privacy (Markdown) or the FAQ, in the request's language",
    response_model=Envelope[CmsPageOutModel],
    openapi_extra=openapi_body(CmsPageIn),
)
async def cms_pages(who: Caller, body: Annotated[CmsPageIn, Depends(json_body(CmsPageIn))]) -> Any:
    page = await run_in_transaction(content.page, slug=body.slug or "", lang=who.lang)
    return ok(page_out(page), t("success", who.lang))


@router.post(
    "/Parent/user/contact_us",
    tags=PARENT_USER,
    summary="Send a message to the provider (stored and e-mailed)",
    response_model=Envelope[None],
    openapi_extra=openapi_body(ContactIn),
)
async def contact_us(
    who: Caller,
    parent: Annotated[accounts.ParentContext | None, Depends(optional_parent)],
    key: Annotated[str | None, Depends(idempotency_key)],
    body: Annotated[ContactIn, Depends(json_body(ContactIn))],
) -> Any:
    fields: dict[str, Any] = {
        "first_name": body.first_name or "",
        "last_name": body.last_name or "",
        "email": body.email or "",
        "phone": body.phone or "",
        "subject": body.subject or "",
        "description": body.description or "",
        "lang": who.lang,
        "address": who.address,
    }
    if parent is None:  # a visitor's message: no account to keep the key against
        await run_in_transaction(content.contact_us, **fields, parent_id=None)
    else:
        await run_in_transaction(
            submissions.submit_once,
            parent_id=parent.parent_id,
            key=key,
            action="contact_us",
            fn=content.contact_us,
            **fields,
        )
    return ok(None, t("contact_sent", who.lang))


# --- uploaded pictures (no api-key: an <img> tag cannot send headers) -----------------------------

files = APIRouter()


@files.get("/uploads/profile/{name}", tags=["files"], summary="A profile picture")
def profile_picture(name: str) -> Any:
    path = profile.profile_image_path(name)
    if path is None:
        return fail(t("page_not_found"), status_code=404)
    media = {"png": "image/png", "jpg": "image/jpeg", "webp": "image/webp"}
    kind = profile.image_kind_from_name(path.name)
    assert kind is not None  # profile_image_path finds only pictures of a known kind
    return FileResponse(
        path,
        media_type=media[kind],
        headers={"Cache-Control": "private, max-age=86400", "X-Content-Type-Options": "nosniff"},
    )


router.include_router(files)
