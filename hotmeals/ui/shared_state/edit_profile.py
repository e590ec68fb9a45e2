"""/edit-profile: moving the step machine (``steps.ProfileStepState``) and loading what the
shown step needs (its CMS page, FAQ, preferences, children) for the signed-in parent.

Kept apart from the step machine so that the machine imports none of the states that show a
step (they import it)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import reflex as rx

from hotmeals.ui.shared_state.auth import ActingParent, session_expired, signed_up_parent
from hotmeals.ui.shared_state.children import ChildrenState
from hotmeals.ui.shared_state.contact import ContactState
from hotmeals.ui.shared_state.content import ContentState
from hotmeals.ui.shared_state.i18n import I18nState
from hotmeals.ui.shared_state.settings import ChangePasswordState, NotificationState
from hotmeals.ui.shared_state.steps import (
    CHANGE_PASSWORD,
    CMS_STEPS,
    CONTACT,
    NOTIFICATIONS,
    PROFILE,
    SCROLL_TOP,
    SETTINGS,
    SETTINGS_MENU,
    SHOW_ACTIVE_STEP,
    STEPS,
    ProfileStepState,
    arrival_url,
    step_history_script,
)


class EditProfileState(rx.State):
    async def _load_for_step(self, who: ActingParent) -> None:
        """Fetch what the shown step needs, for the parent ``acting_parent`` returned."""
        steps = await self.get_state(ProfileStepState)
        step, sub = steps.current, steps.current_settings
        if step in CMS_STEPS:
            await (await self.get_state(ContentState))._ensure_loaded(CMS_STEPS[step])
        elif step == CONTACT:
            await (await self.get_state(ContentState))._ensure_loaded("faq")
            await (await self.get_state(ContactState))._fill_from_profile(who)
        elif step == SETTINGS and sub == NOTIFICATIONS:
            await (await self.get_state(NotificationState))._reload(who)
        elif step == SETTINGS and sub == CHANGE_PASSWORD:
            (await self.get_state(ChangePasswordState)).errors = {}
        elif step == PROFILE:
            await (await self.get_state(ChildrenState))._reload(who)

    @rx.event
    async def enter(self) -> Any:
        """on_load of /edit-profile (after the guard, which already sent a visitor away): on
        arrival, on a reload, and on Back or Forward between steps. The address's step
        (``?step=6&sub=2``) wins; without one, the step kept in browser storage is shown and
        written into the address, so that Back returns to it."""
        who = await signed_up_parent(self)
        if who is None:
            return None
        steps = await self.get_state(ProfileStepState)
        query = self.router.url.query_parameters
        asked = str(query.get("step") or "")
        events = [rx.call_script(SHOW_ACTIVE_STEP)]
        if asked in STEPS:
            steps._set_steps(asked, str(query.get("sub") or SETTINGS_MENU))
        else:
            # Write the (possibly defaulted) steps back, so localStorage always holds them.
            steps._set_steps(steps.current, steps.current_settings)
        if asked not in STEPS and steps.current != PROFILE:
            events.append(
                rx.call_script(
                    step_history_script(steps.current, steps.current_settings, replace=True)
                )
            )
        await self._load_for_step(who)
        return events

    @rx.event
    async def go(self, step: str, settings_step: str) -> AsyncIterator[Any]:
        """Show a step of /edit-profile (side menu, settings rows)."""
        who = await signed_up_parent(self)
        if who is None:
            yield session_expired((await self.get_state(I18nState)).lang)
            return
        steps = await self.get_state(ProfileStepState)
        before = (steps.current, steps.current_settings)
        steps._set_steps(str(step), str(settings_step))
        if (steps.current, steps.current_settings) != before:
            # A history entry per step: Back and Forward walk them (``enter`` shows them).
            yield rx.call_script(
                step_history_script(
                    steps.current, steps.current_settings, replace=False, leaving=before
                )
            )
        yield rx.call_script(SCROLL_TOP)
        yield rx.call_script(SHOW_ACTIVE_STEP)
        await self._load_for_step(who)

    @rx.event
    async def open_step(self, step: str, settings_step: str) -> AsyncIterator[Any]:
        """From the header, menu or footer: set the step, then go to /edit-profile (already
        there, the page's on_load may not run again: load here too)."""
        steps = await self.get_state(ProfileStepState)
        steps._set_steps(str(step), str(settings_step))
        yield rx.redirect(arrival_url(steps.current, steps.current_settings))
        yield rx.call_script(SCROLL_TOP)
        who = await signed_up_parent(self)
        if who is not None:
            await self._load_for_step(who)
