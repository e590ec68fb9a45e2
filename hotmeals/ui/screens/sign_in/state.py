"""Sign-in with e-mail or phone (docs/product.md §2: /sign-in and /sign-in-with-phone are one
screen), and forgot password -> code -> new password (docs/product.md §4)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import reflex as rx

from hotmeals.domain import validation
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import accounts
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import AuthState, after_login_path, safe_next
from hotmeals.ui.shared_state.forms import (
    field_messages,
    focus_field,
    message,
    place_error,
    signed_in_elsewhere,
)
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.otp import RESET_PASSWORD, VERIFY_EMAIL, OtpState
from hotmeals.ui.shared_state.toasts import succeeded

PREFIX = "signin-"
RESET_PREFIX = "reset-"


class SignInState(rx.State):
    mode: str = "email"  # "email" or "phone"
    view: str = "login"  # "login" or "forgot"
    errors: dict[str, str] = {}
    form_error: str = ""  # a refusal with no field ('Invalid email or password'), kept in view
    busy: bool = False
    reset_done: bool = False
    next_path: str = ""

    _typed_email: str = ""

    async def _open(self, mode: str) -> Any:
        self.mode = mode
        self.view = "login"
        self.errors = {}
        self.form_error = ""
        self.busy = False
        self.next_path = safe_next(self.router.url.query_parameters.get("next")) or ""
        otp = await self.get_state(OtpState)
        otp._close()
        auth = await self.get_state(AuthState)
        await auth._refresh()
        return signed_in_elsewhere(auth, self.next_path)

    @rx.event
    async def open_email(self) -> Any:
        """on_load of /sign-in."""
        return await self._open("email")

    @rx.event
    async def open_phone(self) -> Any:
        """on_load of /sign-in-with-phone."""
        return await self._open("phone")

    @rx.event
    def use_mode(self, mode: str) -> None:
        self.mode = "phone" if mode == "phone" else "email"
        self.errors = {}

    @rx.event
    async def blur_identifier(self, value: str) -> None:
        if not value:
            return
        err = (
            validation.validate_phone(value, "identifier")
            if self.mode == "phone"
            else validation.validate_email(value, "identifier")
        )
        lang = (await self.get_state(I18nState)).lang
        errors = {k: v for k, v in self.errors.items() if k != "identifier"}
        if err is not None:
            errors["identifier"] = message(err, lang)
        self.errors = errors
        if self.mode == "email":
            self._typed_email = value.strip()[:254]  # carried into "Forgot password"

    @rx.event
    async def submit(self, form_data: dict) -> AsyncIterator[Any]:
        identifier = str(form_data.get("identifier") or "").strip()
        password = str(form_data.get("password") or "")
        invalid = accounts.validate_login(
            identifier=identifier, password=password, by_phone=self.mode == "phone"
        )
        if invalid:  # every message at once, at its field
            self.errors = field_messages(invalid, (await self.get_state(I18nState)).lang)
            self.form_error = ""
            yield focus_field(PREFIX + next(iter(invalid)))
            return
        self.busy = True
        self.errors = {}
        self.form_error = ""
        self.reset_done = False
        yield
        lang = (await self.get_state(I18nState)).lang
        auth = await self.get_state(AuthState)
        by: dict[str, Any] = (
            {"phone": identifier} if self.mode == "phone" else {"email": identifier}
        )
        try:
            result = await run_in_transaction(
                accounts.login,
                password=password,
                address=auth._client_address(),
                user_agent=auth._user_agent(),
                **by,
            )
        except DomainError as err:
            self.busy = False
            if err.field in ("email", "phone"):
                err.field = "identifier"
            errors: dict[str, str] = {}
            event = place_error(err, lang, ("identifier", "password"), errors, PREFIX)
            self.errors = errors
            if not errors:
                self.form_error = message(err, lang)
            yield event
            return
        if result.needs_verification or not result.token:
            # Right password, e-mail never verified: the service sent a code; verify, then on.
            self.busy = False
            otp = await self.get_state(OtpState)
            yield otp._begin(VERIFY_EMAIL, result.email, next_path=self.next_path)
            yield rx.toast.info(tr("email_not_verified", lang, email=result.email))
            return
        auth._start_session(result.token, result.session_data)
        data = result.session_data
        self.busy = False
        yield rx.redirect(
            after_login_path(
                data.signup_step if data else "",
                data.signup_complete if data else False,
                self.next_path,
            )
        )

    @rx.event
    async def forgot(self) -> AsyncIterator[Any]:
        self.view = "forgot"
        self.errors = {}
        forgot = await self.get_state(ForgotState)
        forgot._start()
        # The address typed here is the one to reset; the parent can change it.
        forgot.email = self._typed_email if self.mode == "email" else ""
        yield focus_field(RESET_PREFIX + "email")

    @rx.event
    async def back_to_login(self) -> None:
        self.view = "login"
        otp = await self.get_state(OtpState)
        otp._close()

    def _password_was_reset(self) -> None:
        self.view = "login"
        self.reset_done = True
        self.errors = {}


class ForgotState(rx.State):
    """Forgot password: e-mail -> 6-digit code -> new password."""

    step: str = "email"  # email, otp, new
    email: str = ""
    errors: dict[str, str] = {}
    busy: bool = False

    _code: str = ""

    def _start(self) -> None:
        self.step = "email"
        self.errors = {}
        self.busy = False
        self._code = ""

    def _code_checked(self, code: str) -> None:
        """The code is right (not consumed yet): ask for the new password."""
        self._code = code
        self.step = "new"
        self.errors = {}

    @rx.event
    async def submit_code(self, form_data: dict) -> AsyncIterator[Any]:
        """The reset code (the code screen's form while resetting): checked, not used up, so
        the new password can follow on the next screen."""
        otp = await self.get_state(OtpState)
        if otp.purpose != RESET_PASSWORD:
            return
        code = otp._code_from(form_data)
        yield
        lang = (await self.get_state(I18nState)).lang
        auth = await self.get_state(AuthState)
        try:
            await run_in_transaction(
                accounts.check_reset_otp,
                email=self.email,
                otp=code,
                address=auth._client_address(),
            )
        except DomainError as err:
            yield otp._refused(err, lang)
            return
        self._code_checked(code)
        otp.busy = False
        yield focus_field("reset-password")

    @rx.event
    async def blur_email(self, value: str) -> None:
        if not value:
            return
        err = validation.validate_email(value)
        lang = (await self.get_state(I18nState)).lang
        self.errors = {} if err is None else {"email": message(err, lang)}

    @rx.event
    async def send_code(self, form_data: dict) -> AsyncIterator[Any]:
        email = str(form_data.get("email") or "").strip()
        self.busy = True
        self.errors = {}
        yield
        lang = (await self.get_state(I18nState)).lang
        auth = await self.get_state(AuthState)
        try:
            sent = await run_in_transaction(
                accounts.forgot_password, email=email, address=auth._client_address()
            )
        except DomainError as err:
            self.busy = False
            errors: dict[str, str] = {}
            event = place_error(err, lang, ("email",), errors, RESET_PREFIX)
            self.errors = errors
            yield event
            return
        self.busy = False
        self.email = sent.email
        self.step = "otp"
        otp = await self.get_state(OtpState)
        yield otp._begin(
            RESET_PASSWORD, sent.email, resend_after=sent.resend_after, expires_in=sent.expires_in
        )
        yield succeeded(tr("forgot_password_sent", lang, email=sent.email))

    @rx.event
    async def save_password(self, form_data: dict) -> AsyncIterator[Any]:
        password = str(form_data.get("password") or "")
        confirm = str(form_data.get("confirm_password") or "")
        lang = (await self.get_state(I18nState)).lang
        errors = {}
        for field, err in (
            ("password", validation.validate_password(password)),
            ("confirm_password", validation.validate_confirm_password(password, confirm)),
        ):
            if err is not None:
                errors[field] = message(err, lang)
        self.errors = errors
        if errors:
            yield focus_field(RESET_PREFIX + next(iter(errors)))
            return
        self.busy = True
        yield
        auth = await self.get_state(AuthState)
        try:
            await run_in_transaction(
                accounts.new_password,
                email=self.email,
                otp=self._code,
                password=password,
                confirm_password=confirm,
                address=auth._client_address(),
            )
        except DomainError as err:
            self.busy = False
            if err.code.startswith("otp_"):
                # The code went stale meanwhile: ask for a new one.
                self.step = "otp"
                otp = await self.get_state(OtpState)
                otp.purpose = RESET_PASSWORD
                otp.error = message(err, lang)
                return
            errors = {}
            event = place_error(err, lang, ("password", "confirm_password"), errors, RESET_PREFIX)
            self.errors = errors
            yield event
            return
        self.busy = False
        self._code = ""
        self.step = "email"
        otp = await self.get_state(OtpState)
        otp._close()
        sign_in = await self.get_state(SignInState)
        sign_in._password_was_reset()
        yield succeeded(tr("password_reset_success", lang))
        yield focus_field(PREFIX + "identifier")
