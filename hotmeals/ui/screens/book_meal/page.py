"""/edit-profile/meal-detailed, the Book meal screen: the child, the calendar of the child's
school meal days, the chosen day's menu with the child's allergy marks, and the meal dialog
that adds a meal to the cart. "Book several days" is a second mode of this screen
(``screens/book_meal/many_days.py``)."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.forms import link_button, toggle_button
from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.layout import MAX_WIDTH
from hotmeals.ui.components.order_parts import note_card
from hotmeals.ui.components.panels import column, items_or, loading_spinner
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.screens.book_meal.calendar import child_picker
from hotmeals.ui.screens.book_meal.day_menu import book_grid
from hotmeals.ui.screens.book_meal.many_days import many_days_panel
from hotmeals.ui.screens.book_meal.meal_dialog import meal_dialog
from hotmeals.ui.screens.book_meal.standing_repeat import standing_link
from hotmeals.ui.screens.book_meal.state import BookingState
from hotmeals.ui.shared_state.i18n import t


def _mode_tab(mode: str, icon: str, label_key: str) -> rx.Component:
    active = BookingState.mode == mode
    return toggle_button(
        svg_icon(icon, size=16, aria_hidden="true"),
        t(label_key),
        active=active,
        on_click=BookingState.set_mode(mode),
        id_=f"book-mode-{mode}",
        base_class="hm-tab",
    )


def mode_tabs() -> rx.Component:
    return rx.el.div(
        _mode_tab("one", "calendar-check", "ui.book.one_day"),
        _mode_tab("many", "calendar-range", "ui.book.many_days"),
        class_name="hm-tabs hm-book-tabs",
        role="group",
        aria_label=t("ui.book.mode"),
    )


def one_day() -> rx.Component:
    return book_grid(note_card(t("ui.book.no_days"), "book-no-days"))


def no_children() -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(t("ui.book.no_children")),
            link_button(
                svg_icon("plus", size=16, aria_hidden="true"),
                t("ui.book.add_child"),
                href="/add-another-child",
                id_="book-add-child",
            ),
            spacing="3",
        ),
        width="100%",
    )


def meal_detailed() -> rx.Component:
    return parent_screen(
        # The language changed: reload what the services wrote in the old one.
        on_language_change(BookingState.relang),
        standing_link(),  # the standing orders screen
        rx.cond(
            BookingState.loaded,
            items_or(
                BookingState.kids,
                column(
                    child_picker(),
                    mode_tabs(),
                    rx.cond(
                        BookingState.mode == "many",
                        many_days_panel(),
                        one_day(),
                    ),
                    spacing="4",
                ),
                no_children(),
            ),
            loading_spinner(),
        ),
        meal_dialog(),
        max_width=MAX_WIDTH,
        frame=screen_intro(t("ui.book.title"), t("ui.book.intro")),
    )
