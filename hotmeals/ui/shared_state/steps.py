"""The /edit-profile step machine (docs/product.md §2), kept in localStorage under the old
client's keys: ``editProfileStep`` (1 profile or book meal, 6 settings, 7 about us, 8 contact
us, 9 terms, 10 privacy) and ``editProfileSetingsStep`` (1 settings menu, 2 manage notification,
3 change password).

The machine depends on nothing in the app: the states that show a step import it, and the
handlers that move it and load what a step needs are ``EditProfileState``'s
(``hotmeals/ui/shared_state/edit_profile.py``)."""

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


def step_url(step: str, settings_step: str = SETTINGS_MENU) -> str:
    """The address of a step: each step and settings sub-step is a history entry,
    so Back and Forward walk them and a reload shows the same one."""
    if step not in STEPS:
        step = PROFILE
    if step == SETTINGS and settings_step in SETTINGS_STEPS and settings_step != SETTINGS_MENU:
        return f"/edit-profile?step={step}&sub={settings_step}"
    return f"/edit-profile?step={step}"


def arrival_url(step: str, settings_step: str = SETTINGS_MENU) -> str:
    """Where links send a parent: the first step is plain /edit-profile (the address every
    sign-in and link already uses); the others carry their step."""
    return "/edit-profile" if step == PROFILE else step_url(step, settings_step)


def frontend_url(path: str) -> str:
    """``path`` under the app's prefix (/parent), as the browser's address bar shows it."""
    return (rx.config.get_config().frontend_path or "").rstrip("/") + path


def history_push_script(path: str, leaving: str | None = None) -> str:
    """A new history entry for ``path`` (a known address, never browser input) without a
    route change: no reload of the page's data, no flash. ``leaving`` first names the entry
    being left exactly (a plain /edit-profile becomes ?step=1), so that Back to it shows what
    it showed. React Router's own entries carry an ``idx``; the new one continues it, so its
    Back and Forward stay right; Back runs the page's on_load, which shows what the address
    says."""
    first = (
        f"window.history.replaceState(window.history.state, '', '{frontend_url(leaving)}'); "
        if leaving
        else ""
    )
    return (
        "(() => { const s = window.history.state || {}; "
        f"{first}"
        "window.history.pushState({...s, idx: (s.idx ?? 0) + 1, "
        "key: Math.random().toString(36).slice(2, 10)}, '', "
        f"'{frontend_url(path)}'); }})()"
    )


def history_replace_script(path: str) -> str:
    """The current history entry's address becomes ``path`` (a known address, never browser
    input), keeping React Router's entry state: no route change, no reload of the data."""
    return f"window.history.replaceState(window.history.state, '', '{frontend_url(path)}')"


def step_history_script(
    step: str,
    settings_step: str = SETTINGS_MENU,
    *,
    replace: bool,
    leaving: tuple[str, str] | None = None,
) -> str:
    """The step's address in the browser's history: a new entry (after naming the step being
    ``leaving``), or the current one replaced (``history_push_script``)."""
    path = step_url(step, settings_step)
    if replace:
        return history_replace_script(path)
    return history_push_script(path, step_url(*leaving) if leaving else None)


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
