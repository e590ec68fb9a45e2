"""The meal dialog's "Repeat every <weekday>" section: set up a standing
order for this meal, size and child from the day picked
(``ui/screens/standing_orders/state.py``); and the same choice for a booked meal of the
order details screen, in a dialog of its own."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import (
    SMALL_GHOST,
    SMALL_SOFT,
    dialog_close,
    form_dialog,
    spinner_button,
)
from hotmeals.ui.components.dialogs import shown_by
from hotmeals.ui.components.form_parts import muted
from hotmeals.ui.components.forms import date_field, labelled_box, link_button, native_select
from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.components.panels import column
from hotmeals.ui.screens.standing_orders.state import STANDING_ROUTE, RepeatState
from hotmeals.ui.shared_state.i18n import t


def repeat_section() -> rx.Component:
    return rx.box(
        repeat_mount(),
        rx.cond(
            RepeatState.label != "",
            rx.box(
                # A disclosure, not a checkbox: "Add to cart" does not set it up, its own
                # button below does (a ticked box would look like part of the add).
                rx.button(
                    svg_icon("repeat", size=16, aria_hidden="true"),
                    RepeatState.label,
                    rx.cond(
                        RepeatState.open,
                        svg_icon("chevron-up", size=16, aria_hidden="true"),
                        svg_icon("chevron-down", size=16, aria_hidden="true"),
                    ),
                    on_click=RepeatState.toggle,
                    **SMALL_GHOST,
                    id="meal-repeat",
                    custom_attrs={
                        "aria-expanded": rx.cond(RepeatState.open, "true", "false"),
                        "aria-controls": "meal-repeat-form",
                    },
                ),
                rx.cond(RepeatState.open, _repeat_form()),
                class_name="hm-repeat",
                style={
                    "padding": "12px",
                    "border": f"1px solid {rx.color('gray', 6)}",
                    "border_radius": "10px",
                },
            ),
        ),
        width="100%",
    )


def repeat_mount() -> rx.Component:
    """An empty element whose mount prepares the section for the meal just opened."""
    return rx.el.span(on_mount=RepeatState.prepare, style={"display": "none"})


def _repeat_form() -> rx.Component:
    return column(
        muted(t("standing_ui.repeat_explain")),
        labelled_box(
            t("standing_ui.until_label"),
            "repeat-until",
            native_select(
                "repeat-until",
                rx.el.option(RepeatState.term_label, value="term"),
                rx.el.option(RepeatState.year_label, value="year"),
                rx.el.option(t("standing_ui.until_date"), value="date"),
                value=RepeatState.until,
                on_change=RepeatState.set_until,
            ),
            width="100%",
        ),
        rx.cond(
            RepeatState.until == "date",
            date_field(
                "repeat-ends-on",
                t("standing_ui.ends_on_label"),
                RepeatState.ends_on,
                RepeatState.set_ends_on,
                width="100%",
            ),
        ),
        rx.cond(
            RepeatState.done != "",
            rx.vstack(
                rx.text(RepeatState.done, id="repeat-done", size="2", weight="medium"),
                link_button(
                    t("standing_ui.see_all"),
                    href=STANDING_ROUTE,
                    **SMALL_SOFT,
                    id_="repeat-see-all",
                ),
                spacing="2",
            ),
            spinner_button(
                t("standing_ui.set_up"),
                busy=RepeatState.busy,
                on_click=RepeatState.create,
                id_="repeat-create",
                **SMALL_SOFT,
                custom_attrs={"aria-busy": rx.cond(RepeatState.busy, "true", "false")},
            ),
        ),
        spacing="3",
        padding_top="8px",
        id="meal-repeat-form",
    )


def repeat_line_button(line_id: rx.Var, label: rx.Var) -> rx.Component:
    """A booked meal's "Repeat every <weekday>" (order details): opens ``repeat_line_dialog``
    for that line, loaded on the server."""
    return rx.button(
        svg_icon("repeat", size=16, aria_hidden="true"),
        label,
        on_click=RepeatState.open_line(line_id),
        **SMALL_SOFT,
        class_name="hm-line-repeat",
        custom_attrs={"aria-haspopup": "dialog"},
    )


def repeat_line_dialog() -> rx.Component:
    return form_dialog(
        RepeatState.label,
        _repeat_form(),
        rx.flex(
            dialog_close(t("standing_ui.close"), size="2", id="repeat-close"),
            justify="end",
            padding_top="12px",
        ),
        **shown_by(RepeatState, "line_open"),
        id="repeat-line-dialog",
    )


def standing_link() -> rx.Component:
    """Book meal's way to the standing orders screen."""
    return link_button(
        svg_icon("repeat", size=16, aria_hidden="true"),
        t("standing_ui.manage"),
        href=STANDING_ROUTE,
        **SMALL_GHOST,
        id_="book-standing-link",
    )
