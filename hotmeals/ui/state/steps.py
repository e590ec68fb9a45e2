"""The /edit-profile step machine (spec §2), kept in localStorage under the spec's own keys:
``editProfileStep`` (1 profile or book meal, 6 settings, 7 about us, 8 contact us, 9 terms,
10 privacy) and ``editProfileSetingsStep`` (1 settings menu, 2 manage notification,
3 change password). Other screens move the machine with ``go`` and then navigate."""

from __future__ import annotations

import reflex as rx

PROFILE, SETTINGS, ABOUT, CONTACT, TERMS, PRIVACY = "1", "6", "7", "8", "9", "10"
STEPS = (PROFILE, SETTINGS, ABOUT, CONTACT, TERMS, PRIVACY)
SETTINGS_MENU, NOTIFICATIONS, CHANGE_PASSWORD = "1", "2", "3"
SETTINGS_STEPS = (SETTINGS_MENU, NOTIFICATIONS, CHANGE_PASSWORD)
# CMS slug shown by each content step.
CMS_STEPS = {ABOUT: "about", TERMS: "terms", PRIVACY: "privacy"}

SCROLL_TOP = "window.scrollTo({top: 0, behavior: 'instant'})"


class ProfileStepState(rx.State):
    step: str = rx.LocalStorage(PROFILE, name="editProfileStep", sync=True)
    settings_step: str = rx.LocalStorage(SETTINGS_MENU, name="editProfileSetingsStep", sync=True)

    @rx.var
    def current(self) -> str:
        """The step to show: an unknown stored value falls back to 1."""
        return self.step if self.step in STEPS else PROFILE

    @rx.var
    def current_settings(self) -> str:
        return self.settings_step if self.settings_step in SETTINGS_STEPS else SETTINGS_MENU

    def reset_steps(self) -> None:
        self.step = PROFILE
        self.settings_step = SETTINGS_MENU

    def set_steps(self, step: str, settings_step: str = SETTINGS_MENU) -> None:
        self.step = step if step in STEPS else PROFILE
        self.settings_step = settings_step if settings_step in SETTINGS_STEPS else SETTINGS_MENU

    @rx.event
    async def go(self, step: str, settings_step: str = SETTINGS_MENU):
        """Show a step of /edit-profile (from the header, footer or side menu)."""
        self.set_steps(step, settings_step)
        yield rx.call_script(SCROLL_TOP)
        if step in CMS_STEPS or step == CONTACT:
            from hotmeals.ui.state.content import ContentState

            content = await self.get_state(ContentState)
            await content.ensure_loaded(CMS_STEPS.get(step, "faq"))

    @rx.event
    def open_step(self, step: str, settings_step: str = SETTINGS_MENU):
        """From another page: set the step, then go to /edit-profile."""
        self.set_steps(step, settings_step)
        return rx.redirect("/edit-profile")
