"""The 6-digit code screen shared by sign-up (and a sign-in whose e-mail was never verified),
forgot password and alternate e-mails. The rules (expiry, attempts, cooldown) are the
service's; this state shows the countdown before another code may be asked for."""

from __future__ import annotations

import asyncio

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.ui.state.auth import AuthState, after_login_path
from hotmeals.ui.state.base import call_service
from hotmeals.ui.state.forms import message
from hotmeals.ui.state.i18n import I18nState

VERIFY_EMAIL, RESET_PASSWORD, ALT_EMAIL = "VERIFY_EMAIL", "RESET_PASSWORD", "ALT_EMAIL"
DEFAULT_RESEND_AFTER = 60


class OtpState(rx.State):
    purpose: str = ""  # "" when no code screen is open
    email: str = ""
    error: str = ""
    busy: bool = False
    resending: bool = False
    resend_wait: int = 0
    expires_minutes: int = 10

    _next: str = ""
    _ticking: bool = False

    @rx.var
    def can_resend(self) -> bool:
        return self.resend_wait <= 0 and not self.resending

    def begin(
        self,
        purpose: str,
        email: str,
        *,
        resend_after: int = DEFAULT_RESEND_AFTER,
        expires_in: int = 600,
        next_path: str | None = None,
    ):
        """Open the code screen; returns the countdown event to yield."""
        self.purpose = purpose
        self.email = email
        self.error = ""
        self.busy = False
        self.resend_wait = max(0, int(resend_after))
        self.expires_minutes = max(1, int(expires_in) // 60)
        self._next = next_path or ""
        return OtpState.countdown

    def close(self) -> None:
        self.purpose = ""
        self.error = ""
        self.busy = False

    @rx.event
    def cancel(self):
        self.close()

    @rx.event(background=True)
    async def countdown(self):
        async with self:
            if self._ticking:
                return
            self._ticking = True
        try:
            while True:
                await asyncio.sleep(1)
                async with self:
                    if self.resend_wait <= 0:
                        break
                    self.resend_wait -= 1
        finally:
            async with self:
                self._ticking = False

    async def _lang(self) -> str:
        return (await self.get_state(I18nState)).lang

    @rx.event
    async def submit(self, form_data: dict):
        from hotmeals.services import accounts, profile

        code = str(form_data.get("otp") or "").strip()
        self.busy = True
        self.error = ""
        yield
        lang = await self._lang()
        auth = await self.get_state(AuthState)
        try:
            if self.purpose == VERIFY_EMAIL:
                result = await call_service(
                    accounts.verify_otp,
                    email=self.email,
                    otp=code,
                    address=auth.client_address(),
                    user_agent=auth.user_agent(),
                )
                auth.start_session(result.token, result.session_data)
                data = result.session_data
                target = after_login_path(
                    data.get("signup_step", ""), bool(data.get("isLoginData")), self._next
                )
                self.close()
                yield rx.toast.success(tr("email_verified", lang))
                yield rx.redirect(target)
                return
            if self.purpose == RESET_PASSWORD:
                await call_service(
                    accounts.check_reset_otp,
                    email=self.email,
                    otp=code,
                    address=auth.client_address(),
                )
                from hotmeals.ui.state.sign_in import ForgotState

                forgot = await self.get_state(ForgotState)
                forgot.code_checked(code)
                self.busy = False
                yield rx.set_focus("reset-password")
                return
            if self.purpose == ALT_EMAIL:
                parent_id = await auth.checked_parent_id()
                if not parent_id:
                    self.close()
                    yield auth.session_expired(lang)
                    return
                data = await call_service(
                    profile.verify_alt_email, parent_id=parent_id, email=self.email, otp=code
                )
                from hotmeals.ui.state.parent_profile import ParentEditState

                editor = await self.get_state(ParentEditState)
                editor.apply_alt_emails(data)
                auth.apply_profile(data)
                self.close()
                yield rx.toast.success(tr("alt_email_verified", lang))
                return
        except DomainError as err:
            self.error = message(err, lang)
            self.busy = False
            yield rx.set_focus("otp")
            return
        self.busy = False

    @rx.event
    async def resend(self):
        from hotmeals.services import accounts, profile

        if not self.can_resend:
            return
        self.resending = True
        self.error = ""
        yield
        lang = await self._lang()
        auth = await self.get_state(AuthState)
        try:
            if self.purpose == ALT_EMAIL:
                # For an address added but not verified, adding it again sends a new code.
                parent_id = await auth.checked_parent_id()
                if not parent_id:
                    self.resending = False
                    self.close()
                    yield auth.session_expired(lang)
                    return
                sent = await call_service(
                    profile.add_alt_email, parent_id=parent_id, email=self.email
                )
            else:
                sent = await call_service(
                    accounts.resend_otp,
                    email=self.email,
                    purpose=self.purpose,
                    address=auth.client_address(),
                )
        except DomainError as err:
            self.resending = False
            seconds = err.params.get("seconds") if err.code == "otp_cooldown" else None
            if isinstance(seconds, int):
                self.resend_wait = seconds
                yield OtpState.countdown
            yield rx.toast.error(message(err, lang))
            return
        self.resending = False
        self.resend_wait = sent.resend_after
        yield rx.toast.success(tr("otp_sent", lang, email=sent.email))
        yield OtpState.countdown
