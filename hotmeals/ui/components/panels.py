"""The boxes the screens share: a list item's gray card, the orange box of totals at the foot
of a list, an unstyled grid list, and the spinner a screen shows while it loads."""

from __future__ import annotations

from typing import Any

import reflex as rx

CARD_FRAME = {
    "padding": "14px",
    "border": f"1px solid {rx.color('gray', 6)}",
    "border_radius": "10px",
    "background_color": rx.color("gray", 1),
}
CARD = {**CARD_FRAME, "width": "100%"}
LIST_CARD = {**CARD_FRAME, "list_style": "none"}
GRID_LIST = {"display": "grid", "gap": "12px", "padding": "0", "margin": "0", "width": "100%"}


def loading_spinner(*children: rx.Component) -> rx.Component:
    return rx.center(rx.spinner(size="3"), *children, padding="32px", width="100%")


def totals_box(*children: rx.Component, **props: Any) -> rx.Component:
    """The orange box under a list: its totals and the button that acts on them."""
    return rx.box(
        *children,
        **props,
        padding="16px",
        border_radius="12px",
        background_color=rx.color("orange", 2),
        border=f"1px solid {rx.color('orange', 6)}",
        width="100%",
    )
