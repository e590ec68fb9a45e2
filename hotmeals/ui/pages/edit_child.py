"""/edit-profile/edit-child: the chosen child's details (docs/product.md §3, the chosen child),
a link to the allergy profile, set as default, and delete with the 'Are you sure?' warning."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.forms import once_attrs
from hotmeals.ui.components.screens import parent_only, plain_screen, screen_heading
from hotmeals.ui.pages.child_form import child_form, delete_child_dialog
from hotmeals.ui.state.children import ChildChoiceState, ChildFormState, ChildrenState
from hotmeals.ui.state.i18n import t


def _actions() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.heading(t("ui.child.more"), as_="h2", size="4"),
            rx.flex(
                rx.button(
                    rx.icon("shield-alert", size=14, aria_hidden="true"),
                    t("ui.child.edit_allergies"),
                    variant="soft",
                    on_click=ChildChoiceState.allergies(ChildFormState.child_id.to_string()),
                ),
                rx.cond(
                    ChildFormState.is_default,
                    rx.badge(
                        rx.icon("star", size=12, aria_hidden="true"),
                        t("ui.child.default"),
                        color_scheme="grass",
                        size="2",
                    ),
                    rx.button(
                        rx.icon("star", size=14, aria_hidden="true"),
                        t("ui.child.make_default"),
                        variant="soft",
                        color_scheme="gray",
                        on_click=ChildrenState.set_default(ChildFormState.child_id.to_string()),
                        custom_attrs=once_attrs(ChildrenState.turn),
                    ),
                ),
                rx.button(
                    rx.icon("trash-2", size=14, aria_hidden="true"),
                    t("ui.child.delete"),
                    variant="soft",
                    color_scheme="red",
                    on_click=ChildrenState.ask_delete(
                        ChildFormState.child_id.to_string(),
                        ChildFormState.first_name + " " + ChildFormState.last_name,
                    ),
                    id="child-delete",
                ),
                spacing="3",
                wrap="wrap",
                align="center",
            ),
            spacing="3",
        ),
        width="100%",
        size="3",
    )


def edit_child() -> rx.Component:
    return parent_only(
        plain_screen(
            rx.cond(
                ChildFormState.loading,
                rx.center(rx.spinner(size="3"), padding="48px"),
                rx.cond(
                    ChildFormState.missing,
                    rx.vstack(
                        screen_heading(t("ui.child.edit_title")),
                        rx.text(t("child_not_found")),
                        rx.link(t("ui.common.back_to_profile"), href="/edit-profile"),
                    ),
                    rx.vstack(
                        screen_heading(t("ui.child.edit_title"), t("ui.child.edit_subtitle")),
                        rx.card(child_form("ui.common.save"), width="100%", size="3"),
                        _actions(),
                        delete_child_dialog(),
                        spacing="5",
                        width="100%",
                    ),
                ),
            ),
        )
    )
