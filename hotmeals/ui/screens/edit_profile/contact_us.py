"""Contact us (/edit-profile step 8): the form of docs/product.md §3 (first name, last name,
email, phone, subject, description), the provider's phone and e-mail, and the FAQ."""

from __future__ import annotations

import reflex as rx

from hotmeals.settings import get_settings
from hotmeals.ui.components.after_parts import glyph
from hotmeals.ui.components.form_parts import (
    EMAIL_INPUT,
    PHONE_INPUT,
    checked_field,
    name_pair,
    section_card,
)
from hotmeals.ui.components.forms import (
    error_of,
    field_pair,
    server_form,
    submit_button,
    text_area,
)
from hotmeals.ui.components.header import faq_list
from hotmeals.ui.components.panels import column
from hotmeals.ui.components.screens import screen_intro
from hotmeals.ui.shared_state.contact import PREFIX, ContactState
from hotmeals.ui.shared_state.content import ContentState
from hotmeals.ui.shared_state.i18n import I18nState, t

# What the form starts with: the parent's own name, e-mail and phone.
PREFILLED = ("first_name", "last_name", "email", "phone")


def _field(name: str, label_key: str, **props) -> rx.Component:
    return checked_field(
        PREFIX,
        ContactState,
        name,
        label_key,
        default_value=getattr(ContactState, name) if name in PREFILLED else None,
        **props,
    )


def contact_form() -> rx.Component:
    return server_form(
        name_pair(_field),
        field_pair(
            _field("email", "ui.field.email", **EMAIL_INPUT),
            _field("phone", "ui.field.phone", **PHONE_INPUT),
        ),
        _field("subject", "ui.field.subject"),
        text_area(
            PREFIX + "description",
            "description",
            t("ui.field.description"),
            error_of(ContactState.errors, "description"),
            on_blur=ContactState.blur("description"),
        ),
        submit_button(
            t("ui.contact.send"),
            ContactState.busy,
            t("ui.contact.sending"),
            width="auto",
            id="contact-submit",
            turn=ContactState.turn,
        ),
        on_submit=ContactState.submit,
        align="start",
        key=ContactState.form_key.to_string() + ContactState.email,
        width="100%",
    )


def _reach_link(icon: str, text: str, href: str) -> rx.Component:
    """The provider's phone or e-mail, a link that calls or writes."""
    return rx.link(
        glyph(icon),
        text,
        href=href,
        weight="medium",
        class_name="hm-icon-link",
    )


def contact_step() -> rx.Component:
    s = get_settings()
    return column(
        *screen_intro(t("ui.contact.title"), t("ui.contact.intro")),
        rx.flex(
            _reach_link("phone", s.support_phone, f"tel:{s.support_phone.replace(' ', '')}"),
            _reach_link("mail", s.provider_email, f"mailto:{s.provider_email}"),
            spacing="5",
            wrap="wrap",
        ),
        section_card(contact_form()),
        rx.heading(t("ui.faq.title"), as_="h2", size="5", margin_top="16px"),
        faq_list(rx.cond(I18nState.is_fr, ContentState.faq_fr, ContentState.faq_en)),
        spacing="4",
    )
