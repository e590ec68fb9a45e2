"""Where a new parent is in sign-up (docs/product.md §4: account -> ADD_CHILD -> ALLERGY ->
complete)."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.shared_state.i18n import t

STEPS = ("ui.progress.account", "ui.progress.child", "ui.progress.allergies")


def signup_progress(current: int) -> rx.Component:
    """``current`` is 1, 2 or 3."""
    items = []
    for number, key in enumerate(STEPS, start=1):
        done, active = number < current, number == current
        items.append(
            rx.el.li(
                rx.el.span(
                    rx.icon("check", size=14, aria_hidden="true") if done else str(number),
                    class_name="hm-step-dot"
                    + (" is-active" if active else "")
                    + (" is-done" if done else ""),
                    aria_hidden="true",
                ),
                rx.el.span(t(key)),
                rx.el.span(" ", t("ui.progress.done"), class_name="sr-only")
                if done
                else rx.fragment(),
                class_name="hm-step" + (" is-active" if active else ""),
                custom_attrs={"aria-current": "step"} if active else {},
            )
        )
    return rx.el.nav(
        rx.el.ol(*items, class_name="hm-steps"),
        aria_label=t("ui.progress.label"),
        margin_bottom="20px",
    )
