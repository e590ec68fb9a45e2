"""About us, terms and privacy (/edit-profile steps 7, 9, 10) from the CMS tables, in the
chosen language, rendered from Markdown."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.header import markdown
from hotmeals.ui.state.content import ContentState
from hotmeals.ui.state.i18n import I18nState, t


def cms_step() -> rx.Component:
    title = rx.cond(I18nState.is_fr, ContentState.title_fr, ContentState.title_en)
    body = rx.cond(I18nState.is_fr, ContentState.body_fr, ContentState.body_en)
    return rx.cond(
        ContentState.failed,
        rx.text(t("ui.common.no_data")),
        rx.el.article(
            rx.heading(title, as_="h1", size="7", margin_bottom="16px"),
            rx.box(markdown(body), class_name="hm-prose"),
            width="100%",
        ),
    )
