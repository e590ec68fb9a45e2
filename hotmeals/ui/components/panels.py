"""The boxes the screens share: a list item's gray card, the orange box of totals at the foot
of a list, an unstyled grid list, a list or what says it is empty (a loaded one too), the
spinner a screen shows while it loads, and a question that unfolds its answer."""

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


def column(*children: Any, spacing: str, **props: Any) -> rx.Component:
    """Things one under the other, as wide as the screen's column (``spacing`` always
    said: ``rx.vstack``'s own is 3)."""
    return rx.vstack(*children, spacing=spacing, width="100%", **props)


def loading_spinner(*children: rx.Component, padding: str = "32px") -> rx.Component:
    """A screen's (or, with less ``padding``, a panel's) spinner while its data loads."""
    return rx.center(rx.spinner(size="3"), *children, padding=padding, width="100%")


def amount_row(label: Any, value: rx.Component, *, label_size: str = "3", **props: Any) -> Any:
    """A total's row: its name in gray on the left, the amount pushed to the right."""
    return rx.flex(
        rx.text(label, size=label_size, color=rx.color("gray", 11)),
        rx.spacer(),
        value,
        width="100%",
        **props,
    )


def column_card(*children: rx.Component, spacing: str = "2", **props: Any) -> rx.Component:
    """A full-width card of facts or totals, one under the other."""
    return rx.card(column(*children, spacing=spacing), width="100%", **props)


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


def items_or(items: Any, present: Any, empty: Any = None) -> rx.Component:
    """``present`` while there are ``items``, else ``empty`` (what says there are none), or
    nothing when there is no ``empty``."""
    if empty is None:
        return rx.cond(items.length() > 0, present)
    return rx.cond(items.length() > 0, present, empty)


def rows_or_empty(
    rows: Any, item: Any, empty: rx.Component, *head: Any, list_id: str, spacing: str
) -> rx.Component:
    """``head`` and one ``item`` per row, one under the other, or ``empty`` when there is no
    row."""
    return rx.cond(
        rows.length() > 0,
        column(*head, rx.foreach(rows, item), spacing=spacing, id=list_id),
        empty,
    )


def loaded_list(
    rows: Any,
    item: Any,
    *,
    loaded: Any,
    list_id: str,
    list_style: dict[str, Any],
    empty: rx.Component,
    empty_id: str,
) -> rx.Component:
    """A screen's list of cards: the spinner until ``loaded``, then one ``item`` per row, or
    the ``empty`` message (centered) when there is none."""
    return rx.cond(
        loaded,
        rx.cond(
            rows.length() > 0,
            rx.el.ul(rx.foreach(rows, item), id=list_id, style=list_style),
            rx.center(empty, id=empty_id, padding="32px", width="100%"),
        ),
        loading_spinner(),
    )


def faq_fold(question: Any, answer: rx.Component) -> rx.Component:
    """A question that unfolds its ``answer`` on a tap (a FAQ's, the meal's nutrition): a
    <details> in the FAQ's look."""
    return rx.el.details(
        rx.el.summary(question, class_name="hm-faq-q"), answer, class_name="hm-faq"
    )
