"""/edit-profile/order-history: the parent's paid orders in two tabs,
Future and Past; each with its number, delivery dates, ordered-on date, total items and total,
and a link to its details. 'No data found' when a tab is empty."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import (
    SMALL_SOFT,
    card_list,
    heading_badge,
    list_card,
    onward_link,
)
from hotmeals.ui.components.form_parts import muted
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.screens.order_history.state import HistoryRow, OrderHistoryState
from hotmeals.ui.shared_state.i18n import t


def fact(label_key: str, value, class_name: str, wide: bool = False) -> rx.Component:
    return rx.box(
        rx.el.dt(t(label_key), class_name="hm-fact-label"),
        rx.el.dd(value, class_name=class_name, style={"text_align": "end"}),
        class_name="hm-fact",
        # The dates and the ordered-on day take the card's width (no 3-word column on phones).
        style={"grid_column": "1 / -1"} if wide else {},
    )


def order_card(row: HistoryRow) -> rx.Component:
    return list_card(
        heading_badge(
            rx.heading(
                t("orders_ui.order"),
                " ",
                row.number,
                as_="h2",
                size="4",
                class_name="hm-number",
            ),
            rx.badge(
                row.status_label,
                color_scheme=rx.match(
                    row.status,
                    ("cancelled", "red"),
                    ("partially_cancelled", "orange"),
                    "grass",
                ),
                class_name="hm-order-status",
            ),
        ),
        rx.text(
            rx.el.strong(row.children, class_name="hm-order-children"),
            size="2",
        ),
        muted(row.meals, class_name="hm-order-meals"),
        rx.el.dl(
            fact("orders_ui.delivery_dates", row.dates, "hm-order-dates", wide=True),
            fact("orders_ui.ordered_on", row.ordered_on, "hm-order-placed", wide=True),
            fact("orders_ui.total_items", row.meal_count, "hm-order-items"),
            fact("orders_ui.total", row.total, "hm-order-total"),
            rx.cond(
                row.has_refund,
                fact("orders_ui.refunded", row.refunded, "hm-order-refunded"),
            ),
            class_name="hm-facts",
            # The card's full width (a column of the stack shrinks to its content).
            style={"width": "100%"},
        ),
        onward_link(
            t("orders_ui.view"),
            href=row.href,
            **SMALL_SOFT,
            custom_attrs={"aria-label": row.view_label},
            class_name="hm-order-view",
        ),
        class_name="hm-order-card",
        data={"data-order-id": row.order_id},
    )


def order_list() -> rx.Component:
    return card_list(
        OrderHistoryState,
        order_card,
        list_id="order-list",
        list_style={"display": "grid", "gap": "12px", "padding": "0", "margin": "0"},
        empty=muted(OrderHistoryState.empty_message, size=None),
        empty_id="orders-empty",
    )


def order_history() -> rx.Component:
    return parent_screen(
        rx.tabs.root(
            rx.tabs.list(
                rx.tabs.trigger(t("orders_ui.tab_future"), value="future", id="tab-future"),
                rx.tabs.trigger(t("orders_ui.tab_past"), value="past", id="tab-past"),
                aria_label=t("orders_ui.tabs_label"),
            ),
            rx.tabs.content(order_list(), value="future", padding_top="16px"),
            rx.tabs.content(order_list(), value="past", padding_top="16px"),
            value=OrderHistoryState.tab,
            on_change=OrderHistoryState.set_tab,
            width="100%",
        ),
        on_language_change(OrderHistoryState.relang),
        frame=screen_intro(t("orders_ui.history_title"), t("orders_ui.history_intro")),
    )
