"""The pieces the screens after an order share (an order's history and details, modify an
order, manage a meal, the cancel cart, standing orders, the receipt, family credit, a child
away): plain lists, a label with its amount, a row of actions, a dialog with its
buttons, the way back, a payment's progress and a screen that loads one thing or says it is
missing. The presets below name that one look, so each screen does not spell it again."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.card_choice import payment_progress
from hotmeals.ui.components.form_parts import QUIET_BUTTON, muted
from hotmeals.ui.components.forms import busy_button, link_button, notice
from hotmeals.ui.components.panels import (
    CARD,
    LIST_CARD,
    column,
    loaded_list,
    loading_spinner,
    rows_or_empty,
)
from hotmeals.ui.shared_state.i18n import t

# A list without bullets or indent, as wide as its column.
BARE_LIST = {"padding": "0", "margin": "0", "width": "100%"}
# Cards one under the other, 8px apart (the meals of an order, of a change).
STACKED_LIST = {"display": "flex", "flex_direction": "column", "gap": "8px", **BARE_LIST}
# A meal line's card in a list of them (an order's details, the cancel cart).
LINE_CARD = {**CARD, "list_style": "none"}
# Buttons or badges side by side, onto a new line on a narrow screen.
ACTION_ROW = {"gap": "8px", "wrap": "wrap"}
# The small buttons beside a screen's content: its secondary actions, its way back.
SMALL_SOFT = {"variant": "soft", "size": "2"}
SMALL_GHOST = {"variant": "ghost", "size": "2"}
# A secondary action at the size of the screen's main one (check the days, add an item).
LARGE_SOFT = {"variant": "soft", "size": "3"}
# A red action that is not the screen's main one (remove, cancel, end).
RED_SOFT = {"variant": "soft", "color_scheme": "red"}
# The red button that confirms a cancel.
RED_LARGE = {"color_scheme": "red", "size": "3"}
# A line of a list ruled off from the next (a credit movement, a meal of the days away).
RULED_ROW = {
    "padding_y": "10px",
    "border_bottom": f"1px solid {rx.color('gray', 4)}",
    "width": "100%",
}
# A change's or a move's payment, by its status.
STATUS_KIND = {
    "done": "success",
    "cancelled": "success",
    "paying": "info",
    "confirming": "info",
    "pending": "info",
    "declined": "error",
    "dropped": "error",
    "error": "error",
}


def glyph(name: str) -> rx.Component:
    """A button's icon: decoration beside its text, hidden from screen readers."""
    return rx.icon(name, size=16, aria_hidden="true")


def icon_button(icon: str, *label: Any, **props: Any) -> rx.Component:
    """A button, its icon before its text."""
    return rx.button(glyph(icon), *label, **props)


def icon_link(icon: str, *label: Any, href: Any, **props: Any) -> rx.Component:
    """A link that looks like a button, its icon before its text."""
    return link_button(glyph(icon), *label, href=href, **props)


def onward_link(label: Any, *, href: Any, **props: Any) -> rx.Component:
    """A link that looks like a button and leads on: its text, then an arrow."""
    return link_button(label, glyph("arrow-right"), href=href, **props)


def spinner_button(*label: Any, busy: Any, on_click: Any, id_: str, **props: Any) -> rx.Component:
    """A button that shows a spinner before its text, and takes no tap, while ``busy``."""
    return rx.button(
        rx.cond(busy, rx.spinner(size="2"), rx.fragment()),
        *label,
        on_click=on_click,
        disabled=busy,
        id=id_,
        **props,
    )


def heading_badge(heading: rx.Component, badge: rx.Component) -> rx.Component:
    """An order's heading and, pushed to the right (under it when there is no room), its
    status."""
    return rx.flex(heading, rx.spacer(), badge, width="100%", align="center", **ACTION_ROW)


def meal_summary(title: Any, *lines: rx.Component) -> rx.Component:
    """A meal's card text: its bold first line (the meal, or its day), the rest under it."""
    return rx.vstack(rx.text(title, weight="bold", size="3"), *lines, spacing="1", align="start")


def section_title(key: str, size: str = "4", **props: Any) -> rx.Component:
    """A section's h2, from its catalog key."""
    return rx.heading(t(key), as_="h2", size=size, **props)


def item_list(items: rx.Var, render: Any, id_: str | None = None, **layout: Any) -> rx.Component:
    """One ``render`` per item in a bare list: cards stacked 8px apart unless ``layout`` says
    otherwise."""
    named = {"id": id_} if id_ is not None else {}
    return rx.el.ul(rx.foreach(items, render), **(layout or STACKED_LIST), **named)


def list_card(*children: rx.Component, class_name: str, data: dict[str, Any]) -> rx.Component:
    """One row of a screen's list of cards (an order, a standing order): its lines one under
    the other; ``data`` its ``data-`` attributes."""
    return rx.el.li(
        column(*children, spacing="2"), class_name=class_name, custom_attrs=data, style=LIST_CARD
    )


def card_list(state: Any, card: Any, *, list_id: str, empty: rx.Component, **props: Any) -> Any:
    """A ``card`` (a ``list_card``) per row of ``state.rows`` once ``state.loaded``, or
    ``empty`` (``panels.loaded_list``)."""
    return loaded_list(state.rows, card, loaded=state.loaded, list_id=list_id, empty=empty, **props)


def ruled_list(
    items: rx.Var, render: Any, id_: str, *, empty_key: str, empty_id: str
) -> rx.Component:
    """``RULED_ROW`` lines touching one another, or the gray line that says there are none."""
    return rows_or_empty(
        items, render, muted(t(empty_key), size=None, id=empty_id), list_id=id_, spacing="0"
    )


def text_stack(*lines: Any, **props: Any) -> rx.Component:
    """A ruled line's texts, tight under each other, taking the room the amount leaves."""
    return rx.vstack(*lines, spacing="0", flex="1", **props)


def spread_row(label: Any, value: Any, **props: Any) -> rx.Component:
    """Two things at the row's two ends: a label and its value (an amount), a heading and
    its badge or button."""
    return rx.flex(label, value, justify="between", width="100%", **props)


def bold_total(key: str, amount: Any, id_: str, **props: Any) -> rx.Component:
    """A refund's total: its name and its amount, both bold."""
    return spread_row(
        rx.text(t(key), weight="bold"), rx.text(amount, weight="bold", id=id_), **props
    )


def done_notice(title: Any, message: Any, id_: str) -> rx.Component:
    """What was just done (an order or meals cancelled), kept on the screen."""
    return rx.cond(
        message != "",
        rx.box(
            notice(rx.fragment(rx.el.strong(title), " ", message)),
            id=id_,
            width="100%",
        ),
    )


def way_back(href: Any, key: str, id_: str) -> rx.Component:
    """The ghost link back to the screen this one came from."""
    return icon_link("arrow-left", t(key), href=href, id_=id_, **SMALL_GHOST)


def back(href: Any, key: str, id_: str) -> rx.Component:
    """``way_back`` on a line of its own, above the screen's heading."""
    return rx.box(way_back(href, key, id_))


def progress(state: Any, id_: str) -> rx.Component:
    """A change's or a move's payment status (``STATUS_KIND``)."""
    return payment_progress(state, STATUS_KIND, id_)


def commit_button(
    state: Any, label: Any, icon: rx.Component, id_: str, *, on_click: Any, **props: Any
) -> rx.Component:
    """The large button that does what the screen is for (``busy_button``, busy and one tap
    through ``state.busy`` and ``state.turn``)."""
    return busy_button(
        label,
        icon=icon,
        busy=state.busy,
        turn=state.turn,
        on_click=on_click,
        size="3",
        id=id_,
        **props,
    )


def pay_button(state: Any, label: Any, icon: str, id_: str, **props: Any) -> rx.Component:
    """The full-width ``commit_button`` that confirms a change and pays or refunds its
    difference (``state.pay``)."""
    return commit_button(
        state, label, rx.icon(icon, size=16), id_, on_click=state.pay, width="100%", **props
    )


def loaded_or_missing(
    loaded: Any,
    missing: Any,
    missing_view: rx.Component,
    content: rx.Component,
    waiting: rx.Component | None = None,
) -> rx.Component:
    """The spinner (or ``waiting``) until ``loaded``; then ``missing_view`` when the screen's
    order, meal or receipt is not there (``missing`` says why), else ``content``."""
    return rx.cond(
        loaded,
        rx.cond(missing != "", missing_view, content),
        loading_spinner() if waiting is None else waiting,
    )


def dialog_close(label: Any, size: str = "3", **props: Any) -> rx.Component:
    """A dialog's gray button that closes it without doing anything."""
    return rx.dialog.close(rx.button(label, **QUIET_BUTTON, size=size, **props))


def form_dialog(
    title: Any, *body: rx.Component, open_: Any, on_open_change: Any, **content_props: Any
) -> rx.Component:
    """A dialog that asks a little more (a quantity, a repeat's end) before it acts."""
    return rx.dialog.root(
        rx.dialog.content(rx.dialog.title(title), *body, max_width="440px", **content_props),
        open=open_,
        on_open_change=on_open_change,
    )
