"""Settings (edit-profile step 6): notification preferences (sub-step 2), change password
(sub-step 3) and the language choice (kept in browser storage and on the account, so e-mails
follow it)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import reflex as rx

from hotmeals.domain import validation
from hotmeals.domain.errors import DomainError
from hotmeals.i18n import t as tr
from hotmeals.services import accounts, notifications, profile
from hotmeals.services.notifications import Preferences
from hotmeals.services.transaction import run_in_transaction
from hotmeals.ui.shared_state.auth import ActingParent, AuthState, acting_parent, session_expired
from hotmeals.ui.shared_state.forms import (
    OnceForm,
    field_messages,
    focus_field,
    forget_submission,
    form_call,
    message,
    one_turn,
)
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.steps import (
    CHANGE_PASSWORD,
    SETTINGS,
    SETTINGS_MENU,
    ProfileStepState,
    step_history_script,
)
from hotmeals.ui.shared_state.toasts import failed, succeeded

PASSWORD_PREFIX = "password-"
PASSWORD_FIELDS = ("current_password", "new_password", "confirm_password")


async def save_language(state: rx.State, lang: str) -> AsyncIterator[Any]:
    """Switch the page language now and remember it on the account (for e-mails)."""
    i18n = await state.get_state(I18nState)
    i18n.lang = "fr" if lang == "fr" else "en"
    auth = await state.get_state(AuthState)
    if auth.is_parent:
        who = await acting_parent(state)
        if who is None:
            yield session_expired(i18n.lang)
            return
        try:
            await run_in_transaction(
                profile.set_language, parent_id=who.parent_id, language=i18n.lang
            )
        except DomainError as err:
            yield failed(message(err, i18n.lang))
            return
    yield succeeded(tr("language_updated", i18n.lang))


class LanguageState(rx.State):
    @rx.event
    async def choose(self, lang: str) -> AsyncIterator[Any]:
        async for event in save_language(self, lang):
            yield event

    @rx.event
    async def toggle(self) -> AsyncIterator[Any]:
        i18n = await self.get_state(I18nState)
        async for event in save_language(self, "en" if i18n.lang == "fr" else "fr"):
            yield event


def switches(preferences: Preferences) -> dict[str, bool]:
    """The settings screen's switches: each kind of e-mail, on or off."""
    return {kind: preferences.is_on(kind) for kind in notifications.NOTIFICATION_KINDS}


class NotificationState(OnceForm, rx.State):
    prefs: dict[str, bool] = {}
    loading: bool = False

    async def _reload(self, who: ActingParent) -> None:
        found = await run_in_transaction(notifications.get_preferences, parent_id=who.parent_id)
        self.prefs = switches(found)
        forget_submission(self)

    @rx.event
    def set_pref(self, kind: str, value: bool) -> None:
        self.prefs = {**self.prefs, kind: bool(value)}

    @rx.event
    async def save(self) -> AsyncIterator[Any]:
        async for event in one_turn(self, self._save()):
            yield event

    async def _save(self) -> AsyncIterator[Any]:
        lang = (await self.get_state(I18nState)).lang
        preferences = dict(self.prefs)
        async with form_call(self, lang) as call:
            yield  # the busy mark reaches the browser
            self.prefs = await call.submit(
                preferences,
                "update_notifications",
                notifications.update_preferences,
                present=switches,
                preferences=preferences,
            )
            yield succeeded(tr("notifications_updated", lang))
        if call.refusal is not None:
            yield call.refusal


class ChangePasswordState(rx.State):
    errors: dict[str, str] = {}
    busy: bool = False

    @rx.event
    def clear(self) -> None:
        self.errors = {}
        self.busy = False

    @rx.event
    async def submit(self, form_data: dict) -> AsyncIterator[Any]:
        values: dict[str, Any] = {f: str(form_data.get(f) or "") for f in PASSWORD_FIELDS}
        lang = (await self.get_state(I18nState)).lang
        errors = validation.validate_change_password(
            values["current_password"], values["new_password"], values["confirm_password"]
        )
        self.errors = field_messages(errors, lang)
        if errors:
            yield focus_field(PASSWORD_PREFIX + next(f for f in PASSWORD_FIELDS if f in errors))
            return
        async with form_call(self, lang, fields=(PASSWORD_FIELDS, PASSWORD_PREFIX)) as call:
            yield  # the busy mark reaches the browser
            await call.run(accounts.change_password, keep_session_id=call.who.session_id, **values)
            for field in PASSWORD_FIELDS:
                yield rx.set_value(PASSWORD_PREFIX + field, "")
            yield succeeded(tr("password_changed", lang))
            steps = await self.get_state(ProfileStepState)
            steps._set_steps(SETTINGS, SETTINGS_MENU)
            yield rx.call_script(
                step_history_script(
                    SETTINGS, SETTINGS_MENU, replace=False, leaving=(SETTINGS, CHANGE_PASSWORD)
                )
            )
        if call.refusal is not None:
            yield call.refusal
