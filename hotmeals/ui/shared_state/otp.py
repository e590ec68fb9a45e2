"""The 6-digit code screen shared by sign-up (and a sign-in whose e-mail was never verified),
forgot password and alternate e-mails. The rules (expiry, attempts, cooldown) are the
service's; this state shows the countdown before another code may be asked for."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import accounts, profile
from hotmeals.services.otp import OTP_TTL, RESEND_COOLDOWN_SECONDS
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import (
    AuthState,
    acting_parent,
    after_login_path,
    session_expired,
)
from hotmeals.ui.shared_state.forms import focus_field, message
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.toasts import failed, succeeded

VERIFY_EMAIL, RESET_PASSWORD, ALT_EMAIL = "VERIFY_EMAIL", "RESET_PASSWORD", "ALT_EMAIL"


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

    def _begin(
        self,
        purpose: str,
        email: str,
        *,
        resend_after: int = RESEND_COOLDOWN_SECONDS,
        expires_in: int = int(OTP_TTL.total_seconds()),
        next_path: str | None = None,
    ) -> Any:
        """Open the code screen; returns the countdown event to yield."""
        self.purpose = purpose
        self.email = email
        self.error = ""
        self.busy = False
        self.resend_wait = max(0, int(resend_after))
        self.expires_minutes = max(1, int(expires_in) // 60)
        self._next = next_path or ""
        return OtpState.countdown

    def _close(self) -> None:
        self.purpose = ""
        self.error = ""
        self.busy = False

    @rx.event
    def cancel(self) -> None:
        self._close()

    @rx.event(background=True)
    async def countdown(self) -> None:
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

    # ---- used by the states that own a purpose (private) -----------------------------------
    def _code_from(self, form_data: dict) -> str:
        """The typed code; the screen shows it is being checked."""
        self.busy = True
        self.error = ""
        return str(form_data.get("otp") or "").strip()

    def _refused(self, err: DomainError, lang: str) -> EventSpec:
        self.error = message(err, lang)
        self.busy = False
        return focus_field("otp")

    @rx.event
    async def submit(self, form_data: dict) -> AsyncIterator[Any]:
        """The sign-up address's code (sign-up, and a sign-in whose e-mail was never verified).
        The other purposes are checked by their owners: ``ForgotState.submit_code`` and
        ``ParentEditState.submit_alt_code``, so this module imports neither."""
        if self.purpose != VERIFY_EMAIL:
            return
        code = self._code_from(form_data)
        yield
        lang = await self._lang()
        auth = await self.get_state(AuthState)
        try:
            result = await run_in_transaction(
                accounts.verify_otp,
                email=self.email,
                otp=code,
                address=auth._client_address(),
                user_agent=auth._user_agent(),
            )
        except DomainError as err:
            yield self._refused(err, lang)
            return
        auth._start_session(result.token or "", result.session_data)
        data = result.session_data
        target = after_login_path(
            data.signup_step if data else "", data.signup_complete if data else False, self._next
        )
        self._close()
        yield succeeded(tr("email_verified", lang))
        yield rx.redirect(target)

    @rx.event
    async def resend(self) -> AsyncIterator[Any]:
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
                who = await acting_parent(self)
                if who is None:
                    self.resending = False
                    self._close()
                    yield session_expired(lang)
                    return
                sent = await run_in_transaction(
                    profile.add_alt_email, parent_id=who.parent_id, email=self.email
                )
            else:
                sent = await run_in_transaction(
                    accounts.resend_otp,
                    email=self.email,
                    purpose=self.purpose,
                    address=auth._client_address(),
                )
        except DomainError as err:
            self.resending = False
            seconds = err.params.get("seconds") if err.code == "otp_cooldown" else None
            if isinstance(seconds, int):
                self.resend_wait = seconds
                yield OtpState.countdown
            yield failed(message(err, lang))
            return
        self.resending = False
        self.resend_wait = sent.resend_after
        yield succeeded(tr("otp_on_its_way", lang, email=sent.email))
        yield OtpState.countdown
