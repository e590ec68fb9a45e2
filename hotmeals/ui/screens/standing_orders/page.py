"""/standing-orders: the parent's standing orders on one screen, each with
what it books, until when, its next date and what happened last, and Pause / Resume / End
(End asks first). Its route: ``hotmeals/ui/routes.py``."""

from __future__ import annotations

from typing import Any

import reflex as rx

from hotmeals.ui.components.after_parts import (
    ACTION_ROW,
    RED_SOFT,
    SMALL_SOFT,
    card_list,
    glyph,
    icon_link,
    list_card,
)
from hotmeals.ui.components.dialogs import confirm_dialog, shown_by
from hotmeals.ui.components.form_parts import muted
from hotmeals.ui.components.header import BOOK_MEAL_ROUTE
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.panels import GRID_LIST
from hotmeals.ui.components.screens import parent_screen, screen_intro
from hotmeals.ui.screens.standing_orders.state import StandingRow, StandingState
from hotmeals.ui.shared_state.i18n import t


def _act_button(row: StandingRow, action: str, icon: str, **props: Any) -> rx.Component:
    """Pause or Resume: its spinner while this row's action runs; no tap while any does."""
    busy = StandingState.busy_id == row.id
    return rx.button(
        rx.cond(busy, rx.spinner(size="1"), glyph(icon)),
        t(f"standing_ui.{action}"),
        on_click=StandingState.act(row.id, action),
        disabled=StandingState.busy_id != "",
        **props,
        size="2",
        id=f"standing-{row.id}-{action}",  # focused after the other one is tapped
        class_name=f"hm-standing-{action}",
    )


def _actions(row: StandingRow) -> rx.Component:
    return rx.flex(
        rx.cond(row.status == "active", _act_button(row, "pause", "pause", variant="soft")),
        rx.cond(row.status == "paused", _act_button(row, "resume", "play")),
        rx.cond(
            row.status != "ended",
            rx.button(
                t("standing_ui.end"),
                on_click=StandingState.ask_end(row.id),
                disabled=StandingState.busy_id != "",
                **RED_SOFT,
                size="2",
                class_name="hm-standing-end",
            ),
        ),
        **ACTION_ROW,
    )


def standing_card(row: StandingRow) -> rx.Component:
    return list_card(
        rx.flex(
            rx.heading(row.summary, as_="h2", size="3", class_name="hm-standing-summary"),
            rx.badge(
                row.status_label,
                color_scheme=rx.match(
                    row.status, ("active", "grass"), ("paused", "orange"), "gray"
                ),
                class_name="hm-standing-status",
                flex_shrink="0",
            ),
            justify="between",
            align="start",
            gap="8px",
            width="100%",
        ),
        muted(row.ends_label),
        rx.cond(row.next_label != "", rx.text(row.next_label, size="2", weight="medium")),
        rx.cond(row.last_label != "", muted(row.last_label)),
        _actions(row),
        class_name="hm-standing-card",
        data={"data-standing-id": row.id, "data-status": row.status},
    )


def standing_list() -> rx.Component:
    return card_list(
        StandingState,
        standing_card,
        list_id="standing-list",
        list_style=GRID_LIST,
        empty=muted(t("standing_ui.empty"), size=None, text_align="center"),
        empty_id="standing-empty",
    )


def standing_orders() -> rx.Component:
    return parent_screen(
        *screen_intro(t("standing_ui.title"), t("standing_ui.intro")),
        icon_link(
            "utensils",
            t("standing_ui.book_link"),
            href=BOOK_MEAL_ROUTE,
            **SMALL_SOFT,
            id_="standing-book",
        ),
        standing_list(),
        confirm_dialog(
            title=t("standing_ui.end_title"),
            description=t("standing_ui.end_text"),
            cancel_label=t("standing_ui.end_cancel"),
            confirm_label=t("standing_ui.end"),
            **shown_by(StandingState, "end_open"),
            on_confirm=StandingState.confirm_end,
            busy=StandingState.busy_id != "",
            confirm_id="standing-end-confirm",
        ),
        on_language_change(StandingState.relang),
    )
