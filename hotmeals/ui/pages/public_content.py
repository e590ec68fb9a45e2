"""About, terms, privacy and FAQ at addresses of their own (/about, /terms, /privacy, /faq) so
they can be linked: the same CMS text as the footer's dialog and the parent's
/edit-profile steps, as HTML made on the server (no Markdown renderer on a visitor page)."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.header import faq_list
from hotmeals.ui.components.layout import MAX_WIDTH, page
from hotmeals.ui.state.content import ContentState
from hotmeals.ui.state.i18n import I18nState, t

# address -> CMS slug, and the tab title's catalog key
PUBLIC_PAGES = {
    "/about": ("about", "title.about"),
    "/terms": ("terms", "title.terms"),
    "/privacy": ("privacy", "title.privacy"),
    "/faq": ("faq", "title.faq"),
}


def _article() -> rx.Component:
    title = rx.cond(I18nState.is_fr, ContentState.title_fr, ContentState.title_en)
    body = rx.cond(I18nState.is_fr, ContentState.html_fr, ContentState.html_en)
    faq = rx.cond(I18nState.is_fr, ContentState.faq_fr, ContentState.faq_en)
    return rx.cond(
        ContentState.failed,
        rx.text(t("ui.common.no_data")),
        rx.el.article(
            rx.heading(
                rx.cond(ContentState.slug == "faq", t("ui.faq.title"), title),
                as_="h1",
                size="7",
                margin_bottom="16px",
            ),
            rx.cond(
                ContentState.slug == "faq",
                faq_list(faq, html=True),
                rx.html(body, class_name="hm-prose"),
            ),
            width="100%",
        ),
    )


def public_content() -> rx.Component:
    return page(
        rx.box(
            rx.cond(
                ContentState.loading,
                rx.center(rx.spinner(size="3"), padding="32px"),
                _article(),
            ),
            max_width=MAX_WIDTH,
            margin_x="auto",
            padding_x="16px",
            padding_y=rx.breakpoints(initial="24px", md="48px"),
            id="public-content",
        )
    )
