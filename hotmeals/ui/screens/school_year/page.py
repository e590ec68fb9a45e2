"""/edit-profile/school-year: the start of the school year. One child at a
time: last year's class, this year's grade (one up offered), school and teacher, the
allergies to review; or archive a child who left. Its route: ``hotmeals/ui/routes.py``."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import spread_row
from hotmeals.ui.components.form_parts import (
    QUIET_BUTTON,
    action_row,
    choice_field,
    icon_button,
    loading_block,
    muted,
    section_card,
)
from hotmeals.ui.components.forms import check_label, link_button, once_attrs, submit_button
from hotmeals.ui.components.header import BOOK_MEAL_ROUTE
from hotmeals.ui.components.panels import column, items_or
from hotmeals.ui.components.screens import plain_screen, screen_heading
from hotmeals.ui.screens.school_year.state import SchoolYearState
from hotmeals.ui.shared_state.i18n import t


def _allergy(row: rx.Var) -> rx.Component:
    return rx.badge(
        row["name"],
        " · ",
        row["level"],
        color_scheme=rx.cond(row["value"] == "Major", "red", "orange"),
        variant="soft",
        size="2",
    )


def _allergies() -> rx.Component:
    return column(
        rx.heading(t("sy.allergies"), as_="h3", size="3"),
        items_or(
            SchoolYearState.allergies,
            rx.flex(rx.foreach(SchoolYearState.allergies, _allergy), spacing="2", wrap="wrap"),
            muted(t("sy.no_allergies")),
        ),
        muted(t("sy.allergies_hint"), size="1"),
        check_label(
            "sy-reviewed",
            SchoolYearState.reviewed,
            SchoolYearState.set_reviewed,
            rx.text(t("sy.reviewed"), size="2", weight="medium"),
            checkbox={
                "size": "3",
                "custom_attrs": {
                    "aria-required": "true",
                    "aria-invalid": rx.cond(SchoolYearState.reviewed_error != "", "true", "false"),
                    "aria-describedby": "sy-reviewed-error",
                },
            },
            class_name="hm-sy-check",
        ),
        # said at the box that needs it, not in a toast (the focus goes to the box)
        rx.text(
            SchoolYearState.reviewed_error,
            id="sy-reviewed-error",
            color=rx.color("red", 11),
            size="2",
        ),
        spacing="2",
    )


def _archive() -> rx.Component:
    """A child who left: archived after a second tap (hidden from booking, history kept)."""
    return rx.vstack(
        rx.cond(
            SchoolYearState.archive_open,
            action_row(
                icon_button(
                    "archive",
                    t("sy.archive_yes"),
                    color_scheme="red",
                    on_click=SchoolYearState.archive,
                    disabled=SchoolYearState.busy,
                    custom_attrs=once_attrs(SchoolYearState.turn),
                    id="sy-archive-yes",
                ),
                rx.button(
                    t("sy.archive_no"), **QUIET_BUTTON, on_click=SchoolYearState.ask_archive(False)
                ),
            ),
            icon_button(
                "archive",
                t("sy.archive"),
                **QUIET_BUTTON,
                on_click=SchoolYearState.ask_archive(True),
                id="sy-archive",
            ),
        ),
        muted(t("sy.archive_hint"), size="1"),
        spacing="1",
    )


def _child_form() -> rx.Component:
    return section_card(
        column(
            spread_row(
                rx.heading(SchoolYearState.name, as_="h2", size="5", id="sy-child"),
                rx.badge(SchoolYearState.remaining_text, variant="soft", size="2"),
                align="center",
                wrap="wrap",
                spacing="2",
            ),
            muted(rx.text.strong(t("sy.last_year")), " ", SchoolYearState.last_year),
            choice_field(SchoolYearState, "grade", "sy-grade", t("sy.grade"), t("sy.choose_grade")),
            rx.cond(
                SchoolYearState.graduating,
                rx.callout.root(
                    rx.callout.icon(rx.icon("graduation-cap", aria_hidden="true")),
                    rx.callout.text(t("sy.graduating")),
                    color_scheme="orange",
                    size="1",
                    width="100%",
                    id="sy-graduating",
                ),
                muted(t("sy.offered"), size="1"),
            ),
            choice_field(
                SchoolYearState, "school", "sy-school", t("sy.school"), t("sy.choose_school")
            ),
            choice_field(
                SchoolYearState, "teacher", "sy-teacher", t("sy.teacher"), t("sy.choose_teacher")
            ),
            _allergies(),
            submit_button(
                rx.fragment(t("sy.confirm"), " ", SchoolYearState.name),
                SchoolYearState.busy,
                turn=SchoolYearState.turn,
                type="button",
                on_click=SchoolYearState.confirm,
                id="sy-confirm",
            ),
            rx.divider(),
            _archive(),
            spacing="4",
        ),
    )


def _done() -> rx.Component:
    return section_card(
        rx.vstack(
            rx.icon("party-popper", size=28, aria_hidden="true"),
            rx.heading(t("sy.done_title"), as_="h2", size="5", id="sy-done"),
            muted(t("sy.done_text")),
            action_row(
                link_button(t("sy.book"), href=BOOK_MEAL_ROUTE, size="3", id_="sy-book"),
                link_button(t("sy.account"), href="/edit-profile", size="3", variant="soft"),
            ),
            spacing="3",
            align="center",
            text_align="center",
        ),
    )


def school_year() -> rx.Component:
    return plain_screen(
        screen_heading(
            rx.fragment(t("sy.heading")),
            rx.fragment(SchoolYearState.year_label, " · ", t("sy.intro")),
        ),
        rx.cond(
            SchoolYearState.loading,
            loading_block(),
            rx.cond(SchoolYearState.child_id != "", _child_form(), _done()),
        ),
    )
