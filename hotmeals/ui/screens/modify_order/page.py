"""/edit-profile/modify-order?id=N: the order's meals, each with 'Remove'
while before its cut-off, 'Add item' (the Book meal screen's child, calendar, menu and meal
dialog, adding to this order: /add-item), the meals added, the difference (new total, to pay
or to refund) and Confirm: a decrease is refunded at once, an increase paid with a saved card
or in Converge's Lightbox. /edit-profile/modify-meal-details?id=N is the same add-item step."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.after_parts import (
    LARGE_SOFT,
    RED_SOFT,
    SMALL_SOFT,
    back,
    icon_button,
    icon_link,
    item_list,
    loaded_or_missing,
    meal_summary,
    pay_button,
    progress,
    section_title,
)
from hotmeals.ui.components.card_choice import card_choice
from hotmeals.ui.components.form_parts import alert_text, muted
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.layout import MAX_WIDTH
from hotmeals.ui.components.order_parts import note_card
from hotmeals.ui.components.panels import amount_row, column, column_card, items_or, loading_spinner
from hotmeals.ui.components.screens import missing_notice, parent_screen
from hotmeals.ui.screens.book_meal.calendar import child_picker
from hotmeals.ui.screens.book_meal.day_menu import book_grid
from hotmeals.ui.screens.book_meal.meal_dialog import meal_dialog
from hotmeals.ui.screens.book_meal.state import BookingState
from hotmeals.ui.screens.modify_order.state import ModifyOrderState
from hotmeals.ui.shared_state.i18n import t

S = ModifyOrderState


def _undo_button(step_id: rx.Var, id_: rx.Var) -> rx.Component:
    return icon_button(
        "undo-2",
        t("ui.change.undo"),
        on_click=S.undo(step_id),
        disabled=S.busy,
        **SMALL_SOFT,
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


def _quantity_price(step: rx.Var) -> tuple[Any, ...]:
    return (t("ui.change.quantity"), " ", step["quantity"], " · ", step["price"])


def _line(line: rx.Var) -> rx.Component:
    removing = line["removing"] != ""
    return _change_card(
        meal_summary(
            line["name"],
            muted(line["child"], " · ", line["day"]),
            muted(*_quantity_price(line)),
            rx.cond(
                removing,
                rx.badge(t("ui.change.removing"), " ", line["removing"], color_scheme="red"),
            ),
            rx.cond(
                line["status"] == "cancelled",
                rx.badge(t("ui.change.cancelled"), color_scheme="gray"),
            ),
            rx.cond(
                line["status"] == "delivered",
                rx.badge(t("orders_after.line_delivered"), color_scheme="grass"),
            ),
        ),
        rx.cond(
            removing,
            _undo_button(line["undo"], "undo-line-" + line["id"]),
            rx.cond(
                line["can_remove"] != "",
                icon_button(
                    "trash-2",
                    t("ui.change.remove"),
                    on_click=S.remove(line["id"]),
                    disabled=S.busy,
                    **RED_SOFT,
                    size="2",
                    id="remove-line-" + line["id"],
                ),
                rx.cond(
                    (line["status"] != "cancelled") & (line["status"] != "delivered"),
                    muted(t("ui.change.locked"), size="1", max_width="140px"),
                ),
            ),
        ),
        custom_attrs={"data-line": line["id"]},
    )


def _added(step: rx.Var) -> rx.Component:
    return _change_card(
        meal_summary(
            step["name"],
            muted(step["day"], " · ", *_quantity_price(step)),
            rx.badge(t("ui.change.adding"), color_scheme="grass"),
            alert_text(step["problem"], size="2"),
        ),
        _undo_button(step["id"], "undo-added-" + step["id"]),
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
    return column(
        rx.heading(t("ui.change.title"), " ", S.number, as_="h1", size="7"),
        muted(t("ui.change.intro"), size=None),
        item_list(S.lines, _line, "change-lines"),
        items_or(
            S.added,
            rx.vstack(
                section_title("ui.change.added_title"),
                item_list(S.added, _added, "change-added"),
                width="100%",
            ),
        ),
        icon_link(
            "plus",
            t("ui.change.add_item"),
            href=S.add_link,
            id_="change-add-item",
            **LARGE_SOFT,
        ),
        rx.cond(S.has_changes, summary()),
        rx.cond(
            S.has_changes & (S.to_pay_cents > 0), card_choice(S, "change", "change-card-label")
        ),
        progress(S, "change-status"),
        rx.cond(
            S.has_changes,
            pay_button(
                S,
                t("ui.change.confirm"),
                "check",
                "change-confirm",
                disabled=S.busy | ~S.can_confirm,
            ),
        ),
        spacing="4",
    )


def modify_order() -> rx.Component:
    return parent_screen(
        back(S.order_link, "ui.change.back_order", "back-order"),
        loaded_or_missing(
            S.loaded,
            S.missing,
            missing_notice(t("ui.change.title"), S.missing, "change-missing"),
            modify_content(),
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
            muted(S.missing, size=None, id="change-missing"),
            rx.cond(
                BookingState.loaded,
                column(
                    child_picker(),
                    book_grid(note_card(t("ui.book.no_days"))),
                    spacing="4",
                ),
                loading_spinner(),
            ),
        ),
        meal_dialog(),
        on_language_change(BookingState.relang),
        max_width=MAX_WIDTH,
    )
