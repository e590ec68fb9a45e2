"""/edit-profile: the parent's area, a step machine kept in localStorage (docs/product.md §2):
1 profile or book meal, 6 settings (sub-steps 1/2/3), 7 about us, 8 contact us, 9 terms,
10 privacy. The header shows Cart and Cancel Cart here."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import glyph, spread_row
from hotmeals.ui.components.child_form import child_card, delete_child_dialog
from hotmeals.ui.components.form_parts import icon_bubble, lead_row, muted, section_card
from hotmeals.ui.components.forms import link_button
from hotmeals.ui.components.header import BOOK_MEAL_ROUTE, PROFILE_ROUTE, avatar
from hotmeals.ui.components.layout import SCREEN_COLUMN, page, site_header
from hotmeals.ui.components.order_parts import note_card
from hotmeals.ui.components.panels import column, items_or
from hotmeals.ui.components.screens import parent_only
from hotmeals.ui.screens.edit_profile.cms_step import cms_step
from hotmeals.ui.screens.edit_profile.contact_us import contact_step
from hotmeals.ui.screens.edit_profile.giveback import giveback_card
from hotmeals.ui.screens.edit_profile.settings import settings_step
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.children import ChildrenState
from hotmeals.ui.shared_state.edit_profile import EditProfileState
from hotmeals.ui.shared_state.i18n import t
from hotmeals.ui.shared_state.steps import (
    ABOUT,
    CONTACT,
    PRIVACY,
    PROFILE,
    SETTINGS,
    SETTINGS_MENU,
    TERMS,
    ProfileStepState,
)

NAV = (
    (PROFILE, "user-round", "ui.steps.profile"),
    (SETTINGS, "settings", "ui.steps.settings"),
    (CONTACT, "mail", "ui.steps.contact"),
    (ABOUT, "info", "ui.steps.about"),
    (TERMS, "file-text", "ui.steps.terms"),
    (PRIVACY, "lock", "ui.steps.privacy"),
)


def _nav_item(step: str, icon: str, label_key: str) -> rx.Component:
    active = ProfileStepState.current == step
    return rx.el.li(
        rx.el.button(
            rx.icon(icon, size=18, aria_hidden="true"),
            rx.el.span(t(label_key)),
            type="button",
            on_click=EditProfileState.go(step, SETTINGS_MENU),
            class_name=rx.cond(active, "hm-nav-item is-active", "hm-nav-item"),
            custom_attrs={"aria-current": rx.cond(active, "page", "false")},
            id=f"step-{step}",
        ),
    )


def step_nav() -> rx.Component:
    return rx.el.nav(
        rx.el.ul(*[_nav_item(*item) for item in NAV], class_name="hm-nav-list"),
        aria_label=t("ui.steps.label"),
        class_name="hm-step-nav",
    )


def _summary_card(
    lead: rx.Component, *lines: rx.Component, action: rx.Component, min_width: str, **props
) -> rx.Component:
    """A card of the profile step: a picture or an icon, a few lines, and what to do next
    (under the lines when the card is narrow)."""
    return section_card(lead_row(lead, *lines, action=action, min_width=min_width), **props)


def parent_card() -> rx.Component:
    return _summary_card(
        avatar(rx.breakpoints(initial="5", sm="6")),
        rx.heading(AuthState.full_name, as_="h2", size="5"),
        muted(AuthState.email, class_name="hm-break"),
        muted(AuthState.phone),
        action=link_button(
            glyph("user-pen"),
            t("ui.header.edit_profile"),
            href=PROFILE_ROUTE,
            variant="soft",
        ),
        min_width="180px",
    )


def book_meal_card() -> rx.Component:
    return _summary_card(
        icon_bubble("utensils", 22),
        rx.heading(t("ui.profile.book_title"), as_="h2", size="4"),
        muted(t("ui.profile.book_text")),
        action=link_button(
            t("ui.header.book_meal"), href=BOOK_MEAL_ROUTE, size="3", id_="book-meal"
        ),
        min_width="200px",
        class_name="hm-book-card",
    )


def profile_step() -> rx.Component:
    return column(
        rx.heading(t("ui.profile.hello"), " ", AuthState.first_name, as_="h1", size="7"),
        parent_card(),
        rx.cond(AuthState.active_child_count > 0, book_meal_card()),
        giveback_card(),  # what the family's meals and donations gave this year
        spread_row(
            rx.heading(t("ui.profile.children"), as_="h2", size="5"),
            link_button(
                glyph("plus"),
                t("ui.profile.add_child"),
                href="/add-another-child",
                id_="add-another-child",
                variant="outline",
            ),
            align="center",
            wrap="wrap",
            spacing="3",
            margin_top="8px",
        ),
        items_or(
            ChildrenState.kids,
            rx.grid(
                rx.foreach(ChildrenState.kids, child_card),
                columns=rx.breakpoints(initial="1", sm="2"),
                spacing="4",
                width="100%",
            ),
            # No children: the one "Add a child" is the heading's button.
            note_card(t("ui.profile.no_children")),
        ),
        delete_child_dialog(),
        spacing="4",
    )


def step_content() -> rx.Component:
    return rx.match(
        ProfileStepState.current,
        (SETTINGS, settings_step()),
        (CONTACT, contact_step()),
        (ABOUT, cms_step()),
        (TERMS, cms_step()),
        (PRIVACY, cms_step()),
        profile_step(),
    )


def edit_profile() -> rx.Component:
    return parent_only(
        page(
            rx.el.div(
                step_nav(),
                rx.box(step_content(), width="100%"),
                class_name="hm-profile-grid",
                **SCREEN_COLUMN,
            ),
            header=site_header(show_cart=True),
        )
    )
