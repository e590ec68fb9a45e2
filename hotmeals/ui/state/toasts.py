"""Toasts that do not contradict each other (issue 12): a success first clears what the screen
said before - a stale error, a "please verify" once the address is verified - then says
itself. Imports nothing of the app, so every state may use it."""

from __future__ import annotations

from typing import Any

import reflex as rx


def succeeded(text: Any, **options: Any) -> list[rx.event.EventSpec]:
    """Dismiss the toasts on screen, then show ``text`` as a success (yield the list)."""
    return [rx.toast.dismiss(), rx.toast.success(text, **options)]
