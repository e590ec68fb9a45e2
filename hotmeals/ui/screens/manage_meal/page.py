"""Manage one meal. /edit-profile/manage-meal-details: the upcoming
meals (GetMealsList); with ?id=<order line>: that meal (MealOrderDetail) with 'Cancel this
meal' (a reason, then 'Are you sure?') and 'Move to another day' (the days of
GetDatesForModifyMeal). /manage-confirm-order?id=&date= (and /manage-confirm-cart, the same
step): confirm the move - two taps from the meal - with the difference paid (saved card or
Lightbox) or refunded."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import (
    ACTION_ROW,
    BARE_LIST,
    RED_SOFT,
    SMALL_GHOST,
    back,
    glyph,
    icon_button,
    item_list,
    loaded_or_missing,
    meal_summary,
    onward_link,
    pay_button,
    progress,
    section_title,
)
from hotmeals.ui.components.cancel_reason import cancel_section, cancel_sure_dialog
from hotmeals.ui.components.card_choice import card_choice
from hotmeals.ui.components.form_parts import muted
from hotmeals.ui.components.forms import link_button
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.panels import column, column_card, items_or
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.screens.manage_meal.state import MANAGE_ROUTE, ManageMealState
from hotmeals.ui.shared_state.i18n import t

S = ManageMealState


def _fact(key: str, value: rx.Var) -> rx.Component:
    return rx.cond(
        value != "",
        rx.flex(
            muted(t(key), min_width="120px"),
            rx.text(value, size="2"),
            **ACTION_ROW,
        ),
    )


def _meal_item(meal: rx.Var) -> rx.Component:
    return rx.el.li(
        rx.link(
            rx.flex(
                meal_summary(
                    meal["day"],
                    rx.text(meal["name"], " · ", meal["child"], size="2"),
                    muted(
                        t("ui.manage.order"), " ", meal["number"], " · ", meal["price"], size="1"
                    ),
                    rx.cond(meal["moved"] != "", rx.badge(t("ui.manage.moved"))),
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
    return column(
        *screen_intro(t("ui.manage.list_title"), t("ui.manage.list_intro")),
        items_or(
            S.meals,
            item_list(S.meals, _meal_item, "manage-meals"),
            muted(t("ui.common.no_data"), size=None, id="manage-empty"),
        ),
        spacing="4",
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
            rx.link(glyph("calendar"), day["day"], href=day["href"], id="move-to-" + day["date"]),
            as_child=True,
            variant="outline",
            size="3",
            width="100%",
        ),
        list_style="none",
    )


def move_box() -> rx.Component:
    return column(
        section_title("ui.manage.move_title"),
        items_or(
            S.dates,
            rx.vstack(
                muted(t("ui.manage.move_intro")),
                item_list(
                    S.dates,
                    _date_link,
                    "move-dates",
                    display="grid",
                    grid_template_columns=rx.breakpoints(initial="1fr", sm="1fr 1fr"),
                    gap="8px",
                    **BARE_LIST,
                ),
                width="100%",
            ),
        ),
        rx.cond(S.dates_note != "", rx.text(S.dates_note, id="move-note", size="2")),
        spacing="2",
    )


def cancel_box() -> rx.Component:
    return cancel_section(
        S,
        section_title("ui.manage.cancel_title"),
        button=icon_button(
            "x",
            t("ui.manage.cancel"),
            on_click=S.ask_cancel,
            disabled=S.busy,
            **RED_SOFT,
            size="3",
            id="manage-cancel",
        ),
        spacing="2",
    )


def _heading() -> tuple[rx.Component, rx.Component]:
    """The one meal's h1 and its payment status (a cancel's refund)."""
    return rx.heading(t("ui.manage.title"), as_="h1", size="7"), progress(S, "manage-status")


def one_meal() -> rx.Component:
    return column(
        *_heading(),
        rx.cond(
            S.meal.contains("id"),
            column(
                meal_card(),
                rx.cond(
                    S.meal["can_change"] != "",
                    column(move_box(), cancel_box(), spacing="6"),
                    rx.text(S.dates_note, id="move-note", size="2"),
                ),
                spacing="4",
            ),
        ),
        rx.cond(
            S.order_link != "",
            link_button(
                t("ui.manage.view_order"),
                href=S.order_link,
                id_="manage-view-order",
                **SMALL_GHOST,
            ),
        ),
        spacing="4",
    )


def _body(content: rx.Component) -> rx.Component:
    return loaded_or_missing(
        S.loaded,
        S.missing,
        rx.vstack(*_heading(), muted(S.missing, size=None, id="manage-missing")),
        content,
    )


def manage_meal() -> rx.Component:
    return parent_screen(
        rx.cond(S.view != "list", back(MANAGE_ROUTE, "ui.manage.back_list", "back-list")),
        _body(rx.cond(S.view == "list", meal_list(), one_meal())),
        cancel_sure_dialog(
            S,
            rx.fragment(t("ui.manage.sure_text"), " ", S.sure_refund),
            on_confirm=S.confirm_cancel,
            keep_key="ui.manage.sure_no",
            busy=S.busy,
            confirm_id="manage-sure-yes",
            confirm_label=t("ui.manage.sure_yes"),
        ),
        on_language_change(S.relang),
    )


def confirm_content() -> rx.Component:
    m = S.meal
    return column(
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
                muted(t("ui.manage.difference_note")),
                card_choice(S, "change", "change-card-label"),
                width="100%",
            ),
        ),
        progress(S, "move-status"),
        rx.cond(
            S.finished,
            onward_link(
                t("ui.manage.view_order"),
                href=S.order_link,
                id_="move-view-order",
                size="3",
            ),
            pay_button(S, t("ui.manage.confirm_move"), "calendar-check", "move-confirm"),
        ),
        spacing="4",
    )


def manage_confirm() -> rx.Component:
    return parent_screen(
        back(S.back_link, "ui.manage.back_meal", "back-meal"),
        _body(confirm_content()),
        on_language_change(S.relang),
        max_width="560px",
    )
