"""Run an event each time the language changes (and once when the screen mounts).

Server-made text (dates via Babel, size labels, a line's problems) is made in the language of
the call that loaded it; the screen reloads it in the language just chosen. React remounts the
children of an element whose ``key`` changes, so the hidden span inside the keyed box mounts
anew, and its ``on_mount`` fires, on every switch. (A ``key`` on the span itself would land on
the inner element of Reflex's memoized component and remount nothing.)"""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.state.i18n import I18nState


def relang_watch(handler: Any) -> rx.Component:
    return rx.box(
        rx.el.span(on_mount=handler, hidden=True),
        key=I18nState.lang,
        display="none",
    )
