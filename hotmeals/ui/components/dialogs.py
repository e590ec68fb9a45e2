"""The one "are you sure?" dialog (docs/product.md §2, §8: deletions and logout ask first).

Takes values and event handlers, not State classes: the caller says what it asks, what
confirming does and when it is busy."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.forms import once_attrs
from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.shared_state.i18n import t


def confirm_dialog(
    *,
    title: Any,
    description: Any,
    confirm_label: Any,
    cancel_label: Any | None = None,
    open_: Any,
    on_open_change: Any,
    on_confirm: Any,
    busy: Any,
    confirm_id: str,
    max_width: str = "440px",
    turn: Any | None = None,
) -> rx.Component:
    """A modal with Cancel (``cancel_label``, "Cancel" unless said) and a red confirm button
    that shows a spinner while ``busy`` (both buttons are disabled then, so a second click
    cannot confirm twice); with ``turn``, the confirm button is disabled from the first tap
    (``forms.once_attrs``)."""
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title(title),
            rx.alert_dialog.description(description),
            rx.flex(
                rx.alert_dialog.cancel(
                    rx.button(
                        t("ui.common.cancel") if cancel_label is None else cancel_label,
                        variant="soft",
                        color_scheme="gray",
                        size="3",
                        disabled=busy,
                    ),
                ),
                rx.button(
                    rx.cond(busy, rx.spinner(size="2"), rx.fragment()),
                    confirm_label,
                    on_click=on_confirm,
                    disabled=busy,
                    color_scheme="red",
                    size="3",
                    id=confirm_id,
                    custom_attrs=once_attrs(turn) if turn is not None else {},
                ),
                spacing="3",
                justify="end",
                margin_top="20px",
                wrap="wrap",
            ),
            max_width=max_width,
        ),
        open=open_,
        on_open_change=on_open_change,
    )


def shown_by(state: Any, flag: str) -> dict[str, Any]:
    """A dialog's ``open_`` and ``on_open_change`` (``confirm_dialog``, ``form_dialog``): the
    state's ``flag`` (``<name>_open``) and its setter."""
    return {"open_": getattr(state, flag), "on_open_change": getattr(state, f"set_{flag}")}


def close_x(**props: Any) -> rx.Component:
    """The gray X in a dialog's corner that closes it, named "Close" for screen readers."""
    return rx.dialog.close(
        rx.icon_button(
            svg_icon("x", aria_hidden="true"),
            variant="ghost",
            color_scheme="gray",
            aria_label=t("ui.common.close"),
            **props,
        ),
    )


def title_bar(top: rx.Component, *, align: str, **close_props: Any) -> rx.Component:
    """A dialog's first row: its ``top`` (the title, and what goes under it) and, at the
    row's other end, its ``close_x``."""
    return rx.flex(top, close_x(**close_props), justify="between", align=align, spacing="3")
