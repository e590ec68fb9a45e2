"""/allergy-profile: the chosen child's allergic ingredients, picked from the admin's list with
type-ahead suggestions, each with an alert level (docs/product.md §3). During sign-up it is the
ALLERGY step; saving or 'no allergies' completes the sign-up."""

from __future__ import annotations

import reflex as rx

from hotmeals.domain.allergy import BY_SEVERITY
from hotmeals.ui.components.forms import label, link_button, save_button
from hotmeals.ui.components.progress import signup_progress
from hotmeals.ui.components.screens import focus_screen, screen_heading, session_only
from hotmeals.ui.state.allergy import AllergyState
from hotmeals.ui.state.i18n import t

SEARCH_ID = "allergy-search"


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
        rx.icon_button(
            rx.icon("x", size=16, aria_hidden="true"),
            type="button",
            variant="ghost",
            color_scheme="gray",
            on_click=AllergyState.remove(item["ingredient_id"]),
            aria_label=t("ui.common.remove") + " " + item["name"],
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
    return rx.vstack(
        rx.box(
            label(t("ui.allergy.search_label"), SEARCH_ID),
            rx.input(
                rx.input.slot(rx.icon("search", size=16, aria_hidden="true")),
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
            rx.text(
                rx.cond(AllergyState.query == "", t("ui.allergy.common"), t("ui.allergy.matches")),
                size="2",
                weight="medium",
                color=rx.color("gray", 11),
                id="allergy-suggestions-title",
            ),
            rx.cond(
                AllergyState.suggestions.length() > 0,
                rx.el.ul(
                    rx.foreach(AllergyState.suggestions, suggestion_chip),
                    class_name="hm-chips",
                    id="allergy-suggestions",
                ),
                rx.text(
                    t("ui.allergy.no_match"),
                    size="2",
                    color=rx.color("gray", 11),
                    id="allergy-suggestions",
                ),
            ),
            aria_live="polite",
            width="100%",
        ),
        rx.box(
            rx.heading(t("ui.allergy.chosen"), as_="h2", size="4", margin_bottom="8px"),
            rx.cond(
                AllergyState.items.length() > 0,
                rx.vstack(rx.foreach(AllergyState.items, chosen_row), spacing="2", width="100%"),
                rx.text(t("ui.allergy.none_yet"), size="2", color=rx.color("gray", 11)),
            ),
            aria_live="polite",
            width="100%",
            id="allergy-chosen",
        ),
        rx.flex(
            rx.box(
                save_button(
                    AllergyState.busy,
                    text=t("ui.allergy.save"),
                    type="button",
                    on_click=AllergyState.save,
                    id="allergy-save",
                    turn=AllergyState.turn,
                ),
                flex="1",
                min_width="200px",
            ),
            rx.cond(
                AllergyState.in_signup,
                # Not offered once an allergy is picked: it would drop them.
                rx.cond(
                    AllergyState.items.length() == 0,
                    rx.button(
                        t("ui.allergy.skip"),
                        type="button",
                        variant="soft",
                        size="3",
                        color_scheme="gray",
                        on_click=AllergyState.skip,
                        disabled=AllergyState.busy,
                        id="allergy-skip",
                        flex="1",
                        min_width="200px",
                    ),
                    rx.fragment(),
                ),
                link_button(
                    t("ui.common.cancel"),
                    href="/edit-profile",
                    variant="soft",
                    size="3",
                    color_scheme="gray",
                    flex="1",
                    min_width="200px",
                ),
            ),
            spacing="3",
            wrap="wrap",
            width="100%",
        ),
        spacing="5",
        width="100%",
    )


def allergy_profile() -> rx.Component:
    return session_only(
        focus_screen(
            rx.cond(AllergyState.in_signup, signup_progress(3), rx.fragment()),
            rx.cond(
                AllergyState.loading,
                rx.center(rx.spinner(size="3"), padding="48px"),
                rx.cond(
                    AllergyState.missing,
                    rx.vstack(
                        screen_heading(t("ui.allergy.title_plain")),
                        rx.text(t("child_not_found")),
                        rx.link(t("ui.common.back_to_profile"), href="/edit-profile"),
                    ),
                    rx.box(
                        screen_heading(
                            rx.fragment(t("ui.allergy.title"), " ", AllergyState.child_name),
                            t("ui.allergy.subtitle"),
                        ),
                        allergy_form(),
                    ),
                ),
            ),
            illustration="/illustrations/allergy.svg",
            aside_title=t("ui.allergy.aside_title"),
            aside_text=t("ui.allergy.aside_text"),
        )
    )
