"""/edit-profile/order-details?id=N: the order's lines (child, date,
meal, size, options, add-ons, note, quantity, price, state), its charges with the total refund
and each refund with its date; per line 'Add to cancel cart' (a quantity) while before its
cut-off; 'Cancel order' with a reason behind 'Are you sure?'; per booked meal 'Repeat every
<weekday>' (a standing order)."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.cancel_reason import cancel_sure_dialog, reason_fields
from hotmeals.ui.components.forms import label, link_button, notice, once_attrs
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.line_card import detail, line_heading
from hotmeals.ui.components.panels import CARD, GRID_LIST, loading_spinner
from hotmeals.ui.components.screens import missing_notice, parent_screen
from hotmeals.ui.pages.receipt import order_receipt_link
from hotmeals.ui.pages.standing_repeat import repeat_line_button, repeat_line_dialog
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.orders import (
    HISTORY_ROUTE,
    ChargeRow,
    DetailLine,
    OrderDetailState,
    RefundRow,
)

GRAY_11 = rx.color("gray", 11)


def state_badge(line: DetailLine) -> rx.Component:
    return rx.badge(
        line.state_label,
        color_scheme=rx.match(line.state, ("cancelled", "red"), ("moved", "blue"), "grass"),
        class_name="hm-line-state",
        custom_attrs={"data-state": line.state},
    )


def order_line(line: DetailLine) -> rx.Component:
    return rx.el.li(
        rx.vstack(
            line_heading(line.meal, line.price),
            rx.flex(
                state_badge(line),
                rx.text(line.child, size="2", weight="medium", class_name="hm-line-child"),
                rx.text(line.day, size="2", color=GRAY_11, class_name="hm-line-day"),
                gap="8px",
                wrap="wrap",
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
                        line.cancelled.to_string(),
                        " ",
                        t("orders_ui.cancelled_of"),
                        ")",
                        class_name="hm-line-cancelled",
                    ),
                ),
                size="2",
            ),
            rx.cond(
                line.can_cancel,
                rx.flex(
                    rx.button(
                        rx.icon("calendar-x", size=16, aria_hidden="true"),
                        t("orders_ui.add_to_cancel_cart"),
                        on_click=OrderDetailState.ask_add(line.line_id),
                        variant="soft",
                        color_scheme="red",
                        size="2",
                        class_name="hm-add-cancel",
                    ),
                    # /edit-profile/manage-meal-details.
                    link_button(
                        rx.icon("calendar-cog", size=16, aria_hidden="true"),
                        t("orders_ui.manage_meal"),
                        href=line.manage_href,
                        variant="soft",
                        size="2",
                        class_name="hm-manage-meal",
                    ),
                    gap="8px",
                    wrap="wrap",
                ),
                rx.cond(
                    line.state != "cancelled",
                    rx.text(t("orders_ui.closed"), size="1", color=GRAY_11, class_name="hm-closed"),
                ),
            ),
            # A standing order from this booked meal (same child, meal and size).
            rx.cond(
                line.repeat_label != "",
                rx.box(repeat_line_button(line.line_id, line.repeat_label), padding_top="4px"),
            ),
            spacing="1",
            width="100%",
        ),
        class_name="hm-order-line",
        custom_attrs={"data-line-id": line.line_id, "data-state": line.state},
        style={**CARD, "list_style": "none"},
    )


def charge_row(row: ChargeRow) -> rx.Component:
    return rx.flex(
        rx.el.dt(row.label),
        rx.el.dd(row.amount, style={"margin": "0", "font_weight": "600"}),
        justify="between",
        width="100%",
        class_name="hm-charge hm-charge-" + row.name.to(str),
    )


def refund_row(row: RefundRow) -> rx.Component:
    return rx.el.li(
        rx.flex(
            rx.text(row.date, size="2"),
            rx.spacer(),
            rx.text(row.state_label, size="1", color=GRAY_11),
            rx.text(row.amount, weight="bold", size="2", class_name="hm-refund-amount"),
            gap="8px",
            align="center",
            width="100%",
        ),
        class_name="hm-refund",
        style={"list_style": "none"},
    )


def add_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(t("orders_ui.add_title")),
            rx.dialog.description(
                t("orders_ui.add_text"), " ", rx.el.strong(OrderDetailState.add_name)
            ),
            rx.box(
                label(t("orders_ui.add_quantity"), "add-cancel-qty"),
                rx.el.select(
                    rx.foreach(OrderDetailState.add_choices, lambda n: rx.el.option(n, value=n)),
                    id="add-cancel-qty",
                    value=OrderDetailState.add_qty.to_string(),
                    on_change=OrderDetailState.set_add_qty,
                    class_name="hm-select",
                ),
                class_name="hm-field",
                margin_y="12px",
            ),
            rx.flex(
                rx.dialog.close(
                    rx.button(
                        t("orders_ui.add_cancel"),
                        variant="soft",
                        color_scheme="gray",
                        size="3",
                        disabled=OrderDetailState.adding,
                    )
                ),
                rx.button(
                    rx.cond(OrderDetailState.adding, rx.spinner(size="2"), rx.fragment()),
                    t("orders_ui.add_confirm"),
                    on_click=OrderDetailState.confirm_add,
                    disabled=OrderDetailState.adding,
                    color_scheme="red",
                    size="3",
                    id="confirm-add-cancel",
                    custom_attrs=once_attrs(OrderDetailState.turn),
                ),
                gap="12px",
                justify="end",
                wrap="wrap",
            ),
            max_width="440px",
        ),
        open=OrderDetailState.add_open,
        on_open_change=OrderDetailState.set_add_open,
    )


def cancel_order_box() -> rx.Component:
    return rx.el.section(
        rx.vstack(
            rx.heading(t("orders_ui.cancel_order_title"), as_="h2", size="4"),
            rx.text(t("orders_ui.cancel_order_intro"), size="2", color=GRAY_11),
            reason_fields(OrderDetailState),
            rx.button(
                rx.icon("ban", size=16, aria_hidden="true"),
                t("orders_ui.cancel_order"),
                on_click=OrderDetailState.ask_cancel_order,
                color_scheme="red",
                size="3",
                id="cancel-order",
            ),
            spacing="3",
            width="100%",
        ),
        id="cancel-order-box",
        style=CARD,
    )


def sure_dialog() -> rx.Component:
    return cancel_sure_dialog(
        OrderDetailState,
        OrderDetailState.sure_text,
        on_confirm=OrderDetailState.confirm_cancel_order,
        busy=OrderDetailState.cancelling,
        confirm_id="confirm-cancel-order",
    )


def details_content() -> rx.Component:
    return rx.vstack(
        rx.flex(
            rx.heading(
                OrderDetailState.title,
                as_="h1",
                size=rx.breakpoints(initial="6", md="7"),
                id="order-title",
                style={"white_space": "nowrap"},
            ),
            rx.spacer(),
            rx.badge(OrderDetailState.status_label, size="2", id="order-status"),
            width="100%",
            align="center",
            gap="8px",
            wrap="wrap",
        ),
        rx.text(t("orders_ui.ordered_on"), " ", OrderDetailState.ordered_on, color=GRAY_11),
        rx.cond(
            OrderDetailState.done_message != "",
            rx.box(
                notice(
                    rx.fragment(
                        rx.el.strong(OrderDetailState.done_title),
                        " ",
                        OrderDetailState.done_message,
                    )
                ),
                id="order-cancelled",
                width="100%",
            ),
        ),
        # /edit-profile/modify-order, and the order's receipt.
        rx.flex(
            rx.cond(
                OrderDetailState.can_cancel,
                link_button(
                    rx.icon("pencil", size=16, aria_hidden="true"),
                    t("orders_ui.modify_order"),
                    href=OrderDetailState.modify_href,
                    id_="modify-order",
                    variant="soft",
                    size="2",
                ),
            ),
            order_receipt_link(OrderDetailState.number, "order-receipt", variant="soft", size="2"),
            gap="8px",
            wrap="wrap",
        ),
        rx.el.ul(
            rx.foreach(OrderDetailState.lines, order_line),
            id="order-lines",
            style=GRID_LIST,
        ),
        rx.el.section(
            rx.heading(t("orders_ui.charges"), as_="h2", size="4", margin_bottom="8px"),
            rx.el.dl(
                rx.foreach(OrderDetailState.charges, charge_row),
                style={"display": "grid", "gap": "6px", "margin": "0"},
            ),
            id="order-charges",
            style=CARD,
        ),
        rx.el.section(
            rx.heading(t("orders_ui.refunds"), as_="h2", size="4", margin_bottom="8px"),
            rx.cond(
                OrderDetailState.refunds.length() > 0,
                rx.el.ul(
                    rx.foreach(OrderDetailState.refunds, refund_row),
                    style={"display": "grid", "gap": "6px", "padding": "0", "margin": "0"},
                ),
                rx.text(t("orders_ui.no_refunds"), size="2", color=GRAY_11),
            ),
            rx.flex(
                rx.text(t("orders_ui.total_refund"), weight="bold"),
                rx.text(OrderDetailState.total_refund, weight="bold", id="order-total-refund"),
                justify="between",
                width="100%",
                margin_top="8px",
            ),
            # Charges that did not pay for this order, with their void.
            rx.foreach(
                OrderDetailState.voided_notes,
                lambda note: rx.text(note, size="2", color=GRAY_11, margin_top="6px"),
            ),
            id="order-refunds",
            style=CARD,
        ),
        rx.cond(OrderDetailState.can_cancel, cancel_order_box()),
        spacing="4",
        width="100%",
    )


def order_details() -> rx.Component:
    return parent_screen(
        rx.box(
            link_button(
                rx.icon("arrow-left", size=16, aria_hidden="true"),
                t("orders_ui.back_history"),
                href=HISTORY_ROUTE,
                id_="back-history",
                variant="ghost",
                size="2",
            ),
        ),
        rx.cond(
            OrderDetailState.loaded,
            rx.cond(
                OrderDetailState.missing != "",
                missing_notice(
                    t("title.order_details"),
                    OrderDetailState.missing,
                    "order-missing",
                    width="100%",
                ),
                details_content(),
            ),
            loading_spinner(),
        ),
        add_dialog(),
        sure_dialog(),
        repeat_line_dialog(),
        on_language_change(OrderDetailState.relang),
    )
