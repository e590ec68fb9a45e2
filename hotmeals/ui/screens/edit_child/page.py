"""/edit-profile/edit-child: the chosen child's details (docs/product.md §3, the chosen child),
a link to the allergy profile, set as default, and delete with the 'Are you sure?' warning."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.child_form import child_form, delete_child_dialog
from hotmeals.ui.components.form_parts import (
    QUIET_BUTTON,
    action_row,
    done_badge,
    icon_button,
    section_card,
)
from hotmeals.ui.components.forms import once_attrs
from hotmeals.ui.components.panels import column
from hotmeals.ui.components.screens import (
    child_or_missing,
    plain_screen,
    screen_heading,
)
from hotmeals.ui.shared_state.children import ChildChoiceState, ChildFormState, ChildrenState
from hotmeals.ui.shared_state.i18n import t


def _actions() -> rx.Component:
    child_id = ChildFormState.child_id.to_string()
    return section_card(
        rx.vstack(
            rx.heading(t("ui.child.more"), as_="h2", size="4"),
            action_row(
                icon_button(
                    "shield-alert",
                    t("ui.child.edit_allergies"),
                    variant="soft",
                    on_click=ChildChoiceState.allergies(child_id),
                ),
                rx.cond(
                    ChildFormState.is_default,
                    done_badge("star", t("ui.child.default")),
                    icon_button(
                        "star",
                        t("ui.child.make_default"),
                        **QUIET_BUTTON,
                        on_click=ChildrenState.set_default(child_id),
                        custom_attrs=once_attrs(ChildrenState.turn),
                    ),
                ),
                icon_button(
                    "trash-2",
                    t("ui.child.delete"),
                    variant="soft",
                    color_scheme="red",
                    on_click=ChildrenState.ask_delete(
                        child_id, ChildFormState.first_name + " " + ChildFormState.last_name
                    ),
                    id="child-delete",
                ),
                align="center",
            ),
            spacing="3",
        ),
    )


def edit_child() -> rx.Component:
    return plain_screen(
        child_or_missing(
            ChildFormState.loading,
            ChildFormState.missing,
            t("ui.child.edit_title"),
            column(
                screen_heading(t("ui.child.edit_title"), t("ui.child.edit_subtitle")),
                section_card(child_form("ui.common.save")),
                _actions(),
                delete_child_dialog(),
                spacing="5",
            ),
        ),
    )
