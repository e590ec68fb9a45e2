"""Landing page (docs/product.md §1): what the service is, the prices and what every meal gives
back."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.forms import link_button
from hotmeals.ui.components.icons import icon as svg_icon
from hotmeals.ui.components.layout import MAX_WIDTH, page, static
from hotmeals.ui.components.order_parts import muted
from hotmeals.ui.components.panels import column
from hotmeals.ui.shared_state.auth import AuthState
from hotmeals.ui.shared_state.i18n import t


def _fact(icon: str, title_key: str, text_key: str) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.box(
                svg_icon(icon, size=22, aria_hidden="true"),
                color=rx.color("accent", 11),
                background_color=rx.color("accent", 3),
                border_radius="9999px",
                padding="8px",
                display="inline-flex",
            ),
            rx.heading(t(title_key), as_="h2", size="4"),
            muted(t(text_key), size="3"),
            spacing="3",
        ),
        size="3",
    )


def _step(number: str, title_key: str, text_key: str) -> rx.Component:
    return rx.hstack(
        rx.box(
            rx.text(number, weight="bold", aria_hidden="true"),
            width="36px",
            height="36px",
            border_radius="9999px",
            background_color=rx.color("accent", 11),
            color="white",
            display="flex",
            align_items="center",
            justify_content="center",
            flex_shrink="0",
        ),
        rx.vstack(
            rx.heading(t(title_key), as_="h3", size="3"),
            muted(t(text_key), size="2"),
            spacing="1",
        ),
        spacing="3",
        align="start",
    )


def _three_columns(*items: rx.Component, spacing: str) -> rx.Component:
    """One under the other on a phone, three side by side from the md breakpoint."""
    return rx.grid(
        *items, columns=rx.breakpoints(initial="1", md="3"), spacing=spacing, width="100%"
    )


def hero() -> rx.Component:
    return rx.grid(
        rx.vstack(
            rx.heading(t("landing.hero_title"), as_="h1", size=rx.breakpoints(initial="8", md="9")),
            muted(t("landing.hero_text"), size="4"),
            rx.cond(
                AuthState.is_parent,
                # A signed-in parent goes straight to booking (sign-up would show this page).
                # Links styled as buttons: one element, one Tab stop, one role each.
                link_button(t("landing.cta_book"), href="/edit-profile", size="4"),
                rx.flex(
                    link_button(t("landing.cta_start"), href="/sign-up", size="4"),
                    link_button(t("landing.cta_login"), href="/sign-in", size="4", variant="soft"),
                    spacing="3",
                    wrap="wrap",
                ),
            ),
            spacing="5",
            justify="center",
        ),
        rx.image(
            src=static("/hero-tray.svg"),
            alt=t("landing.hero_image_alt"),
            width="100%",
            height="auto",
            # The picture's own 480x360: its box is kept before it arrives (it may come after
            # the first paint), so nothing below it moves.
            aspect_ratio="4 / 3",
            max_width="520px",
            margin_x="auto",
        ),
        columns=rx.breakpoints(initial="1", md="2"),
        spacing="6",
        align_items="center",
    )


def landing() -> rx.Component:
    return page(
        rx.box(
            rx.vstack(
                hero(),
                _three_columns(
                    _fact("badge-dollar-sign", "landing.price_title", "landing.price_text"),
                    _fact("heart-handshake", "landing.giveback_title", "landing.giveback_text"),
                    _fact("shield-alert", "landing.allergy_title", "landing.allergy_text"),
                    spacing="4",
                ),
                column(
                    rx.heading(t("landing.how_title"), as_="h2", size="6"),
                    _three_columns(
                        _step("1", "landing.step1_title", "landing.step1_text"),
                        _step("2", "landing.step2_title", "landing.step2_text"),
                        _step("3", "landing.step3_title", "landing.step3_text"),
                        spacing="5",
                    ),
                    spacing="4",
                ),
                spacing="8",
            ),
            max_width=MAX_WIDTH,
            margin_x="auto",
            padding_x="16px",
            padding_y=rx.breakpoints(initial="24px", md="64px"),
        )
    )
