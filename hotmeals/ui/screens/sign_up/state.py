"""Sign-up (docs/product.md §5 messages at each field, as the parent types and on submit), then the
e-mail code. The rules are ``accounts.validate_signup``'s (the service runs them again)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import reflex as rx

from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import accounts
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.forms import (
    field_messages,
    focus_field,
    place_error,
    signed_in_elsewhere,
)
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.otp import VERIFY_EMAIL, OtpState
from hotmeals.ui.shared_state.steps import frontend_url, history_push_script
from hotmeals.ui.shared_state.toasts import succeeded

FIELDS = ("first_name", "last_name", "email", "phone", "password", "confirm_password", "terms")
PREFIX = "signup-"
# What the form shows again after a reload or Back from the code step (passwords are never
# sent back to the page).
KEPT = ("first_name", "last_name", "email", "phone")
CODE_STEP_URL = "/sign-up?step=code"


def _values_from_form(form_data: dict[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {f: str(form_data.get(f) or "") for f in FIELDS if f != "terms"}
    # A checked checkbox posts "on"; the rule wants a real True.
    values["terms"] = form_data.get("terms") in ("on", True, "true")
    return values


def _restore_script(kept: dict[str, str]) -> str:
    """What this tab typed before (a reload, Back from the code step) into the sign-up fields
    that are still empty, never over what is there now: typed or autofilled before the page
    was live, it stays. The values are JSON, so the script cannot be escaped from;
    the form is marked ``data-restored`` once done."""
    values = {PREFIX + f: str(kept.get(f) or "") for f in KEPT if kept.get(f)}
    terms = "true" if kept.get("terms") == "1" else "false"
    return (
        "(() => { const kept = " + json.dumps(values) + "; "
        "for (const [id, value] of Object.entries(kept)) { "
        "const el = document.getElementById(id); if (el && !el.value) el.value = value; } "
        "const terms = document.getElementById('" + PREFIX + "terms'); "
        "if (" + terms + " && terms && terms.getAttribute('aria-checked') === 'false') "
        "terms.click(); "
        "document.getElementById('signup-form')?.setAttribute('data-restored', 'true'); })()"
    )


class SignUpState(rx.State):
    errors: dict[str, str] = {}
    busy: bool = False
    # The code step is an address of its own (/sign-up?step=code): a reload keeps it, Back
    # returns to the form with what was typed (``kept``), Forward to the code.
    at_code: bool = False
    kept: dict[str, str] = {}

    _values: dict[str, Any] = {}
    _touched: list[str] = []

    async def _show(self, only_touched: bool = True) -> dict[str, DomainError]:
        values = {f: self._values.get(f, False if f == "terms" else "") for f in FIELDS}
        errors = accounts.validate_signup(**values)
        lang = (await self.get_state(I18nState)).lang
        self.errors = field_messages(errors, lang, self._touched if only_touched else None)
        return errors

    def _remember(self) -> None:
        kept = {f: str(self._values.get(f) or "") for f in KEPT}
        kept["terms"] = "1" if self._values.get("terms") is True else ""
        if kept != self.kept:
            self.kept = kept

    def _touch(self, field: str) -> None:
        if field not in self._touched:
            self._touched = [*self._touched, field]

    @rx.event
    def reset_form(self) -> None:
        self.errors = {}
        self.busy = False
        self._values = {}
        self._touched = []

    @rx.event
    async def enter(self) -> Any:
        """on_load of /sign-up: the code step when the address asks for it and a code is
        waiting; otherwise the form, with what this tab typed before."""
        auth = await self.get_state(AuthState)  # load_session refreshed it just before
        leave = signed_in_elsewhere(auth, self.router.url.query_parameters.get("next"))
        if leave is not None:
            return leave
        otp = await self.get_state(OtpState)
        wants_code = self.router.url.query_parameters.get("step") == "code"
        self.errors = {}
        self.busy = False
        if otp.purpose not in ("", VERIFY_EMAIL):
            otp._close()  # another screen's code (a reset, an alternate address)
        self.at_code = wants_code and otp.purpose == VERIFY_EMAIL
        if wants_code and not self.at_code:
            # No code waiting (another tab, a finished sign-up): the address says so too.
            return [
                rx.call_script(
                    f"window.history.replaceState(window.history.state, '', "
                    f"'{frontend_url('/sign-up')}')"
                ),
                rx.call_script(_restore_script(self.kept)),
            ]
        return None if self.at_code else rx.call_script(_restore_script(self.kept))

    @rx.event
    async def blur(self, field: str, value: str) -> None:
        """Leaving a field: its message appears now (docs/product.md §5: as the parent types)."""
        if field not in FIELDS:
            return
        self._values[field] = value
        if value or field in self._touched:
            self._touch(field)
        self._remember()
        await self._show()

    @rx.event
    async def change(self, field: str, value: str) -> None:
        """Typing (debounced): a field already shown with a message re-checks as it changes."""
        if field not in FIELDS:
            return
        self._values[field] = value
        if field in self._touched or (field == "password" and "confirm_password" in self._touched):
            await self._show()

    @rx.event
    async def set_terms(self, checked: bool) -> None:
        self._values["terms"] = bool(checked)
        self._touch("terms")
        self._remember()
        await self._show()

    @rx.event
    async def submit(self, form_data: dict) -> AsyncIterator[Any]:
        self._values = _values_from_form(form_data)
        self._remember()
        self._touched = list(FIELDS)
        errors = await self._show(only_touched=False)
        if errors:
            first = next(f for f in FIELDS if f in errors)
            yield focus_field(PREFIX + first)
            return
        self.busy = True
        yield
        lang = (await self.get_state(I18nState)).lang
        auth = await self.get_state(AuthState)
        values = dict(self._values)
        try:
            sent = await run_in_transaction(
                accounts.signup, **values, language=lang, address=auth._client_address()
            )
        except DomainError as err:
            self.busy = False
            errors_text = dict(self.errors)
            event = place_error(err, lang, FIELDS, errors_text, PREFIX)
            self.errors = errors_text
            yield event
            return
        self.busy = False
        self._values = {f: v for f, v in values.items() if f in KEPT or f == "terms"}
        self.at_code = True
        otp = await self.get_state(OtpState)
        yield otp._begin(
            VERIFY_EMAIL, sent.email, resend_after=sent.resend_after, expires_in=sent.expires_in
        )
        yield succeeded(tr("signup_success", lang, email=sent.email))
        yield rx.call_script("window.scrollTo({top: 0, behavior: 'instant'})")
        yield rx.call_script(history_push_script(CODE_STEP_URL))
        yield focus_field("otp")
