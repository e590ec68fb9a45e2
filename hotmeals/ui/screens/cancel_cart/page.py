"""/edit-profile/cancel-cart: the meals chosen for cancelling, by order,
with their quantities (one more, one less, remove), each order's refund and the total; a reason
(or Other with its text); Confirm behind 'Are you sure?' → 'Order Cancelled' with the refund
notice, the cart emptied and the header's count with it."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import (
    LARGE_SOFT,
    LINE_CARD,
    RED_LARGE,
    done_notice,
    item_list,
    spinner_button,
    spread_row,
)
from hotmeals.ui.components.cancel_reason import cancel_section, cancel_sure_dialog
from hotmeals.ui.components.form_parts import GRAY_11, muted
from hotmeals.ui.components.forms import link_button, once_attrs
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.line_card import line_heading, line_problem, qty_stepper, stepper_row
from hotmeals.ui.components.panels import column, loading_spinner, totals_box
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.screens.cancel_cart.state import CancelCartState, CancelGroupView, CancelLineView
from hotmeals.ui.screens.order_history.state import HISTORY_ROUTE
from hotmeals.ui.shared_state.i18n import t

S = CancelCartState


def stepper(line: CancelLineView) -> rx.Component:
    return qty_stepper(
        S,
        line.cart_id,
        line.quantity,
        "orders_ui",
        line.cancellable,
        more_closed=line.quantity >= line.max_quantity,
    )


def cancel_line(line: CancelLineView) -> rx.Component:
    return rx.el.li(
        column(
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
                S.remove(line.cart_id),
                disabled=S.busy_line != "",
                custom_attrs=once_attrs(S.turn),
            ),
            spacing="1",
        ),
        class_name="hm-cancel-line",
        custom_attrs={"data-cart-id": line.cart_id},
        style=LINE_CARD,
    )


def cancel_group(group: CancelGroupView) -> rx.Component:
    return rx.el.section(
        column(
            rx.flex(
                rx.heading(t("orders_ui.order"), " ", group.number, as_="h2", size="4"),
                width="100%",
            ),
            item_list(
                group.lines,
                cancel_line,
                style={"display": "grid", "gap": "10px", "padding": "0", "margin": "0"},
                width="100%",
            ),
            spread_row(
                rx.text(t("orders_ui.refund_for")),
                rx.text(group.refund, weight="bold", class_name="hm-group-refund"),
            ),
            spacing="2",
        ),
        class_name="hm-cancel-group",
        custom_attrs={"data-order-id": group.order_id},
        style={"width": "100%"},
    )


def sure_dialog() -> rx.Component:
    return cancel_sure_dialog(
        S,
        t("orders_ui.sure_cart"),
        on_confirm=S.confirm,
        keep_key="orders_ui.sure_no_meals",
        busy=S.confirming,
        confirm_id="confirm-cancel-cart",
    )


def footer() -> rx.Component:
    return totals_box(
        cancel_section(
            S,
            spread_row(
                rx.text(t("orders_ui.total_refund"), weight="bold", size="3"),
                rx.text(S.total_refund, weight="bold", size="4", id="cancel-total-refund"),
            ),
            button=spinner_button(
                t("orders_ui.confirm_cancel"),
                busy=S.confirming,
                on_click=S.ask_confirm,
                id_="cancel-cart-confirm",
                **RED_LARGE,
                width="100%",
            ),
            spacing="3",
        ),
    )


def content() -> rx.Component:
    return rx.cond(
        S.loaded,
        rx.cond(
            S.is_empty,
            rx.vstack(
                muted(S.empty_message, size=None, id="cancel-cart-empty"),
                link_button(
                    t("orders_ui.go_history"),
                    href=HISTORY_ROUTE,
                    id_="cancel-cart-history",
                    **LARGE_SOFT,
                ),
                align="center",
                padding_y="24px",
                width="100%",
            ),
            column(
                column(rx.foreach(S.groups, cancel_group), spacing="5"),
                footer(),
                spacing="5",
                id="cancel-cart-lines",
            ),
        ),
        loading_spinner(),
    )


def cancel_cart_page() -> rx.Component:
    return parent_screen(
        *screen_intro(t("orders_ui.cancel_cart_title"), t("orders_ui.cancel_cart_intro")),
        done_notice(S.done_title, S.done_message, "cancel-cart-done"),
        content(),
        sure_dialog(),
        on_language_change(S.relang),
    )
