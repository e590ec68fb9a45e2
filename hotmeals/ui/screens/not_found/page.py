"""Unknown paths: the not-found screen, with header and footer hidden (docs/product.md §2)."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.form_parts import muted
from hotmeals.ui.components.layout import brand, language_switch, page, static
from hotmeals.ui.shared_state.i18n import t


def not_found() -> rx.Component:
    return page(
        rx.center(
            rx.vstack(
                brand(),
                rx.image(src=static("/empty-plate.svg"), alt="", width="160px", height="120px"),
                rx.heading(t("not_found.title"), as_="h1", size="7", id="not-found-title"),
                muted(t("not_found.text"), size=None, text_align="center"),
                rx.link(rx.button(t("not_found.home"), size="3"), href="/"),
                language_switch(),
                spacing="4",
                align="center",
                max_width="420px",
                padding="24px",
            ),
            min_height="100vh",
        ),
        chrome=False,
    )
