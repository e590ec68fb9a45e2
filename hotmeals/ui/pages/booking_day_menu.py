"""The Book meal screen's menu of the chosen day: a card a meal with the child's allergy
mark, and the "safe for my child" filter."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.state.booking import BookingState
from hotmeals.ui.state.i18n import t

GRAY_11 = rx.color("gray", 11)


# ---- the day's menu --------------------------------------------------------------------------


def _allergy_badge(verdict: rx.Var, text: rx.Var) -> rx.Component:
    return rx.match(
        verdict,
        (
            "refused",
            rx.el.p(
                svg_icon("octagon-x", size=16, aria_hidden="true"),
                text,
                class_name="hm-allergy is-refused",
            ),
        ),
        (
            "acknowledge",
            rx.el.p(
                svg_icon("triangle-alert", size=16, aria_hidden="true"),
                text,
                class_name="hm-allergy is-ack",
            ),
        ),
        (
            "notice",
            rx.el.p(
                svg_icon("info", size=16, aria_hidden="true"),
                text,
                class_name="hm-allergy is-notice",
            ),
        ),
        rx.fragment(),
    )


def meal_card(meal: rx.Var) -> rx.Component:
    return rx.el.li(
        rx.image(
            src=meal["image"],
            alt="",
            class_name="hm-meal-img",
            loading="lazy",
            width="320",
            height="200",
        ),
        rx.box(
            rx.heading(meal["name"], as_="h3", size="3"),
            rx.text(meal["vendor"], size="1", color=GRAY_11),
            rx.cond(
                meal["in_cart"] != "",
                rx.el.span(
                    svg_icon("shopping-cart", size=14, aria_hidden="true"),
                    meal["in_cart"],
                    class_name="hm-meal-in-cart",
                ),
            ),
            _allergy_badge(meal["verdict"], meal["badge"]),
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
            rx.cond(
                meal["cutoff"] != "",
                rx.el.p(
                    svg_icon("clock", size=14, aria_hidden="true"),
                    meal["cutoff"],
                    class_name="hm-meal-cutoff",
                ),
            ),
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
            rx.text(t("ui.book.pick_day"), size="2", color=GRAY_11, id="book-pick-day"),
            rx.vstack(
                rx.heading(
                    BookingState.selected_label,
                    as_="h2",
                    size="5",
                    id="book-day-title",
                    class_name="hm-capitalize",
                ),
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
                rx.cond(BookingState.meals.length() > 0, safe_filter()),
                rx.cond(
                    BookingState.loading_menu,
                    rx.center(rx.spinner(size="3"), padding="24px", width="100%"),
                    rx.cond(
                        BookingState.meals.length() > 0,
                        rx.el.ul(
                            rx.foreach(BookingState.shown_meals, meal_card),
                            class_name="hm-meal-grid",
                            id="book-meals",
                        ),
                        rx.cond(
                            BookingState.menu_error != "",
                            rx.text(BookingState.menu_error, color=GRAY_11),
                        ),
                    ),
                ),
                spacing="3",
                width="100%",
            ),
        ),
        width="100%",
        id="book-day",
    )
