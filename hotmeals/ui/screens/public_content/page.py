"""About, terms, privacy and FAQ at addresses of their own (/about, /terms, /privacy, /faq) so
they can be linked: the same CMS text as the footer's dialog and the parent's
/edit-profile steps, as HTML made on the server (no Markdown renderer on a visitor page)."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.header import cms_article, cms_html, cms_title
from hotmeals.ui.components.layout import COLUMN, page
from hotmeals.ui.shared_state.content import ContentState

# address -> CMS slug, and the tab title's catalog key
PUBLIC_PAGES = {
    "/about": ("about", "title.about"),
    "/terms": ("terms", "title.terms"),
    "/privacy": ("privacy", "title.privacy"),
    "/faq": ("faq", "title.faq"),
}


def public_content() -> rx.Component:
    return page(
        rx.box(
            rx.cond(
                ContentState.loading,
                rx.center(rx.spinner(size="3"), padding="32px"),
                cms_article(cms_title(), cms_html()),
            ),
            **COLUMN,
            padding_y=rx.breakpoints(initial="24px", md="48px"),
            id="public-content",
        )
    )
