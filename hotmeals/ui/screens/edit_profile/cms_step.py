"""About us, terms and privacy (/edit-profile steps 7, 9, 10) from the CMS tables, in the
chosen language, rendered from Markdown."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.header import cms_article, in_lang, markdown
from hotmeals.ui.shared_state.content import ContentState


def cms_step() -> rx.Component:
    return cms_article(
        in_lang(ContentState.title_fr, ContentState.title_en),
        rx.box(
            markdown(in_lang(ContentState.body_fr, ContentState.body_en)), class_name="hm-prose"
        ),
    )
