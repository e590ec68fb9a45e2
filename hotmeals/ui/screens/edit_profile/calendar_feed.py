"""The Settings screen's "Calendar" card: the family's private iCal link,
a copy button, a subscribe link (webcal://) and "Make a new link" behind a confirmation."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.after_parts import ACTION_ROW, glyph
from hotmeals.ui.components.dialogs import confirm_dialog, shown_by
from hotmeals.ui.components.form_parts import icon_bubble, muted
from hotmeals.ui.components.lang_watch import on_language_change
from hotmeals.ui.components.panels import column
from hotmeals.ui.screens.receipt.state import CalendarFeedState
from hotmeals.ui.shared_state.i18n import t


def calendar_feed_card() -> rx.Component:
    return rx.card(
        column(
            rx.hstack(
                icon_bubble("calendar-days"),
                rx.heading(t("feed.card_title"), as_="h2", size="4"),
                align="center",
                spacing="3",
            ),
            muted(t("feed.card_text")),
            rx.el.label(t("feed.link_label"), html_for="calendar-feed-url", class_name="hm-label"),
            rx.cond(
                CalendarFeedState.url != "",
                rx.el.input(
                    id="calendar-feed-url",
                    value=CalendarFeedState.url,
                    read_only=True,
                    on_focus=rx.call_script(
                        "document.getElementById('calendar-feed-url').select()"
                    ),
                    class_name="hm-feed-url",
                    style={
                        "width": "100%",
                        "font_family": "ui-monospace, monospace",
                        "font_size": "13px",
                        "padding": "8px 10px",
                        "border": f"1px solid {rx.color('gray', 7)}",
                        "border_radius": "8px",
                        "background": rx.color("gray", 2),
                        "color": rx.color("gray", 12),
                        "text_overflow": "ellipsis",
                    },
                ),
                rx.spinner(size="2"),
            ),
            rx.flex(
                rx.button(
                    glyph("copy"),
                    t("feed.copy"),
                    on_click=[
                        rx.set_clipboard(CalendarFeedState.url),
                        rx.toast.success(t("feed.copied")),
                    ],
                    disabled=CalendarFeedState.url == "",
                    id="calendar-feed-copy",
                    size="2",
                ),
                rx.button(
                    rx.el.a(
                        glyph("calendar-plus"),
                        t("feed.open"),
                        href=CalendarFeedState.webcal_url,
                        id="calendar-feed-subscribe",
                    ),
                    as_child=True,
                    variant="soft",
                    size="2",
                ),
                rx.button(
                    glyph("refresh-cw"),
                    t("feed.rotate"),
                    on_click=CalendarFeedState.set_rotate_open(True),
                    variant="outline",
                    color_scheme="gray",
                    size="2",
                    id="calendar-feed-rotate",
                ),
                **ACTION_ROW,
            ),
            confirm_dialog(
                title=t("feed.rotate"),
                description=t("feed.rotate_confirm"),
                confirm_label=t("feed.rotate"),
                **shown_by(CalendarFeedState, "rotate_open"),
                on_confirm=CalendarFeedState.rotate,
                busy=CalendarFeedState.busy,
                confirm_id="calendar-feed-rotate-confirm",
            ),
            # loaded on mount and again in the language chosen: the link speaks it
            on_language_change(CalendarFeedState.load),
            spacing="3",
        ),
        width="100%",
        id="calendar-feed",
    )
