"""/edit-profile/child-away: "Emma is away". The children and the days, where refunds go, then
'Check the meals': each booked meal of those days is cancelled with its refund (before its
cut-off) or, past its cut-off, may be given to the school's student-nutrition program; one
confirm does it all, showing the total first."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import (
    LARGE_SOFT,
    RULED_ROW,
    commit_button,
    glyph,
    icon_button,
    ruled_list,
    section_title,
    text_stack,
)
from hotmeals.ui.components.cancel_reason import refund_to_field
from hotmeals.ui.components.form_parts import alert_text, muted
from hotmeals.ui.components.forms import check_label, date_field
from hotmeals.ui.components.order_parts import child_chips
from hotmeals.ui.components.panels import column
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.screens.child_away.state import ChildAwayState
from hotmeals.ui.shared_state.i18n import t


def _date(field_id: str, label_key: str, value: rx.Var, on_change) -> rx.Component:
    return date_field(
        field_id,
        t(label_key),
        value,
        on_change,
        min_date=ChildAwayState.today,  # no day gone by (the service refuses it too)
        flex="1",
        min_width="150px",
    )


def ask_form() -> rx.Component:
    return rx.card(
        column(
            rx.el.fieldset(
                rx.el.legend(t("away_ui.who"), class_name="hm-label"),
                rx.flex(child_chips(ChildAwayState, "away-kid-"), wrap="wrap", spacing="2"),
                class_name="hm-fieldset",
            ),
            rx.flex(
                _date(
                    "away-from",
                    "away_ui.from",
                    ChildAwayState.from_date,
                    ChildAwayState.set_from_date,
                ),
                _date("away-to", "away_ui.to", ChildAwayState.to_date, ChildAwayState.set_to_date),
                spacing="3",
                wrap="wrap",
                width="100%",
            ),
            refund_to_field(ChildAwayState),
            icon_button(
                "search",
                t("away_ui.check"),
                on_click=ChildAwayState.check,
                **LARGE_SOFT,
                id="away-check",
            ),
            alert_text(ChildAwayState.error, id="away-error"),
            spacing="4",
        ),
        width="100%",
    )


def _meal(meal: rx.Var) -> rx.Component:
    donate_id = "away-donate-" + meal["id"]
    return rx.box(
        rx.hstack(
            text_stack(
                rx.text(meal["child"], " — ", meal["day"], weight="medium"),
                rx.text(meal["name"], " × ", meal["quantity"], size="2"),
                muted(meal["label"]),
            ),
            align="start",
            width="100%",
        ),
        rx.cond(
            meal["state"] == "past",
            check_label(
                donate_id,
                ChildAwayState.donate.contains(meal["id"]),
                lambda checked: ChildAwayState.toggle_donate(meal["id"], checked),
                rx.el.span(t("away_ui.donate")),
                style={
                    "display": "flex",
                    "alignItems": "center",
                    "gap": "10px",
                    "minHeight": "44px",
                    "marginTop": "4px",
                },
            ),
        ),
        **RULED_ROW,
        class_name="hm-away-meal",
        custom_attrs={"data-state": meal["state"], "data-line-id": meal["id"]},
    )


def meals_list() -> rx.Component:
    return rx.cond(
        ChildAwayState.checked,
        column(
            section_title("away_ui.meals", size="5"),
            ruled_list(
                ChildAwayState.meals,
                _meal,
                "away-meals",
                empty_key="away_ui.none",
                empty_id="away-none",
            ),
            rx.cond(
                ChildAwayState.cancel_count > 0,
                rx.text(
                    t("away_ui.total"),
                    " ",
                    rx.el.strong(ChildAwayState.refund, id="away-refund"),
                    id="away-total",
                ),
            ),
            rx.cond(
                ChildAwayState.can_confirm,
                column(
                    muted(t("away_ui.final"), size="2", id="away-final"),
                    commit_button(
                        ChildAwayState,
                        t("away_ui.confirm"),
                        glyph("calendar-x"),
                        "away-confirm",
                        on_click=ChildAwayState.confirm,
                    ),
                    spacing="2",
                ),
            ),
            spacing="3",
        ),
    )


def done_notice() -> rx.Component:
    """What the last confirm did, where the meals and Confirm were."""
    return rx.cond(
        ChildAwayState.done != "",
        rx.callout.root(
            rx.callout.icon(rx.icon("circle-check", aria_hidden="true")),
            rx.callout.text(ChildAwayState.done),
            color_scheme="grass",
            role="status",
            id="away-done",
            width="100%",
        ),
    )


def marked_days() -> rx.Component:
    """The days already marked, lasting (from today on)."""
    return rx.cond(
        ChildAwayState.ranges.length() > 0,
        column(
            section_title("away_ui.marked", size="4"),
            rx.el.ul(
                rx.foreach(
                    ChildAwayState.ranges,
                    lambda r: rx.el.li(rx.text(r, size="2"), class_name="hm-away-range"),
                ),
                id="away-ranges",
                style={"margin": "0", "padding_left": "20px"},
            ),
            spacing="2",
        ),
    )


def child_away() -> rx.Component:
    return parent_screen(
        *screen_intro(t("away_ui.title"), t("away_ui.intro")),
        ask_form(),
        done_notice(),
        meals_list(),
        marked_days(),
        spacing="5",
        show_cart=False,
    )
