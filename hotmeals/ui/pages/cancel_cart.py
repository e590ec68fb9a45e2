"""/edit-profile/cancel-cart: the meals chosen for cancelling, by order,
with their quantities (one more, one less, remove), each order's refund and the total; a reason
(or Other with its text); Confirm behind 'Are you sure?' → 'Order Cancelled' with the refund
notice, the cart emptied and the header's count with it."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.cancel_reason import cancel_sure_dialog, reason_fields
from hotmeals.ui.components.forms import link_button, notice, once_attrs
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.line_card import line_heading, line_problem, qty_stepper, stepper_row
from hotmeals.ui.components.panels import CARD, loading_spinner, totals_box
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.state.cancel_cart import CancelCartState, CancelGroupView, CancelLineView
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.orders import HISTORY_ROUTE

GRAY_11 = rx.color("gray", 11)


def stepper(line: CancelLineView) -> rx.Component:
    return qty_stepper(
        CancelCartState,
        line.cart_id,
        line.quantity,
        "orders_ui",
        line.cancellable,
        more_closed=line.quantity >= line.max_quantity,
    )


def cancel_line(line: CancelLineView) -> rx.Component:
    return rx.el.li(
        rx.vstack(
            line_heading(line.meal, line.price, price_props={"size": "2", "color": GRAY_11}),
            rx.text(line.child, " · ", line.day, size="2", class_name="hm-line-day"),
            rx.text(line.size_label, size="2", weight="medium", class_name="hm-line-size"),
            rx.cond(
                ~line.cancellable,
                line_problem(t("orders_ui.blocked"), t("checkout.colon"), line.reason),
            ),
            stepper_row(
                stepper(line),
                "orders_ui",
                CancelCartState.remove(line.cart_id),
                disabled=CancelCartState.busy_line != "",
                custom_attrs=once_attrs(CancelCartState.turn),
            ),
            spacing="1",
            width="100%",
        ),
        class_name="hm-cancel-line",
        custom_attrs={"data-cart-id": line.cart_id},
        style={**CARD, "list_style": "none"},
    )


def cancel_group(group: CancelGroupView) -> rx.Component:
    return rx.el.section(
        rx.vstack(
            rx.flex(
                rx.heading(t("orders_ui.order"), " ", group.number, as_="h2", size="4"),
                width="100%",
            ),
            rx.el.ul(
                rx.foreach(group.lines, cancel_line),
                style={"display": "grid", "gap": "10px", "padding": "0", "margin": "0"},
                width="100%",
            ),
            rx.flex(
                rx.text(t("orders_ui.refund_for")),
                rx.text(group.refund, weight="bold", class_name="hm-group-refund"),
                justify="between",
                width="100%",
            ),
            spacing="2",
            width="100%",
        ),
        class_name="hm-cancel-group",
        custom_attrs={"data-order-id": group.order_id},
        style={"width": "100%"},
    )


def sure_dialog() -> rx.Component:
    return cancel_sure_dialog(
        CancelCartState,
        t("orders_ui.sure_cart"),
        on_confirm=CancelCartState.confirm,
        busy=CancelCartState.confirming,
        confirm_id="confirm-cancel-cart",
    )


def footer() -> rx.Component:
    return totals_box(
        rx.vstack(
            rx.flex(
                rx.text(t("orders_ui.total_refund"), weight="bold", size="3"),
                rx.text(
                    CancelCartState.total_refund, weight="bold", size="4", id="cancel-total-refund"
                ),
                justify="between",
                width="100%",
            ),
            reason_fields(CancelCartState),
            rx.button(
                rx.cond(CancelCartState.confirming, rx.spinner(size="2"), rx.fragment()),
                t("orders_ui.confirm_cancel"),
                on_click=CancelCartState.ask_confirm,
                disabled=CancelCartState.confirming,
                color_scheme="red",
                size="3",
                width="100%",
                id="cancel-cart-confirm",
            ),
            spacing="3",
            width="100%",
        ),
    )


def content() -> rx.Component:
    return rx.cond(
        CancelCartState.loaded,
        rx.cond(
            CancelCartState.is_empty,
            rx.vstack(
                rx.text(CancelCartState.empty_message, color=GRAY_11, id="cancel-cart-empty"),
                link_button(
                    t("orders_ui.go_history"),
                    href=HISTORY_ROUTE,
                    id_="cancel-cart-history",
                    size="3",
                    variant="soft",
                ),
                align="center",
                padding_y="24px",
                width="100%",
            ),
            rx.vstack(
                rx.vstack(
                    rx.foreach(CancelCartState.groups, cancel_group), spacing="5", width="100%"
                ),
                footer(),
                spacing="5",
                width="100%",
                id="cancel-cart-lines",
            ),
        ),
        loading_spinner(),
    )


def cancel_cart_page() -> rx.Component:
    return parent_screen(
        *screen_intro(t("orders_ui.cancel_cart_title"), t("orders_ui.cancel_cart_intro")),
        rx.cond(
            CancelCartState.done_message != "",
            rx.box(
                notice(
                    rx.fragment(
                        rx.el.strong(CancelCartState.done_title),
                        " ",
                        CancelCartState.done_message,
                    )
                ),
                id="cancel-cart-done",
                width="100%",
            ),
        ),
        content(),
        sure_dialog(),
        on_language_change(CancelCartState.relang),
    )
