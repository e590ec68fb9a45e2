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
# Phones show the steps as a row of pills: bring the active one into view once rendered.
SHOW_ACTIVE_STEP = (
    "setTimeout(() => document.querySelector('.hm-nav-item.is-active')"
    "?.scrollIntoView({block: 'nearest', inline: 'center'}), 60)"
)


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

    async def load_for_step(self) -> None:
        """Fetch what the shown step needs (its CMS page, FAQ, preferences, children)."""
        from hotmeals.ui.state.children import ChildrenState
        from hotmeals.ui.state.contact import ContactState
        from hotmeals.ui.state.content import ContentState
        from hotmeals.ui.state.settings import ChangePasswordState, NotificationState

        step, sub = self.current, self.current_settings
        if step in CMS_STEPS:
            await (await self.get_state(ContentState)).ensure_loaded(CMS_STEPS[step])
        elif step == CONTACT:
            await (await self.get_state(ContentState)).ensure_loaded("faq")
            await (await self.get_state(ContactState)).fill_from_profile()
        elif step == SETTINGS and sub == NOTIFICATIONS:
            await (await self.get_state(NotificationState)).reload()
        elif step == SETTINGS and sub == CHANGE_PASSWORD:
            (await self.get_state(ChangePasswordState)).errors = {}
        elif step == PROFILE:
            await (await self.get_state(ChildrenState)).reload()

    @rx.event
    async def enter(self):
        """on_load of /edit-profile (after the guard)."""
        from hotmeals.ui.state.auth import AuthState

        if not (await self.get_state(AuthState)).is_parent:
            return
        # Write the (possibly defaulted) steps back, so localStorage always holds them.
        self.set_steps(self.current, self.current_settings)
        await self.load_for_step()
        return rx.call_script(SHOW_ACTIVE_STEP)

    @rx.event
    async def go(self, step: str, settings_step: str):
        """Show a step of /edit-profile (side menu, settings rows)."""
        self.set_steps(step, settings_step)
        yield rx.call_script(SCROLL_TOP)
        yield rx.call_script(SHOW_ACTIVE_STEP)
        await self.load_for_step()

    @rx.event
    async def open_step(self, step: str, settings_step: str):
        """From the header, menu or footer: set the step, then go to /edit-profile (already
        there, the page's on_load may not run again: load here too)."""
        self.set_steps(step, settings_step)
        yield rx.redirect("/edit-profile")
        yield rx.call_script(SCROLL_TOP)
        await self.load_for_step()
