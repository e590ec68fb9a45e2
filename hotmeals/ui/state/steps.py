"""The /edit-profile step machine (docs/product.md §2), kept in localStorage under the old
client's keys: ``editProfileStep`` (1 profile or book meal, 6 settings, 7 about us, 8 contact
us, 9 terms, 10 privacy) and ``editProfileSetingsStep`` (1 settings menu, 2 manage notification,
3 change password).

The machine depends on nothing in the app: the states that show a step import it, and the
handlers that move it and load what a step needs are ``EditProfileState``'s
(``hotmeals/ui/state/edit_profile.py``)."""

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

    # Private: the browser moves the machine through EditProfileState's handlers only.
    def _reset_steps(self) -> None:
        self.step = PROFILE
        self.settings_step = SETTINGS_MENU

    def _set_steps(self, step: str, settings_step: str = SETTINGS_MENU) -> None:
        self.step = step if step in STEPS else PROFILE
        self.settings_step = settings_step if settings_step in SETTINGS_STEPS else SETTINGS_MENU
