"""/payment: header and footer hidden (spec §2). The order summary pays
(its one Pay); this screen is the confirmation's address (``?order=HM-…``): the order
number, the order's meals and charges and a link to the order. A parent who lands here
directly gets the amount to pay, a saved card or Converge's Lightbox, a progress notice while
the payment is confirmed and a decline's reason with the cart intact."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import onward_link
from hotmeals.ui.components.card_choice import (
    CHECKOUT_STATUS_KIND,
    payment_progress,
)
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.layout import page
from hotmeals.ui.components.order_parts import figure
from hotmeals.ui.components.panels import amount_row, column, column_card, items_or, loading_spinner
from hotmeals.ui.components.screens import back_link, message_with_link, parent_only, top_bar
from hotmeals.ui.screens.cart.state import CREDIT_ROWS, SUMMARY_ROUTE
from hotmeals.ui.screens.order_history.state import HISTORY_ROUTE
from hotmeals.ui.screens.order_summary.page import (
    card_or_credit,
    charges_table,
    nothing_to_pay,
    pay_button,
    payment_note,
    summary_group,
)
from hotmeals.ui.screens.payment.state import CheckoutState
from hotmeals.ui.screens.receipt.page import order_receipt_link
from hotmeals.ui.shared_state.i18n import t

STATUS_KIND = CHECKOUT_STATUS_KIND


def pay_form() -> rx.Component:
    return column(
        column_card(
            amount_row(
                t("checkout.amount_due"),
                rx.text(CheckoutState.total, size="6", weight="bold", id="pay-total"),
                align="center",
            ),
            *[
                rx.cond(
                    CheckoutState.charges[name] != "",
                    amount_row(
                        CheckoutState.charges[f"{name}_label"],
                        rx.text(CheckoutState.charges[name], size="3", id=f"pay-{name}"),
                        label_size="2",
                    ),
                )
                for name in CREDIT_ROWS
            ],
            amount_row(
                t("checkout.meals_count"),
                rx.text(CheckoutState.meal_count.to_string(), size="2"),
                label_size="2",
            ),
            size="2",
        ),
        card_or_credit(CheckoutState.charges),
        payment_progress(CheckoutState, STATUS_KIND, "pay-status", "pay-progress"),
        pay_button(CheckoutState.charges, "pay-submit", width="100%"),
        rx.cond(CheckoutState.charges["pay_amount"] != "", payment_note()),
        spacing="4",
    )


def placed() -> rx.Component:
    return column(
        rx.card(
            rx.vstack(
                *figure(
                    t("checkout.order_number"),
                    CheckoutState.order_number,
                    value_id="order-number",
                    value_size="6",
                ),
                rx.text(t("checkout.mail_sent"), size="2"),
                spacing="1",
            ),
            size="2",
            width="100%",
        ),
        items_or(
            CheckoutState.confirmation,
            column_card(
                rx.foreach(CheckoutState.confirmation, summary_group),
                charges_table(CheckoutState.paid_charges, "order-charges", "checkout.total_paid"),
                size="2",
                id="order-confirmation",
            ),
        ),
        rx.flex(
            onward_link(
                t("checkout.view_order"),
                href=CheckoutState.order_link,
                id_="view-order",
                size="3",
            ),
            order_receipt_link(
                CheckoutState.order_number, "placed-receipt", size="3", variant="soft"
            ),
            gap="8px",
            wrap="wrap",
        ),
        spacing="4",
        id="order-placed",
    )


def not_found() -> rx.Component:
    """The address names no paid order of this parent's."""
    return message_with_link(
        CheckoutState.message, "pay-notfound", t("checkout.go_to_orders"), HISTORY_ROUTE
    )


def payment_content() -> rx.Component:
    return rx.cond(
        CheckoutState.is_placed,
        placed(),
        rx.cond(
            CheckoutState.status == "missing",
            not_found(),
            rx.cond(
                CheckoutState.loaded,
                rx.cond(
                    CheckoutState.total != "",
                    pay_form(),
                    nothing_to_pay("pay-empty"),
                ),
                loading_spinner(),
            ),
        ),
    )


def checkout_payment() -> rx.Component:
    return parent_only(
        page(
            top_bar(),
            rx.box(
                rx.cond(
                    CheckoutState.is_placed,
                    rx.fragment(),
                    back_link(SUMMARY_ROUTE, "checkout.back_to_summary"),
                ),
                rx.flex(
                    rx.cond(
                        CheckoutState.is_placed,
                        rx.icon(
                            "circle-check",
                            size=32,
                            color=rx.color("grass", 11),
                            aria_hidden="true",
                            flex_shrink="0",
                        ),
                    ),
                    rx.heading(
                        rx.cond(
                            CheckoutState.is_placed,
                            t("checkout.success_title"),
                            t("checkout.payment_title"),
                        ),
                        as_="h1",
                        size="7",
                    ),
                    align="center",
                    gap="10px",
                    margin_bottom="16px",
                ),
                payment_content(),
                on_language_change(CheckoutState.relang),
                max_width="560px",
                margin_x="auto",
                padding_x="16px",
                padding_top="8px",
                padding_bottom="48px",
                width="100%",
            ),
            chrome=False,
        )
    )
