"""Reload what a screen's services wrote (names, prices, dates) when the parent switches
language: ``on_language_change(State.relang)`` fires ``relang`` on the page's mount and again
after every switch.

Reflex hoists an element's ``on_mount`` into a memoized component of its own, so a ``key`` on
that element does not remount it; the key goes on a wrapper instead, whose change remounts
the memoized child and runs its effect again."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.shared_state.i18n import I18nState


def on_language_change(handler: Any) -> rx.Component:
    return rx.box(
        rx.el.span(on_mount=handler),
        key=I18nState.lang,
        hidden=True,
        aria_hidden="true",
    )
