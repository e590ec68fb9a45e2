"""/allergy-profile: the chosen child's allergic ingredients, picked from the admin's list with
type-ahead suggestions, each with an alert level (docs/product.md §3). During sign-up it is the
ALLERGY step; saving or 'no allergies' completes the sign-up."""

from __future__ import annotations

import reflex as rx

from hotmeals.domain.allergy import BY_SEVERITY
from hotmeals.ui.components.after_parts import glyph, item_list
from hotmeals.ui.components.form_parts import (
    QUIET_BUTTON,
    ROW_SHARE,
    action_row,
    muted,
    remove_button,
)
from hotmeals.ui.components.forms import label, link_button, state_save_button
from hotmeals.ui.components.panels import column, items_or
from hotmeals.ui.components.progress import signup_progress
from hotmeals.ui.components.screens import (
    child_or_missing,
    focus_screen,
    screen_heading,
    session_only,
)
from hotmeals.ui.screens.allergy_profile.state import AllergyState
from hotmeals.ui.shared_state.i18n import t

SEARCH_ID = "allergy-search"
# "Skip" and "Cancel" beside the save button: quiet, the same size, sharing the row.
SECONDARY = {**QUIET_BUTTON, "size": "3", **ROW_SHARE}


def level_select(item: rx.Var) -> rx.Component:
    select_id = "level-" + item["ingredient_id"]
    return rx.box(
        rx.el.label(
            t("ui.allergy.level_for"), " ", item["name"], html_for=select_id, class_name="sr-only"
        ),
        rx.el.select(
            *[rx.el.option(t(level.label_key), value=level.value) for level in BY_SEVERITY],
            id=select_id,
            value=item["alert_level"],
            on_change=lambda value: AllergyState.set_level(item["ingredient_id"], value),
            class_name="hm-select hm-select-sm",
        ),
    )


def chosen_row(item: rx.Var) -> rx.Component:
    return rx.flex(
        rx.text(item["name"], weight="medium", flex="1", min_width="120px"),
        level_select(item),
        remove_button(
            "x",
            16,
            item["name"],
            AllergyState.remove(item["ingredient_id"]),
            type="button",
            color_scheme="gray",
        ),
        align="center",
        spacing="3",
        padding="10px 12px",
        border=f"1px solid {rx.color('gray', 6)}",
        border_radius="12px",
        width="100%",
        wrap="wrap",
        class_name="hm-allergy-row",
    )


def suggestion_chip(row: rx.Var) -> rx.Component:
    return rx.el.li(
        rx.button(
            rx.icon("plus", size=14, aria_hidden="true"),
            row["name"],
            type="button",
            variant="outline",
            size="2",
            radius="full",
            on_click=AllergyState.add(row["id"], row["name"]),
            aria_label=t("ui.allergy.add") + " " + row["name"],
        ),
    )


def allergy_form() -> rx.Component:
    return column(
        rx.box(
            label(t("ui.allergy.search_label"), SEARCH_ID),
            rx.input(
                rx.input.slot(glyph("search")),
                id=SEARCH_ID,
                type="search",
                size="3",
                placeholder=t("ui.allergy.search_placeholder"),
                on_change=AllergyState.search.debounce(250),
                auto_complete="off",
                custom_attrs={
                    "aria-describedby": "allergy-suggestions-title",
                    "aria-controls": "allergy-suggestions",
                },
            ),
            class_name="hm-field",
            width="100%",
        ),
        rx.box(
            muted(
                rx.cond(AllergyState.query == "", t("ui.allergy.common"), t("ui.allergy.matches")),
                weight="medium",
                id="allergy-suggestions-title",
            ),
            items_or(
                AllergyState.suggestions,
                item_list(
                    AllergyState.suggestions,
                    suggestion_chip,
                    "allergy-suggestions",
                    class_name="hm-chips",
                ),
                muted(t("ui.allergy.no_match"), id="allergy-suggestions"),
            ),
            aria_live="polite",
            width="100%",
        ),
        rx.box(
            rx.heading(t("ui.allergy.chosen"), as_="h2", size="4", margin_bottom="8px"),
            items_or(
                AllergyState.items,
                column(rx.foreach(AllergyState.items, chosen_row), spacing="2"),
                muted(t("ui.allergy.none_yet")),
            ),
            aria_live="polite",
            width="100%",
            id="allergy-chosen",
        ),
        action_row(
            rx.box(
                state_save_button(AllergyState, "allergy-save", text=t("ui.allergy.save")),
                **ROW_SHARE,
            ),
            rx.cond(
                AllergyState.in_signup,
                # Not offered once an allergy is picked: it would drop them.
                rx.cond(
                    AllergyState.items.length() == 0,
                    rx.button(
                        t("ui.allergy.skip"),
                        type="button",
                        on_click=AllergyState.skip,
                        disabled=AllergyState.busy,
                        id="allergy-skip",
                        **SECONDARY,
                    ),
                    rx.fragment(),
                ),
                link_button(t("ui.common.cancel"), href="/edit-profile", **SECONDARY),
            ),
            width="100%",
        ),
        spacing="5",
    )


def allergy_profile() -> rx.Component:
    return session_only(
        focus_screen(
            rx.cond(AllergyState.in_signup, signup_progress(3), rx.fragment()),
            child_or_missing(
                AllergyState.loading,
                AllergyState.missing,
                t("ui.allergy.title_plain"),
                rx.box(
                    screen_heading(
                        rx.fragment(t("ui.allergy.title"), " ", AllergyState.child_name),
                        t("ui.allergy.subtitle"),
                    ),
                    allergy_form(),
                ),
            ),
            illustration="/illustrations/allergy.svg",
            aside_title=t("ui.allergy.aside_title"),
            aside_text=t("ui.allergy.aside_text"),
        )
    )
