"""/edit-profile/parent-edit-profile: names, phone, picture, alternate e-mails (each verify /
verified) and language. Rules: ``validation.PROFILE_RULES`` and ``services.profile``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from hotmeals.domain import validation
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import profile
from hotmeals.services.accounts import OtpSent
from hotmeals.services.profile import ALT_EMAIL_MAX, Profile
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import (
    ActingParent,
    AuthState,
    acting_parent,
    session_expired,
)
from hotmeals.ui.shared_state.forms import (
    NameForm,
    checked_field,
    focus_field,
    forget_submission,
    form_call,
    message,
    one_turn,
)
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.otp import ALT_EMAIL, OtpState
from hotmeals.ui.shared_state.screens import load_behind_spinner
from hotmeals.ui.shared_state.settings import save_language
from hotmeals.ui.shared_state.toasts import failed, succeeded

PREFIX = "profile-"
FIELDS = ("first_name", "last_name", "phone")
UPLOAD_ID = "profile-picture"


def _reloaded(found: Profile) -> None:
    """A profile form's answer as kept for a repeat: nothing (the screen reloads the
    profile after a save, and a repeat only ends the second tap)."""
    return None


class ParentEditState(NameForm, rx.State):
    phone: str = ""
    email: str = ""
    alt_emails: list[dict[str, str]] = []  # email, verified ("1" or "")
    errors: dict[str, str] = {}
    alt_error: str = ""
    adding: bool = False
    uploading: bool = False
    loading: bool = True

    @rx.var
    def can_add_alt(self) -> bool:
        """Below the limit of alternate addresses: the add field shows."""
        return len(self.alt_emails) < ALT_EMAIL_MAX

    async def _lang(self) -> str:
        return (await self.get_state(I18nState)).lang

    def _apply_alt_emails(self, found: Profile) -> None:
        self.alt_emails = [
            {"email": a.email, "verified": "1" if a.verified else ""} for a in found.alt_emails
        ]

    @rx.event
    async def load(self) -> AsyncIterator[Any]:
        """on_load (after the guard)."""
        self.errors = {}
        self.alt_error = ""
        forget_submission(self)
        async for event in load_behind_spinner(self, self._fill):
            yield event

    async def _fill(self, who: ActingParent) -> None:
        data = await run_in_transaction(profile.get_profile, parent_id=who.parent_id)
        self.first_name = data.first_name
        self.last_name = data.last_name
        self.phone = data.phone
        self.email = data.email
        self._apply_alt_emails(data)

    @rx.event
    def set_phone(self, value: str) -> None:
        self.phone = value

    @rx.event
    async def blur(self, field: str, value: str) -> None:
        if field in FIELDS:
            setattr(self, field, value)
            await checked_field(self, field, validation.PROFILE_RULES[field](value))

    @rx.event
    async def save(self, form_data: dict) -> AsyncIterator[Any]:
        async for event in one_turn(self, self._save(form_data)):
            yield event

    async def _save(self, form_data: dict) -> AsyncIterator[Any]:
        for field in FIELDS:
            if field in form_data:
                setattr(self, field, str(form_data[field]))
        lang = await self._lang()
        values = {f: getattr(self, f) for f in FIELDS}
        errors = validation.validate_all(values, {f: validation.PROFILE_RULES[f] for f in FIELDS})
        self.errors = {f: message(e, lang) for f, e in errors.items()}
        if errors:
            yield focus_field(PREFIX + next(f for f in FIELDS if f in errors))
            return
        auth = await self.get_state(AuthState)
        async with form_call(self, lang, fields=(FIELDS, PREFIX)) as call:
            yield  # the busy mark reaches the browser
            await call.submit(
                ["profile", values],
                "edit_profile",
                profile.edit_profile,
                present=_reloaded,
                first_name=self.first_name,
                last_name=self.last_name,
                phone=self.phone,
            )
            await auth._refresh()  # the header shows the new names
            yield succeeded(tr("profile_updated", lang))
        if call.refusal is not None:
            yield call.refusal

    # ---- alternate e-mails ---------------------------------------------------------------
    @rx.event
    async def add_alt(self, form_data: dict) -> AsyncIterator[Any]:
        async for event in one_turn(self, self._add_alt(form_data)):
            yield event

    async def _add_alt(self, form_data: dict) -> AsyncIterator[Any]:
        address = str(form_data.get("alt_email") or "").strip()
        lang = await self._lang()
        invalid = validation.validate_email(address, "alt_email")
        if invalid is not None:
            self.alt_error = message(invalid, lang)
            yield focus_field(PREFIX + "alt_email")
            return
        self.alt_error = ""

        def refused(err: DomainError) -> EventSpec:
            self.alt_error = message(err, lang)
            return focus_field(PREFIX + "alt_email")

        async with form_call(self, lang, busy=self._mark_adding, refused=refused) as call:
            yield  # the busy mark reaches the browser
            kept = await call.submit(
                ["alt_email", address.lower()],
                "add_alt_email",
                profile.add_alt_email,
                email=address,
            )
            sent = OtpSent(**kept)  # kept for a repeat as a dict
            data = await run_in_transaction(profile.get_profile, parent_id=call.who.parent_id)
            self._apply_alt_emails(data)
            yield rx.set_value(PREFIX + "alt_email", "")
            otp = await self.get_state(OtpState)
            yield otp._begin(
                ALT_EMAIL, sent.email, resend_after=sent.resend_after, expires_in=sent.expires_in
            )
            yield succeeded(tr("otp_sent", lang, email=sent.email))
        if call.refusal is not None:
            yield call.refusal

    def _mark_adding(self, on: bool) -> None:
        self.adding = on

    @rx.event
    async def verify_alt(self, address: str) -> AsyncIterator[Any]:
        """'Verify' on an unverified address: a new code, then the code dialog."""
        lang = await self._lang()
        otp = await self.get_state(OtpState)
        who = await acting_parent(self)
        if who is None:
            yield session_expired(lang)
            return
        try:
            sent = await run_in_transaction(
                profile.add_alt_email, parent_id=who.parent_id, email=address
            )
        except DomainError as err:
            if err.code != "otp_cooldown":
                yield failed(message(err, lang))
                return
            # A code went out moments ago: open the dialog for that one.
            seconds = int(str(err.params.get("seconds", 60)))
            yield otp._begin(ALT_EMAIL, address, resend_after=seconds)
            return
        yield otp._begin(
            ALT_EMAIL, sent.email, resend_after=sent.resend_after, expires_in=sent.expires_in
        )
        yield succeeded(tr("otp_sent", lang, email=sent.email))

    @rx.event
    async def remove_alt(self, address: str) -> AsyncIterator[Any]:
        async for event in one_turn(self, self._remove_alt(address)):
            yield event

    async def _remove_alt(self, address: str) -> AsyncIterator[Any]:
        lang = await self._lang()
        auth = await self.get_state(AuthState)
        async with form_call(self, lang, busy=False) as call:
            # Tapped twice, the second tap answers "removed" once, not "not found".
            await call.submit(
                ["remove_alt", str(address).lower()],
                "remove_alt_email",
                profile.remove_alt_email,
                present=_reloaded,
                email=str(address),
            )
            found = await auth._refresh()
            if found is not None:
                self._apply_alt_emails(found)
            yield succeeded(tr("ui.alt_email.removed", lang, email=address))
        if call.refusal is not None:
            yield call.refusal

    @rx.event
    async def submit_alt_code(self, form_data: dict) -> AsyncIterator[Any]:
        """The code sent to an alternate address (the code dialog's form)."""
        otp = await self.get_state(OtpState)
        if otp.purpose != ALT_EMAIL:
            return
        code = otp._code_from(form_data)
        yield
        lang = await self._lang()
        who = await acting_parent(self)
        if who is None:
            otp._close()
            yield session_expired(lang)
            return
        try:
            data = await run_in_transaction(
                profile.verify_alt_email, parent_id=who.parent_id, email=otp.email, otp=code
            )
        except DomainError as err:
            yield otp._refused(err, lang)
            return
        self._apply_alt_emails(data)
        (await self.get_state(AuthState))._apply_profile(data)
        otp._close()
        yield succeeded(tr("alt_email_verified", lang))

    @rx.event
    async def close_otp(self, open_: bool) -> None:
        if not open_:
            otp = await self.get_state(OtpState)
            otp._close()

    # ---- picture ---------------------------------------------------------------------------
    @rx.event
    async def upload_picture(self, files: list[rx.UploadFile]) -> AsyncIterator[Any]:
        if not files:
            return
        lang = await self._lang()
        auth = await self.get_state(AuthState)
        async with form_call(self, lang, busy=self._mark_uploading) as call:
            yield  # the busy mark reaches the browser
            who = call.who  # whose picture it is first: an anonymous upload is not even read
            upload = files[0]
            data = await upload.read()
            auth.profile_image = await call.answer(
                run_in_transaction(
                    profile.save_profile_image,
                    parent_id=who.parent_id,
                    filename=upload.name or "picture",
                    data=data,
                )
            )
            yield succeeded(tr("ui.profile.picture_saved", lang))
        if call.refusal is not None:
            yield call.refusal

    def _mark_uploading(self, on: bool) -> None:
        self.uploading = on

    # ---- language ----------------------------------------------------------------------------
    @rx.event
    async def choose_language(self, lang: str) -> AsyncIterator[Any]:
        async for event in save_language(self, lang):
            yield event
