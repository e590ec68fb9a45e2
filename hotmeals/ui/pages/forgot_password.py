"""Forgot password (docs/product.md §4): e-mail -> 6-digit code -> new password, inside /sign-in."""

from __future__ import annotations

import reflex as rx

from hotmeals.ui.components.forms import error_of, server_form, submit_button, text_field
from hotmeals.ui.components.screens import screen_heading
from hotmeals.ui.pages.otp import otp_panel
from hotmeals.ui.state.i18n import t
from hotmeals.ui.state.otp import RESET_PASSWORD, OtpState
from hotmeals.ui.state.sign_in import RESET_PREFIX, ForgotState, SignInState


def _back() -> rx.Component:
    return rx.button(
        rx.icon("arrow-left", size=14, aria_hidden="true"),
        t("ui.reset.back_to_login"),
        type="button",
        variant="ghost",
        size="2",
        on_click=SignInState.back_to_login,
    )


def email_step() -> rx.Component:
    return rx.box(
        screen_heading(t("ui.reset.title"), t("ui.reset.subtitle")),
        server_form(
            text_field(
                RESET_PREFIX + "email",
                "email",
                t("ui.field.email"),
                error_of(ForgotState.errors, "email"),
                input_type="email",
                auto_complete="email",
                input_mode="email",
                on_blur=ForgotState.blur_email,
                default_value=ForgotState.email,  # what sign-in had typed
            ),
            submit_button(
                t("ui.reset.send_code"),
                ForgotState.busy,
                t("ui.common.please_wait"),
                id="reset-send",
            ),
            _back(),
            on_submit=ForgotState.send_code,
            align="start",
        ),
    )


def new_password_step() -> rx.Component:
    return rx.box(
        screen_heading(t("ui.reset.new_title"), t("ui.reset.new_subtitle")),
        server_form(
            text_field(
                RESET_PREFIX + "password",
                "password",
                t("ui.field.new_password"),
                error_of(ForgotState.errors, "password"),
                input_type="password",
                auto_complete="new-password",
                hint=t("ui.field.password_hint"),
            ),
            text_field(
                RESET_PREFIX + "confirm_password",
                "confirm_password",
                t("ui.field.confirm_password"),
                error_of(ForgotState.errors, "confirm_password"),
                input_type="password",
                auto_complete="new-password",
            ),
            submit_button(
                t("ui.reset.save"),
                ForgotState.busy,
                t("ui.common.please_wait"),
                id="reset-save",
            ),
            _back(),
            on_submit=ForgotState.save_password,
            align="start",
        ),
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
