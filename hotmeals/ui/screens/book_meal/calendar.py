"""The Book meal screen's child picker and school-day calendar (a month at a time, each
day marked open, booked, in the cart or closed)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.forms import toggle_button
from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.components.icons import icon_only_button
from hotmeals.ui.components.order_parts import chip_row, labelled_group
from hotmeals.ui.screens.book_meal.state import BookingState
from hotmeals.ui.shared_state.children import ChildChoiceState
from hotmeals.ui.shared_state.i18n import t

# ---- child -----------------------------------------------------------------------------------


def _child_chip(kid: rx.Var) -> rx.Component:
    chosen = ChildChoiceState.child_id == kid["id"]
    return toggle_button(
        rx.el.span(kid["name"], class_name="hm-chip-name"),
        rx.el.span(kid["school"], class_name="hm-chip-sub"),
        active=chosen,
        on_click=BookingState.choose_child(kid["id"]),
        id_="book-child-" + kid["id"].to(str),
        base_class="hm-child-chip",
    )


def child_picker() -> rx.Component:
    return labelled_group(
        t("ui.book.child"),
        "book-child-label",
        chip_row(
            rx.foreach(BookingState.kids, _child_chip),
            label_id="book-child-label",
            spacing="2",
            class_name="hm-child-row",
        ),
        # The chosen child's allergies, always in view while booking.
        rx.el.p(
            svg_icon("shield-alert", size=16, aria_hidden="true"),
            BookingState.child_marks,
            class_name="hm-child-marks",
            id="book-child-marks",
            custom_attrs={"aria-live": "polite"},
        ),
        width="100%",
    )


def date_heading(text: rx.Var, size: str, id_: str, **props: Any) -> rx.Component:
    """The h2 of a month or a day (capitalised: French writes them in lower case)."""
    return rx.heading(text, as_="h2", size=size, id=id_, class_name="hm-capitalize", **props)


# ---- calendar --------------------------------------------------------------------------------


def _cell(cell: rx.Var) -> rx.Component:
    selected = cell["date"] == BookingState.selected_date
    kind = cell["kind"].to(str)
    marks = rx.el.span(
        rx.cond(cell["ordered"] != "", rx.el.span(class_name="hm-cal-dot is-ordered")),
        rx.cond(cell["cart"] != "", rx.el.span(class_name="hm-cal-dot is-cart")),
        class_name="hm-cal-marks",
        aria_hidden="true",
    )
    return rx.cond(
        cell["date"] != "",
        rx.el.button(
            rx.el.span(cell["day"], class_name="hm-cal-num"),
            marks,
            type="button",
            on_click=BookingState.choose_day(cell["date"]),
            class_name="hm-cal-cell is-" + kind + rx.cond(selected, " is-selected", ""),
            custom_attrs={
                "aria-label": cell["label"],
                "aria-pressed": rx.cond(selected, "true", "false"),
            },
            id="day-" + cell["date"].to(str),
        ),
        rx.el.span(
            cell["day"],
            class_name="hm-cal-cell is-" + kind,
            aria_hidden="true",
        ),
    )


def _legend_item(css: str, key: str) -> rx.Component:
    return rx.el.li(rx.el.span(class_name=f"hm-legend-swatch {css}"), t(key))


def _month_button(
    icon: str, label_key: str, on_click: Any, disabled: Any, id_: str
) -> rx.Component:
    return icon_only_button(
        svg_icon(icon, aria_hidden="true"),
        t(label_key),
        on_click=on_click,
        disabled=disabled,
        id=id_,
    )


def calendar() -> rx.Component:
    return rx.box(
        rx.flex(
            date_heading(
                BookingState.month_label,
                "4",
                "book-month",
                custom_attrs={"aria-live": "polite"},
            ),
            rx.hstack(
                _month_button(
                    "chevron-left",
                    "ui.book.prev_month",
                    BookingState.prev_month,
                    ~BookingState.has_prev_month,
                    "book-prev-month",
                ),
                _month_button(
                    "chevron-right",
                    "ui.book.next_month",
                    BookingState.next_month,
                    ~BookingState.has_next_month,
                    "book-next-month",
                ),
                spacing="2",
            ),
            justify="between",
            align="center",
            width="100%",
        ),
        rx.el.div(
            rx.foreach(
                BookingState.weekdays,
                lambda name: rx.el.span(name, class_name="hm-cal-head"),
            ),
            class_name="hm-cal-grid",
            aria_hidden="true",
        ),
        rx.el.div(
            rx.foreach(BookingState.cells, _cell),
            class_name="hm-cal-grid",
            role="group",
            aria_labelledby="book-month",
            id="book-calendar",
        ),
        rx.el.ul(
            _legend_item("is-open", "ui.book.legend_open"),
            _legend_item("is-past", "ui.book.legend_past"),
            _legend_item("is-closed", "ui.book.legend_closed"),
            _legend_item("is-away", "ui.book.legend_away"),
            _legend_item("is-none", "ui.book.legend_none"),
            _legend_item("is-ordered", "ui.book.legend_ordered"),
            _legend_item("is-cart", "ui.book.legend_cart"),
            class_name="hm-legend",
            aria_label=t("ui.book.legend"),
        ),
        class_name="hm-card hm-calendar",
        width="100%",
    )
