"""Forgot password (docs/product.md §4): e-mail -> 6-digit code -> new password, inside /sign-in."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.form_parts import EMAIL_INPUT, bound_field, password_field
from hotmeals.ui.components.forms import server_form, submit_button
from hotmeals.ui.components.otp_dialog import otp_panel
from hotmeals.ui.components.screens import back_button, screen_heading
from hotmeals.ui.screens.sign_in.state import RESET_PREFIX, ForgotState, SignInState
from hotmeals.ui.shared_state.i18n import t
from hotmeals.ui.shared_state.otp import RESET_PASSWORD, OtpState


def _back() -> rx.Component:
    return back_button(t("ui.reset.back_to_login"), SignInState.back_to_login)


def _step(
    title_key: str, subtitle_key: str, *fields: rx.Component, save_key: str, save_id: str, on_submit
) -> rx.Component:
    """One step of the reset: its heading, its fields, the busy submit and "Back to login"."""
    return rx.box(
        screen_heading(t(title_key), t(subtitle_key)),
        server_form(
            *fields,
            submit_button(t(save_key), ForgotState.busy, t("ui.common.please_wait"), id=save_id),
            _back(),
            on_submit=on_submit,
            align="start",
        ),
    )


def email_step() -> rx.Component:
    email = bound_field(
        RESET_PREFIX,
        "email",
        "ui.field.email",
        ForgotState.errors,
        **EMAIL_INPUT,
        input_mode="email",
        on_blur=ForgotState.blur_email,
        default_value=ForgotState.email,  # what sign-in had typed
    )
    return _step(
        "ui.reset.title",
        "ui.reset.subtitle",
        email,
        save_key="ui.reset.send_code",
        save_id="reset-send",
        on_submit=ForgotState.send_code,
    )


def _password_field(name: str, label_key: str, **props) -> rx.Component:
    return password_field(RESET_PREFIX, name, label_key, ForgotState.errors, **props)


def new_password_step() -> rx.Component:
    return _step(
        "ui.reset.new_title",
        "ui.reset.new_subtitle",
        _password_field("password", "ui.field.new_password", hint=t("ui.field.password_hint")),
        _password_field("confirm_password", "ui.field.confirm_password"),
        save_key="ui.reset.save",
        save_id="reset-save",
        on_submit=ForgotState.save_password,
    )


def forgot_panel() -> rx.Component:
    return rx.cond(
        ForgotState.step == "new",
        new_password_step(),
        rx.cond(
            (ForgotState.step == "otp") & (OtpState.purpose == RESET_PASSWORD),
            otp_panel(on_submit=ForgotState.submit_code),
            email_step(),
        ),
    )
