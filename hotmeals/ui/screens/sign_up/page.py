"""/sign-up (docs/product.md §2, §5): every field's message verbatim at the field as the parent
types and on submit, terms required; then the e-mail code. A logged-in parent sees the
landing screen."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.form_parts import (
    EMAIL_INPUT,
    PHONE_INPUT,
    checked_field,
    form_end,
    name_pair,
)
from hotmeals.ui.components.forms import (
    aria_attrs,
    error_of,
    field_error,
    server_form,
)
from hotmeals.ui.components.header import cms_dialog
from hotmeals.ui.components.otp_dialog import otp_panel
from hotmeals.ui.components.progress import signup_progress
from hotmeals.ui.components.screens import screen_heading
from hotmeals.ui.screens.sign_in.page import welcome_screen
from hotmeals.ui.screens.sign_up.state import KEPT, PREFIX, SignUpState
from hotmeals.ui.shared_state.content import ContentState
from hotmeals.ui.shared_state.i18n import t
from hotmeals.ui.shared_state.otp import VERIFY_EMAIL, OtpState


def _field(name: str, label_key: str, **props) -> rx.Component:
    return checked_field(
        PREFIX,
        SignUpState,
        name,
        label_key,
        on_change=SignUpState.change(name).debounce(350),
        # What this tab typed, shown again after a reload or Back from the code step.
        default_value=SignUpState.kept.get(name, "").to(str) if name in KEPT else None,
        **props,
    )


def _password(name: str, label_key: str, **props) -> rx.Component:
    return _field(name, label_key, input_type="password", auto_complete="new-password", **props)


def terms_field() -> rx.Component:
    error = error_of(SignUpState.errors, "terms")
    field_id = PREFIX + "terms"
    return rx.box(
        rx.flex(
            rx.checkbox(
                id=field_id,
                name="terms",
                size="3",
                default_checked=SignUpState.kept.get("terms", "").to(str) == "1",
                on_change=SignUpState.set_terms,
                custom_attrs=aria_attrs(field_id, error, None, True),
            ),
            rx.el.label(t("ui.signup.terms"), html_for=field_id, class_name="hm-check-label"),
            spacing="3",
            align="start",
        ),
        rx.el.button(
            t("ui.signup.read_terms"),
            type="button",
            on_click=ContentState.open_dialog("terms"),
            class_name="hm-linklike",
            margin_left="36px",
        ),
        field_error(field_id, error),
        class_name="hm-field",
    )


def sign_up_form() -> rx.Component:
    return rx.box(
        signup_progress(1),
        screen_heading(t("ui.signup.title"), t("ui.signup.subtitle")),
        server_form(
            name_pair(_field),
            _field("email", "ui.field.email", **EMAIL_INPUT, input_mode="email"),
            _field(
                "phone",
                "ui.field.phone",
                **PHONE_INPUT,
                input_mode="tel",
                hint=t("ui.field.phone_hint"),
            ),
            _password("password", "ui.field.password", hint=t("ui.field.password_hint")),
            _password("confirm_password", "ui.field.confirm_password"),
            terms_field(),
            *form_end(
                SignUpState,
                ("ui.signup.submit", "ui.common.please_wait"),
                "signup-submit",
                ("ui.signup.have_account", "ui.signup.login_link", "/sign-in"),
            ),
            on_submit=SignUpState.submit,
            width="100%",
            # Never mounted again: a remount once the tab's state arrived erased
            # what the parent (or the browser's autofill) had typed in the first half second.
            # The kept values go into the fields still empty (SignUpState.enter).
            id="signup-form",
        ),
        cms_dialog(),
        width="100%",
    )


def sign_up() -> rx.Component:
    return welcome_screen(
        rx.cond(
            (OtpState.purpose == VERIFY_EMAIL) & SignUpState.at_code,
            otp_panel(),
            sign_up_form(),
        ),
        t("ui.signup.aside_title"),
        t("ui.signup.aside_text"),
    )
