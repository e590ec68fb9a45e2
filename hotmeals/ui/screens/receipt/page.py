"""/receipt?order=HM-000123 (&change=N), /receipt?donation=N: a receipt made
to be printed: the seller and its HST number, the receipt's number and date, whom it is for,
the lines by child and date with each price as sold, the charges, the payment, the refunds and
the give-back; "Print" (the browser's, with a print style that leaves only the receipt) and
"Download PDF". Its route: ``hotmeals/ui/routes.py``."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.after_parts import (
    ACTION_ROW,
    SMALL_SOFT,
    icon_button,
    icon_link,
    loaded_or_missing,
    section_title,
    way_back,
)
from hotmeals.ui.components.form_parts import muted, section_card
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.panels import column, items_or, loading_spinner
from hotmeals.ui.components.screens import missing_notice, parent_screen
from hotmeals.ui.screens.receipt.state import (
    MoneyRow,
    ReceiptRow,
    ReceiptState,
)
from hotmeals.ui.shared_state.i18n import t

# Printing leaves only the receipt: no header, footer, banner, buttons or toasts; black on white.
PRINT_CSS = """
@media print {
  body * { visibility: hidden !important; }
  #receipt, #receipt * { visibility: visible !important; }
  #receipt { position: absolute; left: 0; top: 0; width: 100%; box-shadow: none !important;
             border: none !important; color: #000 !important; background: #fff !important; }
  .hm-no-print { display: none !important; }
  @page { margin: 14mm; }
}
.hm-receipt-row { display: flex; justify-content: space-between; gap: 12px; width: 100%;
                  align-items: baseline; }
.hm-receipt-row > :last-child { white-space: nowrap; font-variant-numeric: tabular-nums; }
.hm-receipt-fact { display: grid; grid-template-columns: auto 1fr; gap: 2px 16px; width: 100%;
                   align-items: baseline; }
.hm-receipt-fact > :last-child { text-align: right; overflow-wrap: anywhere; }
"""


def order_receipt_link(order_number: Any, id_: str, **props: Any) -> rx.Component:
    """ "View receipt" of an order, from the screens that show the order."""
    return icon_link(
        "receipt",
        t("receipt.view"),
        href="/receipt?order=" + order_number,
        id_=id_,
        **props,
    )


def _money_row(row: MoneyRow) -> rx.Component:
    return rx.el.div(
        rx.text(row.label, size="2", weight=rx.cond(row.strong, "bold", "regular")),
        rx.text(row.amount, size="2", weight=rx.cond(row.strong, "bold", "regular")),
        class_name="hm-receipt-row",
    )


def _line_row(row: ReceiptRow) -> rx.Component:
    return rx.match(
        row.kind,
        (
            "child",
            rx.heading(row.label, as_="h3", size="4", margin_top="12px"),
        ),
        ("day", muted(row.label, weight="bold", margin_top="4px")),
        (
            "line",
            rx.el.div(
                rx.box(
                    rx.text(row.label, size="3", weight="medium"),
                    rx.cond(row.detail != "", muted(row.detail, size="1")),
                ),
                rx.text(row.amount, size="3", weight="medium"),
                class_name="hm-receipt-row",
                padding_left="8px",
            ),
        ),
        (
            "note",
            muted("“", row.label, "”", size="1", padding_left="20px"),
        ),
        rx.el.div(
            muted(row.label),
            muted(row.amount),
            class_name="hm-receipt-row",
            padding_left="20px",
        ),
    )


def _section(title_key: str, *children: rx.Component) -> rx.Component:
    return column(
        section_title(title_key),
        rx.separator(size="4"),
        *children,
        spacing="2",
        margin_top="12px",
    )


def _fact(label_key: str, value) -> rx.Component:
    return rx.el.div(
        muted(t(label_key)),
        rx.text(value, size="2", weight="medium"),
        class_name="hm-receipt-fact",
    )


def _rows(rows: rx.Var, render: Any, id_: str) -> rx.Component:
    return column(rx.foreach(rows, render), spacing="1", id=id_)


def receipt_body() -> rx.Component:
    return section_card(
        column(
            rx.flex(
                rx.box(
                    rx.text(ReceiptState.seller, size="5", weight="bold"),
                    muted(ReceiptState.hst_label, size="1", id="receipt-hst"),
                    muted(ReceiptState.seller_email, size="1"),
                ),
                rx.heading(ReceiptState.title, as_="h1", size="6"),
                justify="between",
                align="start",
                wrap="wrap",
                gap="8px",
                width="100%",
            ),
            column(
                _fact("receipt.number", ReceiptState.number),
                rx.cond(
                    (ReceiptState.order_number != "")
                    & (ReceiptState.order_number != ReceiptState.number),
                    _fact("receipt.order_number", ReceiptState.order_number),
                ),
                _fact("receipt.date", ReceiptState.day),
                _fact("receipt.billed_to", ReceiptState.billed_to),
                rx.cond(ReceiptState.school != "", _fact("receipt.school", ReceiptState.school)),
                spacing="1",
                margin_top="8px",
            ),
            items_or(
                ReceiptState.rows,
                _section(
                    "receipt.lines",
                    _rows(ReceiptState.rows, _line_row, "receipt-lines"),
                ),
            ),
            _section(
                "receipt.charges",
                _rows(ReceiptState.charges, _money_row, "receipt-charges"),
            ),
            items_or(
                ReceiptState.payments,
                _section(
                    "receipt.payments",
                    rx.vstack(rx.foreach(ReceiptState.payments, _money_row), width="100%"),
                ),
            ),
            _section(
                "receipt.refunds",
                items_or(
                    ReceiptState.refunds,
                    _rows(ReceiptState.refunds, _money_row, "receipt-refunds"),
                    muted(t("receipt.no_refunds")),
                ),
            ),
            items_or(
                ReceiptState.giveback,
                _section(
                    "receipt.giveback",
                    column(
                        rx.foreach(ReceiptState.giveback, _money_row),
                        rx.cond(
                            ReceiptState.kind == "order",
                            muted(t("receipt.giveback_note"), size="1"),
                        ),
                        spacing="1",
                        id="receipt-giveback",
                    ),
                ),
            ),
            items_or(
                ReceiptState.changes,
                rx.box(
                    _section(
                        "receipt.changes",
                        rx.foreach(
                            ReceiptState.changes,
                            lambda c: rx.link(c.label, href=c.href, size="2"),
                        ),
                    ),
                    class_name="hm-no-print",
                    width="100%",
                ),
            ),
            rx.text(t("receipt.thanks"), size="2", margin_top="16px"),
            spacing="2",
        ),
        id="receipt",
    )


def receipt_actions() -> rx.Component:
    return rx.flex(
        rx.cond(
            ReceiptState.back_href != "",
            way_back(ReceiptState.back_href, "receipt.back", "receipt-back"),
        ),
        rx.spacer(),
        icon_button(
            "printer",
            t("receipt.print"),
            on_click=rx.call_script("window.print()"),
            id="receipt-print",
            **SMALL_SOFT,
        ),
        icon_button(
            "file-down",
            t("receipt.pdf"),
            on_click=ReceiptState.download_pdf,
            id="receipt-pdf",
            size="2",
        ),
        **ACTION_ROW,
        align="center",
        width="100%",
        class_name="hm-no-print",
    )


def receipt_page() -> rx.Component:
    return parent_screen(
        rx.el.style(PRINT_CSS),
        loaded_or_missing(
            ReceiptState.loaded,
            ReceiptState.missing,
            missing_notice(
                t("receipt.view"), ReceiptState.missing, "receipt-missing", width="100%"
            ),
            column(receipt_actions(), receipt_body(), spacing="3"),
            loading_spinner(rx.text(t("receipt.loading"), class_name="sr-only")),
        ),
        on_language_change(ReceiptState.relang),
        max_width="760px",
    )
