"""Manage one meal. /edit-profile/manage-meal-details: the upcoming
meals (GetMealsList); with ?id=<order line>: that meal (MealOrderDetail) with 'Cancel this
meal' (a reason, then 'Are you sure?') and 'Move to another day' (the days of
GetDatesForModifyMeal). /manage-confirm-order?id=&date= (and /manage-confirm-cart, the same
step): confirm the move - two taps from the meal - with the difference paid (saved card or
Lightbox) or refunded."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.cancel_reason import cancel_sure_dialog, reason_fields
from hotmeals.ui.components.card_choice import card_choice
from hotmeals.ui.components.forms import busy_button, link_button
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.panels import column_card, loading_spinner
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.pages.modify_order import GRAY_11, back, progress
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.manage_meal import MANAGE_ROUTE, ManageMealState

S = ManageMealState


def _fact(key: str, value: rx.Var) -> rx.Component:
    return rx.cond(
        value != "",
        rx.flex(
            rx.text(t(key), size="2", color=GRAY_11, min_width="120px"),
            rx.text(value, size="2"),
            gap="8px",
            wrap="wrap",
        ),
    )


def _meal_item(meal: rx.Var) -> rx.Component:
    return rx.el.li(
        rx.link(
            rx.flex(
                rx.vstack(
                    rx.text(meal["day"], weight="bold", size="3"),
                    rx.text(meal["name"], " · ", meal["child"], size="2"),
                    rx.text(
                        t("ui.manage.order"),
                        " ",
                        meal["number"],
                        " · ",
                        meal["price"],
                        size="1",
                        color=GRAY_11,
                    ),
                    rx.cond(meal["moved"] != "", rx.badge(t("ui.manage.moved"))),
                    spacing="1",
                    align="start",
                ),
                rx.spacer(),
                rx.icon("chevron-right", size=18, aria_hidden="true"),
                align="center",
                gap="12px",
            ),
            href=meal["href"],
            underline="none",
            color="inherit",
            display="block",
            padding="12px 16px",
            id="meal-" + meal["id"],
        ),
        class_name="hm-card",
        list_style="none",
    )


def meal_list() -> rx.Component:
    return rx.vstack(
        *screen_intro(t("ui.manage.list_title"), t("ui.manage.list_intro")),
        rx.cond(
            S.meals.length() > 0,
            rx.el.ul(
                rx.foreach(S.meals, _meal_item),
                display="flex",
                flex_direction="column",
                gap="8px",
                padding="0",
                margin="0",
                width="100%",
                id="manage-meals",
            ),
            rx.text(t("ui.common.no_data"), id="manage-empty", color=GRAY_11),
        ),
        spacing="4",
        width="100%",
    )


def meal_card() -> rx.Component:
    m = S.meal
    return column_card(
        rx.heading(m["name"], as_="h2", size="5"),
        _fact("ui.manage.day", m["day"]),
        _fact("ui.manage.child", m["child"]),
        _fact("ui.manage.size", m["size"]),
        _fact("ui.manage.extras", m["extras"]),
        _fact("ui.manage.note", m["note"]),
        _fact("ui.change.quantity", m["quantity"]),
        _fact("ui.manage.price", m["price"]),
        _fact("ui.manage.order", m["number"]),
        rx.cond(m["moved"] != "", rx.badge(t("ui.manage.moved"))),
        rx.cond(
            m["cancelled"] != "",
            rx.badge(t("ui.manage.cancelled_badge"), color_scheme="gray", id="meal-cancelled"),
        ),
        id="manage-meal",
    )


def _date_link(day: rx.Var) -> rx.Component:
    return rx.el.li(
        rx.button(
            rx.link(
                rx.icon("calendar", size=16, aria_hidden="true"),
                day["day"],
                href=day["href"],
                id="move-to-" + day["date"],
            ),
            as_child=True,
            variant="outline",
            size="3",
            width="100%",
        ),
        list_style="none",
    )


def move_box() -> rx.Component:
    return rx.vstack(
        rx.heading(t("ui.manage.move_title"), as_="h2", size="4"),
        rx.cond(
            S.dates.length() > 0,
            rx.vstack(
                rx.text(t("ui.manage.move_intro"), size="2", color=GRAY_11),
                rx.el.ul(
                    rx.foreach(S.dates, _date_link),
                    display="grid",
                    grid_template_columns=rx.breakpoints(initial="1fr", sm="1fr 1fr"),
                    gap="8px",
                    padding="0",
                    margin="0",
                    width="100%",
                    id="move-dates",
                ),
                width="100%",
            ),
        ),
        rx.cond(S.dates_note != "", rx.text(S.dates_note, id="move-note", size="2")),
        spacing="2",
        width="100%",
    )


def cancel_box() -> rx.Component:
    return rx.vstack(
        rx.heading(t("ui.manage.cancel_title"), as_="h2", size="4"),
        reason_fields(S),
        rx.button(
            rx.icon("x", size=16, aria_hidden="true"),
            t("ui.manage.cancel"),
            on_click=S.ask_cancel,
            disabled=S.busy,
            color_scheme="red",
            variant="soft",
            size="3",
            id="manage-cancel",
        ),
        spacing="2",
        width="100%",
    )


def one_meal() -> rx.Component:
    return rx.vstack(
        rx.heading(t("ui.manage.title"), as_="h1", size="7"),
        progress(S, "manage-status"),
        rx.cond(
            S.meal.contains("id"),
            rx.vstack(
                meal_card(),
                rx.cond(
                    S.meal["can_change"] != "",
                    rx.vstack(move_box(), cancel_box(), spacing="6", width="100%"),
                    rx.text(S.dates_note, id="move-note", size="2"),
                ),
                spacing="4",
                width="100%",
            ),
        ),
        rx.cond(
            S.order_link != "",
            link_button(
                t("ui.manage.view_order"),
                href=S.order_link,
                id_="manage-view-order",
                variant="ghost",
                size="2",
            ),
        ),
        spacing="4",
        width="100%",
    )


def _body(content: rx.Component) -> rx.Component:
    return rx.cond(
        S.loaded,
        rx.cond(
            S.missing != "",
            rx.vstack(
                rx.heading(t("ui.manage.title"), as_="h1", size="7"),
                progress(S, "manage-status"),
                rx.text(S.missing, id="manage-missing", color=GRAY_11),
            ),
            content,
        ),
        loading_spinner(),
    )


def manage_meal() -> rx.Component:
    return parent_screen(
        rx.cond(S.view != "list", back(MANAGE_ROUTE, "ui.manage.back_list", "back-list")),
        _body(rx.cond(S.view == "list", meal_list(), one_meal())),
        cancel_sure_dialog(
            S,
            t("ui.manage.sure_text"),
            on_confirm=S.confirm_cancel,
            busy=S.busy,
            confirm_id="manage-sure-yes",
            confirm_label=t("ui.manage.sure_yes"),
        ),
        on_language_change(S.relang),
    )


def confirm_content() -> rx.Component:
    m = S.meal
    return rx.vstack(
        rx.heading(t("ui.manage.confirm_title"), as_="h1", size="7"),
        column_card(
            rx.heading(m["name"], as_="h2", size="5"),
            _fact("ui.manage.child", m["child"]),
            _fact("ui.manage.from", rx.cond(S.finished, "", m["day"])),
            _fact("ui.manage.to", rx.cond(S.finished, m["day"], S.target["day"])),
            _fact("ui.manage.price", m["price"]),
            rx.cond(
                ~S.finished,
                rx.box(_fact("ui.manage.difference", S.quote), id="move-quote"),
            ),
            id="move-summary",
        ),
        rx.cond(
            ~S.finished,
            rx.vstack(
                rx.text(t("ui.manage.difference_note"), size="2", color=GRAY_11),
                card_choice(S, "change", "change-card-label"),
                width="100%",
            ),
        ),
        progress(S, "move-status"),
        rx.cond(
            S.finished,
            link_button(
                t("ui.manage.view_order"),
                rx.icon("arrow-right", size=16, aria_hidden="true"),
                href=S.order_link,
                id_="move-view-order",
                size="3",
            ),
            busy_button(
                t("ui.manage.confirm_move"),
                icon=rx.icon("calendar-check", size=16),
                busy=S.busy,
                turn=S.turn,
                on_click=S.pay,
                size="3",
                width="100%",
                id="move-confirm",
            ),
        ),
        spacing="4",
        width="100%",
    )


def manage_confirm() -> rx.Component:
    return parent_screen(
        back(S.back_link, "ui.manage.back_meal", "back-meal"),
        _body(confirm_content()),
        on_language_change(S.relang),
        max_width="560px",
    )
