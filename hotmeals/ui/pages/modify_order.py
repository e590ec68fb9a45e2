"""/edit-profile/modify-order?id=N: the order's meals, each with 'Remove'
while before its cut-off, 'Add item' (the Book meal screen's child, calendar, menu and meal
dialog, adding to this order: /add-item), the meals added, the difference (new total, to pay
or to refund) and Confirm: a decrease is refunded at once, an increase paid with a saved card
or in Converge's Lightbox. /edit-profile/modify-meal-details?id=N is the same add-item step."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.card_choice import card_choice, payment_progress
from hotmeals.ui.components.forms import busy_button, link_button
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.layout import MAX_WIDTH
from hotmeals.ui.components.panels import amount_row, column_card, loading_spinner
from hotmeals.ui.components.screens import missing_notice, parent_screen
from hotmeals.ui.pages.booking_calendar import calendar, child_picker
from hotmeals.ui.pages.booking_day_menu import day_menu
from hotmeals.ui.pages.booking_meal_dialog import meal_dialog
from hotmeals.ui.state.booking import BookingState
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.modify_order import ModifyOrderState

GRAY_11 = rx.color("gray", 11)
STATUS_KIND = {
    "done": "success",
    "cancelled": "success",
    "paying": "info",
    "confirming": "info",
    "pending": "info",
    "declined": "error",
    "dropped": "error",
    "error": "error",
}
S = ModifyOrderState


def back(href, key: str, id_: str) -> rx.Component:
    return rx.box(
        link_button(
            rx.icon("arrow-left", size=16, aria_hidden="true"),
            t(key),
            href=href,
            id_=id_,
            variant="ghost",
            size="2",
        )
    )


def progress(state, id_: str) -> rx.Component:
    return payment_progress(state, STATUS_KIND, id_)


def _undo_button(step_id: rx.Var, id_: rx.Var) -> rx.Component:
    return rx.button(
        rx.icon("undo-2", size=16, aria_hidden="true"),
        t("ui.change.undo"),
        on_click=S.undo(step_id),
        disabled=S.busy,
        variant="soft",
        size="2",
        id=id_,
    )


def _change_card(details: rx.Component, action: rx.Component, **props: Any) -> rx.Component:
    """One row of the change: what it is on the left, its button on the right (under it on a
    narrow screen)."""
    return rx.el.li(
        rx.flex(details, rx.spacer(), action, gap="12px", align="center", wrap="wrap"),
        class_name="hm-card",
        padding="12px 16px",
        list_style="none",
        **props,
    )


def _line(line: rx.Var) -> rx.Component:
    removing = line["removing"] != ""
    return _change_card(
        rx.vstack(
            rx.text(line["name"], weight="bold", size="3"),
            rx.text(line["child"], " · ", line["day"], size="2", color=GRAY_11),
            rx.text(
                t("ui.change.quantity"),
                " ",
                line["quantity"],
                " · ",
                line["price"],
                size="2",
                color=GRAY_11,
            ),
            rx.cond(
                removing,
                rx.badge(t("ui.change.removing"), " ", line["removing"], color_scheme="red"),
            ),
            rx.cond(
                line["status"] == "cancelled",
                rx.badge(t("ui.change.cancelled"), color_scheme="gray"),
            ),
            spacing="1",
            align="start",
        ),
        rx.cond(
            removing,
            _undo_button(line["undo"], "undo-line-" + line["id"]),
            rx.cond(
                line["can_remove"] != "",
                rx.button(
                    rx.icon("trash-2", size=16, aria_hidden="true"),
                    t("ui.change.remove"),
                    on_click=S.remove(line["id"]),
                    disabled=S.busy,
                    variant="soft",
                    color_scheme="red",
                    size="2",
                    id="remove-line-" + line["id"],
                ),
                rx.cond(
                    line["status"] != "cancelled",
                    rx.text(t("ui.change.locked"), size="1", color=GRAY_11, max_width="140px"),
                ),
            ),
        ),
        custom_attrs={"data-line": line["id"]},
    )


def _added(step: rx.Var) -> rx.Component:
    return _change_card(
        rx.vstack(
            rx.text(step["name"], weight="bold", size="3"),
            rx.text(
                step["day"],
                " · ",
                t("ui.change.quantity"),
                " ",
                step["quantity"],
                " · ",
                step["price"],
                size="2",
                color=GRAY_11,
            ),
            rx.badge(t("ui.change.adding"), color_scheme="grass"),
            rx.cond(
                step["problem"] != "",
                rx.text(step["problem"], color=rx.color("red", 11), size="2", role="alert"),
            ),
            spacing="1",
            align="start",
        ),
        _undo_button(step["id"], "undo-added-" + step["id"]),
    )


def _step_list(items: rx.Var, render: Any, id_: str) -> rx.Component:
    return rx.el.ul(
        rx.foreach(items, render),
        display="flex",
        flex_direction="column",
        gap="8px",
        padding="0",
        margin="0",
        width="100%",
        id=id_,
    )


def summary() -> rx.Component:
    return column_card(
        amount_row(
            t("ui.change.new_total"),
            rx.text(S.new_total, size="5", weight="bold", id="change-new-total"),
            align="center",
        ),
        rx.text(S.difference, size="3", weight="medium", id="change-difference"),
        rx.foreach(
            S.credit_lines,
            lambda x: amount_row(
                x["label"],
                rx.text(x["amount"], size="3", class_name="hm-change-" + x["name"]),
                label_size="2",
            ),
        ),
        id="change-summary",
    )


def modify_content() -> rx.Component:
    return rx.vstack(
        rx.heading(t("ui.change.title"), " ", S.number, as_="h1", size="7"),
        rx.text(t("ui.change.intro"), color=GRAY_11),
        _step_list(S.lines, _line, "change-lines"),
        rx.cond(
            S.added.length() > 0,
            rx.vstack(
                rx.heading(t("ui.change.added_title"), as_="h2", size="4"),
                _step_list(S.added, _added, "change-added"),
                width="100%",
            ),
        ),
        link_button(
            rx.icon("plus", size=16, aria_hidden="true"),
            t("ui.change.add_item"),
            href=S.add_link,
            id_="change-add-item",
            variant="soft",
            size="3",
        ),
        rx.cond(S.has_changes, summary()),
        rx.cond(
            S.has_changes & (S.to_pay_cents > 0), card_choice(S, "change", "change-card-label")
        ),
        progress(S, "change-status"),
        rx.cond(
            S.has_changes,
            busy_button(
                t("ui.change.confirm"),
                icon=rx.icon("check", size=16),
                busy=S.busy,
                turn=S.turn,
                on_click=S.pay,
                disabled=S.busy | ~S.can_confirm,
                size="3",
                width="100%",
                id="change-confirm",
            ),
        ),
        spacing="4",
        width="100%",
    )


def modify_order() -> rx.Component:
    return parent_screen(
        back(S.order_link, "ui.change.back_order", "back-order"),
        rx.cond(
            S.loaded,
            rx.cond(
                S.missing != "",
                missing_notice(t("ui.change.title"), S.missing, "change-missing"),
                modify_content(),
            ),
            loading_spinner(),
        ),
        on_language_change(S.relang),
    )


def add_item() -> rx.Component:
    """The Book meal pieces (child, calendar, day menu, meal dialog) adding to the order."""
    return parent_screen(
        back(S.order_link, "ui.change.back_modify", "back-modify"),
        rx.heading(t("ui.change.add_title"), " ", S.number, as_="h1", size="7"),
        rx.cond(
            S.missing != "",
            rx.text(S.missing, id="change-missing", color=GRAY_11),
            rx.cond(
                BookingState.loaded,
                rx.vstack(
                    child_picker(),
                    rx.cond(
                        BookingState.months.length() > 0,
                        rx.el.div(
                            rx.box(calendar(), class_name="hm-book-side"),
                            day_menu(),
                            class_name="hm-book-grid",
                        ),
                        rx.card(rx.text(t("ui.book.no_days")), width="100%"),
                    ),
                    spacing="4",
                    width="100%",
                ),
                loading_spinner(),
            ),
        ),
        meal_dialog(),
        on_language_change(BookingState.relang),
        max_width=MAX_WIDTH,
    )
