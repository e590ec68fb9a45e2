"""Contact us (/edit-profile step 8): the form of docs/product.md §3 (first name, last name,
email, phone, subject, description), the provider's phone and e-mail, and the FAQ."""

from __future__ import annotations

import reflex as rx

from hotmeals.settings import get_settings
from hotmeals.ui.components.forms import error_of, server_form, submit_button, text_area, text_field
from hotmeals.ui.components.header import faq_list
from hotmeals.ui.components.screens import screen_intro
from hotmeals.ui.state.contact import PREFIX, ContactState
from hotmeals.ui.state.content import ContentState
from hotmeals.ui.state.i18n import I18nState, t


def _field(name: str, label_key: str, value: rx.Var | None = None, **props) -> rx.Component:
    return text_field(
        PREFIX + name,
        name,
        t(label_key),
        error_of(ContactState.errors, name),
        on_blur=ContactState.blur(name),
        default_value=value,
        **props,
    )


def contact_form() -> rx.Component:
    return server_form(
        rx.grid(
            _field(
                "first_name",
                "ui.field.first_name",
                ContactState.first_name,
                auto_complete="given-name",
            ),
            _field(
                "last_name",
                "ui.field.last_name",
                ContactState.last_name,
                auto_complete="family-name",
            ),
            columns=rx.breakpoints(initial="1", xs="2"),
            spacing="4",
            width="100%",
        ),
        rx.grid(
            _field(
                "email",
                "ui.field.email",
                ContactState.email,
                input_type="email",
                auto_complete="email",
            ),
            _field(
                "phone",
                "ui.field.phone",
                ContactState.phone,
                input_type="tel",
                auto_complete="tel",
            ),
            columns=rx.breakpoints(initial="1", xs="2"),
            spacing="4",
            width="100%",
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


def contact_step() -> rx.Component:
    s = get_settings()
    return rx.vstack(
        *screen_intro(t("ui.contact.title"), t("ui.contact.intro")),
        rx.flex(
            rx.link(
                rx.icon("phone", size=16, aria_hidden="true"),
                s.support_phone,
                href=f"tel:{s.support_phone.replace(' ', '')}",
                weight="medium",
                class_name="hm-icon-link",
            ),
            rx.link(
                rx.icon("mail", size=16, aria_hidden="true"),
                s.provider_email,
                href=f"mailto:{s.provider_email}",
                weight="medium",
                class_name="hm-icon-link",
            ),
            spacing="5",
            wrap="wrap",
        ),
        rx.card(contact_form(), width="100%", size="3"),
        rx.heading(t("ui.faq.title"), as_="h2", size="5", margin_top="16px"),
        faq_list(rx.cond(I18nState.is_fr, ContentState.faq_fr, ContentState.faq_en)),
        spacing="4",
        width="100%",
    )
