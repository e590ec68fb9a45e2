"""The Book meal screen's menu of the chosen day: a card a meal with the child's allergy
mark and, for a child with dietary needs, whether it fits them, and the "safe for my child"
filter (fits the diet, none of the child's allergens)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.after_parts import item_list
from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.components.order_parts import meal_picture, muted
from hotmeals.ui.components.panels import column, items_or, loading_spinner
from hotmeals.ui.screens.book_meal.calendar import calendar, date_heading
from hotmeals.ui.screens.book_meal.state import BookingState
from hotmeals.ui.shared_state.i18n import t

# ---- the day's menu --------------------------------------------------------------------------


# A verdict on a meal for the child: its icon and its class.
ALLERGY_MARKS = (
    ("refused", "octagon-x", "is-refused"),
    ("acknowledge", "triangle-alert", "is-ack"),
    ("notice", "info", "is-notice"),
)


def allergy_note(icon: str, text: rx.Var, css: str, size: int = 16, **props: Any) -> rx.Component:
    """The child's allergy mark on a meal: its icon and what it means."""
    return rx.el.p(
        svg_icon(icon, size=size, aria_hidden="true"), text, class_name=f"hm-allergy {css}", **props
    )


def _allergy_badge(verdict: rx.Var, text: rx.Var) -> rx.Component:
    return rx.match(
        verdict,
        *[(value, allergy_note(icon, text, css)) for value, icon, css in ALLERGY_MARKS],
        rx.fragment(),
    )


def _meal_mark(tag: Any, icon: str, value: rx.Var, css: str) -> rx.Component:
    """A line of the meal's card after its icon, when ``value`` says something."""
    return rx.cond(
        value != "", tag(svg_icon(icon, size=14, aria_hidden="true"), value, class_name=css)
    )


def meal_card(meal: rx.Var) -> rx.Component:
    return rx.el.li(
        meal_picture(meal["image"], "hm-meal-img", "320", "200", loading="lazy"),
        rx.box(
            rx.heading(meal["name"], as_="h3", size="3"),
            muted(meal["vendor"], size="1"),
            _meal_mark(rx.el.span, "shopping-cart", meal["in_cart"], "hm-meal-in-cart"),
            _allergy_badge(meal["verdict"], meal["badge"]),
            # The child's diet: "Fits Emma's diet", or what the meal misses.
            _meal_mark(rx.el.p, "leaf", meal["diet_fits"], "hm-diet is-fits"),
            _meal_mark(rx.el.p, "info", meal["diet_miss"], "hm-diet is-miss"),
            rx.cond(
                meal["verdict"] == "refused",
                rx.text(
                    t("ui.book.cannot_add"), size="2", weight="medium", color=rx.color("red", 11)
                ),
            ),
            rx.el.p(meal["contains"], class_name="hm-meal-contains"),
            rx.cond(
                meal["extras"] != "",
                rx.el.p(meal["extras"], class_name="hm-meal-contains is-extras"),
            ),
            _meal_mark(rx.el.p, "clock", meal["cutoff"], "hm-meal-cutoff"),
            rx.flex(
                rx.text(meal["price_from"], weight="bold", size="3", class_name="hm-tabular"),
                rx.button(
                    t("ui.book.view"),
                    on_click=BookingState.open_meal(meal["meal_id"]),
                    variant=rx.cond(meal["verdict"] == "refused", "outline", "solid"),
                    color_scheme=rx.cond(meal["verdict"] == "refused", "gray", "tomato"),
                    size="2",
                    aria_label=meal["choose_label"],
                    id="meal-" + meal["meal_id"].to(str),
                ),
                justify="between",
                align="center",
                margin_top="auto",
                padding_top="8px",
            ),
            class_name="hm-meal-body",
        ),
        class_name=rx.cond(meal["verdict"] == "refused", "hm-meal-card is-refused", "hm-meal-card"),
    )


def safe_filter() -> rx.Component:
    """The "Safe for Emma" switch, labelled, and what it hides."""
    return rx.box(
        rx.el.label(
            rx.switch(
                checked=BookingState.safe_only,
                on_change=BookingState.set_safe_only,
                id="book-safe-only",
                color_scheme="grass",
                custom_attrs={"aria-describedby": "book-safe-hint"},
            ),
            rx.el.span(BookingState.safe_label, class_name="hm-safe-label"),
            html_for="book-safe-only",
            class_name="hm-safe-filter",
        ),
        rx.el.p(
            rx.cond(
                BookingState.hidden_note != "", BookingState.hidden_note, BookingState.safe_hint
            ),
            id="book-safe-hint",
            class_name="hm-hint",
            custom_attrs={"aria-live": "polite"},
        ),
        width="100%",
    )


def day_menu() -> rx.Component:
    return rx.box(
        rx.cond(
            BookingState.selected_date == "",
            muted(t("ui.book.pick_day"), size="2", id="book-pick-day"),
            column(
                date_heading(BookingState.selected_label, "5", "book-day-title"),
                rx.el.p(
                    # Two fixed icons, not one named by a Var: a Var name makes Lucide's
                    # DynamicIcon import its map of every icon (37 KiB) on the page.
                    rx.cond(
                        BookingState.selected_kind == "open",
                        svg_icon("clock", size=16, aria_hidden="true"),
                        svg_icon("calendar-x", size=16, aria_hidden="true"),
                    ),
                    BookingState.selected_note,
                    class_name="hm-day-note is-" + BookingState.selected_kind,
                    id="book-day-note",
                ),
                items_or(BookingState.meals, safe_filter()),
                rx.cond(
                    BookingState.loading_menu,
                    loading_spinner(padding="24px"),
                    items_or(
                        BookingState.meals,
                        item_list(
                            BookingState.shown_meals,
                            meal_card,
                            "book-meals",
                            class_name="hm-meal-grid",
                        ),
                        rx.cond(
                            BookingState.menu_error != "",
                            muted(BookingState.menu_error),
                        ),
                    ),
                ),
                spacing="3",
            ),
        ),
        width="100%",
        id="book-day",
    )


def book_grid(no_days: rx.Component) -> rx.Component:
    """Book meal's calendar beside the chosen day's menu (Book meal, add to an order), or
    ``no_days`` when there is no month to book in."""
    return items_or(
        BookingState.months,
        rx.el.div(
            rx.box(calendar(), class_name="hm-book-side"),
            day_menu(),
            class_name="hm-book-grid",
        ),
        no_days,
    )
