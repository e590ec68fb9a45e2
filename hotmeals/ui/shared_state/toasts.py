"""Toasts that do not contradict each other: a success first clears what the screen
said before - a stale error, a "please verify" once the address is verified - then says
itself. Imports nothing of the app, so every state may use it."""

from __future__ import annotations

from typing import Any

import reflex as rx
from reflex.event import EventSpec


def succeeded(text: Any, **options: Any) -> list[EventSpec]:
    """Dismiss the toasts on screen, then show ``text`` as a success (yield the list)."""
    return [rx.toast.dismiss(), rx.toast.success(text, **options)]


# A screen's refusal is one toast, replaced by the next one (no stack of errors) and cleared
# when the parent leaves the screen (``LEAVE``, the first on_load event of every page).
SCREEN_ERROR = "hm-screen-error"


def failed(text: Any) -> EventSpec:
    """The screen's refusal as an error toast (one at a time; gone when the screen is left)."""
    return rx.toast.error(text, id=SCREEN_ERROR)


def leave_screen() -> EventSpec:
    """Clear the screen's refusal (on_load of every page). Successes and the 'session
    expired' notice that brought the parent here are not touched."""
    return rx.toast.dismiss(SCREEN_ERROR)
