"""/api/v1/Parent/auth/* and the profile, content and notification calls of /Parent/user/*.

Thin: parse the body, call one service transaction, answer the envelope. See docs/api.md.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import FileResponse, JSONResponse
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
from hotmeals.api.calls import Get, Once, Post, declare_all, handler
from hotmeals.api.deps import (
    PARENT_USER,
    Client,
    ParentClient,
    ParentWrite,
    answer,
    api_router,
    client_context,
    idempotency_key,
    optional_parent,
    route,
    run_as_parent,
    run_once,
    tags,
)
from hotmeals.api.envelope import fail, ok
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t
from hotmeals.services import accounts, content, notifications, profile
from hotmeals.services.transaction import run_in_transaction

router = api_router()
AUTH = tags("Parent auth")


# --- sign-up, verification, sign-in ------------------------------------------------------------


async def signup(client: Client, body: SignupIn) -> JSONResponse:
    return await _code_sent(
        client, "signup_success", accounts.signup, **body.model_dump(), language=client.lang
    )


async def _code_sent(
    client: Client, message: str, fn: Callable[..., Any], /, **kwargs: Any
) -> JSONResponse:
    """``fn`` e-mails a code: answered with the address it went to, in the catalog's
    ``message``."""
    sent = await run_in_transaction(fn, **kwargs, address=client.address)
    return answer(asdict(sent), client.lang, message, email=sent.email)


async def verify_otp(client: Client, body: VerifyOtpIn) -> JSONResponse:
    if body.purpose == "RESET_PASSWORD":
        await run_in_transaction(
            accounts.check_reset_otp, email=body.email, otp=body.otp, address=client.address
        )
        email = accounts.normalize_email(body.email)
        return ok({"email": email, "otp_valid": True}, t("otp_valid", client.lang))
    result = await _signing_in(client, accounts.verify_otp, email=body.email, otp=body.otp)
    return ok(result.session_data, t("email_verified", client.lang))


async def _signing_in(client: Client, fn: Callable[..., Any], /, **kwargs: Any) -> Any:
    """``fn`` opening a session for the caller: its attempts counted by the caller's address,
    the session recorded with the caller's user agent."""
    return await run_in_transaction(
        fn, **kwargs, address=client.address, user_agent=client.user_agent
    )


async def resend_otp(client: Client, body: ResendOtpIn) -> JSONResponse:
    return await _code_sent(
        client,
        "otp_on_its_way",
        accounts.resend_otp,
        email=body.email,
        purpose=body.purpose or "VERIFY_EMAIL",
    )


async def login(client: Client, body: LoginIn) -> JSONResponse:
    result = await _signing_in(
        client, accounts.login, email=body.email, phone=body.phone, password=body.password
    )
    if result.needs_verification:
        key = "login_code_sent" if result.second_factor else "email_not_verified"
        return fail(
            t(key, client.lang, email=result.email),
            data={"email": result.email, "verify_email": True},
        )
    return ok(result.session_data, t("login_success", client.lang))


async def logout(client: Client) -> JSONResponse:
    await run_in_transaction(accounts.logout, token=client.token)
    return ok(None, t("logout_success", client.lang))


# --- passwords ---------------------------------------------------------------------------------


async def forgot_password(client: Client, body: EmailIn) -> JSONResponse:
    return await _code_sent(
        client, "forgot_password_sent", accounts.forgot_password, email=body.email
    )


async def new_password(client: Client, body: NewPasswordIn) -> JSONResponse:
    await run_in_transaction(accounts.new_password, **body.model_dump(), address=client.address)
    return ok(None, t("password_reset_success", client.lang))


async def change_password(ctx: ParentClient, body: ChangePasswordIn) -> JSONResponse:
    await run_in_transaction(
        accounts.change_password,
        parent_id=ctx.parent_id,
        **body.model_dump(),
        keep_session_id=ctx.parent.session_id,
    )
    return ok(None, t("password_changed", ctx.lang))


# --- profile -----------------------------------------------------------------------------------


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
    token: str | None,
    fields: dict,
    image: bytes | None,
    language: str | None,
) -> dict:
    """One transaction for the whole form: details, picture, language."""
    profile.edit_profile(session=session, parent_id=parent_id, **fields)
    if image is not None:
        profile.save_profile_image(
            session=session, parent_id=parent_id, filename="upload", data=image
        )
    if language:
        profile.set_language(session=session, parent_id=parent_id, language=language)
    return profile.get_profile(session=session, parent_id=parent_id, token=token)


async def edit_profile(ctx: ParentWrite, body: EditProfileIn) -> JSONResponse:
    image = decode_image(body.profile_image) if body.profile_image else None
    done = await ctx.run_once(
        "edit_profile",
        _edit_profile,
        token=None,  # the answer is stored for a repeat: never with the session token
        fields={
            "first_name": body.first_name,
            "last_name": body.last_name,
            "phone": body.phone,
            "alt_emails": body.alt_emails,
        },
        image=image,
        language=body.language,
    )
    data = {**done.result, "token": ctx.client.token}
    return ok(data, t("profile_updated", ctx.lang))


async def add_alt_email(ctx: ParentWrite, body: EmailIn) -> JSONResponse:
    done = await ctx.run_once(
        "add_alt_email",
        profile.add_alt_email,
        email=body.email,
    )
    return ok(done.result, t("otp_sent", ctx.lang, email=done.result["email"]))


async def verify_alt_email(ctx: ParentClient, body: AltEmailVerifyIn) -> JSONResponse:
    data = await run_in_transaction(
        profile.verify_alt_email, parent_id=ctx.parent_id, email=body.email, otp=body.otp
    )
    data["token"] = ctx.client.token
    return ok(data, t("alt_email_verified", ctx.lang))


async def get_user_details(client: Client) -> JSONResponse:
    data = await run_as_parent(client, profile.get_profile, token=client.token)
    return ok(data, t("profile_loaded", client.lang))


def _preferences(body: NotificationsIn) -> dict[str, Any]:
    """The notification kinds the body turns on or off (the others are left as they are)."""
    return {"preferences": body.model_dump(exclude_none=True)}


# --- content -------------------------------------------------------------------------------------


async def cms_pages(client: Client, body: CmsPageIn) -> JSONResponse:
    page = await run_in_transaction(content.page, slug=body.slug, lang=client.lang)
    return ok(page, t("success", client.lang))


# --- the routes (contact_us, with dependencies of its own, written after them) -------------------


declare_all(
    router,
    AUTH,
    [
        Post(
            "/Parent/auth/Signup",
            handler(signup),
            answer=OtpSentOut,
            summary="Create an account and e-mail a 6-digit verification code",
        ),
        Post(
            "/Parent/auth/VerifyOtp",
            handler(verify_otp),
            answer=SessionDataOut | OtpValidOut,
            summary="Verify the sign-up e-mail (signs in) or check a password-reset code",
        ),
        Post(
            "/Parent/auth/ResendOtp",
            handler(resend_otp),
            answer=OtpSentOut,
            summary="Send a new code (60 s cooldown); the same answer for any address",
        ),
        Post(
            "/Parent/auth/Login",
            handler(login),
            answer=SessionDataOut,
            summary="Sign in with e-mail or phone and password; answers the session data",
        ),
        Post(
            "/Parent/auth/Logout",
            handler(logout),
            answer=None,
            summary="Revoke the session token (always succeeds)",
        ),
        Post(
            "/Parent/auth/Forgot_Password",
            handler(forgot_password),
            answer=OtpSentOut,
            summary="E-mail a password-reset code; the same answer for any address",
        ),
        Post(
            "/Parent/auth/NewPassword",
            handler(new_password),
            answer=None,
            summary="Set a new password with the reset code (signs out every session)",
        ),
        Post(
            "/Parent/auth/ChangePassword",
            handler(change_password),
            answer=None,
            summary="Change the password (other sessions are signed out)",
        ),
        Post(
            "/Parent/auth/EditProfile",
            handler(edit_profile),
            answer=ProfileOut,
            summary="Edit names, phone, alternate e-mails, picture and language",
        ),
        Post(
            "/Parent/auth/AddAltEmail",
            handler(add_alt_email),
            answer=OtpSentOut,
            summary="Add an alternate e-mail (or resend its code); a code is e-mailed to it",
        ),
        Post(
            "/Parent/auth/VerifyAltEmail",
            handler(verify_alt_email),
            answer=ProfileOut,
            summary="Verify an alternate e-mail with its code",
        ),
    ],
)


declare_all(
    router,
    PARENT_USER,
    [
        Get(
            "/Parent/user/GetUserDetails",
            handler(get_user_details),
            answer=ProfileOut,
            summary="The parent profile with cart counts",
        ),
        Post(
            "/Parent/user/update_parent_email_noti_details",
            Once(
                "update_notifications",
                notifications.update_preferences,
                message="notifications_updated",
                fields=_preferences,
            ),
            body=NotificationsIn,
            answer=NotificationsOut,
            summary="Turn e-mail notification kinds on or off; answers every kind",
        ),
        Post(
            "/Parent/user/cms_pages",
            handler(cms_pages),
            answer=CmsPageOutModel,
            summary="About, terms, privacy (Markdown) or the FAQ, in the request's language",
        ),
    ],
)


@route(
    router.post,
    "/Parent/user/contact_us",
    body=ContactIn,
    answer=None,
    tags=PARENT_USER,
    summary="Send a message to the provider (stored and e-mailed)",
)
async def contact_us(
    client: Client = Depends(client_context),
    parent: accounts.ParentContext | None = Depends(optional_parent),
    key: str | None = Depends(idempotency_key),
) -> Any:
    body = await client.body(ContactIn)
    fields = {**body.model_dump(), "lang": client.lang, "address": client.address}
    if parent is None:  # a visitor's message: no account to keep the key against
        await run_in_transaction(content.contact_us, **fields, parent_id=None)
    else:
        await run_once(
            parent.parent_id,
            key,
            "contact_us",
            content.contact_us,
            **fields,
        )
    return ok(None, t("contact_sent", client.lang))


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
