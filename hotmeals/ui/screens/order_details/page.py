"""/edit-profile/order-details?id=N: the order's lines (child, date,
meal, size, options, add-ons, note, quantity, price, state), its charges with the total refund
and each refund with its date; per line 'Add to cancel cart' (a quantity) while before its
cut-off; 'Cancel order' with a reason behind 'Are you sure?'; per booked meal 'Repeat every
<weekday>' (a standing order)."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import (
    ACTION_ROW,
    LINE_CARD,
    RED_LARGE,
    RED_SOFT,
    SMALL_SOFT,
    back,
    bold_total,
    dialog_close,
    done_notice,
    form_dialog,
    heading_badge,
    icon_button,
    icon_link,
    item_list,
    loaded_or_missing,
    section_title,
    spinner_button,
    spread_row,
)
from hotmeals.ui.components.cancel_reason import cancel_section, cancel_sure_dialog
from hotmeals.ui.components.dialogs import shown_by
from hotmeals.ui.components.form_parts import muted
from hotmeals.ui.components.forms import label, native_select, once_attrs
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.line_card import detail, line_heading
from hotmeals.ui.components.panels import CARD, GRID_LIST, column, items_or
from hotmeals.ui.components.screens import missing_notice, parent_screen
from hotmeals.ui.screens.book_meal.standing_repeat import repeat_line_button, repeat_line_dialog
from hotmeals.ui.screens.order_history.state import (
    HISTORY_ROUTE,
    ChargeRow,
    DetailLine,
    OrderDetailState,
    RefundRow,
)
from hotmeals.ui.screens.receipt.page import order_receipt_link
from hotmeals.ui.shared_state.i18n import t

S = OrderDetailState


def state_badge(line: DetailLine) -> rx.Component:
    return rx.badge(
        line.state_label,
        color_scheme=rx.match(line.state, ("cancelled", "red"), ("moved", "blue"), "grass"),
        class_name="hm-line-state",
        custom_attrs={"data-state": line.state},
    )


def order_line(line: DetailLine) -> rx.Component:
    return rx.el.li(
        column(
            line_heading(line.meal, line.price),
            rx.flex(
                state_badge(line),
                rx.text(line.child, size="2", weight="medium", class_name="hm-line-child"),
                muted(line.day, class_name="hm-line-day"),
                **ACTION_ROW,
                align="center",
            ),
            rx.text(line.size_label, size="2", weight="medium", class_name="hm-line-size"),
            detail("orders_ui.menu_option", line.menu_option, "hm-line-menu-option"),
            detail("orders_ui.meal_option", line.meal_option, "hm-line-meal-option"),
            detail("orders_ui.addons", line.addons, "hm-line-addons"),
            detail("orders_ui.note", line.note, "hm-line-note"),
            detail("orders_ui.moved_from", line.moved_from, "hm-line-moved"),
            rx.text(
                rx.el.span(
                    t("orders_ui.quantity"), t("checkout.colon"), class_name="hm-detail-label"
                ),
                rx.el.span(line.quantity.to_string(), class_name="hm-line-qty"),
                rx.cond(
                    line.cancelled > 0,
                    rx.el.span(
                        " (",
                        line.cancelled_text,
                        ")",
                        class_name="hm-line-cancelled",
                    ),
                ),
                size="2",
            ),
            rx.cond(
                line.can_cancel,
                rx.flex(
                    icon_button(
                        "calendar-x",
                        t("orders_ui.add_to_cancel_cart"),
                        on_click=S.ask_add(line.line_id),
                        **RED_SOFT,
                        size="2",
                        class_name="hm-add-cancel",
                    ),
                    # /edit-profile/manage-meal-details.
                    icon_link(
                        "calendar-cog",
                        t("orders_ui.manage_meal"),
                        href=line.manage_href,
                        **SMALL_SOFT,
                        class_name="hm-manage-meal",
                    ),
                    **ACTION_ROW,
                ),
                # A delivered meal says so in its badge: nothing more to close.
                rx.cond(
                    (line.state != "cancelled") & (line.state != "delivered"),
                    muted(t("orders_ui.closed"), size="1", class_name="hm-closed"),
                ),
            ),
            # A standing order from this booked meal (same child, meal and size).
            rx.cond(
                line.repeat_label != "",
                rx.box(repeat_line_button(line.line_id, line.repeat_label), padding_top="4px"),
            ),
            spacing="1",
        ),
        class_name="hm-order-line",
        custom_attrs={"data-line-id": line.line_id, "data-state": line.state},
        style=LINE_CARD,
    )


def charge_row(row: ChargeRow) -> rx.Component:
    return spread_row(
        rx.el.dt(row.label),
        rx.el.dd(row.amount, style={"margin": "0", "font_weight": "600"}),
        class_name="hm-charge hm-charge-" + row.name.to(str),
    )


def refund_row(row: RefundRow) -> rx.Component:
    return rx.el.li(
        rx.flex(
            rx.text(row.date, size="2"),
            rx.spacer(),
            muted(row.state_label, size="1"),
            rx.text(row.amount, weight="bold", size="2", class_name="hm-refund-amount"),
            gap="8px",
            align="center",
            width="100%",
        ),
        class_name="hm-refund",
        style={"list_style": "none"},
    )


def add_dialog() -> rx.Component:
    return form_dialog(
        t("orders_ui.add_title"),
        rx.dialog.description(t("orders_ui.add_text"), " ", rx.el.strong(S.add_name)),
        rx.box(
            label(t("orders_ui.add_quantity"), "add-cancel-qty"),
            native_select(
                "add-cancel-qty",
                rx.foreach(S.add_choices, lambda n: rx.el.option(n, value=n)),
                value=S.add_qty.to_string(),
                on_change=S.set_add_qty,
            ),
            class_name="hm-field",
            margin_y="12px",
        ),
        rx.flex(
            dialog_close(t("orders_ui.add_cancel"), disabled=S.adding),
            spinner_button(
                t("orders_ui.add_confirm"),
                busy=S.adding,
                on_click=S.confirm_add,
                id_="confirm-add-cancel",
                **RED_LARGE,
                custom_attrs=once_attrs(S.turn),
            ),
            gap="12px",
            justify="end",
            wrap="wrap",
        ),
        **shown_by(S, "add_open"),
    )


def cancel_order_box() -> rx.Component:
    return rx.el.section(
        cancel_section(
            S,
            section_title("orders_ui.cancel_order_title"),
            muted(t("orders_ui.cancel_order_intro")),
            button=icon_button(
                "ban",
                t("orders_ui.cancel_order"),
                on_click=S.ask_cancel_order,
                **RED_LARGE,
                id="cancel-order",
            ),
            spacing="3",
        ),
        id="cancel-order-box",
        style=CARD,
    )


def sure_dialog() -> rx.Component:
    return cancel_sure_dialog(
        S,
        rx.fragment(S.sure_text, " ", S.sure_refund),
        on_confirm=S.confirm_cancel_order,
        busy=S.cancelling,
        confirm_id="confirm-cancel-order",
    )


def details_content() -> rx.Component:
    return column(
        heading_badge(
            rx.heading(
                S.title,
                as_="h1",
                size=rx.breakpoints(initial="6", md="7"),
                id="order-title",
                style={"white_space": "nowrap"},
            ),
            rx.badge(S.status_label, size="2", id="order-status"),
        ),
        muted(t("orders_ui.ordered_on"), " ", S.ordered_on, size=None),
        done_notice(S.done_title, S.done_message, "order-cancelled"),
        # /edit-profile/modify-order, and the order's receipt.
        rx.flex(
            rx.cond(
                S.can_cancel,
                icon_link(
                    "pencil",
                    t("orders_ui.modify_order"),
                    href=S.modify_href,
                    id_="modify-order",
                    **SMALL_SOFT,
                ),
            ),
            order_receipt_link(S.number, "order-receipt", **SMALL_SOFT),
            **ACTION_ROW,
        ),
        item_list(S.lines, order_line, "order-lines", style=GRID_LIST),
        rx.el.section(
            section_title("orders_ui.charges", margin_bottom="8px"),
            rx.el.dl(
                rx.foreach(S.charges, charge_row),
                style={"display": "grid", "gap": "6px", "margin": "0"},
            ),
            id="order-charges",
            style=CARD,
        ),
        rx.el.section(
            section_title("orders_ui.refunds", margin_bottom="8px"),
            items_or(
                S.refunds,
                item_list(
                    S.refunds,
                    refund_row,
                    style={"display": "grid", "gap": "6px", "padding": "0", "margin": "0"},
                ),
                muted(t("orders_ui.no_refunds")),
            ),
            bold_total(
                "orders_ui.total_refund", S.total_refund, "order-total-refund", margin_top="8px"
            ),
            # Charges that did not pay for this order, with their void.
            rx.foreach(S.voided_notes, lambda note: muted(note, margin_top="6px")),
            id="order-refunds",
            style=CARD,
        ),
        rx.cond(S.can_cancel, cancel_order_box()),
        spacing="4",
    )


def order_details() -> rx.Component:
    return parent_screen(
        back(HISTORY_ROUTE, "orders_ui.back_history", "back-history"),
        loaded_or_missing(
            S.loaded,
            S.missing,
            missing_notice(t("title.order_details"), S.missing, "order-missing", width="100%"),
            details_content(),
        ),
        add_dialog(),
        sure_dialog(),
        repeat_line_dialog(),
        on_language_change(S.relang),
    )
