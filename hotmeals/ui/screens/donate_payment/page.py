"""/edit-profile/donate-payment: choose $5, $10, $20 or another amount and the school, pay in
Converge's Lightbox; the server confirms the payment before thanking the parent. Below, the
parent's donation history."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.form_parts import alert_text, section_card
from hotmeals.ui.components.forms import (
    named_radios,
    radio_card,
    select_field,
    server_form,
    status_notice,
    text_field,
)
from hotmeals.ui.components.order_parts import labelled_group, muted
from hotmeals.ui.components.panels import column, items_or
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.screens.donate_payment.state import OTHER, PRESETS, DonateState
from hotmeals.ui.shared_state.i18n import t

STATUS_KIND = {
    "success": "success",
    "confirming": "info",
    "pending": "info",
    "cancelled": "info",
    "declined": "error",
    "error": "error",
}


def _choice(value: str, label_key: str) -> rx.Component:
    text = rx.text(t(label_key), size="3", weight="medium")
    return radio_card(value, f"donate-amount-{value}", text, class_name="hm-choice")


def amount_choice() -> rx.Component:
    return labelled_group(
        t("donate.amount"),
        "donate-amount-label",
        named_radios(
            rx.flex(
                # The service's presets; each has its label in the catalog (donate.preset_N).
                *[_choice(amount, f"donate.preset_{amount}") for amount in PRESETS],
                _choice(OTHER, "donate.other"),
                spacing="3",
                wrap="wrap",
            ),
            "donate-amount-label",
            DonateState.choice,
            DonateState.set_choice,
            name="amount",
        ),
        rx.cond(
            DonateState.is_other,
            rx.box(
                text_field(
                    "donate-other",
                    "other_amount",
                    t("donate.other_label"),
                    DonateState.amount_error,
                    input_mode="decimal",
                    value=DonateState.other_amount,
                    on_change=DonateState.set_other_amount,
                    max_length=10,
                ),
                margin_top="12px",
            ),
            alert_text(DonateState.amount_error),
        ),
        width="100%",
    )


def donate_form() -> rx.Component:
    return section_card(
        server_form(
            amount_choice(),
            items_or(
                DonateState.schools,
                select_field(
                    "donate-school",
                    t("donate.school"),
                    DonateState.school_error,
                    DonateState.schools,
                    DonateState.school_id,
                    DonateState.set_school,
                    t("donate.choose_school"),
                ),
                muted(t("donate.no_school")),
            ),
            status_notice(
                DonateState.message, DonateState.status, STATUS_KIND, id_="donate-status"
            ),
            rx.button(
                rx.cond(DonateState.busy, rx.spinner(size="2"), rx.fragment()),
                rx.cond(DonateState.busy, t("donate.opening"), t("donate.submit")),
                type="submit",
                size="3",
                id="donate-submit",
                disabled=DonateState.busy | (DonateState.schools.length() == 0),
                custom_attrs={"aria-busy": rx.cond(DonateState.busy, "true", "false")},
            ),
            on_submit=DonateState.pay,
            spacing="5",
            align="start",
        ),
    )


def history_table() -> rx.Component:
    return column(
        rx.heading(t("donate.history"), as_="h2", size="5"),
        items_or(
            DonateState.history,
            rx.table.root(
                rx.table.header(
                    rx.table.row(
                        rx.table.column_header_cell(t("donate.col_date")),
                        rx.table.column_header_cell(t("donate.col_school")),
                        rx.table.column_header_cell(t("donate.col_amount")),
                        rx.table.column_header_cell(t("donate.col_card")),
                        rx.table.column_header_cell(t("receipt.view")),
                    )
                ),
                rx.table.body(
                    rx.foreach(
                        DonateState.history,
                        lambda row: rx.table.row(
                            rx.table.cell(row["date"]),
                            rx.table.cell(row["school"]),
                            rx.table.cell(row["amount"]),
                            rx.table.cell(row["card"]),
                            rx.table.cell(
                                rx.link(
                                    t("receipt.view"),
                                    href="/receipt?donation=" + row["id"],
                                    class_name="hm-donation-receipt",
                                )
                            ),
                        ),
                    )
                ),
                width="100%",
                variant="surface",
                id="donation-history",
            ),
            muted(t("no_data_found"), id="donation-history-empty"),
        ),
        spacing="3",
        overflow_x="auto",
    )


def donate_payment() -> rx.Component:
    return parent_screen(
        *screen_intro(t("donate.title"), t("donate.intro")),
        donate_form(),
        rx.link(
            t("donate.manage_cards"),
            href="/edit-profile/payment-methods",
            id="manage-cards",
        ),
        history_table(),
        spacing="5",
        show_cart=False,
    )
